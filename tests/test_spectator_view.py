"""The spectator view: the public table only, the same keys as a player's view."""

from __future__ import annotations

import random

from forest_shuffle.engine.state import GameState
from forest_shuffle.engine.view import make_spectator_view


def _hidden(state: GameState) -> set[int]:
    out = set(state.deck) | (set(state.box) - set(state.box_seen))
    for i in range(state.num_players):
        out |= set(state.hands[i]) - state.known[i]
        out |= set(state.caves[i]) - set(state.caves_seen[i])
        out |= {t.card for t in state.forests[i].trees if t.is_sapling and t.card is not None}
    return out


def _ints(data: object) -> set[int]:
    if isinstance(data, bool):
        return set()
    if isinstance(data, int):
        return {data}
    if isinstance(data, dict):
        return set().union(*(_ints(v) for k, v in data.items()
                             if k not in ("hand_sizes", "cave_sizes", "deck_size", "box_size",
                                          "turn", "player", "num_players", "current",
                                          "tree", "need", "extra_turns", "active")))
    if isinstance(data, list | tuple):
        return set().union(set(), *(_ints(v) for v in data))
    return set()


def test_spectator_view_holds_no_hidden_card() -> None:
    rng = random.Random(3)
    for seed, players in ((1, 2), (2, 3), (3, 5)):
        state = GameState.new(players, seed)
        steps = 0
        while not state.over:
            view = make_spectator_view(state)
            data = view.to_dict()
            assert set(data) == set(state.view(0).to_dict())
            assert data["hand"] == [] and data["own_cave"] == [] and data["legal_actions"] == []
            assert data["player"] == -1
            assert all(t["card"] is None for f in data["forests"] for t in f if t["sapling"])
            leak = _ints(data) & _hidden(state)
            assert not leak, f"seed {seed} step {steps}: {leak}"
            assert data["hand_sizes"] == [len(h) for h in state.hands]
            state.apply(rng.choice(state.legal_actions()))
            steps += 1
