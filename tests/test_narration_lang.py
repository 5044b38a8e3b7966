"""The narration's prompt and status words in each language (docs/i18n.md, "The server's
words"): the ``server`` catalog's whole sentences with each language's plural forms, card
names as printed in that language's edition; English is the source text."""

from __future__ import annotations

import dataclasses

import pytest

from forest_shuffle.cards.names import printed_name
from forest_shuffle.engine.actions import DISCARD, PAY, Action
from forest_shuffle.engine.picks import HAND, PickShape
from forest_shuffle.engine.state import GameState
from forest_shuffle.engine.view import PendingView
from forest_shuffle.i18n import words
from forest_shuffle.text.narration import (
    CLEARING_EMPTIED,
    GAME_OVER,
    ask_words,
    end_words,
    event_words,
    names_words,
    pick_confirm_words,
    pick_words,
    turn_label,
    winners_words,
    winter_words,
)


def test_turn_label_in_each_language() -> None:
    assert turn_label(4, "Ann") == "Turn 4: Ann"
    assert turn_label(4, "Ann", "zh") == "第 4 回合：Ann"
    assert turn_label(4, "", "de") == "Zug 4"
    assert turn_label(4, "Ann", "fr") == "Tour 4\u00a0: Ann"
    assert turn_label(0, "Ann", "de") == "Starthände"


def test_lists_are_joined_as_each_language_joins_them() -> None:
    names = ["Ann", "Bob", "Cy"]
    assert names_words(names) == "Ann, Bob and Cy"
    assert names_words(names, "fr") == "Ann, Bob et Cy"
    assert names_words(names, "de") == "Ann, Bob und Cy"
    assert names_words(names, "zh") == "Ann、Bob和Cy"
    assert names_words(["Ann"], "zh") == "Ann"


@pytest.mark.parametrize(("lang", "one", "many"), [
    ("de", "Sieger: Ann mit 1 Punkt.", "Sieger: Ann mit 52 Punkten."),
    ("fr", "Gagnant\u00a0: Ann avec 1 point.", "Gagnant\u00a0: Ann avec 52 points."),
    ("zh", "获胜者：Ann，1 分。", "获胜者：Ann，52 分。"),
])
def test_winners_take_each_languages_plural(lang: str, one: str, many: str) -> None:
    assert winners_words(["Ann", "Bob"], [1, 0], lang) == one
    assert winners_words(["Ann", "Bob"], [52, 40], lang) == many
    assert winners_words(["Ann", "Bob"], [52, 40]) == "Winner: Ann with 52 points."


def test_french_says_zero_like_one() -> None:
    """French's plural rule (n > 1): a tie at 0 points takes the singular."""
    assert winners_words(["Ann", "Bob"], [0, 0], "fr") == (
        "Égalité\u00a0: Ann et Bob se partagent la victoire avec 0 point.")
    assert winners_words(["Ann", "Bob"], [0, 0], "de").endswith("mit 0 Punkten.")


def test_end_and_event_words_in_each_language() -> None:
    for lang in ("fr", "de", "zh"):
        w = words("server", lang)
        said = end_words(["Ann", "Bob"], [30, 20], lang)
        assert said[0] == w.gettext(GAME_OVER) != GAME_OVER
        assert winter_words(2, 3, lang) != winter_words(2, 3)
        assert "2/3" in winter_words(2, 3, lang)
    assert end_words(["Ann", "Bob"], [30, 20]) == [GAME_OVER, "Winner: Ann with 30 points."]


def test_a_clearing_emptied_is_said_in_the_language_asked_for() -> None:
    state = GameState.new(2, seed=1)
    catalog = state.game.catalog
    # a table whose clearing was emptied by an action other than a take
    full = type("T", (), {"winter": (), "clearing": (1, 2)})()
    empty = type("T", (), {"winter": (), "clearing": ()})()
    said = event_words(Action("draw"), None, full, empty, 3, catalog, "de")
    assert said == ["Die Lichtung war voll: Ihre Karten kamen in die Schachtel."]
    assert event_words(Action("draw"), None, full, empty, 3, catalog) == [
        CLEARING_EMPTIED]


def test_the_prompt_names_a_card_as_printed_in_that_edition() -> None:
    """A take decision for one species (an effect's take): its name as printed."""
    state = GameState.new(2, seed=1)
    view = state.view(state.to_move)
    cat = view.game.catalog
    sp = cat.species["Oak"]
    pend = PendingView("take", view.player, need=1, species="Oak")
    asked = dataclasses.replace(view, pending=pend)
    assert ask_words(asked) == "Take an Oak card from the clearing into your hand."
    de = ask_words(asked, "de")
    assert de == f"Nimm eine Karte {printed_name(sp, 'de')} von der Lichtung auf die Hand."
    assert printed_name(sp, "de") != "Oak"
    assert ask_words(asked, "zh") == f"从空地拿一张{printed_name(sp, 'zh')}牌到你的手牌。"


def test_a_choice_of_several_cards_is_asked_in_each_language() -> None:
    """The pick words of a payment and Dartmoor's discard, whole sentences with each
    language's plural; English as before."""
    pay = PickShape("pay", PAY, HAND, (3, 8, 9), 2, 2, (), False, 5)
    assert pick_words(pay) == ("Pick 2 cards of your hand to pay with, in any order; a pick "
                               "can be taken back until you confirm.")
    assert pick_words(pay, "de").startswith("Wähle 2 Karten deiner Hand zum Bezahlen")
    assert pick_words(pay, "zh").startswith("从你的手牌中选择 2 张牌用于支付")
    one = PickShape("discard", DISCARD, HAND, (3,), 0, 1, (), True, 5)
    assert pick_words(one, "fr").startswith(
        "Choisissez jusqu'à 1 carte de votre main à poser face visible dans la clairière")
    assert pick_confirm_words(one, "de") == ["Fertig: keine Karte", "Auf die Lichtung: 1 Karte"]
    assert pick_confirm_words(pay, "fr")[2] == "Payer avec 2 cartes"
    assert pick_confirm_words(pay) == ["Pay with no card", "Pay with 1 card", "Pay with 2 cards"]


@pytest.mark.parametrize(("lang", "effect"), [
    ("fr", "Piochez 2 cartes"), ("de", "Ziehe 2 Karten"), ("zh", "抽 2 张牌")])
def test_an_options_effect_and_its_detail_are_card_text_in_the_language(
        lang: str, effect: str) -> None:
    """The option to use a bonus: the effect's phrase inside the prompt and the detail
    line are the ``cards`` domain's words in the prompt's language; English as before."""
    from forest_shuffle.text.narration import detail_words

    state = GameState.new(2, seed=1)
    view = state.view(state.to_move)
    pend = PendingView("option", view.player, species="Tawny Owl", step="bonus")
    asked = dataclasses.replace(view, pending=pend)
    assert "(Draw 2 cards)" in ask_words(asked)
    said = ask_words(asked, lang)
    assert effect in said and "Draw" not in said
    assert detail_words(asked, lang) == effect
