"""The Suggest button in real Chromium: the suggestion is a legal action of the player's
view, outlined on the table with its reason, and changes nothing (the version and the view
stay); followed by clicks, it plays; in a game whose seats agreed to play without help there
is no button and the server answers 403."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page, expect

from .play import act, create_game, ready, wait_settled


def _suggest(page: Page) -> dict[str, Any]:
    page.click("[data-testid=suggest]")
    page.wait_for_selector("[data-testid=suggestion], [data-testid=suggestion-error]",
                           timeout=30_000)
    answer = page.evaluate("window.forestShuffle.coach.current()")
    assert answer and "error" not in answer, answer
    return dict(answer)


def test_suggest_outlines_a_legal_action_and_plays_nothing(desktop: Page, server: str) -> None:
    page = desktop
    create_game(page, server, [("human", "Ada"), ("bot:easy", "Robin")], seed=21)
    assert wait_settled(page) == "your-turn"
    if page.evaluate("document.body.dataset.decision") == "mulligan":
        act(page, "keep")
    wait_settled(page)
    before = page.evaluate("window.forestShuffle.payload")
    answer = _suggest(page)
    after = page.evaluate("window.forestShuffle.payload")
    # a legal action of this seat's decision, the words with it, and nothing played
    assert answer["action"] in before["legal"] and answer["seat"] == before["you"]
    assert answer["version"] == before["version"] == after["version"]
    assert after["view"] == before["view"]
    assert page.evaluate("document.body.dataset.status") == "your-turn"
    words = page.locator("[data-testid=suggestion]")
    expect(words).to_contain_text("Hint: ")
    assert page.evaluate("document.body.dataset.suggested") == answer["action"]
    # what it names is outlined: the hand card of a play, the deck of a draw, ...
    marked = page.locator(".suggested")
    assert marked.count() >= 1
    if answer["kind"] == "play":
        card = page.locator(f"[data-testid=hand] .tile[data-card='{answer['card']}']")
        expect(card).to_have_class(re.compile(r"\bsuggested\b"))
        if answer["tree"]:
            tree = page.locator(f"[data-testid=my-forest] .tree[data-tree='{answer['tree']}']")
            expect(tree).to_have_class(re.compile(r"suggested-tree"))
    elif answer["kind"] == "draw":
        expect(page.locator("[data-testid=deck]")).to_have_class(
            re.compile(r"\bsuggested\b"))
    # the server answers the same when asked again (kept for this decision)
    again = page.evaluate(
        """async () => (await fetch(`/api/games/${window.forestShuffle.gameId}/suggest`,
             {method: 'POST', headers: {'X-Seat-Token': window.forestShuffle.token}})).json()""")
    assert again == answer
    # taking the advice by clicks: the engine accepts each action text
    for text in answer["actions"]:
        act(page, text)
    ready(page)
    assert page.evaluate("window.forestShuffle.payload.version") > before["version"]


def test_no_help_game_has_no_suggest(desktop: Page, server: str) -> None:
    page = desktop
    page.goto(server + "/")
    page.wait_for_selector("[data-testid=create-game]")
    page.select_option("[data-testid=seat-kind-1]", "bot")
    page.check("[data-testid=no-help-box]")
    page.fill("[data-testid=seed]", "4")
    page.click("[data-testid=create-game]")
    assert wait_settled(page) == "your-turn"
    assert page.evaluate("window.forestShuffle.payload.help") is False
    expect(page.locator("[data-testid=suggest]")).to_have_count(0)
    expect(page.locator("[data-testid=no-help]")).to_contain_text("without help")
    status, body = page.evaluate(
        """async () => { const r = await fetch(`/api/games/${window.forestShuffle.gameId}/suggest`,
             {method: 'POST', headers: {'X-Seat-Token': window.forestShuffle.token}});
             return [r.status, await r.json()]; }""")
    assert status == 403 and "without help" in body["error"] and "\n" not in body["error"]
    # a spectator is refused too, in a game with help
    create_game(page, server, [("human", "Ada"), ("bot:easy", "Robin")], seed=3)
    wait_settled(page)
    gid = page.evaluate("window.forestShuffle.gameId")
    status = page.evaluate(
        f"async () => (await fetch('/api/games/{gid}/suggest', {{method: 'POST'}})).status")
    assert status == 403
