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


#: The help's own words (the commands in it stay English in every language).
HELP = ("Enter the number of an action, or an action in text form:\n  {examples}\n  {numbered}\n"
        "A payment takes its cards in any order, one at a time or all on one line (pay 41 63 "
        "116);\n  undo takes back the last card chosen before the payment is whole, then the "
        "play\n  itself. So does any choice of several cards (cave 41 63, discard 12 40 57),\n"
        "  confirmed with done.\nOther commands: hand (your hand), card ID (full card text), "
        "board (redraw the screen),\n  score (the score pad as the forests stand now),\n"
        "  hint (what the hard bot would do, and why), help, quit (asks first; save to "
        "resume\n  later with play --resume FILE). Ctrl-C asks too.")


def _help_typed(game: str) -> str:
    """What a terminal game of ``game`` prints when the player types help (then the input
    ends)."""
    import io

    from rich.console import Console

    from forest_shuffle.terminal.line import Terminal

    out = io.StringIO()
    lines = iter(["help"])

    def read() -> str:
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None

    console = Console(file=out, width=200, color_system=None, highlight=False)
    Terminal(2, 1, 3, console=console, read_line=read, game=game).run()
    return out.getvalue()


@pytest.mark.parametrize(("lang", "game"), [("de", "base"), ("zh", "dartmoor")])
def test_the_help_in_german_and_chinese(lang: str, game: str, language: None) -> None:
    """Typed help: every line of the catalog's help in the terminal's language, with the
    game's own examples (Dartmoor's cave and moor explained in that language); the
    commands stay as typed."""
    terminal_words.use_language(lang)
    t = words("terminal", lang)
    caves = game == "dartmoor"
    text = _help_typed(game)
    numbered = t("(trees, shrubs and moors are numbered from 1, cards by their ids)" if caves
                 else "(trees and shrubs are numbered from 1, cards by their ids)")
    frame = t(HELP, examples="\0", numbered=numbered)
    assert frame != HELP.format(examples="\0", numbered=numbered)
    for line in frame.splitlines():
        assert line.replace("\0", "").strip() in text, line
    assert "take 57" in text and "pay 41 63 116" in text and "play --resume" in text
    assert "Enter the number of an action" not in text and "Other commands" not in text
    if caves:
        assert t("moor 57 (face down as a universal moor)") in text
        assert t("  caves (what every cave does), pile (the whole discard pile, top "
                 "first).").strip() in text
        assert "face down as a universal moor" not in text


def test_the_help_stays_english_in_english(language: None) -> None:
    terminal_words.use_language("en")
    text = _help_typed("dartmoor")
    for line in HELP.format(examples="", numbered="").splitlines():
        assert line.strip() in text, line
    assert "moor 57 (face down as a universal moor)" in text
    assert "(trees, shrubs and moors are numbered from 1, cards by their ids)" in text


def _first_screen(game: str) -> str:
    """What a terminal game of ``game`` (seed 3, one bot) prints before the input ends."""
    import io

    from rich.console import Console

    from forest_shuffle.terminal.line import Terminal

    out = io.StringIO()

    def read() -> str:
        raise EOFError

    console = Console(file=out, width=200, color_system=None, highlight=False)
    Terminal(2, 1, 3, console=console, read_line=read, game=game).run()
    return out.getvalue()


@pytest.mark.parametrize("lang", ["de", "zh"])
def test_the_screens_frame_in_german_and_chinese(lang: str, language: None) -> None:
    """The greeting, the status line, the clearing, the forests' titles and the hand list's
    columns in the terminal's language (the game's own sentences are not the terminal's)."""
    terminal_words.use_language(lang)
    t = words("terminal", lang)
    text = _first_screen("base")
    said = [t("{title}: {n} players, seed {seed}. Type help for help.", title="Forest Shuffle",
              n=2, seed=3),
            t("Turn {n}", n=1) + " · " + t("seed {seed}", seed=3),
            t("Clearing ({n}/{limit}): ", n=0, limit=10) + t("empty"),
            t("Your forest") + " · " + t("cave {n}", n=0) + " · " + t("no trees yet"),
            t("cost, name, tags, tree symbol · fits at trees"), t("new tree")]
    for words_ in said:
        assert words_ in text, words_
    for english in ("Type help for help", "Turn 1", "Clearing (", "no trees yet",
                    "fits at trees", "new tree"):
        assert english not in text, english


#: The base game's first prompt (narration's ``ask_words``, the ``server`` catalog).
FIRST_ASK = ("Draw 2 cards (deck or clearing), play a card (paying its cost), or "
             "play a sapling.")


@pytest.mark.parametrize("lang", ["de", "zh"])
def test_the_prompt_and_turn_label_in_the_terminals_language(lang: str,
                                                             language: None) -> None:
    """The game's own prompt and the screen's turn label come from the narration in the
    terminal's language (issue 41): German keeps the prompt's capital after the seat."""
    from forest_shuffle.text.narration import turn_label

    terminal_words.use_language(lang)
    text = _first_screen("base")
    ask = words("server", lang)(FIRST_ASK)
    assert ask != FIRST_ASK
    prompt = ask if lang == "de" else ask[:1].lower() + ask[1:]
    you = words("terminal", lang)("You")  # the seat's name in the terminal's language
    assert you != "You"
    assert f"{you}: {prompt}" in text
    assert FIRST_ASK[1:] not in text
    label = turn_label(1, "", lang)
    assert label != "Turn 1"
    assert label + " · " in text


def test_the_prompt_and_turn_label_stay_english(language: None) -> None:
    terminal_words.use_language("en")
    text = _first_screen("base")
    assert "Turn 1 · " in text
    assert "You: draw 2 cards (deck or clearing), play a card (paying its cost), or play a "\
           "sapling." in text


@pytest.mark.parametrize(("lang", "said"), [
    ("fr", ["oiseau", "Piochez 2 cartes", "Bonus", "coût 2"]),
    ("de", ["Vogel", "Ziehe 2 Karten", "Effekt", "Kosten 2"]),
    ("zh", ["鸟", "抽 2 张牌", "效果", "费用 2"]),
])
def test_the_card_look_up_in_each_language(lang: str, said: list[str], language: None) -> None:
    """The terminal's card look-up (``card 117``: a Tawny Owl): tags, the line of cost and
    place, the labels and rules in the language (``cards`` domain), the tree symbol as
    printed in its edition; English as before."""
    from rich.console import Console

    from forest_shuffle.engine.game import game_by_id
    from forest_shuffle.terminal.line import card_details

    catalog = game_by_id("base").catalog

    def shown() -> str:
        console = Console(width=200, record=True, color_system=None)
        console.print(card_details(117, catalog))
        return console.export_text()

    english = shown()
    assert "Draw 2 cards" in english and "cost 2 · bird · goes top · symbol Beech" in english
    terminal_words.use_language(lang)
    text = shown()
    assert all(word in text for word in said), text
    assert "Draw 2 cards" not in text and "symbol Beech" not in text


@pytest.mark.parametrize(("lang", "sapling"), [("de", "als Schössling spielen"),
                                               ("fr", "comme jeune pousse"),
                                               ("zh", "作为树苗打出")])
def test_the_action_menu_in_the_terminals_language(lang: str, sapling: str,
                                                   language: None) -> None:
    """The numbered action menu is the narration's ``action_words`` in the terminal's
    language (issue 41), and a bot's seat its name in that language."""
    terminal_words.use_language(lang)
    text = _first_screen("base")
    assert sapling in text and "as a sapling" not in text
    assert words("terminal", lang)("Player {n} (bot)", n=2) in text
