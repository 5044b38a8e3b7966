"""How many resampled deals put back a card everyone saw go into the box or a cave.

Plays random games (uniformly random legal actions) through the OpenSpiel game. After each
action it works out, from the states before and after (not from the engine's record), the
cards that went face up into the box (from the deck or the clearing, or a payment just
made; a mulligan boxes a hand unseen) and under a cave (from the clearing or as a payment).
At a share ``--rate`` of the positions where such cards exist it draws one
``resample_from_infostate`` per seat and one search-bot determinization
(``Determinizer(view).sample``) for the seat to move, and counts the samples that put one
of those cards anywhere else. Run it on another source tree with ``PYTHONPATH=OLD/src`` to
compare; it only reads the engine state's ``box``, ``caves``, ``deck``, ``clearing`` and
``hands``, so it runs on trees from before the record too.

Usage: ``python benchmarks/seen_out_check.py [--game base] [--players 2] [--seeds 20]
[--rate 0.1]`` (needs the ``rl`` extra: pyspiel).
"""

from __future__ import annotations

import argparse
import random
from typing import Any

import pyspiel

import forest_shuffle.rl.openspiel_game as osg
from forest_shuffle.bots.determinize import Determinizer
from forest_shuffle.engine.state import GameState


def passages(before: GameState, after: GameState, action: int) -> tuple[set[int], dict[int, int]]:
    """Cards that went face up into the box, and under cave q, during one action."""
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


def moved(sample: GameState, box: set[int], cave: dict[int, int]) -> bool:
    """Does ``sample`` put a card of ``box`` or ``cave`` anywhere else?"""
    return not (box <= set(sample.box) and all(x in sample.caves[q] for x, q in cave.items()))


def run(gid: str, n: int, seeds: int, rate: float) -> dict[str, Any]:
    game = pyspiel.load_game(osg.SHORT_NAME, {"players": n, "game": gid})
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    out = {"rl samples": 0, "rl moved": 0, "bot samples": 0, "bot moved": 0, "unseen": 0}
    for seed in range(seeds):
        rng = random.Random(seed)  # the game's actions: the same games in every tree
        pick = random.Random(-1 - seed)  # the positions sampled
        draws = random.Random(-(10**6) - seed)  # the bots' samples
        s = game.new_initial_state()
        while s.is_chance_node():
            s.apply_action(rng.randrange(256))
        box: set[int] = set()
        cave: dict[int, int] = {}
        while not s.is_terminal():
            before = s.game_state.clone()
            action = rng.choice(s.legal_actions())
            s.apply_action(action)
            gs = s.game_state
            b, c = passages(before, gs, action)
            out["unseen"] += len((b | set(c)) - set(before.clearing))
            box |= b
            cave.update(c)
            if s.is_terminal() or not (box or cave) or pick.random() > rate:
                continue
            for p in range(n):
                out["rl samples"] += 1
                sample = s.resample_from_infostate(p, sampler).game_state
                out["rl moved"] += moved(sample, box, cave)
            mover = gs.to_move
            assert mover is not None
            out["bot samples"] += 1
            out["bot moved"] += moved(Determinizer(gs.view(mover)).sample(draws), box, cave)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="base")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seeds", type=int, default=20, help="random games")
    parser.add_argument("--rate", type=float, default=0.1, help="share of positions sampled")
    args = parser.parse_args()
    figures = run(args.game, args.players, args.seeds, args.rate)
    print(f"{args.game}, {args.players} players, {args.seeds} random games: "
          f"{figures['unseen']} cards went out face up unseen by any view; "
          f"rl resample moved a seen card in {figures['rl moved']} of "
          f"{figures['rl samples']} samples, the bots' determinization in "
          f"{figures['bot moved']} of {figures['bot samples']}")


if __name__ == "__main__":
    main()
