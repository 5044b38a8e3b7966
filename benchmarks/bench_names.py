"""Reading Forest JSON written by species names, in each of the four languages.

A 5-player table of end-of-game forests (random play of ``--game``) is written as Forest
JSON by names: each tree or shrub by its name, each dweller as ``{"species", "symbol"}``
(the symbol named too), in English, German, French and Chinese (``docs/card-names.md``).
Each round reads one document with the Forest JSON reader (``read_table``: the names looked
up, the document's language found, every check of the format); medians with min and max,
in milliseconds, and the machine's load. The English document is built without the names
module, so ``--langs en`` also runs against a tree from before the names were added.

Usage: ``python benchmarks/bench_names.py [--rounds 200] [--seed 7] [--game base]
[--langs en,de,fr,zh]``
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable
from typing import Any

from forest_shuffle.cards.model import Species
from forest_shuffle.formats.forest_json import read_table
from forest_shuffle.formats.records import random_game
from forest_shuffle.games import make_game

PLAYERS = 5


def document(game: str, seed: int, say: Callable[[Species], str]) -> dict[str, Any]:
    """The finished table of a random game, every card by its name as ``say`` gives it."""
    state = random_game(PLAYERS, seed, game=game)
    catalog = make_game(game).catalog
    players = []
    for i, forest in enumerate(state.forests):
        trees = []
        for host in forest.trees:
            entry: dict[str, Any] = ({"tree": "sapling"} if host.species is None
                                     else {"tree": say(host.species)})
            for side, stack in host.slots.items():
                if stack:
                    entry[side] = [{"species": say(d.species),
                                    "symbol": say(catalog.species[d.symbol])}
                                   if d.symbol else say(d.species) for d in stack]
            trees.append(entry)
        players.append({"name": f"Player {i + 1}", "cave": forest.cave, "trees": trees})
    return {"game": game, "players": players}


def sayer(lang: str) -> Callable[[Species], str]:
    """The name of a species in ``lang`` (English: the printed name, no names module)."""
    if lang == "en":
        return lambda sp: sp.printed
    from forest_shuffle.cards.names import printed_name

    return lambda sp: printed_name(sp, lang)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--game", default="base")
    parser.add_argument("--langs", default="en,de,fr,zh")
    args = parser.parse_args()
    for lang in args.langs.split(","):
        doc = document(args.game, args.seed, sayer(lang))
        read_table(doc)  # warm: catalogs, indexes
        times = []
        for _ in range(args.rounds):
            start = time.perf_counter()
            read_table(doc)
            times.append((time.perf_counter() - start) * 1000)
        print(f"{lang}: read a {PLAYERS}-player {args.game} table by names: median "
              f"{statistics.median(times):.3f} ms (min {min(times):.3f}, max {max(times):.3f})"
              f" over {args.rounds} rounds; load {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
