"""The solo player's cheaper search (bots/solo.py): rollouts cut off after ``depth`` own
turns and judged by an expected final score and a chance of the goal; the race at a turn's
first decision only; the options refused in one line."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from forest_shuffle.bots import solo
from forest_shuffle.bots.greedy import situation_of_state
from forest_shuffle.bots.solo import (
    PACE,
    GoalEval,
    SoloBot,
    cutoff_estimate,
    goal_of,
    judge,
    medal_utility,
    prospects,
    solo_action,
    solo_view_action,
    turns_left,
)
from forest_shuffle.cards.forest import Dweller, Forest, host_of_card
from forest_shuffle.cli.app import app
from forest_shuffle.engine.actions import PLAY, Action
from forest_shuffle.engine.state import GameState
from forest_shuffle.games.dartmoor_solo import DartmoorSoloState, solo_game

runner = CliRunner()


def _state(number: int, seed: int, deck_left: int, kind: str = "turn") -> DartmoorSoloState:
    """A game of challenge ``number`` played by the goal-aware policy until at most
    ``deck_left`` cards are left in the deck, at a decision of ``kind`` with a choice."""
    s = GameState.new(1, seed, game=solo_game(number))
    while not s.over:
        if (len(s.deck) <= deck_left and s.stack and s.stack[-1].kind == kind
                and len(s.legal_actions()) > 1):
            break
        s.apply(solo_action(s))
    assert isinstance(s, DartmoorSoloState) and not s.over
    return s


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_rollouts_are_cut_off_after_depth_own_turns(
        depth: int, monkeypatch: pytest.MonkeyPatch) -> None:
    s = _state(2, 7, 90)
    judged: list[tuple[int, bool]] = []

    def spy(state: GameState, me: int, plan: bool = True) -> float:
        judged.append((state.turn, state.over))
        return judge(state, me, plan)

    monkeypatch.setattr(solo, "judge", spy)
    bot = SoloBot(seed=3, iterations=40, depth=depth)
    a = bot.choose(s.view(0))
    assert a in s.legal_actions() and bot.last_iterations == len(judged) >= 36
    assert all(turn == s.turn + depth and not over for turn, over in judged)


def test_depth_zero_rolls_out_to_the_end(monkeypatch: pytest.MonkeyPatch) -> None:
    s = _state(2, 7, 14)
    over: list[bool] = []

    def spy(state: GameState, me: int, plan: bool = True) -> float:
        over.append(state.over)
        return judge(state, me, plan)

    monkeypatch.setattr(solo, "judge", spy)
    SoloBot(seed=3, iterations=12, depth=0).choose(s.view(0))
    assert over and all(over)


def test_the_cut_off_estimate_adds_the_hand_and_the_deck_to_the_score() -> None:
    s = _state(4, 5, 70)
    score, met = cutoff_estimate(s, 0)
    now = s.game.totals(s.forests)[0]
    assert score >= now + PACE * len(s.deck)
    fewer = s.clone()
    fewer.hands[0] = []
    assert cutoff_estimate(fewer, 0)[0] == pytest.approx(now + PACE * len(s.deck))
    goal = goal_of(s.game)
    assert goal is not None
    assert (met == 1.0) == (goal.progress(s.forests[0]) >= goal.need)
    assert 0.0 < met <= 1.0


def test_the_goal_chance_grows_with_the_progress() -> None:
    s = _state(14, 5, 70)  # at least 15 cards in the cave
    goal = goal_of(s.game)
    assert goal is not None and goal.progress(s.forests[0]) < goal.need
    more = s.clone()
    more.forests[0].cave += 6
    assert cutoff_estimate(more, 0)[1] > cutoff_estimate(s, 0)[1]
    more.forests[0].cave = goal.need
    assert cutoff_estimate(more, 0)[1] == 1.0
    assert judge(more, 0) > judge(s, 0)


def test_a_finished_rollout_is_judged_by_its_medal() -> None:
    s = GameState.new(1, 4, game=solo_game(8))
    while not s.over:
        s.apply(solo_action(s))
    goal = goal_of(s.game)
    assert goal is not None
    assert judge(s, 0) == medal_utility(goal.result(s.forests[0]))


def test_the_race_runs_at_turn_decisions_only() -> None:
    s = _state(5, 3, 80, kind="pay")
    view = s.view(0)
    bot = SoloBot(seed=1, iterations=60)
    assert bot.choose(view) == solo_view_action(view) and bot.last_iterations == 0
    every = SoloBot(seed=1, iterations=60, turns=0)
    assert every.choose(view) in view.legal_actions and every.last_iterations >= 36


@pytest.mark.parametrize("option", ["depth=-1", "turns=2"])
def test_a_bad_depth_or_turns_is_one_line(option: str) -> None:
    out = runner.invoke(app, ["simulate", "--game", "dartmoor", "--solo", "3", "--bot",
                              f"solo:{option}"])
    assert out.exit_code == 2
    assert "--bot:" in out.output and "Traceback" not in out.output
    assert len(out.output.strip().splitlines()) == 1


def _threshold_forest(moors: int) -> tuple[Forest, int]:
    """A forest of ``moors`` moors whose first holds, below, a card of the species whose
    points rule is the solo moor majority (found by its rule); and its threshold."""
    cat = solo_game(2).catalog
    moor_cards = [c for c in cat.cards if c is not None and c.species is not None
                  and "moor" in c.species.tags]
    split = next(c for c in cat.cards if c is not None and c.species is None
                 and any(h.species.points.rule == "moor_majority" for h in c.halves.values()))
    side = next(s for s, h in split.halves.items() if h.species.points.rule == "moor_majority")
    forest = Forest([host_of_card(cat, c.id) for c in moor_cards[:moors]])
    forest.add_dweller(0, side, Dweller.of_card(split, side))
    return forest, int(split.halves[side].species.points.params["solo_min_moors"])


def test_prospects_count_a_threshold_card_by_its_chance() -> None:
    few, need = _threshold_forest(2)
    more, _ = _threshold_forest(need - 1)
    done, _ = _threshold_forest(need)
    assert 0 < prospects(few, 10, 20) < prospects(more, 10, 20)
    assert prospects(few, 10, 0) < prospects(few, 10, 20)
    assert prospects(done, 10, 20) == 0
    assert prospects(Forest([host_of_card(solo_game(2).catalog, c)
                             for c in (h.card for h in few.trees)]), 10, 20) == 0


def test_plan_adds_the_prospects_at_a_cut_off() -> None:
    s = _state(2, 7, 70)
    with_plan = cutoff_estimate(s, 0)[0]
    without = cutoff_estimate(s, 0, plan=False)[0]
    assert with_plan - without == pytest.approx(prospects(s.forests[0], s.turn,
                                                          turns_left(s)))


def test_a_deck_to_cave_play_is_worth_its_cards_to_a_cave_goal() -> None:
    cat = solo_game(14).catalog
    split = next(c for c in cat.cards if c is not None and c.species is None
                 and any(h.species.effect is not None and h.species.effect.op == "deck_to_cave"
                         for h in c.halves.values()))
    side = next(s for s, h in split.halves.items()
                if h.species.effect is not None and h.species.effect.op == "deck_to_cave")
    n = int(split.halves[side].species.effect.params["n"])  # type: ignore[union-attr]
    play = Action(PLAY, split.id, side, 0)
    gains = {}
    for number in (14, 2):
        s = _state(number, 5, 90)
        goal = goal_of(s.game)
        assert goal is not None
        ev = GoalEval(situation_of_state(s), True, goal)
        gains[number] = ev.cave_gain(play)
    cave_goal = goal_of(solo_game(14))
    assert cave_goal is not None
    assert gains[14] == pytest.approx(n * solo.GOAL / cave_goal.need)
    assert gains[2] == 0.0
