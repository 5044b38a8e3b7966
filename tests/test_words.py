"""One copy of English (``cards/words.py``): articles by sound, plurals from the species
data, and the same article before the same word in a score reason and in the card text."""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

import pytest

import forest_shuffle
from forest_shuffle.cards.forest import SAPLING, UNIVERSAL_MOOR, Dweller, Forest, Host
from forest_shuffle.cards.model import Catalog, Species
from forest_shuffle.cards.words import (
    ARTICLE_EXCEPTIONS,
    IRREGULAR_PLURALS,
    a_or_an,
    article,
    count,
    plural,
)
from forest_shuffle.engine.game import GameDef, game_by_id, game_ids
from forest_shuffle.text import cardtext

#: The sources of the package under test.
SRC = Path(forest_shuffle.__file__).resolve().parent

#: An indefinite article and the word after it.
_ARTICLE = re.compile(r"\b([Aa]n?) ([A-Za-z][\w'-]*)")


# -- the article -------------------------------------------------------------------------

@pytest.mark.parametrize(("noun", "expected"), [
    ("European Larch", "a European Larch"),   # "you": a consonant sound
    ("Eurasian Jay", "a Eurasian Jay"),
    ("Alpine Marmot", "an Alpine Marmot"),
    ("Oak", "an Oak"),
    ("Edelweiss", "an Edelweiss"),
    ("Heather", "a Heather"),                 # a sounded h
    ("hour", "an hour"),                      # a silent h
    ("honest answer", "an honest answer"),
    ("heir", "an heir"),
    ("universal moor", "a universal moor"),
    ("unicorn", "a unicorn"),
    ("uninvited guest", "an uninvited guest"),  # an exception to the exception "uni"
    ("umbrella", "an umbrella"),
    ("user", "a user"),
    ("usher", "an usher"),
    ("one-eyed Wolf", "a one-eyed Wolf"),
    ("onerous task", "an onerous task"),
    ("ewe", "a ewe"),
    ("insect", "an insect"),
    ("amphibian", "an amphibian"),
    ("option", "an option"),
    ("bird", "a bird"),
    ("2-player game", "a 2-player game"),       # numbers as they are said
    ("8-player game", "an 8-player game"),
    ("11", "an 11"),
    ("18-card hand", "an 18-card hand"),
    ("80", "an 80"),
    ("110", "a 110"),
    ("11000", "an 11000"),
    ("1", "a 1"),
])
def test_article_by_sound(noun: str, expected: str) -> None:
    assert article(noun) == expected


@pytest.mark.parametrize("start", sorted(ARTICLE_EXCEPTIONS))
def test_every_exception_of_the_table_is_followed(start: str) -> None:
    """Each beginning of the table decides the article of a word that starts with it, in
    any case, whatever its first letter alone would say."""
    wanted = ARTICLE_EXCEPTIONS[start]
    assert wanted in ("a", "an")
    for word in (start, start + "xyz", start.capitalize() + "t Thing"):
        assert a_or_an(word) == wanted, word


# -- plurals -----------------------------------------------------------------------------

@pytest.mark.parametrize(("noun", "n", "expected"), [
    ("bird", 2, "birds"),
    ("bird", 1, "bird"),
    ("butterfly", 3, "butterflies"),
    ("Beech", 2, "Beeches"),
    ("cloven-hoofed animal", 2, "cloven-hoofed animals"),
    ("deer", 4, "deer"),
    ("mouse", 2, "mice"),
    ("Field Mouse", 2, "Field Mice"),
    ("different bird species", 3, "different bird species"),
    ("Wolf", 2, "Wolves"),
    ("moor", 0, "moors"),
    ("Jay", 2, "Jays"),
])
def test_plural(noun: str, n: int, expected: str) -> None:
    assert plural(noun, n) == expected


def test_every_irregular_plural_is_used() -> None:
    for word, many in IRREGULAR_PLURALS.items():
        assert plural(word) == many
        assert plural("Big " + word.capitalize()) == "Big " + many.capitalize()


def test_count() -> None:
    assert count(1) == "1 card"
    assert count(3) == "3 cards"
    assert count(2, "other card") == "2 other cards"
    assert count(1, "species") == "1 species"


@pytest.mark.parametrize("gid", game_ids())
def test_species_plurals_come_from_the_data(gid: str) -> None:
    """A species whose data write ``plural`` is counted with it (``2 Roe Deer``, ``3 Wood
    Mice``), in every registered game."""
    species = game_by_id(gid).catalog.species.values()
    given = [sp for sp in species if sp.plural]
    assert given
    for sp in given:
        assert plural(sp.name) == sp.plural
        assert count(2, sp.name) == f"2 {sp.plural}"
        assert count(1, sp.name) == f"1 {sp.name}"


# -- the same article in reasons and card texts -------------------------------------------

def _card_texts(catalog: Catalog) -> list[str]:
    out: list[str] = []
    for sp in catalog.species.values():
        for part in cardtext.PARTS:
            out += [cardtext.short_text(sp, part), cardtext.full_text(sp, part)]
    return out


def _halves(catalog: Catalog, sp: Species) -> dict[str, Dweller]:
    """One dweller of ``sp`` per side it is printed on."""
    out: dict[str, Dweller] = {}
    for card in catalog.cards:
        if card is None:
            continue
        for side, half in card.halves.items():
            if half.species is sp:
                out.setdefault(side, Dweller.of_card(card, side))
    return out


def _reasons(game: GameDef) -> list[str]:
    """The reasons of every card of forests where each dweller species sits, on each side
    it is printed on, at one host of every host species (and a sapling, a universal moor in
    Dartmoor)."""
    cat = game.catalog
    hosts: dict[str, Host] = {}
    for card in cat.cards:
        if card is not None and card.is_host and card.species is not None:
            hosts.setdefault(card.species.name, Host(card.species, card.id, kind=card.kind,
                                                     symbol=card.symbol))
    spare = [Host(None, kind=SAPLING)]
    if any(h.kind == "moor" for h in hosts.values()):
        spare.append(Host(None, kind=UNIVERSAL_MOOR))
    out: list[str] = []
    for sp in cat.species.values():
        for side, dweller in _halves(cat, sp).items():
            forest = Forest()
            for h in [*hosts.values(), *spare]:
                host = Host(h.species, h.card, kind=h.kind, symbol=h.symbol)
                host.slots[side].append(dweller)
                forest.add_host(host)
            forest.reindex()
            for score in game.score_table([forest, Forest()]):
                out += [c.why for c in score.cards]
    return out


def _articles(texts: list[str]) -> dict[str, set[str]]:
    """The next word -> the articles written before it."""
    seen: dict[str, set[str]] = defaultdict(set)
    for text in texts:
        for art, word in _ARTICLE.findall(text):
            seen[word.lower()].add(art.lower())
    return seen


@pytest.mark.parametrize("gid", game_ids())
def test_reasons_and_card_texts_agree_on_articles(gid: str) -> None:
    """Every word that a score reason or a card text of the game puts after ``a``/``an``
    always has the same one ("a European Larch" in both), and that one is its sound's."""
    game = game_by_id(gid)
    reasons = _reasons(game)
    texts = _card_texts(game.catalog)
    assert any(_ARTICLE.search(r) for r in reasons)
    said = _articles(reasons)
    written = _articles(texts)
    both = set(said) & set(written)
    assert both  # the two sources share words, so they can disagree
    for word in sorted(set(said) | set(written)):
        arts = said.get(word, set()) | written.get(word, set())
        assert len(arts) == 1, f"{word!r}: reasons say {sorted(said.get(word, ()))}, " \
                               f"card texts {sorted(written.get(word, ()))}"
        assert arts == {a_or_an(word)}, word


def test_the_european_larch_reason() -> None:
    """The case the issue names: a dweller scored by a European Larch's side."""
    game = game_by_id("base+alpine")
    reasons = _reasons(game)
    assert any("a European Larch" in r for r in reasons)
    assert not any("an European" in r for r in reasons)


# -- no second copy ----------------------------------------------------------------------

def _article_before_placeholder(path: Path, root: Path = SRC) -> list[str]:
    """Places in ``path`` that write ``a``/``an`` by hand before a value (``f"a {x}"``,
    ``"a " + x``); a rate such as ``f"{n} a {unit}"`` (a value, `` a ``, a value) is no
    article."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            left = node.left
            if (isinstance(left, ast.Constant) and isinstance(left.value, str)
                    and re.search(r"(^|\W)[Aa]n? $", left.value)):
                found.append(f"{path.relative_to(root)}:{node.lineno}: {left.value!r}")
            continue
        if not isinstance(node, ast.JoinedStr):
            continue
        parts = node.values
        for i, part in enumerate(parts[:-1]):
            if not (isinstance(part, ast.Constant) and isinstance(part.value, str)
                    and isinstance(parts[i + 1], ast.FormattedValue)):
                continue
            if not re.search(r"(^|\W)[Aa]n? $", part.value):
                continue
            rate = part.value == " a " and i > 0 and isinstance(parts[i - 1], ast.FormattedValue)
            if not rate:
                found.append(f"{path.relative_to(root)}:{node.lineno}: {part.value!r}")
    return found


def test_no_article_is_written_by_hand() -> None:
    """Outside ``cards/words.py`` no f-string puts ``a`` or ``an`` before a value: the
    article comes from :func:`article`."""
    found = []
    for path in sorted(SRC.rglob("*.py")):
        if path != SRC / "cards" / "words.py":
            found += _article_before_placeholder(path)
    assert not found, found


def test_a_hand_written_article_is_seen(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text('x = "y"\ny = f"is not a {x}"\nz = f"{x} a {x}"\nw = f"an {x}!"\n'
                   'v = "at a " + x\nu = x + "a "\n')
    found = sorted(f.split(": ", 1)[1] for f in _article_before_placeholder(bad, tmp_path))
    assert found == ["'an '", "'at a '", "'is not a '"]


def _plural_by_hand(path: Path, root: Path = SRC) -> list[str]:
    """Places in ``path`` that make a plural by hand: ``word + "s"`` or ``"s" if n > 1 else
    ""`` (the plural comes from :func:`plural` or :func:`count`)."""
    ends = ("s", "es", "ies")
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        hit = False
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            hit = isinstance(node.right, ast.Constant) and node.right.value in ends
        elif isinstance(node, ast.IfExp):
            pair = {getattr(node.body, "value", None), getattr(node.orelse, "value", None)}
            hit = "" in pair and bool(pair & set(ends))
        if hit:
            found.append(f"{path.relative_to(root)}:{getattr(node, 'lineno', 0)}")
    return found


def test_no_plural_is_made_by_hand() -> None:
    found = []
    for path in sorted(SRC.rglob("*.py")):
        if path != SRC / "cards" / "words.py":
            found += _plural_by_hand(path)
    assert not found, found


def test_a_hand_made_plural_is_seen(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text('n = 2\nw = "bird"\na = w + "s"\nb = f"{n} bird{\'s\' if n > 1 else \'\'}"\n'
                   'c = "es" if n else ""\nd = w + "x"\ne = "" if n else "no"\n')
    assert sorted(f.split(":")[1] for f in _plural_by_hand(bad, tmp_path)) == ["3", "4", "5"]
