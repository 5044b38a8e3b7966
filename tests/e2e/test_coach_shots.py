"""The coach's screenshots of docs/screenshots/ (Suggest, the review, a replay), taken only
when FOREST_SHUFFLE_SCREENSHOTS names a folder:
``FOREST_SHUFFLE_SCREENSHOTS=docs/screenshots .venv/bin/pytest tests/e2e -k shots``."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from .coachutil import finished_game
from .play import act, create_game, wait_settled
from .shots import SIZES, shot, small

OUT = os.environ.get("FOREST_SHUFFLE_SCREENSHOTS")
pytestmark = pytest.mark.skipif(not OUT, reason="set FOREST_SHUFFLE_SCREENSHOTS=folder")


@pytest.mark.parametrize("name", sorted(SIZES))
def test_coach_shots(browser: Browser, server: str, name: str) -> None:
    """Suggest, the review and a replay at the sizes of the table's pictures."""
    assert OUT is not None
    viewport = SIZES[name]
    folder = Path(OUT)
    folder.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(viewport=viewport, is_mobile=name == "phone",
                                  has_touch=name == "phone")
    page = context.new_page()
    page.set_default_timeout(60_000)
    create_game(page, server, [("human", "Ada"), ("bot:medium", "Robin")], seed=21)
    wait_settled(page)
    if page.evaluate("document.body.dataset.decision") == "mulligan":
        act(page, "keep")
        wait_settled(page)
    page.click("[data-testid=suggest]")
    page.wait_for_selector("[data-testid=suggestion]")
    shot(page, folder / f"{name}-suggest.png")
    game = finished_game(server, seed=31)
    page.goto(f"{server}/game/{game.game_id}?token={game.tokens[0]}")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=review]')"
        " && document.querySelector('[data-testid=review]').dataset.state === 'ready'",
        timeout=120_000)
    page.locator("[data-testid=review]").scroll_into_view_if_needed()
    review = folder / f"{name}-review.png"
    page.locator("[data-testid=review]").screenshot(path=review)
    small(review)
    page.goto(f"{server}/replay/{game.game_id}?step=120&seat=0")
    page.wait_for_function("() => document.body !== null"
                           " && document.body.dataset.status === 'replay'")
    shot(page, folder / f"{name}-replay.png")
    context.close()
