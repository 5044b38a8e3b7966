"""Dartmoor solo in real Chromium: the lobby's challenges (the server's words and medal
thresholds), a 1-seat game created from it, the challenge and Anna's status on the page,
moves by clicks until Anna has played, her turn in the panel and in the log."""

from __future__ import annotations

import httpx
from playwright.sync_api import Page, expect

from .play import act, legal, pick_and_confirm, wait_settled

MAX_MOVES = 40
MAX_ACTIONS = 600


def test_lobby_to_a_solo_game_and_annas_turn(desktop: Page, server: str) -> None:
    page = desktop
    doc = httpx.get(server + "/api/solo").json()
    ch = doc["challenges"][2]  # challenge 3
    page.goto(server + "/")
    page.wait_for_selector("[data-testid=solo-lobby]")
    options = page.locator("[data-testid=solo-challenge] option")
    assert options.count() == 15
    assert options.nth(2).inner_text() == f"3. {ch['title']}"
    page.select_option("[data-testid=solo-challenge]", "3")
    lobby = page.locator("[data-testid=solo-lobby]")
    expect(lobby.locator("[data-testid=solo-goal]")).to_have_text(ch["words"])
    marks = lobby.locator("[data-testid=solo-thresholds] li")
    assert [(m.get_attribute("data-medal"), int(m.get_attribute("data-points") or -1))
            for m in marks.all()] == list(ch["thresholds"].items())
    page.select_option("[data-testid=solo-medal]", "gold")
    page.fill("[data-testid=solo-name]", "Ada")
    page.click("[data-testid=create-solo]")
    page.wait_for_url("**/game/**")
    wait_settled(page)

    p = page.evaluate("window.forestShuffle.payload")
    assert p["game"] == "dartmoor-solo-3" and len(p["seats"]) == 1
    assert p["seats"][0]["name"] == "Ada" and p["seats"][0]["kind"] == "human"
    panel = page.locator("[data-testid=solo]")
    expect(panel.locator("[data-testid=solo-goal]")).to_have_text(p["solo"]["words"])
    assert "you play for gold" in p["solo"]["words"]
    expect(panel.locator("[data-testid=anna-status]")).to_have_text(
        "Anna has 20 automa cards left.")
    expect(panel.locator("[data-testid=solo-progress]")).to_have_text(
        p["solo"]["progress"]["words"])
    assert panel.locator("[data-medal=gold].chosen").count() == 1

    for _ in range(MAX_MOVES):  # moves by clicks (a draw when there is one) until Anna plays
        p = page.evaluate("window.forestShuffle.payload")
        if p["solo"]["anna_turns"] or p["over"]:
            break
        moves = legal(page)
        if p.get("picks") and p["picks"]["kind"] != "pay" and "draw" not in moves:
            pick_and_confirm(page)  # a choice of several cards: picked, then confirmed once
        else:
            act(page, "draw" if "draw" in moves else moves[0])
        wait_settled(page)
    p = page.evaluate("window.forestShuffle.payload")
    assert p["solo"]["anna_turns"] == 1, p["solo"]
    last = p["solo"]["last"]
    assert last.startswith("Anna ")
    expect(panel.locator("[data-testid=anna-last]")).to_have_text(last)
    expect(panel.locator("[data-testid=anna-status]")).to_have_text(
        "Anna has 19 automa cards left.")
    lines = page.locator("[data-testid=log] li").all_text_contents()
    assert last in lines  # Anna's turn has a line of its own in the log


def test_the_end_of_a_solo_game_says_the_result(desktop: Page, server: str) -> None:
    """A game driven to its end over the API (legal actions), then its page: the result in
    the server's words, the medals, and no winner's headline."""
    page = desktop
    with httpx.Client(base_url=server) as c:
        created = c.post("/api/solo", json={"challenge": 14, "medal": "bronze",
                                            "seed": 21}).json()
        gid, token = created["game_id"], created["seats"][0]["token"]
        head = {"X-Seat-Token": token}
        p = c.get(f"/api/games/{gid}", headers=head).json()
        for _ in range(MAX_ACTIONS):
            if p["over"]:
                break
            moves = p["legal"]
            action = "draw" if "draw" in moves else moves[-1]
            r = c.post(f"/api/games/{gid}/actions", headers=head,
                       json={"action": action, "version": p["version"]})
            assert r.status_code == 200, r.text
            p = r.json()
    assert p["over"]
    result = p["solo"]["result"]
    page.goto(f"{server}/game/{gid}?token={token}")
    assert wait_settled(page) == "over"
    box = page.locator("[data-testid=solo-result]")
    expect(box.locator("p")).to_have_text(result["words"])
    assert box.get_attribute("data-medal") == result["medal"]
    assert box.get_attribute("data-met") == ("1" if result["goal_met"] else "0")
    expect(page.locator("[data-testid=scores] h1")).to_have_text("Winter has come")
    # the result leads the end screen: right under its heading, before the score pad, in
    # the first screen, and no winner's star over a lost challenge
    expect(page.locator("[data-testid=solo]")).to_have_count(1)
    heading = page.locator("[data-testid=scores] h1").bounding_box()
    solo = page.locator("[data-testid=solo-result]").bounding_box()
    pad = page.locator("[data-testid=score-pad]").bounding_box()
    assert heading and solo and pad
    assert heading["y"] < solo["y"] < pad["y"]
    assert solo["y"] + solo["height"] < page.viewport_size["height"]  # type: ignore[index]
    assert "★" not in page.locator("[data-testid=score-pad]").inner_text()
    assert "You did not win the bronze medal." in result["words"] or result["won"]
