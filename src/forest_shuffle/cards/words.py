"""English for people: the indefinite article and plurals, the one copy.

Contract: :func:`a_or_an` chooses ``a`` or ``an`` by how a noun is said (its first letter,
unless :data:`ARTICLE_EXCEPTIONS` says its first sound differs); :func:`article` puts it
before the noun (``an Oak``, ``a European Larch``, ``an hour``). :func:`plural` gives a noun
phrase for several: the plural the species data writes (``plural`` in ``species.json``,
learned by :func:`learn_plural` as catalogs load), else its last word by
:data:`IRREGULAR_PLURALS`, else the regular endings; :func:`count` writes ``1 card``,
``3 cards``. The scorers, the text layer and the faces make articles and plurals only
here, so a translation replaces this one module. No I/O; its one state is the table of
the data's plurals that :func:`learn_plural` fills.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

#: How a word begins in speech where its first letter misleads: a lower-case beginning of a
#: word -> the article it takes. The longest beginning that matches wins, so a longer entry
#: is an exception to a shorter one (``uni`` -> a unicorn, ``unin`` -> an uninvited guest).
ARTICLE_EXCEPTIONS: Mapping[str, str] = MappingProxyType({
    # a vowel letter said as a consonant ("you", "won", "wun")
    "eu": "a", "ewe": "a", "one": "a", "oner": "an", "once": "a",
    "uni": "a", "unin": "an", "unim": "an", "unid": "an",
    "use": "a", "usu": "a", "uten": "a", "uti": "a", "ura": "a", "uri": "a", "uro": "a",
    "ubi": "a", "uku": "a", "uvu": "a",
    # a silent h: the vowel after it is the first sound
    "hour": "an", "honest": "an", "honor": "an", "honour": "an", "heir": "an",
})

#: Plurals that the endings rule gets wrong, by the last word in lower case (species whose
#: data write their plural need no entry here).
IRREGULAR_PLURALS: Mapping[str, str] = MappingProxyType({
    "mouse": "mice", "dormouse": "dormice", "deer": "deer", "sheep": "sheep",
    "species": "species", "chamois": "chamois", "edelweiss": "edelweiss", "wolf": "wolves",
    "boar": "boar", "fish": "fish",
})

#: Species name -> its plural as the species data writes it (filled as catalogs load; a
#: name is spelled the same in every catalog that has it).
_GIVEN: dict[str, str] = {}


def a_or_an(noun: str) -> str:
    """``"an"`` or ``"a"``: the indefinite article ``noun`` takes by its first sound (a
    number by how it is said: ``an 8``, ``an 11``, ``a 2-player game``)."""
    word = noun.strip().lower()
    best = ""
    for start in ARTICLE_EXCEPTIONS:
        if word.startswith(start) and len(start) > len(best):
            best = start
    if best:
        return ARTICLE_EXCEPTIONS[best]
    digits = word[:len(word) - len(word.lstrip("0123456789"))]
    if digits:  # said as a number: "an 8", "an 11", "an 18-card hand", "a 1"
        eleven = digits[:2] in ("11", "18") and len(digits) % 3 == 2
        return "an" if digits[0] == "8" or eleven else "a"
    return "an" if word[:1] in ("a", "e", "i", "o", "u") else "a"


def article(noun: str) -> str:
    """``noun`` after its indefinite article: ``an Oak``, ``a European Bison``."""
    return f"{a_or_an(noun)} {noun}"


def learn_plural(name: str, plural_form: str) -> None:
    """Remember the plural the data writes for the species ``name`` (``""``: regular).
    Called by :func:`forest_shuffle.cards.model.load_catalog`."""
    if plural_form:
        _GIVEN[name] = plural_form


def plural(noun: str, n: int = 2) -> str:
    """``noun`` for ``n`` things (itself when ``n == 1``): the data's plural of a species
    name, else the last word's plural (``Beech`` -> ``Beeches``, ``cloven-hoofed animal`` ->
    ``cloven-hoofed animals``, ``Wood Mouse`` -> ``Wood Mice``, ``bird species`` stays)."""
    if n == 1:
        return noun
    given = _GIVEN.get(noun)
    if given:
        return given
    head, sep, last = noun.rpartition(" ")
    return head + sep + _plural_word(last)


def _plural_word(word: str) -> str:
    low = word.lower()
    irregular = IRREGULAR_PLURALS.get(low)
    if irregular is not None:
        return _same_case(irregular, word)
    if low.endswith("y") and low[-2:-1] not in ("a", "e", "i", "o", "u", ""):
        return word[:-1] + "ies"
    if low.endswith(("s", "sh", "ch", "x", "z")):
        return word + "es"
    return word + "s"


def _same_case(plural_form: str, like: str) -> str:
    """``plural_form`` capitalised as the word it replaces (``Mouse`` -> ``Mice``)."""
    return plural_form[:1].upper() + plural_form[1:] if like[:1].isupper() else plural_form


def count(n: int, noun: str = "card") -> str:
    """``n`` and the noun for that many: ``1 card``, ``3 cards``, ``2 Roe Deer``."""
    return f"{n} {plural(noun, n)}"
