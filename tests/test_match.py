"""Tests of bot matches, tournaments and the ``tournament`` and ``stats`` sub-commands."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from forest_shuffle.bots import BOTS, Bot, Budget, make_bot
from forest_shuffle.cli.app import app
from forest_shuffle.cli.commands.tournament import parse_bots
from forest_shuffle.cli.plots import PLOTS
from forest_shuffle.engine.actions import Action
from forest_shuffle.engine.state import GameState
from forest_shuffle.engine.view import PlayerView
from forest_shuffle.match import (
    BotError,
    MatchResult,
    _bot_stats,
    bot_seed,
    deal_seed,
    load_range,
    play_match,
    seatings,
    tournament,
    wilson_interval,
)
from forest_shuffle.scoring.core import LINES, score_table


def run(*args: str) -> Result:
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "120"})


# ------------------------------------------------------------------ play_match


class SpyBot(Bot):
    """A random bot that keeps every view it was given."""

    name = "spy"
    seen: list[tuple[int, PlayerView]] = []

    def choose(self, view: PlayerView, budget: Budget | None = None) -> Action:
        SpyBot.seen.append((id(self), view))
        assert view.legal_actions, "a bot was asked without a decision to make"
        return view.legal_actions[self.rng.randrange(len(view.legal_actions))]


class CheatBot(Bot):
    """Always takes a card that is not there."""

    name = "cheat"

    def choose(self, view: PlayerView, budget: Budget | None = None) -> Action:
        return Action("take", 999)


def test_play_match_gives_each_bot_only_its_own_view(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BOTS, "spy", SpyBot)
    SpyBot.seen = []
    result = play_match(["spy", "spy", "spy"], seed=7)
    players_of: dict[int, set[int]] = {}
    for bot_id, view in SpyBot.seen:
        assert isinstance(view, PlayerView)
        players_of.setdefault(bot_id, set()).add(view.player)
    assert len(players_of) == 3
    assert sorted(p for ps in players_of.values() for p in ps) == [0, 1, 2]
    assert all(len(ps) == 1 for ps in players_of.values())
    assert sum(result.decisions) == len(SpyBot.seen)


def test_play_match_result_matches_the_game() -> None:
    result = play_match(["random", "random"], seed=42)
    again = play_match(["random", "random"], seed=42)
    assert result == again
    # Replay the same game by hand: bots seeded by bot_seed, fed their views.
    state = GameState.new(2, 42)
    bots = [make_bot("random", bot_seed(42, s)) for s in range(2)]
    while not state.over:
        seat = state.to_move
        assert seat is not None
        state.apply(bots[seat].choose(state.view(seat)))
    assert result.scores == tuple(state.scores())
    assert result.winners == tuple(state.winners())
    assert result.turns == state.turn
    table = score_table(state.forests)
    for seat, fs in enumerate(table):
        assert result.lines[seat] == {line: fs.lines[line] for line in LINES}
        assert sum(result.species_points[seat].values()) + fs.lines["cave"] == fs.total
        assert sum(result.species_played[seat].values()) == len(fs.cards)


def test_illegal_bot_action_names_the_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BOTS, "cheat", CheatBot)
    with pytest.raises(BotError, match=r"bot 'cheat' in seat \d"):
        play_match(["cheat", "cheat"], seed=1)


# ------------------------------------------------------------------ seatings and deals


@pytest.mark.parametrize(("bots", "players"), [(2, 2), (3, 2), (2, 3), (3, 4), (4, 4), (1, 3)])
def test_each_bot_sits_in_each_seat_equally_often(bots: int, players: int) -> None:
    order = seatings(bots, players)
    for seat in range(players):
        counts = Counter(s[seat] for s in order)
        assert set(counts) == set(range(bots))
        assert len(set(counts.values())) == 1


def test_tournament_replays_each_deal_under_every_seating() -> None:
    result = tournament(["random", "random:", "random"], games=6, players=4, seed=5)
    assert result.deals == 2 and result.games == 6
    k = len(result.seatings)
    seeds = [m.seed for m in result.matches]
    assert seeds == [deal_seed(5, d) for d in range(2) for _ in range(k)]
    for i, m in enumerate(result.matches):
        seating = result.seatings[i % k]
        assert m.bots == tuple(result.bots[b] for b in seating)
    seat_counts = Counter((seat, result.seatings[i % k][seat])
                          for i in range(result.games) for seat in range(4))
    assert len(set(seat_counts.values())) == 1


def test_games_are_rounded_up_to_whole_rotations() -> None:
    result = tournament(["random", "random"], games=5, players=2, seed=0)
    assert result.games == 6 and result.deals == 3


def test_tournament_is_reproducible_with_any_number_of_workers() -> None:
    args: dict[str, Any] = {"bots": ["random", "random"], "games": 6, "players": 3, "seed": 9}
    one = tournament(workers=1, **args)
    again = tournament(workers=1, **args)
    two = tournament(workers=2, **args)
    assert one == again == two
    assert one.to_dict()["results"][0]["mean_score"] == two.to_dict()["results"][0]["mean_score"]
    other = tournament(**{**args, "seed": 10})
    assert [m.seed for m in other.matches] != [m.seed for m in one.matches]


@pytest.mark.parametrize("game", ["base+alpine", "base+woodland_edge", "base+alpine+woodland_edge"])
def test_matches_and_tournaments_play_the_game_asked(game: str) -> None:
    from forest_shuffle.games import make_game
    gdef = make_game(game)
    result = play_match(["greedy", "random"], seed=4, game=game)
    assert result.game == game and result.to_dict()["game"] == game
    # The same game replayed by hand is a game of that definition.
    state = GameState.new(2, 4, game=game)
    bots = [make_bot(s, bot_seed(4, i)) for i, s in enumerate(["greedy", "random"])]
    while not state.over:
        p = state.to_move or 0
        state.apply(bots[p].choose(state.view(p)))
    assert tuple(state.scores()) == result.scores
    expansion = {sp.name for sp in gdef.catalog.species.values() if sp.module != "base"}
    assert set(result.species_played[0]) & expansion or set(result.species_played[1]) & expansion
    assert play_match(["random", "random"], seed=4, game=gdef) == play_match(
        ["random", "random"], seed=4, game=game)
    one = tournament(["greedy", "random"], games=2, players=2, seed=2, game=game)
    two = tournament(["greedy", "random"], games=2, players=2, seed=2, workers=2, game=gdef)
    assert one == two and one.game == game and one.to_dict()["game"] == game
    assert all(m.game == game for m in one.matches)


def test_the_base_game_is_the_default() -> None:
    assert play_match(["random", "random"], seed=3) == play_match(["random", "random"], seed=3,
                                                                   game="base")
    assert tournament(["random"], games=1, players=2, seed=1).game == "base"
    from forest_shuffle.engine.game import UnknownGameError
    with pytest.raises(UnknownGameError):
        tournament(["random"], games=1, players=2, seed=1, game="base+nothing")


@pytest.mark.parametrize(("bots", "players"), [(2, 2), (3, 2), (2, 3), (3, 4)])
def test_win_fractions_sum_to_games(bots: int, players: int) -> None:
    specs = ["random"] + ["random:"] * (bots - 1)
    result = tournament(specs, games=bots * 2, players=players, seed=3)
    assert sum(s.wins for s in result.stats) == pytest.approx(result.games)
    for s in result.stats:
        # cyclic rotations: every bot plays every game, or players/bots of them
        assert s.games == result.games * min(1, players / bots)
        assert 0.0 <= s.interval[0] <= s.win_rate <= s.interval[1] <= 1.0
        assert sum(s.mean_lines.values()) == pytest.approx(s.mean_score)


def _fake(winners: tuple[int, ...], scores: tuple[int, ...]) -> MatchResult:
    n = len(scores)
    lines = tuple({"trees": sc, "top_bottom": 0, "left_right": 0, "cave": 0} for sc in scores)
    return MatchResult(seed=0, bots=("x",) * n, scores=scores, lines=lines, winners=winners,
                       turns=1, decisions=(1,) * n, species_played=({},) * n,
                       species_points=({},) * n)


def test_shared_victory_counts_as_a_fraction() -> None:
    stats = _bot_stats(("a", "b", "c"), [(0, 1, 2)],
                       [_fake((0, 1), (50, 50, 10)), _fake((0, 1, 2), (7, 7, 7))])
    assert [s.wins for s in stats] == pytest.approx([0.5 + 1 / 3, 0.5 + 1 / 3, 1 / 3])
    assert stats[2].mean_score == pytest.approx(8.5)


def test_wilson_interval() -> None:
    low, high = wilson_interval(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    assert wilson_interval(0, 10)[0] == 0.0 and wilson_interval(0, 10)[1] > 0.0
    assert wilson_interval(10, 10)[1] == 1.0 and wilson_interval(10, 10)[0] < 1.0
    assert wilson_interval(0, 0) == (0.0, 1.0)
    narrow = wilson_interval(95, 100)
    wide = wilson_interval(19, 20)
    assert narrow[1] - narrow[0] < wide[1] - wide[0]
    assert narrow[0] < 0.95 < narrow[1]


def test_seeds_are_spread() -> None:
    assert len({deal_seed(0, d) for d in range(100)} | {deal_seed(1, d) for d in range(100)}) \
        == 200
    assert bot_seed(1, 0) != bot_seed(1, 1)


# ------------------------------------------------------------------ command line


def test_parse_bots_keeps_options_with_their_bot() -> None:
    assert parse_bots("random,greedy") == ["random", "greedy"]
    assert parse_bots("mcts:time=1.0,workers=2,greedy") == ["mcts:time=1.0,workers=2", "greedy"]
    assert parse_bots("a:x=1,b:y=2,z=3") == ["a:x=1", "b:y=2,z=3"]


@pytest.mark.parametrize("args", [
    ["--bots", "random,nonsense"],
    ["--bots", "random:speed=3"],
    ["--bots", "random,"],
    ["--bots", "random", "--players", "6"],
    ["--bots", "random", "--games", "0"],
    ["--bots", "random", "--workers", "0"],
])
@pytest.mark.parametrize("command", ["tournament", "stats"])
def test_bad_options_exit_2_with_one_line(command: str, args: list[str], tmp_path: Path) -> None:
    extra = ["--out", str(tmp_path / "out")] if command == "stats" else []
    result = run(command, *args, *extra)
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "out" / "stats.json").exists()


def test_tournament_json_shape() -> None:
    result = run("tournament", "--bots", "random,random:", "--games", "4", "--players", "2",
                 "--seed", "3", "--json")
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    data = json.loads(result.stdout)
    assert data["bots"] == ["random", "random:"]
    assert data["games"] == 4 and data["deals"] == 2 and data["players"] == 2
    assert data["seatings"] == [[0, 1], [1, 0]]
    assert len(data["results"]) == 2
    for row in data["results"]:
        assert set(row) >= {"bot", "games", "wins", "win_rate", "win_rate_low", "win_rate_high",
                            "mean_score", "lines"}
        assert set(row["lines"]) == set(LINES)
        assert row["win_rate_low"] <= row["win_rate"] <= row["win_rate_high"]
    assert sum(r["wins"] for r in data["results"]) == pytest.approx(4)


def test_tournament_text_output() -> None:
    result = run("tournament", "--bots", "random,random", "--games", "3", "--seed", "1")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "4 games (2 deals x 2 seatings; 3 asked)" in out
    for word in ("Win rate", "95 % interval", "random #1", "random #2", "Trees", "Top/bot",
                 "Left/right", "Cave"):
        assert word in out


def test_stats_writes_json_and_plots(tmp_path: Path) -> None:
    out = tmp_path / "stats"
    result = run("stats", "--bots", "random", "--games", "3", "--players", "3", "--seed", "2",
                 "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "random self-play, 3 players, 3 games" in result.stdout
    data = json.loads((out / "stats.json").read_text())
    assert data["games"] == 3 and data["players"] == 3 and data["bot"] == "random"
    assert set(data["lines"]) == set(LINES)
    for key in ("scores", "winning_scores", "turns"):
        assert data[key]["min"] <= data[key]["mean"] <= data[key]["max"]
    assert len(data["species"]) == 58  # 57 species and saplings
    assert data["load"]["min"] <= data["load"]["median"] <= data["load"]["max"]
    assert "load average" in result.stdout
    assert sum(s["points_per_forest"] for s in data["species"].values()) \
        + data["lines"]["cave"]["mean"] == pytest.approx(data["scores"]["mean"])
    assert [g["seed"] for g in data["per_game"]] == [deal_seed(2, i) for i in range(3)]
    for name in PLOTS:
        assert (out / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_machine_load_is_kept_with_each_game() -> None:
    m = play_match(("random", "random"), seed=4)
    assert m.load is not None and m.load >= 0.0  # Linux has load averages
    data = m.to_dict()
    assert data["load"] == m.load
    assert MatchResult.from_dict(json.loads(json.dumps(data))).load == m.load
    del data["load"]  # a journal written before the load was kept
    assert MatchResult.from_dict(data).load is None
    with pytest.raises(ValueError, match="not a game result"):
        MatchResult.from_dict({**m.to_dict(), "load": "busy"})
    games = [_fake((0,), (3, 1)) for _ in range(3)]
    assert load_range(games) is None
    loaded = [MatchResult(**{**g.__dict__, "load": x}) for g, x in zip(games, (2.5, 1.0, 4.0),
                                                                         strict=True)]
    assert load_range(loaded + games) == (2.5, 1.0, 4.0)
    result = tournament(("random", "random"), 2, 2, seed=1)
    load = result.to_dict()["timing"]["load"]
    assert load is not None and load["min"] <= load["median"] <= load["max"]
    out = run("tournament", "--bots", "random,random", "--games", "2", "--seed", "1").stdout
    assert "load average" in out and "at the games' ends" in out
