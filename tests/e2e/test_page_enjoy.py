"""The table players enjoy (issue 12 items 4-6) and Dartmoor drawn in the page, in real
headless Chromium: what moved between two payloads is animated and marked (``data-anim``,
``forestShuffle.anim.history``), the others' turns are summed up in the server's words
when the viewer's turn begins, the log has no card ids, the card a tree turns into the
clearing is logged; a 15-tree forest fits a laptop screen in compact columns and each
card's points (the server's) show on demand; on a phone the hand that pays is in view
after a place is chosen and the prompt is small; Dartmoor's moors, universal moors, caves,
discard pile and provisional marks."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, Page, expect

from .conftest import LAPTOP
from .play import click_play, create_game, status, step, wait_settled

BIG_FOREST = (Path(__file__).parent / "big_forest.js").read_text(encoding="utf-8")
CARD_ID = re.compile(r"\bcard \d+")
MAX_STEPS = 1500


def _payload(page: Page) -> dict[str, Any]:
    return dict(page.evaluate("window.forestShuffle.payload"))


def _history(page: Page) -> list[dict[str, Any]]:
    return list(page.evaluate("window.forestShuffle.anim.history"))


def _laptop(browser: Browser) -> Page:
    context = browser.new_context(viewport=LAPTOP, device_scale_factor=1)
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors  # type: ignore[attr-defined]
    return page


def test_the_others_turns_move_are_summed_up_and_logged_in_words(desktop: Page,
                                                                   server: str) -> None:
    page = desktop
    create_game(page, server, [("human", "Ada"), ("bot:medium", "Robin"), ("bot:easy", "Cy")],
                seed=3)
    wait_settled(page)
    summaries = 0
    for i in range(60):
        if wait_settled(page) == "over":
            break
        p = _payload(page)
        decision = page.evaluate("document.body.dataset.decision")  # pay: a play kept here
        if decision == "turn" and p["waited"]:
            # the server's sentences, one per player who acted, shown as they are
            box = page.locator("[data-testid=waited]")
            expect(box).to_be_visible()
            text = box.inner_text()
            for line in p["waited"]:
                assert line in text
                assert line.split()[0] in ("Robin", "Cy")
                assert not CARD_ID.search(line)
            summaries += 1
        step(page, prefer_play=i % 2 == 0)
    assert summaries >= 5
    history = _history(page)
    kinds = {(m["kind"], m["from"], m["to"]) for m in history}
    # the viewer's own draws and plays, the bots' plays and takes, the cards trees reveal
    assert ("from-deck", "deck", "hand") in kinds, kinds
    assert ("move", "hand", "forest-0") in kinds, kinds
    assert any(k == "from-hand" and t in ("forest-1", "forest-2") for k, _, t in kinds), kinds
    assert ("from-deck", "deck", "clearing") in kinds, kinds
    assert any(k == "leave" and f == "clearing" for k, f, _ in kinds), kinds
    # every move names a card of the game at the version it was drawn
    assert all(m["card"] > 0 and m["version"] > 0 for m in history)
    # the log in words only, and the card a tree turns over is in it
    lines = page.locator("[data-testid=log] li").all_text_contents()
    assert lines and not [t for t in lines if CARD_ID.search(t)]
    words = [e["words"] for e in _payload(page)["log"]]
    assert lines == words[-len(lines):]
    assert any(w.startswith("The top card of the deck goes into the clearing: ") for w in words)
    assert any("pays with " in w for w in words)
    assert not [w for w in words if CARD_ID.search(w)]


def test_a_big_forest_reads_at_a_glance_on_a_laptop(browser: Browser, server: str) -> None:
    page = _laptop(browser)
    create_game(page, server, [("human", "Ada"), ("bot:easy", "Robin")], seed=8)
    wait_settled(page)
    assert page.evaluate(BIG_FOREST) == 15
    forest = page.locator("[data-testid=my-forest]")
    expect(forest).to_have_class(re.compile(r"\bcompact\b"))
    trees = forest.locator(".tree")
    expect(trees).to_have_count(15)
    box = forest.bounding_box()
    assert box is not None
    # the whole forest in less than the laptop's screen, nothing sideways
    assert box["height"] < LAPTOP["height"] * 0.6, box
    assert page.evaluate("document.scrollingElement.scrollWidth") <= LAPTOP["width"]
    tops = sorted({round(t.bounding_box()["y"]) for t in trees.all()})  # type: ignore[index]
    assert len(tops) <= 3, tops  # at most three rows of columns
    # each tree shows its name whole, and its four slots around it
    for t in trees.all():
        name = t.locator(".trunk .tname")
        assert name.evaluate("e => e.scrollWidth <= e.clientWidth + 1"), name.inner_text()
        # the tree's number never covers its name
        assert t.locator(".trunk .num").evaluate(
            "(n) => { const a = n.getBoundingClientRect(),"
            " b = n.parentElement.querySelector('.tname').getBoundingClientRect();"
            " return a.bottom <= b.top + 1 || a.right <= b.left + 1; }"), name.inner_text()
        for side in ("top", "bottom", "left", "right"):
            expect(t.locator(f".slot-{side}")).to_have_count(1)
    # every dweller's name whole (no "Hor… Bat"): nothing cut, nothing hidden
    clipped = page.evaluate(
        "() => [...document.querySelectorAll('[data-testid=my-forest] .dname')]"
        ".filter((e) => e.scrollWidth > e.clientWidth + 1 || getComputedStyle(e).textOverflow"
        " === 'ellipsis').map((e) => e.textContent)")
    assert clipped == []
    # the NEW mark sits on the card's top edge, above its name, not before it
    fresh = forest.locator(".dweller.fresh .dname").first
    assert fresh.evaluate(
        "(n) => n.getBoundingClientRect().left - n.parentElement.getBoundingClientRect().left"
        " < 12")
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


def test_each_card_shows_the_servers_points_on_demand(browser: Browser, server: str) -> None:
    page = _laptop(browser)
    create_game(page, server, [("human", "Ada"), ("bot:easy", "Robin")], seed=11)
    for _ in range(MAX_STEPS):
        if wait_settled(page) == "over":
            break
        p = _payload(page)
        mine = p["card_points"][0]
        if p["decision"] == "turn" and len(mine) >= 6:
            break
        step(page)
    p = _payload(page)
    points = p["card_points"][0]
    forest = page.locator("[data-testid=my-forest]")
    cards = forest.locator(".dweller[data-card], .trunk[data-card]")
    assert cards.count() >= 6
    badge = forest.locator(".cpts").first
    expect(badge).to_be_hidden()  # on demand only
    first = cards.first
    first.hover()
    shown = first.locator(".cpts")
    expect(shown).to_be_visible()
    card = first.get_attribute("data-card")
    assert card is not None
    # a stack shows the points of its first card; the payload's figure either way
    figures = {str(v["points"]) for v in points.values()}
    assert shown.inner_text() in figures
    detail = page.locator("[data-testid=side-detail] [data-testid=points-now]")
    expect(detail).to_be_visible()
    assert "points now" in detail.inner_text()
    # the switch shows every card's points, the server's figures
    page.click("[data-testid=points-toggle-0]")
    page.mouse.move(0, 0)
    badges = forest.locator(".cpts")
    expect(badges.first).to_be_visible()
    for b in badges.all():
        assert b.is_visible()
        assert b.inner_text() in figures
    trunk = forest.locator(".trunk[data-card]").first
    tid = trunk.get_attribute("data-card")
    assert tid is not None and tid in points
    assert trunk.locator(".cpts").inner_text() == str(points[tid]["points"])
    assert trunk.locator(".cpts").get_attribute("title") == points[tid]["why"]
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


def test_a_phone_shows_the_hand_that_pays_and_a_small_prompt(phone: Page, server: str) -> None:
    page = phone
    create_game(page, server, [("human", "Ada"), ("bot:easy", "Robin")], seed=6)
    wait_settled(page)
    hint = page.locator("[data-testid=side-detail] .hint")
    assert "Tap" in hint.inner_text() and "Point at" not in hint.inner_text()
    paid = 0
    for i in range(400):
        if wait_settled(page) == "over" or paid >= 2:
            break
        prompt = page.locator("[data-testid=prompt]").bounding_box()
        assert prompt is not None and prompt["height"] <= 0.16 * 844, prompt
        p = _payload(page)
        plays = [k for k, plan in p["pay_plans"].items() if plan["need"] >= 1 and " " not in k]
        if p["decision"] == "turn" and plays:
            card = plays[0]
            page.locator(f"[data-testid=hand] .tile[data-ui=hand-card][data-card='{card}']").click()
            # the place is in the forest, below: scroll there and choose it
            target = page.locator("[data-testid=my-forest] .new-tree.target")
            target.scroll_into_view_if_needed()
            click_play(page, "[data-testid=my-forest] .new-tree.target")
            assert page.evaluate("document.body.dataset.paying") == "1"
            bar = page.locator("[data-testid=paybar]").bounding_box()
            first = page.locator("[data-testid=hand] [data-pick]").first.bounding_box()
            prompt = page.locator("[data-testid=prompt]").bounding_box()
            assert bar is not None and first is not None and prompt is not None
            # the pay bar and the first card that may pay are on screen, below the prompt
            assert prompt["y"] + prompt["height"] <= bar["y"] + 2, (prompt, bar)
            assert first["y"] + first["height"] / 2 < 844, first
            page.click("[data-testid=cancel-play]")
            paid += 1
            step(page, prefer_play=False)
            continue
        step(page, prefer_play=i % 3 == 0)
    assert paid >= 2
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390


def _check_caves(page: Page, v: dict[str, Any], caves: dict[int, Any]) -> None:
    """Each seat's numbered cave with the catalog's words, a reading marked provisional."""
    for seat, number in enumerate(v["cave_numbers"]):
        chip = page.locator(f"[data-testid=cave-{seat}]")
        if not number:
            expect(chip).to_have_count(0)
            continue
        expect(chip).to_contain_text(f"Cave {number}")
        expect(chip).to_contain_text(caves[number]["text"])
        assert ("provisional" in chip.inner_text()) == bool(caves[number]["provisional"])


def _check_hosts(page: Page, v: dict[str, Any], cards: dict[str, Any]) -> set[str]:
    """Every host of every forest drawn as its kind (moors with two top and two bottom
    slots and none at the sides); the kinds seen."""
    kinds: set[str] = set()
    for seat, forest in enumerate(v["forests"]):
        block = page.locator(f"[data-seat='{seat}'].forest .tree")
        expect(block).to_have_count(len(forest))
        for k, host in enumerate(forest):
            el = block.nth(k)
            kind = el.get_attribute("data-host") or ""
            card = cards[str(host["card"])] if host["card"] is not None else None
            if k in v["universal_moors"][seat]:  # its owner sees the card, the others not
                assert kind == "universal moor"
                assert (host["card"] is not None) == (seat == v["player"])
            elif card is not None and card["kind"] == "moor":
                assert kind == "moor"
            else:
                assert kind in ("tree", "shrub")
            kinds.add(kind)
            bare = "bare" in (el.get_attribute("class") or "")
            if kind in ("moor", "universal moor") and not bare:
                expect(el.locator(".slot-top")).to_have_count(2)
                expect(el.locator(".slot-bottom")).to_have_count(2)
                expect(el.locator(".slot-left, .slot-right")).to_have_count(0)
                # drawn sideways: a wide host, its two cells of a side in one row
                trunk = el.locator(".trunk").bounding_box()
                assert trunk is not None and trunk["width"] > 1.5 * trunk["height"], trunk
                for side in ("top", "bottom"):
                    cells = [c.bounding_box() for c in el.locator(f".slot-{side}").all()]
                    shown = [c for c in cells if c is not None]
                    if len(shown) == 2:
                        assert abs(shown[0]["y"] - shown[1]["y"]) < 2, shown
                        assert shown[0]["x"] < shown[1]["x"], shown
    return kinds


def _check_marks(page: Page, cards: dict[str, Any]) -> None:
    """A provisional deck's card carries its mark wherever a tile shows it, others none."""
    for tile in page.locator("[data-testid=clearing] .tile, [data-testid=hand] .tile").all():
        assumed = cards[str(tile.get_attribute("data-card"))].get("assumed")
        expect(tile.locator("[data-testid=provisional]")).to_have_count(1 if assumed else 0)
    expect(page.locator("[data-testid=provisional-deck]")).to_be_visible()


def test_dartmoor_is_drawn_in_the_page(browser: Browser, server: str) -> None:
    page = _laptop(browser)
    page.goto(server + "/")
    page.wait_for_selector("[data-testid=game-select] option", state="attached")
    values = page.locator("[data-testid=game-select] option").evaluate_all(
        "os => os.map(o => o.value)")
    assert "dartmoor" in values  # the lobby offers it
    create_game(page, server, [("human", "Ada"), ("bot:medium", "Robin")], seed=21,
                game="dartmoor")
    catalog = httpx.get(server + "/api/cards", params={"game": "dartmoor"}).json()
    caves = {c["number"]: c for c in catalog["caves"]}
    cards = catalog["cards"]
    kinds: set[str] = set()
    seen_discard = seen_offer = False
    for i in range(MAX_STEPS):
        if wait_settled(page) == "over":
            break
        p = _payload(page)
        v = p["view"]
        if v["cave_offer"] and p["legal"]:
            offer = page.locator("[data-testid=cave-offer] .cave-tile")
            expect(offer).to_have_count(len(v["cave_offer"]))
            for tile in offer.all():
                n = int(tile.get_attribute("data-cave") or 0)
                assert caves[n]["text"] in tile.inner_text()
                assert ("provisional" in tile.inner_text()) == bool(caves[n]["provisional"])
            seen_offer = True
        if i % 10 == 0:
            _check_caves(page, v, caves)
            pile = len(v["discard"])
            expect(page.locator("[data-testid=discard-count]")).to_have_text(
                f"{pile} card" + ("" if pile == 1 else "s"))
            seen_discard = seen_discard or pile > 0
            kinds |= _check_hosts(page, v, cards)
            _check_marks(page, cards)
        step(page, prefer_play=i % 3 != 0)
    assert status(page) == "over"
    assert seen_offer and seen_discard
    assert {"moor", "universal moor", "tree"} <= kinds, kinds
    # the score pad has Dartmoor's six lines
    rows = page.locator("[data-testid=score-pad] tbody th").all_inner_texts()
    assert rows == ["Top", "Bottom", "Left / right", "Cave", "Moors", "Trees", "Total"]
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()
