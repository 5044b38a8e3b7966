"""Forest JSON (``shared/spec/forest-json.md``): read a table of forests, write its score.

Contract: :func:`parse_forest_json` / :func:`load_forest_json` turn a document into player
names and :class:`~forest_shuffle.cards.forest.Forest` values (:func:`parse_table` /
:func:`load_table` / :func:`read_table` give the game too), or raise
:class:`ForestJsonError` with one line naming the player, the tree (counted from 1) and the
slot of the first problem. Nothing is returned from a refused document. Version 2: the
top-level ``game`` names the game (none: the base game); its catalog alone says which
species, cards, tree symbols and hosts exist, how many copies the deck holds and which cards
may share a slot (:meth:`~forest_shuffle.cards.forest.Host.accepts`, with a species that counts as
a stacking one allowed to join its stack). ``"dartmoor"`` is read by its own reader
(trees and shrubs, moors, numbered caves; species names only, no card ids: its deck is
provisional) and scored with its six lines; one player is the solo game.
Besides the refusals of the spec, an unknown key that holds cards (a list or an object) or
looks like a misspelt key is refused (other unknown keys are annotations), a table holding
more cards than the deck (caves included), and text that is not plain JSON
(``docs/forest-json.md``, the project notes). :func:`result_to_json` gives the exact output
shape of ``score --json``; :func:`render_result` prints the same for a person.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

from rich.console import Console
from rich.table import Table
from rich.text import Text

from forest_shuffle.cards.forest import (
    MOOR,
    NOT_ONTO_TAG,
    SAPLING,
    SHRUB,
    TREE,
    UNIVERSAL_MOOR,
    Dweller,
    Forest,
    Host,
)
from forest_shuffle.cards.model import SIDES, Card, Catalog, Species, normalize_name
from forest_shuffle.cards.names import (
    document_language,
    fold_name,
    printed_name,
    species_named,
)
from forest_shuffle.cards.words import article, plural
from forest_shuffle.engine.check import JsonInputError, load_json, printable
from forest_shuffle.engine.game import GameDef, UnknownGameError
from forest_shuffle.games import BASE_ID, game_ids, make_game
from forest_shuffle.games.dartmoor import dartmoor_game
from forest_shuffle.scoring.core import LINES, CardPoints, ForestScore, winners

__all__ = [
    "ForestJsonError", "ForestTable", "parse_forest_json", "load_forest_json",
    "forests_from_document", "read_table", "parse_table", "load_table", "game_of_document",
    "result_to_json", "names_in", "document_names_language",
    "render_result", "MAX_PLAYERS", "DARTMOOR", "PROMOS", "species_symbols",
    "provisional_note", "explained", "table_to_document",
]

MAX_PLAYERS = 5
#: The id of the Dartmoor game (read by :class:`_DartmoorReader`).
DARTMOOR = "dartmoor"
#: The module of the promo cards (ids 249-251), refused until it is supported.
PROMOS = "promos"
#: The largest document read (a full table written out card by card is far smaller).
MAX_DOCUMENT_CHARS = 2_000_000
_DOCUMENT_KEYS = frozenset({"players", "game"})
_PLAYER_KEYS = frozenset({"name", "cave", "trees"})
_TREE_KEYS = frozenset({"tree", "card", *SIDES})
_DWELLER_KEYS = frozenset({"species", "symbol", "card"})
#: Why some keys of the spec are refused in the games read here.
_KEY_HINTS: Mapping[str, str] = {"moors": "moors are in the Dartmoor game only"}
_SAPLING = normalize_name("sapling")
#: A player object without ``cave``: no cards under a base cave, no named cave chosen.
_NO_CAVE: Any = object()
#: A tree may also be written with the word "tree" after its name (the appendix says
#: "Linden Tree").
_TREE_WORD = normalize_name("tree")
#: The scoring rules whose points depend on tree symbols: the dweller's own symbol, or the
#: symbols listed in the rule's ``symbols``.
_OWN_SYMBOL_RULE = "per_own_tree_symbol"
#: (Exploration's Elk counts saplings and the cards showing its ``symbols``.)
_SYMBOLS_RULES = frozenset({"per_tree_symbols", "per_sapling_and_tree_symbols"})
#: Rules that count different species (of a tag: the rule's own, or the one given).
_DISTINCT_RULES: Mapping[str, str] = {
    "butterfly_sets": "butterfly", "bat_variety": "bat", "per_distinct_species": "",
    "distinct_species_table": "", "variety_sets": "",
}
#: Rules by which a card counts the cards of its own species.
_OWN_SPECIES_RULES = frozenset({"set_table", "majority", "threshold_own_species",
                                "paired_in_slot"})
_NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight",
                 "nine", "ten")


class ForestJsonError(ValueError):
    """A refused forest-json document; the message is one line naming where."""


@dataclass(frozen=True)
class ForestTable:
    """A read document: its game, the players' names and their forests (seat order), and
    the language its card names are written in (``docs/card-names.md``: ``en``, ``de``,
    ``fr`` or ``zh``; :func:`document_names_language`)."""

    game: GameDef
    names: list[str]
    forests: list[Forest]
    lang: str = "en"


@dataclass
class _Used:
    """What the whole table has taken from the one deck so far."""

    cards: dict[int, str]  # card id -> where it was first used
    species: dict[str, int]  # species -> halves / host cards used (hidden halves included)
    pairs: dict[tuple[str, str], int]  # (species, symbol) -> halves / host cards used


@dataclass(frozen=True)
class _Deck:
    """What one game's deck holds, for the checks: (species, symbol) -> copies, species ->
    the symbols its copies show, the cards that can be on the table (all but winter)."""

    catalog: Catalog
    pairs: Mapping[tuple[str, str], int]
    symbols: Mapping[str, tuple[str, ...]]
    table_cards: int
    host_kinds: tuple[str, ...]  # the kinds of host species of the game, trees first


_DECKS: dict[str, _Deck] = {}


def _deck(game: GameDef) -> _Deck:
    deck = _DECKS.get(game.id)
    if deck is None or deck.catalog is not game.catalog:
        catalog = game.catalog
        pairs: dict[tuple[str, str], int] = {}
        symbols: dict[str, set[str]] = {}
        for c in catalog.cards:
            if c is None:
                continue
            shown = ([(c.species, c.symbol)] if c.species is not None and c.symbol
                     else [(h.species, h.symbol) for h in c.halves.values()])
            for sp, sym in shown:
                pairs[(sp.name, sym)] = pairs.get((sp.name, sym), 0) + 1
                symbols.setdefault(sp.name, set()).add(sym)
        kinds = sorted({sp.kind for sp in catalog.species.values() if sp.is_host},
                       key=lambda k: (k != TREE, k))
        deck = _DECKS[game.id] = _Deck(
            catalog, pairs, {k: tuple(sorted(v)) for k, v in symbols.items()},
            len(game.deck_ids), tuple(kinds))
    return deck


def _q(value: Any, limit: int = 40) -> str:
    """A user value quoted on one short line (cut to ``limit`` characters, unprintable
    characters escaped)."""
    if isinstance(value, str):
        text = printable(json.dumps(value[:limit], ensure_ascii=False))
        return text[:-1] + '..."' if len(value) > limit else text
    try:
        text = printable(json.dumps(value, ensure_ascii=False))
    except (TypeError, ValueError, RecursionError):  # not JSON, or an int of 4,300+ digits
        return "a huge number" if isinstance(value, int) else type(value).__name__
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _number(n: int) -> str:
    return _NUMBER_WORDS[n] if 0 <= n < len(_NUMBER_WORDS) else str(n)


def _and(words: Sequence[str]) -> str:
    return " and ".join(words) if len(words) < 3 else ", ".join(words[:-1]) + " and " + words[-1]


def _module_words(module: str) -> str:
    return "base game" if module == BASE_ID else f"{module} expansion"


def _or(words: Sequence[str]) -> str:
    return " or ".join(words) if len(words) < 3 else ", ".join(words[:-1]) + " or " + words[-1]


def _other_game_note(name: str | None = None, card: int | None = None) -> str:
    """`` (it is in the alpine expansion)`` when another registered game has the species
    or card; ``""`` otherwise."""
    for gid in reversed(game_ids()):  # the largest game last registered
        if gid.split("+")[0] != BASE_ID:  # another game (Dartmoor), not an expansion
            continue
        catalog = make_game(gid).catalog
        module = ""
        if name is not None:
            found = species_named(catalog, name)
            module = found[0].module if found else ""
        elif card is not None and 0 < card < len(catalog.cards):
            c = catalog.cards[card]
            module = c.module if c is not None else ""
        if module:
            return f" (it is in the {module} expansion)" if module != BASE_ID else ""
    return ""


@dataclass(frozen=True)
class _Waiting:
    """A dweller entry whose species waits for the whole table (several species of the
    game share its printed name, and its slot and symbol leave more than one)."""

    dweller: Dweller  # the placeholder placed (the first of ``options``)
    options: tuple[Species, ...]
    symbol: str | None
    where: str


class _Reader:
    """Reads one document of one game, checking as it goes; the first problem raises."""

    def __init__(self, game: GameDef, lang: str = "en") -> None:
        self.game = game
        self.lang = lang  # the language of the document's names: the one messages use
        self.deck = _deck(game)
        self.catalog = game.catalog
        self.table_cards = self.deck.table_cards
        self.used = _Used({}, {}, {})
        self.on_table = 0  # cards in the forests and caves read so far
        self.waiting: list[_Waiting] = []  # entries whose printed name several species share
        self.resolved: set[int] = set()  # the forests whose symbols are resolved (by id)
        self.cave_owner: dict[int, str] = {}  # named cave number -> who has it

    def take_place(self, where: str) -> None:
        """One more physical card on the table (a host, a sapling or a dweller)."""
        self.on_table += 1
        if self.on_table > self.table_cards:
            raise ForestJsonError(f"{where}: more cards on the table than the game has "
                                  f"({self.table_cards} besides the winter cards)")

    # -- names -------------------------------------------------------------------------

    def tree_symbol(self, raw: Any, where: str) -> str:
        """A tree symbol the game's cards show: a tree species' name, or a symbol of no
        tree species (Exploration's Golden Palm, Bamboo, European Alder), matched like
        species names; a tree that shows another species' symbol (the Palm Tree shows
        the Golden Palm) is refused as a symbol, naming the one it shows."""
        if not isinstance(raw, str):
            raise ForestJsonError(f"{where}: a symbol must be a tree species name, not {_q(raw)}")
        folded = fold_name(raw)
        for symbol in self.catalog.tree_symbols:
            if symbol not in self.catalog.species and fold_name(symbol) == folded:
                return symbol
        sp = self.host_species(raw)
        if sp is not None and sp.is_tree and sp.tree_symbol != sp.name:
            raise ForestJsonError(f"{where}: {self.say(sp)} is a tree, not a symbol (it shows "
                                  f"the {self.sym(sp.tree_symbol)} symbol)")
        if sp is None or sp.name not in self.catalog.tree_symbols:
            raise ForestJsonError(f"{where}: unknown tree symbol {_q(raw)}")
        return sp.name

    def host_species(self, name: str) -> Species | None:
        """A species by its printed name (or its key); a tree also by its name with "tree"
        after it. (No two hosts of a game share a printed name.)"""
        folded = normalize_name(name)
        found = species_named(self.catalog, name)
        if not found and folded.endswith(_TREE_WORD):
            other = self.catalog.named(folded[:-len(_TREE_WORD)])
            found = tuple(sp for sp in other if sp.is_tree)
        return found[0] if found else None

    def candidates(self, raw: Any, where: str) -> tuple[Species, ...]:
        """Every species of the game a person may mean by ``raw``: those printed with that
        name (several only where species share a printed name), else the one whose key
        it is; refused: no name, or a name of no species here."""
        if not isinstance(raw, str):
            raise ForestJsonError(f"{where}: a species must be a name, not {_q(raw)}")
        found = species_named(self.catalog, raw)
        if not found:
            raise ForestJsonError(f"{where}: unknown species {_q(raw)}{self.not_here(raw)}")
        return found

    def species(self, raw: Any, where: str) -> Species:
        """The one species ``raw`` names (refused where species share that printed name:
        a reader that can tell them apart uses :meth:`candidates`)."""
        found = self.candidates(raw, where)
        if len(found) > 1:
            raise ForestJsonError(f"{where}: {_q(raw)} is printed on "
                                  f"{_and([self.called(sp) for sp in found])}: write which")
        return found[0]

    def called(self, sp: Species) -> str:
        """The printed name, and where species of the game share it, which one
        (``Squeaker (woodland_edge expansion)``)."""
        if len(self.catalog.named(sp.printed)) < 2:
            return self.say(sp)
        return f"{self.say(sp)} ({_module_words(sp.module)})"

    def say(self, sp: Species) -> str:
        """The species' name in the document's language (as printed in that edition)."""
        return sp.printed if self.lang == "en" else printed_name(sp, self.lang)

    def sym(self, symbol: str) -> str:
        """A tree symbol (a tree species' key) named in the document's language."""
        sp = self.catalog.species.get(symbol)
        return self.say(sp) if sp is not None else symbol

    def several(self, sp: Species) -> str:
        """Several cards of ``sp``: its English plural, or in another language its name
        and "cards" (no English plural of a German, French or Chinese name)."""
        return plural(sp.printed) if self.lang == "en" else f"{self.say(sp)} cards"

    def not_here(self, name: str | None = None, card: int | None = None) -> str:
        note = _other_game_note(name, card)
        return f"{note[:-1]}, not in the game {_q(self.game.id)})" if note else ""

    def hosts_word(self) -> str:
        return _or(list(self.deck.host_kinds))

    def card(self, raw: Any, where: str) -> Card:
        if isinstance(raw, bool) or not isinstance(raw, int):
            raise ForestJsonError(f"{where}: a card id must be an integer, not {_q(raw)}")
        try:
            card = self.catalog.card(raw)
        except KeyError:
            raise ForestJsonError(f"{where}: card {raw} is not in the deck"
                                  f"{self.not_here(card=raw)}") from None
        if card.is_winter:
            raise ForestJsonError(f"{where}: card {raw} is a winter card")
        return card

    # -- table-wide counts -------------------------------------------------------------

    def take_card(self, card: Card, where: str) -> None:
        first = self.used.cards.get(card.id)
        if first is not None:
            raise ForestJsonError(f"{where}: card {card.id} is used twice (also at {first})")
        self.used.cards[card.id] = where

    def take_species(self, sp: Species, where: str, note: str = "") -> None:
        n = self.used.species.get(sp.name, 0) + 1
        if n > sp.count:
            what = f"{sp.kind} cards" if sp.is_host else "cards"
            raise ForestJsonError(f"{where}: more {self.called(sp)} {what} than the deck has "
                                  f"({sp.count}){note}")
        self.used.species[sp.name] = n

    def take_pair(self, sp: Species, symbol: str, where: str) -> None:
        key = (sp.name, symbol)
        have = self.deck.pairs.get(key, 0)
        n = self.used.pairs.get(key, 0) + 1
        if n > have:
            if have == 0:
                raise ForestJsonError(f"{where}: no {self.called(sp)} in the deck shows the "
                                      f"{self.sym(symbol)} symbol")
            raise ForestJsonError(f"{where}: more {self.called(sp)} cards showing the "
                                  f"{self.sym(symbol)} symbol than the deck has ({have})")
        self.used.pairs[key] = n

    def has_room(self, sp: Species, symbol: str | None) -> bool:
        """Has the deck a copy of ``sp`` (showing ``symbol`` if given) not yet used?"""
        if self.used.species.get(sp.name, 0) >= sp.count:
            return False
        key = (sp.name, symbol or "")
        return symbol is None or self.used.pairs.get(key, 0) < self.deck.pairs.get(key, 0)

    # -- entries ----------------------------------------------------------------------

    def tree(self, raw: Any, where: str) -> Host:
        """A tree, shrub or sapling entry of ``trees`` (its slots are read apart)."""
        if not isinstance(raw, dict):
            raise ForestJsonError(f"{where}: a tree must be an object, not {_q(raw)}")
        _refuse_unknown_keys(raw, _TREE_KEYS | {"symbol"}, where)
        host = self.host(raw, where)
        if host.kind != SHRUB and isinstance(raw.get("symbol"), (list, dict)):
            # as in version 1: "symbol" is read only at a shrub, elsewhere an annotation
            _refuse_unknown_keys(raw, _TREE_KEYS, where)
        return host

    def host(self, raw: dict[str, Any], where: str) -> Host:
        if ("tree" in raw) == ("card" in raw):
            raise ForestJsonError(f"{where}: give exactly one of \"tree\" and \"card\"")
        if "card" in raw:
            card = self.card(raw["card"], where)
            if not card.is_host or card.species is None:
                hosts = article(self.hosts_word())
                raise ForestJsonError(f"{where}: card {card.id} is not {hosts} card")
            if card.kind == SHRUB and "symbol" in raw:
                sym = self.tree_symbol(raw["symbol"], where)
                if sym != card.symbol:
                    raise ForestJsonError(f"{where}: card {card.id} shows the "
                                          f"{self.sym(card.symbol)} symbol")
            self.take_card(card, where)
            self.take_species(card.species, where)
            if card.kind == SHRUB:
                self.take_pair(card.species, card.symbol, where)
            return Host(card.species, card.id, kind=card.kind, symbol=card.symbol)
        name = raw["tree"]
        if not isinstance(name, str):
            raise ForestJsonError(f"{where}: a tree must be named by a string, not {_q(name)}")
        if normalize_name(name) == _SAPLING:
            return Host(None, kind=SAPLING)
        sp = self.host_species(name)
        if sp is None:
            raise ForestJsonError(f"{where}: unknown tree {_q(name)}{self.not_here(name)}")
        if not sp.is_host:
            raise ForestJsonError(f"{where}: {self.say(sp)} is not {article(self.hosts_word())}")
        self.take_species(sp, where)
        if sp.kind != SHRUB:
            return Host(sp, kind=sp.kind, symbol=sp.tree_symbol if sp.is_tree else sp.name)
        symbol = ""
        if "symbol" in raw:
            symbol = self.tree_symbol(raw["symbol"], where)
            self.take_pair(sp, symbol, where)
        else:
            options = self.deck.symbols.get(sp.name, ())
            symbol = options[0] if len(options) == 1 else ""
        return Host(sp, kind=sp.kind, symbol=symbol)

    def dweller(self, raw: Any, side: str, where: str) -> Dweller:
        if isinstance(raw, str):
            return self.named(raw, None, side, where)
        if not isinstance(raw, dict):
            raise ForestJsonError(f"{where}: a card must be a species name or an object, "
                                  f"not {_q(raw)}")
        _refuse_unknown_keys(raw, _DWELLER_KEYS, where)
        if "card" not in raw:
            if "species" not in raw:
                raise ForestJsonError(f"{where}: a card object needs \"species\" or \"card\"")
            return self.named(raw["species"], raw.get("symbol"), side, where)
        card = self.card(raw["card"], where)
        if card.is_host:
            raise ForestJsonError(f"{where}: card {card.id} is {article(card.kind)} card, "
                                  "not a dweller")
        if side not in card.halves:
            raise ForestJsonError(f"{where}: card {card.id} ({card.label()}) has no {side} half")
        half = card.halves[side]
        if "species" in raw:
            named = self.candidates(raw["species"], where)
            if half.species not in named:
                same = half.species.printed == named[0].printed
                raise ForestJsonError(
                    f"{where}: card {card.id} shows "
                    f"{self.called(half.species) if same else self.say(half.species)} on its "
                    f"{side} half, not {self.called(named[0]) if same else self.say(named[0])}")
        if "symbol" in raw and self.tree_symbol(raw["symbol"], where) != half.symbol:
            raise ForestJsonError(f"{where}: card {card.id} shows the "
                                  f"{self.sym(half.symbol)} symbol on its {side} half")
        self.take_card(card, where)
        note = ", counting the hidden halves of cards given by id"
        for s, h in card.halves.items():
            self.take_species(h.species, where, "" if s == side else note)
            self.take_pair(h.species, h.symbol, where)
        return Dweller.of_card(card, side)

    def named(self, name: Any, symbol: Any, side: str, where: str) -> Dweller:
        """A dweller written by its name (and symbol). Where species of the game share the
        printed name, the slot and the symbol choose among them; if several remain, the
        entry waits for :meth:`finish` (it then takes a copy the deck still has, and is
        refused if the choice would change a score)."""
        found = self.candidates(name, where)
        fits = tuple(x for x in found if not x.is_host and side in x.positions)
        sp = fits[0] if fits else found[0]
        if sp.is_host:
            raise ForestJsonError(f"{where}: {self.say(sp)} is {article(sp.kind)}, not a card "
                                  "for a slot")
        if side not in sp.positions:
            places = " or ".join(sp.positions)
            raise ForestJsonError(f"{where}: {self.say(sp)} can't go {_SIDE_WORD[side]} "
                                  f"(it goes {places})")
        sym: str | None = None
        if symbol is not None:
            sym = self.tree_symbol(symbol, where)
            shown = tuple(x for x in fits if self.deck.pairs.get((x.name, sym), 0))
            if not shown:
                raise ForestJsonError(f"{where}: no {self.say(sp)} in the deck shows the "
                                      f"{self.sym(sym)} symbol")
            fits = shown
        if len(fits) > 1:
            d = Dweller(fits[0], sym)
            self.waiting.append(_Waiting(d, fits, sym, where))
            return d
        sp = fits[0]
        self.take_species(sp, where)
        if sym is not None:
            self.take_pair(sp, sym, where)
        return Dweller(sp, sym)

    def finish(self, forests: Sequence[Forest], whos: Sequence[str]) -> None:
        """After every forest is read: give each entry whose printed name several species
        share its species (entries with a symbol first, each the first species in catalog
        order with a copy left), refusing one whose choice would change a score; then fill
        in or check the symbols of the forests that held such an entry
        (:meth:`resolve_symbols`; the others' were done as each was read)."""
        if self.waiting:
            home: dict[int, tuple[Forest, Host, str, int]] = {}
            for forest in forests:
                for t in forest.trees:
                    for side in SIDES:
                        for k, d in enumerate(t.slots[side]):
                            home[id(d)] = (forest, t, side, k)
            for w in self.waiting:
                self.check_choice(w, home[id(w.dweller)][0])
            for w in sorted(self.waiting, key=lambda w: w.symbol is None):
                forest, t, side, k = home[id(w.dweller)]
                sp = next((x for x in w.options if self.has_room(x, w.symbol)), None)
                if sp is None:
                    self.refuse_copies(w)
                self.take_species(sp, w.where)
                if w.symbol is not None:
                    self.take_pair(sp, w.symbol, w.where)
                t.slots[side][k] = Dweller(sp, w.symbol, w.dweller.card)
            for forest in forests:
                forest.reindex()
        for forest, who in zip(forests, whos, strict=True):
            if id(forest) not in self.resolved:
                self.resolve_symbols(forest, who)

    def check_choice(self, w: _Waiting, forest: Forest) -> None:
        """Refuse an entry that could be any of several species when the choice could
        change a score: they score by different rules or by one that counts their own
        species, or the forest holds a card that counts a type or tree symbol some of their
        copies show and others not (a tree symbol only when the entry gives none), counts
        one of them by name, or counts different species of theirs."""
        first = w.options[0]
        why = ""
        if any(x.points != first.points for x in w.options):
            why = "they score by different rules"
        elif first.points.rule in _OWN_SPECIES_RULES:
            why = "each counts the cards of its own species"
        shown = frozenset().union(*(x.tags for x in w.options))
        differ = shown - frozenset.intersection(*(x.tags for x in w.options))
        keys = {x.name for x in w.options}
        symbols = {s for x in w.options for s in self.deck.symbols.get(x.name, ())}
        for t in forest.trees:
            for sp, d in [(t.species, None), *((d.species, d) for _side, d in t.dwellers())]:
                if why or sp is None:
                    continue
                p = sp.points
                counted: set[str] = set()
                if p.rule == _OWN_SYMBOL_RULE and d is not None and d.symbol is not None:
                    counted = {d.symbol}
                elif p.rule in _SYMBOLS_RULES:
                    counted = set(p.params["symbols"])
                if w.symbol is None and symbols & counted and not symbols <= counted:
                    first_sym = self.sym(sorted(symbols & counted)[0])
                    why = (f"{article(self.say(sp))} counts the {first_sym} "
                           "symbol, which only some of them show")
                    continue
                tags = {p.get("tag"), *(p.get("tags") or ())} - {None}
                if tags & differ:
                    why = (f"{article(self.say(sp))} counts the {sorted(tags & differ)[0]} "
                           "symbol, which only some of them show")
                elif p.get("species") in keys and not all(
                        p.get("species") in x.counts_as for x in w.options):
                    why = f"{article(self.say(sp))} counts only some of them"
                elif p.rule in _DISTINCT_RULES and (
                        tags | {_DISTINCT_RULES[p.rule]}) & shown:
                    why = f"{article(self.say(sp))} counts different species"
        if why:
            need = "card" if w.symbol is not None else "card or symbol"
            kinds = _and([_module_words(x.module) for x in w.options])
            raise ForestJsonError(
                f"{w.where}: give this {self.say(first)}'s {need}: the "
                f"{self.several(first)} of the {kinds} score differently here ({why})")

    def refuse_copies(self, w: _Waiting) -> NoReturn:
        """No species an entry could be has a copy left: one line with the deck's total."""
        name = self.say(w.options[0])
        if w.symbol is None:
            have = sum(x.count for x in w.options)
            raise ForestJsonError(f"{w.where}: more {name} cards than the deck has ({have})")
        have = sum(self.deck.pairs.get((x.name, w.symbol), 0) for x in w.options)
        raise ForestJsonError(f"{w.where}: more {name} cards showing the "
                              f"{self.sym(w.symbol)} symbol than the deck has ({have})")

    def forest(self, raw: Any, who: str) -> Forest:
        _refuse_unknown_keys(raw, _PLAYER_KEYS, who)
        number, cave = self.base_cave(raw.get("cave", _NO_CAVE), who)
        trees_raw = raw.get("trees", [])
        if not isinstance(trees_raw, list):
            raise ForestJsonError(f"{who}: \"trees\" must be a list")
        forest = Forest(cave=cave, cave_number=number)
        waiting = len(self.waiting)
        for j, traw in enumerate(trees_raw, start=1):
            where = f"{who}, tree {j}"
            site = self.tree(traw, where)
            self.take_place(where)
            read: list[tuple[str, list[Dweller]]] = []
            for side in SIDES:
                stack = traw.get(side, [])
                if not isinstance(stack, list):
                    stack = [stack]  # one card written without the list
                slot_where = f"{where}, {side}"
                cards: list[Dweller] = []
                for entry in stack:
                    cards.append(self.dweller(entry, side, slot_where))
                    self.take_place(slot_where)
                read.append((side, cards))
            self.place_all(site, read, where)
            forest.trees.append(site)
        free = self.table_cards - self.on_table
        if cave > free:
            raise ForestJsonError(f"{who}, cave: {cave} cards, but only {free} of the game's "
                                  f"{self.table_cards} cards (besides the winter cards) are "
                                  "not already on the table")
        self.on_table += cave
        if len(self.waiting) == waiting:  # else its symbols wait for its species (finish)
            self.resolve_symbols(forest, who)
            self.resolved.add(id(forest))
        return forest

    def base_cave(self, raw: Any, who: str) -> tuple[int, int]:
        """A player's cave: (named cave number or 0, cards). In a game with named caves
        (Exploration's) it is ``{"name": NAME, "cards": M}``, the name matched like a
        species name and each cave one player's; elsewhere a number of cards."""
        where = f"{who}, cave"
        caves = self.catalog.named_caves
        number = 0
        cards = raw
        if raw is _NO_CAVE:  # no cave written: no cards, no named cave chosen (0 points)
            return 0, 0
        if caves:
            names = _or([c.name for c in caves])
            if not isinstance(raw, dict):
                raise ForestJsonError(f"{where}: in a game with exploration the cave is "
                                      f"named: write {{\"name\": NAME, \"cards\": {_q(raw)}}} "
                                      f"(NAME: {names})")
            if "number" in raw:
                raise ForestJsonError(f"{where}: unknown key \"number\" (a numbered cave is "
                                      "Dartmoor's: an Exploration cave is named)")
            _refuse_unknown_keys(raw, frozenset({"name", "cards"}), where)
            name = raw.get("name")
            folded = fold_name(name) if isinstance(name, str) else None
            number = next((k for k, c in enumerate(caves, start=1)
                           if folded is not None and fold_name(c.name) == folded), 0)
            if not number:
                what = "no cave name" if name is None else f"unknown cave {_q(name)}"
                raise ForestJsonError(f"{where}: {what} (the caves: {names})")
            if number in self.cave_owner:
                raise ForestJsonError(f"{where}: the {caves[number - 1].name} is used twice "
                                      f"(also {self.cave_owner[number]})")
            self.cave_owner[number] = who
            cards = raw.get("cards", 0)
        elif isinstance(raw, dict) and "name" in raw:
            raise ForestJsonError(f"{where}: a named cave is only in a game with exploration "
                                  f"(this game is {_q(self.game.id)}): write the number of "
                                  "cards")
        if isinstance(cards, float) and cards.is_integer():
            cards = int(cards)
        if isinstance(cards, bool) or not isinstance(cards, int) or cards < 0:
            what = "\"cards\" " if caves else ""
            raise ForestJsonError(f"{where}: {what}must be a non-negative integer, not "
                                  f"{_q(cards)}")
        if cards > self.table_cards:
            raise ForestJsonError(f"{where}: {_q(cards)} cards, but the game has only "
                                  f"{self.table_cards} cards besides the winter cards")
        return number, cards

    def place_all(self, site: Host, read: list[tuple[str, list[Dweller]]], where: str) -> None:
        """Put the cards read into the host's slots: the first card of every slot first (a
        card in one slot may let others share another, as a Stinging Nettle at the bottom
        lets butterflies share the top), then the rest of each slot in order."""
        for side, cards in read:
            if cards:
                if cards[0].species.onto_tag or cards[0].species.hosts:
                    self.placed_rule(site, side, cards[0], f"{where}, {side}")
                site.slots[side].append(cards[0])
        for side, cards in read:
            for d in cards[1:]:
                self.place(site, side, d, f"{where}, {side}")

    def placed_rule(self, site: Host, side: str, d: Dweller, where: str) -> None:
        """Refuse a card whose species has a placement rule of the data (Exploration's
        Cuckoo: only at a tree, onto a slot holding a bird, written after it) where the
        rule forbids it (:meth:`~forest_shuffle.cards.forest.Host.refusal`)."""
        sp = d.species
        why = site.refusal(sp, side)
        if not why:
            return
        kinds = _or(sorted(sp.hosts))
        if sp.hosts and not sp.goes_to(site.kind):
            raise ForestJsonError(f"{where}: {article(self.say(sp))} goes only at "
                                  f"{article(kinds)}, not at {article(site.kind)}")
        if why == NOT_ONTO_TAG:
            at = f" of {article(kinds)}" if sp.hosts else ""
            raise ForestJsonError(
                f"{where}: {article(self.say(sp))} goes only into the {side} slot{at} that "
                f"holds exactly one other {sp.onto_tag}, written after it")
        raise ForestJsonError(f"{where}: {article(self.say(sp))} cannot go here "
                              f"({_number(max(sp.max_per_host, 0))} at most at "
                              f"{article(site.kind)})")

    def place(self, site: Host, side: str, d: Dweller, where: str) -> None:
        stack = site.slots[side]
        if d.species.onto_tag or d.species.hosts:
            self.placed_rule(site, side, d, where)
        placed = next((x.species for x in stack if x.species.onto_tag), None)
        if placed is not None:
            raise ForestJsonError(
                f"{where}: {article(self.say(placed))} shares its slot with exactly one "
                f"{placed.onto_tag}, written before it ({self.say(d.species)} is one card "
                "too many)")
        if not site.accepts(d.species, side, joins=True):
            group = d.species.share or d.species.share_as
            if group and d.species.share_max >= 0 and all(
                    (x.species.share or x.species.share_as) == group for x in stack):
                shared = self.catalog.species[group]
                raise ForestJsonError(
                    f"{where}: {_number(len(stack) + 1)} {self.several(shared)} in one slot "
                    f"(at most {_number(d.species.share_max)})")
            raise ForestJsonError(f"{where}: two cards in a slot that holds one "
                                  f"({self.say(stack[-1].species)} and {self.say(d.species)})")
        stack.append(d)

    def resolve_symbols(self, forest: Forest, who: str) -> None:
        """Fill in symbols the deck fixes; refuse those a symbol-counting card needs and
        can't know (the Roe Deer's own symbol, or a card that may or may not show a symbol
        another card counts)."""
        symbols = self.deck.symbols
        unknown: list[tuple[str, Species, tuple[str, ...], Host, str, int]] = []
        for j, t in enumerate(forest.trees, start=1):
            if t.kind == SHRUB and t.species is not None and not t.symbol:
                unknown.append((f"{who}, tree {j}", t.species, symbols.get(t.species.name, ()),
                                t, "", -1))
            for side in SIDES:
                stack = t.slots[side]
                for k, d in enumerate(stack):
                    if d.symbol is not None:
                        continue
                    options = symbols.get(d.species.name, ())
                    if len(options) == 1:
                        stack[k] = Dweller(d.species, options[0], d.card)
                    elif d.species.points.rule == _OWN_SYMBOL_RULE:
                        raise ForestJsonError(
                            f"{who}, tree {j}, {side}: give this {self.say(d.species)}'s card or "
                            f"symbol; its points depend on its tree symbol")
                    else:
                        unknown.append((f"{who}, tree {j}, {side}", d.species, options, t,
                                        side, k))
        if not unknown:
            return
        counted: list[tuple[str, frozenset[str]]] = []  # (species, symbols it counts)
        for t in forest.trees:
            for _side, d in t.dwellers():
                rule = d.species.points.rule
                if rule == _OWN_SYMBOL_RULE and d.symbol is not None:
                    counted.append((self.say(d.species), frozenset({d.symbol})))
                elif rule in _SYMBOLS_RULES:
                    counted.append((self.say(d.species),
                                    frozenset(d.species.points.params["symbols"])))
        for where, sp, options, t, side, k in unknown:
            matters = False
            for name, wanted in counted:
                inside = sorted(s for s in options if s in wanted)
                if inside and len(inside) < len(options):
                    raise ForestJsonError(
                        f"{where}: give this {self.say(sp)}'s card or symbol; {article(name)} "
                        f"counts the {self.sym(inside[0])} symbol and {self.say(sp)} cards "
                        "show different symbols")
                matters = matters or bool(inside)
            if matters:  # every copy shows a counted symbol: any of them scores the same
                if k < 0:
                    t.symbol = options[0]
                else:
                    d = t.slots[side][k]
                    t.slots[side][k] = Dweller(d.species, options[0], d.card)


_SIDE_WORD: Mapping[str, str] = {
    "top": "on top", "bottom": "at the bottom", "left": "on the left", "right": "on the right",
}


def species_symbols(game: GameDef) -> Mapping[str, tuple[str, ...]]:
    """The tree symbols the deck copies of each species show (species name -> symbols,
    sorted; "" for a copy that shows none): more than one is where a reader of a table must
    be told which card it is, when the symbol matters for a score."""
    return _deck(game).symbols


def game_of_document(doc: Any) -> GameDef:
    """The game a parsed document names (the base game when it names none; ``"dartmoor"``
    Dartmoor's definition, registered or not); refused: a ``game`` that is no game id or an
    unknown game."""
    if not isinstance(doc, dict) or "game" not in doc:
        return make_game(BASE_ID)
    raw = doc["game"]
    known = ", ".join(_q(g) for g in game_ids())
    if not isinstance(raw, str):
        raise ForestJsonError(f"game: must be a game id such as \"base\", not {_q(raw)}")
    spelled = "+".join(part.strip().lower() for part in raw.split("+"))
    if spelled == DARTMOOR:
        return dartmoor_game()
    if PROMOS in spelled.split("+")[1:]:
        raise ForestJsonError(f"game: {_q(raw)}: the promos module is not supported yet "
                              "(the promo cards 249-251 cannot be scored)")
    try:
        return make_game(spelled)
    except UnknownGameError:
        raise ForestJsonError(f"game: unknown game {_q(raw)} (known: {known}, the modules "
                              "in any order, or \"dartmoor\")") from None


def read_table(doc: Any) -> ForestTable:
    """Check a parsed forest-json document and build its game and table."""
    if not isinstance(doc, dict) or not isinstance(doc.get("players"), list):
        raise ForestJsonError("the document must be an object with a \"players\" list")
    _refuse_unknown_keys(doc, _DOCUMENT_KEYS, "the document")
    game = game_of_document(doc)
    players = doc["players"]
    if not 1 <= len(players) <= MAX_PLAYERS:
        raise ForestJsonError(f"players: {len(players)} players, expected 1 to {MAX_PLAYERS}")
    lang = document_names_language(game.catalog, doc)
    reader = _DartmoorReader(game, lang) if game.id == DARTMOOR else _Reader(game, lang)
    names: list[str] = []
    whos: list[str] = []
    forests: list[Forest] = []
    for i, raw in enumerate(players, start=1):
        if not isinstance(raw, dict):
            raise ForestJsonError(f"player {i}: must be an object, not {_q(raw)}")
        name = raw.get("name", f"Player {i}")
        if not isinstance(name, str) or not name.strip():
            raise ForestJsonError(f"player {i}: \"name\" must be a non-empty string")
        who = f"player {i} {_q(name)}"
        if name in names:
            raise ForestJsonError(f"{who}: the name is used twice (also player "
                                  f"{names.index(name) + 1})")
        names.append(name)
        whos.append(who)
        forests.append(reader.forest(raw, who))
    reader.finish(forests, whos)
    return ForestTable(game, names, forests, lang)


def _written_names(doc: Any) -> list[str]:
    """The card names a document writes: trees, shrubs and moors, species and symbols
    (strings where the spec puts names; anything else is left to the reader)."""
    out: list[str] = []

    def card(entry: Any) -> None:
        if isinstance(entry, str):
            out.append(entry)
        elif isinstance(entry, dict):
            for key in ("species", "symbol"):
                if isinstance(entry.get(key), str):
                    out.append(entry[key])

    for player in doc.get("players", []) if isinstance(doc, dict) else []:
        if not isinstance(player, dict):
            continue
        for key, name_key in (("trees", "tree"), ("moors", "moor")):
            hosts = player.get(key)
            for host in hosts if isinstance(hosts, list) else []:
                if not isinstance(host, dict):
                    continue
                for k in (name_key, "symbol"):
                    if isinstance(host.get(k), str):
                        out.append(host[k])
                for side in SIDES:
                    stack = host.get(side, [])
                    for entry in stack if isinstance(stack, list) else [stack]:
                        card(entry)
    return out


def document_names_language(catalog: Catalog, doc: Any) -> str:
    """The language of a document's card names (``docs/forest-json.md``, "Names in four
    languages"): the one most of its names are in (a name counts for every language it is
    in: ``"Wolf"`` for English and German), English on a tie or with no names."""
    return document_language(catalog, _written_names(doc))


def forests_from_document(doc: Any) -> tuple[list[str], list[Forest]]:
    """Check a parsed forest-json document and build the table from it."""
    table = read_table(doc)
    return table.names, table.forests


def parse_table(text: str) -> ForestTable:
    """Parse forest-json text into its game and table; :class:`ForestJsonError` if refused
    (also for text that is not JSON, too large, nested too deeply or holding an integer too
    long for Python: see :func:`~forest_shuffle.engine.check.load_json`)."""
    try:
        doc = load_json(text, max_chars=MAX_DOCUMENT_CHARS)
    except JsonInputError as exc:
        raise ForestJsonError(str(exc)) from None
    return read_table(doc)


def parse_forest_json(text: str) -> tuple[list[str], list[Forest]]:
    """Parse forest-json text into ``(names, forests)`` (see :func:`parse_table`)."""
    table = parse_table(text)
    return table.names, table.forests


def load_forest_json(path: str) -> tuple[list[str], list[Forest]]:
    """Read forest-json from a file path (``-`` for standard input) and parse it."""
    table = load_table(path)
    return table.names, table.forests


def load_table(path: str) -> ForestTable:
    """Read forest-json from a file path (``-`` for standard input) and parse it."""
    import sys

    limit = MAX_DOCUMENT_CHARS + 1
    if path == "-":
        where = "standard input"
        try:
            buffer = getattr(sys.stdin, "buffer", None)
            if buffer is None:
                text = sys.stdin.read(limit)
            else:
                data = buffer.read(4 * limit)  # a character is at most 4 bytes of UTF-8
                if len(data) == 4 * limit:
                    raise ForestJsonError(f"{where}: larger than {MAX_DOCUMENT_CHARS:,} "
                                          "characters")
                text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise ForestJsonError(f"{where}: not UTF-8 text") from None
    else:
        where = printable(path)
        try:
            with open(path, encoding="utf-8") as fh:
                text = fh.read(limit)
        except OSError as exc:
            raise ForestJsonError(f"{where}: cannot read the file ({exc.strerror})") from None
        except UnicodeDecodeError:
            raise ForestJsonError(f"{where}: not UTF-8 text") from None
    if len(text) > MAX_DOCUMENT_CHARS:
        raise ForestJsonError(f"{where}: larger than {MAX_DOCUMENT_CHARS:,} characters")
    return parse_table(text)


def _written(catalog: Catalog, sp: Species) -> str:
    """How a document names ``sp``: its printed name, or its key where species of the game
    share the printed name (the reader takes either)."""
    return sp.printed if len(catalog.named(sp.printed)) < 2 else sp.name


def table_to_document(game: GameDef, names: Sequence[str],
                      forests: Sequence[Forest]) -> dict[str, Any]:
    """A table of the base family written as Forest JSON (version 3 in a game with
    Exploration's named caves, else version 2; Dartmoor is not written here): the game,
    each player's cave (``{"name": NAME, "cards": M}`` where a named cave was chosen), trees
    and saplings in order, each card by its id where the forest knows it, else by its
    species and the symbol it shows. :func:`read_table` reads it back to the same forests'
    scores. ValueError for a Dartmoor table, or cave cards under no named cave in a game of
    named caves (no document says them)."""
    if game.id == DARTMOOR:
        raise ValueError("a Dartmoor table is not written as Forest JSON here")
    catalog = game.catalog
    caves = catalog.named_caves
    players: list[dict[str, Any]] = []
    for name, forest in zip(names, forests, strict=True):
        trees: list[dict[str, Any]] = []
        for t in forest.trees:
            entry: dict[str, Any]
            if t.species is None:  # a sapling (face down, whichever card it is)
                entry = {"tree": "sapling"}
            elif t.card is not None:
                entry = {"card": t.card}
            else:
                entry = {"tree": _written(catalog, t.species)}
                if t.kind == SHRUB and t.symbol:
                    entry["symbol"] = t.symbol
            for side in SIDES:
                stack: list[Any] = []
                for d in t.slots[side]:
                    if d.card is not None:
                        stack.append({"card": d.card})
                    elif d.symbol:
                        stack.append({"species": _written(catalog, d.species),
                                      "symbol": d.symbol})
                    else:
                        stack.append(_written(catalog, d.species))
                if stack:
                    entry[side] = stack
            trees.append(entry)
        player: dict[str, Any] = {"name": name}
        if caves and 0 < forest.cave_number <= len(caves):
            player["cave"] = {"name": caves[forest.cave_number - 1].name,
                              "cards": forest.cave}
        elif caves and forest.cave:
            raise ValueError(f"{name}: {forest.cave} cards under no named cave")
        elif forest.cave:
            player["cave"] = forest.cave
        player["trees"] = trees
        players.append(player)
    doc: dict[str, Any] = {"game": game.id, "players": players}
    return doc


def names_in(catalog: Catalog, lang: str) -> Mapping[str, str]:
    """English printed name -> the name in ``lang``, for every species of ``catalog`` (the
    names the scorer writes in ``cards``; empty for English)."""
    if lang == "en":
        return {}
    return {sp.printed: printed_name(sp, lang) for sp in catalog.species.values()}


#: The module whose single-source facts the score's words mark (``provisional``): the
#: reference for Exploration gives a source per fact (``docs/exploration.md``).
_NOTED_MODULE = "exploration"


def provisional_note(catalog: Catalog, forest: Forest, c: CardPoints) -> str:
    """What about the card ``c`` of ``forest`` is provisional (one source only, for the
    ``exploration`` module's species, cards and named caves): its data's notes, or ""."""
    notes: list[str] = []
    if c.where == "cave":
        caves = catalog.named_caves
        if 0 < forest.cave_number <= len(caves):
            notes.append(caves[forest.cave_number - 1].provisional)
    else:
        parts = c.where.split()
        if len(parts) < 2 or not parts[1].isdigit() or not 0 < int(parts[1]) <= len(
                forest.trees):
            return ""
        host = forest.trees[int(parts[1]) - 1]
        shown: list[tuple[Species | None, int | None]] = []
        if len(parts) == 2:
            shown.append((host.species, host.card))
        else:
            shown.extend((d.species, d.card) for d in host.slots.get(parts[2], ())
                         if d.species.printed == c.species)
        for sp, cid in shown[:1]:
            if sp is not None and sp.module == _NOTED_MODULE:
                notes.append(sp.provisional)
            card = catalog.cards[cid] if cid is not None and 0 < cid < len(
                catalog.cards) else None
            if card is not None and card.module == _NOTED_MODULE:
                notes.append(card.provisional)
    said = [n for n in dict.fromkeys(notes) if n]
    return " ".join(said)


def explained(table: ForestTable | None, i: int, c: CardPoints) -> str:
    """The ``why`` of a card in the score's words, with its provisional note (one source
    only: :func:`provisional_note`) where it has one."""
    if table is None:
        return c.why
    note = provisional_note(table.game.catalog, table.forests[i], c)
    return f"{c.why} (provisional: {note})" if note else c.why


def result_to_json(names: Sequence[str], scores: Sequence[ForestScore],
                   table: ForestTable | None = None) -> dict[str, Any]:
    """The output document of ``score --json``: players with totals, lines, cards; winners.
    Given the ``table`` read, each card's ``species`` is in the document's language and
    its ``why`` says what about it is provisional (:func:`explained`)."""
    best = winners([s.total for s in scores])
    say = names_in(table.game.catalog, table.lang) if table is not None else {}
    return {
        "players": [
            {
                "name": name,
                "total": s.total,
                "lines": dict(s.lines),  # the scorer's lines in pad order
                "cards": [{"where": c.where, "species": say.get(c.species, c.species),
                           "points": c.points, "why": explained(table, i, c)}
                          for c in s.cards],
            }
            for i, (name, s) in enumerate(zip(names, scores, strict=True))
        ],
        "winners": [names[i] for i in best],
    }


_LINE_TITLES: Mapping[str, str] = {
    "trees": "Trees", "top_bottom": "Top & bottom", "left_right": "Left & right",
    "cave": "Cave", "top": "Top", "bottom": "Bottom", "moors": "Moors",
}


def render_result(names: Sequence[str], scores: Sequence[ForestScore],
                  console: Console | None = None, game: GameDef | None = None,
                  lang: str = "en", table: ForestTable | None = None) -> None:
    """Print the score as tables for a person: each forest's cards (given the ``table``
    read, each reason with its provisional note: :func:`explained`), then the score pad
    (titled with the game when it is not the base game). Names are printed as plain text
    (no markup, control characters escaped), so any name prints in time linear in its
    length."""
    out = console if console is not None else Console()
    say = names_in(game.catalog, lang) if game is not None else {}
    shown = [printable(name) for name in names]
    best = set(winners([s.total for s in scores]))
    pad = Table(title="Score pad" if game is None or game.id == BASE_ID
                else f"Score pad: {game.title}")
    pad.add_column("Player")
    lines = tuple(scores[0].lines) if scores else LINES
    for line in lines:
        pad.add_column(_LINE_TITLES.get(line, line), justify="right")
    pad.add_column("Total", justify="right", style="bold")
    for i, (name, s) in enumerate(zip(shown, scores, strict=True)):
        label = f"{name} (winner)" if i in best else name
        pad.add_row(Text(label), *(str(s.lines[line]) for line in lines), str(s.total))
    for i, (name, s) in enumerate(zip(shown, scores, strict=True)):
        cards = Table(title=Text(f"{name}: {s.total} points", style="table.title"))
        cards.add_column("Where")
        cards.add_column("Card")
        cards.add_column("Points", justify="right")
        cards.add_column("Why")
        for c in s.cards:
            cards.add_row(c.where, say.get(c.species, c.species), str(c.points),
                          explained(table, i, c))
        out.print(cards)
    out.print(pad)
    if game is not None and game.catalog.provisional_deck:
        out.print(Text("Note: the Dartmoor deck is provisional (docs/dartmoor.md); scores "
                       "that count tree symbols depend on the symbols written."),
                  highlight=False)
    won = [shown[i] for i in sorted(best)]
    if won:
        verb = "wins" if len(won) == 1 else "share the victory"
        # No highlighting: rich's highlighter regexes are quadratic on a long word.
        out.print(Text(f"{' and '.join(won)} {verb}."), highlight=False)


_DM_PLAYER_KEYS = frozenset({"name", "cave", "trees", "moors"})
_DM_MOOR_KEYS = frozenset({"moor", "symbol", *SIDES})
_UNIVERSAL = normalize_name("universal")
_SIDE_WORDS = {"top": "top", "bottom": "bottom"}


class _DartmoorReader(_Reader):
    """Reads one Dartmoor document (``spec/forest-json.md``, section Dartmoor): trees and
    shrubs, moors, a numbered cave; species names (with ``symbol``) only."""

    def __init__(self, game: GameDef, lang: str = "en") -> None:
        super().__init__(game, lang)
        self.caves: dict[int, str] = {}  # cave number -> who drafted it

    def forest(self, raw: Any, who: str) -> Forest:
        _refuse_unknown_keys(raw, _DM_PLAYER_KEYS, who)
        number, cave = self.cave(raw.get("cave", 0), who)
        forest = Forest(cave=cave, cave_number=number)
        for key, entry_of in (("trees", self.dm_tree), ("moors", self.dm_moor)):
            entries = raw.get(key, [])
            if not isinstance(entries, list):
                raise ForestJsonError(f"{who}: \"{key}\" must be a list")
            for j, traw in enumerate(entries, start=1):
                where = f"{who}, {key[:-1]} {j}"
                site = entry_of(traw, where)
                self.take_place(where)
                self.fill(site, traw, where)
                forest.trees.append(site)
        free = self.table_cards - self.on_table
        if cave > free:
            raise ForestJsonError(f"{who}, cave: {cave} cards, but only {free} of the game's "
                                  f"{self.table_cards} cards (besides the winter cards) are "
                                  "not already on the table")
        self.on_table += cave
        return forest

    def cave(self, raw: Any, who: str) -> tuple[int, int]:
        """``N`` cards, or ``{"number": N, "cards": M}``: (cave number or 0, cards)."""
        where = f"{who}, cave"
        number = 0
        cards = raw
        if isinstance(raw, dict):
            _refuse_unknown_keys(raw, frozenset({"number", "cards"}), where)
            number = raw.get("number", 0)
            cards = raw.get("cards", 0)
            caves = len(self.catalog.caves)
            if isinstance(number, bool) or not isinstance(number, int) or not (
                    1 <= number <= caves):
                raise ForestJsonError(f"{where}: the cave number must be 1 to {caves}, not "
                                      f"{_q(number)}")
            if number in self.caves:
                raise ForestJsonError(f"{where}: cave {number} is used twice (also "
                                      f"{self.caves[number]})")
            self.caves[number] = who
        if isinstance(cards, float) and cards.is_integer():
            cards = int(cards)
        if isinstance(cards, bool) or not isinstance(cards, int) or cards < 0:
            raise ForestJsonError(f"{where}: must be a non-negative integer, not {_q(cards)}")
        if cards > self.table_cards:
            raise ForestJsonError(f"{where}: {_q(cards)} cards, but the game has only "
                                  f"{self.table_cards} cards besides the winter cards")
        return number, cards

    def dm_tree(self, raw: Any, where: str) -> Host:
        if not isinstance(raw, dict):
            raise ForestJsonError(f"{where}: a tree must be an object, not {_q(raw)}")
        _refuse_unknown_keys(raw, _TREE_KEYS | {"symbol"}, where)
        if "card" in raw:
            raise ForestJsonError(f"{where}: Dartmoor cards have no ids in forest-json (its "
                                  "deck is provisional): write the tree's name")
        name = raw.get("tree")
        if not isinstance(name, str):
            raise ForestJsonError(f"{where}: give the tree or shrub by its name in \"tree\"")
        if normalize_name(name) == _SAPLING:
            raise ForestJsonError(f"{where}: Dartmoor has no saplings")
        sp = self.host_species(name)
        if sp is None:
            raise ForestJsonError(f"{where}: unknown tree {_q(name)}{self.not_here(name)}")
        if sp.kind not in (TREE, SHRUB):
            what = "a moor: write it in \"moors\"" if sp.kind == MOOR else "not a tree or shrub"
            raise ForestJsonError(f"{where}: {self.say(sp)} is {what}")
        self.take_species(sp, where)
        symbol = sp.name if sp.kind == TREE else ""
        if "symbol" in raw:
            got = self.tree_symbol(raw["symbol"], where)
            if sp.kind == TREE and got != sp.name:
                raise ForestJsonError(
                    f"{where}: {article(self.say(sp))} shows the {self.say(sp)} symbol")
            symbol = got
        return Host(sp, kind=sp.kind, symbol=symbol)

    def dm_moor(self, raw: Any, where: str) -> Host:
        if not isinstance(raw, dict):
            raise ForestJsonError(f"{where}: a moor must be an object, not {_q(raw)}")
        _refuse_unknown_keys(raw, _DM_MOOR_KEYS | {"card"}, where)
        if "card" in raw:
            raise ForestJsonError(f"{where}: Dartmoor cards have no ids in forest-json (its "
                                  "deck is provisional): write the moor's name")
        name = raw.get("moor")
        if not isinstance(name, str):
            raise ForestJsonError(f"{where}: give the moor by its name in \"moor\" (or "
                                  "\"universal\")")
        if normalize_name(name) == _UNIVERSAL:
            if "symbol" in raw:
                raise ForestJsonError(f"{where}: a universal moor lies face down and shows no "
                                      "tree symbol")
            return Host(None, kind=UNIVERSAL_MOOR)
        sp = self.host_species(name)
        if sp is None or sp.kind != MOOR:
            known = ", ".join(self.say(x) for x in self.catalog.species.values() if x.kind == MOOR)
            raise ForestJsonError(f"{where}: unknown moor {_q(name)} (moors: {known} or "
                                  "\"universal\")")
        self.take_species(sp, where)
        symbol = self.tree_symbol(raw["symbol"], where) if "symbol" in raw else ""
        return Host(sp, kind=MOOR, symbol=symbol)

    def fill(self, site: Host, traw: dict[str, Any], where: str) -> None:
        """Read the slots of a host and place every card, each where the cards placed so
        far let it go (a card in one slot may let others share another: Water Soldiers,
        a Dartmoor Badger, a bird under a Cuckoo)."""
        pending: list[tuple[str, Dweller, str]] = []
        for side in SIDES:
            stack = traw.get(side, [])
            if not isinstance(stack, list):
                stack = [stack]
            slot_where = f"{where}, {side}"
            if stack and site.capacity(side) == 0:
                raise ForestJsonError(f"{slot_where}: a moor has no {side} slot (moors take "
                                      "cards on top and at the bottom only)")
            for entry in stack:
                d = self.dm_dweller(entry, side, site, slot_where)
                self.take_place(slot_where)
                pending.append((side, d, slot_where))
        progress = True
        while pending and progress:
            progress = False
            rest: list[tuple[str, Dweller, str]] = []
            for side, d, slot_where in pending:
                if site.accepts(d.species, side, joins=True):
                    site.slots[side].append(d)
                    progress = True
                else:
                    rest.append((side, d, slot_where))
            pending = rest
        if pending:
            side, d, slot_where = pending[0]
            raise ForestJsonError(self.refusal(site, side, d, slot_where))

    def finish(self, forests: Sequence[Forest], whos: Sequence[str]) -> None:
        """Nothing waits in a Dartmoor document (no two of its species share a printed
        name, and :meth:`dm_dweller` reads one species a name)."""

    def refusal(self, site: Host, side: str, d: Dweller, where: str) -> str:
        """The one line saying why ``d`` cannot join ``side`` of ``site``."""
        sp = d.species
        stack = site.slots[side]
        if sp.onto_tag:
            most = sp.max_per_host
            limit = f", at most {_number(most)} a {site.label}" if most > 0 else ""
            return (f"{where}: {article(self.say(sp))} goes only into {article(side)} slot "
                    f"that holds {article(sp.onto_tag)}{limit}")
        if site.is_moor:
            return (f"{where}: more cards on the {side} of a moor than its two slots hold "
                    f"({', '.join(self.say(x.species) for x in stack)} and {self.say(sp)})")
        return (f"{where}: two cards in a slot that holds one "
                f"({self.say(stack[-1].species)} and {self.say(sp)})")

    def dm_dweller(self, raw: Any, side: str, site: Host, where: str) -> Dweller:
        symbol: Any = None
        if isinstance(raw, dict):
            _refuse_unknown_keys(raw, _DWELLER_KEYS, where)
            if "card" in raw:
                raise ForestJsonError(f"{where}: Dartmoor cards have no ids in forest-json "
                                      "(its deck is provisional): write the species")
            if "species" not in raw:
                raise ForestJsonError(f"{where}: a card object needs \"species\"")
            name = raw["species"]
            symbol = raw.get("symbol")
        elif isinstance(raw, str):
            name = raw
        else:
            raise ForestJsonError(f"{where}: a card must be a species name or an object, "
                                  f"not {_q(raw)}")
        sp = self.species(name, where)
        if sp.is_host:
            raise ForestJsonError(f"{where}: {self.say(sp)} is {article(sp.kind)}, not a card for "
                                  "a slot")
        if side not in sp.positions:
            places = " or ".join(sp.positions)
            raise ForestJsonError(f"{where}: {self.say(sp)} can't go {_SIDE_WORD[side]} "
                                  f"(it goes {places})")
        if not sp.goes_to(site.kind):
            only = " or ".join(k for k in ("tree", "shrub", "moor") if k in sp.hosts)
            raise ForestJsonError(f"{where}: {self.say(sp)} goes only at {article(only)}, not at "
                                  f"{article(site.kind)}")
        self.take_species(sp, where)
        sym: str | None = None
        if symbol is not None:
            sym = self.tree_symbol(symbol, where)
            known = self.catalog.known_symbols.get(sp.name)
            if known is not None:
                if sym not in known:
                    raise ForestJsonError(f"{where}: no {self.say(sp)} shows the "
                                          f"{self.sym(sym)} symbol (they show "
                                          f"{_or([self.sym(k) for k in known])})")
                key = (sp.name, sym)
                n = self.used.pairs.get(key, 0) + 1
                if n > known.count(sym):
                    raise ForestJsonError(f"{where}: more {self.say(sp)} cards showing the "
                                          f"{self.sym(sym)} symbol than the deck has "
                                          f"({known.count(sym)})")
                self.used.pairs[key] = n
        elif sp.points.rule == _OWN_SYMBOL_RULE:
            raise ForestJsonError(f"{where}: give this {self.say(sp)}'s symbol; its points "
                                  "depend on its tree symbol")
        return Dweller(sp, sym)


def _refuse_unknown_keys(raw: dict[str, Any], known: frozenset[str], where: str) -> None:
    """Keys the spec does not define are annotations, welcome when they hold a text, a
    number, true/false or null (tools may annotate: the spec is forgiving where that costs
    nothing). An unknown key that holds a list or an object (cards, by all appearances) or
    looks like a misspelt known key is refused, naming it: it would otherwise drop cards
    silently (``"forest"`` for ``"trees"`` scored an empty forest)."""
    for key in raw:
        if key in known:
            continue
        hint = _KEY_HINTS.get(key)
        close = difflib.get_close_matches(str(key).lower()[:40], sorted(known), n=1,
                                          cutoff=0.7)
        if hint is None and not close and not isinstance(raw[key], (list, dict)):
            continue  # an annotation
        if hint is None:
            hint = (f"did you mean {_q(close[0])}?" if close
                    else "known keys: " + ", ".join(_q(k) for k in sorted(known)))
        raise ForestJsonError(f"{where}: unknown key {_q(key)} ({hint})")
