"""The page keeps the game log it has and appends the increments the server sends; after a
dropped socket it reconnects from the count it holds. A deal chosen by the creator is said
on the page."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qs, urlparse

import httpx
from playwright.sync_api import Page, WebSocket, expect

from .play import step, wait_settled


def _create(server: str, seed: int | None) -> tuple[str, str, str]:
    body: dict[str, Any] = {"seats": [{"kind": "human", "name": "Ada"},
                                      {"kind": "bot", "level": "easy", "name": "Robin"}]}
    if seed is not None:
        body["seed"] = seed
    game = httpx.post(server + "/api/games", json=body).json()
    seat = game["seats"][0]
    return game["game_id"], seat["token"], seat["link"]


def _same_log_as_the_server(page: Page, server: str, gid: str, token: str) -> int:
    """The page's log is the server's whole log for this seat; its length."""
    mine = page.evaluate("window.forestShuffle.payload")
    full = httpx.get(f"{server}/api/games/{gid}?log_from=0",
                     headers={"X-Seat-Token": token}).json()
    assert mine["version"] == full["version"]
    assert mine["log"] == full["log"] and len(full["log"]) == full["log_total"]
    last = page.locator("[data-testid=log] li").last.text_content() or ""
    assert full["log"][-1]["words"] in last  # the page shows the words (no card ids)
    return len(full["log"])


def test_the_page_appends_log_increments_and_catches_up(desktop: Page, server: str) -> None:
    page = desktop
    sockets: list[tuple[str, list[dict[str, Any]]]] = []

    def on_socket(ws: WebSocket) -> None:
        frames: list[dict[str, Any]] = []
        sockets.append((ws.url, frames))
        ws.on("framereceived", lambda data: frames.append(json.loads(data)))

    page.on("websocket", on_socket)
    gid, token, link = _create(server, seed=21)
    page.goto(server + link)
    wait_settled(page)
    expect(page.locator("[data-testid=deal-chosen]")).to_have_text(
        "This deal was chosen by the creator")
    for _ in range(8):
        wait_settled(page)
        step(page)
    wait_settled(page)
    held = _same_log_as_the_server(page, server, gid, token)
    # the socket drops; the player acts meanwhile (over REST); the page reconnects
    page.evaluate("window.forestShuffle.live.socket.close()")
    step(page)
    page.wait_for_function("() => window.forestShuffle.connected === true", timeout=15_000)
    for _ in range(6):
        wait_settled(page)
        step(page)
    wait_settled(page)
    total = _same_log_as_the_server(page, server, gid, token)
    assert total > held
    assert len(sockets) >= 2
    starts = [int(parse_qs(urlparse(url).query)["log_from"][0]) for url, _ in sockets]
    assert starts[0] == 0 and starts[-1] >= held > 0  # it said how much it holds
    for start, (url, frames) in zip(starts, sockets, strict=True):
        states = [m["payload"] for m in frames if m.get("type") == "state"]
        assert states, url
        have = start
        for p in states:  # each state carries only the entries this socket was not sent
            assert p["log_from"] == have, (url, p["version"])
            have = p["log_total"]

def test_a_deal_nobody_chose_says_nothing(desktop: Page, server: str) -> None:
    _gid, _token, link = _create(server, seed=None)
    desktop.goto(server + link)
    wait_settled(desktop)
    expect(desktop.locator("[data-testid=prompt]")).to_be_visible()
    expect(desktop.locator("[data-testid=deal-chosen]")).to_have_count(0)
