"""Issue 38, a table without rough edges: the turn said once in a polite live region and in
the document title; long names that never break inside a word; the type and tree symbols as
shipped icons; the log's card names previewed on hover or focus."""

from __future__ import annotations

from playwright.sync_api import Page

from .play import click_action, create_game, wait_settled

#: Records every change of the live region (#announce) in window.said.
WATCH_ANNOUNCE = """() => {
  window.said = [];
  const el = document.getElementById('announce');
  new MutationObserver(() => window.said.push(el.textContent))
    .observe(el, {childList: true, characterData: true, subtree: true});
}"""


def _said(page: Page) -> list[str]:
    return list(page.evaluate("window.said"))


def test_the_turn_is_said_once_when_it_begins_and_titled_until_the_player_acts(
        desktop: Page, server: str) -> None:
    page = desktop
    create_game(page, server, [("human", "Ada"), ("bot:easy", "Robin")], seed=2)
    assert wait_settled(page) == "your-turn"
    assert page.evaluate("document.body.dataset.decision") == "turn"
    region = page.locator("[data-testid=announce]")
    assert region.get_attribute("aria-live") == "polite"
    assert region.text_content() == "Your turn"
    assert page.title() == "● Your turn — Forest Shuffle"
    page.evaluate(WATCH_ANNOUNCE)
    for _ in range(3):  # redraws say nothing again
        page.evaluate("window.forestShuffle.render()")
    assert _said(page) == []
    click_action(page, "[data-action=draw]")  # the first card: still this player's turn
    assert wait_settled(page) == "your-turn"
    assert page.evaluate("document.body.dataset.decision") == "draw"
    assert _said(page) == []
    assert page.title() == "● Your decision — Forest Shuffle"
    before = int(page.evaluate("window.forestShuffle.payload.view.turn"))
    click_action(page, "[data-action=draw]")  # the second card ends the turn; the bot plays
    page.wait_for_function(
        "t => { const p = window.forestShuffle.payload; return p.view.turn > t"
        " && document.body.dataset.status === 'your-turn'; }", arg=before)
    page.evaluate("window.forestShuffle.render()")
    assert _said(page) == ["Your turn"]
    assert page.title() == "● Your turn — Forest Shuffle"


def test_hot_seat_says_whose_turn(desktop: Page, server: str) -> None:
    page = desktop
    create_game(page, server, [("human", "Ada"), ("human", "Bo")], hotseat=True, seed=3)
    assert wait_settled(page) == "handover"
    assert page.title() == "● Ada's turn — Forest Shuffle"
    page.click("[data-testid=handover-ready]")
    assert wait_settled(page, ("your-turn",)) == "your-turn"
    assert page.locator("[data-testid=announce]").text_content() == "Ada's turn"
    assert page.title() == "● Ada's turn — Forest Shuffle"
