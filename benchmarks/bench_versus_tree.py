"""A bot of one source tree against the same (or another) bot of another tree, on paired deals.

Usage: ``python benchmarks/bench_versus_tree.py OLD_SRC [--new NEW_SRC] [--bot mcts:time=1.0]
[--old-bot SPEC] [--games 100] [--players 2] [--seed 2070] [--workers 2] [--journal FILE]
[--json] [--report]`` (``--report``: the figures of the journal's games so far, none played)

What it answers: "is the bot of this tree stronger than the bot of that commit?", for
instance the search at 1 s a turn after a speed-up against the search before it (issue 14:
the same time buys more rollouts). Make the old tree with ``git archive REV src | tar -x -C
/tmp/old``. Each side's decisions are made in a process of its own that imports its tree
(``PYTHONPATH=<tree>``, one process per side and per worker, kept for the whole run): it
deals the game from the seed with its own engine (base game, default rules), is sent the
actions played since it last moved, and asks its bot for ``state.view(seat)``, so a bot
sees what it would see in a tournament. The referee is this process's engine (the one on
its own path); a side whose hand differs from the referee's (trees that deal or play
differently) stops the run with a message. Deal ``d`` (seed
:func:`~forest_shuffle.match.deal_seed`) is played once per rotation of the seats (the old
bot in seat 0, then in seat 1, ...); each seat's bot seed
is :func:`~forest_shuffle.match.bot_seed` as in a tournament.

With ``--journal FILE`` every finished game is written to FILE as a JSON line at once;
the same command run again plays only the games FILE lacks (a header line names the run,
with a digest of each tree's sources: another run's journal, or one of trees that changed
since, is refused; to spread a run over days, pin both trees with ``git archive``). Prints
the new side's win share (a k-way tie counts 1/k) with its 95 % Wilson interval, the mean
margin of the new bot to the old one (paired over the deals, with its standard error), the
mean scores, the seconds a decision of each side and the load average at the start and the
end (a time budget buys fewer rollouts on a loaded machine, alike for both sides).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import IO, Any, NoReturn

from forest_shuffle.engine.actions import Action
from forest_shuffle.engine.state import GameState
from forest_shuffle.match import bot_seed, deal_seed, wilson_interval

#: The program of a side's process: JSON lines in (``new`` a bot, ``move`` a state), out.
SIDE = r"""
import json, sys, time
from forest_shuffle.bots import make_bot
try:
    from forest_shuffle.engine.state import GameState
    from forest_shuffle.engine.actions import Action
except ImportError:  # a tree from before the engine became a package
    from forest_shuffle.engine import GameState
    from forest_shuffle.actions import Action
bots, state = {}, None
for line in sys.stdin:
    msg = json.loads(line)
    try:
        if msg["cmd"] == "deal":
            state, bots = GameState.new(msg["players"], msg["seed"]), {}
            out = {"ok": True}
        elif msg["cmd"] == "new":
            bots[msg["seat"]] = make_bot(msg["spec"], msg["seed"])
            out = {"ok": True}
        else:
            for text in msg["actions"]:
                state.apply(Action.parse(text))
            view = state.view(msg["seat"])
            t = time.perf_counter()
            action = bots[msg["seat"]].choose(view)
            out = {"action": str(action), "seconds": time.perf_counter() - t,
                   "hand": sorted(view.hand)}
    except Exception as exc:
        out = {"error": f"{type(exc).__name__}: {exc}"}
    sys.stdout.write(json.dumps(out) + "\n")
    sys.stdout.flush()
"""


class SideError(RuntimeError):
    """A side's process failed or answered something else than an action."""


class Side:
    """A process that plays one bot specification with the engine and bots of one tree."""

    def __init__(self, tree: Path) -> None:
        env = dict(os.environ, PYTHONPATH=str(tree))
        self.tree = tree
        self.proc = subprocess.Popen([sys.executable, "-c", SIDE], env=env, text=True,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def ask(self, msg: dict[str, Any]) -> dict[str, Any]:
        stdin: IO[str] | None = self.proc.stdin
        stdout: IO[str] | None = self.proc.stdout
        assert stdin is not None and stdout is not None
        stdin.write(json.dumps(msg) + "\n")
        stdin.flush()
        line = stdout.readline()
        if not line:
            raise SideError(f"the process of {self.tree} ended (exit {self.proc.wait()})")
        out: dict[str, Any] = json.loads(line)
        if "error" in out:
            raise SideError(f"{self.tree}: {out['error']}")
        return out

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=30)


def play(sides: list[Side], specs: list[str], old_seats: tuple[int, ...],
         seed: int) -> dict[str, Any]:
    """One game from ``seed``: seat ``i`` is played by ``specs[i]`` of the old side
    (``sides[0]``) if ``i`` is in ``old_seats``, else of the new one (``sides[1]``); a side
    holds one bot per seat it plays."""
    n = len(specs)
    state = GameState.new(n, seed)
    who = [0 if i in old_seats else 1 for i in range(n)]
    for side in sides:
        side.ask({"cmd": "deal", "players": n, "seed": seed})
    for seat in range(n):
        sides[who[seat]].ask({"cmd": "new", "seat": seat, "spec": specs[seat],
                              "seed": bot_seed(seed, seat)})
    history: list[str] = []
    told = [0, 0]  # the actions each side has been sent
    seconds = [0.0, 0.0]
    decisions = [0, 0]
    while not state.over:
        mover = state.to_move
        assert mover is not None
        k = who[mover]
        out = sides[k].ask({"cmd": "move", "seat": mover, "actions": history[told[k]:]})
        told[k] = len(history)
        if out["hand"] != sorted(state.view(mover).hand):
            raise SideError(f"{sides[k].tree} holds another hand for seat {mover + 1} at "
                            f"action {len(history)}: the trees deal or play differently")
        seconds[k] += float(out["seconds"])
        decisions[k] += 1
        action = Action.parse(out["action"])
        state.apply(action)
        history.append(str(action))
    scores = state.scores()
    return {"seed": seed, "old_seats": list(old_seats), "scores": scores,
            "seconds": seconds, "decisions": decisions}


def figures(games: list[dict[str, Any]]) -> dict[str, Any]:
    """The new side's wins, win share with interval, margin to the old side, scores."""
    wins = 0.0
    margins: list[float] = []
    mean = [0.0, 0.0]
    secs = [0.0, 0.0]
    decs = [0, 0]
    for g in games:
        sc = g["scores"]
        best = max(sc)
        top = [i for i, s in enumerate(sc) if s == best]
        new_seats = [i for i in range(len(sc)) if i not in g["old_seats"]]
        wins += sum(1 for i in top if i in new_seats) / len(top)
        new_best = max(sc[i] for i in new_seats)
        old_best = max(sc[i] for i in g["old_seats"])
        margins.append(new_best - old_best)
        mean[0] += old_best / len(games)
        mean[1] += new_best / len(games)
        for k in (0, 1):
            secs[k] += g["seconds"][k]
            decs[k] += g["decisions"][k]
    m = sum(margins) / len(margins)
    var = sum((x - m) ** 2 for x in margins) / max(1, len(margins) - 1)
    low, high = wilson_interval(wins, len(games))
    return {"games": len(games), "new_wins": wins, "win_rate": wins / len(games),
            "interval": [low, high], "margin": m, "margin_se": math.sqrt(var / len(margins)),
            "mean_scores": {"old": mean[0], "new": mean[1]},
            "seconds_per_decision": {"old": secs[0] / max(1, decs[0]),
                                     "new": secs[1] / max(1, decs[1])}}


def tree_hash(tree: Path) -> str:
    """A digest of a tree's Python sources and data (a journal is of these trees only)."""
    h = hashlib.sha256()
    for f in sorted(tree.rglob("*")):
        if f.is_file() and f.suffix in (".py", ".json", ".npz", ".csv", ".md"):
            h.update(str(f.relative_to(tree)).encode() + b"\0" + f.read_bytes())
    return h.hexdigest()[:16]


def fail(message: str) -> NoReturn:
    """Stop with a one-line message and exit status 2."""
    print(f"error: {message}", file=sys.stderr)
    raise SystemExit(2)


def load_journal(path: Path, header: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """The games a journal holds by index; a new journal gets ``header`` as its first line.
    Exits with a one-line message if the journal is another run's or is not one."""
    if not path.exists():
        path.write_text(json.dumps(header) + "\n")
        return {}
    lines = path.read_text().splitlines()
    try:
        head = json.loads(lines[0]) if lines else None
    except ValueError:
        head = None
    if head != header:
        fail(f"{path} is not this run's journal (its header: {lines[:1]})")
    done: dict[int, dict[str, Any]] = {}
    for line in lines[1:]:
        try:
            rec = json.loads(line)
            done[int(rec["index"])] = rec["game"]
        except (ValueError, KeyError, TypeError):
            continue  # a line cut short by a killed run: that game is played again
    return done


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old", type=Path, help="the old tree's src directory")
    ap.add_argument("--new", type=Path, default=Path(__file__).resolve().parents[1] / "src",
                    help="the new tree's src directory (default: this checkout's)")
    ap.add_argument("--bot", default="mcts:time=1.0", help="the new side's bot")
    ap.add_argument("--old-bot", default=None, help="the old side's bot (default: --bot)")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--seed", type=int, default=2070)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--journal", type=Path, default=None)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--report", action="store_true",
                    help="print the figures of the journal's games; play none")
    args = ap.parse_args()
    for tree in (args.old, args.new):
        if not (tree / "forest_shuffle" / "__init__.py").is_file():
            fail(f"{tree} holds no forest_shuffle package (give a tree's src)")
    if args.games < 1 or args.workers < 1 or not 2 <= args.players <= 5:
        fail("--games and --workers must be at least 1, --players 2 to 5")
    old_bot = args.old_bot or args.bot
    n = args.players
    # game k: deal k // n, the old bot in seat k % n (one old seat, the others new)
    jobs: list[tuple[int, int, tuple[int, ...]]] = [
        (k, deal_seed(args.seed, k // n), (k % n,)) for k in range(args.games)]
    header = {"run": "bench_versus_tree 1", "old": str(args.old.resolve()),
              "old_hash": tree_hash(args.old), "new": str(args.new.resolve()),
              "new_hash": tree_hash(args.new), "bot": args.bot, "old_bot": old_bot,
              "players": n, "seed": args.seed}
    done = load_journal(args.journal, header) if args.journal else {}
    lock = threading.Lock()
    load0 = os.getloadavg()[0]
    start = time.perf_counter()

    def worker(my_jobs: list[tuple[int, int, tuple[int, ...]]]) -> None:
        sides = [Side(args.old), Side(args.new)]
        try:
            for k, seed, old_seats in my_jobs:
                specs = [old_bot if i in old_seats else args.bot for i in range(n)]
                g = play(sides, specs, old_seats, seed)
                with lock:
                    done[k] = g
                    if args.journal:
                        with args.journal.open("a") as f:
                            f.write(json.dumps({"index": k, "game": g}) + "\n")
                            f.flush()
                            os.fsync(f.fileno())
                    print(f"game {k}: scores {g['scores']} (old in seat "
                          f"{old_seats[0] + 1})", file=sys.stderr, flush=True)
        finally:
            for s in sides:
                s.close()

    if args.report and not args.journal:
        fail("--report reads a journal: give --journal FILE")
    if args.report and not done:
        fail(f"{args.journal} holds no game yet")
    todo = [] if args.report else [j for j in jobs if j[0] not in done]
    parts = [todo[i::args.workers] for i in range(args.workers)]
    with ThreadPoolExecutor(args.workers) as pool:
        for fut in [pool.submit(worker, p) for p in parts if p]:
            try:
                fut.result()
            except SideError as exc:
                fail(str(exc).splitlines()[0])
    games = [done[k] for k in sorted(done) if k < args.games]
    out = {**header, **figures(games), "load": [load0, os.getloadavg()[0]],
           "minutes": (time.perf_counter() - start) / 60}
    if args.json:
        print(json.dumps(out, indent=2))
        return
    low, high = out["interval"]
    print(f"new {args.bot} against old {old_bot}, {n} players, {out['games']} games, seed "
          f"{args.seed}: new wins {out['new_wins']:g}, {out['win_rate']:.1%} (95 % interval "
          f"{low:.1%}-{high:.1%}), margin {out['margin']:+.1f} +- {out['margin_se']:.1f}, "
          f"scores new {out['mean_scores']['new']:.0f} old {out['mean_scores']['old']:.0f}, "
          f"s/decision new {out['seconds_per_decision']['new']:.3f} old "
          f"{out['seconds_per_decision']['old']:.3f}, load {out['load'][0]:.1f}->"
          f"{out['load'][1]:.1f}, {out['minutes']:.1f} min")


if __name__ == "__main__":
    main()
