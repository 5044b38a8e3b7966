"""Tests of the terminal front end, driven by scripted input, and of the ``play`` command."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable

from rich.console import Console
from scenario import CATALOG
from typer.testing import CliRunner, Result

from forest_shuffle.cli.app import app
from forest_shuffle.terminal.line import Terminal


class Script:
    """Feeds lines to a terminal and cuts its output into one chunk per prompt."""

    def __init__(self, lines: Iterable[str] | Callable[[], str]) -> None:
        self.out = io.StringIO()
        self.console = Console(file=self.out, width=100, color_system=None, highlight=False)
        self.source = lines if callable(lines) else iter(lines).__next__
        self.chunks: list[str] = []  # the output shown before each read, ending with its prompt
        self._seen = 0

    def read(self) -> str:
        text = self.out.getvalue()
        self.chunks.append(text[self._seen:])
        self._seen = len(text)
        try:
            return self.source()
        except StopIteration:
            raise EOFError from None

    def terminal(self, players: int, bots: int, seed: int) -> Terminal:
        return Terminal(players, bots, seed, console=self.console, read_line=self.read)

    @property
    def text(self) -> str:
        return self.out.getvalue()


def test_full_game_against_a_bot_shows_score_pad_and_winners() -> None:
    script = Script(lambda: "1")
    term = script.terminal(2, 1, seed=3)
    winners = term.run()
    assert term.state.over
    assert winners == term.state.winners()
    text = script.text
    for word in ("Score pad", "Trees", "Top/bottom", "Left/right", "Cave", "Total"):
        assert word in text
    assert "Winner: " in text or "Tie: " in text
    assert "Player 2 (bot) draws a card from the deck." in text
    assert "Traceback" not in text
    # every card's points come with a reason
    assert "You: " in text and "Player 2 (bot): " in text and " per " in text


def test_bad_entries_give_one_line_and_a_new_prompt() -> None:
    script = Script(["hello there", "99", "0", "play 72 left 1", "yes", "card", "card 0", "",
                     "quit", "q"])
    term = script.terminal(2, 1, seed=3)
    assert term.run() is None
    text = script.text
    assert "Not understood: 'hello' is neither an action nor a command" in text
    assert "No action 99: choose 1 to" in text
    assert "No action 0: choose 1 to" in text
    assert "Not allowed: card 72 is not in your hand." in text
    assert "Not allowed: you must choose" in text
    assert "player 1" not in text
    assert "Write card ID" in text
    assert "No card 0" in text
    assert "Game abandoned." in text
    # one prompt per entry, each after a one-line message (after the first screen)
    prompts = [c for c in script.chunks if c.endswith("You > ")]
    assert len(prompts) == 9
    for chunk in script.chunks[1:-1]:
        assert len(chunk.strip().splitlines()) == 2  # the message and the prompt
    assert script.chunks[-1].startswith("Leave the game?")  # quit asks first
    assert term.state.turn == 1 and not term.state.history


def test_an_action_in_text_form_is_applied() -> None:
    script = Script(["draw", "draw", "quit"])
    term = script.terminal(2, 1, seed=3)
    term.run()
    assert [str(a) for a in term.state.history[:2]] == ["draw", "draw"]
    assert "New in your hand:" in script.text


def test_card_command_shows_full_card_text() -> None:
    script = Script(["card 12", "card 72", "quit"])
    script.terminal(2, 1, seed=3).run()
    text = script.text
    oak = CATALOG.card(12)
    assert oak.species is not None
    assert f"Card 12: {oak.species.name}" in text
    assert "T12" not in text and "#12" not in text  # no printed codes
    assert "Points:" in text
    for half in CATALOG.card(72).halves.values():
        assert half.species.name in text


def test_hot_seat_hands_over_and_hides_the_other_hand() -> None:
    script = Script(lambda: "1")
    term = script.terminal(2, 0, seed=4)
    for _ in range(400):  # a good part of a game, then stop reading
        if term.state.over:
            break
        p = term.state.to_move
        assert p is not None
        term._human(p)
    handovers = [c for c in script.chunks if "press Enter" in c]
    assert len(handovers) > 5
    assert "Pass to Player 2, press Enter" in script.text
    # Each chunk ends with one prompt; a player's screen shows only that player's hand.
    previous = None
    for chunk in script.chunks:
        if chunk.endswith("press Enter "):
            previous = None
            continue
        me, other = ("Player 1", "Player 2") if chunk.endswith("Player 1 > ") else (
            "Player 2", "Player 1")
        assert f"Your hand · {other}" not in chunk
        if f"Your hand · {me}" in chunk and previous is not None:
            assert previous == me  # a new human's screen always follows a hand-over
        previous = me


def test_hot_seat_hand_cards_of_the_other_player_are_not_listed() -> None:
    script = Script(["1"] * 30)
    term = script.terminal(2, 0, seed=4)
    hands_when: list[tuple[int, tuple[int, ...]]] = []
    original = script.read

    def read() -> str:
        p = term.state.to_move
        assert p is not None
        hands_when.append((p, tuple(term.state.hands[1 - p])))
        return original()

    term.read_line = read
    term.run()
    screens = 0
    for (p, other_hand), chunk in zip(hands_when, script.chunks, strict=True):
        if chunk.endswith("press Enter ") or "Your hand · " not in chunk:
            continue
        screens += 1
        rows = chunk.split("Your hand · ")[1].split("\n  1)")[0]
        assert f"Your hand · Player {p + 1} (" in chunk
        known = set(term.state.view(p).known_hands[1 - p])
        for cid in other_hand:
            if cid not in known:
                assert f"\n {cid:>3}  " not in rows, (p, cid)
    assert screens > 10


def test_bots_play_a_whole_game_alone() -> None:
    script = Script([])
    term = script.terminal(3, 3, seed=11)
    winners = term.run()
    assert winners and term.state.over
    assert "Score pad" in script.text and not script.chunks


def _argv(*args: str) -> list[str]:
    lone = (len(app.registered_commands) == 1 and not app.registered_groups
            and app.registered_callback is None)
    return list(args) if lone else ["play", *args]


def run(*args: str, input: str = "") -> Result:
    return CliRunner().invoke(app, _argv(*args), input=input, env={"COLUMNS": "100"})


def test_cli_plays_a_whole_game() -> None:
    result = run("--seed", "3", input="1\n" * 5000)
    assert result.exit_code == 0, result.output
    assert "seed 3" in result.output
    assert "Score pad" in result.output


def test_cli_end_of_input_exits_cleanly() -> None:
    result = run("--seed", "3", input="1\n1\n")
    assert result.exit_code == 0, result.output
    assert "End of input: game abandoned." in result.output
    assert "Traceback" not in result.output


def test_cli_bad_options_exit_2_with_one_line() -> None:
    for args in (("--players", "7"), ("--players", "1"), ("--players", "abc"),
                 ("--players", "3", "--bots", "4"), ("--bots", "-1"), ("--seed", "x")):
        result = run(*args)
        assert result.exit_code == 2, (args, result.output)
        assert len(result.output.strip().splitlines()) == 1, result.output


def test_level_picks_the_bots_and_bad_level_is_refused() -> None:
    from forest_shuffle.bots.greedy import GreedyBot
    from forest_shuffle.terminal.line import Terminal

    term = Terminal(2, 1, 5, level="medium", read_line=lambda: "quit")
    assert isinstance(term.seats[1].bot, GreedyBot)
    from typer.testing import CliRunner

    from forest_shuffle.cli.app import app

    result = CliRunner().invoke(app, ["play", "--level", "brilliant"])
    assert result.exit_code == 2
    assert "unknown bot" in result.output


def test_non_ascii_digits_and_huge_numbers_are_one_line_answers() -> None:
    # Python calls "²" and "١" digits; int("²") raises, which used to end the game.
    script = Script(["²", "١٢", "9" * 5000, "card ²", "card " + "9" * 5000, "quit", "q"])
    term = script.terminal(2, 1, seed=3)
    assert term.run() is None
    assert "Game abandoned." in script.text
    for chunk in script.chunks[1:-1]:
        assert len(chunk.strip().splitlines()) == 2  # the message and the prompt
    assert "Traceback" not in script.text and not term.state.history


# ---------------------------------------------------------------------------- other games

WOODLAND = "base+woodland_edge"


class HotSeat(Script):
    """A hot-seat script: Enter at each hand-over, the given entries, then ``then`` (the
    first action, by number) for every other entry."""

    def __init__(self, entries: Iterable[str], then: str = "1") -> None:
        self.entries = list(entries)
        self.then = then
        self.typed: list[str] = []
        super().__init__(self._next)

    def _next(self) -> str:
        if self.out.getvalue().endswith("press Enter "):
            return ""
        entry = self.entries.pop(0) if self.entries else self.then
        self.typed.append(entry)
        return entry

    def game(self, seed: int, game: str = WOODLAND) -> Terminal:
        return Terminal(2, 0, seed, console=self.console, read_line=self.read, game=game)


def test_a_scripted_game_of_woodland_edge_to_the_end() -> None:
    from forest_shuffle.engine.actions import Action

    # a shrub (Blackthorn, card 209) paid with two cards, Bob draws twice, then a European
    # Wildcat left of the shrub whose effect takes a card of the clearing (typed)
    script = HotSeat(["keep", "play 209", "pay 82", "pay 231", "draw", "draw",
                      "play 229 left 1", "pay 222", "yes", "take 222"])
    term = script.game(1)
    winners = term.run()
    assert term.state.over and winners == term.state.winners()
    assert term.state.game.id == WOODLAND
    assert not script.entries  # every scripted entry was taken
    history = [str(a) for a in term.state.history]
    assert history[:10] == script.typed[:10]
    text = script.text
    assert "Traceback" not in text and "Not allowed" not in text and "Not understood" not in text
    assert text.startswith("Forest Shuffle + Woodland Edge: 2 players, seed 1.")
    assert "Forest Shuffle + Woodland Edge · Turn 1" in text
    # the shrub in the hand list, as a host of its own, then in the forest table
    assert " 209  2 Blackthorn shrub,woodland edge " in text
    assert "new shrub" in text
    assert "1 Blackthorn (shrub)" in text and "0 trees, 1 shrub" in text
    assert "1  Blackthorn (shrub)  ↑·  ↓·  ←Wildcat  →·" in text  # with a dweller
    # the take of the effect is offered by number too, in the words of narration
    take_screen = next(c for c in script.chunks if c.endswith("Player 1 > ")
                       and "(card 222) from the clearing" in c)
    assert "  1) take Barbastelle Bat/Beech Marten (card 82) from the clearing" in take_screen
    assert "  3) take Wild Boar (female)/Bee Swarm (card 222) from the clearing" in take_screen
    assert Action.parse("take 222") in term.state.history
    assert 222 in term.state.known[0] or 222 not in term.state.hands[0]
    for word in ("Score pad", "Trees", "Top/bottom", "Left/right", "Cave", "Total"):
        assert word in text
    assert "Winner: " in text or "Tie: " in text
    # the hand limit and the clearing limit of the game's definition
    assert "/10)" in text and "Clearing (" in text and "winter 0/3" in text


def test_saplings_of_a_water_vole_chosen_by_number_then_done() -> None:
    script = HotSeat(["play 31", "yes", "draw", "draw", "play 219 bottom 1", "pay 94",
                      "pay 159", "yes", "1", "done", "quit", "q"])
    term = script.game(2)
    assert term.run() is None
    screens = [c for c in script.chunks if "as a sapling" in c and "done" in c]
    assert screens, "no screen offered the saplings"
    first = screens[0]
    assert "  1) play card 116 (" in first and ") done" in first
    history = [str(a) for a in term.state.history]
    assert history[-2:] == ["sapling 116", "done"]
    assert "Player 1 plays a sapling." in script.text  # Player 2 saw it face down
    forest = term.state.forests[0]
    assert [t.kind for t in forest.trees] == ["tree", "sapling"]


def test_card_command_knows_the_cards_of_the_game() -> None:
    script = HotSeat(["card 209", "card 170", "quit", "q"])
    script.game(1).run()
    text = script.text
    assert "Card 209: Blackthorn (shrub card, Sycamore, cost 2)" in text
    assert "Blackthorn  cost 2 · shrub, woodland edge · goes shrub · symbol Sycamore" in text
    assert "No card 170 in Forest Shuffle + Woodland Edge: ids run 1-161, 198-233." in text
    base = HotSeat(["card 209", "quit", "q"])
    base.game(1, "base").run()
    assert "No card 209 in Forest Shuffle: ids run 1-161." in base.text


def test_cli_plays_a_game_of_woodland_edge() -> None:
    result = run("--game", WOODLAND, "--seed", "3", input="1\n" * 5000)
    assert result.exit_code == 0, result.output
    assert "Forest Shuffle + Woodland Edge: 2 players, seed 3." in result.output
    assert "Score pad" in result.output
    alpine = run("--game", "base+woodland_edge+alpine", "--seed", "3", input="quit\n")
    assert alpine.exit_code == 0, alpine.output
    assert "Forest Shuffle + Alpine + Woodland Edge: 2 players" in alpine.output
    assert "the terminal plays only the base game" not in alpine.output
