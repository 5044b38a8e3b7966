"""Forest JSON (``shared/spec/forest-json.md``): read a table of forests, write its score.

Contract: :func:`parse_forest_json` / :func:`load_forest_json` turn a document into player
names and :class:`~forest_shuffle.forest.Forest` values, or raise :class:`ForestJsonError`
with one line naming the player, the tree (counted from 1) and the slot of the first
problem. Nothing is returned from a refused document. Besides the refusals of the spec, an
unknown key that holds cards (a list or an object) or looks like a misspelt key is refused
(other unknown keys are annotations), a ``game`` other than ``"base"``, a
table holding more cards than the deck (caves included), and text that is not plain JSON
(``docs/forest-json.md``, the project notes). :func:`result_to_json` gives the exact output
shape of ``score --json``; :func:`render_result` prints the same for a person.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from .cards import CATALOG, SIDES, TREE_SPECIES, Card, Species, normalize_name
from .forest import TOAD, Dweller, Forest, TreeSite
from .scoring import LINES, ForestScore, winners
from .state_check import JsonInputError, load_json, printable

__all__ = [
    "ForestJsonError", "parse_forest_json", "load_forest_json", "forests_from_document",
    "result_to_json", "render_result", "MAX_PLAYERS",
]

MAX_PLAYERS = 5
#: The cards of the base game that can be on the table (all but the 3 winter cards): every
#: tree, sapling and dweller is one of them, and so is every card under a cave.
TABLE_CARDS = sum(1 for c in CATALOG.cards if c is not None and not c.is_winter)
#: The largest document read (a full table written out card by card is far smaller).
MAX_DOCUMENT_CHARS = 2_000_000
_DOCUMENT_KEYS = frozenset({"players", "game"})
_PLAYER_KEYS = frozenset({"name", "cave", "trees"})
_TREE_KEYS = frozenset({"tree", "card", *SIDES})
_DWELLER_KEYS = frozenset({"species", "symbol", "card"})
#: Why some keys of the spec are refused in the base game.
_KEY_HINTS: Mapping[str, str] = {"moors": "moors are in the Dartmoor game only"}
_EXPANSIONS = frozenset({"alpine", "woodland_edge"})
_SAPLING = normalize_name("sapling")
#: Other spellings accepted for tree species (the appendix says "Linden Tree").
_TREE_ALIASES: Mapping[str, str] = {normalize_name("Linden Tree"): "Linden"}


class ForestJsonError(ValueError):
    """A refused forest-json document; the message is one line naming where."""


@dataclass
class _Used:
    """What the whole table has taken from the one deck so far."""

    cards: dict[int, str]  # card id -> where it was first used
    species: dict[str, int]  # species -> halves / tree cards used (hidden halves included)
    pairs: dict[tuple[str, str], int]  # (species, symbol) -> halves used


def _deck_tables() -> tuple[dict[tuple[str, str], int], dict[str, frozenset[str]]]:
    pairs: dict[tuple[str, str], int] = {}
    symbols: dict[str, set[str]] = {}
    for c in CATALOG.cards:
        if c is None:
            continue
        for h in c.halves.values():
            key = (h.species.name, h.symbol)
            pairs[key] = pairs.get(key, 0) + 1
            symbols.setdefault(h.species.name, set()).add(h.symbol)
    return pairs, {k: frozenset(v) for k, v in symbols.items()}


_DECK_PAIRS, _DECK_SYMBOLS = _deck_tables()


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


def _tree_symbol(raw: Any, where: str) -> str:
    if not isinstance(raw, str):
        raise ForestJsonError(f"{where}: a symbol must be a tree species name, not {_q(raw)}")
    folded = normalize_name(raw)
    name = _TREE_ALIASES.get(folded)
    if name is None:
        sp = CATALOG.by_folded_name.get(folded)
        name = sp.name if sp is not None and sp.is_tree else None
    if name is None or name not in TREE_SPECIES:
        raise ForestJsonError(f"{where}: unknown tree symbol {_q(raw)}")
    return name


def _card(raw: Any, where: str) -> Card:
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise ForestJsonError(f"{where}: a card id must be an integer, not {_q(raw)}")
    try:
        card = CATALOG.card(raw)
    except KeyError:
        raise ForestJsonError(f"{where}: card {raw} is not in the deck") from None
    if card.is_winter:
        raise ForestJsonError(f"{where}: card {raw} is a winter card")
    return card


class _Reader:
    """Reads one document, checking as it goes; the first problem raises."""

    def __init__(self) -> None:
        self.used = _Used({}, {}, {})
        self.on_table = 0  # cards in the forests and caves read so far

    def take_place(self, where: str) -> None:
        """One more physical card on the table (a tree, a sapling or a dweller)."""
        self.on_table += 1
        if self.on_table > TABLE_CARDS:
            raise ForestJsonError(f"{where}: more cards on the table than the game has "
                                  f"({TABLE_CARDS} besides the winter cards)")

    # -- table-wide counts -------------------------------------------------------------

    def take_card(self, card: Card, where: str) -> None:
        first = self.used.cards.get(card.id)
        if first is not None:
            raise ForestJsonError(f"{where}: card {card.id} is used twice (also at {first})")
        self.used.cards[card.id] = where

    def take_species(self, sp: Species, where: str, note: str = "") -> None:
        n = self.used.species.get(sp.name, 0) + 1
        if n > sp.count:
            what = "tree cards" if sp.is_tree else "cards"
            raise ForestJsonError(f"{where}: more {sp.name} {what} than the deck has "
                                  f"({sp.count}){note}")
        self.used.species[sp.name] = n

    def take_pair(self, sp: Species, symbol: str, where: str) -> None:
        key = (sp.name, symbol)
        have = _DECK_PAIRS.get(key, 0)
        n = self.used.pairs.get(key, 0) + 1
        if n > have:
            if have == 0:
                raise ForestJsonError(f"{where}: no {sp.name} in the deck shows the "
                                      f"{symbol} symbol")
            raise ForestJsonError(f"{where}: more {sp.name} cards showing the {symbol} symbol "
                                  f"than the deck has ({have})")
        self.used.pairs[key] = n

    # -- entries ----------------------------------------------------------------------

    def tree(self, raw: Any, where: str) -> TreeSite:
        if not isinstance(raw, dict):
            raise ForestJsonError(f"{where}: a tree must be an object, not {_q(raw)}")
        _refuse_unknown_keys(raw, _TREE_KEYS, where)
        if ("tree" in raw) == ("card" in raw):
            raise ForestJsonError(f"{where}: give exactly one of \"tree\" and \"card\"")
        if "card" in raw:
            card = _card(raw["card"], where)
            if not card.is_tree or card.species is None:
                raise ForestJsonError(f"{where}: card {card.id} is not a tree card")
            self.take_card(card, where)
            self.take_species(card.species, where)
            return TreeSite(card.species, card.id)
        name = raw["tree"]
        if not isinstance(name, str):
            raise ForestJsonError(f"{where}: a tree must be named by a string, not {_q(name)}")
        folded = normalize_name(name)
        if folded == _SAPLING:
            return TreeSite(None)
        alias = _TREE_ALIASES.get(folded)
        sp = CATALOG.species.get(alias) if alias else CATALOG.by_folded_name.get(folded)
        if sp is None:
            raise ForestJsonError(f"{where}: unknown tree {_q(name)}")
        if not sp.is_tree:
            raise ForestJsonError(f"{where}: {sp.name} is not a tree")
        self.take_species(sp, where)
        return TreeSite(sp)

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
        card = _card(raw["card"], where)
        if card.is_tree:
            raise ForestJsonError(f"{where}: card {card.id} is a tree card, not a dweller")
        if side not in card.halves:
            raise ForestJsonError(f"{where}: card {card.id} ({card.label()}) has no {side} half")
        half = card.halves[side]
        if "species" in raw:
            sp = self.species(raw["species"], where)
            if sp is not half.species:
                raise ForestJsonError(f"{where}: card {card.id} shows {half.species.name} on "
                                      f"its {side} half, not {sp.name}")
        if "symbol" in raw and _tree_symbol(raw["symbol"], where) != half.symbol:
            raise ForestJsonError(f"{where}: card {card.id} shows the {half.symbol} symbol on "
                                  f"its {side} half")
        self.take_card(card, where)
        note = ", counting the hidden halves of cards given by id"
        for s, h in card.halves.items():
            self.take_species(h.species, where, "" if s == side else note)
            self.take_pair(h.species, h.symbol, where)
        return Dweller.of_card(card, side)

    def species(self, raw: Any, where: str) -> Species:
        if not isinstance(raw, str):
            raise ForestJsonError(f"{where}: a species must be a name, not {_q(raw)}")
        sp = CATALOG.lookup(raw)
        if sp is None:
            raise ForestJsonError(f"{where}: unknown species {_q(raw)}")
        return sp

    def named(self, name: Any, symbol: Any, side: str, where: str) -> Dweller:
        sp = self.species(name, where)
        if sp.is_tree:
            raise ForestJsonError(f"{where}: {sp.name} is a tree, not a card for a slot")
        if side not in sp.positions:
            places = " or ".join(sp.positions)
            raise ForestJsonError(f"{where}: {sp.name} can't go {_SIDE_WORD[side]} "
                                  f"(it goes {places})")
        self.take_species(sp, where)
        sym: str | None = None
        if symbol is not None:
            sym = _tree_symbol(symbol, where)
            self.take_pair(sp, sym, where)
        return Dweller(sp, sym)

    def forest(self, raw: Any, who: str) -> Forest:
        _refuse_unknown_keys(raw, _PLAYER_KEYS, who)
        cave = raw.get("cave", 0)
        if isinstance(cave, float) and cave.is_integer():
            cave = int(cave)
        if isinstance(cave, bool) or not isinstance(cave, int) or cave < 0:
            raise ForestJsonError(f"{who}, cave: must be a non-negative integer, not {_q(cave)}")
        if cave > TABLE_CARDS:
            raise ForestJsonError(f"{who}, cave: {_q(cave)} cards, but the game has only "
                                  f"{TABLE_CARDS} cards besides the winter cards")
        trees_raw = raw.get("trees", [])
        if not isinstance(trees_raw, list):
            raise ForestJsonError(f"{who}: \"trees\" must be a list")
        forest = Forest(cave=cave)
        for j, traw in enumerate(trees_raw, start=1):
            where = f"{who}, tree {j}"
            site = self.tree(traw, where)
            self.take_place(where)
            for side in SIDES:
                stack = traw.get(side, [])
                if not isinstance(stack, list):
                    stack = [stack]  # one card written without the list
                slot_where = f"{where}, {side}"
                for entry in stack:
                    d = self.dweller(entry, side, slot_where)
                    self.take_place(slot_where)
                    self.place(site, side, d, slot_where)
            forest.trees.append(site)
        free = TABLE_CARDS - self.on_table
        if cave > free:
            raise ForestJsonError(f"{who}, cave: {cave} cards, but only {free} of the game's "
                                  f"{TABLE_CARDS} cards (besides the winter cards) are not "
                                  "already on the table")
        self.on_table += cave
        self.resolve_symbols(forest, who)
        return forest

    def place(self, site: TreeSite, side: str, d: Dweller, where: str) -> None:
        stack = site.slots[side]
        if not site.accepts(d.species, side):
            names = {x.species.name for x in stack} | {d.species.name}
            if names == {TOAD}:
                raise ForestJsonError(f"{where}: three Common Toads in one slot (at most two)")
            raise ForestJsonError(f"{where}: two cards in a slot that holds one "
                                  f"({stack[-1].species.name} and {d.species.name})")
        stack.append(d)

    def resolve_symbols(self, forest: Forest, who: str) -> None:
        """Fill in symbols the deck fixes; refuse those a Roe Deer needs and can't know."""
        for j, t in enumerate(forest.trees, start=1):
            for side in SIDES:
                stack = t.slots[side]
                for k, d in enumerate(stack):
                    if d.symbol is not None:
                        continue
                    options = _DECK_SYMBOLS.get(d.species.name, frozenset())
                    if len(options) == 1:
                        stack[k] = Dweller(d.species, next(iter(options)), d.card)
                    elif d.species.points.rule == "per_own_tree_symbol":
                        raise ForestJsonError(
                            f"{who}, tree {j}, {side}: give this {d.species.name}'s card or "
                            f"symbol; its points depend on its tree symbol")
        wanted = {d.symbol for t in forest.trees for d in _all(t)
                  if d.species.points.rule == "per_own_tree_symbol" and d.symbol is not None}
        if not wanted:
            return
        for j, t in enumerate(forest.trees, start=1):
            for side in SIDES:
                for d in t.slots[side]:
                    clash = sorted(_DECK_SYMBOLS.get(d.species.name, frozenset()) & wanted)
                    if d.symbol is None and clash:
                        raise ForestJsonError(
                            f"{who}, tree {j}, {side}: give this {d.species.name}'s card or "
                            f"symbol; a Roe Deer counts the {clash[0]} symbol and "
                            f"{d.species.name} cards show different symbols")


_SIDE_WORD: Mapping[str, str] = {
    "top": "on top", "bottom": "at the bottom", "left": "on the left", "right": "on the right",
}


def _all(t: TreeSite) -> list[Dweller]:
    return [d for side in SIDES for d in t.slots[side]]


def forests_from_document(doc: Any) -> tuple[list[str], list[Forest]]:
    """Check a parsed forest-json document and build the table from it."""
    if not isinstance(doc, dict) or not isinstance(doc.get("players"), list):
        raise ForestJsonError("the document must be an object with a \"players\" list")
    _refuse_unknown_keys(doc, _DOCUMENT_KEYS, "the document")
    if "game" in doc:
        _check_game(doc["game"])
    players = doc["players"]
    if not 1 <= len(players) <= MAX_PLAYERS:
        raise ForestJsonError(f"players: {len(players)} players, expected 1 to {MAX_PLAYERS}")
    reader = _Reader()
    names: list[str] = []
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
        forests.append(reader.forest(raw, who))
    return names, forests


def _check_game(game: Any) -> None:
    """The ``game`` of spec version 2: ``"base"`` is read; the other games the spec names
    are refused as not supported, anything else as unknown."""
    parts = [p.strip().lower() for p in game.split("+")] if isinstance(game, str) else []
    if parts == ["base"]:
        return
    known = (parts == ["dartmoor"]
             or ("base" in parts and len(set(parts)) == len(parts)
                 and set(parts) <= _EXPANSIONS | {"base"}))
    if known:
        raise ForestJsonError(f"game {_q(game)}: this scorer reads only the base game "
                              "(\"base\"); the expansions are not supported yet")
    raise ForestJsonError(f"game: unknown game {_q(game)} (\"base\", \"base\" joined with \"+\" "
                          "to \"alpine\" and/or \"woodland_edge\", or \"dartmoor\")")


def parse_forest_json(text: str) -> tuple[list[str], list[Forest]]:
    """Parse forest-json text into ``(names, forests)``; :class:`ForestJsonError` if refused
    (also for text that is not JSON, too large, nested too deeply or holding an integer too
    long for Python: see :func:`~forest_shuffle.state_check.load_json`)."""
    try:
        doc = load_json(text, max_chars=MAX_DOCUMENT_CHARS)
    except JsonInputError as exc:
        raise ForestJsonError(str(exc)) from None
    return forests_from_document(doc)


def load_forest_json(path: str) -> tuple[list[str], list[Forest]]:
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
    return parse_forest_json(text)


def result_to_json(names: Sequence[str], scores: Sequence[ForestScore]) -> dict[str, Any]:
    """The output document of ``score --json``: players with totals, lines, cards; winners."""
    best = winners([s.total for s in scores])
    return {
        "players": [
            {
                "name": name,
                "total": s.total,
                "lines": {line: s.lines[line] for line in LINES},
                "cards": [{"where": c.where, "species": c.species, "points": c.points,
                           "why": c.why} for c in s.cards],
            }
            for name, s in zip(names, scores, strict=True)
        ],
        "winners": [names[i] for i in best],
    }


_LINE_TITLES: Mapping[str, str] = {
    "trees": "Trees", "top_bottom": "Top & bottom", "left_right": "Left & right",
    "cave": "Cave",
}


def render_result(names: Sequence[str], scores: Sequence[ForestScore],
                  console: Console | None = None) -> None:
    """Print the score as tables for a person: the score pad, then each forest's cards.
    Names are printed as plain text (no markup, control characters escaped), so any name
    prints in time linear in its length."""
    out = console if console is not None else Console()
    shown = [printable(name) for name in names]
    best = set(winners([s.total for s in scores]))
    pad = Table(title="Score pad")
    pad.add_column("Player")
    for line in LINES:
        pad.add_column(_LINE_TITLES[line], justify="right")
    pad.add_column("Total", justify="right", style="bold")
    for i, (name, s) in enumerate(zip(shown, scores, strict=True)):
        label = f"{name} (winner)" if i in best else name
        pad.add_row(Text(label), *(str(s.lines[line]) for line in LINES), str(s.total))
    for name, s in zip(shown, scores, strict=True):
        cards = Table(title=Text(f"{name}: {s.total} points", style="table.title"))
        cards.add_column("Where")
        cards.add_column("Card")
        cards.add_column("Points", justify="right")
        cards.add_column("Why")
        for c in s.cards:
            cards.add_row(c.where, c.species, str(c.points), c.why)
        out.print(cards)
    out.print(pad)
    won = [shown[i] for i in sorted(best)]
    if won:
        verb = "wins" if len(won) == 1 else "share the victory"
        # No highlighting: rich's highlighter regexes are quadratic on a long word.
        out.print(Text(f"{' and '.join(won)} {verb}."), highlight=False)


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
