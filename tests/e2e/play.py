"""Playing the page by clicking: wait for the page to settle, then click one legal option."""

from __future__ import annotations

import json
from urllib.parse import parse_qs, urlsplit

import httpx
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

#: Page states in which the test may act (see app.js: document.body.dataset.status).
SETTLED = ("your-turn", "over", "handover", "waiting", "watching")


def status(page: Page) -> str:
    return str(page.evaluate("document.body.dataset.status"))


def wait_settled(page: Page, states: tuple[str, ...] = ("your-turn", "over", "handover"),
                 timeout: float = 15_000) -> str:
    """Wait until the page is in one of ``states``; that state. On a timeout the error
    says what the page and the server held (so a failure on CI can be read)."""
    try:
        # No body yet while a new page loads (right after a click that navigates): keep
        # waiting then, rather than fail on reading null (and log a page error).
        page.wait_for_function(
            "states => !!document.body && states.includes(document.body.dataset.status)",
            arg=list(states), timeout=timeout)
    except PlaywrightError as exc:
        raise AssertionError(f"the page did not settle in {timeout / 1000:g} s "
                             f"(waited for {', '.join(states)}): {stuck(page)}") from exc
    return status(page)


#: What the page holds, for a failure's message.
_PAGE_FACTS = """() => {
  const fs = window.forestShuffle, p = fs && fs.payload;
  const banner = document.querySelector('.banner:not([hidden])');
  const d = document.body ? document.body.dataset : {};
  return {status: d.status, version: d.version,
          connected: fs ? fs.connected : null, busy: fs ? fs.busy : null,
          to_move: p ? p.to_move : null, you: p ? p.you : null, over: p ? p.over : null,
          decision: p ? p.decision : null, legal: p && p.legal ? p.legal.length : null,
          banner: banner ? banner.textContent : null};
}"""


def stuck(page: Page) -> str:
    """The page's status and payload and the server's own payload for the page's game."""
    try:
        facts = page.evaluate(_PAGE_FACTS)
    except PlaywrightError as exc:
        facts = {"error": str(exc).splitlines()[0]}
    url = urlsplit(page.url)
    parts = url.path.strip("/").split("/")
    server: object = None
    if len(parts) == 2 and parts[0] == "game":
        token = parse_qs(url.query).get("token", [None])[0]
        try:
            r = httpx.get(f"{url.scheme}://{url.netloc}/api/games/{parts[1]}",
                          headers={"x-seat-token": token} if token else {}, timeout=10)
            body = r.json()
            server = {"http": r.status_code, **{k: body.get(k) for k in
                                                  ("version", "to_move", "you", "over",
                                                   "decision", "error")}}
        except (httpx.HTTPError, ValueError) as exc:
            server = f"not asked: {exc}"
    return f"url {page.url}; page {json.dumps(facts)}; server {json.dumps(server)}"


def version(page: Page) -> int:
    return int(page.evaluate("Number(document.body.dataset.version)"))


#: A page script that is true once the server answered an action sent at version ``v``.
ANSWERED = ("(Number(document.body.dataset.version) !== v"
            " && document.body.dataset.status !== 'busy')")


def wait_answered(page: Page, before: int) -> None:
    """Wait until the server answered an action the page sent at version ``before``."""
    page.wait_for_function(f"v => {ANSWERED}", arg=before)


def click_action(page: Page, selector: str) -> None:
    """Click an element that sends an action and wait for the server's answer."""
    before = version(page)
    page.locator(selector).first.click()
    wait_answered(page, before)


def click_play(page: Page, selector: str) -> None:
    """Click a place for a play: the page sends it at once (nothing to pay) or keeps it, and
    asks for the cards that pay for it (``data-paying``), until they are picked."""
    before = version(page)
    page.locator(selector).first.click()
    page.wait_for_function(f"v => document.body.dataset.paying === '1' || {ANSWERED}",
                           arg=before)


def page_state(page: Page) -> str:
    """The page's state in one line, for failure messages."""
    return str(page.evaluate(
        "JSON.stringify({status: document.body.dataset.status,"
        " version: document.body.dataset.version,"
        " legal: window.forestShuffle.payload.legal,"
        " pending: window.forestShuffle.payload.view.pending,"
        " picked: [...window.forestShuffle.payPick],"
        " banner: document.getElementById('banner').hidden ? null"
        " : document.getElementById('banner').textContent})"))


def visible(page: Page, selector: str) -> bool:
    return page.locator(selector).count() > 0


def play_selected(page: Page, kind: str = "play") -> None:
    """With a hand card picked, click its first option of ``kind`` (play or sapling)."""
    click_play(page, f"[data-testid=selection] [data-action^='{kind} ']")


def step(page: Page, prefer_play: bool = True) -> str:
    """Take one decision by clicking; what was done (for messages)."""
    decision = str(page.evaluate("document.body.dataset.decision"))
    playable = "[data-testid=hand] .tile.can[data-ui=hand-card]"
    if decision == "mulligan":
        click_action(page, "[data-action=keep]")
        return "keep"
    if decision in ("turn", "free", "mole"):
        if visible(page, playable) and (prefer_play or not visible(page, "[data-action=draw]")):
            page.locator(playable).first.click()
            play_selected(page)
            return "play"
        if decision == "turn" and visible(page, "[data-action=draw]"):
            click_action(page, "[data-action=draw]")
            return "draw"
        if decision == "turn" and visible(page, "[data-action^='take ']"):
            click_action(page, "[data-action^='take ']")
            return "take"
        if decision == "turn":
            page.locator("[data-testid=hand] .tile[data-ui=hand-card]").first.click()
            play_selected(page, "sapling")
            return "sapling"
        click_action(page, "[data-action=done]")
        return "done"
    if decision == "draw":
        if visible(page, "[data-action=draw]"):
            click_action(page, "[data-action=draw]")
            return "draw"
        click_action(page, "[data-action^='take ']")
        return "take"
    if decision == "pay":
        if visible(page, "[data-pick]"):
            # a payment of several cards: pick them (bonus keepers first) until it is sent
            before = version(page)
            for _ in range(12):
                if version(page) != before or status(page) != "your-turn":
                    break
                free = "[data-pick]:not(.picked)"
                keeper = f"{free}:has(.badge)"
                if not visible(page, free):
                    break
                page.locator(keeper if visible(page, keeper) else free).first.click()
            try:
                wait_answered(page, before)
            except Exception as exc:
                raise AssertionError(f"the payment was not sent: {page_state(page)}") from exc
            return "pay"
        keeps = "[data-testid=hand] .tile[data-action^='pay ']:has(.badge)"
        click_action(page, keeps if visible(page, keeps) else "[data-action^='pay ']")
        return "pay"
    if decision == "option":
        click_action(page, "[data-action=yes]")
        return "yes"
    if decision == "raccoon":  # a choice of several: none picked, confirmed
        click_action(page, "[data-testid=confirm-picks]")
        return "done"
    if decision == "take":  # an effect's take from the clearing
        click_action(page, "[data-testid=clearing] [data-action^='take ']")
        return "take"
    if decision in ("clearing cave", "discard"):  # a choice of several: pick, confirm
        pick_and_confirm(page)
        return decision
    if decision == "saplings":  # an effect's free saplings: one, then done
        if prefer_play and visible(page, "[data-testid=hand] [data-action^='sapling ']"):
            click_action(page, "[data-testid=hand] [data-action^='sapling ']")
            return "sapling"
        click_action(page, "[data-action=done]")
        return "done"
    click_action(page, "[data-action]")
    return "other"


def ready(page: Page) -> None:
    """At a hot-seat hand-over, show the next person's hand; wait for their decision."""
    if wait_settled(page) == "handover":
        page.click("[data-testid=handover-ready]")
        wait_settled(page, ("your-turn", "over"))


def pick_and_confirm(page: Page, cards: list[int] | None = None) -> None:
    """A choice of several cards (the payload's picks): pick ``cards`` (the first ones the
    page offers, as many as the choice takes, if None) and confirm."""
    picks = page.evaluate("window.forestShuffle.payload.picks")
    assert picks, f"no choice of several cards: {page_state(page)}"
    if cards is None:
        cards = list(picks["cards"])[:picks["least"]]
    for c in cards:
        page.click(f"[data-pick='{c}']")
    click_action(page, "[data-testid=confirm-picks]")


def legal(page: Page) -> list[str]:
    return list(page.evaluate("window.forestShuffle.payload.legal"))


def act(page: Page, text: str) -> None:
    """Take the action ``text`` by clicking what the page offers for it: a hand card then
    its place (play, and sapling outside an effect), a lit card of a payment of several
    (``pay`` of one of the cards that may pay: the page sends the payment once enough are
    picked), or the one element whose ``data-action`` it is (deck, clearing, hand cards,
    buttons)."""
    ready(page)
    kind, *rest = text.split()
    decision = str(page.evaluate("document.body.dataset.decision"))
    pick = f"[data-testid=hand] [data-pick='{rest[0]}']" if rest else ""
    if kind == "pay" and visible(page, pick):
        picked = int(page.evaluate("window.forestShuffle.payPick.size"))
        need = int(page.evaluate("window.forestShuffle.payNeed()"))
        if picked + 1 < need:
            page.click(pick)
            page.wait_for_function("n => window.forestShuffle.payPick.size === n", arg=picked + 1)
        else:
            click_action(page, pick)
        return
    picks = page.evaluate("window.forestShuffle.payload.picks")
    if picks and picks["kind"] != "pay" and (kind == picks["verb"] or kind == "done"):
        # a choice of several: each card is picked, the last one (or done) confirms it
        if kind != "done":
            page.click(f"[data-pick='{rest[0]}']")
        size = int(page.evaluate("window.forestShuffle.choicePick.size"))
        if kind == "done" or size == picks["most"] or (
                not picks["ends_with_done"] and size == picks["least"]):
            click_action(page, "[data-testid=confirm-picks]")
        return
    assert text in legal(page) or kind == "pay", f"{text} is not legal: {page_state(page)}"
    if kind == "play" or (kind == "sapling" and decision != "saplings"):
        page.click(f"[data-testid=hand] .tile[data-ui=hand-card][data-card='{rest[0]}']")
        click_play(page, f"[data-testid=selection] [data-action='{text}']")
        return
    click_action(page, f"[data-action='{text}']")


def create_game(page: Page, base: str, seats: list[tuple[str, str]], *, seed: int | None = None,
                hotseat: bool = False, game: str | None = None) -> None:
    """Fill the lobby: the game (its id, from the select; the default if None), seats as
    (kind, name) with kind human or bot:LEVEL, then create."""
    page.goto(base + "/")
    page.wait_for_selector("[data-testid=create-game]")
    if game is not None:
        page.select_option("[data-testid=game-select]", game)
    while page.locator(".seat-row").count() < len(seats):
        page.click("[data-testid=add-seat]")
    for i, (kind, name) in enumerate(seats):
        who, _, level = kind.partition(":")
        page.select_option(f"[data-testid=seat-kind-{i}]", who)
        if level:
            page.select_option(f"[data-testid=seat-level-{i}]", level)
        page.fill(f"[data-testid=seat-name-{i}]", name)
    if hotseat:
        page.check("[data-testid=hotseat]")
    if seed is not None:
        page.fill("[data-testid=seed]", str(seed))
    page.click("[data-testid=create-game]")
