"""Definitions and the scorer's plans shared between threads (issue "Counted right, refused
for the right reason", item 6).

A game's definition and the plans the scorer compiles are shared by every thread of a
process (the server's bot threads, its request threads). Each test runs its threads in
fresh interpreters with ``sys.setswitchinterval(1e-6)`` (a switch between threads every
few bytecodes), several processes and many trials each, so a race of the code before the
fix shows: the interned play actions of a definition grown by two threads at once got the
wrong tree index, and a plan compiled by one thread while another counted raised
``IndexError`` or counted the wrong species.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: Fresh processes per test, and trials (eight threads started together) in each.
PROCESSES = 3

_ENGINE = r"""
import json, sys, threading
sys.setswitchinterval(1e-6)
from forest_shuffle.engine.game import game_by_id, make_def

base = game_by_id("base")
split = [c.id for c in base.cards if c is not None and c.halves][:12]
bad = errors = 0
for trial in range(TRIALS):
    # A definition of its own for each trial: its interned play actions start empty.
    g = make_def("threads", base.title, base.catalog, base.players, base.removed_at_setup)
    gate = threading.Barrier(8)
    wrong = []

    def work(k):
        try:
            gate.wait()
            for n in range(1, 97):  # past the trees interned with the definition
                for cid in split[k % 3::3]:
                    for side in ("top", "left"):
                        acts = g.half_actions(cid, side, n)
                        for i in range(n):
                            a = acts[i]
                            if (a.kind, a.card, a.side, a.tree) != ("play", cid, side, i):
                                wrong.append(repr(a))
                                return
        except Exception as exc:  # noqa: BLE001 - counted, the test names it
            wrong.append(f"{type(exc).__name__}: {exc}")

    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    bad += bool(wrong)
print(json.dumps({"bad": bad, "trials": TRIALS}))
"""

_SCORER = r"""
import json, pickle, random, sys, threading
from forest_shuffle.engine.state import GameState
from forest_shuffle.engine.view import make_spectator_view
from forest_shuffle.games import make_game

GAME = "base+alpine+woodland_edge"
g = make_game(GAME)
# Mid-game tables of random games (2 to 4 players), their public forests.
tables = []
for seed in range(6):
    rng = random.Random(seed)
    s = GameState.new(2 + seed % 3, seed, game=GAME)
    for step in range(240):
        if s.over:
            break
        s.apply(rng.choice(s.legal_actions()))
        if step % 60 == 59:
            tables.append(make_spectator_view(s).forests)
data = pickle.dumps(tables)
# What one thread alone gets (plans compiled here, before any thread runs).
want = [(g.totals(t), [(x.total, x.lines, x.cards) for x in g.score_table(t)])
        for t in pickle.loads(data)]
sys.setswitchinterval(1e-6)
bad = 0
first = ""
for trial in range(TRIALS):
    # Unpickled copies carry species of their own, with no plan: every thread compiles.
    copies = [pickle.loads(data) for _ in range(2)]
    gate = threading.Barrier(8)
    wrong = []

    def work(k):
        try:
            mine = copies[k % 2]
            gate.wait()
            for j in range(len(mine)):
                i = (j + k) % len(mine)
                got = (g.totals(mine[i]),
                       [(x.total, x.lines, x.cards) for x in g.score_table(mine[i])])
                if got != want[i]:
                    wrong.append(f"table {i}: {got[0]} for {want[i][0]}")
        except Exception as exc:  # noqa: BLE001 - counted, the test names it
            wrong.append(f"{type(exc).__name__}: {exc}")

    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if wrong:
        bad += 1
        first = first or wrong[0]
print(json.dumps({"bad": bad, "trials": TRIALS, "first": first}))
"""


def _run(script: str, trials: int) -> list[dict[str, object]]:
    """Run ``script`` in PROCESSES fresh interpreters; their JSON lines."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT / "src")] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    code = script.replace("TRIALS", str(trials))
    procs = [subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, env=env)
             for _ in range(PROCESSES)]
    out = []
    for p in procs:
        stdout, stderr = p.communicate(timeout=600)
        assert p.returncode == 0, stderr[-2000:]
        out.append(json.loads(stdout.strip().splitlines()[-1]))
    return out


def test_interned_play_actions_grown_by_eight_threads_at_once_are_right() -> None:
    results = _run(_ENGINE, 40)
    assert [r["bad"] for r in results] == [0] * PROCESSES, results


def test_eight_threads_compiling_and_counting_plans_at_once_score_right() -> None:
    results = _run(_SCORER, 12)
    assert [r["bad"] for r in results] == [0] * PROCESSES, results


def test_plans_compiled_one_species_at_a_time_in_any_order_score_as_before() -> None:
    """The registry published whole finds, for a plan compiled early, the species compiled
    after it (its tag's plans, the species it counts): each species of an unpickled copy is
    compiled alone, in a shuffled order, and the table then scores as the original."""
    import pickle
    import random

    from forest_shuffle.cards.forest import Forest, Host, empty_slots
    from forest_shuffle.formats.records import random_game
    from forest_shuffle.games import make_game

    g = make_game("base+alpine+woodland_edge")
    for seed in range(3):
        table = random_game(3, seed, game=g.id).forests
        want = g.totals(table)
        copy = pickle.loads(pickle.dumps(table))
        species = {id(d.species): d.species for f in copy for t in f.trees
                   for s in t.slots.values() for d in s}
        species.update({id(t.species): t.species for f in copy for t in f.trees
                        if t.species is not None})
        order = list(species.values())
        random.Random(seed).shuffle(order)
        assert all(sp.plan is None for sp in order)
        for sp in order:  # a forest of one host of that species: its plan alone
            g.totals([Forest(trees=[Host(sp, None, empty_slots(), sp.kind, "")]), Forest()])
        assert g.totals(copy) == want
        assert [x.cards for x in g.score_table(copy)] == [x.cards for x in g.score_table(table)]
