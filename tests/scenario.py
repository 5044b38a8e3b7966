"""Shared helpers for scenario tests: find cards by species and build exact game states.

A scenario names every card it cares about; all other cards go into the box, so the
"every card in exactly one place" invariant holds in every built state.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from forest_shuffle.cards.model import SIDES, Catalog
from forest_shuffle.engine.actions import Action
from forest_shuffle.engine.options import Rules
from forest_shuffle.engine.state import D_TURN, GameState, Pending
from forest_shuffle.games import make_game

#: The base game and its numbers, as the tests of the base game read them.
BASE = make_game("base")
CATALOG = BASE.catalog
MUSHROOMS = BASE.mushrooms
HAND_LIMIT = BASE.hand_limit
CLEARING_LIMIT = BASE.clearing_limit
WINTER_CARDS_TO_END = BASE.winter_to_end
REMOVED_AT_SETUP = dict(BASE.removed_at_setup)
ALL_IDS: tuple[int, ...] = CATALOG.deck_ids
WINTER: tuple[int, ...] = tuple(c.id for c in CATALOG.cards if c is not None and c.is_winter)


def trees_of(species: str, catalog: Catalog = CATALOG) -> list[int]:
    """Ids of the host cards (trees, shrubs) of ``species``."""
    return [c.id for c in catalog.cards
            if c is not None and c.species is not None and c.species.name == species]


def halves_of(species: str, side: str | None = None,
              catalog: Catalog = CATALOG) -> list[tuple[int, str]]:
    """(card id, side) of every split-card half showing ``species`` (on ``side`` if given)."""
    out = []
    for c in catalog.cards:
        if c is None:
            continue
        for s, h in c.halves.items():
            if h.species.name == species and (side is None or s == side):
                out.append((c.id, s))
    return out


def symbol(cid: int, side: str = "") -> str:
    """The tree symbol of a tree card or of one half of a split card."""
    c = CATALOG.card(cid)
    if side:
        return c.halves[side].symbol
    assert c.species is not None
    return c.species.name


class Picker:
    """Hands out distinct card ids, so one scenario never uses a card twice."""

    def __init__(self, game: str = "base") -> None:
        self.used: set[int] = set()
        self.cat = make_game(game).catalog

    def _take(self, ids: Iterable[int]) -> int:
        for cid in ids:
            if cid not in self.used:
                self.used.add(cid)
                return cid
        raise LookupError("no card left")

    def tree(self, species: str) -> int:
        return self._take(trees_of(species, self.cat))

    def half(self, species: str, side: str | None = None, *, symbol_is: str | None = None,
             symbol_not: str | None = None) -> tuple[int, str]:
        """A card with a half of ``species``; optionally by the symbol on that half."""
        for cid, s in halves_of(species, side, self.cat):
            if cid in self.used:
                continue
            sym = self.cat.card(cid).halves[s].symbol
            if symbol_is is not None and sym != symbol_is:
                continue
            if symbol_not is not None and symbol_not in self.cat.card(cid).symbols:
                continue
            self.used.add(cid)
            return cid, s
        raise LookupError(f"no card left with {species} {side} {symbol_is} {symbol_not}")

    def card(self, species: str, side: str | None = None) -> int:
        """Just the id of a tree or split card showing ``species``."""
        if trees_of(species, self.cat):
            return self.tree(species)
        return self.half(species, side)[0]

    def fillers(self, n: int, *, avoid_symbol: str | None = None,
                trees: bool = False) -> list[int]:
        """``n`` unused cards without effects of interest: split cards (or trees) not showing
        ``avoid_symbol``."""
        out: list[int] = []
        for c in self.cat.cards:
            if len(out) == n:
                break
            if c is None or c.is_winter or c.id in self.used or c.module != "base":
                continue
            if c.is_tree != trees:
                continue
            if avoid_symbol is not None and avoid_symbol in c.symbols:
                continue
            out.append(c.id)
        assert len(out) == n, "not enough filler cards"
        self.used.update(out)
        return out

    def with_symbol(self, sym: str, n: int) -> list[int]:
        """``n`` unused split cards that show ``sym`` on at least one half."""
        out = [c.id for c in self.cat.cards
               if c is not None and not c.is_winter and not c.is_host
               and c.id not in self.used and sym in c.symbols][:n]
        assert len(out) == n
        self.used.update(out)
        return out


def site(card: int, *, sapling: bool = False,
         **slots: Sequence[int]) -> dict[str, Any]:
    """A tree (or sapling) in a forest with the card ids in its slots (bottom first)."""
    return {"card": card, "sapling": sapling,
            "slots": {s: list(slots.get(s, ())) for s in SIDES}}


def build(
    hands: Sequence[Sequence[int]],
    deck: Sequence[int] = (),
    *,
    clearing: Sequence[int] = (),
    forests: Sequence[Sequence[Mapping[str, Any]]] | None = None,
    caves: Sequence[Sequence[int]] | None = None,
    winter: Sequence[int] = (),
    current: int = 0,
    rules: Rules | None = None,
    extra_turns: int = 0,
    active: Sequence[Mapping[str, int]] | None = None,
    known: Sequence[Sequence[int]] | None = None,
    game: str = "base",
    discard: Sequence[int] = (),
    cave_numbers: Sequence[int] | None = None,
) -> GameState:
    """A state at the start of ``current``'s turn (a fresh turn decision).

    ``deck`` lists cards top last; winter cards not named in ``deck`` or ``winter`` are
    laid aside as already revealed only if listed in ``winter``, otherwise they go to the box
    (so that winter never comes up unless a test asks for it). Every card not named goes
    into the box. A game with Exploration's caves: the draft is over, ``cave_numbers``
    the caves chosen (default 1, 2, ...). Mushrooms (and other draw-on-play permanents) in
    the forests are active (played on earlier turns) unless ``active`` says otherwise.
    ``game``: the game id.
    Dartmoor (``game="dartmoor"``): the cave draft is over, ``cave_numbers`` are the caves
    chosen (default 1, 2, ...), ``discard`` the discard pile; a site with ``sapling=True``
    is a universal moor.
    """
    g = make_game(game)
    n = len(hands)
    forests = forests if forests is not None else [[] for _ in range(n)]
    caves = caves if caves is not None else [[] for _ in range(n)]
    named: list[int] = [*deck, *clearing, *winter, *discard]
    for h in hands:
        named.extend(h)
    for c in caves:
        named.extend(c)
    for f in forests:
        for t in f:
            named.append(t["card"])
            for s in SIDES:
                named.extend(t["slots"][s])
    assert len(named) == len(set(named)), f"a card is named twice: {sorted(named)}"
    box = [c for c in g.catalog.deck_ids if c not in set(named)]
    data = GameState.new(n, 0, rules, game=g).to_dict()
    if active is None:
        active = []
        for f in forests:
            counts = dict.fromkeys(g.mushrooms, 0)
            for t in f:
                host = g.catalog.card(t["card"])
                if not t["sapling"] and host.species is not None and host.species.name in counts:
                    counts[host.species.name] += 1
                for side in SIDES:
                    for cid in t["slots"][side]:
                        name = g.catalog.card(cid).halves[side].species.name
                        if name in counts:
                            counts[name] += 1
            active.append(counts)
    data.update({
        "deck": list(deck),
        "box": box,
        "clearing": list(clearing),
        "winter": list(winter),
        "hands": [list(h) for h in hands],
        "forests": [{"trees": [dict(t) for t in f]} for f in forests],
        "caves": [list(c) for c in caves],
        "known": [sorted(k) for k in known] if known is not None else [[] for _ in range(n)],
        "current": current,
        "turn": 1,
        "extra_turns": extra_turns,
        "over": False,
        "stack": [Pending(D_TURN, current).to_dict()],
        "queue": [],
        "active": [{m: int(a.get(m, 0)) for m in g.mushrooms} for a in active],
        "history": [],
    })
    if "drafted" in data:  # Exploration's caves: after the draft (caves 1, 2, ... or none)
        numbers = list(cave_numbers) if cave_numbers is not None else [
            k + 1 if k < len(g.catalog.named_caves) else 0 for k in range(n)]
        data.update({"cave_offer": [], "drafted": sum(1 for c in numbers if c)})
        for fd, number in zip(data["forests"], numbers, strict=True):
            fd["cave_number"] = number
    elif g.state_class is not None:  # Dartmoor: after the cave draft
        numbers = list(cave_numbers) if cave_numbers is not None else list(range(1, n + 1))
        data.update({"discard": list(discard), "cave_offer": [], "setup": 2 * n})
        for fd, number in zip(data["forests"], numbers, strict=True):
            fd["cave_number"] = number
            for t in fd["trees"]:
                if t["sapling"]:
                    t["universal"] = True
    return GameState.from_dict(data)


def act(state: GameState, *texts: str) -> GameState:
    """Apply actions given in their text form; return the state for chaining."""
    for t in texts:
        state.apply(Action.parse(t))
    return state


def legal(state: GameState) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def check_places(state: GameState) -> None:
    """Every one of the 161 cards is in exactly one place (no duplicates, none missing)."""
    seen: list[int] = [*state.deck, *state.box, *state.clearing, *state.winter]
    for h in state.hands:
        seen.extend(h)
    for c in state.caves:
        seen.extend(c)
    for f in state.forests:
        seen.extend(f.card_ids())
    for p in state.stack:
        if p.kind == "pay":
            seen.append(p.card)
    assert len(seen) == len(set(seen)), "a card is in two places"
    assert sorted(seen) == sorted(ALL_IDS), "a card is missing"
    assert sorted(state.locations()) == sorted(ALL_IDS)
