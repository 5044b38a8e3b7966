"""The running score of the payload: the scorer on the public forests (the spectator view:
face-down saplings, caves by their size), the same for every viewer, and at the end the
final score pad's lines and totals."""

from __future__ import annotations

import random

import pytest

from forest_shuffle.engine.view import make_spectator_view
from forest_shuffle.scoring import score_table
from forest_shuffle.server.service import GameService, SeatSpec
from forest_shuffle.server.store import Store


@pytest.mark.parametrize(("seed", "game"), [(6, "base"), (12, "base+alpine+woodland_edge")])
def test_running_score_is_the_public_score_pad(seed: int, game: str) -> None:
    rng = random.Random(seed)
    svc = GameService(Store("sqlite://"), bot_delay=0)
    try:
        created = svc.create([SeatSpec("human", "A"), SeatSpec("human", "B"),
                              SeatSpec("human", "C")], seed=seed, game=game)
        gid = created["game_id"]
        tokens = {s["seat"]: s["token"] for s in created["seats"]}
        moved = 0
        while True:
            state = svc.game(gid).snap.state
            watcher = svc.payloads.payload(gid, None)
            sheets = score_table(make_spectator_view(state).forests)
            want = [{"seat": i, "total": s.total, "lines": dict(s.lines)}
                    for i, s in enumerate(sheets)]
            assert watcher["running"] == want
            for seat in range(3):  # every viewer the same figures: nothing hidden counts
                assert svc.payloads.payload(gid, seat)["running"] == want
            if watcher["over"]:
                final = [{"seat": s["seat"], "total": s["total"], "lines": s["lines"]}
                         for s in watcher["scores"]]
                assert watcher["running"] == final
                break
            moved += any(w["total"] for w in want)
            seat = watcher["to_move"]
            p = svc.payloads.payload(gid, seat)
            plays = [a for a in p["legal"] if a.startswith(("play", "pay", "yes"))]
            choice = rng.choice(plays if plays and rng.random() < 0.7 else p["legal"])
            svc.act(gid, tokens[seat], choice, p["version"])
        assert moved > 10  # the figures moved during the game, not only at the end
    finally:
        svc.close()


def test_one_turn_count_said_as_the_log_says_it() -> None:
    """The status bar's words are the log's last turn line, for every viewer: the table's
    count (every player's turns), not the seat's own."""
    rng = random.Random(4)
    svc = GameService(Store("sqlite://"), bot_delay=0)
    try:
        created = svc.create([SeatSpec("human", "Ann"), SeatSpec("human", "Bob")], seed=4)
        gid = created["game_id"]
        tokens = {s["seat"]: s["token"] for s in created["seats"]}
        checked = 0
        for _ in range(60):
            watcher = svc.payloads.payload(gid, None)
            if watcher["over"]:
                break
            seat = watcher["to_move"]
            state = svc.game(gid).snap.state
            turn_lines = [e["text"] for e in watcher["log"] if e["text"].startswith("Turn ")]
            if turn_lines:
                last = turn_lines[-1]
                assert last == f"{watcher['turn_label']}."
                assert last.startswith(f"Turn {state.turn}: ")
                mine = svc.payloads.payload(gid, seat)["turn_label"]
                assert mine == f"Turn {state.turn}: you"
                other = svc.payloads.payload(gid, 1 - seat)["turn_label"]
                assert other == last[:-1]
                checked += state.turn > 2  # beyond the first round: the counts differ
            p = svc.payloads.payload(gid, seat)
            svc.act(gid, tokens[seat], rng.choice(p["legal"]), p["version"])
        assert checked > 5
    finally:
        svc.close()
