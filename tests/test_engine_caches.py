"""What the engine keeps from one decision to the next stays what a fresh count gives.

The engine skips refreshing a player's active mushrooms at the start of a turn when the
forest has not changed since it last copied them (``Forest.version``, ``Forest.synced``,
``Forest.synced_to``), and turns a turn's record into the second draw's. These tests play
mixed random games of every registered game and player count (clones, reloaded saves,
bots' what-ifs and replaced ``active`` dicts in between) and compare, at every decision,
with a recount from the hosts and with a freshly made record.
"""

from __future__ import annotations

import json
import random

import pytest

from forest_shuffle.cards.forest import Dweller, Forest, Host
from forest_shuffle.engine.game import game_by_id
from forest_shuffle.engine.state import D_DRAW, D_TURN, GameState, Pending
from forest_shuffle.games import game_ids


def _recount(state: GameState, p: int) -> dict[str, int]:
    """p's cards of each mushroom species, counted from the hosts and slots."""
    counts = dict.fromkeys(state.game.mushrooms, 0)
    for t in state.forests[p].trees:
        if t.species is not None and t.species.name in counts:
            counts[t.species.name] += 1
        for stack in t.slots.values():
            for d in stack:
                if d.species.name in counts:
                    counts[d.species.name] += 1
    return counts


def _cases() -> list[tuple[str, int]]:
    return [(gid, n) for gid in [*game_ids(), "dartmoor-solo-7"]
            for n in game_by_id(gid).players if n <= 4]


def _stir(state: GameState, rng: random.Random) -> GameState:
    """Now and then, what other code does to a state between decisions: clone it, save and
    load it, try a card in a forest and take it back (greedy's what-if), rebuild a
    forest's indexes, or give a seat that is not to move a new ``active`` dict of zeros
    (rl.resample's sampled states)."""
    roll = rng.random()
    if roll < 0.05:
        return state.clone()
    if roll < 0.08:
        return GameState.from_dict(json.loads(json.dumps(state.to_dict())))
    p = rng.randrange(state.num_players)
    forest = state.forests[p]
    if roll < 0.14 and forest.trees:
        forest.add_host(forest.trees[-1].copy())
        forest.remove_last_host()
    elif roll < 0.18:
        forest.reindex()
    elif roll < 0.22 and p != state.current:
        state.active[p] = dict.fromkeys(state.game.mushrooms, 0)
    return state


@pytest.mark.parametrize(("gid", "n"), _cases())
def test_active_mushrooms_and_draw_records_match_a_fresh_count(gid: str, n: int) -> None:
    checked = 0
    for seed in range(4):
        rng = random.Random(seed)
        s = GameState.new(n, seed, game=gid)
        while not s.over:
            pend = s.stack[-1]
            if pend.kind == D_TURN and not s.queue:
                # A turn's first decision: the counts are those of the forest now.
                assert s.active[pend.player] == _recount(s, pend.player), (gid, n, seed)
                checked += 1
            if pend.kind == D_DRAW:
                assert pend.to_dict() == Pending(D_DRAW, pend.player).to_dict()
            s.apply(rng.choice(s.legal_actions()))
            if not s.over:
                s = _stir(s, rng)
    assert checked > 0


@pytest.mark.parametrize(("gid", "n"), _cases())
def test_a_forest_synced_to_active_counts_notes_whether_any_is_active(gid: str, n: int) -> None:
    # _place reads Forest.synced_any instead of the counts while the forest is synced to
    # them: it must say whether any mushroom is active, after clones, loads and what-ifs.
    checked = 0
    for seed in range(4):
        rng = random.Random(seed)
        s = GameState.new(n, seed, game=gid)
        while not s.over:
            for p, forest in enumerate(s.forests):
                if forest.synced_to is s.active[p]:
                    assert forest.synced_any == any(s.active[p].values()), (gid, n, seed)
                    checked += 1
            s.apply(rng.choice(s.legal_actions()))
            if not s.over:
                s = _stir(s, rng)
    assert checked > 0 or not game_by_id(gid).mushrooms

def test_forest_version_counts_every_change_and_copies_start_unsynced() -> None:
    g = game_by_id("base")
    card = next(c for c in g.cards if c is not None and c.species is not None)
    split = next(c for c in g.cards if c is not None and c.halves)
    side = next(iter(split.halves))
    f = Forest()
    seen = [f.version]
    f.add_host(Host(card.species, card.id, kind=card.kind, symbol=card.symbol))
    seen.append(f.version)
    f.add_dweller(0, side, Dweller.of_card(split, side))
    seen.append(f.version)
    f.remove_top_dweller(0, side)
    seen.append(f.version)
    f.remove_last_host()
    seen.append(f.version)
    f.reindex()
    seen.append(f.version)
    assert len(set(seen)) == len(seen)
    f.synced, f.synced_to, f.synced_any = f.version, {}, True
    twin = f.copy()
    assert (twin.synced, twin.synced_to, twin.synced_any) == (-1, None, False)
    assert twin == f  # the marks take no part in equality


@pytest.mark.parametrize("gid", game_ids(unlisted=True))
def test_winter_cards_are_the_catalogs_winter_cards(gid: str) -> None:
    g = game_by_id(gid)
    assert g.winter_cards == {c.id for c in g.cards if c is not None and c.kind == "winter"}
