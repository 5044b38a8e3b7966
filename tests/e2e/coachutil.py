"""Helpers of the coach, review and replay e2e tests: a finished game of the server, played
over its REST API with a chosen seed (so the test knows every action and can replay it with
the engine)."""

from __future__ import annotations

import random
from dataclasses import dataclass

import httpx

from forest_shuffle.engine.actions import Action
from forest_shuffle.engine.setup import KEYED
from forest_shuffle.engine.state import GameState


@dataclass
class Finished:
    """A game of the server played to its end: its id, tokens and every action."""

    game_id: str
    tokens: dict[int, str]
    seed: int
    players: int
    game: str
    actions: list[str]

    def state_at(self, step: int) -> GameState:
        """The engine's state after ``step`` actions."""
        state = self.new_state()
        for text in self.actions[:step]:
            state.apply(Action.parse(text))
        return state

    def new_state(self) -> GameState:
        return GameState.new(self.players, self.seed, None, 0, KEYED, game=self.game)


def finished_game(base: str, seed: int, names: tuple[str, ...] = ("Ada", "Bea"),
                  game: str = "base", until: int | None = None) -> Finished:
    """Create a hot-seat game of people with the chosen ``seed`` and play random legal
    actions over REST until it is over (or ``until`` actions)."""
    with httpx.Client(base_url=base, timeout=30) as c:
        r = c.post("/api/games", json={"seats": [{"kind": "human", "name": n} for n in names],
                                       "seed": seed, "hotseat": True, "game": game})
        assert r.status_code == 200, r.text
        created = r.json()
        tokens = {s["seat"]: s["token"] for s in created["seats"]}
        done = Finished(created["game_id"], tokens, seed, len(names), game, [])
        state = done.new_state()
        rng = random.Random(seed)
        while not state.over and (until is None or len(done.actions) < until):
            action = rng.choice(state.legal_actions())
            seat = state.to_move
            assert seat is not None
            r = c.post(f"/api/games/{done.game_id}/actions",
                       headers={"X-Seat-Token": tokens[seat]},
                       json={"action": str(action), "version": len(done.actions)})
            assert r.status_code == 200, r.text
            state.apply(action)
            done.actions.append(str(action))
    return done
