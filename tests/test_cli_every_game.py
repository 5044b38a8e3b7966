"""Every command that reads a game, run over every registered game (``game_ids()``: the
base game, each expansion combination and Dartmoor) with small sizes: ``cards`` (the list,
``--json``, one species, one card id), ``score``, ``simulate`` and ``replay`` of its
records, ``tournament`` (random, greedy and tiny searches), ``stats`` (with its plots),
``play`` (bots only), ``learn generate``, ``learn run`` (where PyTorch is installed) and
``serve`` (the app it would serve is built and asked). Each must end with exit status 0
and output that fits the game."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from forest_shuffle.cli.app import app
from forest_shuffle.games import game_ids, make_game

GAMES = game_ids()


def invoke(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(app, list(args), input=stdin, env={"COLUMNS": "200"})


def ok(result: Result) -> str:
    """The output of a run that ended well (a traceback fails the test with its cause)."""
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert result.exit_code == 0, result.output
    return result.stdout


def test_every_registered_game_is_covered() -> None:
    assert {"base", "dartmoor", "base+alpine+woodland_edge"} <= set(GAMES)


@pytest.mark.parametrize("gid", GAMES)
def test_cards_of_every_game(gid: str) -> None:
    catalog = make_game(gid).catalog
    table = ok(invoke("cards", "--game", gid))
    species = next(iter(catalog.species))
    assert species in table
    records: list[dict[str, Any]] = json.loads(ok(invoke("cards", "--json", "--game", gid)))
    cards = [r for r in records if r["kind"] != "cave"]
    assert [r["id"] for r in cards] == [c.id for c in catalog.cards if c is not None]
    for record, card in zip(cards, (c for c in catalog.cards if c is not None), strict=True):
        if card.is_host:  # tree, shrub or moor: the species under the kind's own key
            assert record["kind"] == card.kind and record[card.kind] == card.species.name
            assert record["tree_symbol"] in catalog.tree_symbols
    caves = [r for r in records if r["kind"] == "cave"]
    assert [c["number"] for c in caves] == [c.number for c in catalog.caves]
    assert all(c["text"] and "id" not in c for c in caves)
    assert bool(caves) == (gid == "dartmoor")
    assert any(r["kind"] == "moor" for r in records) == (gid == "dartmoor")
    one = ok(invoke("cards", species, "--game", gid))
    assert species in one
    shown = json.loads(ok(invoke("cards", species, "--json", "--game", gid)))
    assert shown and all(r["kind"] != "cave" for r in shown)
    first = next(c.id for c in catalog.cards if c is not None)
    assert f"#{first}" in ok(invoke("cards", str(first), "--game", gid))
    assert json.loads(ok(invoke("cards", str(first), "--json", "--game", gid)))[0]["id"] == first


def test_moor_and_cave_records_of_dartmoor() -> None:
    records = json.loads(ok(invoke("cards", "--json", "--game", "dartmoor")))
    moors = [r for r in records if r["kind"] == "moor"]
    assert moors and all(r["code"].startswith("DM") and r["module"] == "dartmoor"
                         and isinstance(r["cost"], int) for r in moors)
    caves = [r for r in records if r["kind"] == "cave"]
    assert [c["code"] for c in caves] == [f"C{n}" for n in range(1, len(caves) + 1)]
    assert records[-len(caves):] == caves  # after the deck's cards
    moor = moors[0]
    assert f"#{moor['id']}" in ok(invoke("cards", str(moor["id"]), "--game", "dartmoor"))
    same = json.loads(ok(invoke("cards", moor["moor"], "--json", "--game", "dartmoor")))
    assert moor in same and all(r["kind"] == "moor" for r in same)


@pytest.mark.parametrize("gid", GAMES)
def test_score_of_every_game(gid: str) -> None:
    g = make_game(gid)
    tree = next(sp.name for sp in g.catalog.species.values() if sp.is_tree)
    doc = {"game": gid, "players": [{"name": "A", "trees": [{"tree": tree}]},
                                    {"name": "B", "trees": []}]}
    out = json.loads(ok(invoke("score", "-", "--json", stdin=json.dumps(doc))))
    assert [p["name"] for p in out["players"]] == ["A", "B"]
    assert set(out["players"][0]["lines"]) == set(g.pad_lines)


@pytest.mark.parametrize("gid", GAMES)
def test_simulate_and_replay_every_game(gid: str, tmp_path: Path) -> None:
    out = json.loads(ok(invoke("simulate", "--game", gid, "-g", "2", "--json",
                               "--records", str(tmp_path))))
    assert out
    records = sorted(tmp_path.glob("*.json"))
    assert len(records) == 2
    for record in records:
        assert json.loads(record.read_text())["game"] == gid
        ok(invoke("replay", str(record)))


@pytest.mark.parametrize("gid", GAMES)
def test_tournament_of_every_game(gid: str) -> None:
    out = json.loads(ok(invoke("tournament", "--game", gid, "-g", "2", "--json",
                               "-b", "random,greedy,mcts:iterations=3,learned:iterations=3")))
    assert out


@pytest.mark.parametrize("gid", GAMES)
def test_stats_of_every_game(gid: str, tmp_path: Path) -> None:
    ok(invoke("stats", "--game", gid, "-b", "random", "-g", "1", "-o", str(tmp_path)))
    assert json.loads((tmp_path / "stats.json").read_text())
    assert (tmp_path / "species_points.png").stat().st_size > 0


@pytest.mark.parametrize("gid", GAMES)
def test_play_every_game_with_bots(gid: str) -> None:
    out = ok(invoke("play", "--game", gid, "--players", "2", "--bots", "2", "--seed", "1",
                    "--level", "easy"))
    assert out


@pytest.mark.parametrize("gid", GAMES)
def test_learn_generate_for_every_game(gid: str, tmp_path: Path) -> None:
    data = tmp_path / "data.npz"
    ok(invoke("learn", "generate", "--game", gid, "-o", str(data), "-g", "1", "-p", "2",
              "--fast-only"))
    assert data.stat().st_size > 0


@pytest.mark.parametrize("gid", GAMES)
def test_learn_run_for_every_game(gid: str, tmp_path: Path) -> None:
    """Self-play data and a network trained on it (PyTorch, the extra ``learn``)."""
    pytest.importorskip("torch", reason="the learn extra is not installed (no torch)")
    weights = tmp_path / "value.npz"
    ok(invoke("learn", "run", "--game", gid, "-o", str(weights), "-g", "1", "-p", "2",
              "--epochs", "1", "--hidden", "8"))
    assert weights.stat().st_size > 0


@pytest.mark.parametrize("gid", GAMES)
def test_serve_every_game(gid: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``serve --game`` builds the app it serves (uvicorn is not started): a table created
    without a game is of that game, and so are the cards the page asks for."""
    import uvicorn
    from fastapi.testclient import TestClient

    served: list[Any] = []
    monkeypatch.setattr(uvicorn, "run", lambda the_app, **_: served.append(the_app))
    ok(invoke("serve", "--game", gid, "--port", "0", "--db", "sqlite://",
              "--bot-processes", "0"))
    assert len(served) == 1
    catalog = make_game(gid).catalog
    with TestClient(served[0]) as client:
        offered = client.get("/api/games-offered").json()
        assert offered[0]["id"] == gid
        cards = client.get("/api/cards").json()["cards"]
        assert {int(k) for k in cards} == {c.id for c in catalog.cards if c is not None}
