"""Card names as printed in each language's edition, and the readers' way back to a species.

Contract: the names live in one data file a person can correct, ``data/names.json``
(``docs/card-names.md`` gives every source). For every species of every data module (and
the cave card) it holds the name in English (``en``), German (``de``), French (``fr``) and
Simplified Chinese (``zh``), each with the sources that give it; a name only one source
gives is ``provisional``, one no source gives is the English name marked ``fallback``;
``also`` lists other names sources give, which readers accept too. The file is read once,
on first use; nothing here prints, writes or holds a catalog.

- :func:`printed_name` (``(species, lang) -> str``) and :func:`name_fact` (with the sources).
- :func:`species_named` (a name in any of the four languages -> the species a person may
  mean, as :meth:`Catalog.named <forest_shuffle.cards.model.Catalog.named>` does for English).
- :func:`fold_name`: names match by NFKC, case fold, without accents, spacing, hyphens or
  the kind of apostrophe (``"weisstanne"`` = ``"Weißtanne"``, ``"Hetre"`` = ``"Hêtre"``).
- :func:`name_languages` and :func:`document_language`: which language names are written in.
"""

from __future__ import annotations

import functools
import json
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any, Final

from forest_shuffle.cards.model import CardDataError, Catalog, Species, normalize_name

#: The languages of the names, English first (it breaks ties).
LANGS: Final[tuple[str, ...]] = ("en", "de", "fr", "zh")
#: The name of each language in its own words (for lists and pages).
LANG_NAMES: Mapping[str, str] = {"en": "English", "de": "Deutsch", "fr": "Français",
                                 "zh": "简体中文"}
#: The key of the cave card in the names file (every module with caves has one).
CAVE: Final = "Cave"


class UnknownLanguageError(ValueError):
    """A language code that is none of :data:`LANGS`; the message lists them."""


@dataclass(frozen=True, slots=True)
class NameFact:
    """One species' name in one language: the name, the sources that give it (keys of the
    file's ``sources``), ``provisional`` (one source), ``fallback`` (no source: the English
    name) and other names sources give (``also``)."""

    name: str
    lang: str
    sources: tuple[str, ...] = ()
    provisional: bool = False
    fallback: bool = False
    also: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class NameTable:
    """The whole names file: module -> key -> language -> :class:`NameFact`, the kind of
    each entry and the sources (key -> where)."""

    facts: Mapping[str, Mapping[str, Mapping[str, NameFact]]]
    kinds: Mapping[str, Mapping[str, str]]
    sources: Mapping[str, str]


def check_lang(lang: str) -> str:
    """``lang`` if it is one of :data:`LANGS` (case and spaces ignored); otherwise
    :class:`UnknownLanguageError` in one line."""
    got = lang.strip().lower() if isinstance(lang, str) else ""
    if got not in LANGS:
        shown = lang if isinstance(lang, str) else type(lang).__name__
        raise UnknownLanguageError(f"unknown language {shown[:20]!r} (known: {', '.join(LANGS)})")
    return got


def fold_name(name: str) -> str:
    """A name folded for matching: NFKC, case fold (``ß`` = ``ss``), accents dropped, and as
    :func:`~forest_shuffle.cards.model.normalize_name` spacing, hyphens and apostrophes."""
    return _fold_short(name) if len(name) <= _CACHED_NAME else _fold(name)


#: Names up to this length are folded once and remembered (a table repeats its names).
_CACHED_NAME = 80


@functools.lru_cache(maxsize=4096)
def _fold_short(name: str) -> str:
    return _fold(name)


def _fold(name: str) -> str:
    text = unicodedata.normalize("NFKC", name).casefold()
    bare = "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))
    return normalize_name(unicodedata.normalize("NFC", bare))


def _fact(raw: Any, lang: str, where: str, sources: Mapping[str, str]) -> NameFact:
    if not isinstance(raw, dict) or not isinstance(raw.get("name"), str) or not raw["name"]:
        raise CardDataError(f"names: {where}, {lang}: needs a non-empty name")
    name = raw["name"]
    if name != name.strip():
        raise CardDataError(f"names: {where}, {lang}: name {name!r} is not trimmed")
    fallback = raw.get("fallback", False) is True
    got = raw.get("sources", [])
    if not isinstance(got, list) or not set(got) <= set(sources):
        raise CardDataError(f"names: {where}, {lang}: sources must be keys of 'sources'")
    if not got and not fallback:
        raise CardDataError(f"names: {where}, {lang}: a name without sources is a fallback")
    also_raw = raw.get("also", [])
    if not isinstance(also_raw, list) or not all(
            isinstance(a, dict) and isinstance(a.get("name"), str) and a["name"]
            for a in also_raw):
        raise CardDataError(f"names: {where}, {lang}: also must list objects with a name")
    return NameFact(name, lang, tuple(got), raw.get("provisional", False) is True, fallback,
                    tuple(a["name"] for a in also_raw))


def build_table(doc: Any) -> NameTable:
    """Validate a parsed names document; :class:`CardDataError` names the entry at fault."""
    if not isinstance(doc, dict) or not isinstance(doc.get("modules"), dict):
        raise CardDataError("names: expected an object with 'modules'")
    sources = doc.get("sources", {})
    if not isinstance(sources, dict):
        raise CardDataError("names: 'sources' must be an object")
    facts: dict[str, dict[str, dict[str, NameFact]]] = {}
    kinds: dict[str, dict[str, str]] = {}
    for module, entries in doc["modules"].items():
        if not isinstance(entries, dict):
            raise CardDataError(f"names: module {module!r} must be an object")
        for key, entry in entries.items():
            where = f"{module} {key!r}"
            if not isinstance(entry, dict):
                raise CardDataError(f"names: {where} must be an object")
            facts.setdefault(module, {})[key] = {
                lang: _fact(entry.get(lang), lang, where, sources) for lang in LANGS}
            kinds.setdefault(module, {})[key] = str(entry.get("kind", ""))
    return NameTable(facts, kinds, {str(k): str(v) for k, v in sources.items()})


@functools.cache
def name_table() -> NameTable:
    """The package's names file, read and checked once."""
    raw = (resources.files("forest_shuffle.cards") / "data" / "names.json").read_text(
        encoding="utf-8")
    return build_table(json.loads(raw))


def name_fact(species: Species, lang: str) -> NameFact:
    """The name of ``species`` in ``lang`` with its sources; a species the file lacks (one
    built by hand) gets its English printed name as a fallback."""
    code = check_lang(lang)
    entry = name_table().facts.get(species.module, {}).get(species.name)
    if entry is None:
        return NameFact(species.printed, code, fallback=code != "en")
    return entry[code]


def printed_name(species: Species, lang: str) -> str:
    """The name printed on ``species``' cards in the ``lang`` edition (English where no
    source gives one; ``en`` is always :attr:`Species.printed`)."""
    if check_lang(lang) == "en":
        return species.printed
    return name_fact(species, lang).name


def cave_name(lang: str, module: str = "base") -> str:
    """The cave card's name in ``lang`` ("Cave" where none is known)."""
    entry = name_table().facts.get(module, {}).get(CAVE)
    return entry[check_lang(lang)].name if entry is not None else CAVE


_UMLAUTS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue"})


def _keys(name: str) -> tuple[str, ...]:
    """The folded forms a name is found by: without accents, and with German umlauts
    written out (``"Eichhoernchen"`` finds ``"Eichhörnchen"``)."""
    plain = fold_name(name)
    spelt = fold_name(name.translate(_UMLAUTS))
    return (plain,) if spelt == plain else (plain, spelt)


@dataclass(frozen=True, slots=True)
class _Index:
    """Folded name -> the species it names (catalog order) and the languages it is in."""

    species: Mapping[str, tuple[Species, ...]]
    langs: Mapping[str, frozenset[str]]


#: id(catalog) -> (the catalog, its index): the catalog is kept, so its id is not reused.
_INDEXES: dict[int, tuple[Catalog, _Index]] = {}


def _index(catalog: Catalog) -> _Index:
    """The reverse index of one catalog, built once (catalogs are built once per module
    set): every language's name, then the ``also`` names that name no other species. Two
    threads building it at once build the same index; either is kept."""
    got = _INDEXES.get(id(catalog))
    if got is not None and got[0] is catalog:
        return got[1]
    table = name_table()
    found: dict[str, list[Species]] = {}
    langs: dict[str, set[str]] = {}
    for sp in catalog.species.values():
        entry = table.facts.get(sp.module, {}).get(sp.name, {})
        for lang in LANGS:
            fact = entry.get(lang)
            name = sp.printed if lang == "en" or fact is None else fact.name
            for folded in _keys(name):
                if sp not in found.setdefault(folded, []):
                    found[folded].append(sp)
                if fact is None or not fact.fallback or lang == "en":
                    langs.setdefault(folded, set()).add(lang)
    extra: dict[str, list[Species]] = {}
    for sp in catalog.species.values():
        for lang, fact in table.facts.get(sp.module, {}).get(sp.name, {}).items():
            for other in fact.also:
                for folded in _keys(other):
                    if folded in found:
                        continue  # a name of some species: never an alias
                    if sp not in extra.setdefault(folded, []):
                        extra[folded].append(sp)
                    langs.setdefault(folded, set()).add(lang)
    for folded, sps in extra.items():
        if len({sp.printed for sp in sps}) == 1:  # an alias two species claim reads as none
            found[folded] = sps
        else:
            langs.pop(folded, None)
    order = {sp.name: i for i, sp in enumerate(catalog.species.values())}
    index = _Index({k: tuple(sorted(v, key=lambda s: order[s.name])) for k, v in found.items()},
                   {k: frozenset(v) for k, v in langs.items()})
    _INDEXES[id(catalog)] = (catalog, index)
    return index


def species_named(catalog: Catalog, name: str) -> tuple[Species, ...]:
    """The species of ``catalog`` a person may mean by ``name``, written in any of the four
    languages: :meth:`Catalog.named` first (English printed names and the project's keys),
    else every species printed with that name in another language (several only where
    they share it, as the Squeakers do in every language), in catalog order; else none."""
    got = catalog.named(name)
    if got:
        return got
    return _index(catalog).species.get(fold_name(name), ())


def name_languages(catalog: Catalog, name: str) -> frozenset[str]:
    """The languages in which ``name`` is a name of the species it names (empty for a key
    or an unknown name). ``"Wolf"`` is English and German; a fallback is English only."""
    return _index(catalog).langs.get(fold_name(name), frozenset())


def document_language(catalog: Catalog, names: Iterable[str]) -> str:
    """The language a document's names are written in: the one most of them are in (each
    name counts for every language it is in), English on a tie or with no names."""
    votes = dict.fromkeys(LANGS, 0)
    for name in names:
        for lang in name_languages(catalog, name):
            votes[lang] += 1
    return max(LANGS, key=lambda lang: (votes[lang], -LANGS.index(lang)))
