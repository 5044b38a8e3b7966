"""A player's forest: hosts (trees, saplings, shrubs, moors) with their slots, and the cave.

Contract: these are the values that the engine keeps and the scorer reads. A slot holds a
stack of :class:`Dweller` (bottom first). Whether a second card may join a slot is decided
by the card data alone (:meth:`Host.accepts`): a species with a ``slot_sharing`` permanent
stacks with its own kind (and with species that count as it, when the rules switch says
so), and a ``host_slot_sharing`` permanent in one slot of a host lets cards with a tag share
another slot of that host. A :class:`Host` of kind ``sapling`` has no species and no tree
symbol; it counts as a tree. A shrub is a host that is not a tree.

Dartmoor adds the host kinds ``moor`` (a moor card) and ``universal moor`` (any card face
down, no species): two top slots and two bottom slots, no side slots (:data:`LAYOUT`). The
cards on one side of a moor sit in up to two slots: cards that may share a slot (dragonflies
above Water Soldiers) fill one slot together, every other card a slot of its own. The data's
``placement`` restricts hosts (moor-only species; the Cuckoo goes only onto a slot holding a
bird, at most one a host), and a ``host_species_sharing`` permanent (Dartmoor Badger) lets
a species join occupied side slots of its host.
"""

from __future__ import annotations

from bisect import insort
from dataclasses import dataclass, field
from typing import Any, Final

from forest_shuffle.cards.model import SIDES, Card, Catalog, Species

#: Host kinds: ``tree`` and ``sapling`` count as trees, ``shrub`` does not; ``moor`` and
#: ``universal moor`` (Dartmoor) are moors.
TREE: Final = "tree"
SAPLING: Final = "sapling"
SHRUB: Final = "shrub"
MOOR: Final = "moor"
UNIVERSAL_MOOR: Final = "universal moor"
MOOR_KINDS: Final[frozenset[str]] = frozenset({MOOR, UNIVERSAL_MOOR})
_FOUR: Final = {"top": 1, "bottom": 1, "left": 1, "right": 1}
_MOOR: Final = {"top": 2, "bottom": 2, "left": 0, "right": 0}
#: Slots per side by host kind.
LAYOUT: Final[dict[str, dict[str, int]]] = {TREE: _FOUR, SAPLING: _FOUR, SHRUB: _FOUR,
                                            MOOR: _MOOR, UNIVERSAL_MOOR: _MOOR}

#: Why a host refuses a dweller (:meth:`Host.refusal`): the placement rule that forbids it.
NOT_THIS_HOST: Final = "not this host"  # the species goes only to other host kinds
NO_SIDE_SLOTS: Final = "no side slots"  # a moor has no left or right slots
NOT_THIS_SIDE: Final = "not this side"  # the species is not placed on that side
NOT_ONTO_TAG: Final = "not onto tag"  # it goes only onto a card with its onto_tag
HOST_HAS_MOST: Final = "host has most"  # the host holds max_per_host of it already
SLOTS_FULL: Final = "slots full"  # a moor's two slots on that side are taken
SLOT_TAKEN: Final = "slot taken"  # the slot holds a card it may not join
REFUSALS: Final[tuple[str, ...]] = (NOT_THIS_HOST, NO_SIDE_SLOTS, NOT_THIS_SIDE, NOT_ONTO_TAG,
                                    HOST_HAS_MOST, SLOTS_FULL, SLOT_TAKEN)


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


def empty_slots() -> dict[str, list[Dweller]]:
    """Four empty slots, in the order of :data:`SIDES`."""
    return {"top": [], "bottom": [], "left": [], "right": []}


def _group(sp: Species, joins: bool) -> str:
    return sp.share or (sp.share_as if joins else "")


@dataclass(slots=True, init=False)
class Host:
    """A tree, sapling or shrub in a forest with its four slots (side -> stack, bottom
    first). ``species`` is None for a sapling; ``symbol`` is the tree symbol the host card
    shows ("" for a sapling or when not known)."""

    species: Species | None
    card: int | None = None
    slots: dict[str, list[Dweller]] = field(default_factory=empty_slots)
    kind: str = TREE
    symbol: str = ""

    def __init__(self, species: Species | None, card: int | None = None,
                 slots: dict[str, list[Dweller]] | None = None, kind: str = TREE,
                 symbol: str = "") -> None:
        # Written out (not the dataclass's, which a compiled build runs interpreted): a
        # host is made for every tree played and for every host of a copied forest.
        self.species = species
        self.card = card
        self.slots = empty_slots() if slots is None else slots
        self.kind = kind
        self.symbol = symbol

    def __reduce__(self) -> tuple[type[Host], tuple[Any, ...]]:
        """Pickle through ``__init__`` (compiled, a class with a written ``__init__`` cannot
        be made empty and filled in)."""
        return Host, (self.species, self.card, self.slots, self.kind, self.symbol)

    @property
    def is_sapling(self) -> bool:
        return self.kind == SAPLING

    @property
    def is_tree(self) -> bool:
        """Counts as a tree (a tree card or a sapling, not a shrub or a moor)."""
        return self.kind == TREE or self.kind == SAPLING

    @property
    def is_moor(self) -> bool:
        """A moor card or a universal moor."""
        return self.kind in MOOR_KINDS

    @property
    def name(self) -> str:
        if self.species is None:
            return UNIVERSAL_MOOR if self.kind == UNIVERSAL_MOOR else "sapling"
        return self.species.name

    def capacity(self, side: str) -> int:
        """The number of slots on ``side`` (1 at a tree or shrub; a moor: 2 top, 2 bottom,
        no side slots)."""
        return LAYOUT[self.kind][side]

    def fully_occupied(self) -> bool:
        """A card in every slot: each of the four sides of a tree or shrub, both top and
        both bottom slots of a moor."""
        s = self.slots
        if self.kind in MOOR_KINDS:
            return self.slots_used("top") >= 2 and self.slots_used("bottom") >= 2
        return bool(s["top"] and s["bottom"] and s["left"] and s["right"])

    def accepts(self, species: Species, side: str, joins: bool = True) -> bool:
        """May a dweller of ``species`` be placed in the ``side`` slot now? ``joins``: a
        species that counts as a stacking one may join its stack (a rules switch)."""
        if self.kind in MOOR_KINDS or species.hosts or species.onto_tag:
            return self._accepts_placed(species, side, joins)
        # A tree, sapling or shrub and a species with no placement rule (the hot path of
        # legal moves): the same answer as _accepts_placed, with less work.
        stack = self.slots[side]
        if not stack:
            return True
        if not species.stacks:
            return False
        group = species.share or (species.share_as if joins else "")
        if group:
            for d in stack:
                ds = d.species
                if (ds.share or (ds.share_as if joins else "")) != group:
                    break
            else:
                top = species.share_max
                if top < 0 or len(stack) < top:
                    return True
        return ((species.host_shared and self._host_shares(species, side, stack))
                or (species.host_joined and self._joins(species, side, stack)))

    def _accepts_placed(self, species: Species, side: str, joins: bool) -> bool:
        """:meth:`accepts` with the placement rules of the data (host kinds, moors, a tag
        the slot must show): no :meth:`refusal`."""
        return not self.refusal(species, side, joins)

    def refusal(self, species: Species, side: str, joins: bool = True) -> str:
        """Why a dweller of ``species`` may not be placed in the ``side`` slot now: one of
        :data:`REFUSALS` (the rule that forbids it; the rules engine words it), or "" when
        it may. The one copy of the placement rules: :meth:`accepts` is its yes or no (with
        a shortcut for a tree or shrub and a species with no placement rule)."""
        if species.hosts and not species.goes_to(self.kind):
            return NOT_THIS_HOST
        stack = self.slots[side]
        if self.kind in MOOR_KINDS:
            cap = self.capacity(side)
            if cap == 0:
                return NO_SIDE_SLOTS
            if side not in species.positions:
                return NOT_THIS_SIDE
            if species.onto_tag:
                why = self._onto(species, stack)
                if why:
                    return why
                return "" if self.slots_used(side) <= cap else SLOTS_FULL
            return "" if self.slots_used(side, species) <= cap else SLOTS_FULL
        if species.onto_tag:
            return self._onto(species, stack)
        if not stack:
            return ""
        if not species.stacks:
            return SLOT_TAKEN
        group = _group(species, joins)
        if group and all(_group(d.species, joins) == group for d in stack):
            top = species.share_max
            if top < 0 or len(stack) < top:
                return ""
        if self._host_shares(species, side, stack) or self._joins(species, side, stack):
            return ""
        return SLOT_TAKEN

    def _onto(self, species: Species, stack: list[Dweller]) -> str:
        """A species placed only onto a slot holding a card with its ``onto_tag`` (the
        Cuckoo onto a bird), at most ``max_per_host`` of it at this host: its
        :meth:`refusal` ("" when it may)."""
        if not any(species.onto_tag in d.species.tags for d in stack):
            return NOT_ONTO_TAG
        most = species.max_per_host
        here = sum(1 for _s, d in self.dwellers() if d.species is species)
        return "" if most < 0 or here < most else HOST_HAS_MOST

    def _joins(self, species: Species, side: str, stack: list[Dweller]) -> bool:
        """A ``host_species_sharing`` permanent at this host (the Dartmoor Badger) lets
        its species join an occupied slot of its sides, above any first card; a slot it
        joined takes only more of it."""
        if not all(d.species is species for d in stack[1:]):
            return False
        for _s, d in self.dwellers():
            perm = d.species.permanent
            if (perm is not None and perm.op == "host_species_sharing"
                    and perm.params["species"] == species.name and side in perm.params["sides"]):
                return True
        return False

    def slots_used(self, side: str, extra: Species | None = None) -> int:
        """How many slots the cards on ``side`` fill (with ``extra`` added): the cards that
        may share one slot by a host permanent in another slot fill one slot (``max_per_slot``
        each), cards of one ``slot_sharing`` group likewise, every other card one."""
        species = [d.species for d in self.slots[side]]
        if extra is not None:
            species.append(extra)
        if not species:
            return 0
        shared: dict[str, tuple[int, int]] = {}  # group -> (cards, max a slot; -1 any)
        alone = 0
        tags = self._sharing_tags(side)
        for sp in species:
            key, top = "", 0
            for tag, most in tags:
                if tag in sp.tags:
                    key, top = "tag:" + tag, most
                    break
            if not key and sp.share:
                key, top = "sp:" + sp.share, sp.share_max
            if not key:
                alone += 1
                continue
            n, _t = shared.get(key, (0, top))
            shared[key] = (n + 1, top)
        used = alone
        for n, top in shared.values():
            used += 1 if top < 0 else -(-n // top)
        return used

    def _sharing_tags(self, side: str) -> list[tuple[str, int]]:
        """(tag, max a slot or -1) of the host_slot_sharing permanents in other slots
        that open ``side``."""
        out: list[tuple[str, int]] = []
        for other in SIDES:
            if other == side:
                continue
            for d in self.slots[other]:
                perm = d.species.permanent
                if (perm is not None and perm.op == "host_slot_sharing"
                        and perm.params["side"] == side):
                    most = perm.params["max_per_slot"]
                    out.append((str(perm.params["tag"]), -1 if most is None else int(most)))
        return out

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
        s = self.slots  # the four sides, written out (clones copy every host)
        return Host(self.species, self.card,
                    {"top": s["top"][:], "bottom": s["bottom"][:], "left": s["left"][:],
                     "right": s["right"][:]}, self.kind, self.symbol)

    @property
    def label(self) -> str:
        """``tree`` for trees, saplings and shrubs, ``moor`` for moors (the word the
        explanations and Forest JSON number hosts by)."""
        return MOOR if self.kind in MOOR_KINDS else TREE

    def dwellers(self) -> list[tuple[str, Dweller]]:
        """Every dweller at this host with its side."""
        return [(side, d) for side in SIDES for d in self.slots[side]]


@dataclass(slots=True)
class Forest:
    """One player's forest: hosts in play order (trees, shrubs, saplings and in Dartmoor
    moors: all in ``trees``), the number of cards in the cave and, in Dartmoor, the number
    of the cave drafted (0: none or not a Dartmoor forest).

    Two indexes the rules engine reads instead of rescanning the hosts: ``species_counts``
    (species name -> cards showing it, hosts and dwellers) and ``free_slots`` (side -> the
    indexes, ascending, of the hosts whose slot on that side is empty). They are built from
    ``trees`` when a forest is made (or by :meth:`reindex`) and kept by :meth:`add_host` and
    :meth:`add_dweller`, the engine's only ways of placing a card; code that changes
    ``trees`` or a slot directly must restore it (as a what-if does) or call
    :meth:`reindex`. They take no part in equality.

    ``version`` counts the changes made through those methods (and :meth:`reindex`), so a
    reader may keep what it worked out from the hosts while the number stays the same;
    ``pversion`` counts those that may change the count of a species with a permanent
    effect (a card of such a species added, any card taken out, a reindex). ``synced`` and
    ``synced_to`` are a reader's mark (the rules engine's: the ``pversion`` whose mushroom
    counts it last copied, and into which dict; ``synced_any``: whether any of them was
    above 0). None takes part in equality or in a save; a copy starts unsynced."""

    trees: list[Host] = field(default_factory=list)
    cave: int = 0
    cave_number: int = 0
    species_counts: dict[str, int] = field(default_factory=dict, compare=False, repr=False)
    free_slots: dict[str, list[int]] = field(default_factory=dict, compare=False, repr=False)
    version: int = field(default=0, compare=False, repr=False)
    pversion: int = field(default=0, compare=False, repr=False)
    synced: int = field(default=-1, compare=False, repr=False)
    synced_to: dict[str, int] | None = field(default=None, compare=False, repr=False)
    synced_any: bool = field(default=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not self.free_slots:  # not given (a copy gives both)
            self.reindex()

    def reindex(self) -> None:
        """Build :attr:`species_counts` and :attr:`free_slots` from the hosts."""
        self.version += 1
        self.pversion += 1
        self.species_counts = {}
        self.free_slots = {side: [] for side in SIDES}
        for i, t in enumerate(self.trees):
            self._index(i, t)

    def add_host(self, host: Host) -> None:
        """Put ``host`` (with what its slots hold) at the end of the forest."""
        self.version += 1
        self.trees.append(host)
        self._index(len(self.trees) - 1, host)

    def _index(self, i: int, host: Host) -> None:
        """Count host ``i`` (the last so far) and what its slots hold into the indexes."""
        counts = self.species_counts
        sp = host.species
        if sp is not None:
            name = sp.name
            counts[name] = counts.get(name, 0) + 1
            if sp.permanent is not None:
                self.pversion += 1
        free = self.free_slots
        for side, stack in host.slots.items():
            if not stack:
                free[side].append(i)
            for d in stack:
                name = d.species.name
                counts[name] = counts.get(name, 0) + 1
                if d.species.permanent is not None:
                    self.pversion += 1

    def add_dweller(self, tree: int, side: str, dweller: Dweller) -> None:
        """Put ``dweller`` on top of the ``side`` slot of host ``tree``."""
        self.version += 1
        stack = self.trees[tree].slots[side]
        if not stack:
            self.free_slots[side].remove(tree)
        stack.append(dweller)
        counts = self.species_counts
        sp = dweller.species
        name = sp.name
        counts[name] = counts.get(name, 0) + 1
        if sp.permanent is not None:
            self.pversion += 1

    def remove_last_host(self) -> Host:
        """Undo :meth:`add_host`: take the last host (with what its slots hold) out of the
        forest and its indexes, which become what they were before it was added."""
        self.version += 1
        self.pversion += 1
        host = self.trees.pop()
        counts = self.species_counts
        if host.species is not None:
            _uncount(counts, host.species.name)
        free = self.free_slots
        for side, stack in host.slots.items():
            if not stack:
                free[side].pop()  # i, the highest index, was appended last
            for d in stack:
                _uncount(counts, d.species.name)
        return host

    def remove_top_dweller(self, tree: int, side: str) -> Dweller:
        """Undo :meth:`add_dweller`: take the top card of the ``side`` slot of host
        ``tree`` out of the forest and its indexes."""
        self.version += 1
        self.pversion += 1
        stack = self.trees[tree].slots[side]
        d = stack.pop()
        if not stack:
            insort(self.free_slots[side], tree)
        _uncount(self.species_counts, d.species.name)
        return d

    def copy(self) -> Forest:
        free = self.free_slots
        return Forest([t.copy() for t in self.trees], self.cave, self.cave_number,
                      self.species_counts.copy(),
                      {"top": free["top"][:], "bottom": free["bottom"][:],
                       "left": free["left"][:], "right": free["right"][:]})

    def card_ids(self) -> list[int]:
        """Physical card ids in the forest (hosts, saplings and dwellers), where known."""
        out: list[int] = []
        for t in self.trees:
            if t.card is not None:
                out.append(t.card)
            for side in SIDES:
                out.extend(d.card for d in t.slots[side] if d.card is not None)
        return out


def _uncount(counts: dict[str, int], name: str) -> None:
    n = counts[name] - 1
    if n:
        counts[name] = n
    else:
        del counts[name]


def host_of_card(catalog: Catalog, card_id: int, sapling: bool = False) -> Host:
    """A new host for a played tree, shrub or moor card, or for any card played as a sapling
    (for a universal moor: ``Host(None, card_id, kind=UNIVERSAL_MOOR)``)."""
    card = catalog.card(card_id)
    if sapling or card.species is None:
        return Host(None, card_id, kind=SAPLING)
    return Host(card.species, card_id, kind=card.kind, symbol=card.symbol)
