"""A move as a person makes it: cards of a choice of several picked in any order and taken
back before one Confirm (Dartmoor's cave 3), the rest of the table waiting while a move is
half made, and a whole turn from the keyboard with the focus staying where the player is."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from .conftest import LAPTOP, PHONE
from .play import click_action, click_play, create_game, version, wait_settled
from .shots import shot

#: Where the pictures go when FOREST_SHUFFLE_SCREENSHOTS names a folder (docs/screenshots).
SHOTS = os.environ.get("FOREST_SHUFFLE_SCREENSHOTS")


def _payload(page: Page) -> dict:  # type: ignore[type-arg]
    return dict(page.evaluate("window.forestShuffle.payload"))


def _to_discard(page: Page, server: str) -> None:
    """Dartmoor, seed 2: Ada (seat 2) drafts first and takes cave 3: draw 3, then put 3
    hand cards into the clearing."""
    create_game(page, server, [("bot:easy", "Robin"), ("human", "Ada")], seed=2,
                game="dartmoor")
    assert wait_settled(page) == "your-turn"
    click_action(page, "[data-action='choose 3']")
    page.wait_for_function("() => window.forestShuffle.payload.decision === 'discard'"
                           " && document.body.dataset.status === 'your-turn'")


def test_cave_3_takes_its_cards_in_any_order(desktop: Page, server: str) -> None:
    page = desktop
    _to_discard(page, server)
    p = _payload(page)
    hand = sorted(p["view"]["hand"])
    assert p["picks"]["verb"] == "discard" and p["picks"]["most"] == 3
    assert p["picks"]["cards"] == hand  # every hand card, not only the lowest ones
    start = version(page)
    tiles = page.locator("[data-testid=hand] .tile.can[data-pick]")
    expect(tiles).to_have_count(len(hand))
    # the highest card first: the lower ones stay offered
    page.click(f"[data-pick='{hand[-1]}']")
    expect(tiles).to_have_count(len(hand))
    page.click(f"[data-pick='{hand[0]}']")
    page.click(f"[data-pick='{hand[-1]}']")  # taken back
    page.click(f"[data-pick='{hand[3]}']")
    confirm = page.locator("[data-testid=confirm-picks]")
    expect(confirm).to_be_disabled()
    page.click(f"[data-pick='{hand[2]}']")
    expect(page.locator("[data-testid=picked-count]")).to_have_text("3/3 picked")
    expect(confirm).to_be_enabled()
    expect(confirm).to_contain_text("into the clearing: 3 cards")
    # a fourth card is refused while three are picked
    page.click(f"[data-pick='{hand[1]}']")
    expect(page.locator("#banner")).to_contain_text("take a pick back first")
    assert version(page) == start  # nothing was sent
    click_action(page, "[data-testid=confirm-picks]")
    p = _payload(page)
    assert {hand[0], hand[2], hand[3]} <= set(p["view"]["clearing"])
    assert hand[-1] in p["view"]["hand"] and hand[1] in p["view"]["hand"]


def test_the_table_waits_while_a_move_is_made(desktop: Page, server: str) -> None:
    page = desktop
    # seed 33: a Douglas Fir (card 51, cost 2) and five cards that may pay for it
    create_game(page, server, [("human", "Ada"), ("bot:easy", "Robin")], seed=33)
    assert wait_settled(page) == "your-turn"
    start = version(page)
    hand_before = _payload(page)["view"]["hand"]
    # half paid: the deck, the clearing and the other hand cards wait
    page.click("[data-testid=hand] .tile[data-ui=hand-card][data-card='51']")
    click_play(page, "[data-testid=selection] [data-action='play 51']")
    page.click("[data-testid=hand] [data-pick='97']")
    page.click("[data-testid=deck]")
    expect(page.locator("#banner")).to_contain_text("Finish this move first")
    others = page.locator("[data-testid=hand] .tile[data-ui=hand-card]")
    if others.count():  # a hand card that cannot pay does not start another play
        others.first.click()
        expect(page.locator("[data-testid=selection]")).to_have_count(0)
    assert version(page) == start
    assert page.evaluate("window.forestShuffle.localPlay !== null")
    assert page.evaluate("[...window.forestShuffle.payPick]") == [97]
    assert _payload(page)["view"]["hand"] == hand_before
    expect(page.locator(".game.locked")).to_have_count(1)
    expect(page.locator("[data-testid=deck]")).not_to_have_class("can")
    # Cancel: the table acts again
    page.click("[data-testid=cancel-play]")
    page.keyboard.press("Escape")
    expect(page.locator(".game.locked")).to_have_count(0)
    click_action(page, "[data-testid=deck]")
    assert version(page) > start


def _focused(page: Page) -> dict[str, str]:
    return dict(page.evaluate("() => ({...document.activeElement.dataset,"
                              " tag: document.activeElement.tagName})"))


def _tab_to(page: Page, script: str) -> None:
    """Press Tab until the focused element satisfies ``script`` (an expression of el)."""
    for _ in range(80):
        if page.evaluate(f"() => {{ const el = document.activeElement; return !!({script}); }}"):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {script}: {_focused(page)}")


def test_a_turn_from_the_keyboard(desktop: Page, server: str) -> None:
    page = desktop
    create_game(page, server, [("human", "Ada"), ("bot:easy", "Robin")], seed=33)
    assert wait_settled(page) == "your-turn"
    start = version(page)
    # Enter on a card's i reads the card: it does not choose it
    _tab_to(page, "el.dataset.info === '51'")
    page.keyboard.press("Enter")
    expect(page.locator("#detail")).to_be_visible()
    assert page.evaluate("window.forestShuffle.selected") is None
    assert _focused(page).get("info") == "51"
    page.keyboard.press("Escape")
    # the card, then its first choice (the focus goes there), then two cards to pay
    _tab_to(page, "el.dataset.card === '51' && el.dataset.ui === 'hand-card'")
    page.keyboard.press("Enter")
    assert page.evaluate("window.forestShuffle.selected") == 51
    assert _focused(page).get("action") == "play 51"
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.body.dataset.paying === '1'")
    assert "pick" in _focused(page)
    _tab_to(page, "el.dataset.pick === '122'")
    page.keyboard.press("Enter")
    assert _focused(page).get("pick") == "122"  # still there, now picked
    assert version(page) == start
    _tab_to(page, "el.dataset.pick === '97'")
    page.keyboard.press("Enter")
    page.wait_for_function("v => Number(document.body.dataset.version) >= v + 3", arg=start)
    wait_settled(page)
    # the bonus is offered: the focus is on its buttons, not back at the top of the page
    assert _payload(page)["decision"] == "option"
    assert _focused(page).get("action") in ("yes", "no")
    page.keyboard.press("Enter")
    page.wait_for_function("v => Number(document.body.dataset.version) >= v + 4", arg=start)
    assert page.evaluate("document.activeElement !== document.body")


@pytest.mark.skipif(not SHOTS, reason="set FOREST_SHUFFLE_SCREENSHOTS=folder")
def test_shots_of_a_choice_and_a_move_in_progress(browser: Browser, server: str) -> None:
    """docs/screenshots: Dartmoor's cave 3 with two cards picked, and a play half paid with
    the deck clicked, laptop and phone."""
    assert SHOTS
    for name, size in (("laptop", LAPTOP), ("phone", PHONE)):
        context = browser.new_context(viewport=size)
        page = context.new_page()
        _to_discard(page, server)
        hand = sorted(_payload(page)["view"]["hand"])
        page.click(f"[data-pick='{hand[-1]}']")
        page.click(f"[data-pick='{hand[0]}']")
        page.locator("[data-testid=prompt]").scroll_into_view_if_needed()
        shot(page, Path(SHOTS) / f"{name}-choice-of-several.png")
        # a play half paid: the deck and the other cards wait (a click says so)
        create_game(page, server, [("human", "Ada"), ("bot:easy", "Robin")], seed=33)
        wait_settled(page)
        page.click("[data-testid=hand] .tile[data-ui=hand-card][data-card='51']")
        click_play(page, "[data-testid=selection] [data-action='play 51']")
        page.click("[data-testid=hand] [data-pick='97']")
        page.click("[data-testid=deck]")
        shot(page, Path(SHOTS) / f"{name}-move-in-progress.png")
        context.close()
