"""The terminal without rough edges: the live score pad, a play taken back before it is
paid, options numbered in the order shown, seen cards by name, hints that say what to type,
and a save that says only that it saved."""

from __future__ import annotations

import io
import random
import re
from dataclasses import replace
from pathlib import Path

import pytest
from rich.console import Console
from test_terminal_table import SEED, Script, history

from forest_shuffle.engine.actions import Action
from forest_shuffle.engine.state import GameState
from forest_shuffle.engine.view import make_spectator_view
from forest_shuffle.terminal.coach import Hint
from forest_shuffle.terminal.line import GROUP_ABOVE, numbered_actions, shown_actions
from forest_shuffle.text.narration import label

#: An option's number on the screen: ``12)`` before a space or a tree (``4)t1``), not a
#: card id in brackets (``(card 154) from``).
NUMBER = re.compile(r"(?<!card )(?<!\d)(\d+)\)(?=t|\s)")


def test_score_shows_the_live_score_pad_from_the_scorer() -> None:
    script = Script(["play 3", "pay 149", "score", "quit", "q"])
    term = script.terminal()
    term.run()
    shown = script.chunks[-2]
    assert "Not understood" not in shown
    assert "Score now" in shown
    sheets = term.game.score_table(make_spectator_view(term.state).forests)
    total = next(line for line in shown.splitlines() if "Total" in line)
    assert [int(n) for n in re.findall(r"\d+", total)] == [s.total for s in sheets]
    assert sheets[0].total > 0  # the Linden counts: the figures are not all zero
    trees = next(line for line in shown.splitlines() if line.strip("│ ").startswith("Trees"))
    assert [int(n) for n in re.findall(r"\d+", trees)] == [s.lines["trees"] for s in sheets]


def test_undo_takes_back_a_play_before_its_payment_is_whole() -> None:
    script = Script(["play 12", "pay 149", "undo", "undo", "draw", "quit", "q"])
    term = script.terminal()
    term.run()
    assert history(term)[0] == "draw"  # the Oak was never played
    text = script.text
    assert "Card 149 is back in your hand." in text
    assert "Taken back: play Oak (card 12)" in text
    assert "You play Oak (card 12)." not in script.chunks[-2]  # gone from the own lines
    # nothing to take back once the play is paid
    script = Script(["play 12", "pay 3 149", "undo", "quit", "q"])
    term = script.terminal()
    term.run()
    assert history(term)[:3] == ["play 12", "pay 3", "pay 149"]
    assert "Nothing to undo" in script.text


def _positions(seeds: range) -> list[GameState]:
    """Positions with many choices (the grouped list) from random games."""
    out: list[GameState] = []
    for seed in seeds:
        state = GameState.new(2, seed)
        rng = random.Random(seed)
        while not state.over:
            if len(state.legal_actions()) > GROUP_ABOVE:
                out.append(state.clone())
            state.apply(rng.choice(state.legal_actions()))
    return out


def test_options_are_numbered_in_the_order_shown() -> None:
    positions = _positions(range(3, 7))
    assert len(positions) > 20
    for state in positions:
        assert state.to_move is not None
        view = state.view(state.to_move)
        out = io.StringIO()
        Console(file=out, width=110, color_system=None).print(numbered_actions(view))
        numbers = [int(n) for n in NUMBER.findall(out.getvalue())]
        assert numbers == list(range(1, len(view.legal_actions) + 1)), out.getvalue()
        order = shown_actions(view)
        assert sorted(order) == sorted(view.legal_actions)
        for n, tree in re.findall(r"(?<!\d)(\d+)\)t(\d+)", out.getvalue()):
            assert order[int(n) - 1].kind == "play" and order[int(n) - 1].tree == int(tree) - 1
        for n, card in re.findall(r"(?<!\d)(\d+)\) (\d+)", out.getvalue()):
            assert order[int(n) - 1].card == int(card)  # takes, saplings: number and card


def test_seen_cards_are_shown_by_name() -> None:
    script = Script([])
    term = script.terminal()
    view = term.state.view(0)
    seen = term.state.deck[0]
    known = tuple(() if i != 1 else (seen,) for i in range(view.num_players))
    out = io.StringIO()
    Console(file=out, width=200, color_system=None).print(
        term.screen(replace(view, known_hands=known)))
    head = out.getvalue().splitlines()[0]
    assert f"(seen: {label(seen, term.game.catalog)})" in head


def test_hint_says_the_number_to_type(monkeypatch: pytest.MonkeyPatch) -> None:
    script = Script(["hint", "hint", "quit", "q"])
    term = script.terminal()
    view = term.state.view(0)
    play = Action.parse("play 12")
    answers = iter([Hint(Action.parse("draw"), (), "Hint: draw."),
                    Hint(play, (3, 149), "Hint: play the Oak.")])
    monkeypatch.setattr(term.coach, "hint", lambda state, p: next(answers))
    term.run()
    order = shown_actions(view)
    text = script.text
    assert f"Type {order.index(Action.parse('draw')) + 1}." in text
    assert f"Type {order.index(play) + 1}, then pay 3 149." in text


def test_saving_says_only_that_it_saved(tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    script = Script(["draw", "quit", "s", ""])
    assert script.terminal().run() is None
    assert "Game saved to forest-shuffle-save.json" in script.text
    assert "abandoned" not in script.text
    assert SEED == 3
