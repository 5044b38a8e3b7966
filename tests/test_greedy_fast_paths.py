"""Greedy's fast paths change no decision: seeded bot games replay exactly as before.

``tests/data/greedy_fingerprints.json`` holds, per game id and player count, a short
sha256 of the action texts of seeded games played by the greedy policy (from views, the
exact variant; from full states, the fast rollout variant; and greedy's keep values of
every hand at each turn, as the search's cut-off reads them), and of a few games where
seat 1 is the search bot with a fixed number of iterations (``time=0``), written once from
greedy before its per-decision context was derived from the forest's indexes
(``python tests/test_greedy_fast_paths.py --write``). The test plays the same games and
compares. It also checks the context against a full rescan of the forest on many states.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

import pytest

from forest_shuffle.bots.features import unseen_cards
from forest_shuffle.bots.greedy import (
    _ctx,
    _ctx_rescan,
    greedy_action,
    greedy_view_action,
    hand_value,
    hand_values,
    keep_values,
    ranked_view_actions,
    situation_of_view,
)
from forest_shuffle.bots.mcts import MCTSBot
from forest_shuffle.engine.game import game_by_id
from forest_shuffle.engine.state import GameState
from forest_shuffle.engine.view import PlayerView

DATA = Path(__file__).parent / "data" / "greedy_fingerprints.json"
GAMES = ("base", "base+alpine", "base+woodland_edge", "base+alpine+woodland_edge", "dartmoor")
#: Seeded games per game id and player count (greedy), and search games per game id.
SEEDS = 6
SEARCH_SEEDS = 2
#: The search bot's decisions recorded per search game (the rest is not played).
SEARCH_DECISIONS = 30


def _digest(lines: list[str]) -> str:
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()[:12]


def greedy_game(gid: str, n: int, seed: int, exact: bool) -> str:
    """A whole game of the greedy policy: from views (``exact``) or from full states
    (the fast variant), with the ranking and keep values at each turn decision."""
    state = GameState.new(n, seed, game=gid)
    lines: list[str] = []
    while not state.over:
        p = state.to_move or 0
        if exact:
            view = state.view(p)
            a = greedy_view_action(view)
            if state.decision == "turn":
                lines.append(" ".join(str(x) for x in ranked_view_actions(view, 4)))
        else:
            a = greedy_action(state, exact=False)
        if state.decision == "turn":
            lines.append(" ".join(f"{v:.9g}" for v in hand_values(state, p)))
        lines.append(str(a))
        state.apply(a)
    return _digest(lines)


def search_game(gid: str, seed: int) -> str:
    """Seat 1 the search bot (60 iterations, time=0), the others greedy, for the first
    ``SEARCH_DECISIONS`` decisions of the search bot that have a choice."""
    state = GameState.new(2, seed, game=gid)
    bot = MCTSBot(seed, time=0, iterations=60)
    lines: list[str] = []
    searched = 0
    while not state.over and searched < SEARCH_DECISIONS:
        p = state.to_move or 0
        view = state.view(p)
        if p == 0:
            a = bot.choose(view)
            if len(view.legal_actions) > 1:
                searched += 1
                lines.append(f"{a} {bot.last_iterations}")
        else:
            a = greedy_view_action(view)
        lines.append(str(a))
        state.apply(a)
    return _digest(lines)


def compute() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for gid in GAMES:
        for n in (2, 3):
            for exact in (True, False):
                out[f"greedy {gid} {n} exact={int(exact)}"] = [
                    greedy_game(gid, n, seed, exact) for seed in range(SEEDS)
                ]
        out[f"search {gid}"] = [search_game(gid, seed) for seed in range(SEARCH_SEEDS)]
    return out


def _stored() -> dict[str, list[str]]:
    data: dict[str, list[str]] = json.loads(DATA.read_text())["games"]
    return data


@pytest.mark.parametrize("gid", GAMES)
@pytest.mark.parametrize("n", [2, 3])
@pytest.mark.parametrize("exact", [True, False])
def test_greedy_games_as_before(gid: str, n: int, exact: bool) -> None:
    want = _stored()[f"greedy {gid} {n} exact={int(exact)}"]
    got = [greedy_game(gid, n, seed, exact) for seed in range(SEEDS)]
    bad = [seed for seed in range(SEEDS) if got[seed] != want[seed]]
    assert not bad, f"{gid}, {n} players, exact={exact}: seeds {bad} play differently"


@pytest.mark.parametrize("gid", GAMES)
def test_search_games_as_before(gid: str) -> None:
    want = _stored()[f"search {gid}"]
    got = [search_game(gid, seed) for seed in range(SEARCH_SEEDS)]
    bad = [seed for seed in range(SEARCH_SEEDS) if got[seed] != want[seed]]
    assert not bad, f"{gid}: the search plays seeds {bad} differently"


def _same_context(view: PlayerView) -> None:
    s = situation_of_view(view)
    fast, full = _ctx(s), _ctx_rescan(s)
    for name in (
        "counts",
        "tags",
        "dtags",
        "trees",
        "tree_species",
        "free",
        "nfree",
        "bottom",
        "full",
        "most_trees",
        "hand",
        "late",
        "shrubs",
        "saplings",
        "empty_hosts",
        "shares",
        "cave",
        "cave_points",
    ):
        assert getattr(fast, name) == getattr(full, name), name
    assert fast.symbol_counts() == full.symbol_counts()


@pytest.mark.parametrize("gid", [*GAMES, "dartmoor-solo-7"])
def test_context_is_the_rescan(gid: str) -> None:
    """The context from the forest's indexes equals the full rescan at every decision of
    games mixing greedy and random moves (every seat's forest, all player counts)."""
    for n in [k for k in game_by_id(gid).players if k <= 4]:
        for seed in range(3):
            rng = random.Random(seed)
            state = GameState.new(n, seed, game=gid)
            while not state.over:
                p = state.to_move or 0
                view = state.view(p)
                _same_context(view)
                legal = view.legal_actions
                state.apply(
                    greedy_action(state, exact=False) if rng.random() < 0.6 else rng.choice(legal)
                )


@pytest.mark.parametrize("gid", [*GAMES, "dartmoor-solo-7"])
def test_keep_values_are_hand_values(gid: str) -> None:
    """The many-cards keep values (the learned evaluation's pool features) are greedy's
    keep value of each card, number for number, for every seat's unseen cards, hand and
    clearing along games mixing greedy and random moves."""
    for n in [k for k in game_by_id(gid).players if k <= 3]:
        rng = random.Random(n)
        state = GameState.new(n, 40 + n, game=gid)
        checked = 0
        while not state.over:
            for p in range(n):
                c = _ctx(situation_of_view(state.view(p)))
                for cids in (unseen_cards(state.game, state.hands[p], state.clearing,
                                          state.forests), state.hands[p], state.clearing):
                    assert keep_values(cids, c) == [hand_value(cid, c) for cid in cids]
                    checked += len(cids)
            legal = state.legal_actions()
            state.apply(
                greedy_action(state, exact=False) if rng.random() < 0.6 else rng.choice(legal)
            )
        assert checked > 1000


def main() -> None:
    if sys.argv[1:] != ["--write"]:
        print("usage: python tests/test_greedy_fast_paths.py --write", file=sys.stderr)
        raise SystemExit(2)
    DATA.write_text(json.dumps({"games": compute()}, indent=1) + "\n")


if __name__ == "__main__":
    main()
