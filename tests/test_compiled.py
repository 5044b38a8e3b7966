"""The compiled build (mypyc, docs/speed.md) against the pure-Python source: same games.

A differential test: the same random games (every listed game at each of its player
counts, and solo challenges) are played by the compiled install named by
``FOREST_SHUFFLE_COMPILED_PYTHON`` (an interpreter whose forest_shuffle was built with
``FOREST_SHUFFLE_COMPILE=1``) and by this checkout's source (``PYTHONPATH=src``), each in a
subprocess running this file as a script. Every state after every action is compared
through a running hash: after every action its player to move, decision and legal actions
(their ``hash()``, the same in both with ``PYTHONHASHSEED=0``), and after every
``FULL_EVERY``-th action and at the end its whole ``to_dict()`` but the history (a
``to_dict`` costs about 50 actions); every finished game through its scores, winners and
score table with every card's reason. A difference is narrowed to the first action after
which the whole state differs. Also checked in both: pickling, ``copy.deepcopy`` and
``clone`` of a mid-game and a finished state and pickling of a score table, and that the
compiled install runs every module of ``COMPILED_MODULES`` compiled, from the same source
as this checkout.

Without ``FOREST_SHUFFLE_COMPILED_PYTHON`` the tests are skipped, unless
``FOREST_SHUFFLE_NEED_COMPILED=1`` (CI), where they fail.

Script use: ``python tests/test_compiled.py play FIRST COUNT`` prints one JSON line per game;
``python tests/test_compiled.py trace GAME PLAYERS SEED`` prints the hash after each action.
"""

from __future__ import annotations

import ast
import copy
import hashlib
import json
import os
import pickle
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
COMPILED_PYTHON = os.environ.get("FOREST_SHUFFLE_COMPILED_PYTHON", "")
NEED = os.environ.get("FOREST_SHUFFLE_NEED_COMPILED", "") == "1"
#: Seeds per (game, player count): 5 listed games at 2-5 players, 1,200 games.
SEEDS = int(os.environ.get("FOREST_SHUFFLE_DIFF_SEEDS", "60"))
#: The whole state is hashed after every this many actions (and at the end).
FULL_EVERY = 20
#: Pickle, deepcopy and clone are checked in every this many games (a pickle is slow).
COPIES_EVERY = 10
#: Solo challenges played (each with SEEDS // 4 seeds).
SOLO_CHALLENGES = (1, 5, 9, 15)


# ------------------------------------------------------------------ the script side


def _deals() -> Iterator[tuple[str, int, int]]:
    """(game id, players, seed) of every game played, in a fixed order."""
    from forest_shuffle.engine.game import game_by_id, game_ids
    from forest_shuffle.games.dartmoor_solo import solo_id

    for gid in game_ids():
        for n in game_by_id(gid).players:
            for k in range(SEEDS):
                yield gid, n, 1000 * n + k
    for c in SOLO_CHALLENGES:
        for k in range(max(1, SEEDS // 4)):
            yield solo_id(c), 1, 7000 + k


def _state_text(state: Any, whole: bool) -> str:
    """Who moves, the decision and the legal actions; with ``whole`` also ``to_dict()``
    but its history (the same actions chosen from the same legal lists)."""
    legal = hash(tuple(state.legal_actions())) if not state.over else 0  # PYTHONHASHSEED=0
    text = f"{state.to_move}|{state.decision}|{legal}"
    if not whole:
        return text
    data = state.to_dict()
    data.pop("history")
    return f"{text}|{data!r}"


def _copies_agree(state: Any) -> None:
    """Pickle, deepcopy and clone give the same state (AssertionError naming which not)."""
    want = state.to_dict()
    for how, other in (("pickle", pickle.loads(pickle.dumps(state))),
                       ("deepcopy", copy.deepcopy(state)), ("clone", state.clone())):
        if type(other) is not type(state) or other.to_dict() != want:
            raise AssertionError(f"{how} of a {type(state).__name__} differs")


def _table(state: Any) -> list[Any]:
    table = state.game.score_table(state.forests)
    pickled = pickle.loads(pickle.dumps(table))
    out = []
    for fs, again in zip(table, pickled, strict=True):
        row = [fs.total, sorted(fs.lines.items()),
               [[c.where, c.species, c.points, c.why] for c in fs.cards]]
        if [again.total, sorted(again.lines.items()),
                [[c.where, c.species, c.points, c.why] for c in again.cards]] != row:
            raise AssertionError("a pickled score table differs")
        out.append(row)
    return out


def _play(gid: str, players: int, seed: int, copies: bool,
          trace: list[str] | None = None) -> dict[str, Any]:
    """Play one random game; its running hash over every state, scores and score table
    (with ``copies``: also check the copies of a mid-game and the finished state)."""
    from forest_shuffle.engine.state import GameState

    state = GameState.new(players, seed, game=gid)
    rng = random.Random(seed)
    run = hashlib.blake2b(_state_text(state, True).encode(), digest_size=16)
    n = 0
    while not state.over:
        state.apply(rng.choice(state.legal_actions()))
        n += 1
        whole = trace is not None or n % FULL_EVERY == 0 or state.over
        run.update(_state_text(state, whole).encode())
        if trace is not None:
            trace.append(run.hexdigest())
        if copies and n == 40:
            _copies_agree(state)
    if copies:
        _copies_agree(state)
    return {"game": gid, "players": players, "seed": seed, "actions": n,
            "states": run.hexdigest(), "scores": state.scores(), "winners": state.winners(),
            "table": _table(state)}


def _script(argv: list[str]) -> None:
    import forest_shuffle

    print(json.dumps({"compiled": forest_shuffle.compiled(), "file": forest_shuffle.__file__}))
    if argv[0] == "play":
        first, count = int(argv[1]), int(argv[2])
        for i, (gid, n, seed) in enumerate(_deals()):
            if first <= i < first + count:
                print(json.dumps(_play(gid, n, seed, i % COPIES_EVERY == 0)), flush=True)
    elif argv[0] == "trace":
        trace: list[str] = []
        _play(argv[1], int(argv[2]), int(argv[3]), False, trace)
        print(json.dumps(trace))
    elif argv[0] == "sources":
        from forest_shuffle import _build

        out = {}
        for name in _build.COMPILED_MODULES:
            path = Path(forest_shuffle.__file__).parent.joinpath(*name.split(".")[1:])
            out[name] = hashlib.sha256(path.with_suffix(".py").read_bytes()).hexdigest()
        print(json.dumps(out))


# ------------------------------------------------------------------ the test side


def _compiled_python() -> str:
    if not COMPILED_PYTHON:
        if NEED:
            pytest.fail("FOREST_SHUFFLE_NEED_COMPILED=1 but FOREST_SHUFFLE_COMPILED_PYTHON is "
                        "not set")
        pytest.skip("no compiled install (set FOREST_SHUFFLE_COMPILED_PYTHON, docs/speed.md)")
    if not Path(COMPILED_PYTHON).is_file():
        pytest.fail(f"FOREST_SHUFFLE_COMPILED_PYTHON={COMPILED_PYTHON}: no such interpreter")
    return COMPILED_PYTHON


def _start(compiled: bool, *args: str) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONHASHSEED"] = "0"  # the legal actions are compared through hash()
    if compiled:
        python = _compiled_python()
    else:
        python = sys.executable
        env["PYTHONPATH"] = str(SRC)
    return subprocess.Popen([python, str(Path(__file__).resolve()), *args], env=env,
                            cwd="/", stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _lines(proc: subprocess.Popen[str]) -> tuple[dict[str, Any], list[Any]]:
    out, err = proc.communicate()
    assert proc.returncode == 0, err[-3000:]
    head, *rest = out.splitlines()
    return json.loads(head), [json.loads(line) for line in rest]


def _both(*args: str) -> tuple[list[Any], list[Any]]:
    """Run the script in the compiled and the pure interpreter at once; their outputs."""
    compiled, pure = _start(True, *args), _start(False, *args)
    (c_head, c_out), (p_head, p_out) = _lines(compiled), _lines(pure)
    from forest_shuffle import _build

    assert c_head["compiled"] == list(_build.COMPILED_MODULES), c_head
    assert p_head["compiled"] == [], p_head
    assert Path(p_head["file"]).is_relative_to(SRC), p_head
    return c_out, p_out


def test_compiled_install_is_of_this_source() -> None:
    """Every compiled module was built from the .py file this checkout has (else: rebuild)."""
    (c_sources,), (p_sources,) = _both("sources")
    stale = sorted(name for name in p_sources if c_sources.get(name) != p_sources[name])
    assert not stale, f"compiled install is older than src/ for {stale}: rebuild it"


def _except_names_reused(path: Path) -> list[str]:
    """``except A as e`` and ``except B as e`` in one function: mypyc types ``e`` by the first
    and a B then fails its type check (TypeError) in the compiled build."""
    found = []
    for fn in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            seen: dict[str, str] = {}
            for node in ast.walk(fn):
                if isinstance(node, ast.ExceptHandler) and node.name and node.type is not None:
                    kind = ast.unparse(node.type)
                    if seen.setdefault(node.name, kind) != kind:
                        found.append(f"{path.name}:{node.lineno} {fn.name}: 'as {node.name}'")
    return found


def test_compiled_modules_give_each_exception_type_its_own_name() -> None:
    """A rule of the compiled build, checked on the source (no compiled install needed)."""
    from forest_shuffle import _build

    bad = [hit for name in _build.COMPILED_MODULES
           for hit in _except_names_reused(SRC.joinpath(*name.split(".")).with_suffix(".py"))]
    assert not bad, f"rename the except variable (one name per exception type): {bad}"


def test_the_reuse_check_sees_a_reuse(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("def f():\n    try:\n        pass\n    except KeyError as e:\n        pass\n"
                   "    try:\n        pass\n    except ValueError as e:\n        pass\n")
    assert _except_names_reused(bad) == ["bad.py:8 f: 'as e'"]


def _first_difference(game: dict[str, Any]) -> str:
    args = ("trace", game["game"], str(game["players"]), str(game["seed"]))
    (c_trace,), (p_trace,) = _both(*args)
    for i, (c, p) in enumerate(zip(c_trace, p_trace, strict=False)):
        if c != p:
            return f"the state after action {i + 1} differs"
    return f"{len(c_trace)} actions compiled, {len(p_trace)} pure"


def test_random_games_agree() -> None:
    """Thousands of random games: every state, scores and score table agree."""
    total = sum(1 for _ in _deals())
    compiled, pure = _both("play", "0", str(total))
    assert len(compiled) == len(pure) == total
    assert total >= 1000 or SEEDS < 100
    for c, p in zip(compiled, pure, strict=True):
        if c != p:
            where = f"{p['game']}, {p['players']} players, seed {p['seed']}"
            if c["states"] != p["states"] or c["actions"] != p["actions"]:
                pytest.fail(f"{where}: {_first_difference(p)}")
            pytest.fail(f"{where}: final scores or score table differ: {c} != {p}")


if __name__ == "__main__":
    _script(sys.argv[1:])
