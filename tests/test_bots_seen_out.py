"""The search bot's determinization keeps every card everyone saw go into the box or a
cave where it went: never back in the deck or in a hand.

The engine records such cards (``GameState.box_seen``, ``caves_seen``) and every view
carries them. Where the cards went is worked out here from the states before and after each
action, not read from that record. Positions right after such turns are searched for on
purpose (a tree turns the deck's top card into a clearing of 9 and it is boxed in the same
action: no view ever showed that card); a random-games check runs every registered game."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest

from forest_shuffle.bots.determinize import Determinizer
from forest_shuffle.engine.actions import Action
from forest_shuffle.engine.check import BrokenSaveError, check_state
from forest_shuffle.engine.state import GameState
from forest_shuffle.engine.view import make_spectator_view
from forest_shuffle.games import game_ids

Out = tuple[set[int], dict[int, int]]  # cards seen going into the box; into cave q


def passages(before: GameState, after: GameState, action: Action) -> Out:
    """The cards that went face up into the box and under a cave during one action: into
    the box from anywhere but a hand (a mulligan boxes a hand, unseen) or as the payment
    just made (it may fill the clearing); under a cave from the clearing, the deck through
    the clearing (no game of the base family puts deck cards into a cave face down), or as
    the payment just made."""
    paid = {action.card} if before.decision == "pay" else set()
    in_hands = set().union(*map(set, before.hands))
    box = {c for c in set(after.box) - set(before.box) if c not in in_hands or c in paid}
    from_deck = set(before.deck) if before.game.state_class is None else set()
    cave: dict[int, int] = {}
    for q, (old, new) in enumerate(zip(before.caves, after.caves, strict=True)):
        for c in set(new) - set(old):
            if c in before.clearing or c in from_deck or c in paid:
                cave[c] = q
    return box, cave


def play(gid: str, n: int, seed: int) -> Iterator[tuple[GameState, GameState, Out, Out]]:
    """A random game: after each action the state, the one before, the cards seen going out
    in that action and since the deal."""
    s = GameState.new(n, seed, game=gid)
    rng = random.Random(seed)
    box: set[int] = set()
    cave: dict[int, int] = {}
    while not s.over:
        before = s.clone()
        action = rng.choice(s.legal_actions())
        s.apply(action)
        last = passages(before, s, action)
        box &= set(s.box)  # Exploration's Red Panda puts cards seen in the box on the deck
        box |= last[0]
        box &= set(s.box)  # Exploration's Red Panda puts cards seen going out back on the deck
        cave.update(last[1])
        yield s, before, last, (set(box), dict(cave))


def kept(sample: GameState, out: Out) -> bool:
    box, cave = out
    return box <= set(sample.box) and all(c in sample.caves[q] for c, q in cave.items())


def found(gid: str, n: int, want: str, count: int,
          unseen: bool) -> list[tuple[GameState, Out, set[int]]]:
    """Positions (copies) right after an action that put cards into ``want`` (``box`` or
    ``cave`` of a seat other than the one to move), cards no view showed if ``unseen``."""
    out = []
    for seed in range(300):
        for s, before, last, so_far in play(gid, n, seed):
            if s.over:
                break
            others = {c for c, q in last[1].items() if q != s.to_move}
            gone = last[0] if want == "box" else others
            cards = gone - set(before.clearing) if unseen else gone
            if cards:
                out.append((s.clone(), so_far, cards))
                break
        if len(out) == count:
            return out
    raise AssertionError(f"no {want} passage in {gid} with {n} players")


@pytest.mark.parametrize(("gid", "n"), [("base", 2), ("base+woodland_edge", 4)])
def test_a_card_boxed_with_the_clearing_it_filled_stays_in_the_box(gid: str, n: int) -> None:
    rng = random.Random(1)
    for s, out, cards in found(gid, n, "box", 3, unseen=True):
        assert s.to_move is not None
        view = s.view(s.to_move)
        det = Determinizer(view)
        for _ in range(20):
            sample = det.sample(rng)
            check_state(sample)
            assert kept(sample, out), sorted(cards)
        assert cards <= set(view.box_seen) and cards <= set(make_spectator_view(s).box_seen)
        assert sample.box_seen == s.box_seen


@pytest.mark.parametrize("gid", ["base", "base+alpine+woodland_edge", "dartmoor"])
def test_clearing_cards_under_another_cave_stay_there(gid: str) -> None:
    rng = random.Random(2)
    for s, out, cards in found(gid, 2, "cave", 2, unseen=False):
        assert s.to_move is not None
        q = 1 - s.to_move
        det = Determinizer(s.view(s.to_move))
        for _ in range(20):
            sample = det.sample(rng)
            check_state(sample)
            assert kept(sample, out)
            assert len(sample.caves[q]) == len(s.caves[q])
        assert cards <= set(s.view(s.to_move).caves_seen[q])


@pytest.mark.parametrize("gid", game_ids())
def test_random_games_determinize_without_moving_cards_seen_going_out(gid: str) -> None:
    """Random games of every registered game: at positions along the way the mover's
    samples keep every card seen going into the box or a cave (and Dartmoor's discard
    pile) where it went; the engine's record holds each such card, and nothing else."""
    rng = random.Random(4)
    checked = 0
    for seed, n in ((1, 2), (2, 3), (3, 5)):
        for s, _before, _last, out in play(gid, n, seed):
            public = out[0] or out[1] or getattr(s, "discard", ())
            if s.over or not public or rng.random() > 0.2:
                continue
            assert s.to_move is not None
            det = Determinizer(s.view(s.to_move))
            for _ in range(3):
                sample = det.sample(rng)
                assert kept(sample, out)
                assert getattr(sample, "discard", []) == getattr(s, "discard", [])
                checked += 1
            assert set(s.box_seen) == out[0]
            assert {c: q for q, cave in enumerate(s.caves_seen) for c in cave} == out[1]
    assert checked > 30


def _boxed_state() -> GameState:
    s, _out, _cards = found("base", 2, "box", 1, unseen=True)[0]
    return s


def test_the_record_saves_loads_and_is_checked() -> None:
    s = _boxed_state()
    data = json.loads(json.dumps(s.to_dict()))
    assert data["box_seen"] == list(s.box_seen)
    loaded = GameState.from_dict(data)
    assert loaded.box_seen == s.box_seen and loaded.caves_seen == s.caves_seen
    assert loaded.to_dict() == data
    older = {k: v for k, v in data.items() if k not in ("box_seen", "caves_seen")}
    assert GameState.from_dict(older).box_seen == ()  # a save from before: none known
    wrong = dict(data, box_seen=data["box_seen"] + [data["deck"][-1]])
    with pytest.raises(BrokenSaveError, match="is seen in the box but is not in it"):
        GameState.from_dict(wrong)
    with pytest.raises(BrokenSaveError, match="caves_seen"):
        GameState.from_dict(dict(data, caves_seen=[[]]))
    twin = s.clone()
    twin.apply(twin.legal_actions()[0])
    assert s.to_dict() == data  # a clone shares nothing that changes
