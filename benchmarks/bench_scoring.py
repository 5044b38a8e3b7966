"""Throughput of the scorer on realistic end-of-game tables.

Builds random legal tables (each forest about 8 trees or saplings and about 20 dwellers,
dealt from one shuffled deck so no card is used twice) and reports tables per second for
:func:`forest_shuffle.scoring.totals` and :func:`forest_shuffle.scoring.score_table`.

Usage: ``python benchmarks/bench_scoring.py [--players 2] [--tables 2000] [--seed 1]``
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Sequence

from forest_shuffle.cards import Catalog, Dweller, Forest
from forest_shuffle.cards.forest import host_of_card
from forest_shuffle.games import make_game
from forest_shuffle.scoring import score_table, totals


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


def rate(fn: Callable[[Sequence[Forest]], object], tables: list[list[Forest]]) -> float:
    """Tables per second, best of three runs."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for table in tables:
            fn(table)
        best = min(best, time.perf_counter() - start)
    return len(tables) / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--tables", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", default="base", help="a game id (base, base+alpine, ...)")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    catalog = make_game(args.game).catalog
    tables = [random_table(catalog, rng, args.players) for _ in range(args.tables)]
    for table in tables:  # both paths must agree before we time them
        assert totals(table) == [s.total for s in score_table(table)]
    sizes = [(len(f.trees), sum(len(s) for t in f.trees for s in t.slots.values()))
             for t_ in tables for f in t_]
    avg_trees = sum(a for a, _ in sizes) / len(sizes)
    avg_dwellers = sum(b for _, b in sizes) / len(sizes)
    print(f"{args.tables} tables of {args.players} players, "
          f"{avg_trees:.1f} trees and {avg_dwellers:.1f} dwellers per forest on average")
    print(f"totals:      {rate(totals, tables):10,.0f} tables/s")
    print(f"score_table: {rate(score_table, tables):10,.0f} tables/s")


if __name__ == "__main__":
    main()
