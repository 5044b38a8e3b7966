"""Decisions that take several cards, as one choice of a set (engine/picks.py): every set
of the shape, picked in any order, is taken by the engine through ``pick_actions``; the
shape covers the engine's own first choices; bad sets get one line."""

from __future__ import annotations

import random

import pytest

from forest_shuffle.engine.actions import CAVE, DISCARD, DONE, PAY, Action
from forest_shuffle.engine.game import game_ids
from forest_shuffle.engine.picks import pick_actions, pick_problem, pick_shape
from forest_shuffle.engine.state import GameState
from forest_shuffle.games import make_game

SEEDS = range(6)


def _walk(game: str, seed: int) -> dict[str, int]:
    """Play a random game; at every choice of a set, take a random set in a random order
    through pick_actions, checked; the kinds of such choices met, counted."""
    rng = random.Random(seed)
    players = 1 if make_game(game).players[0] == 1 else 2
    state = GameState.new(players, seed, game=game)
    met: dict[str, int] = {}
    steps = 0
    while not state.over and steps < 3000:
        steps += 1
        p = state.to_move
        view = state.view(p)
        shape = pick_shape(view)
        legal = state.legal_actions()
        if shape is None:
            state.apply(rng.choice(legal))
            continue
        met[shape.kind] = met.get(shape.kind, 0) + 1
        # the shape holds every card the engine offers first
        offered = {a.card for a in legal if a.kind == shape.verb}
        assert offered <= set(shape.cards), (shape, legal)
        if not shape.ends_with_done:
            # a set of the size the decision takes: any of the cards may be in it
            assert offered, shape
        n = rng.randint(shape.least, shape.most)
        picks = rng.sample(shape.cards, n)  # any order
        for action in pick_actions(shape, picks):
            state.apply(action)  # checked: each is legal in turn
        # the whole set was taken: the decision asks for none of its cards again
        again = pick_shape(state.view(p)) if not state.over else None
        assert again is None or again.paid == () or not set(again.paid) & set(picks)
    return met


@pytest.mark.parametrize("game", [g for g in game_ids() if g != "base+alpine+woodland_edge"])
def test_every_set_in_any_order_is_taken(game: str) -> None:
    met: dict[str, int] = {}
    for seed in SEEDS:
        for kind, n in _walk(game, seed).items():
            met[kind] = met.get(kind, 0) + n
    assert met.get("pay", 0) > 0, met


def test_the_kinds_of_every_game_are_met() -> None:
    met: dict[str, int] = {}
    for game in ("base+alpine+woodland_edge", "dartmoor"):
        for seed in range(40):
            for kind, n in _walk(game, seed).items():
                met[kind] = met.get(kind, 0) + n
    assert {"pay", "raccoon", "clearing cave", "discard"} <= set(met), met


def _raccoon_state() -> GameState:
    """A random game played until a Raccoon's decision."""
    for seed in range(200):
        rng = random.Random(seed)
        state = GameState.new(2, seed, game="base")
        while not state.over:
            if state.decision == "raccoon" and len(state.hands[state.to_move]) >= 3:
                return state
            state.apply(rng.choice(state.legal_actions()))
    raise AssertionError("no Raccoon with 3 hand cards in 200 games")


def test_the_raccoon_takes_any_number_and_ends_with_done() -> None:
    state = _raccoon_state()
    p = state.to_move
    shape = pick_shape(state.view(p))
    assert shape is not None and shape.verb == CAVE and not shape.paid
    hand = sorted(state.hands[p])
    assert shape.cards == tuple(hand) and (shape.least, shape.most) == (0, len(hand))
    assert pick_actions(shape, []) == [Action(DONE)]
    two = [hand[-1], hand[0]]  # given out of order
    assert pick_actions(shape, two) == [Action(CAVE, hand[0]), Action(CAVE, hand[-1]),
                                        Action(DONE)]
    assert pick_actions(shape, hand[::-1]) == [Action(CAVE, c) for c in hand]  # no done
    # a card already put: the shape starts above it, and says it was put
    after = state.clone()
    after.apply(Action(CAVE, hand[0]))
    again = pick_shape(after.view(p))
    assert again is not None and again.paid == (hand[0],) and again.cards == tuple(hand[1:])


def test_the_raccoon_prompt_counts_the_cards_put() -> None:
    from forest_shuffle.text.narration import ask_words

    state = _raccoon_state()
    p = state.to_move
    assert "0 put so far" in ask_words(state.view(p))
    state.apply(Action(CAVE, min(state.hands[p])))
    if state.decision == "raccoon":
        assert "1 put so far" in ask_words(state.view(p))
        other = state.view(1 - p)  # the others see the count too, not the card
        assert "1 put so far" in ask_words(other)


def test_bad_sets_get_one_line() -> None:
    state = _raccoon_state()
    p = state.to_move
    shape = pick_shape(state.view(p))
    assert shape is not None
    c = shape.cards[0]
    assert pick_problem(shape, [c, c]) == f"card {c} is picked twice"
    assert "cannot be picked now" in pick_problem(shape, [999])
    with pytest.raises(ValueError, match="picked twice"):
        pick_actions(shape, [c, c])
    exact = shape._replace(least=2, most=2, ends_with_done=False)
    assert pick_problem(exact, [c]) == "this choice takes 2 cards, not 1"


def test_no_shape_for_others_or_single_choices() -> None:
    state = _raccoon_state()
    p = state.to_move
    assert pick_shape(state.view(1 - p)) is None  # not that player's decision
    fresh = GameState.new(2, 1, game="base")
    assert pick_shape(fresh.view(fresh.to_move)) is None  # a turn decision
    assert PAY in {v[0] for v in type(fresh).PICK_KINDS.values()}
    dart = GameState.new(2, 1, game="dartmoor")
    assert type(dart).PICK_KINDS["discard"][0] == DISCARD


def test_the_words_of_a_choice() -> None:
    from forest_shuffle.text.narration import pick_confirm_words, pick_how_words, pick_words

    state = GameState.new(2, 1, game="dartmoor")
    state.apply(Action.parse("choose 3"))
    state.apply(Action.parse("choose 1"))
    assert state.decision == "discard"
    shape = pick_shape(state.view(state.to_move))
    assert shape is not None and (shape.least, shape.most) == (3, 3)
    assert pick_words(shape) == ("Pick 3 cards of your hand to put face up into the clearing, "
                                 "in any order; a pick can be taken back until you confirm.")
    confirm = pick_confirm_words(shape)
    assert confirm[1] == "Put into the clearing: 1 card"
    assert confirm[3] == "Put into the clearing: 3 cards"
    assert "done confirms with 3 cards chosen" in pick_how_words(shape, [])
    assert "done confirms (Put into the clearing: 3 cards)" in pick_how_words(
        shape, list(shape.cards[:3]))
    raccoon = pick_shape(_raccoon_state().view(_raccoon_state().to_move))
    assert raccoon is not None
    assert pick_words(raccoon).startswith("Pick up to ")
    assert "(then you draw as many)" in pick_words(raccoon)
    assert pick_confirm_words(raccoon)[0] == "Done: no card"
