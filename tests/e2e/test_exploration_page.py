"""Exploration's cave draft on the game's page, in real headless Chromium at laptop size:
the offered caves by name with their rules and provisional notes, a cave drafted by
clicking its name, then shown by name at the player's forest (and no discard pile, which
only Dartmoor has); the O Christmas Tree's winter reprieve: where to click, and Yes and No
buttons that say what each does."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from .conftest import LAPTOP, PageErrors
from .play import click_action, create_game, wait_settled

GAME = "base+exploration"


@pytest.fixture
def laptop(browser: Browser, page_errors: PageErrors) -> Iterator[Page]:
    context = browser.new_context(viewport=LAPTOP, device_scale_factor=1)
    page = page_errors.watch(context.new_page())
    page.set_default_timeout(15_000)
    yield page
    context.close()


def test_a_cave_drafted_by_its_name_shows_at_the_forest(laptop: Page, server: str,
                                                        tmp_path: Path) -> None:
    page = laptop
    create_game(page, server, [("human", "Ada"), ("bot:easy", "Robin")], seed=4, game=GAME)
    wait_settled(page, ("your-turn",))
    assert page.evaluate("document.body.dataset.decision") == "cave draft"
    caves = page.evaluate("window.forestShuffle.cat.caves")
    offer = page.locator("[data-testid=cave-offer]")
    expect(offer).to_be_visible()
    offered = page.evaluate("window.forestShuffle.payload.view.cave_offer")
    for cave in caves:
        if cave["number"] not in offered:
            continue
        tile = offer.locator(f".cave-tile[data-cave='{cave['number']}']")
        expect(tile.locator("b")).to_have_text(cave["name"])  # its name, not "Cave 2"
        expect(tile).to_contain_text(cave["text"])
        if cave["provisional"]:  # the note, and what is provisional in the tile's title
            expect(tile.locator(".prov")).to_be_visible()
            assert cave["provisional"] in (tile.get_attribute("title") or "")
        else:
            expect(tile.locator(".prov")).to_have_count(0)
    page.screenshot(path=str(tmp_path / "draft.png"))
    chosen = next(c for c in caves if c["number"] == offered[-1])  # the bot drafted first
    number = chosen["number"]
    click_action(page, f".cave-tile.can:has-text(\"{chosen['name']}\")")
    wait_settled(page, ("your-turn",))
    assert page.evaluate("window.forestShuffle.payload.view.cave_numbers")[0] == number
    expect(page.locator("[data-testid=discard]")).to_have_count(0)  # Exploration has none
    chip = page.locator("[data-testid=my-forest] [data-testid=cave-0]")
    expect(chip.locator("b")).to_have_text(chosen["name"])
    expect(chip).to_contain_text(chosen["text"])
    if chosen["provisional"]:
        expect(chip.locator(".prov")).to_be_visible()
    page.screenshot(path=str(tmp_path / "forest.png"))


RECORD = Path(__file__).parent.parent / "data" / "records" / "base_exploration-2p-651.json"


def test_the_winter_reprieve_has_a_hint_and_buttons_that_say_what_they_do(
        laptop: Page, server: str, tmp_path: Path) -> None:
    record = json.loads(RECORD.read_text())
    game = httpx.post(server + "/api/games", json={
        "seats": [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bob"}],
        "seed": record["seed"], "game": GAME}).json()
    gid = game["game_id"]
    tokens = [s["token"] or httpx.post(f"{server}/api/games/{gid}/claim",
                                       json={"invite": s["invite"]}).json()["token"]
              for s in game["seats"]]
    seat = 0
    for action in record["actions"]:  # over the API, up to the reprieve the record answered
        p = httpx.get(f"{server}/api/games/{gid}", headers={"X-Seat-Token": tokens[0]},
                      timeout=20).json()
        if p["decision"] == "winter reprieve":
            seat = p["to_move"]
            break
        r = httpx.post(f"{server}/api/games/{gid}/actions",
                       headers={"X-Seat-Token": tokens[p["to_move"]]},
                       json={"action": action, "version": p["version"]}, timeout=20)
        assert r.status_code == 200, r.text
    else:
        raise AssertionError("the record asks no winter reprieve")
    page = laptop
    page.goto(server + game["seats"][seat]["link"])
    wait_settled(page, ("your-turn",))
    prompt = page.locator("[data-testid=prompt]")
    expect(prompt.locator(".sub")).to_have_text(
        "Yes puts the third winter card back into the deck and the game goes on; "
        "No ends the game now.")
    yes, no = prompt.locator("[data-action=yes]"), prompt.locator("[data-action=no]")
    expect(yes).to_contain_text("Yes: shuffle the winter card back into the deck")
    expect(no).to_have_text("No: the game ends")
    page.screenshot(path=str(tmp_path / "reprieve.png"))
    click_action(page, "[data-testid=prompt] [data-action=yes]")
    assert page.evaluate("window.forestShuffle.payload.decision") != "winter reprieve"
