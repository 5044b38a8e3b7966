"""The O Christmas Tree's winter reprieve (docs/exploration.md, "The winter reprieve"):
when the card that ends the game comes up while an unused tree with the reprieve stands in
a forest, its owner is asked at the end of the action (decision ``winter reprieve``); yes
shuffles that winter card back into the deck, no ends the game. Positions are built on the
registered game ``base+exploration``; a toy game whose Silver Firs all carry the reprieve
has more than one such tree."""

from __future__ import annotations

import json
from collections.abc import Iterator
from importlib import resources
from typing import Any

import pytest
from scenario import build, site, trees_of

from forest_shuffle.cards.model import build_catalog
from forest_shuffle.engine import game as game_module
from forest_shuffle.engine.actions import Action, IllegalActionError
from forest_shuffle.engine.check import BrokenSaveError, check_state
from forest_shuffle.engine.game import make_def
from forest_shuffle.engine.state import GameState
from forest_shuffle.games import make_game
from forest_shuffle.games.base import REMOVED_AT_SETUP
from forest_shuffle.games.exploration import D_REPRIEVE, DECISIONS, ExplorationState

GAME = "base+exploration"
G = make_game(GAME)
CATALOG = G.catalog
TREE = trees_of("O Christmas Tree", CATALOG)[0]
WINTER = sorted(c.id for c in CATALOG.cards if c is not None and c.is_winter)


def _fillers(n: int) -> list[int]:
    """``n`` base split cards."""
    out = [c.id for c in CATALOG.cards if c is not None and c.module == "base"
           and not c.is_winter and not c.is_host]
    return out[:n]


def _at_the_third_winter(owner: int = 0, used: list[int] | None = None,
                         game: str = GAME, tree: int = TREE, hand: list[int] | None = None,
                         more_trees: list[dict[str, Any]] | None = None,
                         above: int = 0) -> GameState:
    """Player 1's turn; two winter cards revealed, the third on top of the deck (under
    ``above`` fillers), four fillers under it; ``tree`` in ``owner``'s forest (and
    ``more_trees`` in the other's)."""
    cards = _fillers(4 + above)
    deck = [*cards[:4], WINTER[2], *cards[4:]]
    forests: list[list[dict[str, Any]]] = [[], []]
    forests[owner].append(site(tree))
    forests[1 - owner].extend(more_trees or [])
    s = build([hand or [], []], deck, forests=forests, winter=WINTER[:2], game=game)
    if used:
        data = s.to_dict()
        data["reprieves"] = used
        s = GameState.from_dict(data)
    return s


def _draw(s: GameState) -> None:
    s.apply(Action("draw"))
    check_state(s)


def test_yes_shuffles_the_third_winter_card_back_into_the_deck() -> None:
    s = _at_the_third_winter()
    deck_before = list(s.deck)
    _draw(s)
    # the draw went on past the winter card: the filler under it is in the hand, and the
    # question comes when the action ends, on top of the second draw
    assert s.hands[0] == [deck_before[-2]]
    assert not s.over and s.winter == WINTER
    assert s.decision == D_REPRIEVE and s.to_move == 0
    assert s.pending is not None and s.pending.card == TREE and s.pending.tree == 0
    assert [str(a) for a in s.legal_actions()] == ["yes", "no"]
    assert s.view(1).pending is not None and s.view(1).pending.kind == D_REPRIEVE
    s.apply(Action("yes"))
    check_state(s)
    assert s.winter == WINTER[:2] and WINTER[2] in s.deck
    assert sorted(s.deck) == sorted([*deck_before[:-2], WINTER[2]])
    assert isinstance(s, ExplorationState) and s.reprieves == [TREE]
    assert s.decision == "draw" and s.to_move == 0 and not s.over  # the turn goes on
    assert s.view(1).reprieves == (TREE,)


def test_yes_shuffles_by_the_games_seed() -> None:
    a, b = _at_the_third_winter(), _at_the_third_winter()
    for s in (a, b):
        _draw(s)
        s.apply(Action("yes"))
    assert a.deck == b.deck  # the same seed and actions: the same deck


def test_no_ends_the_game_as_without_the_tree() -> None:
    s = _at_the_third_winter()
    _draw(s)
    before = s.scores()
    s.apply(Action("no"))
    check_state(s)
    assert s.over and s.winter == WINTER and not s.stack and not s.queue
    assert s.scores() == before


def test_a_used_tree_lets_the_third_winter_card_end_the_game() -> None:
    s = _at_the_third_winter(used=[TREE])
    _draw(s)
    assert s.over and s.winter == WINTER and s.hands[0] == []


def test_the_second_time_the_card_comes_up_the_game_ends() -> None:
    s = _at_the_third_winter()
    _draw(s)
    s.apply(Action("yes"))
    s.deck.remove(WINTER[2])
    s.deck.append(WINTER[2])  # the card back on top: the next draw reveals it again
    s.apply(Action("draw"))
    assert s.over and s.winter == WINTER


def test_the_owner_decides_in_another_players_turn() -> None:
    s = _at_the_third_winter(owner=1)
    _draw(s)
    assert s.decision == D_REPRIEVE and s.to_move == 1 and s.current == 0
    assert s.view(1).legal_actions and not s.view(0).legal_actions
    s.apply(Action("yes"))
    assert s.decision == "draw" and s.to_move == 0


def test_a_tree_turned_into_a_sapling_has_no_reprieve() -> None:
    s = _at_the_third_winter()
    data = s.to_dict()
    data["forests"][0]["trees"][0]["sapling"] = True  # as the Mistletoe leaves it
    s = GameState.from_dict(data)
    _draw(s)
    assert s.over


def test_a_winter_card_revealed_by_a_tree_played() -> None:
    # the turn plays a tree, which turns the deck's top card (the third winter card) into
    # the clearing: the card is held, the next card goes to the clearing, the question
    # comes after the tree's steps are queued
    birch = trees_of("Birch", CATALOG)[0]
    s = _at_the_third_winter(hand=[birch])
    under = s.deck[-2]
    s.apply(Action("play", birch))
    check_state(s)
    assert s.decision == D_REPRIEVE and under in s.clearing and not s.over
    assert len(s.forests[0].trees) == 2
    s.apply(Action("no"))
    assert s.over


def test_a_winter_card_drawn_by_an_effect() -> None:
    # the Moor Birch costs nothing; its reveal turns the filler on top into the clearing,
    # then its effect (draw 1), offered, draws the third winter card and the card under it
    moor = trees_of("Moor Birch", CATALOG)[0]
    s = _at_the_third_winter(hand=[moor], above=1)
    top, under = s.deck[-1], s.deck[-3]
    s.apply(Action("play", moor))
    check_state(s)
    assert s.clearing == [top] and s.decision == "option"
    assert s.pending is not None and s.pending.step is not None
    assert s.pending.step[0] == "effect"
    s.apply(Action("yes"))
    check_state(s)
    assert s.hands[0] == [under] and s.decision == D_REPRIEVE and s.winter == WINTER
    s.apply(Action("yes"))
    check_state(s)
    assert not s.over and WINTER[2] in s.deck and s.decision == "turn" and s.current == 1


def test_the_question_survives_save_clone_and_view() -> None:
    s = _at_the_third_winter()
    _draw(s)
    data = json.loads(json.dumps(s.to_dict()))
    loaded = GameState.from_dict(data)
    assert loaded.to_dict() == data and loaded.decision == D_REPRIEVE
    twin = s.clone()
    twin.apply(Action("yes"))
    assert s.decision == D_REPRIEVE and s.winter == WINTER  # the clone is its own
    data = twin.to_dict()
    assert data["reprieves"] == [TREE]
    assert GameState.from_dict(data).to_dict() == data
    assert twin.view(0).to_dict()["reprieves"] == [TREE]


def test_illegal_answers_are_refused_by_name_and_change_nothing() -> None:
    s = _at_the_third_winter()
    _draw(s)
    before = s.to_dict()
    for text in ("draw", "done", f"take {s.deck[0]}"):
        with pytest.raises(IllegalActionError) as err:
            s.apply(Action.parse(text))
        assert "winter" in err.value.reason and "yes or no" in err.value.reason
        assert s.to_dict() == before


def test_broken_saves_of_the_reprieve_are_refused() -> None:
    s = _at_the_third_winter()
    _draw(s)
    data = s.to_dict()
    bad = json.loads(json.dumps(data))
    bad["reprieves"] = [TREE]  # used up, yet asked
    with pytest.raises(BrokenSaveError, match="used up"):
        GameState.from_dict(bad)
    bad = json.loads(json.dumps(data))
    bad["stack"][-1]["card"] = _fillers(1)[0]
    with pytest.raises(BrokenSaveError, match="winter reprieve's card"):
        GameState.from_dict(bad)
    bad = json.loads(json.dumps(data))
    bad["reprieves"] = "236"
    with pytest.raises(BrokenSaveError, match="reprieves must be a list"):
        GameState.from_dict(bad)
    over = _at_the_third_winter()
    over.apply(Action("draw"))
    over.apply(Action("no"))
    held = over.to_dict()
    held.update(over=False, stack=[])
    with pytest.raises(BrokenSaveError, match="winter cards are revealed"):
        GameState.from_dict(held)


# ------------------------------------------------------------ more than one such tree

TOY = "test-two-reprieves"


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The base game whose Silver Firs all carry the winter reprieve, with Exploration's
    state class, registered for one test alone."""
    base = resources.files("forest_shuffle.cards") / "data" / "base"
    species = json.loads((base / "species.json").read_text(encoding="utf-8"))
    cards = json.loads((base / "cards.json").read_text(encoding="utf-8"))
    for sp in species["species"]:
        if sp["name"] == "Silver Fir":
            sp["permanent"] = {"op": "winter_reprieve", "times": 1}

    def factory() -> game_module.GameDef:
        return make_def(TOY, "Two reprieves (test)", build_catalog(species, cards),
                        (2, 3, 4, 5), REMOVED_AT_SETUP[0], state_class=ExplorationState,
                        decisions=DECISIONS,
                        options={"actions": ("keep", "mulligan", "draw", "take", "play",
                                             "sapling", "pay", "yes", "no", "cave", "done",
                                             "choose")})

    monkeypatch.setitem(game_module._FACTORIES, TOY, factory)
    monkeypatch.setitem(game_module._DEFS, TOY, factory())
    yield TOY


def test_a_second_tree_gives_a_second_reprieve_and_no_asks_the_other_owner(toy: str) -> None:
    firs = trees_of("Silver Fir", make_game(toy).catalog)
    s = _at_the_third_winter(game=toy, tree=firs[0], more_trees=[site(firs[1])])
    _draw(s)
    assert s.decision == D_REPRIEVE and s.to_move == 0  # the current player's tree first
    s.apply(Action("no"))
    check_state(s)
    assert not s.over and s.decision == D_REPRIEVE and s.to_move == 1  # then the other's
    assert s.pending is not None and s.pending.card == firs[1]
    s.apply(Action("yes"))
    check_state(s)
    assert isinstance(s, ExplorationState) and s.reprieves == [firs[1]]
    # the card comes up again: the first tree, which said no, is still unused
    s.deck.remove(WINTER[2])
    s.deck.append(WINTER[2])
    s.apply(Action("draw"))
    check_state(s)
    assert s.decision == D_REPRIEVE and s.pending is not None and s.pending.card == firs[0]
    s.apply(Action("yes"))
    s.deck.remove(WINTER[2])
    s.deck.append(WINTER[2])
    while s.decision != "turn":
        s.apply(s.legal_actions()[0])
    s.apply(Action("draw"))
    assert s.over  # both trees used


def test_one_owner_with_two_trees_is_asked_once_per_winter_card(toy: str) -> None:
    firs = trees_of("Silver Fir", make_game(toy).catalog)
    s = _at_the_third_winter(game=toy, tree=firs[0])
    data = s.to_dict()
    data["forests"][0]["trees"].append(site(firs[1]))
    data["box"].remove(firs[1])
    s = GameState.from_dict(data)
    _draw(s)
    assert s.decision == D_REPRIEVE
    s.apply(Action("no"))
    assert s.over
