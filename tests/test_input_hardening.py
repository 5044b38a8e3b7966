"""Hostile input to the library and the command line: every bad input is one clear line.

Action texts (unicode digits, huge numbers, control characters), JSON files nested deeply
or holding huge integers (``score`` and ``replay``), forest-json with unknown keys, huge
caves and long names, and broken game records.
"""

from __future__ import annotations

import json
import math
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from forest_shuffle.cli.app import app
from forest_shuffle.engine.actions import MAX_ACTION_TEXT, Action, ActionParseError
from forest_shuffle.engine.check import JsonInputError, load_json, printable
from forest_shuffle.formats.forest_json import (
    ForestJsonError,
    forests_from_document,
    parse_forest_json,
)
from forest_shuffle.formats.records import (
    RecordError,
    random_game,
    read_record,
    record_of,
    write_record,
)

# ----------------------------------------------------------------------------- actions


def parse_error(text: str) -> str:
    with pytest.raises(ActionParseError) as err:
        Action.parse(text)
    msg = str(err.value)
    assert "\n" not in msg and msg.isprintable(), msg
    assert len(msg) < 200
    return msg


@pytest.mark.parametrize("text", [
    "take ²", "take ٣", "take ５", "pay ¹²", "play 12 left ³", "play 12 left ⁴2",
    "cave 1²", "sapling ⅷ", "take 𝟗",
])
def test_non_ascii_digits_are_refused(text: str) -> None:
    assert "must be a number" in parse_error(text)


@pytest.mark.parametrize("text", [
    "take " + "9" * 5000,  # int() would raise its own ValueError (4,300 digits)
    "take " + "9" * 4000,
    "play 1 left " + "1" * 100,
    "take 1234567",
])
def test_huge_numbers_are_refused(text: str) -> None:
    assert "digits" in parse_error(text) or "at most" in parse_error(text)


def test_long_texts_are_refused_before_any_work() -> None:
    msg = parse_error("keep " + " " * 10_000_000)
    assert f"at most {MAX_ACTION_TEXT} characters" in msg
    assert str(Action.parse(" " * 20 + "keep" + " " * 20)) == "keep"


@pytest.mark.parametrize("text", [
    "take\x005", "\x1b[31mtake 5", "take 5\x07", "t\u200bake 5", "play 12 le\x00ft 3", "\x00",
    "take \x1b]0;pwned\x07", "\ud800", "take \ud800",
])
def test_control_characters_are_named_escaped(text: str) -> None:
    msg = parse_error(text)
    assert "\x1b" not in msg and "\x00" not in msg


def test_canonical_texts_round_trip() -> None:
    for text in ("keep", "mulligan", "draw", "take 57", "play 12", "play 71 left 3",
                 "sapling 34", "pay 40", "yes", "no", "cave 40", "done"):
        assert str(Action.parse(text)) == text
    assert Action.parse("TAKE 057") == Action.parse("take 57")


_WORDS = st.sampled_from([
    "keep", "mulligan", "draw", "take", "play", "sapling", "pay", "yes", "no", "cave", "done",
    "top", "bottom", "left", "right", "LEFT", "0", "1", "12", "007", "161", "999999",
    "9999999", "²", "٣", "５", "-1", "1.5", "1e3", "", " ", "\t", "\n", "\x00", "\u00a0",
    "\u2028", "\x85", "İ", "ǅ",
])


@settings(max_examples=600, deadline=None)
@given(st.one_of(
    st.text(),
    st.text(alphabet=st.characters(whitelist_categories=("Nd", "No", "Nl", "Zs", "Cc"))),
    st.lists(_WORDS, max_size=6).map(" ".join),
    st.lists(_WORDS, max_size=6).map("".join),
    st.tuples(_WORDS, st.integers(min_value=0, max_value=10**30)).map(
        lambda t: f"{t[0]} {t[1]}"),
    st.tuples(st.sampled_from(["play", "take"]), st.integers(0, 10**9),
              st.sampled_from(["top", "left", "x"]), st.integers(-5, 10**9)).map(
        lambda t: f"{t[0]} {t[1]} {t[2]} {t[3]}"),
))
def test_any_text_parses_round_trip_or_is_refused(text: str) -> None:
    try:
        action = Action.parse(text)
    except ActionParseError as exc:
        msg = str(exc)
        assert msg and "\n" not in msg and msg.isprintable()
        return
    assert isinstance(action, Action)
    assert isinstance(action.card, int) and isinstance(action.tree, int)
    assert Action.parse(str(action)) == action
    assert str(Action.parse(str(action))) == str(action)


# ----------------------------------------------------------------------------- JSON loading

DEEP = "[" * 100_000 + "]" * 100_000
DEEP_OBJECT = '{"a":' * 100_000 + "1" + "}" * 100_000
BIG_INT = "1" * 5000


@pytest.mark.parametrize("text, words", [
    (DEEP, "nested"),
    (DEEP_OBJECT, "nested"),
    ("[" * 200 + "]" * 200, "nested"),
    (f'{{"players": [{{"name": "A", "cave": {BIG_INT}}}]}}', "digits"),
    (f"[{BIG_INT}]", "digits"),
    ('{"a": NaN}', "NaN"),
    ('{"a": Infinity}', "Infinity"),
    ('{"a": 1, "a": 2}', "twice"),
    ('["\\ud800"]', "surrogate"),
    ("{nope", "not valid JSON"),
])
def test_load_json_refuses_in_one_line(text: str, words: str) -> None:
    with pytest.raises(JsonInputError) as err:
        load_json(text)
    assert isinstance(err.value, ValueError)
    msg = str(err.value)
    assert "\n" not in msg and words in msg, msg


def test_load_json_size_limit() -> None:
    with pytest.raises(JsonInputError, match="larger than"):
        load_json("[" + "1," * 100 + "1]", max_chars=50)
    assert load_json('{"a": [1, {"b": "ü"}]}') == {"a": [1, {"b": "ü"}]}


def _one_line_exit_2(result: Any) -> str:
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        repr(result.exception))
    assert result.exit_code == 2, (result.exit_code, result.output)
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1, result.stderr
    assert "Traceback" not in result.stderr
    return str(result.stderr)


@pytest.mark.parametrize("command", ["score", "replay"])
@pytest.mark.parametrize("content, words", [
    (DEEP, "nested"),
    (f'{{"players": [{{"name": "A", "cave": {BIG_INT}}}]}}', "digits"),
    (f'{{"format": "forest-shuffle record 1", "seed": {BIG_INT}}}', "digits"),
    ("\ufeff{}", "JSON"),
    ('{"players": [], "players": []}', "twice"),
])
def test_commands_refuse_hostile_json_in_one_line(tmp_path: Path, command: str,
                                                  content: str, words: str) -> None:
    path = tmp_path / "hostile.json"
    path.write_text(content, encoding="utf-8")
    err = _one_line_exit_2(CliRunner().invoke(app, [command, str(path)]))
    assert words in err


@pytest.mark.parametrize("command", ["score", "replay"])
def test_commands_refuse_files_that_are_not_text(tmp_path: Path, command: str) -> None:
    path = tmp_path / "binary.json"
    path.write_bytes(b'{"players": [{"name": "\xff"}]}')
    _one_line_exit_2(CliRunner().invoke(app, [command, str(path)]))


def test_score_refuses_stdin_that_is_not_utf8() -> None:
    result = CliRunner().invoke(app, ["score", "-"], input=b'{"players": [\xff]}')
    assert "UTF-8" in _one_line_exit_2(result)


# ----------------------------------------------------------------------------- forest json


def refused(doc: Any) -> str:
    with pytest.raises(ForestJsonError) as err:
        forests_from_document(doc)
    msg = str(err.value)
    assert "\n" not in msg and len(msg) < 400, msg
    return msg


def test_misspelt_player_key_is_refused_not_scored_as_empty() -> None:
    msg = refused({"players": [{"name": "Ann", "forest": [{"tree": "Oak"}]}]})
    assert msg.startswith('player 1 "Ann": unknown key "forest"'), msg


@pytest.mark.parametrize("doc, start", [
    ({"players": [], "player": []}, 'unknown key "player"'),
    ({"players": [{"name": "A", "Trees": []}]}, 'player 1 "A": unknown key "Trees"'),
    ({"players": [{"name": "A", "caves": 3}]}, 'player 1 "A": unknown key "caves"'),
    ({"players": [{"name": "A", "trees": [{"tree": "Oak", "up": ["Red Squirrel"]}]}]},
     'player 1 "A", tree 1: unknown key "up"'),
    ({"players": [{"name": "A", "trees": [{"tree": "Oak", "top": [
        {"species": "Red Squirrel", "extra": {"card": 3}}]}]}]},
     'player 1 "A", tree 1, top: unknown key "extra"'),
    ({"players": [{"name": "A", "moors": []}]}, 'player 1 "A": unknown key "moors"'),
])
def test_unknown_keys_that_hold_cards_or_look_misspelt_are_refused(doc: dict[str, Any],
                                                                   start: str) -> None:
    msg = refused(doc)
    assert start in msg, msg


def test_annotations_are_welcome() -> None:
    # The spec is forgiving where that costs nothing: a text, number, boolean or null under
    # an unknown key drops no card.
    names, forests = forests_from_document({"note": "club night", "players": [
        {"name": "A", "seat": 1, "trees": [{"tree": "Oak", "note": "first", "top": [
            {"species": "Red Squirrel", "colour": "red", "flag": None}]}]}]})
    assert names == ["A"] and len(forests[0].trees) == 1


def test_game_field_of_the_spec() -> None:
    names, _ = forests_from_document({"game": "base", "players": [{"name": "A"}]})
    assert names == ["A"]
    for game in ("base+alpine", "base+woodland_edge+alpine", "base+woodland_edge"):
        names, _ = forests_from_document({"game": game, "players": [{"name": "A"}]})
        assert names == ["A"]
    names, _ = forests_from_document({"game": "dartmoor", "players": [{"name": "A"}]})
    assert names == ["A"]
    for game in ("chess", "base+base", "base+", "", 1, None, ["base"], "alpine"):
        assert "game" in refused({"game": game, "players": [{"name": "A"}]})


@pytest.mark.parametrize("cave", [10**20, 159, 1e300, 10**4000])
def test_cave_bounded_by_the_cards_of_the_game(cave: Any) -> None:
    msg = refused({"players": [{"name": "A", "cave": cave}]})
    assert msg.startswith('player 1 "A", cave:') and "158" in msg, msg
    assert len(msg) < 200


def test_caves_and_forests_together_fit_in_the_deck() -> None:
    forests_from_document({"players": [{"name": "A", "cave": 158}]})
    forests_from_document({"players": [{"name": "A", "cave": 100}, {"name": "B", "cave": 58}]})
    msg = refused({"players": [{"name": "A", "cave": 100}, {"name": "B", "cave": 59}]})
    assert msg.startswith('player 2 "B", cave:'), msg
    msg = refused({"players": [{"name": "A", "cave": 157,
                                "trees": [{"tree": "Oak"}, {"tree": "sapling"}]}]})
    assert msg.startswith('player 1 "A", cave:'), msg


def test_saplings_are_bounded_by_the_cards_of_the_game() -> None:
    msg = refused({"players": [{"name": "A", "trees": [{"tree": "sapling"}] * 100_000}]})
    assert msg.startswith('player 1 "A", tree 159:'), msg


def test_long_name_is_linear_and_messages_stay_short(tmp_path: Path) -> None:
    # Not a speed test: a name handled in quadratic time (80,000 characters: billions of
    # steps) would take minutes, linear handling well under a second on an idle machine.
    # The bound is loose and the best of three runs counts, so a busy machine does not fail
    # it.
    for n in (20_000, 80_000):
        path = tmp_path / "name.json"
        doc = {"players": [{"name": "x" * n, "trees": [{"tree": "Oak"}]}, {"name": "B"}]}
        path.write_text(json.dumps(doc), encoding="utf-8")
        best = math.inf
        for _ in range(3):
            start = time.perf_counter()
            result = CliRunner().invoke(app, ["score", str(path)])
            best = min(best, time.perf_counter() - start)
            assert result.exit_code == 0, result.output
        assert best < 10.0, n
    msg = refused({"players": [{"name": "x" * 50_000, "trees": [{"tree": "Palm"}]}]})
    assert len(msg) < 200


@pytest.mark.parametrize("name", ["[/]", "[bold]Ann", "[link=http://x]y[/link]", "Ann\x1b[2J"])
def test_names_are_printed_as_text_not_markup(tmp_path: Path, name: str) -> None:
    path = tmp_path / "t.json"
    path.write_text(json.dumps({"players": [{"name": name}]}), encoding="utf-8")
    result = CliRunner().invoke(app, ["score", str(path)])
    assert result.exit_code == 0, result.output
    assert result.exception is None
    assert "\x1b[2J" not in result.stdout
    assert printable(name) in result.stdout


def test_forest_json_values_shown_short() -> None:
    msg = refused({"players": [{"name": "A", "trees": [{"tree": "x" * 100_000}]}]})
    assert "unknown tree" in msg and len(msg) < 200
    nested: list[Any] = []
    for _ in range(20):
        nested = [nested]
    assert len(refused({"players": [{"name": "A", "trees": [nested]}]})) < 200


def test_parse_forest_json_refuses_hostile_text() -> None:
    for text in (DEEP, f'{{"players": [{{"name": "A", "cave": {BIG_INT}}}]}}'):
        with pytest.raises(ForestJsonError):
            parse_forest_json(text)


# ----------------------------------------------------------------------------- records


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    return record_of(random_game(2, 5))


def test_read_record_refuses_hostile_json(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    for content in (DEEP, f'{{"seed": {BIG_INT}}}', '{"seed": NaN}'):
        path.write_text(content, encoding="utf-8")
        with pytest.raises(RecordError) as err:
            read_record(path)
        assert "\n" not in str(err.value)


@pytest.mark.parametrize("change", [
    lambda r: r["actions"].__setitem__(3, "take ²"),
    lambda r: r["actions"].__setitem__(3, "take " + "9" * 5000),
    lambda r: r["actions"].__setitem__(3, "take \x1b[2J" + "x" * 100_000),
])
def test_replay_of_bad_actions_is_one_line(tmp_path: Path, record: dict[str, Any],
                                           change: Any) -> None:
    broken = json.loads(json.dumps(record))
    change(broken)
    path = tmp_path / "r.json"
    write_record(path, broken)
    result = CliRunner().invoke(app, ["replay", str(path)])
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.exit_code == 1, result.output
    assert result.stderr.count("\n") == 1 and "actions[3]" in result.stderr
    assert "\x1b" not in result.stderr and len(result.stderr) < 600


@pytest.mark.parametrize("change", [
    lambda r: r.__setitem__("format", "x" * 100_000),
    lambda r: r["final"].__setitem__("deck", [[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]),
    lambda r: r.__setitem__("actions", [["take 5"]]),
    lambda r: r.__setitem__("players", 10**100),
])
def test_replay_of_broken_record_is_one_line_exit_2(tmp_path: Path, record: dict[str, Any],
                                                    change: Any) -> None:
    broken = json.loads(json.dumps(record))
    change(broken)
    path = tmp_path / "r.json"
    write_record(path, broken)
    err = _one_line_exit_2(CliRunner().invoke(app, ["replay", str(path)]))
    assert len(err) < 600


@pytest.mark.parametrize("name", ["Ann\x85", "\u202eAnn", "A\x1b[2J", "B\u2028C", "Z\u200f",
                                  "Ann \U000e0001"])
def test_score_json_escapes_controls_of_names(tmp_path: Path, name: str) -> None:
    path = tmp_path / "t.json"
    path.write_text(json.dumps({"players": [{"name": name}, {"name": "Bea"}]}),
                    encoding="utf-8")
    result = CliRunner().invoke(app, ["score", str(path), "--json"])
    assert result.exit_code == 0, result.output
    # no raw control, format or separator character reaches the terminal ...
    assert all(ch.isprintable() or ch == "\n" for ch in result.stdout), repr(result.stdout)
    # ... and the JSON still reads back to the very name
    assert json.loads(result.stdout)["players"][0]["name"] == name


def test_score_json_keeps_names_in_any_script(tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    path.write_text(json.dumps({"players": [{"name": "Zoë"}, {"name": "森"}]}),
                    encoding="utf-8")
    out = CliRunner().invoke(app, ["score", str(path), "--json"]).stdout
    assert "Zoë" in out and "森" in out
