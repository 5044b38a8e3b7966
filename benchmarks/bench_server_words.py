"""The cost of the server's words in each language (docs/i18n.md, "The server's words").

Positions of random 3-player games of ``--game`` (each seat to move, every decision kind
that comes up) are put into the words a payload carries for its viewer: the prompt
(``ask_words``), its detail (``detail_words``), the pay facts' words, the pick words and
the turn label, in each language. Each round says every position once; medians with min
and max per round, in milliseconds, and the machine's load. ``card_catalog`` (the
``GET /api/cards`` answer, built once per game and language by the server) is timed too.

Usage: ``python benchmarks/bench_server_words.py [--rounds 30] [--positions 400]
[--game base] [--langs en,fr,de,zh]``
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from forest_shuffle.engine.picks import pick_shape
from forest_shuffle.engine.state import GameState
from forest_shuffle.engine.view import PlayerView
from forest_shuffle.server.payloads import card_catalog
from forest_shuffle.text.narration import (
    ask_words,
    detail_words,
    pay_facts,
    pick_confirm_words,
    pick_words,
    turn_label,
)


def positions(game: str, count: int, seed: int = 7) -> list[tuple[PlayerView, int]]:
    """``count`` views of the seat to move (with the table's turn), from random games."""
    out: list[tuple[PlayerView, int]] = []
    rng = random.Random(seed)
    while len(out) < count:
        state = GameState.new(3, seed=rng.randrange(10**9), game=game)
        while not state.over and len(out) < count:
            out.append((state.view(state.to_move), state.turn))
            state.apply(rng.choice(state.legal_actions()))
    return out


def say_all(views: list[tuple[PlayerView, int]], lang: str) -> int:
    """Every word a payload carries for each view; the characters said."""
    said = 0
    for view, turn in views:
        said += len(ask_words(view, lang)) + len(detail_words(view, lang) or "")
        facts = pay_facts(view, lang)
        said += len(facts.words) if facts is not None else 0
        shape = pick_shape(view)
        if shape is not None:
            said += len(pick_words(shape, lang)) + len(pick_confirm_words(shape, lang))
        said += len(turn_label(turn, "you", lang))
    return said


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=30)
    ap.add_argument("--positions", type=int, default=400)
    ap.add_argument("--game", default="base")
    ap.add_argument("--langs", default="en,fr,de,zh")
    args = ap.parse_args()
    langs = args.langs.split(",")
    views = positions(args.game, args.positions)
    for lang in langs:  # warm: catalogs read once per process
        say_all(views[:10], lang)
    times: dict[str, list[float]] = {lang: [] for lang in langs}
    cats: dict[str, list[float]] = {lang: [] for lang in langs}
    for _ in range(args.rounds):
        for lang in langs:  # interleaved, so the machine's load falls on all alike
            start = time.perf_counter()
            say_all(views, lang)
            times[lang].append((time.perf_counter() - start) * 1000)
            start = time.perf_counter()
            card_catalog(args.game, lang)
            cats[lang].append((time.perf_counter() - start) * 1000)
    print(f"{args.game}: {len(views)} positions, {args.rounds} rounds, load average "
          f"{os.getloadavg()[0]:.1f}")
    print("language  words of every position, ms    card_catalog, ms (median [min, max])")
    for lang in langs:
        t, c = times[lang], cats[lang]
        print(f"{lang:8}  {statistics.median(t):8.1f} [{min(t):.1f}, {max(t):.1f}]"
              f"{statistics.median(c):14.1f} [{min(c):.1f}, {max(c):.1f}]")


if __name__ == "__main__":
    main()
