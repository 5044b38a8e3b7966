"""Card texts in the players' languages (issue 41, the ``cards`` message domain): every
card text of every game is translated in French, German and Chinese, a few cards of each
game say what their editions say, and English stays the source text."""

from __future__ import annotations

import gettext
import re
from collections.abc import Iterator

import pytest

from forest_shuffle.cards.model import Catalog, Species, load_catalog
from forest_shuffle.cards.ops import EFFECT_OPS
from forest_shuffle.engine.game import game_by_id, game_ids
from forest_shuffle.i18n import LOCALE_DIR
from forest_shuffle.i18n.catalog import Words
from forest_shuffle.text import cardtext

OTHER = ("fr", "de", "zh")
#: English words a translated phrase must not keep.
ENGLISH = re.compile(r"\b(cards?|each|per|Draw|Place|Put|Take|with|if)\b")


def _catalogs() -> Iterator[tuple[str, Catalog]]:
    for gid in game_ids():
        yield gid, game_by_id(gid).catalog
    # Exploration has no game id yet: its data module with the base family's
    yield "exploration", load_catalog(("base", "alpine", "woodland_edge", "exploration"))


class _Strict(Words):
    """The ``cards`` words of a language that fail on a message its catalog lacks, and
    count the messages asked."""

    def __init__(self, lang: str) -> None:
        trans = gettext.translation("cards", LOCALE_DIR, languages=[lang])
        super().__init__("cards", lang, trans)
        self.asked = 0
        self.missing: set[str] = set()
        self._have = trans._catalog  # type: ignore[attr-defined]

    def _need(self, key: object, shown: str) -> None:
        self.asked += 1
        if key not in self._have or not self._have[key]:
            self.missing.add(shown)

    def gettext(self, message: str, /, **params: object) -> str:
        self._need(message, message)
        return super().gettext(message, **params)

    def ngettext(self, singular: str, plural: str, n: int, /, **params: object) -> str:
        self._need((singular, 0), singular)
        return super().ngettext(singular, plural, n, **params)

    def pgettext(self, context: str, message: str, /, **params: object) -> str:
        self._need(f"{context}\x04{message}", message)
        return super().pgettext(context, message, **params)

    def npgettext(self, context: str, singular: str, plural: str, n: int, /,
                  **params: object) -> str:
        self._need((f"{context}\x04{singular}", 0), singular)
        return super().npgettext(context, singular, plural, n, **params)


def _parts(sp: Species) -> Iterator[str]:
    for part in cardtext.PARTS:
        if part == "points" or cardtext.part_effect(sp, part) is not None:
            yield part


@pytest.mark.parametrize("lang", OTHER)
def test_every_card_text_of_every_game_is_translated(lang: str,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Each part of every species of every registered game (and Exploration's module) is
    said through messages its language's catalog has, every tag is a noun of the catalog
    and every op has its own words: a new card, tag, op or point rule without words
    fails here."""
    say = cardtext.CardSay(lang)
    strict = _Strict(lang)
    monkeypatch.setattr(say, "_w", strict)
    monkeypatch.setitem(cardtext._SAYS, lang, say)
    untold: list[str] = []
    for gid, catalog in _catalogs():
        for sp in catalog.species.values():
            for tag in sp.tags:
                assert tag in cardtext._TAG_NOUNS, (gid, sp.name, tag)
            for part in _parts(sp):
                effect = cardtext.part_effect(sp, part) if part != "points" else None
                if effect is not None:
                    decl = EFFECT_OPS[effect.op]
                    assert decl.words is not None, (gid, effect.op)
                before = strict.asked
                text = cardtext.short_text(sp, part, lang)
                assert text, (gid, sp.name, part)
                if text != "0" and strict.asked == before:
                    untold.append(f"{gid}: {sp.name} {part}: {text!r}")
            cardtext.tags_text(sp, lang)
    assert not strict.missing, sorted(strict.missing)
    assert not untold, untold  # a phrase said in English alone, through no message


#: A few cards of each game in each language: (game, species, part, language, text).
EXPECTED = [
    ("base", "Tawny Owl", "bonus", "fr", "Piochez 2 cartes"),
    ("base", "Tawny Owl", "bonus", "de", "Ziehe 2 Karten"),
    ("base", "Tawny Owl", "bonus", "zh", "抽 2 张牌"),
    ("base", "Gnat", "points", "fr", "1 par chauve-souris"),
    ("base", "Gnat", "effect", "de",
     "Lege beliebig viele Fledermäuse aus deiner Hand kostenlos aus"),
    ("base", "Red Fox", "points", "de", "2 pro Karte Feldhase"),
    ("base", "Beech", "points", "zh", "拥有至少 4 张山毛榉时每张 5 分"),
    ("base", "Brown Bear", "effect", "fr",
     "Placez toutes les cartes de la clairière sous votre grotte"),
    ("base", "Fire Salamander", "points", "fr", "série : 5/15/25 pour 1/2/3"),
    ("base+alpine", "Chamois", "points", "de",
     "3 pro Karte mit ihrem Baumsymbol (sie selbst mitgezählt)"),
    ("base+woodland_edge", "Violet Carpenter Bee", "permanent", "de",
     "Zählt als +1 Baum der Art, an der sie liegt"),
    ("dartmoor", "Ash", "points", "fr",
     "1 par plante et par carte portant le symbole Aulne glutineux"),
    ("dartmoor", "Black-Tailed Godwit", "points", "zh", "每张 0 分；荒原最多时每张 10 分"),
    ("dartmoor", "Nuthatch", "points", "de", "10, wenn ihr Baum oder Strauch voll belegt ist"),
]


@pytest.mark.parametrize(("gid", "name", "part", "lang", "text"), EXPECTED)
def test_cards_of_each_game_in_each_language(gid: str, name: str, part: str, lang: str,
                                             text: str | None) -> None:
    """The phrase in the language, with the species named as printed in its edition; the
    English one is unchanged by the language asked for another."""
    sp = game_by_id(gid).catalog.species[name]
    said = cardtext.short_text(sp, part, lang)
    english = cardtext.short_text(sp, part)
    if text is not None:
        assert said.startswith(text), said
    assert said != english
    assert not ENGLISH.search(said), said
    assert cardtext.short_text(sp, part, "en") == english


def test_tags_and_tree_symbols_in_each_language() -> None:
    """The tag list and the tree-symbol badge in each language; English keeps its keys."""
    catalog = game_by_id("base").catalog
    deer = catalog.species["Red Deer"]
    assert cardtext.tags_text(deer) == "cloven-hoofed animal, deer"
    assert cardtext.tags_text(deer, "fr") == "ongulé, cerf"
    assert cardtext.tags_text(deer, "de") == "Paarhufer, Hirsch"
    assert cardtext.tags_text(deer, "zh") == "偶蹄动物、鹿"
    assert cardtext.symbol_word("Horse Chestnut") == "Horse Chestnut"
    assert cardtext.symbol_word("Oak", "fr") == "Chêne"
    assert cardtext.symbol_word("Oak", "de") == "Eiche"
    assert cardtext.symbol_word("Oak", "zh") != "Oak"
    assert cardtext.symbol_word(None, "de") is None


def test_full_text_in_another_language_is_the_translated_phrase() -> None:
    """``Species.text`` is English prose: another language shows the translated short
    phrase, English the prose."""
    sp = game_by_id("base").catalog.species["Tawny Owl"]
    assert cardtext.full_text(sp, "bonus", "de") == cardtext.short_text(sp, "bonus", "de")
    assert cardtext.full_text(sp, "bonus") == (sp.text.get("bonus")
                                              or cardtext.short_text(sp, "bonus"))
