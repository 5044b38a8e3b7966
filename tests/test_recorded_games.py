"""Recorded games replayed: the engine must still play every stored game to the same end.

The records in ``tests/data/records`` (base games, games of every expansion set since
game definitions came, and two of ``base+exploration`` whose winter reprieve is answered
yes and no) were written by ``forest-shuffle simulate --records``
style runs (``records.record_of``); a change of engine behaviour shows up here as the first
card, action or score that differs.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from forest_shuffle.engine.actions import Action
from forest_shuffle.formats.records import read_record, replay

RECORDS = sorted((Path(__file__).parent / "data" / "records").glob("*.json"))


def test_there_are_recorded_games() -> None:
    assert len(RECORDS) >= 5
    games = {read_record(p).get("game", "base") for p in RECORDS}
    assert games == {"base", "base+alpine", "base+woodland_edge", "base+alpine+woodland_edge",
                     "base+exploration"}


def test_the_exploration_records_answer_the_winter_reprieve_both_ways() -> None:
    # seed 651: yes (the winter card back into the deck, the game goes on); 657: no
    from forest_shuffle.engine.state import GameState

    answers = {}
    for path in RECORDS:
        record = read_record(path)
        if record.get("game") != "base+exploration":
            continue
        state = GameState.new(record["players"], record["seed"], game="base+exploration")
        for text in record["actions"]:
            if state.decision == "winter reprieve":
                answers[record["seed"]] = text
            state.apply(Action.parse(text))
        assert state.over
    assert answers == {651: "yes", 657: "no"}


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_recorded_game_replays_exactly(path: Path) -> None:
    result = replay(read_record(path))
    assert result.ok, result.message
