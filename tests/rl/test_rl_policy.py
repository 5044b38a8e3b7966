"""A trained policy as a bot (forest_shuffle.rl.policy): saved as numpy weights, it plays as
``policy:FILE`` in matches, tournaments, the terminal and server levels, without torch."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from rl_extra import require

(np,) = require("numpy")

from typer.testing import CliRunner  # noqa: E402

from forest_shuffle.bots import BotSpecError, make_bot  # noqa: E402
from forest_shuffle.bots.registry import DIFFICULTIES, add_levels  # noqa: E402
from forest_shuffle.cli.app import app  # noqa: E402
from forest_shuffle.engine.state import GameState  # noqa: E402
from forest_shuffle.match import play_match  # noqa: E402
from forest_shuffle.rl.compact import NUM_COMPACT  # noqa: E402
from forest_shuffle.rl.compact_obs import layout  # noqa: E402
from forest_shuffle.rl.policy import Policy, PolicyBot, PolicyFileError  # noqa: E402

SRC = Path(__file__).resolve().parents[2] / "src"


@pytest.fixture()
def net(tmp_path: Path) -> str:
    path = tmp_path / "net.npz"
    Policy.random("base", (32,), seed=1).save(path)
    return str(path)


def test_save_load_and_act(net: str) -> None:
    pol = Policy.load(net)
    again = Policy.random("base", (32,), seed=1)
    assert pol.game == "base" and pol.size == layout(GameState.new(2, 1).game).size
    for (w, b), (w2, b2) in zip(pol.layers, again.layers, strict=True):
        assert np.array_equal(w, w2) and np.array_equal(b, b2)
    obs = np.random.default_rng(0).random(pol.size, dtype=np.float32)
    mask = np.zeros(NUM_COMPACT, np.int8)
    mask[[3, 40, 700]] = 1
    best = pol.act(obs, mask)
    assert best in (3, 40, 700) and pol.logits(obs)[best] == pol.logits(obs)[[3, 40, 700]].max()
    assert pol.act(obs, mask, np.random.default_rng(1)) in (3, 40, 700)
    with pytest.raises(ValueError, match="no legal"):
        pol.act(obs, np.zeros(NUM_COMPACT, np.int8))


@pytest.mark.parametrize("form", ["policy:{}", "policy:file={},sample=1"])
def test_it_plays_whole_games(net: str, form: str) -> None:
    spec = form.format(net)
    bot = make_bot(spec, 3)
    assert isinstance(bot, PolicyBot) and make_bot(bot.describe(), 3).file == net
    for seed in range(3):
        result = play_match([spec, "random"], seed)
        assert len(result.scores) == 2 and result.decisions[0] > 20


def test_bad_files_and_games(tmp_path: Path, net: str) -> None:
    for text, word in ((f"policy:{tmp_path / 'none.npz'}", "cannot read"),
                       ("policy", "needs a file")):
        with pytest.raises(BotSpecError, match=word) as err:
            make_bot(text)
        assert "\n" not in str(err.value)
    bad = tmp_path / "bad.npz"
    np.savez(bad, game=np.array("base"), w0=np.zeros((3, 4), np.float32),
             b0=np.zeros(4, np.float32))
    with pytest.raises(BotSpecError, match="must read"):
        make_bot(f"policy:{bad}")
    np.savez(bad, game=np.array("chess"), w0=np.zeros((3, 4), np.float32))
    with pytest.raises(BotSpecError, match="chess"):
        make_bot(f"policy:{bad}")
    bad.write_bytes(b"not a zip")
    with pytest.raises(BotSpecError, match="cannot read"):
        make_bot(f"policy:{bad}")
    s = GameState.new(2, 1, game="base+alpine")
    with pytest.raises(PolicyFileError, match="trained for base"):
        make_bot(f"policy:{net}").choose(s.view(s.to_move or 0))


def test_tournament_terminal_and_levels(net: str) -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["tournament", "--bots", f"policy:{net},random", "--games",
                                 "2", "--seed", "4", "--workers", "1", "--json"])
    assert result.exit_code == 0, result.output
    assert f"policy:{net}" in result.output or "policy" in result.output
    played = runner.invoke(app, ["play", "--players", "2", "--bots", "2", "--level",
                                 f"policy:{net}", "--seed", "5", "--no-hints"])
    assert played.exit_code == 0, played.output
    assert "policy" not in DIFFICULTIES
    assert add_levels(f"trained=policy:{net}") == ["trained"]
    try:
        assert isinstance(make_bot("trained", 1), PolicyBot)
    finally:
        del DIFFICULTIES["trained"]
    with pytest.raises(BotSpecError, match="NAME=SPEC"):
        add_levels("trained")


def test_levels_from_the_environment_and_no_torch(net: str) -> None:
    code = ("import sys; from forest_shuffle.bots.registry import DIFFICULTIES, make_bot; "
            "from forest_shuffle.match import play_match; "
            "play_match(['trained', 'random'], 1); "
            "print(DIFFICULTIES['trained'], 'torch' in sys.modules)")
    env = {**os.environ, "PYTHONPATH": str(SRC), "FOREST_SHUFFLE_LEVELS": f"trained=policy:{net}"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=True).stdout
    assert out.split() == [f"policy:{net}", "False"]


def test_a_policy_level_on_the_page(net: str) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))
    from webutil import client, new_game, play_out

    add_levels(f"trained=policy:{net}")
    try:
        with client() as c:
            assert "trained" in [lv["level"] for lv in c.get("/api/levels").json()]
            game = new_game(c, [{"kind": "human"}, {"kind": "bot", "level": "trained"}])
            me = game["seats"][0]
            last = play_out(c, game["game_id"], {0: me["token"]}, lambda p: None, limit=120)
            assert last["over"]
    finally:
        del DIFFICULTIES["trained"]
    bad = CliRunner().invoke(app, ["serve", "--levels", "x=policy:/no/such.npz"])
    assert bad.exit_code == 2 and "--levels" in bad.output


def test_the_shipped_policy_plays_by_name() -> None:
    from forest_shuffle.rl.policy import SHIPPED, shipped_names

    assert "base-2p" in shipped_names()
    bot = make_bot("policy:base-2p", 1)
    assert isinstance(bot, PolicyBot) and bot.policy.game == "base"
    assert Path(bot.file).name == "base-2p" and (SHIPPED / "policy-base-2p.npz").is_file()
    result = play_match(["policy:base-2p", "random"], 3)
    assert result.decisions[0] > 20
