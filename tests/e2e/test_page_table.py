"""The table's extras in real Chromium: the running score (against the score pad at the end,
switchable off), the lobby's list of this browser's games, a cut token that says so, the
warning on invite links only this computer can open, the turn counter and the clearing."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from .play import create_game, status, step, wait_settled

MAX_STEPS = 1500


def _running(page: Page) -> list[list[str]]:
    return [row.locator("td").all_inner_texts()
            for row in page.locator("[data-testid=running-score] tbody tr").all()]


def test_the_running_score_ends_as_the_score_pad(desktop: Page, server: str) -> None:
    page = desktop
    create_game(page, server, [("human", "Ada"), ("bot:easy", "Robin")], seed=11)
    wait_settled(page)
    expect(page.locator("[data-testid=turn-counter]")).to_have_text("Turn 1: you")
    expect(page.locator("[data-testid=clearing-count]")).to_contain_text("full at 10")
    checked = 0
    for i in range(MAX_STEPS):
        if wait_settled(page) == "over":
            break
        if i % 25 == 0:  # the table shows the server's running score
            p = page.evaluate("window.forestShuffle.payload")
            totals = [int(t) for t in _running(page)[-1]]
            assert totals == [r["total"] for r in p["running"]]
            # and beside each name in the players' panel, the same figures
            for r in p["running"]:
                expect(page.locator(f"[data-testid=player-score][data-seat='{r['seat']}']")
                       ).to_have_text(f"{r['total']} pts")
            checked += 1
            if p["to_move"] == p["you"] and p["view"]["turn"]:
                # the table's count, as the log's last turn line says it
                expect(page.locator("[data-testid=turn-counter]")).to_have_text(
                    f"Turn {p['view']['turn']}: you")
                lines = page.locator("[data-testid=log] li").all_inner_texts()
                turns = [t for t in lines if t.startswith("Turn ")]
                assert not turns or turns[-1].startswith(f"Turn {p['view']['turn']}: ")
        step(page)
    assert status(page) == "over" and checked > 3
    pad = page.locator("[data-testid=score-pad] tbody tr")
    final = [row.locator("td").all_inner_texts() for row in pad.all()]
    assert _running(page) == final
    assert any(int(t) > 0 for t in final[-1])
    clearing = page.locator("[data-testid=clearing-count]")
    expect(clearing).to_have_text(re.compile(r"^\d+ cards?$"))  # no "11/10" at the end
    # switched off, it stays off in this browser
    page.click("[data-testid=running-toggle]")
    expect(page.locator("[data-testid=running-score]")).to_have_count(0)
    page.reload()
    wait_settled(page)
    expect(page.locator("[data-testid=running]")).to_be_visible()
    expect(page.locator("[data-testid=running-score]")).to_have_count(0)
    page.click("[data-testid=running-toggle]")
    expect(page.locator("[data-testid=running-score]")).to_be_visible()


def test_coming_back_to_a_game(desktop: Page, server: str) -> None:
    page = desktop
    create_game(page, server, [("human", "Ada"), ("bot:easy", "Robin")], seed=5)
    wait_settled(page)
    url = page.url
    gid = url.split("/game/")[1].split("?")[0]
    token = url.split("token=")[1]
    # the lobby lists it, with a way back in
    page.goto(server + "/")
    known = page.locator("[data-testid=known-games]")
    expect(known).to_be_visible()
    expect(known.locator(f"[data-game='{gid}']")).to_contain_text("Ada · Robin")
    expect(known.locator(f"[data-game='{gid}']")).to_contain_text("your move")
    page.click(f"[data-testid=continue-{gid}]")
    assert wait_settled(page) == "your-turn"
    assert page.evaluate("window.forestShuffle.payload.you") == 0
    expect(page.locator("[data-testid=bad-token]")).to_have_count(0)
    # a cut token: said, not silently a spectator; the seat this browser holds is offered
    page.goto(f"{server}/game/{gid}?token={token[:10]}")
    wait_settled(page, ("watching",))
    notice = page.locator("[data-testid=bad-token]")
    expect(notice).to_contain_text("not one of this game's")
    page.click("[data-testid=held-seat]")
    assert wait_settled(page) == "your-turn"
    expect(notice).to_have_count(0)


def test_invite_links_on_this_computer_say_so(desktop: Page, server: str) -> None:
    page = desktop
    create_game(page, server, [("human", "Ada"), ("human", "Bea")], seed=2)
    warning = page.locator("[data-testid=local-only]")
    expect(warning).to_contain_text("a friend on another machine cannot open them")
    expect(warning).to_contain_text("--host 0.0.0.0")


def test_a_cards_text_closes_when_the_turn_is_over(desktop: Page, server: str) -> None:
    """The text a card's i opens belongs to that turn: it is gone once a new turn begins
    (it would cover the table, and at the end the score pad)."""
    page = desktop
    create_game(page, server, [("human", "Ada"), ("bot:easy", "Robin")], seed=11)
    wait_settled(page)
    page.locator("[data-testid=hand] .tile .info").first.click()
    detail = page.locator("[data-testid=detail]")
    expect(detail).to_be_visible()
    turn = page.evaluate("window.forestShuffle.payload.view.turn")
    for _ in range(20):
        if page.evaluate("window.forestShuffle.payload.view.turn") != turn:
            break
        if page.locator("[data-testid=deck].can").count():
            page.click("[data-testid=deck]")  # draw: the turn passes, the text stays open
        else:
            step(page)
        wait_settled(page, ("your-turn", "over", "waiting"))
    wait_settled(page)
    assert page.evaluate("window.forestShuffle.payload.view.turn") != turn
    expect(detail).to_be_hidden()
