"""Paying in real Chromium: the bonus hint counts the cards needed and held (★ only on cards
that can still complete it, as the engine grants it), and a play can be taken back (Cancel,
Escape) until its last payment card is picked: nothing is sent before."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from .play import click_play, create_game, version, wait_settled


def _stars(page: Page) -> list[int]:
    return sorted(int(x) for x in page.locator(
        "[data-testid=hand] .tile[data-pick]:has(.badge)").evaluate_all(
        "tiles => tiles.map(t => t.dataset.pick)"))


def _choose_play(page: Page, card: int, action: str) -> None:
    page.click(f"[data-testid=hand] .tile[data-ui=hand-card][data-card='{card}']")
    click_play(page, f"[data-testid=selection] [data-action='{action}']")


def test_the_bonus_hint_and_taking_a_play_back(desktop: Page, server: str) -> None:
    page = desktop
    # seed 33: a Douglas Fir (card 51, cost 2, bonus: another turn) with three Douglas Fir
    # cards among the five that may pay (97, 122, 132) and two that do not (75, 140)
    create_game(page, server, [("human", "Ada"), ("bot:easy", "Robin")], seed=33)
    assert wait_settled(page) == "your-turn"
    start = version(page)
    _choose_play(page, 51, "play 51")
    bar = page.locator("[data-testid=paybar]")
    expect(bar).to_contain_text("you need 2 Douglas Fir cards, you have 3, so it is still "
                                "possible")
    assert _stars(page) == [97, 122, 132]
    expect(page.locator("[data-testid=prompt]")).to_contain_text("Pay for Douglas Fir")
    assert page.evaluate("document.body.dataset.decision") == "pay"
    # a card without the symbol: the bonus is lost, and no card keeps it any more
    page.click("[data-testid=hand] [data-pick='75']")
    expect(bar).to_contain_text("No bonus (Take another turn) this time")
    assert _stars(page) == []
    assert version(page) == start  # nothing was sent
    # Escape takes the play back
    page.keyboard.press("Escape")
    expect(bar).to_have_count(0)
    assert page.evaluate("document.body.dataset.paying") == ""
    expect(page.locator("[data-testid=hand] .tile[data-card='51']")).to_have_count(1)
    assert page.evaluate("window.forestShuffle.payload.decision") == "turn"
    assert version(page) == start
    # so does Cancel
    page.keyboard.press("Escape")  # the card stays picked after a take-back: unpick it
    _choose_play(page, 51, "play 51")
    page.click("[data-testid=hand] [data-pick='97']")
    page.click("[data-testid=cancel-play]")
    expect(bar).to_have_count(0)
    assert version(page) == start
    # paid with two cards that show the symbol: the engine offers the bonus
    page.keyboard.press("Escape")
    _choose_play(page, 51, "play 51")
    page.click("[data-testid=hand] [data-pick='122']")
    assert version(page) == start
    page.click("[data-testid=hand] [data-pick='97']")
    page.wait_for_function("v => Number(document.body.dataset.version) === v + 3", arg=start)
    wait_settled(page)
    p = page.evaluate("window.forestShuffle.payload")
    assert p["decision"] == "option", p["decision"]
    assert p["view"]["pending"]["step"] == "bonus"
    assert p["view"]["pending"]["species"] == "Douglas Fir"
    assert 51 in [t["card"] for t in p["view"]["forests"][0]]
    assert {97, 122} <= set(p["view"]["clearing"])


def test_too_few_cards_show_the_symbol(desktop: Page, server: str) -> None:
    page = desktop
    # seed 3: an Oak (card 12, cost 2) with one other Oak card in hand: lost, no ★
    create_game(page, server, [("human", "Ada"), ("bot:easy", "Robin")], seed=3)
    assert wait_settled(page) == "your-turn"
    start = version(page)
    _choose_play(page, 12, "play 12")
    expect(page.locator("[data-testid=paybar]")).to_contain_text(
        "you need 2 Oak cards, you have 1, so it is lost.")
    assert _stars(page) == []
    page.click("[data-testid=cancel-play]")
    assert version(page) == start
    expect(page.locator("[data-testid=paybar]")).to_have_count(0)
