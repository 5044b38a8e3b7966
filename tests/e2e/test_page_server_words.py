"""The server's words on the page in the player's language (issue 41, docs/i18n.md "The
server's words"): in German at laptop size, a few moves by clicks, then the log's action
lines, the action menu's words and a refused move's banner are German."""

from __future__ import annotations

import httpx
from playwright.sync_api import Browser, expect

from .conftest import PageErrors
from .play import step, wait_settled
from .shots import SIZES


def test_a_few_moves_in_german_log_and_refusal(browser: Browser, server: str,
                                               page_errors: PageErrors) -> None:
    context = browser.new_context(viewport=SIZES["laptop"], locale="de-DE",
                                  device_scale_factor=1)
    page = page_errors.watch(context.new_page())
    page.set_default_timeout(15_000)
    r = httpx.post(f"{server}/api/games", json={
        "seats": [{"kind": "human", "name": "Ada"}, {"kind": "bot", "level": "easy"}],
        "seed": 3}, timeout=20)
    assert r.status_code == 200, r.text
    game = r.json()
    seat = game["seats"][0]
    page.goto(server + seat["link"])
    done = []
    for _ in range(4):
        assert wait_settled(page, ("your-turn",), timeout=30_000) == "your-turn"
        done.append(step(page))
    log = page.locator("[data-testid=log] li")
    lines = log.all_inner_texts()
    # an action line in German (a play, a draw or a payment), never the English verbs
    assert any(w in line for line in lines for w in (" spielt ", " zieht ", " bezahlt ",
                                                      " nimmt ")), (done, lines)
    assert not any(w in line for line in lines for w in (" plays ", " draws ", " pays with ")), \
        lines
    wait_settled(page, ("your-turn",), timeout=30_000)
    words = page.evaluate("window.forestShuffle.payload.legal_words")
    assert words and not any(" from the clearing" in w or w.startswith("play ") for w in words)
    # a move the rules refuse: the banner says why, in German, on one line
    banner = page.locator("[data-testid=banner]")
    page.evaluate("window.forestShuffle.send('pay 999')")
    expect(banner).to_contain_text("nicht erlaubt")
    assert "not allowed" not in banner.inner_text()
    assert banner.inner_text().count("\n") == 0
    context.close()
