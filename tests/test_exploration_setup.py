"""Exploration's setup (docs/exploration.md, "Setup"): one more card to the box per rare
card, and the named caves drafted in reverse turn order before the mulligans, on a
definition of base + exploration registered for each test alone (written before the
game id ``base+exploration`` was registered; it plays the same setup)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from forest_shuffle.cards.model import load_catalog
from forest_shuffle.engine import game as game_module
from forest_shuffle.engine.actions import Action, IllegalActionError
from forest_shuffle.engine.check import check_state
from forest_shuffle.engine.game import make_def
from forest_shuffle.engine.state import GameState
from forest_shuffle.games.base import REMOVED_AT_SETUP, removed_at_setup
from forest_shuffle.games.exploration import DECISIONS, ExplorationState

GAME = "test-base+exploration-setup"
CATALOG = load_catalog(("base", "exploration"))


@pytest.fixture
def game(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A definition of base + exploration with its setup, registered for one test alone."""

    def factory() -> game_module.GameDef:
        return make_def(GAME, "Forest Shuffle + Exploration (test)", CATALOG, (2, 3, 4, 5),
                        removed_at_setup(CATALOG, ("exploration",)),
                        state_class=ExplorationState, decisions=DECISIONS,
                        options={"modules": ("exploration",),
                                 "actions": ("keep", "mulligan", "draw", "take", "play",
                                             "sapling", "pay", "yes", "no", "cave", "done",
                                             "choose")})

    monkeypatch.setitem(game_module._FACTORIES, GAME, factory)
    monkeypatch.setitem(game_module._DEFS, GAME, factory())
    yield GAME


def _choose(s: GameState, number: int) -> None:
    s.apply(Action("choose", number))
    check_state(s)


def test_fifteen_more_cards_are_boxed_at_setup(game: str) -> None:
    for players in (2, 3, 4, 5):
        s = GameState.new(players, 7, game=game)
        assert len(s.box) == REMOVED_AT_SETUP[0][players] + 15


def test_the_caves_are_drafted_in_reverse_turn_order_then_the_game_begins(game: str) -> None:
    s = GameState.new(3, 11, first_player=1, game=game)
    check_state(s)
    # seats 0, 1, 2 with seat 1 first: seat 0 (its right-hand neighbour) chooses first,
    # then seat 2, then seat 1 (the first player) last
    assert s.decision == "cave draft" and s.to_move == 0
    assert [a.card for a in s.legal_actions()] == [1, 2, 3, 4, 5]
    _choose(s, 3)
    assert s.to_move == 2 and [a.card for a in s.legal_actions()] == [1, 2, 4, 5]
    _choose(s, 1)
    assert s.to_move == 1
    _choose(s, 5)
    assert [f.cave_number for f in s.forests] == [3, 5, 1]
    assert s.decision in ("mulligan", "turn")
    assert not s.view(0).cave_offer  # the two caves no one chose went back to the box


def test_a_cave_no_longer_offered_is_refused_and_changes_nothing(game: str) -> None:
    s = GameState.new(2, 5, game=game)
    _choose(s, 2)
    before = s.to_dict()
    with pytest.raises(IllegalActionError, match="cave 2 is not offered"):
        s.apply(Action("choose", 2))
    with pytest.raises(IllegalActionError):
        s.apply(Action("draw"))
    assert s.to_dict() == before


def test_the_draft_survives_a_save_a_clone_and_a_view(game: str) -> None:
    s = GameState.new(4, 9, game=game)
    _choose(s, 4)
    _choose(s, 2)
    again = GameState.from_dict(s.to_dict())
    assert again.to_dict() == s.to_dict()
    assert again.legal_actions() == s.legal_actions()
    copy = s.clone()
    _choose(copy, 1)
    assert s.cave_offer == [1, 3, 5] and copy.cave_offer == [3, 5]
    view = s.view(0)
    assert view.cave_offer == (1, 3, 5) and view.setup == 2


def test_a_drafted_cave_scores_by_its_rule(game: str) -> None:
    s = GameState.new(2, 3, game=game)
    _choose(s, 3)  # seat 1: the Lonely Cave, empty at the end: 5 points
    _choose(s, 2)  # seat 0: the Collectors' Cave, empty: 0
    table = s.game.score_table(s.forests)
    assert [sc.lines["cave"] for sc in table] == [0, 5]
