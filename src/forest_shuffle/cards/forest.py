"""A player's forest: hosts (trees, saplings, shrubs) with four slots each, and the cave.

Contract: these are the values that the engine keeps and the scorer reads. A slot holds a
stack of :class:`Dweller` (bottom first). Whether a second card may join a slot is decided
by the card data alone (:meth:`Host.accepts`): a species with a ``slot_sharing`` permanent
stacks with its own kind (and with species that count as it, when the rules switch says
so), and a ``host_slot_sharing`` permanent in one slot of a host lets cards with a tag share
another slot of that host. A :class:`Host` of kind ``sapling`` has no species and no tree
symbol; it counts as a tree. A shrub is a host that is not a tree.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from forest_shuffle.cards.model import SIDES, Card, Catalog, Species

#: Host kinds: ``tree`` and ``sapling`` count as trees, ``shrub`` does not.
TREE = "tree"
SAPLING = "sapling"
SHRUB = "shrub"


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


def _group(sp: Species, joins: bool) -> str:
    return sp.share or (sp.share_as if joins else "")


@dataclass(slots=True)
class Host:
    """A tree, sapling or shrub in a forest with its four slots (side -> stack, bottom
    first). ``species`` is None for a sapling; ``symbol`` is the tree symbol the host card
    shows ("" for a sapling or when not known)."""

    species: Species | None
    card: int | None = None
    slots: dict[str, list[Dweller]] = field(default_factory=lambda: {s: [] for s in SIDES})
    kind: str = TREE
    symbol: str = ""

    @property
    def is_sapling(self) -> bool:
        return self.kind == SAPLING

    @property
    def is_tree(self) -> bool:
        """Counts as a tree (a tree card or a sapling, not a shrub)."""
        return self.kind != SHRUB

    @property
    def name(self) -> str:
        return "sapling" if self.species is None else self.species.name

    def fully_occupied(self) -> bool:
        """At least one card on each of the four sides."""
        s = self.slots
        return bool(s["top"] and s["bottom"] and s["left"] and s["right"])

    def accepts(self, species: Species, side: str, joins: bool = True) -> bool:
        """May a dweller of ``species`` be placed in the ``side`` slot now? ``joins``: a
        species that counts as a stacking one may join its stack (a rules switch)."""
        stack = self.slots[side]
        if not stack:
            return True
        if not species.stacks:
            return False
        group = _group(species, joins)
        if group and all(_group(d.species, joins) == group for d in stack):
            top = species.share_max
            if top < 0 or len(stack) < top:
                return True
        return self._host_shares(species, side, stack)

    def _host_shares(self, species: Species, side: str, stack: list[Dweller]) -> bool:
        """A host permanent (Stinging Nettle) in another slot lets cards with its tag share
        ``side``."""
        for other in SIDES:
            if other == side:
                continue
            for d in self.slots[other]:
                perm = d.species.permanent
                if perm is None or perm.op != "host_slot_sharing" or perm.params["side"] != side:
                    continue
                tag = perm.params["tag"]
                top = perm.params["max_per_slot"]
                if (tag in species.tags and all(tag in x.species.tags for x in stack)
                        and (top is None or len(stack) < top)):
                    return True
        return False

    def copy(self) -> Host:
        return Host(self.species, self.card, {k: v[:] for k, v in self.slots.items()},
                    self.kind, self.symbol)

    def dwellers(self) -> list[tuple[str, Dweller]]:
        """Every dweller at this host with its side."""
        return [(side, d) for side in SIDES for d in self.slots[side]]


@dataclass(slots=True)
class Forest:
    """One player's forest: hosts in play order and the number of cards in the cave."""

    trees: list[Host] = field(default_factory=list)
    cave: int = 0

    def copy(self) -> Forest:
        return Forest([t.copy() for t in self.trees], self.cave)

    def card_ids(self) -> list[int]:
        """Physical card ids in the forest (hosts, saplings and dwellers), where known."""
        out: list[int] = []
        for t in self.trees:
            if t.card is not None:
                out.append(t.card)
            for side in SIDES:
                out.extend(d.card for d in t.slots[side] if d.card is not None)
        return out


def host_of_card(catalog: Catalog, card_id: int, sapling: bool = False) -> Host:
    """A new host for a played tree or shrub card, or for any card played as a sapling."""
    card = catalog.card(card_id)
    if sapling or card.species is None:
        return Host(None, card_id, kind=SAPLING)
    return Host(card.species, card_id, kind=card.kind, symbol=card.symbol)
