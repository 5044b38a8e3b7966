"""Cards everyone saw go into the box or a cave stay there in every resampled deal.

Such a card may never show in a view between two actions: a tree (or a sapling) turns the
deck's top card into the clearing, that fills it to 10 and the clearing is boxed at the end
of the same action; a payment goes to the clearing and on under a cave by the effect it
paid for. The positions right after such turns are searched for on purpose; a random-games
check runs every registered game. Where the cards went is worked out here from the states
before and after each action, not read from the engine's record."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from rl_extra import require

(pyspiel,) = require("pyspiel")

import forest_shuffle.rl.openspiel_game as osg  # noqa: E402
from forest_shuffle.engine.check import check_state  # noqa: E402
from forest_shuffle.engine.state import GameState  # noqa: E402
from forest_shuffle.games import game_ids  # noqa: E402
from forest_shuffle.rl.resample import resample  # noqa: E402

Out = tuple[set[int], dict[int, int]]  # cards seen going into the box; into cave q


def _passages(before: GameState, after: GameState, action: int) -> Out:
    """The cards that went face up into the box and under a cave during one action: into
    the box from the deck, the clearing or as the payment just made (a mulligan boxes a
    hand, unseen); under a cave from the clearing, the deck through the clearing (no game
    of the base family puts deck cards into a cave face down), or as the payment just
    made."""
    paid = {osg.id_to_action(action).card} if before.decision == "pay" else set()
    in_hands = set().union(*map(set, before.hands))
    box = {c for c in set(after.box) - set(before.box) if c not in in_hands or c in paid}
    from_deck = set(before.deck) if before.game.state_class is None else set()
    cave: dict[int, int] = {}
    for q, (old, new) in enumerate(zip(before.caves, after.caves, strict=True)):
        for c in set(new) - set(old):
            if c in before.clearing or c in from_deck or c in paid:
                cave[c] = q
    return box, cave


def _games(gid: str, n: int,
           seed: int) -> Iterator[tuple[pyspiel.State, GameState, Out, Out]]:
    """A random game's positions, each with the one before the last action and the cards
    seen going into the box and caves in that action and since the deal."""
    game = pyspiel.load_game(osg.SHORT_NAME, {"players": n, "game": gid})
    rng = random.Random(seed)
    s = game.new_initial_state()
    while s.is_chance_node():
        s.apply_action(rng.randrange(256))
    box: set[int] = set()
    cave: dict[int, int] = {}
    while not s.is_terminal():
        before = s.game_state.clone()
        action = rng.choice(s.legal_actions())
        s.apply_action(action)
        last = _passages(before, s.game_state, action)
        box |= last[0]
        cave.update(last[1])
        yield s, before, last, (set(box), dict(cave))


def passages(gid: str, n: int, want: str, count: int,
             unseen: bool = True) -> list[tuple[pyspiel.State, Out, set[int]]]:
    """Positions (copies) right after an action that put cards into the ``want`` place
    (``box`` or ``cave``), cards no view showed if ``unseen``, with everything seen going
    out so far and those cards."""
    found = []
    for seed in range(200):
        for s, before, last, out in _games(gid, n, seed):
            if s.is_terminal():
                break
            gone = last[0] if want == "box" else set(last[1])
            cards = gone - set(before.clearing) if unseen else gone  # no view: not there
            if cards:
                found.append((s.clone(), out, cards))
                break
        if len(found) == count:
            return found
    raise AssertionError(f"no {want} passage in {gid} with {n} players")


def _kept(sample: GameState, out: Out) -> bool:
    box, cave = out
    return box <= set(sample.box) and all(c in sample.caves[q] for c, q in cave.items())


@pytest.mark.parametrize(("gid", "n"), [("base", 2), ("base+alpine", 3)])
def test_a_tree_that_fills_the_clearing_boxes_its_card_for_good(gid: str, n: int) -> None:
    """The deck's top card a tree turns into a clearing of 9 goes to the box in the same
    action: every seat remembers it there and every resampled deal keeps it there."""
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    rng = random.Random(7)
    for s, out, unseen in passages(gid, n, "box", 3):
        gs = s.game_state
        for p in range(n):
            memory = s.memory(p)
            assert all(memory.get(c) == ("box",) for c in unseen | out[0]), (p, unseen)
            for _ in range(15):
                r = s.resample_from_infostate(p, sampler)
                check_state(r.game_state)
                assert _kept(r.game_state, out)
                assert r.information_state_string(p) == s.information_state_string(p)
                assert _kept(resample(gs, p, {}, rng, s.mulligans), out)


@pytest.mark.parametrize("gid", ["base", "base+alpine+woodland_edge", "dartmoor"])
def test_clearing_cards_put_under_a_cave_stay_there(gid: str) -> None:
    """Clearing cards put under a cave (Brown Bear, a chosen clearing card) are remembered
    there by every seat and stay there in every sample. (In the games as they are, such
    a card always lay in the clearing of a view first: an effect that moves the clearing
    is offered as a decision.)"""
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for s, out, cards in passages(gid, 2, "cave", 2, unseen=False):
        for p in range(2):
            memory = s.memory(p)
            mine = s.game_state.caves[p]  # the own cave is in sight: nothing to remember
            assert all(c in mine if q == p else memory.get(c) == ("cave", q)
                       for c, q in out[1].items())
            assert cards <= set(out[1])
            for _ in range(15):
                assert _kept(s.resample_from_infostate(p, sampler).game_state, out)


@pytest.mark.parametrize("gid", game_ids())
def test_random_games_keep_every_card_seen_going_out(gid: str) -> None:
    """Random games of every registered game: at positions along the way every seat's
    resampled deal keeps each card seen going into the box or a cave (and Dartmoor's
    discard pile) where it went; the engine's public record holds each of them."""
    rng = random.Random(3)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    checked = 0
    went = 0
    for seed, n in ((1, 2), (2, 3), (3, 4)):
        for s, _before, _last, out in _games(gid, n, seed):
            gs = s.game_state
            public = out[0] or out[1] or getattr(gs, "discard", ())
            if s.is_terminal() or not public or rng.random() > 0.15:
                continue
            went += bool(out[0])
            for p in range(n):
                for _ in range(2):
                    sample = s.resample_from_infostate(p, sampler).game_state
                    assert _kept(sample, out)
                    assert getattr(sample, "discard", []) == getattr(gs, "discard", [])
                    checked += 1
            assert out[0] <= set(gs.box_seen)
            assert all(c in gs.caves_seen[q] for c, q in out[1].items())
    assert checked > 20
    assert went or gid == "dartmoor"  # Dartmoor clears to its discard pile
