"""The score pad's page in Chromium at phone size: the Dartmoor rulebook's scoring example
entered by tapping gives its total, on two phones at one table, with a reload mid-entry
and a refusal shown in words."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect

from .conftest import PHONE, PageErrors
from .shots import shot

DATA = Path(__file__).parents[1] / "data/forest"
REFERENCE = Path(__file__).parents[3] / "shared/reference/cards-dartmoor.json"
#: With FOREST_SHUFFLE_SCREENSHOTS naming a folder, the pictures of docs/pad.md are taken.
SHOTS = os.environ.get("FOREST_SHUFFLE_SCREENSHOTS")


def _shot(page: Page, name: str) -> None:
    if SHOTS:
        shot(page, Path(SHOTS) / f"phone-pad-{name}.png")


def _choose(page: Page, name: str, symbol: str | None) -> None:
    """Tap a species in the open picker (and its tree symbol if the pad asks)."""
    page.get_by_test_id("pad-search").fill(name)
    page.locator(f".pad-options [data-species=\"{name}\"]").click()
    asked = page.get_by_test_id("pad-symbol")
    if asked.count():
        asked.get_by_role("button", name=symbol or "Don't know", exact=True).click()
    expect(page.get_by_test_id("pad-picker")).to_have_count(0)


def _entered(page: Page) -> None:
    """Wait until the phone has sent every entry and shows the answer."""
    page.wait_for_function("() => !document.getElementById('pad-status').textContent"
                           ".startsWith('Sending')")


def _tap_forest(page: Page, player: dict[str, Any], reload_after: int) -> None:
    taps = 0
    for where, key, add in (("trees", "tree", "pad-add-tree"), ("moors", "moor", "pad-add-moor")):
        for i, host in enumerate(player.get(where, [])):
            page.get_by_test_id(add).click()
            _choose(page, host[key], host.get("symbol"))
            for side in ("bottom", "top", "left", "right"):
                for card in host.get(side, []):
                    page.get_by_test_id(f"pad-add-{where}-{i}-{side}").click()
                    name, symbol = ((card, None) if isinstance(card, str)
                                    else (card["species"], card.get("symbol")))
                    _choose(page, name, symbol)
                    taps += 1
                    if taps == reload_after:  # a reload mid-entry loses nothing
                        _entered(page)
                        page.reload()
    cave = player["cave"]
    page.get_by_test_id("pad-cave-number").select_option(str(cave["number"]))
    page.get_by_test_id("pad-cave").fill(str(cave["cards"]))
    page.get_by_test_id("pad-set-cave").click()
    _entered(page)


def test_the_rulebook_example_tapped_on_two_phones(server: str, browser: Browser,
                                                   phone: Page,
                                                   page_errors: PageErrors) -> None:
    doc = json.loads((DATA / "dartmoor-rulebook-example.json").read_text(encoding="utf-8"))
    want = 127  # the rulebook's figure
    if REFERENCE.exists():
        want = json.loads(REFERENCE.read_text(encoding="utf-8"))[
            "scoring_example_from_rulebook"]["total"]
    ann = phone
    ann.goto(server + "/pad")
    ann.get_by_test_id("pad-game").select_option("dartmoor")
    ann.get_by_test_id("pad-name").fill("Ann")
    ann.get_by_test_id("pad-open").click()
    ann.wait_for_url("**/pad/*")
    link = ann.locator(".pad-share a", has_text="Table link").get_attribute("href")
    assert link and "join=" in link
    other = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    ben = page_errors.watch(other.new_page())
    ben.set_default_timeout(15_000)
    try:
        ben.goto(link)
        ben.get_by_test_id("pad-join-name").fill("Ben")
        ben.get_by_test_id("pad-join").click()
        expect(ben.get_by_test_id("pad-total-1")).to_have_text("0")
        _tap_forest(ann, doc["players"][0], reload_after=6)
        expect(ann.get_by_test_id("pad-total-0")).to_have_text(str(want))
        expect(ben.get_by_test_id("pad-total-0")).to_have_text(str(want))  # live
        ann.evaluate("window.scrollTo(0, 0)")
        _shot(ann, "forest")
        ann.get_by_test_id("pad-add-trees-1-top").click()
        ann.get_by_test_id("pad-search").fill("o")
        _shot(ann, "picker")
        ann.get_by_role("button", name="Cancel").click()
        # an occupied tree slot offers only the species that may share it
        ann.get_by_test_id("pad-add-trees-0-bottom").click()
        ann.get_by_test_id("pad-search").fill("Beaver")
        expect(ann.locator(".pad-options [data-species]")).to_have_count(0)
        ann.get_by_role("button", name="Cancel").click()
        # a tap the rules refuse: a third card at the bottom of a moor, said in words
        ann.get_by_test_id("pad-add-moors-0-bottom").click()
        _choose(ann, "Heather", None)
        expect(ann.get_by_test_id("pad-error")).to_contain_text(
            "more cards on the bottom of a moor than its two slots hold")
        _shot(ann, "refused")
        expect(ann.get_by_test_id("pad-total-0")).to_have_text(str(want))
        # Ben's phone: more refusals, each in words
        ben.get_by_test_id("pad-cave-number").select_option("1")
        ben.get_by_test_id("pad-cave").fill("2")
        ben.get_by_test_id("pad-set-cave").click()
        expect(ben.get_by_test_id("pad-error")).to_contain_text("cave 1 is used twice")
        ben.get_by_test_id("pad-add-tree").click()
        _choose(ben, "Ash", None)
        ben.get_by_test_id("pad-add-trees-0-left").click()
        _choose(ben, "Roe Deer", None)  # "Don't know" its symbol: it matters here
        expect(ben.get_by_test_id("pad-error")).to_contain_text("give this Roe Deer's symbol")
        expect(ben.get_by_test_id("pad-total-0")).to_have_text(str(want))
        # the card's points and reason on a tap
        ann.locator(".pad-card", has_text="Roe Deer").click()
        expect(ann.get_by_test_id("pad-why")).to_contain_text("Roe Deer: 15 points")
        _shot(ann, "why")
        # move the card, then undo the move
        ann.get_by_test_id("pad-move-to").select_option(label="Elderberry 3, right")
        ann.get_by_test_id("pad-why").get_by_role("button", name="Move", exact=True).click()
        expect(ann.get_by_test_id("pad-host-trees-2")).to_contain_text("Roe Deer")
        ann.get_by_test_id("pad-undo").click()
        expect(ann.get_by_test_id("pad-total-0")).to_have_text(str(want))
        expect(ann.get_by_test_id("pad-host-trees-2")).not_to_contain_text("Roe Deer")
        # printed: the filled score sheet alone
        ann.emulate_media(media="print")
        expect(ann.get_by_test_id("pad-lines")).to_be_visible()
        expect(ann.locator(".pad-forest")).to_be_hidden()
        ann.emulate_media(media="screen")
        # closed, the table goes to the history with its statistics and plots
        ann.locator(".pad-share summary").click()
        ann.get_by_test_id("pad-close").click()
        expect(ann.get_by_test_id("pad-winners")).to_contain_text("Ann wins")
        ann.goto(server + "/pad")
        expect(ann.locator(".pad-history li").first).to_contain_text(f"Ann {want}")
        expect(ann.get_by_test_id("pad-plots").locator("svg").first).to_be_visible()
        _shot(ann, "history")
    finally:
        other.close()


def test_an_offline_phone_sends_its_entries_when_it_is_back(server: str, phone: Page) -> None:
    phone.goto(server + "/pad")
    phone.get_by_test_id("pad-game").select_option("base")
    phone.get_by_test_id("pad-name").fill("Cy")
    phone.get_by_test_id("pad-open").click()
    phone.wait_for_url("**/pad/*")
    expect(phone.get_by_test_id("pad-total-0")).to_have_text("0")
    phone.context.set_offline(True)
    phone.get_by_test_id("pad-add-tree").click()
    _choose(phone, "Oak", None)
    phone.get_by_test_id("pad-cave").fill("4")
    phone.get_by_test_id("pad-set-cave").click()
    expect(phone.get_by_test_id("pad-status")).to_contain_text("Offline: 2 entries wait")
    phone.context.set_offline(False)  # the page hears "online" and sends its queue
    expect(phone.get_by_test_id("pad-host-trees-0")).to_contain_text("Oak")
    expect(phone.get_by_test_id("pad-lines")).to_contain_text("Cave")
    table_id = phone.url.rsplit("/", 1)[1]
    answer = phone.request.get(f"{server}/api/pad/tables/{table_id}").json()
    assert answer["players"][0]["forest"] == {"name": "Cy", "trees": [{"tree": "Oak"}],
                                              "cave": 4}
    expect(phone.get_by_test_id("pad-total-0")).to_have_text(str(answer["players"][0]["total"]))


def test_a_redraw_while_a_name_is_typed_keeps_the_caret_and_the_letters(
        server: str, browser: Browser, phone: Page, page_errors: PageErrors) -> None:
    """A redraw (here: back online, which sends the queue and reads the table again) while
    the join form's name field has the caret keeps it there: the next letters land in the
    field (a failed CI run once joined a nameless player this way)."""
    phone.goto(server + "/pad")
    phone.get_by_test_id("pad-name").fill("Ann")
    phone.get_by_test_id("pad-open").click()
    phone.wait_for_url("**/pad/*")
    link = phone.locator(".pad-share a", has_text="Table link").get_attribute("href")
    assert link
    other = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    ben = page_errors.watch(other.new_page())
    try:
        ben.goto(link)
        name = ben.get_by_test_id("pad-join-name")
        name.click()
        ben.keyboard.type("Be")
        ben.evaluate("() => window.dispatchEvent(new Event('online'))")
        ben.wait_for_function("() => document.querySelector('.pad-start') !== null")
        ben.wait_for_timeout(300)  # the refresh's answer has been drawn
        ben.keyboard.type("n")
        expect(name).to_have_value("Ben")
        expect(name).to_be_focused()
    finally:
        other.close()
