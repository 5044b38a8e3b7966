"""Forest JSON: the spec's example, every refusal, name folding and the ``score`` command."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from forest_shuffle.cli.commands.score import register
from forest_shuffle.formats.forest_json import (
    ForestJsonError,
    forests_from_document,
    parse_forest_json,
    render_result,
    result_to_json,
)
from forest_shuffle.scoring.core import score_table

SPEC_EXAMPLE: dict[str, Any] = {
    "players": [
        {
            "name": "Ann",
            "cave": 4,
            "trees": [
                {
                    "tree": "Oak",
                    "top": ["Red Squirrel"],
                    "bottom": [{"card": 131}],
                    "left": ["European Hare", "European Hare"],
                    "right": ["Wolf"],
                },
                {"tree": "sapling", "bottom": ["Common Toad", "Common Toad"]},
                {"card": 12},
            ],
        },
        {
            "name": "Ben",
            "trees": [
                {
                    "tree": "Beech",
                    "top": [{"species": "Red Squirrel", "symbol": "Beech"}],
                    "right": [{"card": 76}],
                }
            ],
        },
    ]
}


def table(*trees_per_player: list[dict[str, Any]], **player: Any) -> dict[str, Any]:
    """A document with one player per list of trees (names A, B, ...)."""
    return {"players": [{"name": chr(65 + i), "trees": t, **player}
                        for i, t in enumerate(trees_per_player)]}


def refused(doc: Any) -> str:
    with pytest.raises(ForestJsonError) as err:
        if isinstance(doc, str):
            parse_forest_json(doc)
        else:
            forests_from_document(doc)
    msg = str(err.value)
    assert "\n" not in msg
    return msg


# ----------------------------------------------------------------------------- example


def test_spec_example_scores() -> None:
    names, forests = parse_forest_json(json.dumps(SPEC_EXAMPLE))
    assert names == ["Ann", "Ben"]
    assert [len(f.trees) for f in forests] == [3, 1]
    assert forests[0].trees[2].species is not None
    assert forests[0].trees[2].species.name == "Oak"
    assert forests[0].trees[1].species is None  # the sapling
    out = result_to_json(names, score_table(forests))
    ann, ben = out["players"]
    assert ann["total"] == 25
    assert ann["lines"] == {"trees": 0, "top_bottom": 17, "left_right": 4, "cave": 4}
    assert ben["total"] == 9  # Roe Deer: the Beech, the squirrel's Beech symbol and itself
    assert out["winners"] == ["Ann"]


def test_result_shape_exact() -> None:
    names, forests = parse_forest_json(json.dumps(SPEC_EXAMPLE))
    out = result_to_json(names, score_table(forests))
    assert list(out) == ["players", "winners"]
    for p in out["players"]:
        assert list(p) == ["name", "total", "lines", "cards"]
        assert list(p["lines"]) == ["trees", "top_bottom", "left_right", "cave"]
        assert sum(p["lines"].values()) == p["total"]
        for c in p["cards"]:
            assert list(c) == ["where", "species", "points", "why"]
            assert isinstance(c["points"], int) and isinstance(c["why"], str)
    squirrel = out["players"][0]["cards"][1]
    assert squirrel == {"where": "tree 1 top", "species": "Red Squirrel", "points": 5,
                        "why": "atop an Oak"}


def test_tie_shares_victory() -> None:
    doc = table([{"tree": "Birch"}], [{"tree": "Birch"}])
    names, forests = forests_from_document(doc)
    assert result_to_json(names, score_table(forests))["winners"] == ["A", "B"]


def test_card_halves_follow_the_slot() -> None:
    # card 131: Large Tortoiseshell on top, Blackberries at the bottom
    _, (f,) = forests_from_document(table([{"tree": "Oak", "top": [{"card": 131}]}]))
    d = f.trees[0].slots["top"][0]
    assert (d.species.name, d.symbol, d.card) == ("Large Tortoiseshell", "Silver Fir", 131)


def test_name_folding() -> None:
    doc = table([{"tree": "silver fir", "left": ["bechstein’s bat"], "right": ["BECHSTEIN'S BAT"],
                  "top": ["great-spotted woodpecker"], "bottom": ["Wild_Strawberries"]},
                 {"tree": "LINDEN TREE"}, {"tree": "Horse  chestnut"}, {"tree": "Sapling"}])
    _, (f,) = forests_from_document(doc)
    names = [t.name for t in f.trees]
    assert names == ["Silver Fir", "Linden", "Horse Chestnut", "sapling"]
    assert [d.species.name for d in f.trees[0].slots["left"]] == ["Bechstein's Bat"]


def test_defaults_and_forgiving_forms() -> None:
    doc = {"players": [{"trees": [{"tree": "Oak", "top": "Red Squirrel"}]}, {"cave": 2.0}]}
    names, forests = forests_from_document(doc)
    assert names == ["Player 1", "Player 2"]
    assert forests[1].cave == 2 and forests[1].trees == []
    assert forests[0].trees[0].slots["top"][0].species.name == "Red Squirrel"


def test_hares_and_toads_stack() -> None:
    doc = table([{"tree": "Oak", "left": ["European Hare"] * 5, "right": ["European Hare"] * 6,
                  "bottom": ["Common Toad", "Common Toad"]}])
    _, (f,) = forests_from_document(doc)
    assert score_table([f])[0].total == 121 + 10


def test_deck_fixes_a_symbol() -> None:
    # every Penny Bun shows Douglas Fir: a plain name is enough next to a Roe Deer
    doc = table([{"tree": "Oak", "bottom": ["Penny Bun"],
                  "left": [{"species": "Roe Deer", "symbol": "Linden"}],
                  "right": ["Wolf"]}])  # no Wolf shows Linden: its symbol does not matter
    _, (f,) = forests_from_document(doc)
    assert f.trees[0].slots["bottom"][0].symbol == "Douglas Fir"
    assert score_table([f])[0].total == 3 + 5  # Roe Deer alone, Wolf counts 1 deer


# ----------------------------------------------------------------------------- refusals


def test_refuses_bad_json() -> None:
    msg = refused('{"players": [')
    assert msg.startswith("not valid JSON") and "line 1" in msg


@pytest.mark.parametrize("n", [0, 6])
def test_refuses_player_count(n: int) -> None:
    assert "1 to 5" in refused({"players": [{"name": f"P{i}"} for i in range(n)]})


def test_refuses_not_a_table() -> None:
    assert "players" in refused([1, 2])
    assert "players" in refused({"player": []})


def test_refuses_duplicate_names() -> None:
    msg = refused({"players": [{"name": "Ann"}, {"name": "Ann"}]})
    assert msg.startswith('player 2 "Ann"') and "twice" in msg


def test_refuses_unknown_species() -> None:
    msg = refused(table([{"tree": "Oak"}, {"tree": "Birch", "left": ["Unicorn"]}]))
    assert msg == 'player 1 "A", tree 2, left: unknown species "Unicorn"'


def test_refuses_unknown_tree() -> None:
    msg = refused(table([{"tree": "Oak"}, {"tree": "Palm"}]))
    assert msg == 'player 1 "A", tree 2: unknown tree "Palm"'
    assert "not a tree" in refused(table([{"tree": "Wolf"}]))


@pytest.mark.parametrize("side,name", [("bottom", "Chaffinch"), ("top", "Barbastelle Bat"),
                                       ("left", "Moss"), ("top", "Oak")])
def test_refuses_species_in_wrong_slot(side: str, name: str) -> None:
    msg = refused(table([{"tree": "Oak", side: [name]}]))
    assert msg.startswith(f'player 1 "A", tree 1, {side}: ')


def test_refuses_two_cards_in_a_slot() -> None:
    msg = refused(table([{"tree": "Oak", "top": ["Chaffinch", "Goshawk"]}]))
    assert msg.startswith('player 1 "A", tree 1, top: two cards in a slot')
    # a hare does not share with another species, nor a toad with another card
    assert "two cards" in refused(table([{"tree": "Oak", "left": ["European Hare", "Lynx"]}]))
    assert "two cards" in refused(table([{"tree": "Oak", "left": ["Lynx", "European Hare"]}]))
    assert "two cards" in refused(table([{"tree": "Oak", "bottom": ["Moss", "Common Toad"]}]))


def test_refuses_three_toads() -> None:
    msg = refused(table([{"tree": "Oak", "bottom": ["Common Toad"] * 3}]))
    assert msg == 'player 1 "A", tree 1, bottom: three Common Toads in one slot (at most two)'


def test_refuses_same_card_twice() -> None:
    msg = refused(table([{"card": 12}], [{"tree": "Birch", "top": [{"card": 131}]},
                                         {"card": 12}]))
    assert msg.startswith('player 2 "B", tree 2: card 12 is used twice')
    msg = refused(table([{"tree": "Oak", "top": [{"card": 131}], "bottom": [{"card": 131}]}]))
    assert msg.startswith('player 1 "A", tree 1, bottom: card 131 is used twice')


def test_refuses_too_many_copies() -> None:
    msg = refused(table([{"tree": "Oak"}] * 8))
    assert msg.startswith('player 1 "A", tree 8: more Oak tree cards than the deck has (7)')
    # across the table: one deck
    msg = refused(table([{"tree": "Oak"}] * 4, [{"tree": "Oak"}] * 4))
    assert msg.startswith('player 2 "B", tree 4: more Oak')
    ferns = [{"tree": "Birch", "bottom": ["Tree Ferns"]}] * 4
    assert "more Tree Ferns cards than the deck has (3)" in refused(table(ferns))
    # a card given by id also uses its hidden half: 4 Raccoons + card 76 (Raccoon / Roe Deer)
    raccoons = [{"tree": "Birch", "left": ["Raccoon"]}] * 4 + [
        {"tree": "Beech", "right": [{"card": 76}]}]
    assert "hidden halves" in refused(table(raccoons))
    # and a species showing a symbol no copy of it shows
    msg = refused(table([{"tree": "Oak", "left": [{"species": "Roe Deer", "symbol": "Oak"}]}]))
    assert msg == 'player 1 "A", tree 1, left: no Roe Deer in the deck shows the Oak symbol'
    two = [{"tree": "Oak", "left": [{"species": "Roe Deer", "symbol": "Beech"}]},
           {"tree": "Oak", "left": [{"card": 76}]}]
    assert "more Roe Deer cards showing the Beech symbol" in refused(table(two))


@pytest.mark.parametrize("card,words", [(0, "not in the deck"), (162, "not in the deck"),
                                        (67, "winter card"), ("12", "integer")])
def test_refuses_bad_card_ids(card: Any, words: str) -> None:
    assert words in refused(table([{"card": card}]))
    assert words in refused(table([{"tree": "Oak", "top": [{"card": card}]}]))


def test_refuses_cards_that_do_not_fit() -> None:
    assert "has no top half" in refused(table([{"tree": "Oak", "top": [{"card": 76}]}]))
    assert "not a tree card" in refused(table([{"card": 76}]))
    assert "tree card, not a dweller" in refused(table([{"tree": "Oak", "top": [{"card": 12}]}]))
    msg = refused(table([{"tree": "Oak", "right": [{"card": 76, "species": "Wolf"}]}]))
    assert "shows Roe Deer" in msg


@pytest.mark.parametrize("cave", [-1, 1.5, "3", True, None])
def test_refuses_bad_cave(cave: Any) -> None:
    msg = refused(table([], cave=cave))
    assert msg.startswith('player 1 "A", cave: must be a non-negative integer')


def test_refuses_unknown_keys_and_shapes() -> None:
    assert 'unknown key "topp"' in refused(table([{"tree": "Oak", "topp": ["Chaffinch"]}]))
    assert "exactly one" in refused(table([{"tree": "Oak", "card": 10}]))
    assert "exactly one" in refused(table([{}]))
    assert "unknown tree symbol" in refused(
        table([{"tree": "Oak", "left": [{"species": "Lynx", "symbol": "Palm"}]}]))


def test_refuses_roe_deer_without_symbol() -> None:
    msg = refused(table([{"tree": "Oak"}, {"tree": "Beech", "left": ["Roe Deer"]}]))
    assert msg.startswith('player 1 "A", tree 2, left: give this Roe Deer')


def test_refuses_ambiguous_symbol_next_to_roe_deer() -> None:
    # some hares show Beech, the Roe Deer of card 76 counts Beech
    doc = table([{"tree": "Beech", "right": [{"card": 76}], "left": ["European Hare"]}])
    msg = refused(doc)
    assert msg.startswith('player 1 "A", tree 1, left: give this European Hare')
    assert "Beech" in msg
    # the same hare in a forest without Roe Deer is fine
    forests_from_document(table([{"tree": "Beech", "left": ["European Hare"]}],
                                [{"tree": "Oak", "right": [{"card": 76}]}]))


# ----------------------------------------------------------------------------- the command


def _app() -> typer.Typer:
    app = typer.Typer()

    @app.callback()
    def main() -> None:
        """Test app."""

    register(app)
    return app


def test_command_json(tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    path.write_text(json.dumps(SPEC_EXAMPLE), encoding="utf-8")
    result = CliRunner().invoke(_app(), ["score", str(path), "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert [p["total"] for p in out["players"]] == [25, 9]
    assert out["winners"] == ["Ann"]


def test_command_stdin_table() -> None:
    result = CliRunner().invoke(_app(), ["score", "-"], input=json.dumps(SPEC_EXAMPLE))
    assert result.exit_code == 0, result.output
    assert "Ann" in result.stdout and "25" in result.stdout and "Score pad" in result.stdout


def test_command_stdin_json() -> None:
    result = CliRunner().invoke(_app(), ["score", "-", "--json"], input=json.dumps(SPEC_EXAMPLE))
    assert json.loads(result.stdout)["players"][1]["total"] == 9


def test_command_refusal(tmp_path: Path) -> None:
    doc = table([{"tree": "Oak", "bottom": ["Common Toad"] * 3}])
    result = CliRunner().invoke(_app(), ["score", "-", "--json"], input=json.dumps(doc))
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert 'player 1 "A", tree 1, bottom: three Common Toads' in result.stderr
    missing = CliRunner().invoke(_app(), ["score", str(tmp_path / "nope.json")])
    assert missing.exit_code == 2 and "cannot read" in missing.stderr


def test_module_entry_point(tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    path.write_text(json.dumps(SPEC_EXAMPLE), encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "forest_shuffle", "score", str(path), "--json"],
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["winners"] == ["Ann"]
    bad = subprocess.run([sys.executable, "-m", "forest_shuffle", "score", "-"],
                         input="{nope", capture_output=True, text=True, check=False)
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.strip().startswith("error: not valid JSON")
    assert bad.stderr.count("\n") == 1


def test_render_result_plain() -> None:
    from rich.console import Console

    names, forests = parse_forest_json(json.dumps(SPEC_EXAMPLE))
    console = Console(record=True, width=120)
    render_result(names, score_table(forests), console)
    text = console.export_text()
    assert "Ann wins." in text and "atop an Oak" in text


def test_extra_keys_are_welcome_but_misspelt_slots_refused() -> None:
    doc = table([{"tree": "Oak", "note": "planted first", "top": [
        {"species": "Red Squirrel", "symbol": "Oak", "comment": "x"}]}])
    names, forests = parse_forest_json(json.dumps(doc))
    assert score_table(forests)[0].total == 5
    assert "did you mean \"top\"" in refused(table([{"tree": "Oak", "topp": ["Red Squirrel"]}]))
