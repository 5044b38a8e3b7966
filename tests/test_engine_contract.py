"""The game-state contract at its edges: bad set-up values, the reason named for each kind
of illegal action, and saved games that are not saved games."""

from __future__ import annotations

import json

import pytest
from scenario import Picker, act, build, site

from forest_shuffle.engine.actions import Action, IllegalActionError
from forest_shuffle.engine.state import GameState


@pytest.mark.parametrize("players", [0, 1, 6])
def test_player_count_outside_2_to_5_is_refused(players: int) -> None:
    with pytest.raises(ValueError, match="2 to 5 players"):
        GameState.new(players, 1)


def test_first_player_must_be_a_seat() -> None:
    with pytest.raises(ValueError, match="first player"):
        GameState.new(3, 1, first_player=3)


def reason(state: GameState, text: str) -> str:
    before = state.to_dict()
    with pytest.raises(IllegalActionError) as err:
        state.apply(Action.parse(text))
    assert state.to_dict() == before  # nothing changed
    return err.value.reason


def test_reasons_for_plays() -> None:
    pick = Picker()
    oak = pick.tree("Oak")
    fox, fox_side = pick.half("Red Fox", "left")
    birch = pick.tree("Birch")
    fill = pick.fillers(3)
    state = build([[oak, fox, *fill], []], deck=pick.fillers(4),
                  forests=[[site(birch)], []])
    assert "is a tree: write 'play" in reason(state, f"play {oak} left 1")
    assert "is a split card: name a half" in reason(state, f"play {fox}")
    assert "no tree 5" in reason(state, f"play {fox} {fox_side} 5")
    other = pick.fillers(1)[0]
    assert "not in player 1's hand" in reason(state, f"sapling {other}")


def test_reasons_for_payment_and_cave_order() -> None:
    pick = Picker()
    jay, _ = pick.half("Eurasian Jay", "top")
    birch = pick.tree("Birch")
    fill = sorted(pick.fillers(3))
    state = build([[jay, *fill], []], deck=pick.fillers(4), forests=[[site(birch)], []])
    act(state, f"play {jay} top 1")
    assert state.decision == "pay"
    outsider = pick.fillers(1)[0]
    assert "not in player 1's hand" in reason(state, f"pay {outsider}")

    pick = Picker()
    raccoon, side = pick.half("Raccoon", "left")
    birch = pick.tree("Birch")
    fill = sorted(pick.fillers(4))
    state = build([[raccoon, *fill], []], deck=pick.fillers(8), forests=[[site(birch)], []])
    act(state, f"play {raccoon} {side} 1", f"pay {fill[0]}", "yes", f"cave {fill[2]}")
    assert "ascending order" in reason(state, f"cave {fill[1]}")


def test_reason_when_the_game_is_over() -> None:
    state = GameState.new(2, 3)
    state.over = True
    assert reason(state, "draw") == "the game is over"


def test_from_dict_refuses_what_is_not_a_saved_game() -> None:
    with pytest.raises(ValueError, match="not a saved game"):
        GameState.from_dict({"format": "something else"})
    data = json.loads(json.dumps(GameState.new(2, 4).to_dict()))
    del data["hands"]
    with pytest.raises(ValueError, match="broken saved game"):
        GameState.from_dict(data)
