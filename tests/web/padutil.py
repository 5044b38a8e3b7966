"""Helpers of the score pad's tests: tables, entries and the scorer's own answer to compare."""

from __future__ import annotations

import itertools
from typing import Any

import httpx
from fastapi.testclient import TestClient

from forest_shuffle.formats.forest_json import read_table, result_to_json

Client = TestClient | httpx.Client
_ids = itertools.count()


def new_table(c: Client, game: str, players: list[str]) -> dict[str, Any]:
    r = c.post("/api/pad/tables", json={"game": game, "players": players})
    assert r.status_code == 200, r.text
    return dict(r.json())


def enter(c: Client, tid: str, token: str, op: dict[str, Any], *, entry_id: str | None = None,
          seat: int | None = None, base: int | None = None) -> httpx.Response:
    body: dict[str, Any] = {"entry_id": entry_id or f"e{next(_ids)}", "op": op}
    if seat is not None:
        body["seat"] = seat
    if base is not None:
        body["base"] = base
    return c.post(f"/api/pad/tables/{tid}/entries", json=body,
                  headers={"X-Pad-Token": token})


def ok(c: Client, tid: str, token: str, op: dict[str, Any], **kw: Any) -> dict[str, Any]:
    r = enter(c, tid, token, op, **kw)
    assert r.status_code == 200, r.text
    return dict(r.json())


def table(c: Client, tid: str) -> dict[str, Any]:
    r = c.get(f"/api/pad/tables/{tid}")
    assert r.status_code == 200, r.text
    return dict(r.json())


def scorer_answer(doc: dict[str, Any]) -> dict[str, Any]:
    """What ``forest-shuffle score --json`` says of a document (the scorer, not the pad)."""
    t = read_table(doc)
    return result_to_json(t.names, t.game.score_table(t.forests))


def entries_of(player: dict[str, Any]) -> list[dict[str, Any]]:
    """The entries that build a Forest JSON player object card by card, as a person taps
    them: each host, then its slots (the bottom first: Water Soldiers or a Stinging Nettle
    let others share the top; each stack bottom card first); moors; the cave."""
    ops: list[dict[str, Any]] = []
    for where, key, op in (("trees", "tree", "add_host"), ("moors", "moor", "add_moor")):
        for h, host in enumerate(player.get(where, [])):
            spec = {k: v for k, v in host.items() if k in (key, "card", "symbol")}
            ops.append({"op": op, ("host" if op == "add_host" else "moor"): spec})
            for side in ("bottom", "top", "left", "right"):  # what lets others share first
                for card in host.get(side, []):
                    ops.append({"op": "add_card", "at": {"list": where, "host": h,
                                                         "side": side}, "card": card})
    if "cave" in player:
        ops.append({"op": "set_cave", "cave": player["cave"]})
    return ops
