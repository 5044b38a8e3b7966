"""Bots in a game of ``base+exploration``: the greedy bot's winter reprieve (no when it
leads, yes otherwise), the search bots answer the reprieve and play on from it, and whole
games between bots end."""

from __future__ import annotations

import pytest
from scenario import build, site, trees_of

from forest_shuffle.bots.registry import make_bot
from forest_shuffle.engine.actions import Action
from forest_shuffle.engine.state import GameState
from forest_shuffle.games import make_game

GAME = "base+exploration"
CATALOG = make_game(GAME).catalog
TREE = trees_of("O Christmas Tree", CATALOG)[0]
WINTER = sorted(c.id for c in CATALOG.cards if c is not None and c.is_winter)


def _reprieve_asked(other_trees: int) -> GameState:
    """Player 1 owns the O Christmas Tree (2 points per card in its slots: none) and 3
    cards under the cave; player 2 has ``other_trees`` Birches. Player 1 has just drawn
    the third winter card."""
    birches = trees_of("Birch", CATALOG)[:other_trees]
    fill = [c.id for c in CATALOG.cards if c is not None and c.module == "base"
            and not c.is_winter and not c.is_host][:7]
    s = build([[], []], [*fill[:4], WINTER[2]], winter=WINTER[:2], game=GAME,
              forests=[[site(TREE)], [site(b) for b in birches]], caves=[fill[4:], []])
    s.apply(Action("draw"))
    assert s.decision == "winter reprieve" and s.to_move == 0
    return s


def test_greedy_says_yes_when_behind_and_no_when_ahead() -> None:
    behind = _reprieve_asked(6)
    assert behind.scores()[0] < behind.scores()[1]
    assert str(make_bot("greedy").choose(behind.view(0))) == "yes"
    ahead = _reprieve_asked(0)
    assert ahead.scores()[0] > ahead.scores()[1]
    assert str(make_bot("greedy").choose(ahead.view(0))) == "no"


@pytest.mark.parametrize("spec", ["random", "mcts:iterations=40,workers=1",
                                  "learned:iterations=20,workers=1"])
def test_search_bots_answer_the_reprieve_and_play_on(spec: str) -> None:
    s = _reprieve_asked(6)
    bot = make_bot(spec, seed=1)
    a = bot.choose(s.view(0))
    assert a in s.legal_actions()
    s.apply(Action("yes"))
    for _ in range(6):  # a few more decisions in the game that went on
        if s.over:
            break
        p = s.to_move
        assert p is not None
        s.apply(make_bot(spec, seed=2).choose(s.view(p)))


def test_greedy_games_of_every_exploration_id_end() -> None:
    for k, gid in enumerate(["base+exploration", "base+alpine+exploration",
                             "base+woodland_edge+exploration",
                             "base+alpine+woodland_edge+exploration"]):
        s = GameState.new(2 + k, k, game=gid)
        bots = [make_bot("greedy", seed=i) for i in range(s.num_players)]
        while not s.over:
            p = s.to_move
            assert p is not None
            s.apply(bots[p].choose(s.view(p)))
        assert len(s.scores()) == s.num_players
