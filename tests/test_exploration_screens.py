"""Exploration's named caves on the game's own faces: the page's card catalog (each cave
by name, its rule, its provisional note) and the terminal (the draft's offered caves by
name and rule, a forest's cave by name); the page itself: tests/e2e/test_exploration_page.py."""

from __future__ import annotations

import io

from rich.console import Console

from forest_shuffle.cards.forest import Forest
from forest_shuffle.engine.actions import Action
from forest_shuffle.engine.state import GameState
from forest_shuffle.games import make_game
from forest_shuffle.server.payloads import card_catalog
from forest_shuffle.terminal.line import Terminal
from forest_shuffle.text.narration import brief_words, public_words

GAME = "base+exploration"
NAMED = make_game(GAME).catalog.named_caves


def test_the_page_catalog_names_each_cave_with_its_rule_and_note() -> None:
    caves = card_catalog(GAME)["caves"]
    assert [c["number"] for c in caves] == list(range(1, len(NAMED) + 1))
    assert [c["name"] for c in caves] == [cave.name for cave in NAMED]
    assert [c["text"] for c in caves] == [cave.text for cave in NAMED]
    assert [c["provisional"] for c in caves] == [cave.provisional for cave in NAMED]
    assert any(c["provisional"] for c in caves) and not all(c["provisional"] for c in caves)


def test_the_page_catalog_of_dartmoor_keeps_its_numbered_caves() -> None:
    caves = card_catalog("dartmoor")["caves"]
    assert caves and all("name" not in c for c in caves)
    assert "caves" not in card_catalog("base")


def _screen(state: GameState, seat: int) -> str:
    out = io.StringIO()
    console = Console(file=out, width=160, color_system=None, highlight=False)
    term = Terminal(state.num_players, 0, state.seed, console=console,
                    read_line=lambda: "quit", game=GAME)
    console.print(term.screen(state.view(seat)))
    return out.getvalue()


def test_the_terminal_shows_the_offered_caves_by_name_and_rule_then_each_forests() -> None:
    state = GameState.new(2, 5, game=GAME)
    first = state.to_move
    text = _screen(state, first)
    for cave in NAMED:  # each offered cave on a line of its own: its name, then its rule
        assert f"{cave.name}: {cave.text}" in text
    assert "Discard pile" not in text  # no discard pile in Exploration
    chosen = NAMED[1]
    state.apply(Action("choose", 2))
    text = _screen(state, first)
    assert f"forest (yours) · {chosen.name} (0 under it)" in text
    assert f"{chosen.name}: {chosen.text}" in text  # the forest's cave among the caves
    offered = text.split("offered:")[1]
    assert f"{chosen.name}:" not in offered  # no longer offered


def test_the_log_says_which_cave_was_drafted_by_name() -> None:
    catalog = make_game(GAME).catalog
    take = Action("choose", 2)
    assert public_words(take, None, Forest(), catalog) == f"takes the {NAMED[1].name}"
    assert public_words(take, None, Forest(), catalog, lang="fr") == (
        f"prend la grotte « {NAMED[1].name} »")
    assert brief_words(take, None, Forest(), catalog) == f"took the {NAMED[1].name}"
    dartmoor = make_game("dartmoor").catalog  # numbered caves: as before
    assert public_words(take, None, Forest(), dartmoor) == "takes cave 2"
    assert brief_words(take, None, Forest(), dartmoor) == "took cave 2"
