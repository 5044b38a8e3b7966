"""Tests of the ``cards`` sub-command and of the card phrasing it uses."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from scenario import CATALOG
from typer.testing import CliRunner, Result

from forest_shuffle.cli.app import app
from forest_shuffle.text import cardtext

#: Wide enough that no species name in the table is wrapped.
WIDE = {"COLUMNS": "200"}

REFERENCE_KINDS = {"tree", "winter", "split_left_right", "split_top_bottom"}


def _argv(*args: str) -> list[str]:
    """The arguments for ``cards``: Typer runs a lone sub-command as the app itself."""
    lone = (len(app.registered_commands) == 1 and not app.registered_groups
            and app.registered_callback is None)
    return list(args) if lone else ["cards", *args]


def run(*args: str, columns: int = 200) -> Result:
    """Invoke ``forest-shuffle cards ARGS`` in-process."""
    return CliRunner().invoke(app, _argv(*args), env={"COLUMNS": str(columns)})


def run_json(*args: str) -> list[dict[str, Any]]:
    """Invoke ``cards --json ARGS`` and parse its output."""
    result = run("--json", *args)
    assert result.exit_code == 0, result.output
    records: list[dict[str, Any]] = json.loads(result.stdout)
    return records


def test_cards_is_registered() -> None:
    names = {c.name or (c.callback.__name__ if c.callback else "") for c in app.registered_commands}
    assert "cards" in names


# --- the list ---------------------------------------------------------------------------------


def test_list_shows_every_species() -> None:
    result = run()
    assert result.exit_code == 0, result.output
    for name in CATALOG.species:
        assert name in result.stdout, name
    assert "57 species" in result.stdout
    assert "8 trees, 49 dwellers" in result.stdout


def test_list_shows_costs_places_rules_and_copies() -> None:
    out = run().stdout
    hare = next(line for line in out.splitlines() if "European Hare" in line)
    assert "left/right" in hare and "11" in hare and "pawed animal" in hare
    owl = next(line for line in out.splitlines() if "Tawny Owl" in line)
    assert "Draw 1 card" in owl and "Draw 2 cards" in owl and "5 each" in owl
    for column in ("Cost", "Tags", "Goes", "Effect", "Bonus", "Permanent", "Points", "Copies"):
        assert column in out


def test_list_fits_a_narrow_terminal() -> None:
    result = run(columns=80)
    assert result.exit_code == 0
    assert max(len(line) for line in result.stdout.splitlines()) <= 80
    assert "Bechstein's Bat" in result.stdout


# --- one species or card ---------------------------------------------------------------------


@pytest.mark.parametrize("spelling", [
    "bechstein’s bat", "BECHSTEIN'S BAT", "Bechstein's Bat", "bechstein", "bechsteins bat",
])
def test_name_with_odd_case_and_apostrophe(spelling: str) -> None:
    result = run(spelling)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Bechstein's Bat" in out
    assert "3 card halves" in out
    assert "at least 3 different bat species" in out
    # its three cards with what is on the other half
    for cid in ("96", "100", "102"):
        assert cid in out
    assert "European Fat Dormouse (right, Oak)" in out
    assert "Wolf (right, Silver Fir)" in out
    assert "Beech Marten (left, Beech)" in out


def test_unique_substring_finds_the_species() -> None:
    out = run("squirrel").stdout
    assert "Red Squirrel" in out and "atop an Oak" in out


def test_tree_species_details() -> None:
    result = run("horse chestnut")
    assert result.exit_code == 0
    assert "11 tree cards" in result.stdout
    assert "49 for 7 or more" in result.stdout
    assert "56" in result.stdout and "66" in result.stdout


def test_card_id_shows_the_card_and_both_species() -> None:
    result = run("81")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "#81 LR12: Red Deer (left, Linden) | Brown Bear (right, Beech)" in out
    assert "Place 1 Deer card from your hand" in out  # Red Deer bonus
    assert "under your cave card" in out  # Brown Bear effect


def test_winter_card_id() -> None:
    result = run("68")
    assert result.exit_code == 0
    assert "Winter" in result.stdout


# --- JSON -------------------------------------------------------------------------------------


def test_json_lists_all_161_cards_in_reference_shape() -> None:
    records = run_json()
    assert [r["id"] for r in records] == list(range(1, 162))
    kinds = [r["kind"] for r in records]
    assert set(kinds) == REFERENCE_KINDS
    assert kinds.count("tree") == 66 and kinds.count("winter") == 3
    assert kinds.count("split_left_right") == 44 and kinds.count("split_top_bottom") == 48
    for r in records:
        if r["kind"] == "tree":
            assert r["tree"] == r["tree_symbol"] and r["tree"] in CATALOG.species
        elif r["kind"] != "winter":
            pair = ("left", "right") if r["kind"] == "split_left_right" else ("top", "bottom")
            for side in pair:
                assert {"species", "tree_symbol"} <= set(r[side]), r["id"]
            assert not {"left", "right", "top", "bottom"} - set(pair) & set(r)


def test_json_card_content() -> None:
    by_id = {r["id"]: r for r in run_json()}
    assert by_id[1] | {"tree": "Linden", "tree_symbol": "Linden", "kind": "tree"} == by_id[1]
    assert by_id[67]["kind"] == "winter"
    card = by_id[81]
    assert card["code"] == "LR12"
    assert card["left"]["species"] == "Red Deer" and card["left"]["tree_symbol"] == "Linden"
    assert card["right"]["species"] == "Brown Bear" and card["right"]["tree_symbol"] == "Beech"
    assert card["right"]["cost"] == 3 and card["right"]["tags"] == ["pawed animal"]


def test_json_matches_reference_cards() -> None:
    from pathlib import Path

    ref_path = Path(__file__).resolve().parents[2] / "shared" / "reference" / "cards-base.json"
    if not ref_path.is_file():
        pytest.skip(f"reference card facts not found at {ref_path}")
    ref = json.loads(ref_path.read_text(encoding="utf-8"))["cards"]
    ours = run_json()
    for theirs, mine in zip(ref, ours, strict=True):
        trimmed = {k: mine[k] for k in theirs if k in mine}
        for side in ("left", "right", "top", "bottom"):
            if side in trimmed:
                trimmed[side] = {k: mine[side][k] for k in ("species", "tree_symbol")}
        assert trimmed == theirs


def test_json_with_name_lists_only_that_species_cards() -> None:
    records = run_json("Roe Deer")
    assert len(records) == 5
    for r in records:
        assert "Roe Deer" in {r.get(s, {}).get("species") for s in ("left", "right")}
    assert sorted(r["id"] for r in records) == [76, 87, 89, 99, 101]


def test_json_with_tree_name_and_with_card_id() -> None:
    assert [r["id"] for r in run_json("oak")] == list(range(10, 17))
    assert [r["id"] for r in run_json("150")] == [150]


# --- bad names --------------------------------------------------------------------------------


@pytest.mark.parametrize(("query", "expected"), [
    ("gnatt", "no card named 'gnatt', did you mean Gnat?"),
    ("Bechstien's bat", "did you mean Bechstein's Bat?"),
    ("xyzzy", "no card named 'xyzzy'"),
    ("red", "matches several cards: Red Deer, Red Fox, Red Squirrel"),
    ("999", "no card with id 999"),
    ("0", "no card with id 0"),
])
def test_unknown_name_exits_2_with_one_line(query: str, expected: str) -> None:
    for args in ((query,), ("--json", query)):
        result = run(*args)
        assert result.exit_code == 2, result.output
        assert result.stdout == ""
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and expected in lines[0]
        assert "Traceback" not in result.stderr


def test_unknown_name_in_a_real_process() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "forest_shuffle", *_argv("Unicorn")],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == ["no card named 'Unicorn'"] or (
        proc.stderr.startswith("no card named 'Unicorn', did you mean"))
    assert "Traceback" not in proc.stderr


# --- the phrasing module ----------------------------------------------------------------------


def test_describe_effect_words() -> None:
    sp = CATALOG.species
    assert cardtext.describe_effect(sp["Tawny Owl"].bonus) == "Draw 2 cards"
    assert cardtext.describe_effect(sp["Brown Bear"].bonus) == "Draw 1 card and take another turn"
    assert cardtext.describe_effect(sp["Red Deer"].bonus) == "Place 1 deer from your hand for free"
    assert "bats" in cardtext.describe_effect(sp["Gnat"].effect)
    assert "European Hare" in cardtext.describe_effect(sp["Red Fox"].effect)
    assert "tree card" in cardtext.describe_effect(sp["Chanterelle"].permanent)
    assert cardtext.describe_effect(None) == ""


def test_every_species_has_words_for_every_part_it_has() -> None:
    for sp in CATALOG.species.values():
        assert cardtext.describe_points(sp)
        for part in cardtext.PARTS:
            has = part == "points" or cardtext.part_effect(sp, part) is not None
            assert bool(cardtext.short_text(sp, part)) == has, (sp.name, part)
            assert bool(cardtext.full_text(sp, part)) == has, (sp.name, part)
        assert "_" not in cardtext.describe_points(sp)


def test_where_it_goes_and_summaries() -> None:
    sp = CATALOG.species
    assert cardtext.where_it_goes(sp["Oak"]) == "tree"
    assert cardtext.where_it_goes(sp["Lynx"]) == "left/right"
    assert cardtext.where_it_goes(sp["Goshawk"]) == "top"
    assert cardtext.where_it_goes(sp["Moss"]) == "bottom"
    assert cardtext.card_summary(10, CATALOG) == "#10 T10: Oak (tree card, cost 2)"
    assert cardtext.card_summary(67, CATALOG) == "#67 W1: Winter card"
    assert cardtext.card_summary(161, CATALOG) == (
        "#161 TB48: Great Spotted Woodpecker (top, Linden) | Penny Bun (bottom, Douglas Fir)")


def test_match_species() -> None:
    assert cardtext.match_species("bechstein’s bat", CATALOG).name == "Bechstein's Bat"
    assert cardtext.match_species("fritillary", CATALOG).name == "Silver-Washed Fritillary"
    # an exact name beats the prefix of Beech Marten
    assert cardtext.match_species("Beech", CATALOG).name == "Beech"
    with pytest.raises(cardtext.NoSuchCard, match="several"):
        cardtext.match_species("fir", CATALOG)


@pytest.mark.parametrize(("lang", "tag", "bonus", "label"), [
    ("fr", "oiseau", "Piochez 2 cartes", "Effet"),
    ("de", "Vogel", "Ziehe 2 Karten", "Effekt"),
    ("zh", "鸟", "抽 2 张牌", "效果"),
])
def test_cards_lang_says_the_tags_and_rules_in_that_language(lang: str, tag: str, bonus: str,
                                                             label: str) -> None:
    """``cards --lang L NAME``: the species' tags, labels and rules in the language (the
    ``cards`` domain); the table of every species too; without it, English."""
    one = run("tawny owl", "--lang", lang)
    assert one.exit_code == 0, one.output
    assert tag in one.output and bonus in one.output and label in one.output
    assert "Draw 2 cards" not in one.output
    table = run("--lang", lang, columns=100)
    assert table.exit_code == 0 and bonus in table.output
    english = run("tawny owl")
    assert "Draw 2 cards" in english.output and bonus not in english.output
