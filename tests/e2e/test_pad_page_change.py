"""The score pad's page at phone size: a card and a host changed in place (the API's
``change``: the place and the host's cards stay), and the history's plot of points by
species (the server's sums, never counted by the page)."""

from __future__ import annotations

import os
from pathlib import Path

import httpx
from playwright.sync_api import Page, expect

from .shots import shot

#: With FOREST_SHUFFLE_SCREENSHOTS naming a folder, the pictures of docs/pad.md are taken.
SHOTS = os.environ.get("FOREST_SHUFFLE_SCREENSHOTS")


def _pick(page: Page, name: str) -> None:
    page.get_by_test_id("pad-search").fill(name)
    page.locator(f".pad-options [data-species=\"{name}\"]").click()
    asked = page.get_by_test_id("pad-symbol")
    if asked.count():
        asked.get_by_role("button", name="Don't know", exact=True).click()
    expect(page.get_by_test_id("pad-picker")).to_have_count(0)


def _open(page: Page, server: str, forest: dict[str, object]) -> tuple[str, str]:
    """A table opened from a Forest JSON document, on this phone as its host."""
    made = httpx.post(f"{server}/api/pad/import", json={"game": "base", "players": [
        {"name": "Ann", **forest}]}).json()
    page.goto(f"{server}/pad")
    page.evaluate("([tid, keys]) => localStorage.setItem(`pad:${tid}`, JSON.stringify(keys))",
                  [made["id"], {"seat": 0, "token": made["seats"][0]["token"],
                                "host": made["host"], "join": made["join"]}])
    page.goto(f"{server}/pad/{made['id']}")
    return made["id"], made["host"]


def test_a_card_and_a_host_are_changed_in_place(server: str, phone: Page) -> None:
    tid, _host = _open(phone, server, {"trees": [
        {"tree": "Oak", "top": ["Red Squirrel"], "bottom": ["Chanterelle"]}]})
    phone.locator("[data-testid=pad-host-trees-0] .pad-card", has_text="Red Squirrel").click()
    phone.get_by_test_id("pad-change").click()
    if SHOTS:
        phone.get_by_test_id("pad-search").fill("Ja")
        shot(phone, Path(SHOTS) / "phone-pad-change.png")
    _pick(phone, "Eurasian Jay")
    expect(phone.locator("[data-testid=pad-host-trees-0] .pad-card", has_text="Eurasian Jay")
           ).to_have_count(1)
    phone.locator("[data-testid=pad-host-trees-0] .pad-host-name").click()
    phone.get_by_test_id("pad-change").click()
    _pick(phone, "Beech")
    expect(phone.locator("[data-testid=pad-host-trees-0] .pad-host-name")).to_contain_text(
        "Beech")
    forest = httpx.get(f"{server}/api/pad/tables/{tid}").json()["players"][0]["forest"]
    assert forest["trees"] == [{"tree": "Beech", "top": ["Eurasian Jay"],
                                "bottom": ["Chanterelle"]}]


def test_the_history_plots_points_by_species(server: str, phone: Page) -> None:
    name = "Plotta"
    made = httpx.post(f"{server}/api/pad/import", json={"game": "base", "players": [
        {"name": name, "cave": 4, "trees": [
            {"tree": "Oak", "top": ["Red Squirrel"], "left": ["European Hare", "European Hare"],
             "right": ["Wolf"]},
            {"tree": "Beech", "top": ["Eurasian Jay"]},
            {"tree": "Linden", "bottom": ["Chanterelle"]}]}]}).json()
    httpx.post(f"{server}/api/pad/tables/{made['id']}/close",
               headers={"X-Pad-Token": made["host"]})
    stats = httpx.get(f"{server}/api/pad/stats", params={"name": name}).json()[0]
    scoring = sorted(sp for sp, pts in stats["species"].items() if pts)
    phone.goto(f"{server}/pad")
    plot = phone.locator(f"svg[data-plot=species][aria-label^=\"{name}:\"]")
    expect(plot).to_have_count(1)
    expect(plot.locator("rect")).to_have_count(min(12, len(scoring)))
    shown = sorted(t for t in plot.locator("text").all_text_contents()
                   if not t.replace(".", "").isdigit())
    assert shown == scoring
    if SHOTS:
        phone.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        shot(phone, Path(SHOTS) / "phone-pad-species.png")
