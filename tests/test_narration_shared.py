"""The terminal and the web server narrate a game in the same words (narration.py is their one
copy): the same seeded game, driven to its end by random legal actions in both faces at once,
gives the same table events (winter cards, the clearing emptied), the same end and winners,
and the same prompts."""

from __future__ import annotations

import io
import random
from dataclasses import dataclass

import pytest
from rich.console import Console

from forest_shuffle.games.dartmoor_solo import DartmoorSoloState
from forest_shuffle.server.service import GameService, SeatSpec
from forest_shuffle.server.store import Store
from forest_shuffle.terminal.line import Terminal
from forest_shuffle.text import narration


@dataclass
class Played:
    """One game played in both faces."""

    names: list[str]
    term: Terminal
    term_events: list[str]  # what the terminal told every human, in order
    term_end: list[str]  # the terminal's lines after the game (score pad and all)
    server_log: list[str]  # the server's table lines (no seat), in order
    prompts: int  # prompts compared


def play_both(monkeypatch: pytest.MonkeyPatch, players: int, seed: int,
              game: str = "base") -> Played:
    """A game of ``game`` for ``players`` people with the chosen seed, in a GameService and
    a Terminal (every seat a human, so every event reaches the terminal's logs), with the
    same random legal actions; each prompt of the terminal's screen is checked against the
    payload's."""
    rng = random.Random(seed)
    out = io.StringIO()
    console = Console(file=out, width=1000, color_system=None, highlight=False)
    term = Terminal(players, 0, seed, console=console, read_line=lambda: "quit", game=game)
    names = [s.name for s in term.seats]  # the server's seats are named alike
    assert names == (["You"] if players == 1 else [f"Player {i + 1}" for i in range(players)])
    with GameService(Store("sqlite://"), bot_delay=0) as svc:
        solo = {"solo": {"medal": ""}} if "solo" in game else None  # as POST /api/solo
        created = svc.create([SeatSpec("human", n) for n in names], seed=seed, game=game,
                             more=solo)
        gid = created["game_id"]
        tokens = {s["seat"]: s["token"] for s in created["seats"]}
        # the same deal as the server's (whatever scheme it uses): its state before any action
        term.state = svc.game(gid).snap.state.clone()
        events: list[str] = []
        tell_all = term._tell_all

        def tell(text: str) -> None:
            events.append(text)
            tell_all(text)

        monkeypatch.setattr(term, "_tell_all", tell)
        prompts = 0
        shown: dict[str, int] = {}  # screens drawn per decision kind (drawing is slow)
        version = 0
        while not term.state.over:
            p = term.state.to_move
            assert p is not None
            view = term.state.view(p)
            payload = svc.payloads.payload(gid, p)
            assert payload["version"] == version and payload["to_move"] == p
            kind = str(payload["decision"])
            shown[kind] = shown.get(kind, 0) + 1
            if shown[kind] <= 8:  # the terminal's prompt line is the server's prompt
                out.seek(0)
                out.truncate()
                console.print(term.screen(view))
                prompt = payload["prompt"]
                line = f"{names[p]}: {prompt[:1].lower()}{prompt[1:]}"
                detail = payload["prompt_detail"]
                if kind == "pay":
                    line += f" {detail}"
                assert line in out.getvalue().splitlines(), (line, out.getvalue()[-800:])
                prompts += 1
            action = rng.choice(view.legal_actions)
            term._apply(p, action)
            svc.act(gid, tokens[p], str(action), version)
            version += 1
        out.seek(0)
        out.truncate()
        term.show_end()
        game = svc.game(gid)
        assert game.snap.state.over and game.snap.version == version
        server_log = [e.text for e in game.log if e.seat is None]
    return Played(names, term, events, out.getvalue().splitlines(), server_log, prompts)


@pytest.mark.parametrize(("players", "seed"), [(2, 5), (3, 12), (4, 2024)])
def test_terminal_and_server_tell_the_same_events(monkeypatch: pytest.MonkeyPatch,
                                                  players: int, seed: int) -> None:
    played = play_both(monkeypatch, players, seed)
    names, state = played.names, played.term.state
    # The server's table lines: the opening, the turns, the events, the end.
    turns = {narration.turn_words(t, n) for t in range(1, state.turn + 1) for n in names}
    assert played.server_log[0] == narration.opening_words(names)
    server_events = [t for t in played.server_log[1:-1] if t not in turns]
    assert server_events == played.term_events
    winter = [t for t in played.term_events if t.startswith("A winter card")]
    assert winter and winter[-1] == narration.winter_words(3, 3)
    reveals = [t for t in played.term_events if t.startswith(("The top card of the deck goes",
                                                               "Cards of the deck go"))]
    assert reveals  # trees turn cards over in every game
    assert all(t in (narration.CLEARING_EMPTIED, *winter, *reveals) for t in played.term_events)
    # The end: the server's last line holds the terminal's two lines, in that order.
    end = narration.end_words(names, state.scores())
    assert played.server_log[-1] == " ".join(end)
    lines = [line.strip() for line in played.term_end]
    assert end[0] in lines and end[1] in lines
    assert lines.index(end[0]) < lines.index(end[1])
    assert played.prompts > 10


def test_winners_words_name_a_winner_or_every_tied_seat() -> None:
    names = ["Ann", "Bob", "Cy"]
    assert narration.winners_words(names, [40, 52, 7]) == "Winner: Bob with 52 points."
    assert narration.winners_words(names, [48, 48, 7]) == (
        "Tie: Ann and Bob share the victory with 48 points.")
    assert narration.winners_words(names, [9, 9, 9]) == (
        "Tie: Ann, Bob and Cy share the victory with 9 points.")
    assert narration.end_words(names, [1, 2, 3])[0] == narration.GAME_OVER


@pytest.mark.parametrize(("challenge", "seed"), [(2, 3), (9, 7), (14, 11)])
def test_terminal_and_server_tell_annas_turns_alike(monkeypatch: pytest.MonkeyPatch,
                                                    challenge: int, seed: int) -> None:
    """A solo game: the player's events from the table before Anna's turn, then her line
    and the winter card she revealed, in the same words and order in both faces."""
    played = play_both(monkeypatch, 1, seed, game=f"dartmoor-solo-{challenge}")
    state = played.term.state
    assert isinstance(state, DartmoorSoloState)
    turns = {narration.turn_words(t, n) for t in range(1, state.turn + 1) for n in played.names}
    # the server's table lines: the opening, the challenge, the turns, the events, the end
    assert played.server_log[0] == narration.opening_words(played.names)
    assert played.server_log[1].startswith(f"Solo challenge {challenge}: ")
    server_events = [t for t in played.server_log[2:-1] if t not in turns]
    assert server_events == played.term_events
    annas = [t for t in played.term_events if t.startswith(f"{narration.ANNA} ")]
    assert len(annas) == state.anna_turns > 10
    winter = [t for t in played.term_events if t.startswith("A winter card")]
    to_end = state.game.winter_to_end
    assert winter and winter[-1] == narration.winter_words(to_end, to_end)
