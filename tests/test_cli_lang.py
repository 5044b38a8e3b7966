"""The command line in the reader's language (docs/i18n.md): ``--lang`` or the environment
chooses the ``cli`` catalog for its refusals; an unknown language is one line, exit 2."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from forest_shuffle.i18n import words

ENV_VARS = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def run(args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    """``forest-shuffle ARGS`` with only the given locale variables set."""
    base = {k: v for k, v in os.environ.items() if k not in ENV_VARS}
    return subprocess.run([sys.executable, "-m", "forest_shuffle", *args], capture_output=True,
                          text=True, env={**base, **env, "PYTHONIOENCODING": "utf-8"},
                          timeout=120)


def port_refusal(lang: str) -> str:
    return words("cli", lang)("--port must be from 0 to 65535, not {port}", port=70000)


@pytest.mark.parametrize("lang", ["fr", "de", "zh"])
def test_lang_option_translates_a_refusal(lang: str) -> None:
    out = run(["--lang", lang, "serve", "--port", "70000"], LANG="en_GB.UTF-8")
    assert out.returncode == 2
    assert out.stderr.strip() == port_refusal(lang)
    assert port_refusal(lang) != port_refusal("en")


@pytest.mark.parametrize(("env", "lang"), [
    ({"LANG": "de_DE.UTF-8"}, "de"),
    ({"LANG": "fr_FR.UTF-8", "LC_ALL": "zh_CN.UTF-8"}, "zh"),
    ({"LANG": "fr_FR.UTF-8", "LANGUAGE": "it:fr"}, "fr"),
    ({"LANG": "C.UTF-8"}, "en"),
])
def test_the_environment_chooses_without_lang(env: dict[str, str], lang: str) -> None:
    out = run(["serve", "--port", "70000"], **env)
    assert out.returncode == 2
    assert out.stderr.strip() == port_refusal(lang)


def test_an_unknown_language_is_one_line_with_status_2() -> None:
    out = run(["--lang", "xx", "serve"], LANG="fr_FR.UTF-8")
    assert out.returncode == 2
    assert len(out.stderr.strip().splitlines()) == 1
    want = words("cli", "fr")("unknown language {lang} (one of {languages})", lang="'xx'",
                              languages="en, fr, de, zh")
    assert want in out.stderr
    assert "Traceback" not in out.stderr


def test_a_saved_game_refused_in_the_chosen_language(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The terminal's refusal of a save file (its ``terminal`` catalog) inside the command
    line's (``cli``), both in the language of ``--lang``."""
    from forest_shuffle.terminal.saves import SAVE_FORMAT

    bad = tmp_path / "save.json"
    bad.write_text('{"format": "x"}', encoding="utf-8")
    out = run(["--lang", "de", "play", "--resume", str(bad)], LANG="en_GB.UTF-8")
    term, cli = words("terminal", "de"), words("cli", "de")
    problem = term("not a saved terminal game (expected format {format})",
                   format=repr(SAVE_FORMAT))
    want = cli("{option}: {message}", option="--resume",
               message=term("{file}: {problem}", file=str(bad), problem=problem))
    assert out.returncode == 2
    assert out.stderr.strip() == want
    assert problem != words("terminal", "en")(
        "not a saved terminal game (expected format {format})", format=repr(SAVE_FORMAT))


def test_a_solo_refusal_in_the_environments_language() -> None:
    from forest_shuffle.games.dartmoor_solo import solo_data

    out = run(["play", "--game", "dartmoor", "--solo", "99"], LANG="zh_CN.UTF-8")
    assert out.returncode == 2
    assert out.stderr.strip() == words("cli", "zh")(
        "--solo must be a challenge from 1 to {count}, not {value}",
        count=len(solo_data().challenges), value="'99'")


def _pattern(message: str) -> str:
    """A regular expression of ``message`` with each ``§`` standing for a measured figure."""
    return re.escape(message).replace("§", r"[\d.,]+")


@pytest.mark.parametrize("lang", ["de", "zh"])
def test_a_simulate_report_in_german_and_chinese(lang: str) -> None:
    """``simulate``'s report in the chosen language: its sentences and the table's heads
    from the ``cli`` catalog, its numbers formatted as in English."""
    from forest_shuffle.games import make_game

    out = run(["--lang", lang, "simulate", "--games", "3", "--seed", "11", "--players", "3"],
              LANG="en_GB.UTF-8", COLUMNS="200")
    assert out.returncode == 0, out.stderr
    w = words("cli", lang)
    first = w.ngettext(
        "{games} games of {players} players, seed {seed}, {title}: {seconds} s, "
        "{games_per_second} games/s, {actions_per_second} actions/s",
        "{games} games of {players} players, seed {seed}, {title}: {seconds} s, "
        "{games_per_second} games/s, {actions_per_second} actions/s",
        3, games=3, players=3, seed=11, title=make_game("base").title, seconds="§",
        games_per_second="§", actions_per_second="§")
    assert re.fullmatch(_pattern(first), out.stdout.splitlines()[0]), out.stdout
    assert re.search(_pattern(w("Average turns {turns}, average decisions {decisions}",
                                turns="§", decisions="§")), out.stdout)
    assert re.search(_pattern(w("Winter cards came up on average on turns {turns}",
                                turns="§, §, §")), out.stdout)
    for head in ("Per seat (mean per game)", "Player", "Score", "Win share"):
        assert w(head) in out.stdout and w(head) != head, head
    for english in ("games of", "Average turns", "Winter cards", "Per seat", "Win share"):
        assert english not in out.stdout, english
    assert re.search(r"\d+\.\d%", out.stdout)  # the win share as before: 33.3%


def test_a_tournament_report_in_french() -> None:
    """``tournament``'s first line, tables and ties line from the French catalog (its
    seatings in French plurals)."""
    from forest_shuffle.games import make_game

    out = run(["--lang", "fr", "tournament", "--bots", "random,random", "--games", "2",
               "--seed", "4"], LANG="en_GB.UTF-8", COLUMNS="200")
    assert out.returncode == 0, out.stderr
    w = words("cli", "fr")
    first = w.ngettext(
        "{games} games ({deals} deals x {n} seating), {players} players, seed {seed}, "
        "{title}: {seconds} s, {turns} turns a game{load}",
        "{games} games ({deals} deals x {n} seatings), {players} players, seed {seed}, "
        "{title}: {seconds} s, {turns} turns a game{load}",
        2, games=2, deals=1, n=2, players=2, seed=4, title=make_game("base").title,
        seconds="§", turns="§", load="LOAD")
    head, _, tail = _pattern(first).partition("LOAD")
    assert re.match(head + r".*" + tail, out.stdout.splitlines()[0]), out.stdout
    assert "placements" in first
    for word in ("Wins (a shared victory split evenly)", "Win rate", "Bot"):
        assert w(word) in out.stdout, word
    assert "turns a game" not in out.stdout and "Win rate" not in out.stdout


def test_a_learn_refusal_in_german(tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = run(["--lang", "de", "learn", "generate", "--out", str(tmp_path / "x.npz"),
               "--games", "0"],
              LANG="en_GB.UTF-8")
    assert out.returncode == 2
    said = out.stderr.strip()
    assert said == words("cli", "de")("--games must be at least 1, not {games}", games=0)
    assert said != "--games must be at least 1, not 0"


def test_a_solo_simulation_in_french_names_its_challenge_as_the_companion_does() -> None:
    """``simulate --solo``: its heads from the ``cli`` catalog, the challenge's title from
    the ``server`` domain's titles (context ``solo challenge``)."""
    from forest_shuffle.games.dartmoor_solo import challenge_of
    from forest_shuffle.server.companion import title_in

    out = run(["--lang", "fr", "simulate", "--game", "dartmoor", "--solo", "1", "--games",
               "1"], LANG="en_GB.UTF-8", COLUMNS="250")
    assert out.returncode == 0, out.stderr
    english = challenge_of(1).title
    assert title_in(english, "fr") != english
    assert title_in(english, "fr") in out.stdout and english not in out.stdout
    w = words("cli", "fr")
    for head in ("Challenge", "Goal met", "No medal", "Gold"):
        assert w(head) in out.stdout and w(head) != head, head
    assert "solo game" not in out.stdout
