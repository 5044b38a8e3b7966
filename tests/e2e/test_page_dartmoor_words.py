"""Dartmoor's page speaks of no sapling (issue "Counted right, refused for the right
reason", item 4): the viewer's empty forest asks for a tree, shrub or moor card, where the
base game's asks for a tree card or a sapling, and nothing on the page names a sapling."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from .play import act, create_game, legal, pick_and_confirm, wait_settled

EMPTY = "[data-testid=my-forest] .empty"


def _to_my_first_turn(page: Page) -> None:
    """Through the cave draft (a cave other than 1, whose start effect lays a universal
    moor) to the viewer's first turn decision."""
    for _ in range(20):
        wait_settled(page)
        moves = legal(page)
        if "draw" in moves:
            return
        caves = [m for m in moves if m.startswith("choose")]
        if caves:
            act(page, next((m for m in caves if m != "choose 1"), caves[0]))
        elif page.evaluate("window.forestShuffle.payload.picks"):
            pick_and_confirm(page)  # cave 3's discards: a choice of several
        else:
            act(page, moves[0])
    raise AssertionError("no turn decision reached")


def test_dartmoor_page_offers_no_sapling(desktop: Page, server: str) -> None:
    page = desktop
    create_game(page, server, [("human", "Ada"), ("bot:easy", "Robin")], seed=4,
                game="dartmoor")
    _to_my_first_turn(page)
    if not page.evaluate("window.forestShuffle.payload.view.forests[0].length"):
        expect(page.locator(EMPTY)).to_have_text("No trees yet: play a tree, shrub or moor "
                                                 "card.")
    assert "sapling" not in page.inner_text("body").lower()


def test_base_page_offers_a_sapling_in_an_empty_forest(desktop: Page, server: str) -> None:
    page = desktop
    create_game(page, server, [("human", "Ada"), ("bot:easy", "Robin")], seed=4)
    wait_settled(page)
    expect(page.locator(EMPTY)).to_have_text("No trees yet: play a tree card (or any card as "
                                             "a sapling).")
