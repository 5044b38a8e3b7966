"""The score pad's model: a table of forests entered by hand, as Forest JSON documents.

Contract: a player's forest is a Forest JSON player object (``spec/forest-json.md``); an
**entry** is one operation on it (:data:`OPS`: add a host or a moor, add a card to a slot,
remove, move or change a card or host, set the cave, mark the forest done). :func:`apply_op`
returns the changed player object and leaves its argument alone, or raises
:class:`PadRefused` with one line for an operation that has no meaning (no such host, slot
or card); whether the result is allowed is the Forest JSON reader's decision
(:func:`score_document`, which raises :class:`PadRefused` with the reader's own line). The
score is the game's scorer's (:func:`score_document`): nothing here counts points. No I/O.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from forest_shuffle.cards.forest import MOOR
from forest_shuffle.cards.model import SIDES
from forest_shuffle.cards.names import UnknownLanguageError, check_lang, name_fact, printed_name
from forest_shuffle.engine.game import GameDef
from forest_shuffle.formats.forest_json import (
    MAX_PLAYERS,
    ForestJsonError,
    explained,
    read_table,
    result_to_json,
    species_symbols,
)

__all__ = ["PadRefused", "OPS", "HOST_LISTS", "apply_op", "empty_player", "has_moors",
           "score_document",
           "table_document", "catalog_of", "MAX_PLAYERS", "MAX_NAME"]

#: The operations of an entry (``undo`` is the service's: it restores a stored forest).
OPS = ("add_host", "add_moor", "add_card", "remove", "move", "change", "set_cave", "done",
       "undo")
#: Where hosts lie in a player object: trees and shrubs (saplings), and Dartmoor's moors.
HOST_LISTS = ("trees", "moors")
#: The longest player name and the longest name of a card in an entry.
MAX_NAME = 40
_MAX_TEXT = 80
_HOST_KEYS = {"trees": ("tree", "card", "symbol"), "moors": ("moor", "symbol")}
_CARD_KEYS = frozenset({"species", "symbol", "card"})


class PadRefused(ValueError):
    """A refused entry or request; the message is one line for a person, ``status`` the
    HTTP status (400: not allowed, 404: no such table, 403: not yours, 409: out of date)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def has_moors(game: GameDef) -> bool:
    """Whether the game's catalog holds moors (then a forest has a ``moors`` list)."""
    return any(sp.kind == MOOR for sp in game.catalog.species.values())


def empty_player(name: str, game: GameDef) -> dict[str, Any]:
    """A player object with no cards yet (with a moors list in a game of moors)."""
    out: dict[str, Any] = {"name": name, "trees": []}
    if has_moors(game):
        out["moors"] = []
    return out


def table_document(game: GameDef, players: list[dict[str, Any]]) -> dict[str, Any]:
    """The Forest JSON document of a table: the game and the players' objects in seat order."""
    return {"game": game.id, "players": players}


def score_document(doc: Mapping[str, Any]) -> dict[str, Any]:
    """The scorer's answer for a table document: ``result_to_json`` (each player's total,
    score-pad lines and every card's points and reason, with what about it is provisional;
    the winners). Refused: the
    reader's one line as :class:`PadRefused`."""
    try:
        table = read_table(dict(doc))
    except ForestJsonError as exc:
        raise PadRefused(str(exc)) from None
    scores = table.game.score_table(table.forests)
    out = result_to_json(table.names, scores)
    for i, (player, score) in enumerate(zip(out["players"], scores, strict=True)):
        for card, points in zip(player["cards"], score.cards, strict=True):
            card["why"] = explained(table, i, points)  # with its provisional note
    return out


def _text(raw: Any, what: str) -> str:
    if not isinstance(raw, str) or not raw.strip() or len(raw) > _MAX_TEXT:
        raise PadRefused(f"{what} must be a name of up to {_MAX_TEXT} characters")
    return raw


def _fields(raw: dict[str, Any], what: str) -> dict[str, Any]:
    """The fields of a card or host object: ``card`` a whole number, the others text
    (named ``what`` + the key in a refusal)."""
    out: dict[str, Any] = {}
    for key, value in raw.items():
        if key == "card":
            if not isinstance(value, int) or isinstance(value, bool):
                raise PadRefused("a card id must be a whole number")
            out[key] = value
        else:
            out[key] = _text(value, f"{what}{key}")
    return out


def _card_spec(raw: Any) -> Any:
    """A dweller as the entry gives it (a name, or species/symbol/card), shape-checked; the
    reader checks the rest."""
    if isinstance(raw, str):
        return _text(raw, "the card")
    if isinstance(raw, dict) and raw and set(raw) <= _CARD_KEYS:
        return _fields(raw, "the card's ")
    raise PadRefused("the card must be a species name or an object with species, symbol "
                     "or card")


def _host_spec(raw: Any, where: str) -> dict[str, Any]:
    keys = _HOST_KEYS[where]
    name_key = keys[0]
    if isinstance(raw, str):
        return {name_key: _text(raw, f"the {name_key}")}
    if isinstance(raw, dict) and raw and set(raw) <= set(keys):
        return _fields(raw, "the ")
    raise PadRefused(f"the {name_key} must be a name or an object with "
                     f"{', '.join(keys)}")


def _list_name(raw: Any, player: Mapping[str, Any]) -> str:
    where = "trees" if raw is None else raw
    if where not in HOST_LISTS or where not in player:
        have = " or ".join(k for k in HOST_LISTS if k in player)
        raise PadRefused(f"\"list\" must be {have}")
    return str(where)


def _index(raw: Any, size: int, what: str) -> int:
    if not isinstance(raw, int) or isinstance(raw, bool) or not 0 <= raw < size:
        raise PadRefused(f"there is no {what} {raw!r} (there {'is' if size == 1 else 'are'} "
                         f"{size}, counted from 0)")
    return raw


def _at(player: dict[str, Any], raw: Any, card: bool | None
        ) -> tuple[list[Any], int, dict[str, Any], str | None, int | None]:
    """Resolve a place ``{"list", "host", "side", "index"}`` in ``player``: the host list,
    the host's index, the host, its side (None: the host itself) and the card's index (None
    when no card is meant). ``card``: True a card is required, False a slot, None either."""
    if not isinstance(raw, dict):
        raise PadRefused("\"at\" must be an object with list, host, side and index")
    where = _list_name(raw.get("list"), player)
    hosts = player[where]
    word = "moor" if where == "moors" else "tree"
    h = _index(raw.get("host"), len(hosts), word)
    host = hosts[h]
    side = raw.get("side")
    if side is None:
        if card:
            raise PadRefused("\"side\" is needed: top, bottom, left or right")
        return hosts, h, host, None, None
    if side not in SIDES:
        raise PadRefused("\"side\" must be top, bottom, left or right")
    if card is False:
        return hosts, h, host, side, None
    stack = host.get(side, [])
    if "index" not in raw and card is None:
        return hosts, h, host, side, None
    i = _index(raw.get("index", len(stack) - 1), len(stack), f"card in the {side} slot at")
    return hosts, h, host, side, i


def apply_op(player: Mapping[str, Any], op: Mapping[str, Any]) -> dict[str, Any]:
    """The player object after one operation (the argument is left as it was); refused
    with one line when the operation names nothing that exists. ``undo`` is not here."""
    p: dict[str, Any] = copy.deepcopy(dict(player))
    kind = op.get("op")
    if kind == "add_host":
        p.setdefault("trees", []).append(_host_spec(op.get("host"), "trees"))
    elif kind == "add_moor":
        if "moors" not in p:
            raise PadRefused("moors are in the Dartmoor game only")
        p["moors"].append(_host_spec(op.get("moor"), "moors"))
    elif kind == "add_card":
        _hosts, _h, host, side, _i = _at(p, op.get("at"), False)
        if side is None:
            raise PadRefused("\"side\" is needed: top, bottom, left or right")
        host.setdefault(side, []).append(_card_spec(op.get("card")))
    elif kind == "remove":
        hosts, h, host, side, i = _at(p, op.get("at"), None)
        if side is None:
            del hosts[h]
        elif i is None:
            host.pop(side, None)
        else:
            del host[side][i]
            if not host[side]:
                del host[side]
    elif kind == "move":
        _hosts, _h, host, side, i = _at(p, op.get("at"), True)
        assert side is not None and i is not None
        card = host[side].pop(i)
        if not host[side]:
            del host[side]
        _to_hosts, _t, target, to_side, _ti = _at(p, op.get("to"), False)
        if to_side is None:
            raise PadRefused("\"to\" needs a side: top, bottom, left or right")
        target.setdefault(to_side, []).append(card)
    elif kind == "change":
        hosts, h, host, side, i = _at(p, op.get("at"), None)
        if side is None:
            where = "moors" if hosts is p.get("moors") else "trees"
            slots = {s: host[s] for s in SIDES if s in host}
            hosts[h] = {**_host_spec(op.get("host"), where), **slots}
        else:
            if i is None:
                raise PadRefused("\"index\" is needed: which card of the slot")
            host[side][i] = _card_spec(op.get("card"))
    elif kind == "set_cave":
        p["cave"] = _cave_spec(op.get("cave"))
    elif kind == "done":
        value = op.get("done", True)
        if not isinstance(value, bool):
            raise PadRefused("\"done\" must be true or false")
        return p  # the flag is the service's (it is not part of the forest)
    else:
        raise PadRefused(f"unknown entry {str(kind)[:20]!r} (one of {', '.join(OPS)})")
    return p


def _cave_spec(raw: Any) -> Any:
    if isinstance(raw, int) and not isinstance(raw, bool):
        return raw
    if isinstance(raw, dict) and raw and set(raw) <= {"number", "name", "cards"}:
        for key, value in raw.items():
            if key == "name":
                _text(value, "the cave's name")
            elif not isinstance(value, int) or isinstance(value, bool):
                raise PadRefused(f"the cave's {key} must be a whole number")
        return dict(raw)
    raise PadRefused("the cave must be a number of cards or an object with number or name "
                     "and cards")


def _symbols_to_ask(game: GameDef, name: str, symbols: list[str]) -> list[str]:
    """The tree symbols to offer when a person says which card of ``name`` it is: the
    deck's; for a provisional deck (Dartmoor), the symbols its copies are known to show,
    else any tree symbol where the copies differ (none to ask when they do not)."""
    catalog = game.catalog
    if not catalog.provisional_deck:
        return symbols if len(symbols) > 1 else []
    known = catalog.known_symbols.get(name)
    if known is not None:
        return sorted(set(known))
    return list(catalog.tree_symbols) if len(symbols) > 1 else []


def catalog_of(game: GameDef, lang: str = "en") -> dict[str, Any]:
    """What may be placed in ``game``, for the pad's page: its hosts (trees, shrubs, moors)
    and dwellers with their printed name (``printed``, English) and their name as printed
    in the ``lang`` edition (``local``; ``local_fallback`` true where no source gives one
    and it is the English name: ``docs/card-names.md``), type icons (tags), tree symbols
    (``symbol_names``: each symbol's name in ``lang``), the symbols to
    offer when a person says which card it is (``ask``: empty when there is no choice)
    and, for dwellers, the sides they go to, the host kinds they need and whether they can
    ever share a slot; the card ids of each species where the game's deck has them; the
    score-pad lines; the caves (``numbered``: Dartmoor's; ``named``: Exploration's, each
    with its words and provisional note, chosen by name). A dweller with a placement rule
    says the type it goes onto (``onto``: the Cuckoo onto a bird). The rules of what may
    share a slot stay the reader's: the page offers, the server decides. An unknown
    ``lang`` is refused (:class:`PadRefused`)."""
    try:
        lang = check_lang(lang)
    except UnknownLanguageError as exc:
        raise PadRefused(str(exc)) from None
    catalog = game.catalog
    symbols = species_symbols(game)
    cards: dict[str, list[int]] = {}
    if not catalog.provisional_deck:
        for c in catalog.cards:
            if c is None or c.kind == "winter":
                continue
            names = ([c.species.name] if c.species is not None
                     else [h.species.name for h in c.halves.values()])
            for n in names:
                cards.setdefault(n, []).append(c.id)
    hosts: list[dict[str, Any]] = []
    dwellers: list[dict[str, Any]] = []
    for sp in catalog.species.values():
        entry: dict[str, Any] = {
            "name": sp.name, "printed": sp.printed, "local": printed_name(sp, lang),
            "local_fallback": name_fact(sp, lang).fallback,
            "kind": sp.kind, "count": sp.count,
            "tags": sorted(sp.tags), "symbols": [s for s in symbols.get(sp.name, ()) if s],
            "cards": cards.get(sp.name, []),
        }
        entry["ask"] = _symbols_to_ask(game, sp.name, entry["symbols"])
        if sp.is_host:
            hosts.append(entry)
        else:
            entry["sides"] = list(sp.positions)
            entry["hosts"] = sorted(sp.hosts)
            # a placement rule of the data: only onto a slot holding a card of this type
            # (the Cuckoo onto a bird), written after it; "" for none
            entry["onto"] = sp.onto_tag
            # can it ever share a slot: stacking, joining a stack through counts_as, or
            # let in by a host permanent (the Stinging Nettle's butterflies)
            entry["stacks"] = bool(sp.stacks or sp.share_as or sp.host_shared
                                   or sp.host_joined)
            dwellers.append(entry)
    caves = {"numbered": [{"number": cv.number, "text": cv.text} for cv in catalog.caves],
             "named": [{"number": k, "name": cv.name, "text": cv.text,
                        "provisional": cv.provisional}
                       for k, cv in enumerate(catalog.named_caves, start=1)]}
    return {
        "game": game.id, "title": game.title, "lang": lang, "lines": list(game.pad_lines),
        "moors": has_moors(game), "saplings": game.turn_saplings,
        "card_ids": not catalog.provisional_deck,
        "tree_symbols": list(catalog.tree_symbols),
        # a symbol of no tree species (Exploration's Golden Palm, Bamboo): its own name
        "symbol_names": {s: printed_name(catalog.species[s], lang)
                         if s in catalog.species else s for s in catalog.tree_symbols},
        "hosts": hosts, "dwellers": dwellers, "caves": caves,
        "max_players": MAX_PLAYERS,
    }
