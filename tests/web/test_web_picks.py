"""The payload's ``picks`` (a decision that takes several cards, as one choice of a set):
only for the viewer to move, and every set it allows, picked in any order and sent as the
page sends it (the cards ascending, then ``done`` where the decision needs it), is taken
by the service action after action."""

from __future__ import annotations

import random

import pytest

from forest_shuffle.server.service import GameService, SeatSpec
from forest_shuffle.server.store import Store


def page_actions(picks: dict[str, object], chosen: list[int]) -> list[str]:
    """What the page sends for ``chosen`` (app.js: ``pickActions``)."""
    out = [f"{picks['verb']} {c}" for c in sorted(chosen)]
    if picks["ends_with_done"] and len(chosen) < int(str(picks["source_size"])):
        out.append("done")
    return out


@pytest.mark.parametrize(("game", "seed"), [("base+alpine+woodland_edge", 5),
                                            ("dartmoor", 3), ("dartmoor", 8)])
def test_every_set_of_the_picks_is_taken(game: str, seed: int) -> None:
    rng = random.Random(seed)
    met: dict[str, int] = {}
    with GameService(Store("sqlite://"), bot_delay=0) as svc:
        created = svc.create([SeatSpec("human", "A"), SeatSpec("human", "B")], seed=seed,
                             game=game)
        gid = created["game_id"]
        tokens = {s["seat"]: s["token"] for s in created["seats"]}
        for _ in range(400):
            watcher = svc.payloads.payload(gid, None)
            if watcher["over"]:
                break
            seat = watcher["to_move"]
            assert watcher["picks"] is None
            assert svc.payloads.payload(gid, 1 - seat)["picks"] is None
            p = svc.payloads.payload(gid, seat)
            # where the picked cards lie, from the kind's declaration (the page reads it)
            assert p["pick_from"] == ({"take": "clearing", "clearing cave": "clearing",
                                     "pay": "hand", "raccoon": "hand",
                                     "free": None if game == "dartmoor" else "hand",
                                     "mole": "hand", "saplings": "hand", "discard": "hand",
                                     "universal moor": "hand"}.get(p["decision"]))
            assert svc.payloads.payload(gid, 1 - seat)["pick_from"] is None
            picks = p["picks"]
            if picks is None:
                svc.act(gid, tokens[seat], rng.choice(p["legal"]), p["version"])
                continue
            met[picks["kind"]] = met.get(picks["kind"], 0) + 1
            assert len(picks["confirm"]) == picks["most"] + 1
            assert "in any order" in picks["words"]
            n = rng.randint(picks["least"], picks["most"])
            chosen = rng.sample(picks["cards"], n)
            for text in page_actions(picks, chosen):
                version = svc.payloads.payload(gid, seat)["version"]
                svc.act(gid, tokens[seat], text, version)
    assert met, "no choice of a set met"
    if game == "dartmoor":
        assert "discard" in met or "pay" in met
