"""The page in the players' languages (docs/i18n.md): in each of the four languages, chosen
from the browser's language, at laptop and phone size, the lobby, a table and the score pad
show the `page` catalog's words, ``<html lang>`` is set and nothing is wider than the
screen; the switch's choice is kept across a reload and on the score pad. With
FOREST_SHUFFLE_SCREENSHOTS naming a folder, the pictures of docs/i18n.md are taken there."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from forest_shuffle.cards.names import printed_name
from forest_shuffle.games.dartmoor_solo import setup_steps, solo_game

from .conftest import PageErrors
from .play import create_game, step, wait_settled
from .shots import SIZES, shot

WORDS = Path(__file__).resolve().parents[2] / "src/forest_shuffle/server/static/words"
DATA = Path(__file__).resolve().parents[1] / "data/forest"
#: A browser locale of each language (the page's default comes from it).
LOCALES = {"en": "en-GB", "fr": "fr-FR", "de": "de-DE", "zh": "zh-CN"}
#: <html lang> of each language.
HTML_LANG = {"en": "en", "fr": "fr", "de": "de", "zh": "zh-Hans"}
SHOTS = os.environ.get("FOREST_SHUFFLE_SCREENSHOTS")


def catalog(lang: str) -> Callable[[str], str]:
    """The page catalog's translation of a message in ``lang`` (the shipped JSON words)."""
    messages = json.loads((WORDS / f"{lang}.json").read_text(encoding="utf-8"))["messages"]
    return lambda text: str(messages.get(text, text))


def no_overflow(page: Page, where: str) -> None:
    """Nothing on the page is wider than the screen (no sideways scrolling)."""
    widths = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1], f"{where}: {widths[0]} px wide on a {widths[1]} px screen"


def picture(page: Page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.evaluate("window.scrollTo(0, 0)")
        shot(page, Path(SHOTS) / f"{name}.png")


def open_pad(page: Page, server: str) -> None:
    """A score-pad table of two forests (a Forest JSON document), opened as its host."""
    doc = json.loads((DATA / "base+alpine.json").read_text(encoding="utf-8"))
    table = httpx.post(f"{server}/api/pad/import", json=doc, timeout=20).json()
    keys = {"seat": 0, "token": table["seats"][0]["token"], "host": table["host"],
            "join": table["join"]}
    page.evaluate("([k, v]) => localStorage.setItem(k, JSON.stringify(v))",
                  [f"pad:{table['id']}", keys])
    page.goto(f"{server}/pad/{table['id']}")
    page.wait_for_selector("[data-testid=pad-lines]")


@pytest.mark.parametrize("size", ["laptop", "phone"])
@pytest.mark.parametrize("lang", list(LOCALES))
def test_lobby_table_and_score_pad_in_each_language(browser: Browser, server: str, lang: str,
                                                    size: str, page_errors: PageErrors) -> None:
    context = browser.new_context(viewport=SIZES[size], locale=LOCALES[lang],
                                  device_scale_factor=1, is_mobile=size == "phone",
                                  has_touch=size == "phone")
    page = page_errors.watch(context.new_page())
    page.set_default_timeout(15_000)
    t = catalog(lang)
    page.goto(server + "/")
    page.wait_for_selector("[data-testid=create-game]")
    expect(page.locator("html")).to_have_attribute("lang", HTML_LANG[lang])
    expect(page.get_by_test_id("lang-switch")).to_have_value(lang)
    expect(page.get_by_test_id("create-game")).to_have_text(t("Create the game"))
    expect(page.locator(".lobby-form h2")).to_have_text(t("Seats"))
    no_overflow(page, "lobby")
    picture(page, f"{size}-lobby-{lang}")

    create_game(page, server, [("human", "Ada"), ("bot:easy", "Robin")], seed=2)
    for _ in range(10):
        if wait_settled(page) == "over":
            break
        step(page)
    wait_settled(page)
    expect(page.locator("[data-testid=my-forest] h2")).to_have_text(t("Your forest"))
    expect(page.locator(".players h2")).to_have_text(t("Players"))
    expect(page.locator(".log h2")).to_have_text(t("Game log"))
    expect(page.get_by_test_id("deck").locator(".deck-word")).to_have_text(
        t("Draw") if page.get_by_test_id("deck").get_attribute("data-action") else t("Deck"))
    no_overflow(page, "table")
    picture(page, f"{size}-table-{lang}")

    open_pad(page, server)
    expect(page.locator("html")).to_have_attribute("lang", HTML_LANG[lang])
    expect(page.locator(".pad-total th")).to_have_text(t("Total"))
    expect(page.locator(".pad-brand")).to_have_text(t("Score pad"))
    expect(page.get_by_test_id("pad-undo")).to_have_text(t("Undo"))
    no_overflow(page, "score pad")
    picture(page, f"{size}-pad-{lang}")
    context.close()


def test_the_table_in_french_shows_the_servers_prompt_in_french(
        browser: Browser, server: str, page_errors: PageErrors) -> None:
    """The page asks the server in its language (``?lang=``): the prompt it shows is the
    server's French sentence, not the English one."""
    context = browser.new_context(viewport=SIZES["laptop"], locale=LOCALES["fr"])
    page = page_errors.watch(context.new_page())
    page.set_default_timeout(15_000)
    create_game(page, server, [("human", "Ada"), ("bot:easy", "Robin")], seed=2)
    assert wait_settled(page) == "your-turn"
    url = urlsplit(page.url)
    gid = url.path.strip("/").split("/")[1]
    token = parse_qs(url.query)["token"][0]

    def asked(query: str) -> str:
        r = httpx.get(f"{server}/api/games/{gid}{query}", headers={"x-seat-token": token},
                      timeout=10)
        return str(r.json()["prompt"])

    french, english = asked("?lang=fr"), asked("?lang=en")
    assert french != english
    expect(page.locator("[data-testid=prompt] .ask")).to_have_text(french)
    context.close()


def test_the_language_switch_is_kept_across_a_reload(desktop: Page, server: str) -> None:
    """The switch changes the page's language at once, and the choice stays in this browser
    (a reload, the score pad), over the browser's own language (English here)."""
    de = catalog("de")
    desktop.goto(server + "/")
    desktop.wait_for_selector("[data-testid=create-game]")
    expect(desktop.locator("html")).to_have_attribute("lang", "en")
    desktop.select_option("[data-testid=lang-switch]", "de")
    expect(desktop.locator("html")).to_have_attribute("lang", "de")
    expect(desktop.get_by_test_id("create-game")).to_have_text(de("Create the game"))
    desktop.reload()
    expect(desktop.locator("html")).to_have_attribute("lang", "de")
    expect(desktop.get_by_test_id("create-game")).to_have_text(de("Create the game"))
    expect(desktop.get_by_test_id("lang-switch")).to_have_value("de")
    desktop.goto(server + "/pad")
    expect(desktop.locator("html")).to_have_attribute("lang", "de")
    expect(desktop.locator(".pad-brand")).to_have_text(de("Score pad"))
    desktop.select_option("[data-testid=lang-switch]", "en")
    expect(desktop.locator("html")).to_have_attribute("lang", "en")
    expect(desktop.locator(".pad-brand")).to_have_text("Score pad")


def test_every_language_has_its_words_file(server: str) -> None:
    """The words of each language are served (cacheable static files) and name it."""
    for lang in LOCALES:
        r = httpx.get(f"{server}/static/words/{lang}.json", timeout=10)
        assert r.status_code == 200, lang
        assert r.json()["lang"] == lang


@pytest.mark.skipif(not SHOTS, reason="a whole game per language: with the screenshots only")
@pytest.mark.parametrize("lang", list(LOCALES))
def test_the_end_of_a_game_in_each_language(browser: Browser, server: str, lang: str,
                                            page_errors: PageErrors) -> None:
    """A whole game against a bot, then its end: the score pad's total, the rematch and
    the review's heading in the catalog's words (and the picture of it)."""
    context = browser.new_context(viewport=SIZES["laptop"], locale=LOCALES[lang],
                                  device_scale_factor=1)
    page = page_errors.watch(context.new_page())
    page.set_default_timeout(15_000)
    t = catalog(lang)
    create_game(page, server, [("human", "Ada"), ("bot:easy", "Robin")], seed=3)
    while wait_settled(page) != "over":
        step(page)
    expect(page.get_by_test_id("score-pad").locator("tr.total th")).to_have_text(t("Total"))
    expect(page.get_by_test_id("rematch")).to_have_text(t("Rematch"))
    expect(page.get_by_test_id("review").locator("h2")).to_have_text(t("Review of the game"))
    no_overflow(page, "end")
    picture(page, f"laptop-end-{lang}")
    context.close()


@pytest.mark.parametrize("lang", list(LOCALES))
def test_the_solo_companion_in_each_language(browser: Browser, server: str, lang: str,
                                             page_errors: PageErrors) -> None:
    """The solo companion at phone size in each language (docs/pad.md): the start, a setup
    step naming a species as printed in that edition, Anna's turn and the end in the
    catalog's words, ``<html lang>`` and the switch set, nothing wider than the phone."""
    context = browser.new_context(viewport=SIZES["phone"], locale=LOCALES[lang],
                                  device_scale_factor=1, is_mobile=True, has_touch=True)
    page = page_errors.watch(context.new_page())
    page.set_default_timeout(20_000)
    t = catalog(lang)
    page.goto(server + "/companion")
    expect(page.get_by_test_id("co-start")).to_have_text(t("Start the game"))
    expect(page.locator("html")).to_have_attribute("lang", HTML_LANG[lang])
    expect(page.get_by_test_id("lang-switch")).to_have_value(lang)
    expect(page.locator(".co-brand")).to_have_text(t("Solo companion"))
    page.get_by_test_id("co-medal").select_option("gold")
    expect(page.get_by_test_id("co-medal")).to_contain_text(t("medal\u0004gold").split("\u0004")[-1])
    page.get_by_test_id("co-challenge").select_option("7")
    no_overflow(page, "companion start")
    picture(page, f"phone-companion-start-{lang}")
    page.get_by_test_id("co-start").click()
    adder = solo_game(7).catalog.lookup("Adder")
    assert adder is not None
    for s in setup_steps(7):
        expect(page.get_by_test_id("co-say")).to_have_attribute("data-kind", s.kind)
        if s.kind == "start_card":
            expect(page.get_by_test_id("co-say")).to_contain_text(printed_name(adder, lang))
            no_overflow(page, "companion setup")
            picture(page, f"phone-companion-setup-{lang}")
        next_step(page)
    expect(page.get_by_test_id("co-next")).to_have_text(t("My turn is done"))
    next_step(page)
    expect(page.get_by_test_id("co-card")).to_be_visible()
    expect(page.get_by_test_id("co-next")).to_have_text(t("Done"))
    no_overflow(page, "Anna's turn")
    picture(page, f"phone-companion-anna-{lang}")
    while page.get_by_test_id("co-winter").count() == 0:
        next_step(page)
    page.get_by_test_id("co-winter").click()
    expect(page.get_by_test_id("co-winter-sure")).to_have_text(
        t("Yes: the winter card came up, the game ends"))
    page.get_by_test_id("co-winter-sure").click()
    expect(page.get_by_test_id("co-enter-first")).to_have_text(
        t("Enter your forest in the score pad, then come back here: the score, the goal and "
          "the medal show here."))
    no_overflow(page, "companion end")
    picture(page, f"phone-companion-end-{lang}")
    context.close()


def next_step(page: Page) -> None:
    """Tap the companion's button and wait for the server's next step."""
    before = page.get_by_test_id("co-say").get_attribute("data-kind"), page.get_by_test_id(
        "co-heading").text_content()
    page.get_by_test_id("co-next").click()
    page.wait_for_function(
        "([k, t]) => { const s = document.querySelector('[data-testid=co-say]');"
        " const h = document.querySelector('[data-testid=co-heading]');"
        " return !s || !h || s.dataset.kind !== k || h.textContent !== t; }", arg=list(before))


def test_a_card_text_tags_and_badge_in_french_at_phone_size(
        browser: Browser, server: str, page_errors: PageErrors) -> None:
    """The hand's tiles in French at phone size (the ``cards`` domain through
    ``GET /api/cards?lang=fr``): a card's points phrase, its tags and its tree-symbol
    badge are the server's French words, none of the English ones; nothing overflows."""
    context = browser.new_context(viewport=SIZES["phone"], locale=LOCALES["fr"],
                                  device_scale_factor=1, is_mobile=True, has_touch=True)
    page = page_errors.watch(context.new_page())
    page.set_default_timeout(15_000)
    create_game(page, server, [("human", "Ada"), ("bot:easy", "Robin")], seed=2)
    assert wait_settled(page) == "your-turn"
    french = httpx.get(f"{server}/api/cards?game=base&lang=fr", timeout=10).json()
    english = httpx.get(f"{server}/api/cards?game=base", timeout=10).json()
    tile = page.locator("[data-testid=hand] .tile[data-ui=hand-card]").first
    card = french["cards"][str(tile.get_attribute("data-card"))]
    key = next(iter(card["halves"].values()))
    points = tile.locator(".half-points").first
    said = french["species"][key]["points_short"]
    expect(points).to_have_text(said if len(said) <= 70 else said[:67] + "…")
    if said != "0":
        assert said != english["species"][key]["points_short"]
    symbol = (card["symbols"].get("tree") or next(iter(card["symbols"].values())))
    expect(tile.locator(".half-foot .symbol").first).to_have_text(french["symbols"][symbol])
    tags = [w for t, w in french["species"][key]["tag_words"].items()
            if t not in ("tree", "shrub", "alps", "woodland edge")]
    if tags:
        assert any(w in tile.inner_text() for w in tags), tile.inner_text()
    no_overflow(page, "phone table in French")
    picture(page, "phone-card-texts-fr")
    context.close()
