"""The games of the family in real headless Chromium: the lobby's game select, the title in
the header, shrubs drawn as hosts, the Alpine trees' colours and the new decisions (saplings,
a take from the clearing, clearing cards to the cave) played by clicking.

The hot-seat games are seeded and every seat is clicked by the test, so each deal and each
decision is known in advance (the sequences were found with the engine)."""

from __future__ import annotations

import re

import httpx
from playwright.sync_api import Page, expect

from .play import (
    act,
    click_action,
    click_play,
    create_game,
    ready,
    status,
    step,
    version,
    wait_settled,
)

ALL = "base+alpine+woodland_edge"
TITLE = "Forest Shuffle + Alpine + Woodland Edge"
HOT_SEAT = [("human", "Ada"), ("human", "Bea")]
#: Enough decisions for any game of one person against one bot.
MAX_STEPS = 1500


def _payload(page: Page) -> dict:  # type: ignore[type-arg]
    return dict(page.evaluate("window.forestShuffle.payload"))


def test_the_lobby_offers_every_game_the_default_first(desktop: Page, server: str) -> None:
    offered = httpx.get(server + "/api/games-offered").json()
    page = desktop
    page.goto(server + "/")
    select = page.locator("[data-testid=game-select]")
    expect(select).to_be_visible()
    options = select.locator("option")
    expect(options).to_have_count(len(offered))
    assert options.evaluate_all("os => os.map(o => o.value)") == [g["id"] for g in offered]
    assert options.all_inner_texts() == [g["title"] for g in offered]
    assert select.input_value() == offered[0]["id"] == "base"
    page.select_option("[data-testid=game-select]", ALL)
    expect(page.locator("h1")).to_have_text(f"A new game of {TITLE}")
    # the words of the chosen game, never another's: no expansions' text for Dartmoor
    words = {g["id"]: g["words"] for g in offered}
    expect(page.locator("[data-testid=game-words]")).to_have_text(words[ALL])
    page.select_option("[data-testid=game-select]", "dartmoor")
    expect(page.locator("[data-testid=game-words]")).to_have_text(words["dartmoor"])
    hints = " ".join(page.locator("section.lobby p.hint").all_inner_texts())
    assert "Alpine" not in hints and "Woodland Edge" not in hints
    # the lobby names no game in the header; a game page does
    expect(page.locator("[data-testid=game-title]")).to_be_hidden()


def test_the_lobby_offers_the_server_s_bot_levels(desktop: Page, server: str) -> None:
    levels = httpx.get(server + "/api/levels").json()
    assert "expert" in [lv["level"] for lv in levels]
    page = desktop
    page.goto(server + "/")
    page.select_option("[data-testid=seat-kind-1]", "bot")
    options = page.locator("[data-testid=seat-level-1] option")
    expect(options).to_have_count(len(levels))
    assert options.evaluate_all("os => os.map(o => o.value)") == [lv["level"] for lv in levels]
    assert options.all_inner_texts() == [lv["words"] for lv in levels]


def test_the_base_game_names_itself_once(desktop: Page, server: str) -> None:
    page = desktop
    create_game(page, server, [("human", "Ada"), ("bot:easy", "Robin")], seed=2)
    wait_settled(page)
    assert _payload(page)["game"] == "base"
    title = page.locator("[data-testid=game-title]")
    expect(title).to_have_text("Forest Shuffle")
    expect(title).to_be_hidden()  # the brand beside it says it already
    assert page.title() in ("Forest Shuffle", "● Your turn — Forest Shuffle",
                            "● Your decision — Forest Shuffle")
    # the cards drawn are the base game's
    assert not page.locator(".shrub-card, .tag-chip").count()


def test_a_shrub_is_drawn_as_a_host_and_the_saplings_of_a_water_vole(desktop: Page,
                                                                      server: str) -> None:
    page = desktop
    create_game(page, server, HOT_SEAT, seed=5, hotseat=True, game=ALL)
    expect(page).to_have_url(re.compile(r"/game/\w+"))
    ready(page)
    expect(page.locator("[data-testid=game-title]")).to_have_text(TITLE)
    p = _payload(page)
    assert p["game"] == ALL and p["game_title"] == TITLE
    hand = page.locator("[data-testid=hand]")
    # the Alpine tree in hand: its own colour and the Alps symbol
    larch = hand.locator(".tile[data-card='166']")
    expect(larch.locator(".half.sym-european-larch")).to_have_count(1)
    expect(larch.locator(".tag-chip.tag-alps")).to_have_text("Alps")
    colour = larch.locator(".half").evaluate("e => getComputedStyle(e).borderLeftColor")
    assert colour not in ("rgb(153, 153, 153)", "rgb(187, 187, 187)"), colour  # not the fallback
    # the shrub in hand: labelled a shrub, in the colour of the tree symbol printed on it
    elder = hand.locator(".tile[data-card='199']")
    expect(elder).to_have_class(re.compile(r"\bshrub-card\b"))
    expect(elder.locator(".where")).to_have_text("shrub")
    expect(elder.locator(".half.sym-sycamore")).to_have_count(1)
    expect(elder.locator(".tag-chip.tag-woodland-edge")).to_have_count(1)
    # play it by clicking: the card, its new place, then the two cards that pay for it
    elder.click()
    plant = page.locator("[data-testid=selection] [data-action='play 199']")
    expect(plant).to_contain_text("as a new shrub")
    expect(page.locator("[data-testid=my-forest] .new-tree")).to_contain_text("a shrub")
    click_play(page, "[data-testid=my-forest] .new-tree[data-action='play 199']")
    assert page.evaluate("document.body.dataset.decision") == "pay"  # kept in the page
    expect(page.locator("[data-testid=prompt]")).to_contain_text("Ada: pay for Elderberry")
    act(page, "pay 150")
    act(page, "pay 158")
    forest = page.locator("[data-testid=my-forest]")
    shrub = forest.locator(".tree[data-host=shrub]")
    expect(shrub).to_have_count(1)
    expect(shrub.locator(".trunk.shrub.sym-sycamore .host-label")).to_have_text("shrub")
    expect(shrub.locator(".tname")).to_have_text("Elderberry")
    expect(forest.locator(".forest-head .facts")).to_contain_text("0 trees · 1 shrub")
    expect(page.locator(".players")).to_contain_text("1 shrub")
    # Bea draws twice, Ada draws twice, Bea again
    for _ in range(3):
        act(page, "draw")
        act(page, "draw")
    # Ada puts a Water Vole below her shrub, pays, uses its effect: free saplings
    ready(page)
    expect(page.locator("[data-testid=prompt]")).to_contain_text("Ada")
    act(page, "play 219 bottom 1")
    act(page, "pay 129")
    act(page, "pay 166")
    assert _payload(page)["decision"] == "option"
    act(page, "yes")
    p = _payload(page)
    assert p["decision"] == "saplings"
    assert p["prompt"] and len(p["legal"]) == len(p["legal_words"])
    assert set(p["legal"]) == {f"sapling {c}" for c in p["view"]["hand"]} | {"done"}
    sapling = hand.locator(".tile[data-action='sapling 193']")
    expect(sapling).to_have_class(re.compile(r"\bcan\b"))
    expect(sapling).to_have_attribute("aria-label", re.compile("sapling"))
    expect(page.locator("[data-testid=prompt] [data-action=done]")).to_be_visible()
    act(page, "sapling 193")
    expect(forest.locator(".tree[data-host=sapling]")).to_have_count(1)
    expect(shrub.locator(".slot-bottom")).to_contain_text("Water Vole")
    act(page, "done")
    assert "saplings" not in str(page.evaluate("document.body.dataset.decision"))


def test_clearing_cards_go_to_the_cave_by_clicking(desktop: Page, server: str) -> None:
    page = desktop
    create_game(page, server, HOT_SEAT, seed=20, hotseat=True, game=ALL)
    ready(page)
    # a hand with a shrub but no tree may be taken back (a shrub is no tree)
    assert _payload(page)["decision"] == "mulligan"
    act(page, "keep")
    act(page, "play 209")
    act(page, "pay 136")
    act(page, "pay 151")
    expect(page.locator("[data-testid=my-forest] .tree[data-host=shrub]")).to_have_count(1)
    act(page, "draw")
    act(page, "draw")
    # a Bearded Vulture atop the shrub: 2 cards of the clearing of her choice to her cave
    act(page, "play 194 top 1")
    act(page, "pay 124")
    act(page, "yes")
    p = _payload(page)
    # the engine takes them in ascending order; the page offers every card, in any order
    assert p["decision"] == "clearing cave" and p["legal"] == ["cave 124", "cave 136"]
    assert p["picks"]["cards"] == [124, 136, 151] and p["picks"]["most"] == 2
    clearing = page.locator("[data-testid=clearing]")
    expect(clearing.locator(".tile.can")).to_have_count(3)
    expect(clearing.locator(".tile[data-pick='124'] .badge")).to_contain_text("cave")
    # the cards of the clearing are picked there, confirmed in the prompt
    expect(page.locator("[data-testid=prompt] .prompt-buttons button")).to_have_count(0)
    start = version(page)
    confirm = page.locator("[data-testid=confirm-picks]")
    page.click("[data-pick='151']")  # the highest first: 124 and 136 stay offered
    expect(clearing.locator(".tile.can")).to_have_count(3)
    expect(confirm).to_be_disabled()
    page.click("[data-pick='124']")
    expect(confirm).to_be_enabled()
    expect(confirm).to_contain_text("2 cards")
    page.click("[data-pick='151']")  # taken back
    expect(page.locator("[data-testid=picked-count]")).to_have_text("1/2 picked")
    page.click("[data-pick='136']")
    page.click("[data-pick='136']")
    page.click("[data-pick='151']")
    assert version(page) == start  # nothing sent before Confirm
    click_action(page, "[data-testid=confirm-picks]")
    p = _payload(page)
    assert p["view"]["cave_sizes"] == [2, 0] and p["view"]["clearing"] == [136]
    ready(page)  # Bea's turn: Ada's forest shows her cave
    expect(page.locator("[data-testid=forest-0] .forest-head .facts")).to_contain_text("cave 2")


def test_an_effect_takes_a_card_of_the_clearing(desktop: Page, server: str) -> None:
    page = desktop
    create_game(page, server, HOT_SEAT, seed=19, hotseat=True, game=ALL)
    for text in ("play 12", "pay 94", "pay 185", "draw", "draw", "play 216 top 1", "pay 82",
                 "yes"):
        act(page, text)
    p = _payload(page)
    assert p["decision"] == "take"
    takes = [a for a in p["legal"] if a.startswith("take ")]
    assert takes and set(takes) == set(p["legal"])
    lit = page.locator("[data-testid=clearing] .tile.can")
    expect(lit).to_have_count(len(takes))
    card = int(takes[0].split()[1])
    act(page, takes[0])
    p = _payload(page)
    assert card in p["view"]["hand"] and card not in p["view"]["clearing"]


def test_a_game_of_woodland_edge_against_a_bot_to_the_end(desktop: Page, server: str) -> None:
    page = desktop
    create_game(page, server, [("human", "Ada"), ("bot:easy", "Robin")], seed=8,
                game="base+woodland_edge")
    wait_settled(page)
    expect(page.locator("[data-testid=game-title]")).to_have_text(
        "Forest Shuffle + Woodland Edge")
    assert page.title().endswith("Forest Shuffle + Woodland Edge")
    done: dict[str, int] = {}
    for _ in range(MAX_STEPS):
        if wait_settled(page) == "over":
            break
        what = f"{page.evaluate('document.body.dataset.decision')}:{step(page)}"
        done[what] = done.get(what, 0) + 1
    assert status(page) == "over", f"not over after {MAX_STEPS} decisions: {done}"
    assert done.get("turn:play", 0) > 5 and done.get("pay:pay", 0) > 0, done
    pad = page.locator("[data-testid=score-pad]")
    expect(pad).to_contain_text("Total")
    totals = pad.locator("tr.total td").all_inner_texts()
    assert [int(t) for t in totals] == [s["total"] for s in _payload(page)["scores"]]
    expect(page.locator("[data-testid=log]")).to_contain_text("Robin")
    expect(page.locator("[data-testid=game-title]")).to_have_text(
        "Forest Shuffle + Woodland Edge")
