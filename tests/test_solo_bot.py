"""The solo player (bots/solo.py): it reads the challenge's goal and medals from the data,
plays legal moves to the end of every challenge, chooses from the view alone (the same
choice whatever the hidden cards), answers the coach in solo games, and runs through
``simulate --solo all --bot``."""

from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

from forest_shuffle.bots import make_bot
from forest_shuffle.bots.coach import advise, for_view
from forest_shuffle.bots.greedy import greedy_view_action, situation_of_view
from forest_shuffle.bots.mcts import MCTSBot
from forest_shuffle.bots.solo import (
    GoalEval,
    SoloBot,
    goal_of,
    medal_utility,
    solo_action,
    solo_candidates,
    solo_view_action,
)
from forest_shuffle.cli.app import app
from forest_shuffle.engine.actions import PLAY
from forest_shuffle.engine.state import GameState
from forest_shuffle.games import make_game
from forest_shuffle.games.dartmoor_solo import (
    MEDALS,
    DartmoorSoloState,
    SoloResult,
    solo_data,
    solo_game,
)

runner = CliRunner()


def _turn_view_state(number: int, seed: int, deck_left: int) -> DartmoorSoloState:
    """A game of challenge ``number`` played by the goal-aware policy until at most
    ``deck_left`` cards are left in the deck, at a turn decision with a choice."""
    s = GameState.new(1, seed, game=solo_game(number))
    while not s.over:
        if (len(s.deck) <= deck_left and s.stack and s.stack[-1].kind == "turn"
                and len(s.legal_actions()) > 1):
            break
        s.apply(solo_action(s))
    assert isinstance(s, DartmoorSoloState) and not s.over
    return s


# ------------------------------------------------------------------------ the goal


@pytest.mark.parametrize("number", range(1, 16))
def test_the_goal_and_medals_come_from_the_data(number: int) -> None:
    ch = solo_data().challenges[number - 1]
    goal = goal_of(solo_game(number))
    assert goal is not None
    assert goal.challenge == number and dict(goal.goal) == dict(ch.goal)
    assert goal.need == ch.goal["min"] and dict(goal.thresholds) == dict(ch.thresholds)


def test_no_goal_outside_the_solo_challenges() -> None:
    assert goal_of(make_game("dartmoor")) is None
    assert goal_of(make_game("base")) is None


@pytest.mark.parametrize("number", [2, 3, 9, 13])
def test_the_policy_values_a_play_by_the_goal_it_names(number: int) -> None:
    """Counting goals: the same deal in each challenge; a play earns goal points exactly
    when the card shows the tag the challenge's data names."""
    s = GameState.new(1, 21, game=solo_game(number))
    tag = str(solo_data().challenges[number - 1].goal["tag"])
    seen = 0
    while not s.over and seen < 40:
        view = s.view(0)
        if view.pending is not None and view.pending.kind == "turn":
            goal = goal_of(view.game)
            assert goal is not None
            ev = GoalEval(situation_of_view(view), True, goal)
            if ev.unit:
                for a in view.legal_actions:
                    if a.kind != PLAY:
                        continue
                    card = view.game.cards[a.card]
                    assert card is not None
                    sp = card.halves[a.side].species if a.side else card.species
                    assert sp is not None
                    assert (ev.action_gain(a) > 0) == (tag in sp.tags), (a, sp.name)
                    seen += 1
        s.apply(solo_action(s))
    assert seen > 0


def test_medal_utility_orders_results() -> None:
    th = solo_data().challenges[0].thresholds

    def u(have: int, score: int) -> float:
        return medal_utility(SoloResult(1, "t", have, 5, score, "", th))

    assert u(5, 100) > u(4, 400)  # the goal first
    assert u(4, 100) > u(3, 100)  # then its progress
    marks = [th[m] for m in MEDALS]
    assert u(5, marks[0]) < u(5, marks[1]) < u(5, marks[2]) < u(5, marks[2] + 50)
    low, high = marks[0], marks[-1]  # a threshold is worth more than points far from one
    assert u(5, low + 10) - u(5, low - 10) > u(5, low - 40) - u(5, low - 60)
    assert u(5, high + 10) - u(5, high - 10) > u(5, high + 60) - u(5, high + 40)


# ------------------------------------------------------------------------ playing


@pytest.mark.parametrize("number", range(1, 16))
def test_the_solo_bot_plays_every_challenge_to_the_end(number: int) -> None:
    s = GameState.new(1, 300 + number, game=solo_game(number))
    bot = make_bot("solo:time=0", 4)
    assert isinstance(bot, SoloBot)
    while not s.over:
        view = s.view(0)
        a = bot.choose(view)
        assert a in view.legal_actions
        s.apply(a)
    assert s.over


def test_the_race_runs_late_in_the_game_and_keeps_its_choice_legal() -> None:
    s = _turn_view_state(1, 5, 12)
    view = s.view(0)
    bot = SoloBot(seed=2, iterations=60)
    a = bot.choose(view)
    assert a in view.legal_actions
    assert bot.last_iterations >= 12 and a in bot.last_stats
    assert set(bot.last_stats) <= set(solo_candidates(view, bot.width))


def test_the_same_view_gives_the_same_choice_whatever_the_hidden_cards() -> None:
    s = _turn_view_state(5, 8, 20)
    other = s.clone()
    assert isinstance(other, DartmoorSoloState)
    rng = random.Random(3)
    winter = [i for i, c in enumerate(other.deck) if other.game.cards[c].is_winter]
    plain = [c for c in other.deck if not other.game.cards[c].is_winter]
    swap = plain[:5]  # five deck cards go to the box, five box cards come out
    plain = plain[5:] + other.box[:5]
    other.box = other.box[5:] + swap
    rng.shuffle(plain)
    for i in winter:
        plain.insert(i, s.deck[i])
    other.deck = plain
    rng.shuffle(other.automa)
    other._legal = None
    assert other.deck != s.deck and sorted(other.box) != sorted(s.box)
    assert other.view(0) == s.view(0)
    first, second = SoloBot(seed=9, iterations=40), SoloBot(seed=9, iterations=40)
    assert first.choose(s.view(0)) == second.choose(other.view(0))
    assert first.last_stats == second.last_stats and first.last_iterations >= 6


def test_a_budget_too_small_for_a_race_plays_the_goal_aware_choice() -> None:
    s = _turn_view_state(2, 6, 60)
    view = s.view(0)
    assert SoloBot(seed=1, time=0).choose(view) == solo_view_action(view)


def test_outside_a_solo_game_the_solo_bot_is_the_search_bot() -> None:
    s = GameState.new(2, 4, game="dartmoor")
    while s.to_move != 0 or len(s.legal_actions()) < 2:
        s.apply(s.legal_actions()[0])
    view = s.view(0)
    assert SoloBot(seed=3, iterations=12).choose(view) == MCTSBot(
        seed=3, iterations=12).choose(view)


# ------------------------------------------------------------------------ the coach


def test_the_coach_plays_for_the_goal_in_a_solo_game() -> None:
    s = GameState.new(1, 12, game=solo_game(1))
    view = None
    while not s.over:  # a decision where greedy and the goal-aware policy differ
        v = s.view(0)
        if (v.pending is not None and v.pending.kind == "turn"
                and greedy_view_action(v) != solo_view_action(v)):
            view = v
            break
        s.apply(solo_action(s))
    assert view is not None
    asked = make_bot("mcts:iterations=1", 5)
    assert isinstance(for_view(asked, view), SoloBot)
    advice = advise(view, asked, 5)
    assert advice.action == solo_view_action(view) != greedy_view_action(view)
    assert advice.lead is None and advice.margin is None
    dartmoor = GameState.new(2, 4, game="dartmoor")
    assert for_view(asked, dartmoor.view(0)) is asked


# ------------------------------------------------------------------------ the CLI


def test_simulate_solo_all_with_the_solo_bot() -> None:
    out = runner.invoke(app, ["simulate", "--game", "dartmoor", "--solo", "all", "--games",
                              "1", "--seed", "2", "--bot", "solo:time=0", "--json"])
    assert out.exit_code == 0, out.output
    summary = json.loads(out.output)
    assert summary["bot"] == "solo:time=0"
    rows = summary["challenges"]
    assert [r["challenge"] for r in rows] == list(range(1, 16))
    for r in rows:
        assert sum(r["best_medal"].values()) == 1
        for low, high in r["intervals"].values():
            assert 0 <= low <= high <= 1


def test_simulate_solo_prints_the_intervals() -> None:
    out = runner.invoke(app, ["simulate", "--game", "dartmoor", "--solo", "8", "--games",
                              "2", "--seed", "2", "--bot", "solo:time=0"],
                         env={"COLUMNS": "200"})
    assert out.exit_code == 0, out.output
    assert "Wilson 95 % interval" in out.output and "No medal" in out.output


def test_a_bad_solo_bot_option_is_one_line() -> None:
    out = runner.invoke(app, ["simulate", "--game", "dartmoor", "--solo", "3", "--bot",
                              "solo:goal=-1"])
    assert out.exit_code == 2
    assert "--bot:" in out.output and "Traceback" not in out.output
    assert len(out.output.strip().splitlines()) == 1


def test_the_solo_bot_plays_a_challenge_in_the_terminal() -> None:
    out = runner.invoke(app, ["play", "--game", "dartmoor", "--solo", "8", "--bots", "1",
                              "--level", "solo:time=0", "--seed", "3"])
    assert out.exit_code == 0, out.output
    assert out.output.startswith("Solo challenge 8")
    assert "Goal of challenge 8" in out.output and "(bot)" in out.output
