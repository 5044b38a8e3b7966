"""Two tournament journals of the same deals: did one bot do differently in the second run?

The same tournament played twice (the same seed, player count, game and number of bots, so
game ``I`` is the same deal and seating in both) under two conditions: another machine load,
another build of the bots, ``net=`` another network, or simply a second run (time budgets
make games part ways). For the games both journals hold, this prints bot ``--bot``'s
(index in the header's bot list, from 0) win share with its 95 % interval and its mean
margin to the best other seat in each, their differences paired by game with standard
errors, the deals it won in no seating in each run, the machine's load average at the
games' ends where the journal has it, and the correlation of its wins per deal between the
runs (how much of a run's result the deals alone decide).

    python benchmarks/journal_compare.py run-a.jsonl run-b.jsonl --bot 0

The bots' specifications may differ between the journals (that is the point of some
comparisons); the deals may not. Bad input: one line, exit 2.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from forest_shuffle.journal import JournalError, read_journal  # noqa: E402
from forest_shuffle.match import MatchResult, load_range, seatings, wilson_interval  # noqa: E402


@dataclass(frozen=True)
class Side:
    """One journal's figures for the followed bot over the common games."""

    games: int
    wins: float
    interval: tuple[float, float]
    margin: float
    margin_se: float
    blank_deals: int
    #: The load average at the games' ends: median, least, greatest (None: not recorded).
    load: tuple[float, float, float] | None = None


@dataclass(frozen=True)
class Comparison:
    """The two runs side by side (``a``, ``b``), their paired differences (b less a, with
    standard errors) and the correlation of the bot's wins per deal between them."""

    a: Side
    b: Side
    win_diff: float
    win_diff_se: float
    margin_diff: float
    margin_diff_se: float
    deals: int
    deal_r: float


def outcome(m: MatchResult, seat: int) -> tuple[float, int]:
    """The seat's win share (``1/k`` of a ``k``-way tie) and margin to the best other seat."""
    win = 1 / len(m.winners) if seat in m.winners else 0.0
    best_other = max(s for i, s in enumerate(m.scores) if i != seat)
    return win, m.scores[seat] - best_other


def _mean_se(xs: list[float]) -> tuple[float, float]:
    mean = sum(xs) / len(xs)
    se = statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else 0.0
    return mean, se


def compare(path_a: Path, path_b: Path, bot: int = 0) -> Comparison:
    """Compare bot ``bot`` over the games both journals hold. ValueError (one line) when
    the journals are not of the same deals, share no game or have no bot ``bot``."""
    head_a, games_a = read_journal(path_a)
    head_b, games_b = read_journal(path_b)
    for key in ("game", "players", "seed"):
        if head_a.get(key) != head_b.get(key):
            raise ValueError(f"not the same deals: {key} {head_a.get(key)!r} against "
                             f"{head_b.get(key)!r}")
    if len(head_a["bots"]) != len(head_b["bots"]):
        raise ValueError(f"not the same seatings: {len(head_a['bots'])} bots against "
                         f"{len(head_b['bots'])}")
    if not 0 <= bot < len(head_a["bots"]):
        raise ValueError(f"--bot must be from 0 to {len(head_a['bots']) - 1}, not {bot}")
    order = seatings(len(head_a["bots"]), int(head_a["players"]))
    if any(seating.count(bot) != 1 for seating in order):
        raise ValueError(f"bot {bot} holds several seats of a game (fewer bots than "
                         "players): list one bot a seat to compare")
    common = sorted(set(games_a) & set(games_b))
    if not common:
        raise ValueError("the journals share no game")
    rows: list[tuple[int, tuple[float, int], tuple[float, int]]] = []
    for i in common:
        ma, mb = games_a[i], games_b[i]
        if ma.seed != mb.seed:
            raise ValueError(f"game {i + 1} is another deal in each journal")
        seat = order[i % len(order)].index(bot)
        rows.append((i // len(order), outcome(ma, seat), outcome(mb, seat)))

    deal_of = [r[0] for r in rows]

    def side(outs: list[tuple[float, int]], games: dict[int, MatchResult]) -> Side:
        wins = [o[0] for o in outs]
        margin, se = _mean_se([float(o[1]) for o in outs])
        per_deal: dict[int, float] = {}
        for d, o in zip(deal_of, outs, strict=True):
            per_deal[d] = per_deal.get(d, 0.0) + o[0]
        return Side(games=len(outs), wins=sum(wins),
                    interval=wilson_interval(sum(wins), len(outs)), margin=margin,
                    margin_se=se, blank_deals=sum(v == 0 for v in per_deal.values()),
                    load=load_range([games[i] for i in common]))

    wd, wse = _mean_se([r[2][0] - r[1][0] for r in rows])
    md, mse = _mean_se([float(r[2][1] - r[1][1]) for r in rows])
    deal_a: dict[int, float] = {}
    deal_b: dict[int, float] = {}
    for d, oa, ob in rows:
        deal_a[d] = deal_a.get(d, 0.0) + oa[0]
        deal_b[d] = deal_b.get(d, 0.0) + ob[0]
    deals = sorted(deal_a)
    xs, ys = [deal_a[d] for d in deals], [deal_b[d] for d in deals]
    try:
        deal_r = statistics.correlation(xs, ys)
    except statistics.StatisticsError:  # fewer than two deals, or no variation
        deal_r = math.nan
    return Comparison(a=side([row[1] for row in rows], games_a),
                      b=side([row[2] for row in rows], games_b),
                      win_diff=wd, win_diff_se=wse, margin_diff=md, margin_diff_se=mse,
                      deals=len(deals), deal_r=deal_r)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a", type=Path, help="the first run's journal")
    ap.add_argument("b", type=Path, help="the second run's journal (the same deals)")
    ap.add_argument("--bot", type=int, default=0,
                    help="the bot followed: its index in the journals' bot list (0)")
    args = ap.parse_args()
    try:
        c = compare(args.a, args.b, args.bot)
    except (JournalError, ValueError) as exc:
        ap.error(str(exc))
    for name, s in (("a", c.a), ("b", c.b)):
        lo, hi = s.interval
        print(f"{name}: {s.games} games, {s.wins:g} won, {s.wins / s.games:.1%} "
              f"({lo:.1%}-{hi:.1%}), margin {s.margin:+.1f} +- {s.margin_se:.1f}; "
              f"deals won in no seating {s.blank_deals} of {c.deals}"
              + ("" if s.load is None else
                 f"; load average {s.load[0]:.2f} ({s.load[1]:.2f}-{s.load[2]:.2f})"))
    print(f"b less a, paired by game: win share {c.win_diff:+.3f} +- {c.win_diff_se:.3f}, "
          f"margin {c.margin_diff:+.1f} +- {c.margin_diff_se:.1f} (+- one standard error)")
    print(f"wins per deal, correlation between the runs: {c.deal_r:.2f} over {c.deals} deals")


if __name__ == "__main__":
    main()
