"""The score pad in Chromium at phone size across server processes: two phones at one
table, each served by its own process, and an entry on one phone shows on the other live
(no reload): ``serve --workers 2`` on PostgreSQL and Redis (the news through the Redis
bus), and two servers on one SQLite file (the news by the stored version)."""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from .conftest import PHONE, PageErrors

sys.path.insert(0, str(Path(__file__).parents[1] / "web"))
from services import postgres, redis_server  # noqa: E402
from webutil import server  # noqa: E402


@contextlib.contextmanager
def _bases(kind: str, tmp_path: Path) -> Iterator[list[str]]:
    """The base URLs the two phones use."""
    if kind == "workers":
        with postgres() as pg, redis_server() as redis_url, server(
                pg, extra=["--pubsub", redis_url, "--workers", "2", "--bot-processes", "0",
                           "--limits", "off"]) as (_proc, base):
            yield [base, base]
    else:
        db = f"sqlite:///{tmp_path / 'pad.db'}"
        with server(db) as (_p1, one), server(db) as (_p2, two):
            yield [one, two]


def _phone(browser: Browser, errors: PageErrors) -> Page:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                  device_scale_factor=1)
    page = errors.watch(context.new_page())
    page.set_default_timeout(20_000)
    return page


@pytest.mark.parametrize("kind", ["workers", "sqlite"])
def test_an_entry_on_one_phone_shows_live_on_a_phone_of_another_process(
        kind: str, browser: Browser, page_errors: PageErrors, tmp_path: Path) -> None:
    with _bases(kind, tmp_path) as bases:
        ann, ben = _phone(browser, page_errors), _phone(browser, page_errors)
        ann.goto(f"{bases[0]}/pad")
        ann.get_by_test_id("pad-name").fill("Ann")
        ann.get_by_test_id("pad-open").click()
        ann.wait_for_url("**/pad/*")
        tid = ann.url.rsplit("/", 1)[1]
        keys = json.loads(ann.evaluate(f"() => localStorage.getItem('pad:{tid}')"))
        ben.goto(f"{bases[1]}/pad/{tid}?join={keys['join']}")
        ben.get_by_test_id("pad-join-name").fill("Ben")
        ben.get_by_test_id("pad-join").click()
        expect(ann.get_by_test_id("pad-total-1")).to_have_text("0")  # Ben joined: live
        for cards in ("3", "5"):  # each entry of Ben's shows on Ann's phone, no reload
            ben.get_by_test_id("pad-cave").fill(cards)
            ben.get_by_test_id("pad-set-cave").click()
            expect(ben.get_by_test_id("pad-total-1")).to_have_text(cards)
            expect(ann.get_by_test_id("pad-total-1")).to_have_text(cards)
        ann.context.close()
        ben.context.close()
