"""The solo companion's page in Chromium at phone size: a game of challenge 14 from the
setup through Anna's turns (a reload mid-turn keeps the step) to the winter card, the
forest entered in the linked score pad, and the result the server gives shown on the
page; nothing wider than the phone."""

from __future__ import annotations

import os
from pathlib import Path

import httpx
from playwright.sync_api import Page, expect

from forest_shuffle.games.dartmoor_solo import setup_steps

from .shots import shot

#: With FOREST_SHUFFLE_SCREENSHOTS naming a folder, the pictures of docs/pad.md are taken.
SHOTS = os.environ.get("FOREST_SHUFFLE_SCREENSHOTS")


def _shot(page: Page, name: str) -> None:
    if SHOTS:
        shot(page, Path(SHOTS) / f"phone-companion-{name}.png")


def _fits(page: Page) -> None:
    """Nothing is wider than the phone's screen (no sideways scrolling, no cut text)."""
    wide = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 0, f"the page is {wide} px wider than the phone"


def _next(page: Page) -> None:
    """Tap the step's button and wait for the server's next step."""
    before = page.get_by_test_id("co-say").get_attribute("data-kind"), page.get_by_test_id(
        "co-heading").text_content()
    page.get_by_test_id("co-next").click()
    page.wait_for_function(
        "([k, t]) => { const s = document.querySelector('[data-testid=co-say]');"
        " const h = document.querySelector('[data-testid=co-heading]');"
        " return !s || !h || s.dataset.kind !== k || h.textContent !== t; }", arg=list(before))


def test_a_companion_game_to_its_end_at_phone_size(server: str, phone: Page) -> None:
    phone.set_default_timeout(30_000)  # two cores shared with much else
    phone.goto(f"{server}/")
    expect(phone.get_by_test_id("companion-page")).to_be_visible()  # from the lobby
    phone.goto(f"{server}/companion")
    phone.get_by_test_id("co-challenge").select_option("14")
    expect(phone.get_by_test_id("co-goal")).to_contain_text("15 cards in your cave")
    phone.get_by_test_id("co-medal").select_option("bronze")
    phone.get_by_test_id("co-name").fill("Ann")
    _fits(phone)
    _shot(phone, "start")
    phone.get_by_test_id("co-start").click()
    expect(phone.get_by_test_id("co-heading")).to_have_text(
        f"Setup, step 1 of {len(setup_steps(14))}")
    token = phone.url.rsplit("/", 1)[1]
    _fits(phone)
    for s in setup_steps(14):
        expect(phone.get_by_test_id("co-say")).to_have_attribute("data-kind", s.kind)
        if s.kind == "cave":
            expect(phone.get_by_test_id("co-say")).to_contain_text(s.name)
            _shot(phone, "setup")
        expect(phone.get_by_test_id("co-winter")).to_have_count(0)  # no deck card turned
        _next(phone)
    with httpx.Client(base_url=server) as api:
        for turn in range(1, 4):
            expect(phone.get_by_test_id("co-heading")).to_have_text(f"Your turn {turn}")
            _next(phone)  # my turn is done: Anna's card is turned
            g = api.get(f"/api/companion/{token}").json()
            expect(phone.get_by_test_id("co-card")).to_have_attribute(
                "data-number", str(g["card"]["number"]))
            expect(phone.get_by_test_id("co-heading")).to_have_text(f"Anna's turn {turn}")
            if turn == 2:
                _fits(phone)
                _shot(phone, "anna")
                phone.reload()  # a reload mid-turn: the same card, the same step
                expect(phone.get_by_test_id("co-card")).to_have_attribute(
                    "data-number", str(g["card"]["number"]))
            for step in g["steps"]:
                expect(phone.locator("[data-testid=co-steps] li.now")).to_have_count(1)
                expect(phone.get_by_test_id("co-say")).to_have_attribute("data-kind",
                                                                        step["kind"])
                expect(phone.get_by_test_id("co-winter")).to_have_count(
                    1 if step["deck"] else 0)
                _next(phone)
    # the winter card comes up in the player's fourth turn: asked twice, then the end
    phone.get_by_test_id("co-winter").click()
    phone.get_by_test_id("co-winter-sure").click()
    expect(phone.get_by_test_id("co-enter-first")).to_be_visible()
    _fits(phone)
    # the forest in the linked score pad: a tree and 15 cards in cave 3
    phone.get_by_test_id("co-pad").click()
    phone.wait_for_url("**/pad/*")
    phone.get_by_test_id("pad-cave").fill("15")
    phone.get_by_test_id("pad-cave-number").select_option("3")
    phone.get_by_test_id("pad-set-cave").click()
    expect(phone.get_by_test_id("pad-total-0")).not_to_have_text("0")
    pad_total = phone.get_by_test_id("pad-total-0").text_content()
    phone.get_by_test_id("pad-back-companion").click()
    phone.wait_for_url(f"**/companion/{token}")
    with httpx.Client(base_url=server) as api:
        result = api.get(f"/api/companion/{token}").json()["result"]
    assert result["entered"] and result["goal_met"] and str(result["score"]) == pad_total
    words = phone.get_by_test_id("co-result-words")  # the page words the server's facts
    expect(words).to_contain_text(f"{result['have']} of {result['need']}, met.")
    expect(words).to_contain_text(f"Score: {result['score']} points.")
    _fits(phone)
    _shot(phone, "result")
