"""The server's words in each language (issue 41, docs/i18n.md "The server's words"): the
log's action lines, the action menu (``legal_words``), the engine's refusals by their rule,
every decision kind's words; English stays byte for byte what it was."""

from __future__ import annotations

import random

import pytest

from forest_shuffle.cards.names import printed_name
from forest_shuffle.engine.actions import TAKE, Action, IllegalActionError
from forest_shuffle.engine.game import game_by_id
from forest_shuffle.engine.kinds import DECISION_KINDS
from forest_shuffle.engine.refusals import Noun, Refusal
from forest_shuffle.engine.state import GameState
from forest_shuffle.i18n import words
from forest_shuffle.server.service import narrate
from forest_shuffle.text.narration import action_words, refusal_words

OTHERS = ("fr", "de", "zh")
GAMES = ("base", "dartmoor", "base+alpine+woodland_edge")


def _games() -> None:
    """Every game's own decision kinds registered (each game module declares its own)."""
    for game in GAMES:
        game_by_id(game)


def _play(game: str, seed: int, steps: int) -> list[tuple[GameState, GameState, int, Action]]:
    """``steps`` random moves of a 3-player ``game``: (before, after, seat, action) each."""
    rng = random.Random(seed)
    s = GameState.new(3, seed, game=game)
    out = []
    for _ in range(steps):
        if s.over:
            break
        p = s.to_move
        assert p is not None
        a = rng.choice(s.legal_actions())
        b = s.clone()
        s.apply(a)
        out.append((b, s.clone(), p, a))
    return out


@pytest.mark.parametrize("lang", OTHERS)
def test_every_decision_kinds_words_have_a_translation(lang: str) -> None:
    """What each registered decision kind asks for (its ``expected`` words, which a refusal
    names) and every action kind's rule are in the ``server`` catalog of ``lang``."""
    _games()
    w = words("server", lang)
    assert DECISION_KINDS
    for decl in DECISION_KINDS.values():
        assert w(decl.expected) != decl.expected, (decl.name, decl.expected)
    for game in GAMES:
        state = GameState.new(2, 1, game=game)
        for kind in state.game.action_kinds:
            rule = state._kind_rule(kind)
            assert w(rule) != rule, (game, kind, rule)


@pytest.mark.parametrize("lang", OTHERS)
@pytest.mark.parametrize("game", GAMES)
def test_every_action_kinds_menu_words_are_translated(game: str, lang: str) -> None:
    """Random games until every action kind of the game was legal: its menu line
    (``legal_words``) in ``lang`` is not the English one, and names no English species."""
    kinds = set(game_by_id(game).action_kinds)
    seen: set[str] = set()
    for seed in range(40):
        for before, _after, p, _a in _play(game, seed, 300):
            view = before.view(p)
            for a in view.legal_actions:
                if a.kind in seen:
                    continue
                seen.add(a.kind)
                assert action_words(a, view, lang) != action_words(a, view), a
        if seen >= kinds:
            break
    assert seen >= kinds - {"moor", "discard"}  # Dartmoor's rarer kinds may not come up


@pytest.mark.parametrize("lang", OTHERS)
def test_the_logs_action_lines_are_said_in_each_language(lang: str) -> None:
    """Each action's log line in ``lang``: not English, the same cards named, the species
    as printed in that edition, and its words with no card number."""
    names = ["Ann", "Bob", "Cy"]
    said = 0
    for before, after, p, a in _play("base", 11, 120):
        for entry in narrate(before, after, p, a, names):
            shown, en = entry.shown(p, lang), entry.shown(p)
            assert shown["cards"] == en["cards"]
            assert shown["text"] != en["text"] or en["text"].startswith(names[0] + ".")
            if entry.seat is not None and a.kind == "play" and not a.side:
                sp = before.game.catalog.card(a.card).species
                assert sp is not None
                assert printed_name(sp, lang) in shown["words"]
                assert str(a.card) not in shown["words"]
                said += 1
    assert said


def test_a_log_line_in_german_and_its_english_original() -> None:
    """One line by hand: a take from the clearing, with and without the card's number."""
    s = next(before for before, _after, p, _a in _play("base", 4, 400)
             if any(a.kind == TAKE for a in before.legal_actions()))
    card = next(a.card for a in s.legal_actions() if a.kind == TAKE)
    before = s.clone()
    seat = s.to_move
    assert seat is not None
    s.apply(Action(TAKE, card))
    entry = narrate(before, s, seat, Action(TAKE, card), ["Ann", "Bob", "Cy"])[0]
    name = printed_name(before.game.catalog.card(card).species, "de")  # type: ignore[arg-type]
    en_name = before.game.catalog.card(card).species.printed  # type: ignore[union-attr]
    who = ["Ann", "Bob", "Cy"][seat]
    assert entry.text == f"{who} takes {en_name} (card {card}) from the clearing."
    de = entry.shown(-1, "de")
    assert de["text"] == f"{who} nimmt {name} (Karte {card}) aus der Lichtung."
    assert de["words"] == f"{who} nimmt {name} aus der Lichtung."


def test_a_refusal_keeps_its_english_words_and_names_its_rule() -> None:
    """``str()`` of a refusal is the English line it always was; its rule and values say
    it in each language, addressed to the player who tried it."""
    s = GameState.new(2, 4)
    with pytest.raises(IllegalActionError) as caught:
        s.apply(Action("pay", 999))
    exc = caught.value
    assert exc.rule and isinstance(exc.reason, Refusal)
    assert str(exc) == f"illegal action pay 999: {exc.reason}"
    cat = s.game.catalog
    said = {lang: refusal_words(exc.reason, cat, lang, s.to_move) for lang in OTHERS}
    assert said["de"].startswith("du musst wählen: ")
    assert said["fr"].startswith("vous devez choisir\u00a0: ")
    assert said["zh"].startswith("你必须选择：")
    assert refusal_words(exc.reason, cat, "en", s.to_move).startswith("you must choose: ")


def test_a_refusal_not_in_hand_in_each_language() -> None:
    s = GameState.new(2, 4)
    while s.decision != "turn":
        s.apply(s.legal_actions()[0])
    p = s.to_move
    assert p is not None
    missing = s.hands[1 - p][0]  # the other player's card
    with pytest.raises(IllegalActionError) as caught:
        s.apply(Action("play", missing))
    reason, cat = caught.value.reason, s.game.catalog
    assert reason == f"card {missing} is not in player {p + 1}'s hand"
    assert refusal_words(reason, cat, "de", p) == f"Karte {missing} ist nicht auf deiner Hand"
    assert refusal_words(reason, cat, "de") == (f"Karte {missing} ist nicht auf der Hand von "
                                                f"Spieler {p + 1}")
    assert refusal_words(reason, cat, "zh", p) == f"第 {missing} 号牌不在你的手牌中"


def test_a_word_with_its_english_article() -> None:
    assert Noun("insect") == "an insect" and Noun("insect").word == "insect"
    r = Refusal("card {card} is not {what}", card=3, what=Noun("bird"))
    assert r == "card 3 is not a bird" and r.rule == "card {card} is not {what}"
