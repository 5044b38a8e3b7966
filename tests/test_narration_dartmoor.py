"""Dartmoor in words: every decision has its own question, every action its own words (no
fallback to the action's code), and the cards are Dartmoor's, not the base game's."""

from __future__ import annotations

import random

from forest_shuffle.engine import GameState
from forest_shuffle.engine.actions import CHOOSE, DISCARD, DONE, MOOR
from forest_shuffle.text import narration


def _games(n: int, players: int = 3) -> list[GameState]:
    """Random Dartmoor games played to the end, one state per decision met on the way
    (copies), so the words are checked at every kind of decision that came up."""
    out: list[GameState] = []
    for seed in range(n):
        s = GameState.new(players, seed, game="dartmoor")
        rng = random.Random(seed)
        while not s.over:
            out.append(s.clone())
            s.apply(rng.choice(s.legal_actions()))
    return out


def test_every_decision_and_action_has_words() -> None:
    kinds: set[str] = set()
    action_kinds: set[str] = set()
    for s in _games(3):
        p = s.to_move
        assert p is not None
        view = s.view(p)
        assert view.pending is not None
        kinds.add(view.pending.kind)
        ask = narration.ask_words(view)
        assert not ask.startswith("Decide:"), (view.pending.kind, ask)
        assert "sapling" not in ask, ask  # Dartmoor has no saplings
        for a in view.legal_actions[:6]:
            words = narration.action_words(a, view)
            assert words != str(a) or a.kind == DONE, words
            action_kinds.add(a.kind)
        a = view.legal_actions[0]
        public = narration.public_words(a, view.pending, view.forests[p], view.game.catalog)
        assert public != str(a), public
    # the games met the decisions and actions Dartmoor adds
    assert {"cave draft", "turn"} <= kinds
    assert CHOOSE in action_kinds


def test_words_name_dartmoor_cards() -> None:
    s = GameState.new(2, 4, game="dartmoor")
    cat = s.game.catalog
    for cid in s.hands[0]:
        card = cat.card(cid)
        name = card.species.name if card.species is not None else "/".join(
            h.species.name for h in card.halves.values())
        assert narration.label(cid, cat) == name


def test_a_cave_draft_names_the_caves_on_offer() -> None:
    s = GameState.new(2, 1, game="dartmoor")
    while s.decision != "cave draft":
        s.apply(s.legal_actions()[0])
    view = s.view(s.to_move or 0)
    ask = narration.ask_words(view)
    for n in view.cave_offer:
        assert f"cave {n}" in ask
    choose = next(a for a in view.legal_actions if a.kind == CHOOSE)
    assert narration.action_words(choose, view).startswith(f"take cave {choose.card}")
    assert narration.public_words(choose, view.pending, view.forests[0], view.game.catalog) == (
        f"takes cave {choose.card}")


def test_a_universal_moor_is_face_down_in_public_words() -> None:
    for s in _games(4, players=2):
        p = s.to_move
        assert p is not None
        view = s.view(p)
        moors = [a for a in view.legal_actions if a.kind == MOOR]
        if not moors:
            continue
        a = moors[0]
        public = narration.public_words(a, view.pending, view.forests[p], view.game.catalog)
        assert str(a.card) not in public and "face down" in public
        own = narration.own_words(a, public, (), view.game.catalog)
        assert own is not None and f"card {a.card}" in own
        return
    raise AssertionError("no universal moor came up in four games")


def test_discards_are_public() -> None:
    for s in _games(4, players=2):
        p = s.to_move
        assert p is not None
        view = s.view(p)
        discards = [a for a in view.legal_actions if a.kind == DISCARD]
        if discards:
            a = discards[0]
            public = narration.public_words(a, view.pending, view.forests[p],
                                            view.game.catalog)
            assert f"card {a.card}" in public and "clearing" in public
            return
    raise AssertionError("no discard came up in four games")


def test_the_last_cave_is_taken_not_chosen() -> None:
    """The cave draft offers one cave per player; the last to choose gets the one left,
    and the words say so instead of offering a choice of one."""
    for players in (2, 3):
        state = GameState.new(players, 7, game="dartmoor")
        for left in range(players, 0, -1):
            assert state.decision == "cave draft"
            assert state.to_move is not None
            view = state.view(state.to_move)
            words = narration.ask_words(view)
            assert len(view.cave_offer) == left
            if left > 1:
                assert words.startswith("Choose your cave: ")
            else:
                assert words.startswith("Take your cave, the one the others left: cave "
                                        f"{view.cave_offer[0]} (")
                assert "Choose" not in words
            state.apply(state.legal_actions()[0])
