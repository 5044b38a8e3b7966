"""Solo bots on the same deals, game by game: the paired score difference and the medals.

Usage::

    python benchmarks/solo_paired.py play --bots 'solo:time=0;solo:iterations=36' \
        --challenges 1-15 --games 3 --seed 1 --out runs.jsonl
    python benchmarks/solo_paired.py report runs.jsonl [--json-dir DIR]

``--bots`` is a list of bot specifications separated by ``;``. ``play`` plays game i
of each challenge with the seed ``game_seed(seed, i)`` of
``simulate`` (so the games are those of ``simulate --solo ... --seed S``), every bot on the
same deal with the same bot seed, and appends one JSON line a game (challenge, game, bot,
score, goal met, medal, CPU seconds) to ``--out`` as it goes (several ``play`` runs may
share a file, e.g. one per core over different challenges or games, ``--first``).
``report`` prints per bot the
mean score, the goal and medal counts with Wilson 95 % intervals and the CPU seconds a game
(median, min, max), and per pair of bots the mean paired score difference with its 95 %
interval (normal); with ``--json-dir`` it also writes one ``simulate --solo --json``
summary per bot, for ``benchmarks/solo_medals.py``.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from forest_shuffle.bots.registry import make_bot
from forest_shuffle.cli.commands.simulate import game_seed
from forest_shuffle.engine.setup import derive
from forest_shuffle.engine.state import GameState
from forest_shuffle.games.dartmoor_solo import MEDALS, solo_data, solo_game, solo_result
from forest_shuffle.match import wilson_interval


def _numbers(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out.extend(range(int(lo), int(hi or lo) + 1))
    return out


def play(bots: list[str], challenges: list[int], games: int, seed: int, out: Path,
         first: int = 0) -> None:
    """Play games ``first`` to ``first + games - 1`` of each challenge and append one line
    a game to ``out``."""
    for number in challenges:
        gdef = solo_game(number)
        for i in range(first, first + games):
            s = game_seed(seed, i)
            for spec in bots:
                player = make_bot(spec, derive(s, "bot 0"))
                state = GameState.new(1, s, game=gdef)
                start = time.process_time()
                while not state.over:
                    state.apply(player.choose(state.view(0)))
                cpu = time.process_time() - start
                r = solo_result(state)  # type: ignore[arg-type]
                line = {"challenge": number, "game": i, "bot": spec, "score": r.score,
                        "goal": r.goal_met, "medal": r.medal, "cpu": round(cpu, 3)}
                with out.open("a") as f:
                    f.write(json.dumps(line) + "\n")


def _k(rows: list[dict[str, Any]], pred: Any) -> str:
    k = sum(1 for r in rows if pred(r))
    lo, hi = wilson_interval(k, len(rows))
    return f"{k}/{len(rows)} ({lo:.0%}-{hi:.0%})"


def _reached(r: dict[str, Any], m: str) -> bool:
    return bool(r["medal"]) and MEDALS.index(r["medal"]) >= MEDALS.index(m)


def report(path: Path, json_dir: Path | None) -> None:
    """Print the figures of the lines in ``path``."""
    lines = [json.loads(x) for x in path.read_text().splitlines() if x.strip()]
    by_bot: dict[str, dict[tuple[int, int], dict[str, Any]]] = defaultdict(dict)
    for r in lines:
        by_bot[r["bot"]][(r["challenge"], r["game"])] = r
    bots = list(by_bot)
    common = set.intersection(*(set(v) for v in by_bot.values()))
    print(f"{len(common)} deals played by every bot of {bots}")
    for b in bots:
        rows = [by_bot[b][k] for k in sorted(common)]
        cpu = [r["cpu"] for r in rows]
        print(f"{b}: mean score {statistics.mean(r['score'] for r in rows):.1f}, goal met "
              f"{_k(rows, lambda r: r['goal'])}, bronze+ "
              f"{_k(rows, lambda r: _reached(r, 'bronze'))}"
              f", silver+ {_k(rows, lambda r: _reached(r, 'silver'))}, gold "
              f"{_k(rows, lambda r: _reached(r, 'gold'))}; CPU s a game median "
              f"{statistics.median(cpu):.1f} (min {min(cpu):.1f}, max {max(cpu):.1f})")
    for i, a in enumerate(bots):
        for b in bots[i + 1:]:
            d = [by_bot[b][k]["score"] - by_bot[a][k]["score"] for k in sorted(common)]
            m = statistics.mean(d)
            se = statistics.stdev(d) / math.sqrt(len(d)) if len(d) > 1 else float("nan")
            print(f"{b} - {a}: {m:+.1f} points a game (95 %: {m - 1.96 * se:+.1f} to "
                  f"{m + 1.96 * se:+.1f}), goal met {sum(by_bot[b][k]['goal'] for k in common)}"
                  f" vs {sum(by_bot[a][k]['goal'] for k in common)}")
    if json_dir is None:
        return
    json_dir.mkdir(parents=True, exist_ok=True)
    titles = solo_data().challenges
    for b in bots:
        chs: list[dict[str, Any]] = []
        for number in sorted({c for c, _ in common}):
            rows = [by_bot[b][k] for k in sorted(common) if k[0] == number]
            n = len(rows)
            medals = {m: sum(_reached(r, m) for r in rows) for m in MEDALS}
            best = {"none": sum(1 for r in rows if not r["medal"])}
            best.update({m: sum(1 for r in rows if r["medal"] == m) for m in MEDALS})
            goals = sum(r["goal"] for r in rows)
            chs.append({"challenge": number, "title": titles[number - 1].title, "games": n,
                        "avg_score": statistics.mean(r["score"] for r in rows),
                        "goal_rate": goals / n,
                        "medal_rates": {m: medals[m] / n for m in MEDALS}, "best_medal": best,
                        "intervals": {k: list(wilson_interval(v, n)) for k, v in
                                      (("goal", goals), ("none", best["none"]),
                                       *medals.items())}})
        name = b.replace(":", "_").replace("=", "_").replace(",", "_")
        (json_dir / f"{name}.json").write_text(json.dumps({"bot": b, "challenges": chs}))


def main() -> None:
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("play")
    p.add_argument("--bots", required=True)
    p.add_argument("--challenges", default="1-15")
    p.add_argument("--games", type=int, default=3)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--first", type=int, default=0, help="the index of the first game")
    p.add_argument("--out", type=Path, required=True)
    r = sub.add_parser("report")
    r.add_argument("path", type=Path)
    r.add_argument("--json-dir", type=Path)
    a = ap.parse_args()
    if a.cmd == "play":
        play(a.bots.split(";"), _numbers(a.challenges), a.games, a.seed, a.out, a.first)
    else:
        report(a.path, a.json_dir)


if __name__ == "__main__":
    main()
