"""Throughput of the scorer on named 2-player end-of-game tables, this tree beside others.

Three sets of tables: the end tables of greedy self-play (base game), of random play, and
generated ones (:func:`random_table`: about 8 trees or saplings and 20 dwellers a forest,
dealt from one shuffled deck), scored by the game's definition. Paths: ``totals`` (fast
totals), ``score_table`` (totals and lines; the per-card reasons wait until read) and
``score_table+cards`` (every card's reason read). Each tree is timed in its own interpreter
(tables rebuilt there from card ids), the trees in interleaved rounds; medians with min and
max of tables per second, the load stated.

``--compiled PYTHON`` times an interpreter with the compiled build installed (docs/speed.md)
in the same rounds.

Usage: ``python benchmarks/bench_scoring.py [--against /tmp/head/src] [--against
/tmp/old/src] [--compiled /tmp/venv-compiled/bin/python] [--rounds 5] [--game base]``
(a tree of the older layout, with ``forest_shuffle.scoring`` and ``forest_shuffle.forest``,
plays the base game only).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from forest_shuffle.bots.registry import make_bot
from forest_shuffle.cards import Catalog, Dweller, Forest
from forest_shuffle.cards.forest import host_of_card
from forest_shuffle.engine import GameState
from forest_shuffle.formats.records import random_game
from forest_shuffle.games import make_game


def random_table(catalog: Catalog, rng: random.Random, players: int, trees: int = 8,
                 dwellers: int = 20) -> list[Forest]:
    """A table of random legal forests dealt from one shuffled deck of ``catalog``."""
    deck = [c for c in catalog.cards if c is not None and not c.is_winter]
    rng.shuffle(deck)
    tree_cards = [c for c in deck if c.is_tree]
    split_cards = [c for c in deck if c.kind == "split"]
    forests: list[Forest] = []
    for _ in range(players):
        forest = Forest(cave=rng.randint(0, 12))
        for _ in range(max(1, trees + rng.randint(-2, 2))):
            if rng.random() < 0.1 and split_cards:
                card = split_cards.pop()
                forest.trees.append(host_of_card(catalog, card.id, sapling=True))
            else:
                card = tree_cards.pop()
                forest.trees.append(host_of_card(catalog, card.id))
        placed = 0
        target = dwellers + rng.randint(-4, 4)
        while placed < target and split_cards:
            card = split_cards.pop()
            side = rng.choice(list(card.halves))
            half = card.halves[side]
            spots = [t for t in forest.trees if t.accepts(half.species, side)]
            if not spots:
                continue
            rng.choice(spots).slots[side].append(Dweller.of_card(card, side))
            placed += 1
        forests.append(forest)
    return forests


def table_sets(game: str, greedy: int, games: int, made: int,
               seed: int) -> dict[str, list[list[Forest]]]:
    """The named 2-player tables: end tables of greedy self-play (base game), of random
    play, and generated ones (:func:`random_table`)."""
    gdef = make_game(game)
    out: dict[str, list[list[Forest]]] = {}
    if greedy and game == "base":
        out["greedy self-play ends"] = [_greedy_end(seed + s) for s in range(greedy)]
    out["random-play ends"] = [random_game(2, 10_000 + seed + s, game=game).forests
                               for s in range(games)]
    rng = random.Random(seed)
    out["generated"] = [random_table(gdef.catalog, rng, 2) for _ in range(made)]
    return out


def _greedy_end(seed: int) -> list[Forest]:
    state = GameState.new(2, seed)
    bots = [make_bot("greedy", seed * 10 + i) for i in range(2)]
    while not state.over:
        seat = state.to_move
        assert seat is not None
        state.apply(bots[seat].choose(state.view(seat)))
    return state.forests


def spec_of(forest: Forest) -> dict[str, Any]:
    """A forest as card ids (every tree builds it again from its own catalog)."""
    hosts = []
    for t in forest.trees:
        if t.card is None or any(d.card is None for s in t.slots.values() for d in s):
            raise ValueError("a benchmark table needs the card id of every card")
        hosts.append([t.card, t.species is None,
                      {side: [d.card for d in stack] for side, stack in t.slots.items()}])
    return {"cave": forest.cave, "hosts": hosts}


def shape(tables: list[list[Forest]]) -> str:
    forests = [f for t in tables for f in t]
    hosts = sum(len(f.trees) for f in forests) / len(forests)
    dwellers = sum(len(s) for f in forests for t in f.trees for s in t.slots.values())
    return f"{len(tables)} tables, {hosts:.1f} hosts and {dwellers / len(forests):.1f} " \
           "dwellers a forest"


#: Run in a subprocess with PYTHONPATH set to a source tree: rebuilds the tables from card
#: ids with that tree's own model (today's layout, or the older one of forest_shuffle.forest
#: and forest_shuffle.scoring), then times each path in CPU time.
PROBE = r"""
import json, sys, time
spec = json.load(open(sys.argv[1]))
game, reps = spec["game"], spec["reps"]
try:
    from forest_shuffle.cards import Dweller, Forest
    from forest_shuffle.cards.forest import host_of_card
    from forest_shuffle.games import make_game
    g = make_game(game)
    catalog = g.catalog
    host = lambda cid, sap: host_of_card(catalog, cid, sapling=sap)
    # the game's own scorer (a definition's since issue 39; the module's before)
    totals, score_table = g.totals_fn(), g.score_table
except ImportError:  # the older layout (one game only)
    from forest_shuffle.cards import CATALOG as catalog
    from forest_shuffle.forest import Dweller, Forest, tree_site_of_card as host
    from forest_shuffle.scoring import score_table, totals
def forest(f):
    out = Forest(cave=f["cave"])
    for cid, sap, slots in f["hosts"]:
        h = host(cid, sap)
        for side, ids in slots.items():
            h.slots[side].extend(Dweller.of_card(catalog.card(c), side) for c in ids)
        out.trees.append(h)
    return out
def explained(t):
    for s in score_table(t):
        s.cards
paths = {"totals": totals, "score_table": score_table, "score_table+cards": explained}
out = {}
for name, raw in spec["sets"].items():
    tables = [[forest(f) for f in t] for t in raw]
    for path, fn in paths.items():
        for t in tables:
            fn(t)
        start = time.process_time()
        for _ in range(reps):
            for t in tables:
                fn(t)
        out[name + " | " + path] = reps * len(tables) / (time.process_time() - start)
print(json.dumps(out))
"""


def probe(src: str | None, spec_file: str, python: str = sys.executable) -> dict[str, float]:
    """Tables per second of every set and path in the tree ``src`` (a fresh interpreter),
    or in the install of ``python`` when ``src`` is None."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if src is not None:
        env["PYTHONPATH"] = src
    done = subprocess.run([python, "-c", PROBE, spec_file], env=env, cwd="/",
                          capture_output=True, text=True, check=False)
    if done.returncode:
        raise SystemExit(f"probe of {src} failed: {done.stderr.strip().splitlines()[-1:]}")
    return dict(json.loads(done.stdout))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("--game", default="base", help="a game id (base, base+alpine, ...)")
    parser.add_argument("--greedy", type=int, default=10, help="greedy self-play games (base)")
    parser.add_argument("--games", type=int, default=200, help="random-play games")
    parser.add_argument("--tables", type=int, default=200, help="generated tables")
    parser.add_argument("--reps", type=int, default=3, help="passes over each set a round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--against", action="append", default=[], metavar="SRC",
                        help="another source tree to time in the same rounds (repeatable)")
    parser.add_argument("--compiled", default=None, metavar="PYTHON",
                        help="an interpreter with the compiled build, timed in the same rounds")
    args = parser.parse_args()
    sets = table_sets(args.game, args.greedy, args.games, args.tables, args.seed)
    game = make_game(args.game)
    for tables in sets.values():  # both paths must agree before we time them
        for table in tables:
            assert game.totals(table) == [s.total for s in game.score_table(table)]
    here = str(Path(__file__).resolve().parent.parent / "src")
    trees: list[tuple[str, str | None]] = [("this tree", here)]
    trees += [(src, src) for src in args.against]
    if args.compiled:
        trees.append(("compiled", None))
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
        json.dump({"game": args.game, "reps": args.reps,
                   "sets": {k: [[spec_of(f) for f in t] for t in v] for k, v in sets.items()}},
                  fh)
    got: dict[str, list[dict[str, float]]] = {name: [] for name, _src in trees}
    load = [os.getloadavg()[0]]
    try:
        for _ in range(args.rounds):
            for name, src in trees:
                got[name].append(probe(src, fh.name, args.compiled if src is None
                                       else sys.executable))
            load.append(os.getloadavg()[0])
    finally:
        os.unlink(fh.name)
    print(f"game {args.game}, 2 players; {args.rounds} interleaved rounds of {args.reps} passes; "
          f"tables/s in CPU time (process_time); load average {min(load):.2f}-{max(load):.2f} "
          f"on {os.cpu_count()} cores")
    for set_name, tables in sets.items():
        print(f"{set_name}: {shape(tables)}")
        for key in [k for k in got[trees[0][0]][0] if k.startswith(set_name + " | ")]:
            base = statistics.median(r[key] for r in got[trees[0][0]])
            for name, _src in trees:
                v = [r[key] for r in got[name] if key in r]
                if not v:
                    continue
                med = statistics.median(v)
                print(f"  {key.split(' | ')[1]:18} {name:16} median {med:9,.0f}  "
                      f"min {min(v):9,.0f}  max {max(v):9,.0f}  this tree / it: {base / med:5.2f}")


if __name__ == "__main__":
    main()
