"""Recorded games replayed: the engine must still play every stored game to the same end.

The records in ``tests/data/records`` (base games, and games of every expansion set since
game definitions came) were written by ``forest-shuffle simulate --records``
style runs (``records.record_of``); a change of engine behaviour shows up here as the first
card, action or score that differs.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from forest_shuffle.formats.records import read_record, replay

RECORDS = sorted((Path(__file__).parent / "data" / "records").glob("*.json"))


def test_there_are_recorded_games() -> None:
    assert len(RECORDS) >= 5
    games = {read_record(p).get("game", "base") for p in RECORDS}
    assert games == {"base", "base+alpine", "base+woodland_edge", "base+alpine+woodland_edge"}


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_recorded_game_replays_exactly(path: Path) -> None:
    result = replay(read_record(path))
    assert result.ok, result.message
