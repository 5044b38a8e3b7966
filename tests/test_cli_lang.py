"""The command line in the reader's language (docs/i18n.md): ``--lang`` or the environment
chooses the ``cli`` catalog for its refusals; an unknown language is one line, exit 2."""

from __future__ import annotations

import os
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
