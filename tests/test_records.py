"""Tests of game records: building, saving, loading, replaying and the ``replay`` command."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from scenario import CATALOG
from typer.testing import CliRunner, Result

from forest_shuffle.cli.app import app
from forest_shuffle.engine.actions import Action
from forest_shuffle.engine.options import Rules
from forest_shuffle.engine.state import GameState
from forest_shuffle.formats.records import (
    RECORD_FORMAT,
    RecordError,
    places_of,
    random_game,
    read_record,
    record_of,
    replay,
    write_record,
)


def run(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


@pytest.fixture(scope="module")
def game() -> GameState:
    return random_game(3, 2024)


@pytest.fixture()
def record(game: GameState) -> dict[str, Any]:
    return record_of(game)


def saved(tmp_path: Path, record: dict[str, Any], name: str = "game.json") -> Path:
    path = tmp_path / name
    write_record(path, record)
    return path


# --- building and round trip ----------------------------------------------------------------


def test_record_fields(game: GameState, record: dict[str, Any]) -> None:
    assert record["format"] == RECORD_FORMAT
    assert record["seed"] == 2024 and record["players"] == 3 and record["first_player"] == 0
    assert record["rules"] == Rules().to_dict()
    assert record["over"] is True
    assert record["actions"] == [str(a) for a in game.history]
    assert [s["total"] for s in record["scores"]] == game.scores()
    for s in record["scores"]:
        assert set(s["lines"]) == {"trees", "top_bottom", "left_right", "cave"}
        assert sum(s["lines"].values()) == s["total"]
    assert record["winners"] == game.winners()
    assert len(record["final"]["winter"]) == 3


def test_every_card_is_placed_exactly_once(game: GameState, record: dict[str, Any]) -> None:
    places = places_of(record["final"])
    assert sorted(places) == sorted(CATALOG.deck_ids)
    assert all(len(p) == 1 for p in places.values())
    # the places agree with the engine's own view of where cards are
    engine = game.locations()
    for cid, (where,) in places.items():
        assert where.startswith(engine[cid]), (cid, where, engine[cid])


def test_deck_is_listed_top_first() -> None:
    state = GameState.new(2, 5)
    assert record_of(state)["final"]["deck"] == state.deck[::-1]
    assert state.deck[-1] == record_of(state)["final"]["deck"][0]


def test_round_trip_through_a_file(tmp_path: Path, record: dict[str, Any]) -> None:
    path = saved(tmp_path, record)
    assert read_record(path) == record
    assert json.loads(path.read_text(encoding="utf-8")) == record


def test_unfinished_game_record_replays() -> None:
    state = GameState.new(4, 9, Rules(mole_plays_saplings=True), first_player=2)
    rng = random.Random(1)
    for _ in range(60):
        state.apply(rng.choice(state.legal_actions()))
    rec = record_of(state)
    assert rec["over"] is False and rec["first_player"] == 2
    assert rec["rules"]["mole_plays_saplings"] is True
    result = replay(rec)
    assert result.ok, result.message
    assert "game not finished" in result.message


# --- random games ---------------------------------------------------------------------------


def test_random_game_is_deterministic_and_uses_no_global_random() -> None:
    random.seed(1)
    a = random_game(2, 77)
    after_a = random.random()
    random.seed(1)
    random.random()  # a different global state must change nothing
    b = random_game(2, 77)
    random.seed(1)
    random_game(2, 78)
    assert random.random() == after_a  # the global generator was not used
    assert a.history == b.history and a.over and b.over
    assert a.scores() == b.scores()


def test_random_game_on_action_sees_every_action() -> None:
    seen: list[int] = []
    state = random_game(2, 3, on_action=lambda s: seen.append(len(s.history)))
    assert seen == list(range(1, len(state.history) + 1))


# --- replay ---------------------------------------------------------------------------------


def test_replay_ok(record: dict[str, Any]) -> None:
    result = replay(record)
    assert result.ok and result.kind == "ok", result.message
    assert result.message.startswith("OK: 3 players, seed 2024")
    assert result.state.over


def _first_turn_index(record: dict[str, Any]) -> int:
    return next(i for i, a in enumerate(record["actions"]) if a not in ("keep", "mulligan"))


def test_changed_action_is_the_first_difference(record: dict[str, Any]) -> None:
    k = _first_turn_index(record) + 3
    # find an action that parses but is illegal at index k
    state = GameState.new(record["players"], record["seed"])
    for text in record["actions"][:k]:
        state.apply(Action.parse(text))
    legal = {str(a) for a in state.legal_actions()}
    bad = next(t for t in ("done", "yes", "draw", "take 1", "pay 1") if t not in legal)
    record["actions"][k] = bad
    result = replay(record)
    assert not result.ok and result.kind == "action"
    assert result.index == k
    assert f"actions[{k}]" in result.message and bad in result.message


def test_unparseable_action_is_named(record: dict[str, Any]) -> None:
    record["actions"][5] = "fly away"
    result = replay(record)
    assert result.kind == "action" and result.index == 5
    assert "not an action" in result.message


def test_extra_action_after_the_end(record: dict[str, Any]) -> None:
    record["actions"].append("draw")
    result = replay(record)
    assert result.kind == "action" and result.index == len(record["actions"]) - 1
    assert "game is over" in result.message


def test_missing_actions_give_a_difference(record: dict[str, Any]) -> None:
    del record["actions"][-10:]
    result = replay(record)
    assert not result.ok and result.kind == "over"


def test_changed_place_names_the_card(record: dict[str, Any]) -> None:
    final = record["final"]
    seat, hand = next((i, h) for i, h in enumerate(final["hands"]) if h)
    card = min(hand)
    hand.remove(card)
    final["box"].append(card)
    result = replay(record)
    assert not result.ok and result.kind == "place" and result.card == card
    assert result.message == (f"card {card}: the record says box, "
                              f"the replay says hand {seat + 1}")


def test_swapped_places_name_the_lower_card(record: dict[str, Any]) -> None:
    final = record["final"]
    tree = next(t for f in final["forests"] for t in f if t["left"])
    a, b = tree["left"][0], final["box"][0]
    tree["left"][0], final["box"][0] = b, a
    result = replay(record)
    assert result.kind == "place" and result.card == min(a, b)


def test_changed_order_is_reported(record: dict[str, Any]) -> None:
    record["final"]["box"].reverse()
    result = replay(record)
    assert result.kind == "order" and "final.box" in result.message


def test_card_listed_twice_is_a_place_difference(record: dict[str, Any]) -> None:
    card = record["final"]["winter"][0]
    record["final"]["box"].append(card)
    result = replay(record)
    assert result.kind == "place" and result.card == card
    assert "winter and box" in result.message


def test_changed_total_is_a_score_mismatch(record: dict[str, Any]) -> None:
    record["scores"][1]["total"] += 1
    result = replay(record)
    assert not result.ok and result.kind == "score"
    assert result.message.startswith("player 2 total: the record says")


def test_changed_line_is_a_score_mismatch(record: dict[str, Any]) -> None:
    record["scores"][0]["lines"]["cave"] += 2
    result = replay(record)
    assert result.kind == "score" and "player 1 cave line" in result.message


def test_changed_winners(record: dict[str, Any]) -> None:
    record["winners"] = [w for w in range(3) if w not in record["winners"]][:1]
    result = replay(record)
    assert result.kind == "winners"


# --- the replay command ---------------------------------------------------------------------


def test_cli_replay_ok(tmp_path: Path, record: dict[str, Any]) -> None:
    result = run("replay", str(saved(tmp_path, record)))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == 1 and lines[0].startswith("OK: 3 players, seed 2024")


@pytest.mark.parametrize("tamper", ["action", "place", "score"])
def test_cli_replay_tampered_exits_1(tmp_path: Path, record: dict[str, Any],
                                     tamper: str) -> None:
    if tamper == "action":
        k = _first_turn_index(record)
        record["actions"][k] = "done"
        expected = f"actions[{k}] 'done' is illegal"
    elif tamper == "place":
        card = record["final"]["winter"][0]
        record["final"]["winter"].remove(card)
        record["final"]["clearing"].append(card)
        expected = f"card {card}: the record says clearing, the replay says winter"
    else:
        record["scores"][0]["total"] = 999
        expected = "player 1 total: the record says 999"
    result = run("replay", str(saved(tmp_path, record)))
    assert result.exit_code == 1, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and expected in lines[0]
    assert result.stdout == ""


@pytest.mark.parametrize(("content", "expected"), [
    ("{not json", "is not valid JSON"),
    ("[1, 2]", "not a game record"),
    ('{"format": "something else"}', "not a game record"),
    (None, "missing field 'actions'"),
    (None, "'players' must be 2, 3, 4 or 5"),
    (None, "'rules': unknown rule setting"),
    (None, "'final.hands' must have one entry per seat"),
    (b"\xff\xfe\x00garbage", "not a text file"),
])
def test_cli_replay_broken_file_exits_2(tmp_path: Path, record: dict[str, Any],
                                        content: str | bytes | None, expected: str) -> None:
    path = tmp_path / "broken.json"
    if content is None:
        broken = copy.deepcopy(record)
        if "actions" in expected:
            del broken["actions"]
        elif "players" in expected:
            broken["players"] = 7
        elif "rules" in expected:
            broken["rules"]["house_rule"] = True
        else:
            broken["final"]["hands"].pop()
        write_record(path, broken)
    elif isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    with pytest.raises(RecordError, match="^.*$"):
        read_record(path)
    result = run("replay", str(path))
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and expected in lines[0], result.stderr
    assert "Traceback" not in result.stderr


def test_cli_replay_missing_file_and_directory(tmp_path: Path) -> None:
    for target in (tmp_path / "nope.json", tmp_path):
        result = run("replay", str(target))
        assert result.exit_code == 2
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"cannot read {target}")
