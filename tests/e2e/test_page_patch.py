"""Live updates that keep what a person is doing (issue 38): the pages patch what they drew
(``static/dom.js: patch``) rather than build it again, so a number typed into the score
pad's cave field stays, with its focus, when another phone's entry arrives, and the table
page's log stays where it was scrolled to when another seat plays. In Chromium, at laptop
and phone size; and the patch itself, in a page."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from .conftest import LAPTOP, PHONE, PageErrors
from .play import wait_settled

SIZES = {"laptop": LAPTOP, "phone": PHONE}


@pytest.fixture(params=sorted(SIZES))
def screen(request: pytest.FixtureRequest, browser: Browser,
           page_errors: PageErrors) -> Iterator[tuple[Browser, dict[str, int], PageErrors]]:
    """The browser, a screen size (laptop, phone) and the error watch of the test."""
    yield browser, SIZES[request.param], page_errors


def _page(browser: Browser, size: dict[str, int],
          errors: PageErrors) -> tuple[BrowserContext, Page]:
    phone = size["width"] < 600
    context = browser.new_context(viewport=size, is_mobile=phone, has_touch=phone)
    page = errors.watch(context.new_page())
    page.set_default_timeout(15_000)
    return context, page


def test_a_cave_number_typed_stays_while_another_phones_entry_arrives(
        server: str, screen: tuple[Browser, dict[str, int], PageErrors]) -> None:
    browser, size, errors = screen
    ann_ctx, ann = _page(browser, size, errors)
    ben_ctx, ben = _page(browser, size, errors)
    try:
        ann.goto(server + "/pad")
        ann.get_by_test_id("pad-game").select_option("base")
        ann.get_by_test_id("pad-name").fill("Ann")
        ann.get_by_test_id("pad-open").click()
        ann.wait_for_url("**/pad/*")
        link = ann.locator(".pad-share a", has_text="Table link").get_attribute("href")
        assert link
        cave = ann.get_by_test_id("pad-cave")
        cave.click()
        cave.press("Control+a")
        ann.keyboard.type("7")  # typed, not yet set
        # another phone joins and sets its cave: both arrive on Ann's phone live
        ben.goto(link)
        ben.get_by_test_id("pad-join-name").fill("Ben")
        ben.get_by_test_id("pad-join").click()
        ben.get_by_test_id("pad-cave").fill("3")
        ben.get_by_test_id("pad-set-cave").click()
        expect(ann.get_by_test_id("pad-total-1")).to_have_text("3")  # the update arrived
        expect(cave).to_have_value("7")
        expect(cave).to_be_focused()
        ann.keyboard.type("2")  # the caret is still in the field
        expect(cave).to_have_value("72")
        ann.get_by_test_id("pad-set-cave").click()
        expect(ann.get_by_test_id("pad-total-0")).to_have_text("72")  # Set sent what was typed
        expect(ben.get_by_test_id("pad-total-0")).to_have_text("72")
        expect(cave).to_have_value("72")
    finally:
        ben_ctx.close()
        ann_ctx.close()


def _seat_to_move(server: str, gid: str, tokens: list[str]) -> tuple[str, dict[str, Any]]:
    for token in tokens:
        p = httpx.get(f"{server}/api/games/{gid}", headers={"X-Seat-Token": token}).json()
        if p["to_move"] == p["you"] and p["legal"]:
            return token, p
    raise AssertionError("no seat to move")


def _act(server: str, gid: str, tokens: list[str]) -> None:
    """The seat to move takes a card from the deck if it may, else its first legal action
    (over the API, as another player's browser would)."""
    token, p = _seat_to_move(server, gid, tokens)
    action = next((a for a in p["legal"] if a == "draw"), p["legal"][0])
    r = httpx.post(f"{server}/api/games/{gid}/actions", headers={"X-Seat-Token": token},
                   json={"action": action, "version": p["version"]})
    assert r.status_code == 200, r.text


def test_the_log_stays_where_it_was_scrolled_when_another_seat_plays(
        server: str, screen: tuple[Browser, dict[str, int], PageErrors]) -> None:
    browser, size, errors = screen
    game = httpx.post(server + "/api/games", json={
        "seats": [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bob"}],
        "seed": 38}).json()
    gid = game["game_id"]
    tokens = [s["token"] or httpx.post(f"{server}/api/games/{gid}/claim",
                                       json={"invite": s["invite"]}).json()["token"]
              for s in game["seats"]]
    for _ in range(24):  # a log longer than its box
        _act(server, gid, tokens)
    context, page = _page(browser, size, errors)
    try:
        page.goto(server + game["seats"][0]["link"])
        wait_settled(page, ("your-turn", "waiting"))
        log = page.get_by_test_id("log")
        log.scroll_into_view_if_needed()
        box = log.evaluate("el => [el.scrollHeight, el.clientHeight]")
        assert box[0] > box[1] + 100, box  # it scrolls
        log.evaluate("el => { el.scrollTop = 40; }")
        y = page.evaluate("window.scrollY")
        before = int(page.evaluate("document.body.dataset.version"))
        _act(server, gid, tokens)  # the other seat (or Ada, from another screen) plays
        page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before)
        assert log.evaluate("el => el.scrollTop") == 40  # the log stayed where it was read
        assert page.evaluate("window.scrollY") == y  # and so did the page
        # scrolled back to its end, the log follows the newest line again
        log.evaluate("el => { el.scrollTop = el.scrollHeight; }")
        before = int(page.evaluate("document.body.dataset.version"))
        _act(server, gid, tokens)
        page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before)
        assert log.evaluate("el => el.scrollTop + el.clientHeight >= el.scrollHeight - 4")
    finally:
        context.close()


PATCH_CASES = """async () => {
  const { h, patch, live } = await import("/static/dom.js");
  const root = document.createElement("div");
  document.body.appendChild(root);
  const out = {};
  let clicked = "";
  const draw = (n, items) => h("div", {},
    h("input", { value: String(n), "data-testid": "x" }),
    h("button", { onclick: () => { clicked = `n${n}`; } }, `go ${n}`),
    h("ul", {}, items.map((k) => h("li", { "data-key": k }, k))));
  patch(root, draw(1, ["a", "b", "c"]));
  const input = root.querySelector("input");
  const button = root.querySelector("button");
  const lis = [...root.querySelectorAll("li")];
  input.focus();
  input.value = "15";
  input.setSelectionRange(1, 1);
  const built = draw(2, ["c", "a", "d"]);
  const builtInput = built.querySelector("input");
  patch(root, built);
  out.sameInput = root.querySelector("input") === input;
  out.value = input.value;
  out.focused = document.activeElement === input;
  out.caret = input.selectionStart;
  out.live = live(builtInput) === input;
  out.sameButton = root.querySelector("button") === button;
  out.text = button.textContent;
  button.click();
  out.clicked = clicked;
  const now = [...root.querySelectorAll("li")];
  out.order = now.map((li) => li.textContent).join("");
  out.keptA = now[1] === lis[0];
  out.keptC = now[0] === lis[2];
  input.blur();
  input.value = "2"; // the person's value is the drawn one again: no draft
  patch(root, draw(3, []));
  out.value3 = input.value;
  out.items3 = root.querySelectorAll("li").length;
  patch(root, h("p", {}, "other"));
  out.replaced = root.firstChild.nodeName;
  root.remove();
  return out;
}"""


def test_the_patch_keeps_nodes_drafts_and_swaps_handlers(server: str, desktop: Page) -> None:
    desktop.goto(server + "/pad")
    out = desktop.evaluate(PATCH_CASES)
    assert out == {
        "sameInput": True, "value": "15", "focused": True, "caret": 1, "live": True,
        "sameButton": True, "text": "go 2", "clicked": "n2",
        "order": "cad", "keptA": True, "keptC": True,
        "value3": "3", "items3": 0, "replaced": "P",
    }
