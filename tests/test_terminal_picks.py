"""The terminal's choices of several cards (Dartmoor's cave 3, the Raccoon): cards named in
any order, by number or several on one line, taken back with undo, sent on done in the
engine's order; nothing is applied before."""

from __future__ import annotations

import io
import random

from rich.console import Console

from forest_shuffle.engine.actions import Action
from forest_shuffle.engine.state import GameState
from forest_shuffle.terminal.line import Terminal


def _terminal(seed: int, game: str) -> tuple[Terminal, io.StringIO]:
    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None, highlight=False)

    def no_input() -> str:
        raise EOFError

    return Terminal(2, 0, seed, console=console, read_line=no_input, game=game), out


def _at_discard() -> tuple[Terminal, io.StringIO]:
    """Dartmoor, seed 1: the second seat takes cave 3 (draw 3, then 3 hand cards into the
    clearing) and is asked for the 3 cards."""
    term, out = _terminal(1, "dartmoor")
    term._apply(1, Action.parse("choose 3"))
    term._apply(0, Action.parse("choose 1"))
    assert term.state.decision == "discard" and term.state.to_move == 1
    return term, out


def test_cave_3_in_any_order_with_undo_then_done() -> None:
    term, out = _at_discard()
    state = term.state
    hand = sorted(state.hands[1])
    history = len(state.history)
    # the highest card first, then two more on one line: nothing is sent yet
    assert term._command(f"discard {hand[-1]}", 1) is False
    assert term._command(f"discard {hand[4]} {hand[0]}", 1) is False
    assert len(state.history) == history
    text = out.getvalue()
    assert f"Chosen so far: card {hand[-1]}" in text
    assert "done confirms (Put into the clearing: 3 cards)" in text
    # take one back (by its id), pick another by its number in the list
    assert term._command(f"undo {hand[4]}", 1) is False
    assert f"Card {hand[4]} is back in your hand." in out.getvalue()
    shown = term._shown_view(state.view(1)).legal_actions
    assert Action.parse(f"discard {hand[1]}") in shown  # lower ids stay offered
    assert Action.parse(f"discard {hand[-1]}") not in shown  # chosen
    n = shown.index(Action.parse(f"discard {hand[1]}")) + 1
    assert term._command(str(n), 1) is False
    assert len(state.history) == history
    # a fourth card is refused; done sends the three in the engine's order
    assert term._command(f"discard {hand[2]}", 1) is False
    assert "this choice takes 3 cards, not 4" in out.getvalue()
    assert term._command("done", 1) is True
    assert [str(a) for a in state.history[history:]] == [
        f"discard {c}" for c in sorted([hand[-1], hand[0], hand[1]])]
    assert {hand[-1], hand[0], hand[1]} <= set(state.clearing)


def test_done_too_early_and_bad_cards_are_one_line() -> None:
    term, out = _at_discard()
    state = term.state
    hand = sorted(state.hands[1])
    assert term._command(f"discard {hand[0]}", 1) is False
    assert term._command("done", 1) is False
    assert "Not yet: this choice takes 3 cards, not 1." in out.getvalue()
    assert term._command(f"discard {hand[0]}", 1) is False
    assert f"Card {hand[0]} is chosen already" in out.getvalue()
    assert term._command("discard 999", 1) is False
    assert "card 999 cannot be picked now" in out.getvalue()
    assert term._command("undo 998", 1) is False
    assert "Card 998 is not chosen" in out.getvalue()
    assert "Traceback" not in out.getvalue()
    assert state.decision == "discard" and len(state.hands[1]) == len(hand)


def _raccoon_terminal() -> Terminal:
    """A base game played at random until a Raccoon's decision with 3 or more hand cards."""
    for seed in range(200):
        rng = random.Random(seed)
        term, _ = _terminal(seed, "base")
        state: GameState = term.state
        while not state.over:
            if state.decision == "raccoon" and len(state.hands[state.to_move]) >= 3:
                return term
            state.apply(rng.choice(state.legal_actions()))
    raise AssertionError("no Raccoon")


def test_the_raccoon_in_any_order_and_none() -> None:
    term = _raccoon_terminal()
    state = term.state
    p = state.to_move
    hand = sorted(state.hands[p])
    start = len(state.history)
    cave = len(state.caves[p])
    assert term._command(f"cave {hand[-1]}", p) is False
    assert term._command(f"cave {hand[0]}", p) is False
    assert term._command("undo", p) is False  # the last one chosen: hand[0]
    assert len(state.history) == start
    assert term._command("done", p) is True
    assert [str(a) for a in state.history[start:]] == [f"cave {hand[-1]}", "done"]
    assert len(state.caves[p]) == cave + 1


def test_the_raccoon_done_with_none_chosen() -> None:
    term = _raccoon_terminal()
    state = term.state
    p = state.to_move
    start = len(state.history)
    assert term._command("done", p) is True
    assert [str(a) for a in state.history[start:]] == ["done"]
