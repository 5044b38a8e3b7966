"""Where a Dartmoor solo game's points come from: the forests a bot leaves.

Usage: ``python benchmarks/solo_forests.py [--bot SPEC] [--games N] [--seed S]
[--challenges 1,2,...]`` plays N games of each challenge with the bot (``solo:time=0`` by
default), then prints the player's turns a game, the cards in the forest and the cave, the
mean of each score-pad line, and each species' mean points per game (and per card) over
all games and over the best tenth of the forests. For docs/dartmoor.md, "Where the
points are".
"""

from __future__ import annotations

import argparse
import statistics
from collections import Counter, defaultdict

from forest_shuffle.bots.registry import make_bot
from forest_shuffle.engine.setup import derive
from forest_shuffle.engine.state import GameState
from forest_shuffle.games.dartmoor_solo import solo_result


def play(spec: str, challenge: int, seed: int) -> tuple[GameState, int]:
    """One solo game with the bot; the last state and the player's turns."""
    state = GameState.new(1, seed, game=f"dartmoor-solo-{challenge}")
    bot = make_bot(spec, seed)
    turns = 0
    while not state.over:
        view = state.view(0)
        if view.pending is not None and view.pending.kind == "turn":
            turns += 1
        state.apply(bot.choose(view))
    return state, turns


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--bot", default="solo:time=0")
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--challenges", default=",".join(str(i) for i in range(1, 16)))
    a = ap.parse_args()
    rows = []
    for ch in (int(x) for x in a.challenges.split(",")):
        for i in range(a.games):
            st, turns = play(a.bot, ch, derive(a.seed, f"forest {i}") % (1 << 62))
            fs = st.game.score_table(st.forests)[0]
            per: dict[str, int] = defaultdict(int)
            n: Counter[str] = Counter()
            for cp in fs.cards:
                key = "cave" if cp.where == "cave" else cp.species
                per[key] += cp.points
                n[key] += 1
            f = st.forests[0]
            cards = len(f.trees) + sum(len(s) for t in f.trees for s in t.slots.values())
            rows.append((fs.total, turns, cards, f.cave, dict(fs.lines), per, n,
                         solo_result(st).medal))
    rows.sort(key=lambda r: -r[0])
    top = rows[:max(1, len(rows) // 10)]

    def med(xs: list[float]) -> str:
        return f"{statistics.median(xs):.0f} ({min(xs):.0f}-{max(xs):.0f})"

    print(f"{len(rows)} games of {a.bot}: score {med([r[0] for r in rows])}, turns "
          f"{med([r[1] for r in rows])}, forest cards {med([r[2] for r in rows])}, cave "
          f"{med([r[3] for r in rows])}; best tenth: score {med([r[0] for r in top])}, "
          f"cave {med([r[3] for r in top])}")
    print("medals:", dict(Counter(r[7] or "none" for r in rows)))
    for line in rows[0][4]:
        print(f"line {line}: all {statistics.mean(r[4][line] for r in rows):.1f}, "
              f"best tenth {statistics.mean(r[4][line] for r in top):.1f}")
    tot: dict[str, float] = defaultdict(float)
    cnt: dict[str, float] = defaultdict(float)
    ttot: dict[str, float] = defaultdict(float)
    for r in rows:
        for k, v in r[5].items():
            tot[k] += v / len(rows)
            cnt[k] += r[6][k] / len(rows)
    for r in top:
        for k, v in r[5].items():
            ttot[k] += v / len(top)
    print("species: points a game (cards a game, points a card) | best tenth")
    for k in sorted(tot, key=lambda x: -tot[x])[:30]:
        print(f"  {k:28s} {tot[k]:6.1f} ({cnt[k]:4.1f}, {tot[k] / max(cnt[k], 1e-9):4.1f}) "
              f"| {ttot[k]:6.1f}")


if __name__ == "__main__":
    main()
