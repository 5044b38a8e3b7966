"""The terminal as a player wants it: payments in any order, leaving with a question and a
save, resuming, echoes of the own moves, extra turns and skipped steps announced, hints."""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from forest_shuffle.bots import make_bot
from forest_shuffle.bots.base import Budget
from forest_shuffle.bots.mcts import MCTSBot
from forest_shuffle.cli.app import app
from forest_shuffle.engine.actions import PAY, Action
from forest_shuffle.engine.state import GameState
from forest_shuffle.engine.view import PlayerView
from forest_shuffle.terminal import coach as coach_module
from forest_shuffle.terminal import line as line_module
from forest_shuffle.terminal.coach import Coach
from forest_shuffle.terminal.line import Terminal
from forest_shuffle.terminal.payment import payable_cards, payment_order
from forest_shuffle.terminal.saves import SAVE_FORMAT, SaveFileError, read_save
from forest_shuffle.text.narration import NO_HINTS

#: Seed 3, two players, you first: Oak (card 12, cost 2) can be played at once with the
#: hand 3, 109, 121, 148, 149 left to pay with.
SEED = 3
HAND = [3, 109, 121, 148, 149]
QUICK = "mcts:iterations=24"


class Script:
    """Feeds lines (or what a function answers) to a terminal; an exception instance in
    the lines is raised at that read (``KeyboardInterrupt()`` plays Ctrl-C)."""

    def __init__(self, lines: Iterable[str | BaseException] | Callable[[], str]) -> None:
        self.out = io.StringIO()
        self.console = Console(file=self.out, width=110, color_system=None, highlight=False)
        self.source = lines if callable(lines) else iter(lines).__next__
        self.chunks: list[str] = []
        self._seen = 0

    def read(self) -> str:
        text = self.out.getvalue()
        self.chunks.append(text[self._seen:])
        self._seen = len(text)
        try:
            entry = self.source()
        except StopIteration:
            raise EOFError from None
        if isinstance(entry, BaseException):
            raise entry
        return entry

    def terminal(self, bots: int = 1, hints: bool = True, hint_bot: str = QUICK) -> Terminal:
        return Terminal(2, bots, SEED, console=self.console, read_line=self.read,
                        hints=hints, hint_bot=hint_bot)

    @property
    def text(self) -> str:
        return self.out.getvalue()


def history(term: Terminal) -> list[str]:
    return [str(a) for a in term.state.history]


# ---------------------------------------------------------------------------- payments


def test_payment_on_one_line_in_any_order() -> None:
    script = Script(["play 12", "pay 149 3", "quit", "q"])
    term = script.terminal()
    term.run()
    assert history(term)[:3] == ["play 12", "pay 3", "pay 149"]
    text = script.text
    assert "in any order" in text and "all on one line (pay " in text
    assert "You play Oak (card 12)." in text  # the own move is echoed
    assert "You pay with card 3 (Linden) and card 149 (Camberwell Beauty/Tree Frog)." in text


def test_payment_card_by_card_in_any_order_and_undo() -> None:
    script = Script(["play 12", "pay 149", "undo", "pay 148", "pay 109", "quit", "q"])
    term = script.terminal()
    term.run()
    assert history(term)[:3] == ["play 12", "pay 109", "pay 148"]
    text = script.text
    assert "Chosen so far: card 149 (Camberwell Beauty/Tree Frog)." in text
    assert "Card 149 is back in your hand." in text


def test_every_hand_card_is_offered_for_a_payment() -> None:
    script = Script(["play 12", "quit", "q"])
    script.terminal().run()
    pay_screen = next(c for c in script.chunks if "pay for Oak" in c)
    for n, cid in enumerate(HAND, start=1):
        assert f"  {n}) pay with card {cid} (" in pay_screen
    # after one card is chosen by number, the rest are offered, renumbered
    script = Script(["play 12", "5", "quit", "q"])
    term = script.terminal()
    term.run()
    assert history(term) == ["play 12"]  # chosen, not yet paid
    after = script.chunks[-2]
    assert "Chosen so far: card 149" in after
    assert "  4) pay with card 148 (" in after and ") pay with card 149 " not in after


@pytest.mark.parametrize("entry, words", [
    ("pay 3 3", "Card 3 is chosen already."),
    ("pay 3 109 121", "This payment takes 2 cards, not 3."),
    ("pay 999 3", "Not allowed: card 999 is not in your hand."),
    ("pay 12 3", "Not allowed: card 12 is not in your hand."),  # the card paid for
    ("pay 3 x", "Not understood: write pay and card numbers"),
])
def test_bad_payments_are_one_line_and_change_nothing(entry: str, words: str) -> None:
    script = Script(["play 12", entry, "quit", "q"])
    term = script.terminal()
    term.run()
    assert history(term) == ["play 12"]
    assert words in script.text
    assert len(script.chunks[-2].strip().splitlines()) == 2  # the message and the prompt
    assert term._chosen == []


def test_payment_order_asks_the_engine() -> None:
    state = GameState.new(2, SEED)
    state.apply(Action.parse("play 12"))
    for pair in ([149, 3], [3, 149], [121, 109]):
        order = payment_order(state, 0, pair)
        assert order is not None and sorted(order) == sorted(pair)
        probe = state.clone()
        for c in order:  # the engine accepts that order
            probe.apply(Action(PAY, c))
        assert probe.pending is None or probe.pending.kind != "pay"
    assert payment_order(state, 0, [3, 3]) is None
    assert payment_order(state, 0, [3, 109, 121]) is None
    assert payable_cards(state, 0, []) == HAND
    assert payable_cards(state, 0, [149]) == [3, 109, 121, 148]
    fresh = GameState.new(2, SEED)
    fresh.apply(Action.parse("play 12"))
    assert state.to_dict() == fresh.to_dict()  # nothing but the play itself happened


# ---------------------------------------------------------------------------- leaving


def test_quit_asks_and_enter_goes_back() -> None:
    script = Script(["quit", "", "play 12", "pay 3 149", "q", "q"])
    term = script.terminal()
    assert term.run() is None
    assert history(term)[:3] == ["play 12", "pay 3", "pay 149"]
    text = script.text
    assert text.count("Leave the game?") == 2
    assert "Back to the game." in text and text.endswith("Game abandoned.\n")


def test_ctrl_c_asks_too_and_twice_leaves() -> None:
    script = Script([KeyboardInterrupt(), "", "draw", KeyboardInterrupt(),
                     KeyboardInterrupt()])
    term = script.terminal()
    assert term.run() is None
    assert history(term) == ["draw"]
    assert script.text.count("Leave the game?") == 2
    assert "Game abandoned." in script.text and "Traceback" not in script.text


def test_save_and_resume_go_on_where_the_game_was(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    script = Script(["play 12", "pay 3 149", "draw", "quit", "s", "", "more"])
    term = script.terminal(hints=False)
    assert term.run() is None
    saved = tmp_path / "forest-shuffle-save.json"
    assert "Game saved to forest-shuffle-save.json; resume it with: forest-shuffle play "\
           "--resume forest-shuffle-save.json" in script.text
    data = json.loads(saved.read_text())
    assert data["format"] == SAVE_FORMAT
    assert data["state"] == term.state.to_dict()
    assert data["seats"] == [{"name": "You", "bot": None},
                             {"name": "Player 2 (bot)", "bot": "easy"}]
    assert data["hints"] is False and data["seed_chosen"] is True
    back = read_save(saved)
    assert back.state.to_dict() == term.state.to_dict()
    # resumed: the same position, the same seats, hints still off, and play goes on
    again = Script(["hint", "1", "quit", "q"])
    resumed = Terminal(resume=back, console=again.console, read_line=again.read,
                       save_path=saved)
    assert [s.name for s in resumed.seats] == ["You", "Player 2 (bot)"]
    assert resumed.seats[1].bot is not None and resumed.seats[0].bot is None
    resumed.run()
    assert "(resumed)" in again.text and NO_HINTS in again.text
    assert history(resumed)[:len(term.state.history)] == history(term)
    assert len(resumed.state.history) > len(term.state.history)


def test_save_refuses_to_overwrite_another_file(tmp_path: Path) -> None:
    other = tmp_path / "keep.json"
    other.write_text("precious")
    script = Script(["quit", "s", str(other), "s", str(tmp_path / "no" / "dir.json"), "q"])
    assert script.terminal().run() is None
    assert other.read_text() == "precious"
    assert "exists: give another name." in script.text
    assert "Cannot save to " in script.text


def _cli(*args: str, input: str = "") -> tuple[int, str]:
    result = CliRunner().invoke(app, ["play", *args], input=input, env={"COLUMNS": "100"})
    return result.exit_code, result.output


def test_cli_resume_plays_a_saved_game_to_the_end(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out = _cli("--seed", "5", input="1\n1\nquit\ns\ngame.json\n")
    assert code == 0, out
    assert (tmp_path / "game.json").exists()
    code, out = _cli("--resume", "game.json", input="1\n" * 5000)
    assert code == 0, out
    assert "seed 5 (resumed)" in out and "Score pad" in out


@pytest.mark.parametrize("content, words", [
    (None, "cannot read it (No such file or directory)"),
    ("{", "not a saved game"),
    ('{"format": "forest-shuffle state 1"}', "not a saved terminal game"),
    ('{"format": "forest-shuffle terminal 1", "state": {"format": "x"}}', "not a saved game"),
    (b"\xff\xfe", "not UTF-8"),
])
def test_cli_bad_resume_file_is_one_line_exit_2(tmp_path: Path, content: str | bytes | None,
                                                words: str) -> None:
    path = tmp_path / "save.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content)
    code, out = _cli("--resume", str(path))
    assert code == 2, out
    assert len(out.strip().splitlines()) == 1 and words in out, out
    assert "Traceback" not in out


def test_broken_seats_of_a_save_are_refused(tmp_path: Path) -> None:
    state = GameState.new(2, SEED).to_dict()
    base = {"format": SAVE_FORMAT, "state": state, "seed_chosen": True, "hints": True,
            "hint_bot": QUICK}
    for seats, words in (([{"name": "You", "bot": None}], "seats must list the 2"),
                         ([{"name": "B", "bot": "easy"}, {"name": "You", "bot": None}],
                          "people sit before the bots"),
                         ([{"name": "You", "bot": None}, {"name": "B", "bot": "brilliant"}],
                          "unknown bot"),
                         ([{"name": "", "bot": None}, {"name": "B", "bot": "easy"}],
                          "printable name")):
        path = tmp_path / "s.json"
        path.write_text(json.dumps(base | {"seats": seats}))
        with pytest.raises(SaveFileError, match=words):
            read_save(path)
    code, out = _cli("--resume", str(tmp_path / "s.json"), "--players", "3")
    assert code == 2 and "leave out --players" in out


# ---------------------------------------------------------------------------- announcements


def _greedy_player(term_box: list[Terminal]) -> Callable[[], str]:
    """Answers for the human seat: what the greedy bot would do, in text form."""
    bot = make_bot("greedy", 1)

    def answer() -> str:
        term = term_box[0]
        p = term.state.to_move
        assert p is not None
        state = term.state.clone()
        action = bot.choose(state.view(p))
        if action.kind != PAY:
            return str(action)
        cards = [action.card]  # the whole payment on one line, as greedy pays it
        while state.pending is not None and state.pending.need > 1:
            state.apply(Action(PAY, cards[-1]))
            cards.append(bot.choose(state.view(p)).card)
        return "pay " + " ".join(str(c) for c in cards[::-1])

    return answer


def test_extra_turns_and_skipped_steps_are_announced(monkeypatch: pytest.MonkeyPatch) -> None:
    skipped: list[tuple[int, tuple[str, int, str, str]]] = []
    original = GameState._step_possible

    box: list[Terminal] = []

    def spy(self: GameState, step: tuple[str, int, str, str]) -> bool:
        ok = original(self, step)
        if not ok and box and self is box[0].state:  # the game's own skips, no copy's
            skipped.append((self.current, step))
        return ok

    monkeypatch.setattr(GameState, "_step_possible", spy)
    monkeypatch.setattr(line_module, "LOG_LINES", 100000)  # every line is shown
    extra = skipped_total = 0
    for seed in range(1, 9):
        box.clear()
        script = Script(_greedy_player(box))
        term = Terminal(2, 1, seed, console=script.console, read_line=script.read,
                        level="medium")
        box.append(term)
        skipped.clear()
        term.run()
        assert term.state.over
        text = script.text
        # the engine's extra turns: a new turn of the same seat
        replay = GameState.new(2, seed)
        mine = theirs = 0
        for action in term.state.history:
            before = (replay.turn, replay.current)
            replay.apply(action)
            if not replay.over and replay.turn > before[0] and replay.current == before[1]:
                mine += before[1] == 0
                theirs += before[1] == 1
        assert text.count("You take an extra turn.") == mine
        assert text.count("Player 2 (bot) takes an extra turn.") == theirs
        extra += mine + theirs
        # every step the engine skipped for you is announced, and no other
        own = [step for who, step in skipped if who == 0 and step[0] != "mushroom"]
        assert text.count(" is skipped: ") >= len(own)
        for step in own:
            assert f"The {step[0]} of {step[3]} (" in text
        assert text.count(" is skipped: ") <= sum(1 for w, _ in skipped if w == 0)
        skipped_total += len(own)
        assert "You play " in text or "You draw " in text
    assert extra > 0 and skipped_total > 0  # the seeds do show both


# ---------------------------------------------------------------------------- hints


def test_hint_is_the_search_bots_legal_choice_from_the_own_view(
        monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[object] = []

    class Spy(MCTSBot):
        def choose(self, view: PlayerView, budget: Budget | None = None) -> Action:
            seen.append(view)
            return super().choose(view, budget)

    def spy_bot(spec: str, seed: int = 0) -> MCTSBot:
        bot = make_bot(spec, seed)
        assert isinstance(bot, MCTSBot)
        spy = Spy(seed, iterations=bot.iterations or 24)
        return spy

    monkeypatch.setattr(coach_module, "make_bot", spy_bot)
    state = GameState.new(2, SEED)
    hint = Coach(QUICK, 7).hint(state, 0)
    assert seen and all(isinstance(v, PlayerView) and v.player == 0 for v in seen)
    assert hint.action in state.view(0).legal_actions
    assert state.to_dict() == GameState.new(2, SEED).to_dict()  # the game is unchanged
    assert hint.words.startswith("Hint: ")
    # a payment at hand: the whole payment, cards the engine accepts together
    state.apply(Action.parse("play 12"))
    pay = Coach(QUICK, 7).hint(state, 0)
    assert pay.action.kind == PAY and len(pay.payment) == 2
    assert payment_order(state, 0, list(pay.payment)) is not None
    assert pay.words.startswith("Hint: pay with card ")
    assert "gives up the bonus (Take another turn)" in pay.words  # one Oak in hand


def test_hint_in_the_terminal_and_no_hints() -> None:
    script = Script(["hint", "quit", "q"])
    term = script.terminal(hint_bot="mcts:iterations=200")
    term.run()
    flat = script.text.replace("\n", " ")
    assert "Hint: " in flat and "sampled playouts) expects it to leave you" in flat
    assert not term.state.history
    script = Script(["hint", "quit", "q"])
    script.terminal(hints=False).run()
    assert NO_HINTS in script.text and "Hint: " not in script.text
    code, out = _cli("--seed", "3", "--no-hints", input="hint\nquit\nq\n")
    assert code == 0 and NO_HINTS in out
    code, out = _cli("--hint-bot", "nosuchbot")
    assert code == 2 and "--hint-bot" in out and len(out.strip().splitlines()) == 1
