"""The state contract over every registered game: random games checked against the
invariants at every step, clone, save and load, views with no hidden card, and sampling of
the unseen cards consistent with a view."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from forest_shuffle.bots.determinize import Determinizer
from forest_shuffle.engine.check import check_state
from forest_shuffle.engine.state import GameState, bottom_pile_size
from forest_shuffle.games import game_ids, make_game

GAMES = game_ids()
#: The unlisted games (Dartmoor's solo challenges), one player each.
SOLO = [g for g in game_ids(unlisted=True) if g not in GAMES]
CASES = [(g, n, seed) for g in GAMES for n, seed in ((2, 1), (3, 2), (5, 3))] + [
    (g, 1, seed) for seed, g in enumerate(SOLO, start=1)]


def _ints(data: Any) -> set[int]:
    """Every integer anywhere in a JSON-like value."""
    if isinstance(data, bool):
        return set()
    if isinstance(data, int):
        return {data}
    if isinstance(data, dict):
        return set().union(*(_ints(v) for v in data.values())) if data else set()
    if isinstance(data, list | tuple):
        return set().union(*(_ints(v) for v in data)) if data else set()
    return set()


#: Fields of a view's JSON that hold counts, seats or switches, not card ids.
_COUNTS = {"player", "num_players", "hand_sizes", "cave_sizes", "deck_size", "box_size",
           "current", "turn", "extra_turns", "rules", "active", "tree", "need", "legal_actions",
           "cave_offer", "cave_numbers", "setup", "universal_moors"}


def _view_cards(data: dict[str, Any]) -> set[int]:
    """Every card id a view's JSON holds (legal actions by their card)."""
    out = set()
    for key, value in data.items():
        if key == "solo":  # automa numbers and counts; the cards Anna moved face up
            last = value["anna_last"] or {}
            out |= set(last.get("added", ())) | set(last.get("removed", ()))
        elif key not in _COUNTS:
            if key in ("pending",) and isinstance(value, dict):
                out |= _ints({k: v for k, v in value.items() if k not in _COUNTS})
            elif key == "decisions":
                for d in value:
                    out |= _ints({k: v for k, v in d.items() if k not in _COUNTS})
            else:
                out |= _ints(value)
    for text in data["legal_actions"]:
        parts = text.split()
        if len(parts) > 1 and parts[0] != "choose":  # choose N: a cave number
            out.add(int(parts[1]))
    return out


def _hidden_from(state: GameState, player: int) -> set[int]:
    """Card ids ``player`` may not see: the deck, the box and other caves (but the cards
    everyone saw go there), other hands (but the cards seen taken) and other players'
    face-down cards (saplings, universal moors)."""
    out = set(state.deck) | (set(state.box) - set(state.box_seen))
    for i in range(state.num_players):
        if i == player:
            continue
        out |= set(state.hands[i]) - state.known[i]
        out |= set(state.caves[i]) - set(state.caves_seen[i])
        out |= {t.card for t in state.forests[i].trees if t.species is None and t.card is not None}
    for pend in state.stack:  # cards just chosen from the clearing into a cave were seen
        if pend.kind == "clearing cave":
            out -= set(pend.paid)
    return out


def _play(game: str, n: int, seed: int, every: int = 1) -> list[GameState]:
    """A random game; the states after every ``every`` actions (and the last)."""
    state = GameState.new(n, seed, game=game)
    rng = random.Random(seed)
    out = [state.clone()]
    k = 0
    while not state.over:
        state.apply(rng.choice(state.legal_actions()))
        k += 1
        if k % every == 0 or state.over:
            out.append(state.clone())
    return out


@pytest.mark.parametrize("game", GAMES + SOLO)
def test_setup_follows_the_game(game: str) -> None:
    g = make_game(game)
    for n in g.players:
        s = GameState.new(n, 7, game=game)
        assert s.game is g
        assert len(s.box) == g.removed_at_setup[n]
        assert sorted(s.locations()) == sorted(g.catalog.deck_ids)
        from_top = s.deck[::-1]
        first = next(i for i, c in enumerate(from_top) if g.cards[c].is_winter)
        if g.options.get("solo"):  # the one winter card among the bottom 10 cards
            assert len(from_top) - first <= 11
            continue
        # The first winter card is the first card of the bottom pile, never earlier.
        pile = bottom_pile_size(g, n) + len(g.winter_ids)
        assert first == len(from_top) - pile


@pytest.mark.parametrize("game, n, seed", CASES)
def test_invariants_at_every_step(game: str, n: int, seed: int) -> None:
    g = make_game(game)
    ids = sorted(g.catalog.deck_ids)
    for state in _play(game, n, seed):
        assert sorted(state.locations()) == ids  # every card in exactly one place
        assert all(len(h) <= g.hand_limit for h in state.hands)
        if state.decision == "turn":
            assert len(state.clearing) < g.clearing_limit
        assert all(g.cards[c].is_winter for c in state.winter)
        # Exploration's winter reprieve holds the end open while its owner decides
        held = state.decision == "winter reprieve"
        assert state.over == (len(state.winter) == g.winter_to_end and not held)
    assert state.over and len(state.scores()) == n


@pytest.mark.parametrize("game, n, seed", CASES)
def test_clone_save_and_load(game: str, n: int, seed: int) -> None:
    for state in _play(game, n, seed, every=7):
        data = json.loads(json.dumps(state.to_dict()))
        assert data["game"] == make_game(game).id
        loaded = GameState.from_dict(data)
        assert loaded.to_dict() == data
        assert loaded.legal_actions() == state.legal_actions()
        check_state(state)
        if not state.over:
            twin = state.clone()
            before = state.to_dict()
            twin.apply(twin.legal_actions()[-1])
            assert state.to_dict() == before


@pytest.mark.parametrize("game, n, seed", CASES)
def test_views_hold_no_hidden_card(game: str, n: int, seed: int) -> None:
    for state in _play(game, n, seed, every=5):
        for p in range(n):
            view = state.view(p)
            assert view.game is state.game
            leak = _view_cards(view.to_dict()) & _hidden_from(state, p)
            assert not leak, f"player {p + 1} sees {sorted(leak)[:5]}"


@pytest.mark.parametrize("game", GAMES + SOLO[:3] + SOLO[6:7])
def test_sampled_states_agree_with_the_view(game: str) -> None:
    rng = random.Random(5)
    players = make_game(game).players
    for state in _play(game, 3 if 3 in players else players[0], 11, every=9):
        p = state.to_move
        if p is None:
            continue
        view = state.view(p)
        d = Determinizer(view)
        for _ in range(3):
            s = d.sample(rng)
            check_state(s)
            assert s.game is state.game
            assert s.hands[p] == state.hands[p]
            assert s.clearing == state.clearing
            assert len(s.deck) == len(state.deck) and len(s.box) == len(state.box)
            assert [len(h) for h in s.hands] == [len(h) for h in state.hands]
            assert s.legal_actions() == view.legal_actions or list(view.legal_actions) == \
                s.legal_actions()


def test_two_games_in_one_process() -> None:
    """A base game and a game with both expansions, played interleaved, each equal to the
    same game played alone."""
    a = GameState.new(2, 21)
    b = GameState.new(2, 21, game="base+alpine+woodland_edge")
    ra, rb = random.Random(1), random.Random(2)
    while not (a.over and b.over):
        if not a.over:
            a.apply(ra.choice(a.legal_actions()))
        if not b.over:
            b.apply(rb.choice(b.legal_actions()))
    alone = GameState.new(2, 21)
    r = random.Random(1)
    while not alone.over:
        alone.apply(r.choice(alone.legal_actions()))
    assert alone.to_dict() == a.to_dict()
    assert max(b.locations()) > 161 and max(a.locations()) <= 161


def test_a_definition_pickles_as_its_id() -> None:
    import pickle

    g = make_game("base+woodland_edge")
    assert pickle.loads(pickle.dumps(g)) is g
    assert len(pickle.dumps(g)) < 200
