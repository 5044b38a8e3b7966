"""Helpers of the web server tests: clients, a real server process, and what a viewer may see.

The hidden-information checks derive what a viewer may not see from the server-side
:class:`GameState`, replayed from the game's seed and stored actions.
"""

from __future__ import annotations

import contextlib
import os
import random
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import httpx
from fastapi.testclient import TestClient

from forest_shuffle.engine.actions import Action
from forest_shuffle.engine.state import GameState
from forest_shuffle.games import make_game
from forest_shuffle.server.app import create_app

CATALOG = make_game("base").catalog
ALL_CARDS: frozenset[int] = frozenset(c.id for c in CATALOG.cards if c is not None)
ROOT = Path(__file__).resolve().parents[2]


def client(db: str = "sqlite://", bot_delay: float = 0.0) -> TestClient:
    """A test client of a fresh app (use it as a context manager)."""
    return TestClient(create_app(db, bot_delay=bot_delay))


def new_game(c: TestClient | httpx.Client, seats: list[dict[str, Any]],
             seed: int = 1, **extra: Any) -> dict[str, Any]:
    r = c.post("/api/games", json={"seats": seats, "seed": seed, **extra})
    assert r.status_code == 200, r.text
    return claim_all(c, dict(r.json()))


def claim_all(c: TestClient | httpx.Client, created: dict[str, Any]) -> dict[str, Any]:
    """A creation's answer with every invited seat claimed, as each invited person's
    browser does: each such seat gets its ``token`` and ``link``."""
    for seat in created["seats"]:
        if seat.get("invite"):
            r = c.post(f"/api/games/{created['game_id']}/claim",
                       json={"invite": seat["invite"]})
            assert r.status_code == 200, r.text
            seat["token"], seat["link"] = r.json()["token"], r.json()["link"]
    return created


def head(token: str | None) -> dict[str, str]:
    return {} if token is None else {"X-Seat-Token": token}


#: Two people: the seats of most test games.
TWO_HUMANS = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]


def payload(c: TestClient, gid: str, token: str | None) -> dict[str, Any]:
    """``GET /api/games/{gid}`` as ``token``'s seat (None: a spectator); it must answer."""
    r = c.get(f"/api/games/{gid}", headers=head(token))
    assert r.status_code == 200, r.text
    return dict(r.json())


def act(c: TestClient, gid: str, token: str | None, action: Any, version: Any) -> Any:
    """``POST /api/games/{gid}/actions``: the response, whatever it is."""
    return c.post(f"/api/games/{gid}/actions", headers=head(token),
                  json={"action": action, "version": version})


def play_out(c: TestClient, gid: str, tokens: dict[int, str],
             check: Callable[[dict[str, Any]], None], seed: int = 0,
             limit: float | None = None) -> dict[str, Any]:
    """Random legal actions for the seats of ``tokens`` (bots play the others) until the
    game is over, each payload of a seat to move given to ``check`` before its action;
    the last payload. With a ``limit``: AssertionError if the game is not over within
    that many seconds (a game that hangs)."""
    rng = random.Random(seed)
    deadline = None if limit is None else time.monotonic() + limit
    last = payload(c, gid, None)
    while not last["over"]:
        assert deadline is None or time.monotonic() < deadline, f"{gid}: not over in {limit} s"
        seat = last["to_move"]
        if seat not in tokens:
            time.sleep(0.001)  # a bot is thinking
            last = payload(c, gid, None)
            continue
        p = payload(c, gid, tokens[seat])
        if p["to_move"] != seat:
            last = p
            continue
        check(p)
        r = act(c, gid, tokens[seat], rng.choice(p["legal"]), p["version"])
        assert r.status_code == 200, r.text
        last = r.json()
    return last


def one_line_error(r: Any, status: int) -> str:
    """The error line of a refusal: the status is ``status`` and the body is exactly
    ``{"error": "one line"}``."""
    assert r.status_code == status, r.text
    body = r.json()
    assert set(body) == {"error"} and "\n" not in body["error"] and body["error"]
    return str(body["error"])


# ---------------------------------------------------------------------------- hidden cards


def hidden_from(state: GameState, viewer: int | None) -> set[int]:
    """The cards ``viewer`` (None: a spectator) may not see in ``state``: other hands beyond
    the cards seen taken from the clearing, the deck, the box and other caves beyond the cards
    everyone saw go there from the clearing, others' saplings."""
    hidden = set(state.deck) | (set(state.box) - set(state.box_seen))
    for i in range(state.num_players):
        if i == viewer:
            continue
        hidden |= set(state.hands[i]) - state.known[i]
        hidden |= set(state.caves[i]) - set(state.caves_seen[i])
        hidden |= {t.card for t in state.forests[i].trees if t.is_sapling and t.card is not None}
    return hidden


def visibility(seed: int, num_players: int, texts: list[str],
               viewer: int | None) -> tuple[list[set[int]], list[set[int]]]:
    """Per version: the cards hidden from ``viewer`` then, and the cards it has seen so far
    (in some state, or shown face up by a play, a payment or a take: a payment may go to
    the clearing and on to the box within one action)."""
    state = GameState.new(num_players, seed)
    hidden = [hidden_from(state, viewer)]
    seen = [ALL_CARDS - hidden[0]]
    for text in texts:
        action = Action.parse(text)
        state.apply(action)
        h = hidden_from(state, viewer)
        hidden.append(h)
        shown = {action.card} if action.kind in PUBLIC_KINDS else set()
        seen.append(seen[-1] | (ALL_CARDS - h) | shown)
    return hidden, seen


#: Actions whose card everyone sees (a tree or half played, a payment, a take).
PUBLIC_KINDS = frozenset({"play", "pay", "take"})

#: Payload keys whose numbers are not card ids.
NOT_CARDS = frozenset({
    "version", "you", "to_move", "player", "num_players", "hand_sizes", "cave_sizes",
    "deck_size", "box_size", "current", "turn", "extra_turns", "tree", "need", "seat",
    "total", "points", "lines", "active", "rules", "winners", "log_from", "log_total",
    "turns", "clearing_limit", "hand_limit", "winter_to_end", "least", "most", "source_size",
})
_CARD_WORDS = re.compile(r"\bcards? (\d+)")


def _text_ids(text: str) -> set[int]:
    return {int(m) for m in _CARD_WORDS.findall(text)}


def card_ids(data: Any, key: str = "") -> set[int]:
    """Every card id a payload (or part of one) shows: numbers outside :data:`NOT_CARDS`,
    ``card N`` in texts and the cards of action texts."""
    out: set[int] = set()
    if key in NOT_CARDS:
        return out
    if isinstance(data, bool) or data is None:
        return out
    if isinstance(data, int):
        return {data} if data else out
    if isinstance(data, str):
        out |= _text_ids(data)
        with contextlib.suppress(ValueError):
            a = Action.parse(data)
            if a.card:
                out.add(a.card)
        return out
    if isinstance(data, dict):
        for k, v in data.items():
            out |= card_ids(v, str(k))
        return out
    if isinstance(data, list):
        for v in data:
            out |= card_ids(v, key)
    return out


def check_payload(payload: dict[str, Any], hidden: list[set[int]],
                  seen: list[set[int]]) -> None:
    """The payload shows no card hidden from its viewer at its version, and its log names
    only cards the viewer has seen by then. AssertionError names the leak."""
    v = payload["version"]
    assert not {"deck", "box", "hands", "seed", "caves"} & set(payload), sorted(payload)
    assert not {"deck", "box", "hands", "seed", "caves"} & set(payload["view"])
    now = {k: val for k, val in payload.items() if k != "log"}
    leak = card_ids(now) & hidden[v]
    assert not leak, f"version {v}: payload of {payload['you']} shows hidden cards {leak}"
    for entry in payload["log"]:
        named = _text_ids(entry["text"]) | set(entry["cards"])
        assert named <= seen[v], (f"version {v}: log line {entry['text']!r} names "
                                  f"{named - seen[v]} unseen by {payload['you']}")


# ---------------------------------------------------------------------------- a real server


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def server(db_url: str, bot_delay: float = 0.0, port: int | None = None,
           extra: Sequence[str] = (), errors_to: Path | None = None,
           ) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """``forest-shuffle serve`` as a real process on a free loopback port (``extra``: more
    options); yields the process and its base URL once it answers. Killed (SIGKILL) at the
    end if still running. Its standard error goes to a file (a pipe nobody reads would
    stop a chatty server once full; ``errors_to`` names it, else a temporary one) and is
    shown if it fails to start."""
    port = port or free_port()
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    errors = (tempfile.TemporaryFile() if errors_to is None  # noqa: SIM115 (closed below)
              else errors_to.open("w+b"))
    proc = subprocess.Popen(
        [sys.executable, "-m", "forest_shuffle", "serve", "--host", "127.0.0.1",
         "--port", str(port), "--db", db_url, "--bot-delay", str(bot_delay), *extra],
        env=env, stdout=subprocess.DEVNULL, stderr=errors)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            if proc.poll() is not None:
                errors.seek(0)
                err = errors.read().decode(errors="replace")
                raise AssertionError(f"server exited with {proc.returncode}: {err}")
            try:
                if httpx.get(base + "/api/levels", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise AssertionError("server did not start in 30 s")
            time.sleep(0.05)
        yield proc, base
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        errors.close()


def kill9(proc: subprocess.Popen[bytes]) -> None:
    """Stop a server at once, as a crash would."""
    proc.send_signal(signal.SIGKILL)
    proc.wait(10)
