"""The faces of a ``base+exploration`` game: the winter reprieve and the named caves in
words (narration, the terminal's and the server's source), the CLI taking the new ids."""

from __future__ import annotations

import json

import pytest
from scenario import build, site, trees_of
from typer.testing import CliRunner

from forest_shuffle.cli.app import app
from forest_shuffle.engine.actions import Action
from forest_shuffle.engine.state import GameState
from forest_shuffle.games import canonical_id, make_game
from forest_shuffle.text.narration import action_words, ask_words, cave_name, public_words

GAME = "base+exploration"
CATALOG = make_game(GAME).catalog
TREE = trees_of("O Christmas Tree", CATALOG)[0]
WINTER = sorted(c.id for c in CATALOG.cards if c is not None and c.is_winter)


def _asked() -> GameState:
    fill = [c.id for c in CATALOG.cards if c is not None and c.module == "base"
            and not c.is_winter and not c.is_host][:4]
    s = build([[], []], [*fill, WINTER[2]], winter=WINTER[:2], game=GAME,
              forests=[[site(TREE)], []])
    s.apply(Action("draw"))
    assert s.decision == "winter reprieve"
    return s


def test_the_reprieve_in_words() -> None:
    view = _asked().view(0)
    assert action_words(Action("yes"), view).startswith(
        "yes: shuffle the winter card back into the deck (O Christmas Tree")
    assert action_words(Action("no"), view) == "no: the game ends"
    assert "winter reprieve" in ask_words(view)
    forest = view.forests[0]
    assert public_words(Action("yes"), view.pending, forest, CATALOG).startswith(
        "shuffles the winter card back into the deck")
    assert public_words(Action("no"), view.pending, forest, CATALOG) == (
        "lets the winter card end the game")


def test_named_caves_in_words() -> None:
    assert cave_name(2, CATALOG).startswith("cave 2, Collectors' Cave (")
    assert cave_name(1, make_game("dartmoor").catalog).startswith("cave 1")


def test_the_ids_in_any_order_and_one_canonical_spelling() -> None:
    assert canonical_id("base+exploration+alpine") == "base+alpine+exploration"
    assert canonical_id("BASE+exploration+woodland_edge+alpine") == (
        "base+alpine+woodland_edge+exploration")
    assert make_game("base+exploration+woodland_edge").title == (
        "Forest Shuffle + Woodland Edge + Exploration")


def test_the_cli_takes_the_new_ids() -> None:
    runner = CliRunner()
    out = runner.invoke(app, ["simulate", "--game", "base+exploration+alpine", "--games", "2",
                              "--json"])
    assert out.exit_code == 0, out.output
    bad = runner.invoke(app, ["simulate", "--game", "base+exploration+exploration",
                              "--games", "1"])
    assert bad.exit_code == 2 and "unknown game" in bad.output
    assert "Traceback" not in bad.output
    cards = runner.invoke(app, ["cards", "--game", "base+exploration", "--json"])
    assert cards.exit_code == 0 and "O Christmas Tree" in cards.output
    json.loads(cards.output)


def test_the_rl_encodings_take_the_reprieve() -> None:
    pytest.importorskip("numpy")
    from forest_shuffle.rl.actions import action_to_id
    from forest_shuffle.rl.observation import DECISIONS, encode, fields

    view = _asked().view(0)
    decision = fields(encode(view))["decision"]
    assert DECISIONS.index("winter reprieve") == 15 and decision[15] == 1.0
    assert decision.sum() == 1.0
    # the existing action ids: yes and no keep theirs
    assert [action_to_id(a) for a in view.legal_actions] == [3, 4]
