"""The solo medal table of docs/dartmoor.md from ``simulate --solo all --json`` outputs.

Usage: ``python benchmarks/solo_medals.py greedy.json mcts.json solo.json`` prints, per
challenge, each run's goal rate and its games with no medal, bronze or better, silver or
better and gold, as ``k/n`` with the Wilson 95 % interval, one Markdown row per challenge,
then the challenges where each run took gold in more than half of its games.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any


def _cell(row: dict[str, Any], key: str, k: int) -> str:
    low, high = row["intervals"][key]
    return f"{k}/{row['games']} ({low:.0%}-{high:.0%})"


def table(runs: list[dict[str, Any]]) -> list[str]:
    """The Markdown lines: one header, one row per challenge and run."""
    out = ["| challenge | bot | score | goal met | no medal | bronze+ | silver+ | gold |",
           "|---|---|---|---|---|---|---|---|"]
    for i in range(len(runs[0]["challenges"])):
        for run in runs:
            row = run["challenges"][i]
            n = row["games"]
            rates = row["medal_rates"]
            out.append(
                f"| {row['challenge']} {row['title']} | `{run['bot']}` | "
                f"{row['avg_score']:.0f} | {_cell(row, 'goal', round(row['goal_rate'] * n))} | "
                f"{_cell(row, 'none', row['best_medal']['none'])} | "
                + " | ".join(_cell(row, m, round(rates[m] * n))
                             for m in ("bronze", "silver", "gold")) + " |")
    for run in runs:
        gold = [r["challenge"] for r in run["challenges"] if r["medal_rates"]["gold"] > 0.5]
        out.append("")
        out.append(f"`{run['bot']}`: gold in more than half of the games in "
                   f"{len(gold)} of {len(run['challenges'])} challenges {gold}.")
    return out


def main(paths: list[str]) -> None:
    runs = [json.loads(Path(p).read_text()) for p in paths]
    print("\n".join(table(runs)))


if __name__ == "__main__":
    main(sys.argv[1:])
