"""The search bot at three and more players: which rival its evaluation measures against
(``rival``), and legal play with every setting."""

from __future__ import annotations

import math
import random

import pytest

from forest_shuffle.bots import BotSpecError, make_bot
from forest_shuffle.bots.mcts import SCALE, evaluate
from forest_shuffle.engine.state import GameState
from forest_shuffle.scoring.core import totals


def _finished(players: int, seed: int) -> GameState:
    state = GameState.new(players, seed)
    rng = random.Random(seed)
    while not state.over:
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return state


def _reward(diff: float) -> float:
    diff += 10.0 if diff > 0 else -10.0 if diff < 0 else 0.0
    return 1.0 / (1.0 + math.exp(-diff / SCALE))


@pytest.mark.parametrize("players", [3, 4])
def test_rival_chooses_the_best_rival_or_the_rivals_mean(players: int) -> None:
    state = _finished(players, 40 + players)
    sc = [float(x) for x in totals(state.forests)]
    for me in range(players):
        others = [v for i, v in enumerate(sc) if i != me]
        assert evaluate(state, me, rival=0) == pytest.approx(_reward(sc[me] - max(others)))
        assert evaluate(state, me, rival=1) == pytest.approx(
            _reward(sc[me] - sum(others) / len(others)))


def test_with_two_players_both_rivals_are_the_same() -> None:
    state = _finished(2, 9)
    for me in range(2):
        assert evaluate(state, me, rival=0) == evaluate(state, me, rival=1)


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("spec", ["mcts:iterations=40,time=0",
                                  "mcts:iterations=40,time=0,rival=1"])
def test_search_plays_legal_moves_at_more_players(players: int, spec: str) -> None:
    state = GameState.new(players, 5)
    bot = make_bot(spec, 1)
    rng = random.Random(2)
    for _ in range(30):
        if state.over:
            break
        view = state.view(state.to_move or 0)
        if state.to_move == 0:
            action = bot.choose(view)
            assert action in view.legal_actions
        else:
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
        state.apply(action)


def test_bad_rival_is_one_line() -> None:
    with pytest.raises(BotSpecError, match="rival must be 0"):
        make_bot("mcts:rival=2")
    assert make_bot("mcts:rival=1").describe() == "mcts:rival=1"
