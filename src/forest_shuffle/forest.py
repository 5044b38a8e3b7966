"""A player's forest: trees and saplings with four slots each, and the cave.

Contract: these are the values that the engine keeps and the scorer reads. A slot holds a
stack of :class:`Dweller` (bottom first); only European Hares (any number, left or right)
and Common Toads (two, bottom) share a slot. :class:`TreeSite` with ``species=None`` is a
sapling: it has the Tree icon but no tree species and no tree symbol.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import CATALOG, SIDES, Card, Species

HARE = "European Hare"
TOAD = "Common Toad"


@dataclass(frozen=True, slots=True)
class Dweller:
    """The visible half of a split card in a slot.

    ``symbol`` is the tree symbol printed on that half (None when a hand-written table did
    not say); ``card`` is the physical card id when known.
    """

    species: Species
    symbol: str | None = None
    card: int | None = None

    @staticmethod
    def of_card(card: Card, side: str) -> Dweller:
        half = card.halves[side]
        return Dweller(half.species, half.symbol, card.id)


@dataclass(slots=True)
class TreeSite:
    """A tree or sapling in a forest with its four slots (side -> stack, bottom first)."""

    species: Species | None
    card: int | None = None
    slots: dict[str, list[Dweller]] = field(default_factory=lambda: {s: [] for s in SIDES})

    @property
    def is_sapling(self) -> bool:
        return self.species is None

    @property
    def name(self) -> str:
        return "sapling" if self.species is None else self.species.name

    def fully_occupied(self) -> bool:
        """At least one card on each of the four sides."""
        s = self.slots
        return bool(s["top"] and s["bottom"] and s["left"] and s["right"])

    def accepts(self, species: Species, side: str) -> bool:
        """May a dweller of ``species`` be placed in the ``side`` slot now?"""
        stack = self.slots[side]
        if not stack:
            return True
        name = species.name
        if name == HARE:
            return all(d.species.name == HARE for d in stack)
        if name == TOAD:
            return len(stack) == 1 and stack[0].species.name == TOAD
        return False

    def copy(self) -> TreeSite:
        return TreeSite(self.species, self.card, {k: v[:] for k, v in self.slots.items()})

    def dwellers(self) -> list[tuple[str, Dweller]]:
        """Every dweller at this tree with its side."""
        return [(side, d) for side in SIDES for d in self.slots[side]]


@dataclass(slots=True)
class Forest:
    """One player's forest: trees in play order and the number of cards in the cave."""

    trees: list[TreeSite] = field(default_factory=list)
    cave: int = 0

    def copy(self) -> Forest:
        return Forest([t.copy() for t in self.trees], self.cave)

    def card_ids(self) -> list[int]:
        """Physical card ids in the forest (trees, saplings and dwellers), where known."""
        out: list[int] = []
        for t in self.trees:
            if t.card is not None:
                out.append(t.card)
            for side in SIDES:
                out.extend(d.card for d in t.slots[side] if d.card is not None)
        return out


def tree_site_of_card(card_id: int, sapling: bool = False) -> TreeSite:
    """A new tree site for a played tree card, or for any card played as a sapling."""
    card = CATALOG.card(card_id)
    return TreeSite(None if sapling else card.species, card_id)
