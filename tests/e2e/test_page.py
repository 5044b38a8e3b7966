"""The page in real headless Chromium against the real server: a whole game against a bot by
clicking, hot-seat hand-overs, wrong clicks, and the phone width."""

from __future__ import annotations

import re

import httpx
from playwright.sync_api import Browser, Page, expect

from .play import create_game, status, step, wait_settled

#: Enough decisions for any game of one person against one bot (a game has about 350).
MAX_STEPS = 1500


def test_a_game_against_an_easy_bot_to_the_end(desktop: Page, server: str) -> None:
    page = desktop
    create_game(page, server, [("human", "Ada"), ("bot:easy", "Robin")], seed=11)
    expect(page).to_have_url(re.compile(r"/game/\w+\?token="))
    wait_settled(page)
    expect(page.locator("[data-testid=hand] .tile")).to_have_count(6)
    expect(page.locator("[data-testid=deck]")).to_be_visible()
    done: dict[str, int] = {}
    for _ in range(MAX_STEPS):
        if wait_settled(page) == "over":
            break
        what = step(page)
        done[what] = done.get(what, 0) + 1
    assert status(page) == "over", f"not over after {MAX_STEPS} decisions: {done}"
    assert done.get("play", 0) > 5 and done.get("pay", 0) > 0, done
    pad = page.locator("[data-testid=score-pad]")
    expect(pad).to_be_visible()
    for word in ("Trees", "Top / bottom", "Left / right", "Cave", "Total"):
        expect(pad).to_contain_text(word)
    expect(pad.locator("thead th")).to_have_text(["", re.compile("Ada"), re.compile("Robin")])
    totals = pad.locator("tr.total td").all_inner_texts()
    payload = page.evaluate("window.forestShuffle.payload")
    assert [int(t) for t in totals] == [s["total"] for s in payload["scores"]]
    # every card's points with the reason
    expect(page.locator(".card-points").first).to_contain_text("points, card by card")
    assert page.locator(".card-points td.why").count() > 3
    expect(page.locator("[data-testid=log]")).to_contain_text("Robin")
    # a rematch: a new game with the same seats
    old = page.url
    page.click("[data-testid=rematch]")
    page.wait_for_url(lambda url: url != old and "/game/" in url)
    wait_settled(page, timeout=30_000)  # a new page, and the bot starts the rematch
    expect(page.locator("[data-testid=hand] .tile")).to_have_count(6)
    expect(page.locator(".players")).to_contain_text("Robin")


def _hand(page: Page) -> list[str]:
    return sorted(page.locator("[data-testid=hand] .tile").evaluate_all(
        "tiles => tiles.map(t => t.dataset.card)"))


def test_hot_seat_hands_over_between_people(desktop: Page, server: str) -> None:
    page = desktop
    create_game(page, server, [("human", "Ada"), ("human", "Bea")], seed=5, hotseat=True)
    assert wait_settled(page) == "handover"
    cover = page.locator("[data-testid=handover]")
    expect(cover).to_be_visible()
    expect(cover).to_contain_text("Ada")
    expect(page.locator("#root")).to_be_hidden()  # nothing of the table shows through
    hands: dict[str, list[str]] = {}
    for turn in range(6):
        who = "Ada" if turn % 2 == 0 else "Bea"
        assert wait_settled(page) == "handover", turn
        expect(cover).to_contain_text(who)
        expect(page.locator("[data-testid=hand]")).to_have_count(0)
        page.click("[data-testid=handover-ready]")
        assert wait_settled(page) == "your-turn"
        expect(cover).to_be_hidden()
        expect(page.locator("[data-testid=hand] h2")).to_contain_text(f"{who}'s hand")
        expect(page.locator("[data-testid=prompt]")).to_contain_text(who)
        hands[who] = _hand(page)
        # one whole turn of this person (a draw of two cards, or a play with its payment)
        me = page.evaluate("window.forestShuffle.payload.you")
        for _ in range(40):
            if wait_settled(page) != "your-turn":
                break
            if page.evaluate("window.forestShuffle.payload.you") != me:
                break
            step(page, prefer_play=turn % 4 == 1)
    assert set(hands["Ada"]).isdisjoint(hands["Bea"])
    log = page.locator("[data-testid=log]")
    expect(log).to_contain_text("Ada")
    expect(log).to_contain_text("Bea")


def test_wrong_clicks_get_a_message(desktop: Page, server: str) -> None:
    page = desktop
    r = httpx.post(f"{server}/api/games", json={
        "seats": [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bea"}],
        "seed": 3})
    assert r.status_code == 200, r.text
    game = r.json()
    first = httpx.get(f"{server}/api/games/{game['game_id']}").json()["to_move"]
    waiting = next(s for s in game["seats"] if s["seat"] != first)
    banner = page.locator("[data-testid=banner]")
    # not your turn: clicking a hand card or the deck says whose turn it is
    page.goto(server + waiting["link"])
    assert wait_settled(page, ("waiting",)) == "waiting"
    page.locator("[data-testid=hand] .tile").first.click()
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("not your turn")
    expect(banner).to_contain_text("Ada" if first == 0 else "Bea")
    page.click("[data-testid=deck]")
    expect(banner).to_contain_text("not your turn")
    # a refusal of the server is one line in the banner
    mover = next(s for s in game["seats"] if s["seat"] == first)
    page.goto(server + mover["link"])
    wait_settled(page)
    page.evaluate("window.forestShuffle.send('play 999')")
    expect(banner).to_contain_text("Refused")
    assert banner.inner_text().count("\n") == 0
    # the wrong place for a picked card, or a place before any card is picked
    page.locator("[data-testid=hand] .tile.can").first.click()
    expect(page.locator("[data-testid=selection]")).to_be_visible()
    page.click("[data-ui=cancel]")
    expect(page.locator("[data-testid=selection]")).to_have_count(0)
    # a spectator may look but not play (?watch: this browser holds seats of the game)
    page.goto(f"{server}/game/{game['game_id']}?watch")
    assert wait_settled(page, ("watching",)) == "watching"
    expect(page.locator("[data-testid=hand]")).to_have_count(0)
    page.click("[data-testid=deck]")
    expect(banner).to_contain_text("watching")


def test_phone_width_plays_without_sideways_scrolling(phone: Page, server: str) -> None:
    page = phone
    create_game(page, server, [("human", "Ada"), ("bot:medium", "Robin")], seed=21)
    wait_settled(page)
    for _ in range(30):
        if wait_settled(page) == "over":
            break
        step(page, prefer_play=True)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"the page is {width}px wide at a 390px screen"
    wait_settled(page)
    page.locator("[data-info]").first.tap()
    expect(page.locator("[data-testid=detail]")).to_be_visible()
    expect(page.locator("[data-testid=detail]")).to_contain_text("cost")


def test_an_invite_link_is_claimed_once_and_the_creator_reissues_it(
        browser: Browser, desktop: Page, server: str) -> None:
    page = desktop
    create_game(page, server, [("human", "Ada"), ("human", "Bea")], seed=3)
    expect(page.locator(".invite input")).to_have_count(2)  # drawn once the game is there
    urls = page.locator(".invite input").evaluate_all("inputs => inputs.map(i => i.value)")
    ada, bea = urls
    # Bea claims her seat in her own browser
    other = browser.new_context()
    bea_page = other.new_page()
    bea_page.goto(bea)
    assert wait_settled(bea_page, ("your-turn", "waiting")) in ("your-turn", "waiting")
    expect(bea_page.locator(".players li.you")).to_contain_text("Bea")
    bea_url = bea_page.url
    # the same link again (the creator keeping it, or anyone who saw it): used
    third = browser.new_context()
    spy = third.new_page()
    spy.goto(bea)
    expect(spy.locator("[data-testid=invite-used]")).to_contain_text("used already")
    # Ada sees Bea joined, and gives her seat a new link: Bea's old token stops working
    page.goto(ada)
    wait_settled(page, ("your-turn", "waiting"))
    expect(page.locator(".players li[data-seat='1']")).not_to_contain_text("not joined")
    page.click("[data-testid=reissue-1]")
    fresh = page.locator("[data-testid=new-link] input").input_value()
    assert "?invite=" in fresh and fresh != bea
    expect(page.locator(".players li[data-seat='1']")).to_contain_text("not joined yet")
    spy.goto(bea_url)  # the revoked token: only watches
    expect(spy.locator("[data-testid=bad-token]")).to_be_visible()
    spy.goto(fresh)
    assert wait_settled(spy, ("your-turn", "waiting")) in ("your-turn", "waiting")
    expect(spy.locator(".players li.you")).to_contain_text("Bea")
    other.close()
    third.close()


def test_invite_links_for_people_at_their_own_screens(desktop: Page, server: str) -> None:
    page = desktop
    create_game(page, server, [("human", "Ada"), ("human", "Bea"), ("bot:easy", "Robin")])
    links = page.locator(".invite input")
    expect(links).to_have_count(2)
    expect(page.locator(".invite.bot")).to_contain_text("Robin")
    urls = links.evaluate_all("inputs => inputs.map(i => i.value)")
    # the creator's own seat, and Bea's link that claims her seat once
    assert re.search(r"/game/\w+\?token=[\w-]+$", urls[0]), urls
    assert re.search(r"/game/\w+\?invite=[\w-]+$", urls[1]), urls
    page.click("[data-testid=copy-0]")
    expect(page.locator("[data-testid=banner]")).to_be_visible()
    page.click("[data-testid=open-1]")
    assert wait_settled(page, ("your-turn", "waiting")) in ("your-turn", "waiting")
    expect(page.locator(".players li.you")).to_contain_text("Bea")
    assert "?token=" in page.url  # the claim gave Bea her token
