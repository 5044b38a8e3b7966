"""The screenshots of docs/screenshots/, taken only when FOREST_SHUFFLE_SCREENSHOTS names a
folder: ``FOREST_SHUFFLE_SCREENSHOTS=docs/screenshots .venv/bin/pytest tests/e2e -k shots``."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from .conftest import LAPTOP
from .play import create_game, step, wait_settled
from .shots import SIZES, shot

OUT = os.environ.get("FOREST_SHUFFLE_SCREENSHOTS")
pytestmark = pytest.mark.skipif(not OUT, reason="set FOREST_SHUFFLE_SCREENSHOTS=folder")

#: Decisions before the mid-game picture.
MID = 70


def _pick_a_split_card(page: Page) -> bool:
    """Pick a playable hand card with a half, so its places light up; True if one was."""
    for tile in page.locator("[data-testid=hand] .tile.split.can[data-ui=hand-card]").all():
        tile.click()
        if page.locator(".slot.target").count():
            return True
        page.click("[data-ui=cancel]")
    return False


@pytest.mark.parametrize("game", ["base", "dartmoor"])
@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_shots(browser: Browser, server: str, size: str, game: str) -> None:
    out = Path(str(OUT))
    out.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(viewport=SIZES[size], device_scale_factor=1,
                                  is_mobile=size == "phone", has_touch=size == "phone")
    page = context.new_page()
    create_game(page, server, [("human", "Ada"), ("bot:medium", "Robin")], game=game,
                seed=2 if game == "base" else 21)
    name = f"{size}-{game}"
    wait_settled(page)
    shot(page, out / f"{name}-start.png")
    n = 0
    shot_mid = False
    while wait_settled(page) != "over":
        n += 1
        turn = page.evaluate("document.body.dataset.decision") == "turn"
        if not shot_mid and n >= MID and turn and _pick_a_split_card(page):
            page.evaluate("""() => {
                const hand = document.querySelector("[data-testid=hand]");
                const top = hand.getBoundingClientRect().top + window.scrollY;
                window.scrollTo(0, top - window.innerHeight * 0.12);
            }""")
            shot(page, out / f"{name}-mid.png")
            shot_mid = True
            page.click("[data-ui=cancel]")
        step(page, prefer_play=n % 3 != 0)
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, out / f"{name}-end.png")
    assert shot_mid
    context.close()


def test_shots_hotseat(browser: Browser, server: str) -> None:
    out = Path(str(OUT))
    context = browser.new_context(viewport=LAPTOP, device_scale_factor=1)
    page = context.new_page()
    create_game(page, server, [("human", "Ada"), ("human", "Bea")], seed=4, hotseat=True)
    wait_settled(page)
    page.click("[data-testid=handover-ready]")
    wait_settled(page)
    step(page, prefer_play=False)
    step(page, prefer_play=False)
    assert wait_settled(page) == "handover"
    shot(page, out / "laptop-handover.png")
    context.close()
