"""Tests of tournament journals: a stopped tournament goes on where it was, with the same
result as one played in one go; bad journals are refused with one line and left alone."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from forest_shuffle.cli.app import app
from forest_shuffle.journal import JOURNAL_FORMAT, JournalError, open_journal
from forest_shuffle.match import MatchResult, play_match, tournament

BOTS = ("random", "greedy")


def run(*args: str) -> Result:
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "120"})


def same_games(result: dict[str, Any]) -> dict[str, Any]:
    """A tournament's JSON without the figures that vary run to run (time)."""
    out = {k: v for k, v in result.items() if k != "timing"}
    out["results"] = [{k: v for k, v in r.items() if k != "seconds_per_decision"}
                      for r in result["results"]]
    return out


class Stop(Exception):
    pass


def test_match_result_round_trips() -> None:
    m = play_match(BOTS, seed=11)
    assert MatchResult.from_dict(json.loads(json.dumps(m.to_dict()))) == m


@pytest.mark.parametrize("bad", [
    [], {"seed": 1}, {**play_match(BOTS, seed=3).to_dict(), "scores": [1]},
    {**play_match(BOTS, seed=3).to_dict(), "winners": [5]},
    {**play_match(BOTS, seed=3).to_dict(), "turns": "many"},
])
def test_match_result_refuses_malformed(bad: Any) -> None:
    with pytest.raises(ValueError, match="not a game result"):
        MatchResult.from_dict(bad)


def test_stopped_run_resumes_to_the_same_result(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    whole = tournament(BOTS, 8, 2, seed=5)
    book, done = open_journal(path, "base", BOTS, 2, 5)
    assert done == {}
    finished: list[int] = []

    def write_then_stop(i: int, r: MatchResult) -> None:
        book.write(i, r)
        finished.append(i)
        if len(finished) == 3:
            raise Stop

    with pytest.raises(Stop):
        tournament(BOTS, 8, 2, seed=5, on_result=write_then_stop)
    book.close()
    book, done = open_journal(path, "base", BOTS, 2, 5)
    assert sorted(done) == finished == [0, 1, 2]
    again: list[int] = []

    def write(i: int, r: MatchResult) -> None:
        again.append(i)
        book.write(i, r)

    with book:
        resumed = tournament(BOTS, 8, 2, seed=5, done=done, on_result=write)
    assert again == [3, 4, 5, 6, 7]
    assert resumed.matches == whole.matches
    assert same_games(resumed.to_dict()) == same_games(whole.to_dict())
    _, done = open_journal(path, "base", BOTS, 2, 5)
    assert sorted(done) == list(range(8))


def test_done_games_must_be_this_tournaments() -> None:
    other = play_match(BOTS, seed=99)
    with pytest.raises(ValueError, match="not played by these bots on this deal"):
        tournament(BOTS, 4, 2, seed=5, done={1: other})
    with pytest.raises(ValueError, match="not part of a tournament of 4 games"):
        tournament(BOTS, 4, 2, seed=5, done={7: other})


def test_cli_resume_and_extend(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    first = run("tournament", "-b", "random,greedy", "-g", "4", "--journal", str(path), "--json")
    assert first.exit_code == 0, first.output
    assert len(path.read_text().splitlines()) == 5
    head = json.loads(path.read_text().splitlines()[0])
    assert head == {"journal": JOURNAL_FORMAT, "game": "base", "bots": list(BOTS),
                    "players": 2, "seed": 0}
    before = path.read_text()
    more = run("tournament", "-b", "random,greedy", "-g", "8", "--journal", str(path), "--json")
    assert more.exit_code == 0, more.output
    assert path.read_text().startswith(before)
    assert len(path.read_text().splitlines()) == 9
    fresh = run("tournament", "-b", "random,greedy", "-g", "8", "--json")
    assert same_games(json.loads(more.output)) == same_games(json.loads(fresh.output))


def test_a_line_cut_short_is_played_again(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    assert run("tournament", "-b", "random,greedy", "-g", "4", "--journal", str(path)).exit_code \
        == 0
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:-1]) + "\n" + lines[-1][: len(lines[-1]) // 2])
    _, done = open_journal(path, "base", BOTS, 2, 0)
    assert sorted(done) == [0, 1, 2]
    assert path.read_text() == "\n".join(lines[:-1]) + "\n"
    again = run("tournament", "-b", "random,greedy", "-g", "4", "--journal", str(path))
    assert again.exit_code == 0, again.output
    assert sorted(json.loads(x)["index"] for x in path.read_text().splitlines()[1:]) == [0, 1, 2, 3]


@pytest.mark.parametrize("args, text, message", [
    (("-b", "random,mcts"), None, "journal of another tournament: its bots"),
    (("-b", "random,greedy", "-s", "3"), None, "its seed is 0, this one's 3"),
    (("-b", "random,greedy", "-g", "2"), None, "ask for at least 4 games"),
    (("-b", "random,greedy"), "not json\n", "line 1 is not a journal header"),
    (("-b", "random,greedy"), '{"journal": "x"}\n', "is not a tournament journal"),
    (("-b", "random,greedy"), "MIDDLE", "line 3 is not a game"),
    (("-b", "random,greedy"), "REPEAT", "repeats game 1"),
])
def test_bad_journals_are_refused_and_left_alone(tmp_path: Path, args: tuple[str, ...],
                                                 text: str | None, message: str) -> None:
    path = tmp_path / "j.jsonl"
    assert run("tournament", "-b", "random,greedy", "-g", "4", "--journal", str(path)).exit_code \
        == 0
    lines = path.read_text().splitlines(keepends=True)
    if text == "MIDDLE":
        text = "".join(lines[:2]) + "{broken\n" + "".join(lines[3:])
    elif text == "REPEAT":
        text = "".join(lines[:2]) + lines[1] + "".join(lines[2:])
    if text is not None:
        path.write_text(text)
    before = path.read_text()
    result = run("tournament", *args, "--journal", str(path))
    assert result.exit_code == 2
    assert message in result.output
    assert len(result.output.strip().splitlines()) == 1
    assert "Traceback" not in result.output
    assert path.read_text() == before


def test_unreadable_journal(tmp_path: Path) -> None:
    with pytest.raises(JournalError, match="cannot read the journal"):
        open_journal(tmp_path, "base", BOTS, 2, 0)
