"""The engine's fast paths change no game: random games replay exactly as before.

``tests/data/engine_fingerprints.json`` holds, for every registered game (the Dartmoor
solo challenges included) and player count, a short sha256 of each random game's action
texts and final ``to_dict`` for a range of seeds, written once from the engine before the
fast paths (``PYTHONPATH=OLD/src python tests/test_engine_fast_paths.py --write``). The
test plays the same games with this engine and compares. The entries of the games with
Exploration were added when their ids were registered (issue 39), from the engine of that
day: for them a guard against change. It also checks what the
incremental state must keep: clone, save and load, views, the unchecked rollout ``apply``
and the specific errors of illegal actions.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from forest_shuffle.engine.actions import Action, IllegalActionError, make_action
from forest_shuffle.engine.game import game_by_id
from forest_shuffle.engine.state import GameState
from forest_shuffle.formats.records import random_game
from forest_shuffle.games import game_ids

DATA = Path(__file__).parent / "data" / "engine_fingerprints.json"
#: Seeds per game and player count (fewer for each of the 15 solo challenges).
SEEDS = 200
SOLO_SEEDS = 30


#: Save fields written after the fingerprints, left out of them: the public record of the
#: cards seen going into the box or a cave, which changes no play (its own tests check it).
LATER_FIELDS = ("box_seen", "caves_seen")


def fingerprint(state: GameState) -> str:
    """12 hex digits of sha256 over the action texts and the final state's JSON (but
    :data:`LATER_FIELDS`)."""
    data = {k: v for k, v in state.to_dict().items() if k not in LATER_FIELDS}
    h = hashlib.sha256()
    h.update("\n".join(str(a) for a in state.history).encode())
    h.update(b"\0")
    h.update(json.dumps(data, sort_keys=True, separators=(",", ":")).encode())
    return h.hexdigest()[:12]


def cases() -> list[tuple[str, int, int]]:
    """(game id, players, seeds) of every fingerprinted combination."""
    out: list[tuple[str, int, int]] = []
    for gid in game_ids(unlisted=True):
        players = game_by_id(gid).players
        for n in players:
            out.append((gid, n, SOLO_SEEDS if players == (1,) else SEEDS))
    return out


def fingerprints(gid: str, n: int, seeds: int) -> list[str]:
    return [fingerprint(random_game(n, seed, game=gid)) for seed in range(seeds)]


def _stored() -> dict[str, list[str]]:
    data: dict[str, list[str]] = json.loads(DATA.read_text())["games"]
    return data


@pytest.mark.parametrize(("gid", "n", "seeds"), cases())
def test_random_games_as_before(gid: str, n: int, seeds: int) -> None:
    want = _stored()[f"{gid} {n}"]
    assert len(want) == seeds
    got = fingerprints(gid, n, seeds)
    bad = [seed for seed in range(seeds) if got[seed] != want[seed]]
    assert not bad, f"{gid}, {n} players: seeds {bad[:10]} play differently"


@pytest.mark.parametrize("gid", [*game_ids(), "dartmoor-solo-7"])
def test_rollout_path_is_the_checked_path(gid: str) -> None:
    """random_game (unchecked apply, rng.choice written out) plays exactly what the checked
    apply with ``random.Random(seed).choice`` plays, and the forests' indexes are what a
    rebuild from their hosts gives."""
    n = 1 if gid.startswith("dartmoor-solo") else 3
    for seed in range(4):
        fast = random_game(n, seed, game=gid)
        s = GameState.new(n, seed, game=gid)
        rng = random.Random(seed)
        while not s.over:
            s.apply(rng.choice(s.legal_actions()))
        assert fast.history == s.history
        assert fast.to_dict() == s.to_dict()
        for f in fast.forests:
            counts, free = dict(f.species_counts), {k: v[:] for k, v in f.free_slots.items()}
            f.reindex()
            assert (counts, free) == (f.species_counts, f.free_slots)


def _walk(gid: str, n: int, seed: int) -> list[GameState]:
    """Every state of one random game (clones, in order)."""
    s = GameState.new(n, seed, game=gid)
    rng = random.Random(seed)
    out = [s.clone()]
    while not s.over:
        s.apply(rng.choice(s.legal_actions()))
        out.append(s.clone())
    return out


@pytest.mark.parametrize("gid", game_ids())
def test_incremental_state_survives_clone_save_and_view(gid: str) -> None:
    """From any state, a clone, a reloaded save and a sampled state play on as the state
    does (their legal actions agree at every step)."""
    for seed in range(3):
        states = _walk(gid, 2, seed)
        for k, s in enumerate(states[::9]):
            loaded = GameState.from_dict(json.loads(json.dumps(s.to_dict())))
            twins = [s.clone(), loaded]
            rng = random.Random(k)
            a = s.clone()
            while not a.over:
                legal = a.legal_actions()
                for t in twins:
                    assert t.legal_actions() == legal, (gid, seed, k)
                act = rng.choice(legal)
                a.apply(act)
                for t in twins:
                    t.apply(act)
            for t in twins:
                assert t.to_dict() == a.to_dict()


@pytest.mark.parametrize("gid", game_ids())
def test_illegal_actions_raise_and_change_nothing(gid: str) -> None:
    """Off-list actions raise IllegalActionError with a reason and leave the state as it
    was (after the cached legal list was built)."""
    rng = random.Random(5)
    s = GameState.new(2, 5, game=gid)
    probes = [Action("play", c, side, t) for c in (1, 40, 90) for side in ("", "left", "top")
              for t in (-1, 0, 3)] + [Action("draw"), Action("take", 200), Action("yes"),
                                      Action("done"), Action("pay", 7)]
    while not s.over:
        legal = s.legal_actions()
        before = s.to_dict()
        for a in probes:
            if a in legal:
                continue
            with pytest.raises(IllegalActionError) as err:
                s.apply(a)
            assert err.value.reason
            assert s.to_dict() == before
        s.apply(rng.choice(legal))


def main(argv: list[str]) -> None:
    """``--write``: store the fingerprints of the engine on the path (the old one)."""
    if argv != ["--write"]:
        raise SystemExit("usage: PYTHONPATH=OLD/src python tests/test_engine_fast_paths.py "
                         "--write")
    games: dict[str, Any] = {}
    for gid, n, seeds in cases():
        games[f"{gid} {n}"] = fingerprints(gid, n, seeds)
        print(gid, n, file=sys.stderr)
    DATA.write_text(json.dumps({"about": "tests/test_engine_fast_paths.py", "games": games},
                               indent=0) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])


@pytest.mark.parametrize("gid", game_ids())
def test_what_if_placements_restore_the_indexes(gid: str) -> None:
    """``remove_last_host`` and ``remove_top_dweller`` (the bots' what-if) undo
    ``add_host`` and ``add_dweller`` exactly: counts (with their order), free slots, hosts."""
    from forest_shuffle.cards.forest import Dweller

    checked = 0
    for seed in range(6):
        state = random_game(3, seed, game=gid)
        for forest in state.forests:
            if not forest.trees:
                continue
            before = (list(forest.species_counts.items()),
                      {k: v[:] for k, v in forest.free_slots.items()}, repr(forest.trees))
            host = forest.trees[-1].copy()
            forest.add_host(host)
            forest.remove_last_host()
            d: Dweller | None = None
            for t in forest.trees:
                for stack in t.slots.values():
                    if stack:
                        d = stack[-1]
            assert d is not None
            for side, free in list(forest.free_slots.items()):
                for tree in (free[:1] + [i for i, t in enumerate(forest.trees)
                                        if t.slots[side]][:1]):
                    forest.add_dweller(tree, side, d)
                    forest.remove_top_dweller(tree, side)
                    checked += 1
            after = (list(forest.species_counts.items()),
                     {k: v[:] for k, v in forest.free_slots.items()}, repr(forest.trees))
            assert after == before
            fresh = forest.copy()
            fresh.reindex()
            assert fresh.species_counts == forest.species_counts
            assert fresh.free_slots == forest.free_slots
    assert checked > 0


def test_make_action_is_the_named_tuple_and_the_tables_hold_such_actions() -> None:
    for args in [("play", 12, "top", 3), ("take", 5, "", -1), ("draw", 0, "", -1)]:
        a = make_action(*args)
        assert type(a) is Action and a == Action(*args) and str(a) == str(Action(*args))
        assert a.kind == args[0] and a.card == args[1] and a.side == args[2] and a.tree == args[3]
    assert make_action("draw") == Action("draw")
    g = game_by_id("base")
    assert all(type(a) is Action for a in g.a_take[1:] + g.a_pay[1:] + g.a_tree[1:])
    acts = g.half_actions(next(c.id for c in g.cards if c is not None and c.halves),
                          "top", 3)
    assert [(a.kind, a.tree) for a in acts[:3]] == [("play", 0), ("play", 1), ("play", 2)]
