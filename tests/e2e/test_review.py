"""The after-game review in real Chromium, against the record: the chart's last points are
the score pad's, every point of the chart is the scorer's on the public forests of the state
the engine replays from the game's actions, the points by species and line add up to the
score pad, and the moves the bot would have made differently are moves of that seat."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from forest_shuffle.engine.actions import Action
from forest_shuffle.engine.view import make_spectator_view

from .coachutil import finished_game
from .play import wait_settled


def test_the_review_against_the_record(desktop: Page, server: str) -> None:
    page = desktop
    game = finished_game(server, seed=31)
    page.goto(f"{server}/game/{game.game_id}?token={game.tokens[0]}")
    assert wait_settled(page, ("over",)) == "over"
    review = page.locator("[data-testid=review]")
    expect(review).to_be_visible()
    page.wait_for_function(
        "() => document.querySelector('[data-testid=review]').dataset.state !== 'loading'",
        timeout=90_000)
    assert review.get_attribute("data-state") == "ready", review.inner_text()
    pad = page.evaluate("window.forestShuffle.payload.scores")
    totals = [s["total"] for s in pad]
    # the chart: one line per seat, its points the scorer's on each turn's public forests
    chart = page.locator("[data-testid=review-chart]")
    expect(chart.locator(".seat-line")).to_have_count(2)
    points = page.evaluate(
        """() => [...document.querySelectorAll('[data-testid=review-chart] .seat-line')].map(
             g => [...g.querySelectorAll('circle')].map(c => [Number(c.dataset.step),
               Number(c.dataset.turn), Number(c.dataset.points)]))""")
    assert [line[-1][2] for line in points] == totals
    assert points[0][-1][0] == len(game.actions)
    state = game.new_state()
    done = 0
    for i, (step, turn, _) in enumerate(points[0]):
        while done < step:
            state.apply(Action.parse(game.actions[done]))
            done += 1
        sheets = state.game.score_table(make_spectator_view(state).forests)
        assert state.turn == turn
        assert [line[i][2] for line in points] == [sh.total for sh in sheets], step
    assert len(points[0]) > 20  # a point a turn
    # where the points came from: species and lines add up to the score pad
    for seat, total in enumerate(totals):
        box = page.locator(f"[data-testid=review-species-{seat}]")
        species = [int(x) for x in box.locator("tr[data-species]").evaluate_all(
            "rows => rows.map(r => r.dataset.points)")]
        lines = [int(x) for x in box.locator(".review-lines td").all_inner_texts()]
        assert sum(species) == total and sum(lines) == total
        assert lines == [pad[seat]["lines"][k] for k in ("trees", "top_bottom", "left_right",
                                                         "cave")]
    # the moves: each one the seat's move at that step, and the bot's other choice legal
    moves = page.locator("[data-testid=review-moves]")
    expect(moves).to_be_visible()
    for li in moves.locator("li").all():
        step = int(li.get_attribute("data-step") or -1)
        seat = int(li.get_attribute("data-seat") or -1)
        played, chosen = li.get_attribute("data-played"), li.get_attribute("data-chosen")
        assert game.actions[step] == played and chosen != played
        at = game.state_at(step)
        assert at.to_move == seat and Action.parse(str(chosen)) in at.legal_actions()
        assert float(li.get_attribute("data-gain") or 0) > 0
    # the review comes from the server once: reloading shows the same
    page.reload()
    wait_settled(page, ("over",))
    page.wait_for_function(
        "() => document.querySelector('[data-testid=review]').dataset.state === 'ready'",
        timeout=30_000)
    again = page.evaluate(
        """() => [...document.querySelectorAll('[data-testid=review-chart] circle')].map(
             c => Number(c.dataset.points))""")
    assert again == [p[2] for line in points for p in line]
    # before the end there is none: 409 with one line
    unfinished = finished_game(server, seed=32, until=12)
    status, body = page.evaluate(
        f"""async () => {{ const r = await fetch('/api/games/{unfinished.game_id}/review');
             return [r.status, await r.json()]; }}""")
    assert status == 409 and "\n" not in body["error"]
