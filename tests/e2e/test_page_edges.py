"""Issue 38, a table without rough edges: the turn said once in a polite live region and in
the document title; long names that never break inside a word; the type and tree symbols as
shipped icons; the log's card names previewed on hover or focus."""

from __future__ import annotations

import json
import os
from importlib import resources
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from .conftest import PageErrors
from .play import click_action, create_game, step, wait_settled
from .shots import SIZES, shot

BIG_FOREST = (Path(__file__).parent / "big_forest.js").read_text(encoding="utf-8")
SHOTS = os.environ.get("FOREST_SHUFFLE_SCREENSHOTS", "")

#: Records every change of the live region (#announce) in window.said.
WATCH_ANNOUNCE = """() => {
  window.said = [];
  const el = document.getElementById('announce');
  new MutationObserver(() => window.said.push(el.textContent))
    .observe(el, {childList: true, characterData: true, subtree: true});
}"""


def _said(page: Page) -> list[str]:
    return list(page.evaluate("window.said"))


def test_the_turn_is_said_once_when_it_begins_and_titled_until_the_player_acts(
        desktop: Page, server: str) -> None:
    page = desktop
    create_game(page, server, [("human", "Ada"), ("bot:easy", "Robin")], seed=2)
    assert wait_settled(page) == "your-turn"
    assert page.evaluate("document.body.dataset.decision") == "turn"
    region = page.locator("[data-testid=announce]")
    assert region.get_attribute("aria-live") == "polite"
    assert region.text_content() == "Your turn"
    assert page.title() == "● Your turn — Forest Shuffle"
    page.evaluate(WATCH_ANNOUNCE)
    for _ in range(3):  # redraws say nothing again
        page.evaluate("window.forestShuffle.render()")
    assert _said(page) == []
    click_action(page, "[data-action=draw]")  # the first card: still this player's turn
    assert wait_settled(page) == "your-turn"
    assert page.evaluate("document.body.dataset.decision") == "draw"
    assert _said(page) == []
    assert page.title() == "● Your decision — Forest Shuffle"
    before = int(page.evaluate("window.forestShuffle.payload.view.turn"))
    click_action(page, "[data-action=draw]")  # the second card ends the turn; the bot plays
    page.wait_for_function(
        "t => { const p = window.forestShuffle.payload; return p.view.turn > t"
        " && document.body.dataset.status === 'your-turn'; }", arg=before)
    page.evaluate("window.forestShuffle.render()")
    assert _said(page) == ["Your turn"]
    assert page.title() == "● Your turn — Forest Shuffle"


def test_hot_seat_says_whose_turn(desktop: Page, server: str) -> None:
    page = desktop
    create_game(page, server, [("human", "Ada"), ("human", "Bo")], hotseat=True, seed=3)
    assert wait_settled(page) == "handover"
    assert page.title() == "● Ada's turn — Forest Shuffle"
    page.click("[data-testid=handover-ready]")
    assert wait_settled(page, ("your-turn",)) == "your-turn"
    assert page.locator("[data-testid=announce]").text_content() == "Ada's turn"
    assert page.title() == "● Ada's turn — Forest Shuffle"


#: The German names printed on the cards (cards/data/names.json), by species key.
GERMAN = {key: facts["de"]["name"]
          for module in json.loads((resources.files("forest_shuffle.cards") / "data" / "names.json")
                                   .read_text(encoding="utf-8"))["modules"].values()
          for key, facts in module.items() if "de" in facts}

#: The page's catalog with the German names printed on the cards (the page shows the English
#: names today: card names are data the server sends, docs/i18n.md), drawn again.
GERMAN_NAMES = """names => {
  const g = window.forestShuffle;
  for (const [key, sp] of Object.entries(g.cat.species)) if (names[key]) sp.name = names[key];
  g.render();
}"""

#: Every card of the game drawn as a tile in the hand's row (as the page draws hand cards),
#: the names fitted as the page fits them after a drawing.
ALL_TILES = """async () => {
  const cards = await import('/static/cards.js');
  const g = window.forestShuffle;
  const row = document.querySelector('[data-testid=hand] .tiles');
  for (const id of Object.keys(g.cat.cards)) row.append(cards.cardTile(g.cat, Number(id), {}));
  if (cards.fitNames) cards.fitNames(document.getElementById('root'));  // as after a drawing
  return row.children.length;
}"""

#: Every word of every name (the parts of a hyphenated word as words: a line may end at a
#: hyphen) that is drawn on two lines (broken inside) or leaves the box of its name's card,
#: slot or row (cut).
BROKEN_WORDS = """() => {
  const bad = [];
  for (const el of document.querySelectorAll('.name, .dname, .tname, .pname')) {
    if (!el.getClientRects().length) continue;
    const holder = el.closest('.tile, .dweller, .trunk, li') || el.parentElement;
    const box = holder.getBoundingClientRect();
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const m of node.data.matchAll(/[^\\s-]+-?/g)) {  // a hyphen may end a line
        const r = document.createRange();
        r.setStart(node, m.index);
        r.setEnd(node, m.index + m[0].length);
        const rects = [...r.getClientRects()].filter((x) => x.width > 0);
        const tops = new Set(rects.map((x) => Math.round(x.top / 3)));
        const out = rects.some((x) => x.right > box.right + 1 || x.left < box.left - 1);
        if (tops.size > 1 || out) bad.push(`${m[0]} (${tops.size > 1 ? 'broken' : 'cut'})`);
      }
    }
  }
  return bad;
}"""


@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_long_names_never_break_inside_a_word(browser: Browser, server: str, size: str,
                                             page_errors: PageErrors) -> None:
    context = browser.new_context(viewport=SIZES[size], locale="de-DE", device_scale_factor=1,
                                  is_mobile=size == "phone", has_touch=size == "phone")
    page = page_errors.watch(context.new_page())
    page.set_default_timeout(15_000)
    create_game(page, server, [("human", "Bechsteinfledermausfreundin"),
                               ("bot:easy", "Breitflügelfledermausforscher")],
                game="base+alpine+woodland_edge", seed=5)
    assert wait_settled(page) == "your-turn"
    assert page.locator("html").get_attribute("lang") == "de"
    page.evaluate(GERMAN_NAMES, GERMAN)
    page.evaluate(BIG_FOREST)  # a forest of 15 trees, every slot's dwellers named
    wait_settled(page)
    assert page.evaluate(ALL_TILES) > 100
    names = page.locator(".tile .name").all_text_contents()
    assert "Bechsteinfledermaus" in names  # the German names are drawn
    assert page.evaluate(BROKEN_WORDS) == []
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        shot(page, Path(SHOTS) / f"{size}-long-names-de.png")
        page.locator("[data-testid=my-forest]").scroll_into_view_if_needed()
        shot(page, Path(SHOTS) / f"{size}-long-names-forest-de.png")
    context.close()


#: Every tag of every game's species (GET /api/cards) with its icon, and the icons of the
#: tiles drawn: their file, whether it loaded (the page's policy allows same-origin images),
#: the name a screen reader hears.
TAG_ICONS = """async () => {
  const cards = await import('/static/cards.js');
  const tags = new Set();
  const symbols = new Set();
  for (const game of ['base+alpine+woodland_edge', 'dartmoor']) {
    const data = await (await fetch('/api/cards?game=' + encodeURIComponent(game))).json();
    for (const sp of Object.values(data.species)) for (const t of sp.tags || []) tags.add(t);
    const cat = new cards.Catalog(data);
    for (const id of Object.keys(cat.cards)) {
      for (const half of cat.halves(id)) if (half.symbol) symbols.add(half.symbol);
    }
  }
  const missing = [...tags].filter((t) => !cards.tagIcon(t));
  for (const symbol of symbols) {  // every tree symbol has its own icon file
    const src = cards.symbolIcon(symbol).getAttribute('src');
    if (!(await fetch(src)).ok) missing.push(symbol);
  }
  const imgs = [...document.querySelectorAll('[data-testid=hand] img.icon')];
  await Promise.all(imgs.map((i) => i.decode().catch(() => null)));
  return {tags: [...tags], symbols: [...symbols], missing,
          drawn: imgs.map((i) => ({src: i.getAttribute('src'), loaded: i.naturalWidth > 0,
                                    alt: i.alt, tag: i.dataset.tag || '',
                                    symbol: i.dataset.symbol || ''}))};
}"""


@pytest.mark.parametrize(("size", "lang"), [("laptop", "fr"), ("phone", "en")])
def test_type_and_tree_symbols_are_shipped_icons_named_for_screen_readers(
        browser: Browser, server: str, size: str, lang: str, page_errors: PageErrors) -> None:
    context = browser.new_context(viewport=SIZES[size], locale=lang, device_scale_factor=1,
                                  is_mobile=size == "phone", has_touch=size == "phone")
    page = page_errors.watch(context.new_page())
    page.set_default_timeout(15_000)
    create_game(page, server, [("human", "Ada"), ("bot:easy", "Robin")],
                game="base+alpine+woodland_edge", seed=5)
    assert wait_settled(page) == "your-turn"
    found = page.evaluate(TAG_ICONS)
    assert {"bird", "bat", "pawed animal", "cloven-hoofed animal", "mushroom"} <= set(found["tags"])
    assert len(found["symbols"]) >= 14  # the base game's, the Alps' and Dartmoor's trees
    assert found["missing"] == []  # every tag and tree symbol of the data has an icon
    drawn = found["drawn"]
    assert drawn and all(d["loaded"] and d["src"].startswith("/static/icons/") for d in drawn)
    for d in drawn:  # a type icon is named in the page's language; the tree symbol's too
        if d["tag"] == "bird":
            assert d["alt"] == ("oiseau" if lang == "fr" else "bird")
    tree_symbols = [d for d in drawn if d["symbol"]]
    assert len({d["src"] for d in tree_symbols}) > 1  # each tree symbol its own icon
    assert all(d["src"] == f"/static/icons/trees/{d['symbol']}.svg" and d["alt"] == (
        "symbole d’arbre" if lang == "fr" else "tree symbol") for d in tree_symbols)
    for d in {d["src"] for d in drawn}:
        answer = httpx.get(server + d)
        assert answer.status_code == 200
        assert answer.headers["content-type"].startswith("image/svg+xml")
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.locator("[data-testid=hand]").scroll_into_view_if_needed()
        shot(page, Path(SHOTS) / f"{size}-icons-{lang}.png")
    context.close()


#: Where the parts of the page are (they must not move when a preview shows).
LAYOUT = """() => [...document.querySelectorAll('main, .board, .main-col, .side-col, .log-list,'
  + ' [data-testid=hand]')].map((e) => { const r = e.getBoundingClientRect();
  return [r.left, r.top, r.width, r.height].map(Math.round); })
  .concat([[document.documentElement.scrollWidth, document.documentElement.scrollHeight]])"""


@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_a_card_named_in_the_log_is_previewed_on_hover_and_focus(
        browser: Browser, server: str, size: str, page_errors: PageErrors) -> None:
    context = browser.new_context(viewport=SIZES[size], device_scale_factor=1,
                                  is_mobile=size == "phone", has_touch=size == "phone")
    page = page_errors.watch(context.new_page())
    page.set_default_timeout(15_000)
    create_game(page, server, [("human", "Ada"), ("bot:easy", "Robin")], seed=2)
    for _ in range(12):  # until a card is named in the log
        if wait_settled(page) != "your-turn" or page.locator("[data-log-card]").count():
            break
        step(page)
    wait_settled(page)
    mark = page.locator("[data-testid=log] [data-log-card]").last
    card = mark.get_attribute("data-log-card")
    name = mark.text_content() or ""
    assert card and name
    preview = page.get_by_test_id("log-preview")
    assert not preview.is_visible()
    mark.scroll_into_view_if_needed()
    page.mouse.move(2, 2)  # the pointer off the cards (a card pointed at fills the side panel)
    page.wait_for_timeout(100)
    before = page.evaluate(LAYOUT)
    mark.hover()
    tile = preview.locator(f".tile[data-card='{card}']")
    expect(tile).to_be_visible()
    assert name in " / ".join(tile.locator(".name").all_text_contents())
    assert page.evaluate(LAYOUT) == before  # nothing of the page moved
    box = preview.bounding_box()
    view = SIZES[size]
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= view["width"]
    assert box["y"] >= 0 and box["y"] + box["height"] <= view["height"]
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        shot(page, Path(SHOTS) / f"{size}-log-preview.png")
    page.mouse.move(2, 2)
    expect(preview).to_be_hidden()
    mark.focus()  # the keyboard: a name in the log takes the focus and shows its card
    expect(tile).to_be_visible()
    page.keyboard.press("Escape")
    expect(preview).to_be_hidden()
    context.close()
