"""Where a search bot's turn budget goes: rollouts per decision kind, and greedy fall-backs.

Usage: ``python benchmarks/bench_budget.py [--bot learned:time=1.0] [--games 3]
[--turns 30] [--seed 5] [--players 2] [--json]``

The bot (any ``mcts``-family specification, seat 0) plays ``--games`` games against the
fast greedy for its first ``--turns`` turns each. For every decision it makes with more
than one legal action, the pending decision's kind (``turn``, ``draw``, ``pay``,
``option``, ``free``...) is recorded with the rollouts the search made
(``MCTSBot.last_stats``) and whether the race returned greedy's choice because it got
fewer than ``MIN_ROUNDS`` paired samples (its statistics then hold one action only, though
it had more than one distinct candidate).
Prints a table per kind: decisions, legal actions, rollouts (median, min-max) and the share
of fall-backs. The budget is in seconds, so the figures depend on the machine's load
(printed).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
from collections import defaultdict
from typing import Any

from forest_shuffle.bots import make_bot
from forest_shuffle.bots.greedy import diverse_candidates, greedy_action
from forest_shuffle.bots.mcts import MCTSBot
from forest_shuffle.engine.state import GameState


def run(spec: str, games: int, turns: int, seed: int, players: int) -> dict[str, Any]:
    """Play the games and gather, per decision kind, the legal actions, the rollouts and
    the fall-backs of seat 0."""
    load0 = os.getloadavg()[0]
    legal: dict[str, list[int]] = defaultdict(list)
    rollouts: dict[str, list[int]] = defaultdict(list)
    fallback: dict[str, int] = defaultdict(int)
    for g in range(games):
        bot = make_bot(spec, seed + g)
        if not isinstance(bot, MCTSBot):
            raise SystemExit(f"{spec} is not a search bot")
        state = GameState.new(players, seed + g)
        own_turns = 0
        while not state.over and own_turns < turns:
            pend = state.stack[-1]
            if pend.player != 0:
                state.apply(greedy_action(state))
                continue
            view = state.view(0)
            action = bot.choose(view)
            if len(view.legal_actions) > 1:
                stats = bot.last_stats
                legal[pend.kind].append(len(view.legal_actions))
                rollouts[pend.kind].append(sum(v for v, _ in stats.values()))
                distinct = len(diverse_candidates(view, bot.width, bool(bot.cover)))
                fallback[pend.kind] += len(stats) == 1 and distinct > 1
            own_turns += pend.kind == "turn"
            state.apply(action)
    rows = []
    for kind in sorted(legal):
        r = rollouts[kind]
        rows.append({"kind": kind, "decisions": len(r),
                     "legal": statistics.mean(legal[kind]),
                     "rollouts_median": statistics.median(r), "rollouts_min": min(r),
                     "rollouts_max": max(r), "fallback": fallback[kind] / len(r)})
    return {"bot": spec, "games": games, "turns": turns, "seed": seed, "players": players,
            "rows": rows, "load": [load0, os.getloadavg()[0]]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bot", default="learned:time=1.0")
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--turns", type=int, default=30)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    out = run(args.bot, args.games, args.turns, args.seed, args.players)
    if args.json:
        print(json.dumps(out, indent=2))
        return
    print(f"{args.bot}, {args.games} games x {args.turns} turns against greedy, seed "
          f"{args.seed}, load {out['load'][0]:.1f}->{out['load'][1]:.1f}\n")
    print("| decision | decisions | legal (mean) | rollouts: median (min-max) | greedy's choice "
          "for want of samples |")
    print("|---|---|---|---|---|")
    for r in out["rows"]:
        print(f"| {r['kind']} | {r['decisions']} | {r['legal']:.1f} | "
              f"{r['rollouts_median']:g} ({r['rollouts_min']}-{r['rollouts_max']}) | "
              f"{100 * r['fallback']:.0f} % |")


if __name__ == "__main__":
    main()
