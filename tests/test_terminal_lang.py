"""The terminal's own words in the chosen language (docs/i18n.md, domain ``terminal``):
the Dartmoor table's lines follow the language the command line gives the terminal."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from forest_shuffle.engine.state import GameState
from forest_shuffle.i18n import words
from forest_shuffle.terminal import words as terminal_words
from forest_shuffle.terminal.dartmoor import discard_text, pile_text


@pytest.fixture
def language() -> Iterator[None]:
    yield
    terminal_words._chosen.clear()  # back to the environment's (English in the tests)


@pytest.mark.parametrize("lang", ["en", "fr", "de", "zh"])
def test_the_discard_pile_in_each_language(lang: str, language: None) -> None:
    view = GameState.new(2, seed=5, game="dartmoor").view(0)
    assert not view.discard
    terminal_words.use_language(lang)
    t = words("terminal", lang)
    assert pile_text(view).plain == t("The discard pile is empty.")
    assert discard_text(view).plain == t("Discard pile:") + " " + t("empty")
    if lang != "en":
        assert pile_text(view).plain != words("terminal", "en")("The discard pile is empty.")


def test_an_unknown_language_is_refused(language: None) -> None:
    with pytest.raises(ValueError, match="unknown language"):
        terminal_words.use_language("xx")


def test_the_score_pad_in_german(language: None) -> None:
    """The terminal's score pad: its lines and total in the terminal catalog's words."""
    from types import SimpleNamespace

    from rich.console import Console

    from forest_shuffle.terminal.line import pad_table

    terminal_words.use_language("de")
    t = words("terminal", "de")
    sheet = SimpleNamespace(lines={"trees": 12, "cave": 3}, total=15)
    console = Console(record=True, width=80)
    console.print(pad_table(t("Score pad"), ["Ada"], ("trees", "cave"), [sheet]))
    text = console.export_text()
    for word in (t("Score pad"), t("Trees"), t("Cave"), t("Total")):
        assert word in text, word
    assert t("Trees") != "Trees"
