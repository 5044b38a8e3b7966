"""Replays in real Chromium: a finished game of the server stepped with first, previous,
next, last, the slider and the arrow keys, from a seat's view and a spectator's, each step
the engine's replay of the record (hand, forests, clearing, score); a record file of
another game uploaded and pasted, stepped to its recorded end; bad files refused with one
line; an unfinished game not replayed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from forest_shuffle.engine.state import GameState
from forest_shuffle.engine.view import make_spectator_view
from forest_shuffle.formats.records import random_game, record_of, write_record

from .coachutil import finished_game


def _wait(page: Page, step: int) -> dict[str, Any]:
    page.wait_for_function(
        "s => document.body !== null && document.body.dataset.status === 'replay'"
        " && document.body.dataset.step === s",  # (no body while a click's page loads)
        arg=str(step))
    return dict(page.evaluate("window.forestReplay.frame"))


def _check(page: Page, state: GameState, seat: int | None) -> None:
    """The page's frame and what it draws are the engine's state as ``seat`` sees it."""
    frame = page.evaluate("window.forestReplay.frame")
    view = make_spectator_view(state) if seat is None else state.view(seat)
    assert frame["view"] == view.to_dict() and frame["seat"] == seat
    clearing = page.locator("[data-testid=replay-clearing] .tile").evaluate_all(
        "ts => ts.map(t => Number(t.dataset.card))")
    assert clearing == list(state.clearing)
    if seat is None:
        expect(page.locator("[data-testid=replay-hand]")).to_have_count(0)
    else:
        hand = page.locator("[data-testid=replay-hand] .tile").evaluate_all(
            "ts => ts.map(t => Number(t.dataset.card))")
        assert hand == list(state.hands[seat])
    for i, forest in enumerate(state.forests):
        trees = page.locator(f"[data-testid=replay-forest-{i}] .tree")
        expect(trees).to_have_count(len(forest.trees))
    table = state.game.score_table(make_spectator_view(state).forests)
    totals = page.locator("[data-testid=replay-score] tr.total td").all_inner_texts()
    assert [int(t) for t in totals] == [sh.total for sh in table]


def test_a_finished_game_stepped_move_by_move(desktop: Page, server: str) -> None:
    page = desktop
    game = finished_game(server, seed=41, names=("Ada", "Bea", "Cy"))
    n = len(game.actions)
    page.goto(f"{server}/replay/{game.game_id}")
    _wait(page, 0)
    expect(page.locator("[data-testid=replay-step]")).to_have_text(f"Move 0 of {n}")
    _check(page, game.state_at(0), None)
    # next, next, previous; then a seat's view
    page.click("[data-testid=replay-next]")
    _wait(page, 1)
    page.click("[data-testid=replay-next]")
    _wait(page, 2)
    _check(page, game.state_at(2), None)
    move = page.locator("[data-testid=replay-move]").inner_text()
    assert move and "card" not in move.split(" ")[0]
    page.click("[data-testid=replay-prev]")
    _wait(page, 1)
    page.select_option("[data-testid=replay-seat]", "1")
    page.wait_for_function("() => document.body.dataset.seat === '1'")
    _check(page, game.state_at(1), 1)
    # the slider, then the keys
    page.locator("[data-testid=replay-slider]").fill(str(n // 2))
    _wait(page, n // 2)
    _check(page, game.state_at(n // 2), 1)
    page.keyboard.press("ArrowRight")
    _wait(page, n // 2 + 1)
    _check(page, game.state_at(n // 2 + 1), 1)
    page.keyboard.press("ArrowLeft")
    _wait(page, n // 2)
    # last: the end of the game, as the score pad; first: the deal again
    page.click("[data-testid=replay-last]")
    frame = _wait(page, n)
    end = game.state_at(n)
    assert frame["over"] and end.over
    _check(page, end, 1)
    expect(page.locator("[data-testid=replay-next]")).to_be_disabled()
    page.select_option("[data-testid=replay-seat]", "")
    page.wait_for_function("() => document.body.dataset.seat === ''")
    _check(page, end, None)
    page.click("[data-testid=replay-first]")
    _wait(page, 0)
    expect(page.locator("[data-testid=replay-prev]")).to_be_disabled()
    # a link with a step and a seat opens there
    page.goto(f"{server}/replay/{game.game_id}?step=7&seat=2")
    _wait(page, 7)
    _check(page, game.state_at(7), 2)
    # an unfinished game is not replayed (its hands are still secret)
    unfinished = finished_game(server, seed=42, until=8)
    page.goto(f"{server}/replay/{unfinished.game_id}")
    expect(page.locator("[data-testid=replay-error]")).to_contain_text("over")


def test_a_record_file_uploaded_and_pasted(desktop: Page, server: str,
                                           tmp_path: Path) -> None:
    page = desktop
    final = random_game(3, 17, game="base+woodland_edge")
    record = record_of(final)
    path = tmp_path / "game.json"
    write_record(path, record)
    page.goto(f"{server}/")
    page.click("[data-testid=replay-page]")
    page.wait_for_selector("[data-testid=record-file]")
    page.set_input_files("[data-testid=record-file]", str(path))
    frame = _wait(page, 0)
    assert frame["game"] == "base+woodland_edge" and frame["steps"] == len(record["actions"])
    assert "Woodland Edge" in page.locator(".replay-head").inner_text()
    page.click("[data-testid=replay-last]")
    frame = _wait(page, len(record["actions"]))
    assert [r["total"] for r in frame["running"]] == [s["total"] for s in record["scores"]]
    page.select_option("[data-testid=replay-seat]", "2")
    page.wait_for_function("() => document.body.dataset.seat === '2'")
    _check(page, final, 2)
    # pasted: the same record, and a broken one refused with one line
    page.goto(f"{server}/replay")
    broken = dict(record, actions=record["actions"][:5] + ["play 9999"])
    page.fill("[data-testid=record-text]", json.dumps(broken))
    page.click("[data-testid=load-record]")
    error = page.locator("[data-testid=replay-error]")
    expect(error).to_be_visible()
    assert "cannot be replayed" in error.inner_text() and "\n" not in error.inner_text()
    bad = tmp_path / "bad.json"
    bad.write_text("this is no record", encoding="utf-8")
    page.set_input_files("[data-testid=record-file]", str(bad))
    expect(error).to_contain_text("not a record")
    page.fill("[data-testid=record-text]", json.dumps(record))
    page.click("[data-testid=load-record]")
    _wait(page, 0)
    page.keyboard.press("End")
    _wait(page, len(record["actions"]))


def test_fast_arrow_keys_are_all_counted(desktop: Page, server: str) -> None:
    """Keys pressed faster than the frames arrive each count a move (40 presses, 40 moves)."""
    page = desktop
    game = finished_game(server, seed=43)
    assert len(game.actions) > 45
    page.goto(f"{server}/replay/{game.game_id}")
    _wait(page, 0)
    for _ in range(40):
        page.keyboard.press("ArrowRight", delay=0)
    _wait(page, 40)
    _check(page, game.state_at(40), None)
    for _ in range(15):
        page.keyboard.press("ArrowLeft", delay=0)
    _wait(page, 25)


def test_the_lobby_lists_this_browsers_finished_games(desktop: Page, server: str) -> None:
    """A finished game whose seat this browser holds is listed with its result and replay;
    a game still being played is not among the finished ones."""
    page = desktop
    done = finished_game(server, seed=44, names=("Ada", "Bea"))
    going = finished_game(server, seed=45, names=("Ada", "Bea"), until=4)
    page.goto(server + "/")
    for g in (done, going):
        page.evaluate("([id, tokens]) => localStorage.setItem('forest-shuffle:game:' + id,"
                      " JSON.stringify({tokens, hotseat: true, at: Date.now()}))",
                      [g.game_id, {str(k): v for k, v in g.tokens.items()}])
    page.reload()
    listed = page.locator("[data-testid=finished-games] li")
    expect(listed).to_have_count(1)
    assert listed.get_attribute("data-game") == done.game_id
    expect(listed).to_contain_text("Ada · Bea")
    expect(page.locator(f"[data-testid=continue-{going.game_id}]")).to_be_visible()
    page.click(f"[data-testid=replay-{done.game_id}]")
    _wait(page, 0)
    assert page.url.endswith(f"/replay/{done.game_id}")
