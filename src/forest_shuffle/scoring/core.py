"""End-of-game scoring of a whole table of forests (every game of the base family).

Contract:

* :func:`score_table` scores every forest of a table and explains every visible card's
  points in plain words; the table is needed because Linden (majority) and Great Spotted
  Woodpecker (most trees) compare forests; ties count as most.
* :func:`totals` returns the same totals as :func:`score_table`, fast and without
  explanations (bots and benchmarks call it).
* :func:`winners` lists every index with the top total.

Scoring is driven by each species' ``points`` (rule and params, see
:data:`forest_shuffle.cards.model.POINT_RULES`), by ``counts_as`` (a card counts for the species
it counts as) and by the ``tree_count_modifier`` permanent effect; no species is known by
name here. Each species' rule is compiled once into a plan kept on the species object.
Plans and the registry that numbers them are immutable once published, so threads score
at once without a lock (:class:`_Registry`).
Saplings are trees without a species or a tree symbol; shrubs are hosts that count for no
tree-counting rule but show their printed tree symbol; a rule that reads a card's host
(``per_bottom_card``, ``bat_opposite``) with ``trees_only`` counts only hosts that are
trees (trees and saplings). A dweller whose ``symbol`` is None
counts for no tree symbol, unless every copy of its species in the deck shows the same
symbol, which is then used. The per-card split of a set (butterflies,
Fireflies, Horse Chestnuts, ...) is as even as integers allow; the set's total is exact.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from forest_shuffle.cards.forest import SHRUB, Dweller, Forest, Host
from forest_shuffle.cards.model import OPPOSITE, Species
from forest_shuffle.cards.words import article, plural
from forest_shuffle.cards.words import count as _n  # "3 birds": the one English rule

__all__ = ["CardPoints", "ForestScore", "score_table", "totals", "winners", "LINES"]

#: The four lines of the score pad, in order.
LINES: tuple[str, ...] = ("trees", "top_bottom", "left_right", "cave")
_LINE_OF_SIDE: Mapping[str, str] = {
    "top": "top_bottom", "bottom": "top_bottom", "left": "left_right", "right": "left_right",
}


@dataclass(frozen=True, init=False)
class CardPoints:
    """The points of one visible card: where it is, its species (the printed name), points
    and why."""

    where: str
    species: str
    points: int
    why: str

    def __init__(self, where: str, species: str, points: int, why: str) -> None:
        # Written out with the setter bound once (the dataclass's looks it up for each
        # field): a table's explanation makes one for every card.
        _set(self, "where", where)
        _set(self, "species", species)
        _set(self, "points", points)
        _set(self, "why", why)

    def __reduce__(self) -> tuple[type[CardPoints], tuple[str, str, int, str]]:
        """Pickle through ``__init__`` (compiled, a class with a written ``__init__`` cannot
        be made empty and filled in)."""
        return (CardPoints, (self.where, self.species, self.points, self.why))


_set: Final = object.__setattr__


class ForestScore:
    """A forest's total, its score-pad lines (adding up to ``total``) and per-card points.

    ``cards`` is given, or made on first read by ``build`` (the scorer writes the reasons
    only when they are asked for) and then kept. Equal when total, lines and cards are;
    pickles with its cards written out."""

    __slots__ = ("total", "lines", "_cards", "_build")

    total: int
    lines: dict[str, int]
    _cards: tuple[CardPoints, ...] | None
    _build: Callable[[], tuple[CardPoints, ...]] | None

    def __init__(self, total: int, lines: dict[str, int],
                 cards: tuple[CardPoints, ...] | None = None,
                 build: Callable[[], tuple[CardPoints, ...]] | None = None) -> None:
        if cards is None and build is None:
            raise ValueError("a ForestScore needs its cards or a way to build them")
        self.total = total
        self.lines = lines
        self._cards = cards
        self._build = build

    @property
    def cards(self) -> tuple[CardPoints, ...]:
        """Every visible card's points and why, in forest order (the cave last)."""
        cards = self._cards
        if cards is None:
            build = self._build
            assert build is not None
            cards = self._cards = build()
            self._build = None
        return cards

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ForestScore):
            return NotImplemented
        return (self.total == other.total and self.lines == other.lines
                and self.cards == other.cards)

    __hash__ = None  # type: ignore[assignment]  # mutable like the dataclass it replaces

    def __repr__(self) -> str:
        return f"ForestScore(total={self.total!r}, lines={self.lines!r}, cards={self.cards!r})"

    def __reduce__(self) -> tuple[type[ForestScore], tuple[int, dict[str, int],
                                                           tuple[CardPoints, ...]]]:
        return (ForestScore, (self.total, self.lines, self.cards))


# --------------------------------------------------------------------------------------
# Compiled scoring plans, one per species
# --------------------------------------------------------------------------------------

# Rules whose points depend on where each card sits (scored per card, not per count).
_PER_CARD_RULES = frozenset({
    "on_tree_species", "bat_opposite", "paired_in_slot", "per_own_tree_symbol",
    "on_host_kind", "alone_on_host",
})


def _table_lookup(raw: Mapping[str, Any]) -> tuple[int, ...]:
    """Turn ``{"1": 1, ..., "7+": 49}`` into a tuple indexed by count (last entry caps)."""
    fixed: dict[int, int] = {}
    top = 0
    for key, value in raw.items():
        k = str(key)
        n = int(k[:-1]) if k.endswith("+") else int(k)
        fixed[n] = int(value)
        top = max(top, n)
    out = [0] * (top + 1)
    last = 0
    for n in range(1, top + 1):
        last = fixed.get(n, last)
        out[n] = last
    return tuple(out)


def _lookup(table: tuple[int, ...], n: int) -> int:
    if n <= 0:
        return 0
    return table[n] if n < len(table) else table[-1]


# Rule codes of the fast path (Final: compiled code has them as constants), numbered for
# :func:`_forest_total`'s dispatch: the two most common first, the two scored by no count
# last (``code >= _PER_CARD`` finds both), and the others in two halves split at
# ``_MAJORITY``, each in order of how often the rule occurs.
_FLAT: Final = 0
_PER_TAG: Final = 1
_SET: Final = 2
_BUTTERFLY: Final = 3
_PER_SPECIES: Final = 4
_BATS: Final = 5
_REQUIRES: Final = 6
_ALL_SPECIES: Final = 7
_MAJORITY: Final = 8  # from here on: the second half of _forest_total's dispatch
_THRESHOLD: Final = 9
_MOST_TREES: Final = 10
_MIN_TREES: Final = 11
_PER_TAGS: Final = 12
_FULL: Final = 13
_OWN_SLOTS: Final = 14
_BOTTOM: Final = 15
_DISTINCT: Final = 16
_DISTINCT_TABLE: Final = 17
_SYMBOLS: Final = 18
_CAVE: Final = 19
_PER_CARD: Final = 20
_NONE: Final = 21

#: Per-card rules (code ``_PER_CARD``) by their own codes (0: a rule scored by count).
_PC_ON_TREE: Final = 1
_PC_BAT: Final = 2
_PC_PAIRED: Final = 3
_PC_SYMBOL: Final = 4
_PC_HOST_KIND: Final = 5
_PC_ALONE: Final = 6
_PC_CODES: Mapping[str, int] = {
    "on_tree_species": _PC_ON_TREE, "bat_opposite": _PC_BAT, "paired_in_slot": _PC_PAIRED,
    "per_own_tree_symbol": _PC_SYMBOL, "on_host_kind": _PC_HOST_KIND,
    "alone_on_host": _PC_ALONE,
}
_CODES: Mapping[str, int] = {
    "none": _NONE, "flat": _FLAT, "per_tag": _PER_TAG, "per_species": _PER_SPECIES,
    "per_tags": _PER_TAGS, "set_table": _SET, "butterfly_sets": _BUTTERFLY,
    "bat_variety": _BATS, "requires_species": _REQUIRES, "per_bottom_card": _BOTTOM,
    "per_fully_occupied_tree": _FULL, "per_card_in_own_slots": _OWN_SLOTS,
    "threshold_own_species": _THRESHOLD, "all_tree_species": _ALL_SPECIES,
    "majority": _MAJORITY, "most_trees": _MOST_TREES, "min_trees": _MIN_TREES,
    "on_tree_species": _PER_CARD, "bat_opposite": _PER_CARD, "paired_in_slot": _PER_CARD,
    "per_own_tree_symbol": _PER_CARD, "on_host_kind": _PER_CARD, "alone_on_host": _PER_CARD,
    "per_distinct_species": _DISTINCT, "distinct_species_table": _DISTINCT_TABLE,
    "per_tree_symbols": _SYMBOLS, "per_cave_card": _CAVE,
}


@dataclass(frozen=True, slots=True)
class _Plan:
    """A species' scoring rule compiled for speed (params pulled out into fields)."""

    species: Species
    name: str
    tags: frozenset[str]
    tag_seq: tuple[str, ...]  # the same tags, as a tuple
    is_tree: bool
    rule: str
    params: Mapping[str, Any]
    code: int
    a: int  # points_each / points_per / points_per_card
    b: int  # threshold (min_count, species_needed, min_trees, min distinct) or if-most points
    key: str  # tag or species the rule counts
    keys: tuple[str, ...]  # tags of per_tags, symbols of per_tree_symbols
    targets: tuple[str, ...]  # the species names that count for ``key`` (counts_as)
    saplings: bool  # saplings count as trees for this rule
    trees_only: bool  # only cards at hosts that are trees count (not at shrubs or moors)
    vcb: bool  # Violet Carpenter Bees raise the counted number
    ties: bool  # ties count as most
    per_card: bool  # scored card by card from where it sits (or a bee)
    compares: bool  # needs the other forests of the table
    bee_plus: int  # > 0 for species with a tree_count_modifier permanent effect
    table: tuple[int, ...]
    idx: int  # this plan's number in the registry (the index of its count in _Facts.counts)
    tag_ids: tuple[int, ...]  # the ids (_Registry.tag_ids) of ``tags``
    key_tag: int  # the id of ``key`` as a tag
    tree_key: bool  # ``key`` is "tree" (trees are counted by the forest, not by plan)
    pc: int  # the per-card rule's code (_PC_*), 0 for a rule scored by count

    def __reduce__(self) -> tuple[Callable[[], None], tuple[()]]:
        """A plan is a cache of its process: a pickled or copied species compiles anew."""
        return (_no_plan, ())


def _no_plan() -> None:
    return None


@dataclass(frozen=True, slots=True)
class _Registry:
    """Every plan compiled in this process, numbered: a forest counts its cards in a list
    of ints indexed by plan, with no dict of names (species of several catalogs live side
    by side; a species of a catalog built later gets the next numbers). Immutable: a new
    plan publishes a new registry in one assignment (:func:`_plan`), so a forest counted
    against one registry reads only plans that registry numbers (``< n``), whatever other
    threads compile meanwhile."""

    n: int  # plans numbered 0 .. n-1
    tag_ids: Mapping[str, int]  # tag -> small int id, given on first sight
    tag_plans: tuple[tuple[int, ...], ...]  # tag id -> the plans whose species have the tag
    by_name: Mapping[str, tuple[int, ...]]  # species name -> its plans (names recur)
    #: Plan number -> the plans of the species its ``targets`` name (those counting for
    #: its ``species`` param).
    targets: tuple[tuple[int, ...], ...]


#: The registry published last (read once per forest counted, replaced whole).
_REG: _Registry = _Registry(0, {}, (), {}, ())
#: Held while a plan is compiled and published (never while counting or scoring).
_LOCK: Final = threading.Lock()
#: Every plan by number (read and written with _LOCK held: what a new registry is made of).
_PLANS: Final[list[_Plan]] = []


def _compile(sp: Species) -> _Plan:
    """Compile ``sp``'s plan and publish the registry that numbers it (with _LOCK held)."""
    global _REG
    pts = sp.points
    rule = pts.rule
    if rule not in _CODES:
        raise ValueError(f"{sp.name}: no scoring for rule {rule!r}")
    reg = _REG
    tag_ids = dict(reg.tag_ids)
    tag_plans = list(reg.tag_plans)

    def tag_id(tag: str) -> int:
        i = tag_ids.get(tag)
        if i is None:
            i = tag_ids[tag] = len(tag_plans)
            tag_plans.append(())
        return i

    g = pts.params.get
    bee_plus = 0
    if sp.permanent is not None and sp.permanent.op == "tree_count_modifier":
        bee_plus = int(sp.permanent.get("plus", 1))
    code = _CODES[rule]
    a = g("points_each", g("points_per", g("points_per_card", 0)))
    b = g("min_count", g("species_needed", g("min_trees", g("min_distinct_bat_species",
                                                           g("points_each_if_most", 0)))))
    key = str(g("tag", g("species", g("tree", g("host", "")))))
    targets = sp.targets or (str(g("species", "")),)
    idx = reg.n
    plan = _Plan(
        species=sp, name=sp.name, tags=sp.tags, tag_seq=tuple(sorted(sp.tags)),
        is_tree=sp.is_tree, rule=rule,
        params=pts.params, code=code, a=int(a), b=int(b),
        key=key, keys=tuple(g("tags", g("symbols", ()))), targets=targets,
        saplings=bool(g("saplings_count", True)), trees_only=bool(g("trees_only", False)),
        vcb=bool(g("vcb_counts", False)),
        ties=bool(g("ties_count_as_most", True)),
        per_card=code == _PER_CARD or bee_plus > 0,
        compares=code in (_MAJORITY, _MOST_TREES), bee_plus=bee_plus,
        table=_table_lookup(pts.params["table"]) if "table" in pts.params else (),
        idx=idx, tag_ids=tuple(tag_id(t) for t in sorted(sp.tags)), key_tag=tag_id(key),
        tree_key=key == "tree", pc=_PC_CODES.get(rule, 0),
    )
    for t in plan.tag_ids:
        tag_plans[t] += (idx,)
    name = sp.name
    by_name = dict(reg.by_name)
    by_name[name] = by_name.get(name, ()) + (idx,)
    found = [t + (idx,) * _PLANS[i].targets.count(name) if name in _PLANS[i].targets else t
             for i, t in enumerate(reg.targets)]
    found.append(tuple([i for n in targets for i in by_name.get(n, ())]))
    _PLANS.append(plan)
    _REG = _Registry(idx + 1, tag_ids, tuple(tag_plans), by_name, tuple(found))
    return plan


def _plan(sp: Species) -> _Plan:
    """The plan of a species, compiled on first use and kept on the species object (once
    in the process, whichever threads ask: its registry is published before the plan)."""
    p = sp.plan
    if p is None:
        with _LOCK:
            p = sp.plan
            if p is None:
                p = _compile(sp)
                object.__setattr__(sp, "plan", p)
    return p  # type: ignore[no-any-return]


def _symbol(d: Dweller) -> str | None:
    if d.symbol is not None:
        return d.symbol
    return d.species.deck_symbol or None


# --------------------------------------------------------------------------------------
# Facts about one forest, gathered in a single pass
# --------------------------------------------------------------------------------------


@dataclass(slots=True, init=False)
class _Facts:
    """What one counting pass found in a forest (one per forest and call; the rare rules'
    tallies are made on first use and kept)."""

    counts: list[int]  # plan idx -> cards of that species (trees and dwellers)
    present: list[_Plan]  # the plans of the species present, in order of first sight
    trees: list[Host]  # the forest's hosts (read again only for rare rules, then kept)
    sites: int  # trees and saplings (not shrubs)
    tree_cards: int  # trees with a species
    full: int  # fully occupied trees and saplings
    bottom: int  # cards in bottom slots
    positional: list[tuple[Host, str, Dweller]]  # per-card scorers and bees
    compares: list[_Plan]  # plans present that compare with the other forests
    boost: dict[str, int]  # tree species -> bee boost at trees of that species
    boost_all: int  # bee boost to the total number of trees
    cave: int
    booster: str  # the species raising tree counts here ("" if none)
    tree_species: int  # different species of the trees (not shrubs, not saplings)
    occupied: list[Host]  # the hosts with a card in a slot, in forest order
    stacks: list[list[Dweller]]  # the non-empty slots, in forest order
    tree_names: list[str]  # the species of the trees (not shrubs, not saplings)
    shrub_symbols: list[str]  # the tree symbol each shrub shows (shrubs showing none left out)
    reg: _Registry  # the registry counted against: len(counts) == reg.n
    _symbols: list[str | None] | None = None
    _names: dict[str, int] | None = None

    @property
    def counts_by_name(self) -> dict[str, int]:
        """Species name -> cards, for every species present."""
        names = self._names
        if names is None:
            counts = self.counts
            names = self._names = {p.name: counts[p.idx] for p in self.present}
        return names

    @property
    def plans(self) -> dict[str, _Plan]:
        """Species name -> plan, for every species present."""
        return {p.name: p for p in self.present}

    def pad(self, reg: _Registry) -> None:
        """Count against ``reg``, a registry at least as new as :attr:`reg` (the plans it
        numbers beyond, compiled since, have no card here)."""
        short = reg.n - len(self.counts)
        if short > 0:
            self.counts.extend([0] * short)
        self.reg = reg

    def tag(self, tag: str, saplings: bool = True) -> int:
        """Cards with ``tag``; for ``"tree"`` saplings count unless ``saplings`` is False."""
        if tag == "tree":
            return self.sites if saplings else self.tree_cards
        i = self.reg.tag_ids.get(tag)
        return 0 if i is None else self.tag_count(i)

    def tag_count(self, tag_id: int) -> int:
        """Cards whose species has the tag of id ``tag_id`` (of :attr:`reg`)."""
        counts = self.counts
        k = 0
        for j in self.reg.tag_plans[tag_id]:
            k += counts[j]
        return k

    def own_slots(self, name: str) -> int:
        """Cards in the slots of the trees (not shrubs) of the species called ``name``."""
        k = 0
        for t in self.occupied:
            sp = t.species
            if sp is not None and sp.name == name and t.kind != SHRUB:
                s = t.slots
                k += len(s["top"]) + len(s["bottom"]) + len(s["left"]) + len(s["right"])
        return k

    def symbol_count(self, symbol: str) -> int:
        """Visible cards showing ``symbol``: tree cards of that species, shrubs showing it
        and dweller halves."""
        syms = self._symbols
        if syms is None:  # the dwellers' symbols (None: not known), kept for the next call
            syms = self._symbols = [
                d.symbol if d.symbol is not None else (d.species.deck_symbol or None)
                for stack in self.stacks for d in stack]
        k = syms.count(symbol) + self.own_slots_count(symbol)
        shrubs = self.shrub_symbols
        return k + shrubs.count(symbol) if shrubs else k

    def own_slots_count(self, tree: str) -> int:
        """Tree cards of species ``tree`` (0 for a name that is not a tree species here)."""
        return self.name_count(tree) if tree in self.tree_names else 0

    def name_count(self, name: str) -> int:
        """Cards of the species called ``name``."""
        counts = self.counts
        k = 0
        for i in self.reg.by_name.get(name, ()):
            k += counts[i]
        return k

    def below_shrubs(self) -> int:
        """Cards in the bottom slots of shrubs."""
        k = 0
        for t in self.occupied:
            if t.kind == SHRUB:
                k += len(t.slots["bottom"])
        return k

    def bottom_for(self, plan: _Plan) -> int:
        """Cards in bottom slots as the plan counts them (below trees and saplings only,
        not below shrubs, if it says ``trees_only``)."""
        if plan.trees_only and self.sites != len(self.trees):  # shrubs here
            return self.bottom - self.below_shrubs()
        return self.bottom

    def trees_for(self, plan: _Plan) -> int:
        """Number of trees as the plan counts them (saplings and bees as its params say)."""
        n = self.sites if plan.saplings else self.tree_cards
        return n + self.boost_all if plan.vcb else n

    def count_of(self, plan: _Plan) -> int:
        """Cards of the plan's ``species`` param, those counting as it included."""
        counts = self.counts
        k = 0
        for i in self.reg.targets[plan.idx]:
            k += counts[i]
        return k

    def distinct(self, tag: str) -> int:
        """Different species with ``tag`` in the forest."""
        return sum(1 for p in self.present if tag in p.tags)

    def own_count(self, plan: _Plan) -> int:
        """Cards of the plan's species, plus bees at such trees if the plan says so."""
        n = self.counts[plan.idx]
        return n + self.boost.get(plan.name, 0) if plan.vcb else n


#: The slots of a host with no dweller (compared with a host's slots, never changed).
_NO_SLOTS: Final[dict[str, list[Dweller]]] = {"top": [], "bottom": [], "left": [], "right": []}


def _add_plan(sp: Species, counts: list[int]) -> _Plan:
    """The plan of a species seen with none (``counts`` grows to hold its count)."""
    p = _plan(sp)
    short = p.idx + 1 - len(counts)
    if short > 0:
        counts.extend([0] * short)
    return p


def _facts(forest: Forest) -> _Facts:
    """Count the forest's cards by plan in one pass over its hosts. IndexError when a plan
    another thread published during the pass fell beyond ``counts``: the callers
    (:func:`_facts_of`, :func:`totals`) count again."""
    reg = _REG
    trees = forest.trees
    counts = [0] * reg.n
    present: list[_Plan] = []
    positional: list[tuple[Host, str, Dweller]] = []
    compares: list[_Plan] = []
    occupied: list[Host] = []
    stacks: list[list[Dweller]] = []
    tree_names: list[str] = []
    shrub_symbols: list[str] = []
    full = bottom = shrubs = saplings = tree_species = 0
    p: _Plan
    for t in trees:
        sp = t.species
        if sp is not None:
            p = sp.plan or _add_plan(sp, counts)
            i = p.idx
            c = counts[i]
            counts[i] = c + 1
            if t.kind != SHRUB:
                if not c:
                    present.append(p)
                    if p.compares:
                        compares.append(p)
                    tree_species += 1
                    tree_names.append(sp.name)
            else:
                if not c:
                    present.append(p)
                    if p.compares:
                        compares.append(p)
                shrubs += 1
                if t.symbol:
                    shrub_symbols.append(t.symbol)
        else:
            saplings += 1
        slots = t.slots
        top = slots["top"]
        bot = slots["bottom"]
        left = slots["left"]
        right = slots["right"]
        if not (top or bot or left or right):
            continue
        occupied.append(t)
        if top:
            stacks.append(top)
            for d in top:
                p = d.species.plan or _add_plan(d.species, counts)
                i = p.idx
                c = counts[i]
                if not c:
                    present.append(p)
                    if p.compares:
                        compares.append(p)
                counts[i] = c + 1
                if p.per_card:
                    positional.append((t, "top", d))
        if bot:
            stacks.append(bot)
            bottom += len(bot)
            for d in bot:
                p = d.species.plan or _add_plan(d.species, counts)
                i = p.idx
                c = counts[i]
                if not c:
                    present.append(p)
                    if p.compares:
                        compares.append(p)
                counts[i] = c + 1
                if p.per_card:
                    positional.append((t, "bottom", d))
        if left:
            stacks.append(left)
            for d in left:
                p = d.species.plan or _add_plan(d.species, counts)
                i = p.idx
                c = counts[i]
                if not c:
                    present.append(p)
                    if p.compares:
                        compares.append(p)
                counts[i] = c + 1
                if p.per_card:
                    positional.append((t, "left", d))
            if right and top and bot and t.kind != SHRUB:
                full += 1
        if right:
            stacks.append(right)
            for d in right:
                p = d.species.plan or _add_plan(d.species, counts)
                i = p.idx
                c = counts[i]
                if not c:
                    present.append(p)
                    if p.compares:
                        compares.append(p)
                counts[i] = c + 1
                if p.per_card:
                    positional.append((t, "right", d))
    boost: dict[str, int] = {}
    boost_all = 0
    booster = ""
    if positional:
        for t, _side, d in positional:
            plus = d.species.plan.bee_plus
            if plus and t.kind != SHRUB:  # at a shrub a bee is at no tree: it adds nothing
                boost_all += plus
                booster = d.species.name
                if t.species is not None:
                    boost[t.species.name] = boost.get(t.species.name, 0) + plus
    sites = len(trees) - shrubs
    f = _Facts()
    f.counts = counts
    f.present = present
    f.trees = trees
    f.sites = sites
    f.tree_cards = sites - saplings
    f.full = full
    f.bottom = bottom
    f.positional = positional
    f.compares = compares
    f.boost = boost
    f.boost_all = boost_all
    f.cave = forest.cave
    f.booster = booster
    f.tree_species = tree_species
    f.occupied = occupied
    f.stacks = stacks
    f.tree_names = tree_names
    f.shrub_symbols = shrub_symbols
    if len(counts) != reg.n:  # plans compiled in the pass: their registry (or a newer one)
        reg = _REG
        counts.extend([0] * (reg.n - len(counts)))
    f.reg = reg
    f._symbols = None
    f._names = None
    return f


def _tables2(f0: _Facts, f1: _Facts) -> tuple[dict[str, int], dict[str, int]]:
    """:func:`_tables` of two forests (each one's best other is the other one), the number
    each plan compares (own cards with their boost, or trees) read inline."""
    t0: dict[str, int] = {}
    t1: dict[str, int] = {}
    for f in (f0, f1):
        for p in f.compares:
            name = p.name
            if name not in t0:
                if p.code == _MAJORITY:
                    i = p.idx
                    n0 = f0.counts[i]
                    n1 = f1.counts[i]
                    if p.vcb:
                        n0 += f0.boost.get(name, 0)
                        n1 += f1.boost.get(name, 0)
                elif p.saplings:
                    n0 = f0.sites
                    n1 = f1.sites
                else:
                    n0 = f0.tree_cards
                    n1 = f1.tree_cards
                if p.vcb and p.code != _MAJORITY:
                    n0 += f0.boost_all
                    n1 += f1.boost_all
                t0[name] = n1
                t1[name] = n0
    return t0, t1


def _tables(facts: Sequence[_Facts]) -> list[dict[str, int]]:
    """For each forest: comparing species -> the best number among the other forests."""
    if len(facts) == 2:  # the common table: each forest's best other is the other one
        return list(_tables2(facts[0], facts[1]))
    out: list[dict[str, int]] = [{} for _ in facts]
    if not out:
        return out
    first = out[0]  # holds every name done
    for f in facts:
        for p in f.compares:
            name = p.name
            if name in first:
                continue
            if p.code == _MAJORITY:
                vals = [g.own_count(p) for g in facts]
            else:
                vals = [g.trees_for(p) for g in facts]
            top = max(vals)
            at = vals.index(top)
            second = max(vals[:at] + vals[at + 1:], default=0)
            for i, table in enumerate(out):
                table[name] = second if i == at else top
    return out


def _is_most(plan: _Plan, mine: int, best_other: int) -> bool:
    return mine >= best_other if plan.ties else mine > best_other


# --------------------------------------------------------------------------------------
# Per-card rules (the same code for the fast and the explained path)
# --------------------------------------------------------------------------------------


def _card_points(p: _Plan, f: _Facts, t: Host, side: str, d: Dweller) -> int:
    """Points of one dweller scored by where it sits (rules of code ``_PER_CARD``)."""
    pc = p.pc
    if pc == _PC_ON_TREE:
        host = t.species
        return p.a if host is not None and host.name == p.key else 0
    if pc == _PC_PAIRED:
        stack = t.slots[side]
        if len(stack) > 1:
            name = p.name
            k = 0
            for x in stack:
                if x.species.name == name:
                    k += 1
            if k >= 2:
                return p.a
        return 0
    if pc == _PC_BAT:
        for x in t.slots[OPPOSITE[side]]:
            if "bat" in x.species.tags:
                return 0 if t.kind == SHRUB and p.trees_only else p.a  # a shrub is no tree
        return 0
    if pc == _PC_SYMBOL:
        sym = d.symbol if d.symbol is not None else _symbol(d)
        return 0 if sym is None else p.a * f.symbol_count(sym)
    if pc == _PC_HOST_KIND:
        return p.a if t.kind == p.key else 0
    if pc == _PC_ALONE:
        s = t.slots
        alone = len(s["top"]) + len(s["bottom"]) + len(s["left"]) + len(s["right"]) == 1
        return p.a if alone else 0
    return 0


def _per_card(p: _Plan, f: _Facts, t: Host, side: str, d: Dweller) -> tuple[int, str]:
    """Points and reason of one dweller scored by where it sits (or of a bee)."""
    pts = _card_points(p, f, t, side, d)
    rule = p.rule
    if rule == "on_tree_species":
        where = "atop" if side == "top" else ("below" if side == "bottom" else "beside")
        if pts:
            return pts, f"{where} {article(p.key)}"
        return pts, f"{where} {article(_shown(t))}, not {article(p.key)}"
    if rule == "bat_opposite":
        if t.kind == SHRUB and p.trees_only:
            return pts, f"at {article(t.kind)}, which is no tree"
        bat = next((x for x in t.slots[OPPOSITE[side]] if "bat" in x.species.tags), None)
        if bat is not None:
            return pts, f"a bat ({bat.species.printed}) in the opposite slot"
        return pts, "no bat in the opposite slot"
    if rule == "paired_in_slot":
        if pts:
            return pts, f"shares its slot with another {p.species.printed}"
        return pts, "alone in its slot"
    if rule == "per_own_tree_symbol":
        sym = _symbol(d)
        if sym is None:
            return pts, "its tree symbol is not known"
        n = f.symbol_count(sym)
        return pts, f"{_n(p.a, 'point')} per card showing the {sym} symbol: {_n(n, 'card')}"
    if rule == "on_host_kind":
        if pts:
            return pts, f"on {article(p.key)}"
        here = t.kind if t.species is None else t.species.printed
        return pts, f"on {article(here)}, not {article(p.key)}"
    if rule == "alone_on_host":
        if pts:
            return pts, f"the only card at its {t.kind}"
        others = sum(len(st) for st in t.slots.values()) - 1
        return pts, f"{_n(others, 'other card')} at its {t.kind}"
    if p.bee_plus:
        plus = p.bee_plus
        if t.kind == SHRUB:
            return pts, "scores no points; a shrub is no tree, so it adds no tree here"
        if t.species is None:
            return pts, f"scores no points; at a sapling it adds {plus} to the number of trees"
        return pts, (f"scores no points; counts as +{plus} {t.species.printed} "
                     f"and +{plus} to the number of trees")
    return pts, "scores no points"


def _shown(t: Host) -> str:
    """A host as a person reads it: its printed name, or ``sapling``."""
    return t.name if t.species is None else t.species.printed


#: Tags that are symbols printed on a card rather than a kind of living thing.
_TAG_WORDS = {"alps": "Alps card", "woodland edge": "Woodland Edge card"}


def _tag(tag: str) -> str:
    """How a tag reads after "per": ``bird``, ``Alps card``."""
    return _TAG_WORDS.get(tag, tag)


# --------------------------------------------------------------------------------------
# Fast path
# --------------------------------------------------------------------------------------




def _forest_total(f: _Facts, best_other: dict[str, int]) -> int:
    """The forest's total: each species present scored by count (the rules in order of how
    often they occur), then the cards scored by where they sit."""
    total = f.cave
    counts = f.counts
    reg = f.reg
    tag_plans = reg.tag_plans
    butterflies: list[int] = []  # copies of each butterfly species (one set rule)
    butterfly_plan: _Plan | None = None
    bats = bat_kinds = 0
    bat_plan: _Plan | None = None
    p: _Plan
    for p in f.present:
        code = p.code
        n = counts[p.idx]
        if code == _FLAT:
            total += p.a * n
        elif code == _PER_TAG:  # f.tag inlined: the most common rule
            if p.tree_key:
                k = f.sites if p.saplings else f.tree_cards
            else:  # a loop: cheaper than sum(map(counts.__getitem__, ...)) for these lists
                k = 0
                for j in tag_plans[p.key_tag]:
                    k += counts[j]
            total += p.a * n * k
        elif code >= _PER_CARD:  # _PER_CARD or _NONE: nothing by count
            continue
        elif code < _MAJORITY:
            if code == _SET:
                table = p.table
                if p.vcb:
                    n += f.boost.get(p.name, 0)
                if n > 0:
                    total += table[n] if n < len(table) else table[-1]
            elif code == _BUTTERFLY:
                butterflies.append(n)
                if butterfly_plan is None or len(p.table) > len(butterfly_plan.table):
                    butterfly_plan = p
            elif code == _PER_SPECIES:  # f.count_of inlined
                k = 0
                for i in reg.targets[p.idx]:
                    k += counts[i]
                total += p.a * n * k
            elif code == _BATS:
                bats += n
                bat_kinds += 1
                bat_plan = p
            elif code == _REQUIRES:
                if f.count_of(p) >= p.b:
                    total += p.a * n
            elif f.tree_species >= p.b:  # _ALL_SPECIES
                total += p.a * n
        elif code == _MAJORITY:  # _is_most and own_count inlined
            mine = n + f.boost.get(p.name, 0) if p.vcb else n
            other = best_other.get(p.name, 0)
            total += (p.b if (mine >= other if p.ties else mine > other) else p.a) * n
        elif code == _THRESHOLD:
            if (n + f.boost.get(p.name, 0) if p.vcb else n) >= p.b:
                total += p.a * n
        elif code == _MOST_TREES:  # trees_for and _is_most inlined
            k = f.sites if p.saplings else f.tree_cards
            if p.vcb:
                k += f.boost_all
            other = best_other.get(p.name, 0)
            if k >= other if p.ties else k > other:
                total += p.a * n
        elif code == _MIN_TREES:
            k = f.sites if p.saplings else f.tree_cards
            if p.vcb:
                k += f.boost_all
            if k >= p.b:
                total += p.a * n
        elif code == _PER_TAGS:
            k = 0
            for tag in p.keys:
                k += f.tag(tag, p.saplings)
            total += p.a * n * k
        elif code == _FULL:
            total += p.a * n * f.full
        elif code == _OWN_SLOTS:
            total += p.a * f.own_slots(p.name)
        elif code == _BOTTOM:
            k = f.bottom
            if p.trees_only and f.sites != len(f.trees):  # not the cards below shrubs
                k -= f.below_shrubs()
            total += p.a * n * k
        elif code == _DISTINCT:
            total += p.a * n * f.distinct(p.key)
        elif code == _DISTINCT_TABLE:
            total += n * _lookup(p.table, f.distinct(p.key))
        elif code == _SYMBOLS:
            k = 0
            for sym in p.keys:
                k += f.symbol_count(sym)
            total += p.a * n * k
        elif code == _CAVE:
            total += p.a * n * f.cave
    if butterfly_plan is not None:
        total += _butterfly_total(butterfly_plan.table, butterflies)
    if bat_plan is not None and bat_kinds >= bat_plan.b:
        total += bat_plan.a * bats
    for t, side, d in f.positional:
        p = d.species.plan
        pc = p.pc
        if pc == _PC_ON_TREE:  # _card_points inlined for the most common per-card rule
            host = t.species
            if host is not None and host.name == p.key:
                total += p.a
        elif pc:
            total += _card_points(p, f, t, side, d)
    return total


def _butterfly_total(table: tuple[int, ...], ns: list[int]) -> int:
    """Optimal layered sets: set k holds every species with at least k copies."""
    top = max(ns, default=0)
    if top <= 1:  # one set of every species (or none)
        return _lookup(table, len(ns))
    total = 0
    last = len(table) - 1
    for k in range(1, top + 1):
        m = 0  # species with at least k copies (at least one)
        for n in ns:
            if n >= k:
                m += 1
        total += table[m] if m <= last else table[last]
    return total


def _tree_species(f: _Facts) -> int:
    return f.tree_species


def totals(forests: Sequence[Forest]) -> list[int]:
    """Each forest's total, equal to ``score_table(forests)[i].total``, without explanations
    (a game's definition names its scorer: Dartmoor's is :mod:`forest_shuffle.scoring.dartmoor`)."""
    if len(forests) == 2:  # the common table, written out (no comprehension, fewer calls)
        try:
            f0 = _facts(forests[0])
            f1 = _facts(forests[1])
        except IndexError:  # another thread published a plan meanwhile: _facts_of's way
            f0, f1 = _facts_of(forests)
        else:
            if f0.reg is not f1.reg:  # _facts_of's padding, without its list (a hot path)
                if f0.reg.n > f1.reg.n:
                    f1.pad(f0.reg)
                else:
                    f0.pad(f1.reg)
        if f0.compares or f1.compares:
            t0, t1 = _tables2(f0, f1)
            return [_forest_total(f0, t0), _forest_total(f1, t1)]
        return [_forest_total(f0, _NO_TABLE), _forest_total(f1, _NO_TABLE)]
    facts = _facts_of(forests)
    tables = _tables(facts)
    return [_forest_total(fa, ta) for fa, ta in zip(facts, tables, strict=True)]


#: The comparisons of a table where no forest has a comparing species (read, never written).
_NO_TABLE: Final[dict[str, int]] = {}


def winners(totals: Sequence[int]) -> list[int]:
    """Every index with the highest total (a tie shares the victory); [] for no players."""
    if not totals:
        return []
    best = max(totals)
    return [i for i, v in enumerate(totals) if v == best]


# --------------------------------------------------------------------------------------
# Explained path
# --------------------------------------------------------------------------------------


def _split(total: int, n: int) -> list[int]:
    """Split a set's total over its n cards as evenly as integers allow."""
    if n <= 0:
        return []
    q, r = divmod(total, n)
    return [q + 1 if i < r else q for i in range(n)]


def _bee_note(f: _Facts, name: str, p: _Plan) -> str:
    b = f.boost.get(name, 0) if p.vcb else 0
    return f" (+{b} for {plural(f.booster)})" if b else ""


#: A species' reason: the same words for every copy, or the words of copy k (a set split
#: over layers, as butterflies are).
_Why = str | list[str]


def _const(_pts: int, why: str) -> str:
    """The reason of a species whose copies all score ``_pts`` (the points themselves come
    from :func:`_walk`; the argument keeps each rule's points beside its words)."""
    return why


def _explainers(f: _Facts, table: dict[str, int], order: list[_Plan]) -> dict[str, _Why]:
    """species -> the reason of each copy for count rules (``order``: the plans present,
    hosts first, as :func:`_in_order` gives them; a ``per_card_in_own_slots`` card is
    explained by :func:`_walk`, from its host)."""
    counts = {p.name: f.counts[p.idx] for p in order}
    plans = {p.name: p for p in order}
    out: dict[str, _Why] = {}

    # Set rules: compute the per-copy split once.
    butterfly_names = [n for n in counts if plans[n].rule == "butterfly_sets"]
    bat_names = [n for n in counts if plans[n].rule == "bat_variety"]

    for names in ([butterfly_names] if butterfly_names else []):
        table_ = max((plans[bn].table for bn in names), key=len)
        layers = max(counts[bn] for bn in names)
        shares: dict[str, list[str]] = {bn: [] for bn in names}
        for k in range(1, layers + 1):
            members = [bn for bn in names if counts[bn] >= k]
            value = _lookup(table_, len(members))
            if len(members) == 1:
                why = f"in butterfly set {k} alone: a set of one species scores {value}"
            else:
                why = (f"in butterfly set {k} of {len(members)} different species, "
                       f"{value} points for the set")
            for bn in members:
                shares[bn].append(why)
        for bn in names:
            out[bn] = shares[bn]

    for names in ([bat_names] if bat_names else []):
        p0 = plans[names[0]]
        need = p0.params["min_distinct_bat_species"]
        nbats = sum(counts[bn] for bn in names)
        kinds = len(names)
        if kinds >= need:
            why = f"{_n(nbats, 'bat')} of {_n(kinds, 'species')}"
            for bn in names:
                out[bn] = _const(int(plans[bn].params["points_each"]), why)
        else:
            why = f"only {kinds} bat species, {need} needed"
            for bn in names:
                out[bn] = _const(0, why)

    for name, n in counts.items():
        if name in out:
            continue
        p = plans[name]
        rule = p.rule
        params = p.params
        if rule == "none" or p.per_card:
            out[name] = _const(0, "scores no points")
        elif rule == "flat":
            out[name] = _const(int(params["points_each"]),
                              f"{_n(params['points_each'], 'point')} each")
        elif rule == "per_tag":
            tag = params["tag"]
            sap = params.get("saplings_count", True)
            k = f.tag(tag, sap)
            extra = ""
            if tag == "tree" and sap and f.sites > f.tree_cards:
                extra = " (saplings included)"
            out[name] = _const(params["points_per"] * k,
                              f"{_n(params['points_per'], 'point')} per {_tag(tag)}: "
                              f"{_n(k, _tag(tag))}{extra}")
        elif rule == "per_tags":
            sap = params.get("saplings_count", True)
            parts = [(t, f.tag(t, sap)) for t in params["tags"]]
            k = sum(v for _t, v in parts)
            what = " and ".join(_tag(t) for t in params["tags"])
            out[name] = _const(params["points_per"] * k,
                              f"{_n(params['points_per'], 'point')} per {what}: "
                              + " + ".join(_n(v, _tag(t)) for t, v in parts))
        elif rule == "per_species":
            other = params["species"]
            k = f.count_of(p)
            out[name] = _const(params["points_per"] * k,
                              f"{_n(params['points_per'], 'point')} per {other}: {_n(k, other)}")
        elif rule == "set_table":
            eff = f.own_count(p)
            value = _lookup(p.table, eff)
            why = f"{_n(n, name)}{_bee_note(f, name, p)} score {value} together"
            out[name] = why
        elif rule == "requires_species":
            other = params["species"]
            k = f.count_of(p)
            if k >= params["min_count"]:
                out[name] = _const(int(params["points_each"]), f"{_n(k, other)} in the forest")
            else:
                out[name] = _const(0, f"no {other} in the forest" if k == 0 else
                                  f"only {_n(k, other)}, {params['min_count']} needed")
        elif rule == "per_distinct_species":
            k = f.distinct(p.key)
            out[name] = _const(p.a * k, f"{_n(p.a, 'point')} per different {p.key} species: "
                                       f"{_n(k, 'species')}")
        elif rule == "distinct_species_table":
            k = f.distinct(p.key)
            out[name] = _const(_lookup(p.table, k), f"{_n(k, 'different ' + p.key + ' species')}"
                                                   f" in the forest")
        elif rule == "per_tree_symbols":
            parts = [(sym, f.symbol_count(sym)) for sym in p.keys]
            k = sum(v for _s, v in parts)
            what = " or ".join(p.keys)
            out[name] = _const(p.a * k, f"{_n(p.a, 'point')} per card showing the {what} symbol: "
                                       + " + ".join(_n(v, sym + " card") for sym, v in parts))
        elif rule == "per_cave_card":
            out[name] = _const(p.a * f.cave, f"{_n(p.a, 'point')} per card in the cave: "
                                            f"{_n(f.cave, 'card')}")
        elif rule == "per_bottom_card":
            k = f.bottom_for(p)
            where = "below a tree" if p.trees_only else "in a bottom slot"
            out[name] = _const(params["points_per"] * k,
                              f"{_n(params['points_per'], 'point')} per card {where}: "
                              f"{_n(k, 'card')}")
        elif rule == "per_fully_occupied_tree":
            out[name] = _const(params["points_per"] * f.full,
                              f"{_n(params['points_per'], 'point')} per fully occupied tree: "
                              f"{_n(f.full, 'tree')}")
        elif rule == "per_card_in_own_slots":
            continue  # explained card by card from its host (_walk)
        elif rule == "threshold_own_species":
            eff = f.own_count(p)
            need = params["min_count"]
            desc = f"{_n(n, name)}{_bee_note(f, name, p)}"
            if eff >= need:
                out[name] = _const(int(params["points_each"]), f"{desc}: {need} needed, reached")
            else:
                out[name] = _const(0, f"only {desc}, {need} needed")
        elif rule == "all_tree_species":
            k = _tree_species(f)
            need = params["species_needed"]
            if k >= need:
                out[name] = _const(int(params["points_each"]),
                                  f"all {need} tree species in the forest")
            else:
                out[name] = _const(0, f"only {k} of {need} tree species in the forest")
        elif rule == "majority":
            mine = f.own_count(p)
            other = table.get(name, 0)
            desc = f"{_n(n, name)}{_bee_note(f, name, p)}"
            if _is_most(p, mine, other):
                out[name] = _const(int(params["points_each_if_most"]),
                                  f"{desc}, no other forest has more ({other} at most)")
            else:
                out[name] = _const(int(params["points_each"]),
                                  f"{desc}, another forest has more ({other})")
        elif rule == "most_trees":
            mine = f.trees_for(p)
            other = table.get(name, 0)
            desc = _trees_desc(f, p)
            if _is_most(p, mine, other):
                out[name] = _const(int(params["points_each"]),
                                  f"{desc}, no other forest has more ({other} at most)")
            else:
                out[name] = _const(0, f"{desc}, another forest has more ({other})")
        elif rule == "min_trees":
            need = params["min_trees"]
            desc = _trees_desc(f, p)
            if f.trees_for(p) >= need:
                out[name] = _const(int(params["points_each"]), f"{desc}: {need} needed, reached")
            else:
                out[name] = _const(0, f"only {desc}, {need} needed")
        else:
            raise ValueError(f"{name}: no scoring for rule {rule!r}")
    return out


def _trees_desc(f: _Facts, p: _Plan) -> str:
    """``10 trees (1 sapling included, +2 for Violet Carpenter Bees)`` (the booster's
    name comes from the data)."""
    notes = []
    if p.saplings and f.sites > f.tree_cards:
        notes.append(f"{_n(f.sites - f.tree_cards, 'sapling')} included")
    if p.vcb and f.boost_all:
        notes.append(f"+{f.boost_all} for {plural(f.booster)}")
    desc = _n(f.trees_for(p), "tree")
    return f"{desc} ({', '.join(notes)})" if notes else desc


def _in_order(f: _Facts) -> list[_Plan]:
    """The plans present in the order the explanations take them: host species in the
    order of the hosts, then dweller species in the order they are first seen."""
    out: list[_Plan] = []
    seen: set[int] = set()
    for t in f.trees:
        sp = t.species
        if sp is not None:
            p: _Plan = sp.plan
            if p.idx not in seen:
                seen.add(p.idx)
                out.append(p)
    if len(out) == len(f.present):
        return out
    for p in f.present:
        if p.idx not in seen:
            out.append(p)
    return out


def _each(p: _Plan, n: int, f: _Facts, table: dict[str, int]) -> int | list[int]:
    """The points of each copy of a species scored by count (a list by copy for a set
    split over its cards); the numbers :func:`_explainers` explains. Butterflies and bats
    are done by :func:`_copy_points`."""
    rule = p.rule
    params = p.params
    if rule == "none" or p.per_card or rule == "per_card_in_own_slots":
        return 0
    if rule == "flat":
        return int(params["points_each"])
    if rule == "per_tag":
        return int(params["points_per"] * f.tag(params["tag"], params.get("saplings_count", True)))
    if rule == "per_tags":
        sap = params.get("saplings_count", True)
        return int(params["points_per"] * sum(f.tag(t, sap) for t in params["tags"]))
    if rule == "per_species":
        return int(params["points_per"] * f.count_of(p))
    if rule == "set_table":
        return _split(_lookup(p.table, f.own_count(p)), n)
    if rule == "requires_species":
        return int(params["points_each"]) if f.count_of(p) >= params["min_count"] else 0
    if rule == "per_distinct_species":
        return p.a * f.distinct(p.key)
    if rule == "distinct_species_table":
        return _lookup(p.table, f.distinct(p.key))
    if rule == "per_tree_symbols":
        return p.a * sum(f.symbol_count(sym) for sym in p.keys)
    if rule == "per_cave_card":
        return p.a * f.cave
    if rule == "per_bottom_card":
        return int(params["points_per"] * f.bottom_for(p))
    if rule == "per_fully_occupied_tree":
        return int(params["points_per"] * f.full)
    if rule == "threshold_own_species":
        return int(params["points_each"]) if f.own_count(p) >= params["min_count"] else 0
    if rule == "all_tree_species":
        return int(params["points_each"]) if _tree_species(f) >= params["species_needed"] else 0
    if rule == "majority":
        most = _is_most(p, f.own_count(p), table.get(p.name, 0))
        return int(params["points_each_if_most"] if most else params["points_each"])
    if rule == "most_trees":
        return int(params["points_each"]) if _is_most(p, f.trees_for(p),
                                                      table.get(p.name, 0)) else 0
    if rule == "min_trees":
        return int(params["points_each"]) if f.trees_for(p) >= params["min_trees"] else 0
    raise ValueError(f"{p.name}: no scoring for rule {rule!r}")


def _copy_points(f: _Facts, table: dict[str, int]) -> dict[int, int | list[int]]:
    """Plan idx -> the points of each copy (an int) or of copy k (a list), for every
    species present scored by count."""
    counts = f.counts
    out: dict[int, int | list[int]] = {}
    butterflies: list[_Plan] = []
    bats: list[_Plan] = []
    p: _Plan
    for p in f.present:
        code = p.code
        if code == _BUTTERFLY:
            butterflies.append(p)
        elif code == _BATS:
            bats.append(p)
        elif p.per_card:
            out[p.idx] = 0
        elif code == _FLAT:  # the two most common rules without a call (as _forest_total)
            out[p.idx] = p.a
        elif code == _PER_TAG:
            if p.key == "tree":
                k = f.sites if p.saplings else f.tree_cards
            else:
                k = f.tag_count(p.key_tag)
            out[p.idx] = p.a * k
        else:
            out[p.idx] = _each(p, counts[p.idx], f, table)
    order = _in_order(f) if butterflies or bats else []
    if butterflies:
        names = [p for p in order if p.rule == "butterfly_sets"]
        table_ = max((p.table for p in names), key=len)
        shares: dict[int, list[int]] = {p.idx: [] for p in names}
        for k in range(1, max(counts[p.idx] for p in names) + 1):
            members = [p for p in names if counts[p.idx] >= k]
            for p, pts in zip(members, _split(_lookup(table_, len(members)), len(members)),
                              strict=True):
                shares[p.idx].append(pts)
        out.update(shares)
    if bats:
        names = [p for p in order if p.rule == "bat_variety"]
        enough = len(names) >= names[0].params["min_distinct_bat_species"]
        for p in names:
            out[p.idx] = int(p.params["points_each"]) if enough else 0
    return out


#: A visible card as the explained path keeps it until its words are asked for: host
#: number (1-based), side ("" for the host), species name, points, index among the copies
#: of its species, and its reason when it was written at once ("" otherwise).
_Card = tuple[int, str, str, int, int, str]
_SAPLING_WHY = "a sapling scores no points (it counts as a tree)"
#: The sides in order, each with its line in :func:`_walk`'s ``lines`` (1 top_bottom,
#: 2 left_right).
_SIDE_LINES: Final = (("top", 1), ("bottom", 1), ("left", 2), ("right", 2))


def _walk(f: _Facts, table: dict[str, int], lines: list[int]) -> list[_Card]:
    """Every visible card with its points, in forest order, adding them to ``lines``
    (trees, top_bottom, left_right). Reasons that read the card's host are written now;
    the others wait for :func:`_explain`."""
    each = _copy_points(f, table)
    seen: dict[int, int] = {}
    out: list[_Card] = []
    add = out.append
    trees_line = 0
    occupied = f.occupied  # the hosts with a dweller, in forest order
    j = 0
    nxt = occupied[0] if occupied else None
    for i, t in enumerate(f.trees, start=1):
        sp = t.species
        if sp is None:
            add((i, "", "sapling", 0, 0, _SAPLING_WHY))
        else:
            p: _Plan = sp.plan
            v = each[p.idx]
            if p.code == _OWN_SLOTS:
                pts, why = _own_slots(t, int(p.params["points_per_card"]))
                add((i, "", p.name, pts, 0, why))
            elif isinstance(v, int):
                add((i, "", p.name, v, 0, ""))
                pts = v
            else:
                k = seen.get(p.idx, 0)
                seen[p.idx] = k + 1
                pts = v[k]
                add((i, "", p.name, pts, k, ""))
            trees_line += pts
        if t is not nxt:
            continue
        j += 1
        nxt = occupied[j] if j < len(occupied) else None
        slots = t.slots
        for side, line in _SIDE_LINES:
            stack = slots[side]
            if not stack:
                continue
            stack_pts = 0
            for d in stack:
                p = d.species.plan
                if p.per_card:
                    pts, why = _per_card(p, f, t, side, d)
                    add((i, side, p.name, pts, 0, why))
                elif p.code == _OWN_SLOTS:
                    pts, why = _own_slots(t, int(p.params["points_per_card"]))
                    add((i, side, p.name, pts, 0, why))
                else:
                    v = each[p.idx]
                    if isinstance(v, int):
                        pts = v
                        add((i, side, p.name, pts, 0, ""))
                    else:
                        k = seen.get(p.idx, 0)
                        seen[p.idx] = k + 1
                        pts = v[k]
                        add((i, side, p.name, pts, k, ""))
                stack_pts += pts
            lines[line] += stack_pts
    lines[0] += trees_line
    return out


def _own_slots(t: Host, per: int) -> tuple[int, str]:
    k = sum(len(s) for s in t.slots.values())
    return per * k, f"{_n(per, 'point')} per card in its slots: {_n(k, 'card')}"


def _explain(f: _Facts, table: dict[str, int], walked: list[_Card]) -> tuple[CardPoints, ...]:
    """Every card's points in words (the cave last), from what :func:`_walk` kept."""
    plans = _in_order(f)
    whys = _explainers(f, table, plans)
    printed = {p.name: p.species.printed for p in plans}  # what the cards say
    cards: list[CardPoints] = []
    add = cards.append
    for i, side, name, pts, k, why in walked:
        if not why:
            w = whys[name]
            why = w if isinstance(w, str) else w[k]
        add(CardPoints(f"tree {i} {side}" if side else f"tree {i}", printed.get(name, name),
                       pts, why))
    if f.cave:
        add(CardPoints("cave", "cave", f.cave, f"{_n(f.cave, 'card')} under the cave"))
    return tuple(cards)


def _score(f: _Facts, table: dict[str, int]) -> ForestScore:
    lines = [0, 0, 0]
    walked = _walk(f, table, lines)
    cave = f.cave
    return ForestScore(lines[0] + lines[1] + lines[2] + cave,
                       {"trees": lines[0], "top_bottom": lines[1], "left_right": lines[2],
                        "cave": cave},
                       build=lambda: _explain(f, table, walked))


def _facts_of(forests: Sequence[Forest]) -> list[_Facts]:
    """The facts of every forest, all counted against one registry (the newest any of
    them read: each plan present anywhere at the table has a count in each). A pass that
    met a plan another thread published meanwhile (IndexError) is counted again; one that
    fails with no plan published meanwhile is a fault and raises."""
    while True:
        reg = _REG
        try:
            facts = [_facts(fo) for fo in forests]
            break
        except IndexError:
            if _REG is reg:
                raise
    newest = reg
    for fa in facts:
        if fa.reg.n > newest.n:
            newest = fa.reg
    for fa in facts:
        if fa.reg is not newest:
            fa.pad(newest)
    return facts


def score_table(forests: Sequence[Forest]) -> list[ForestScore]:
    """Score every forest of a table of the base family, with the four lines and every
    card's points explained (a game's definition names its scorer: Dartmoor tables go to
    :func:`forest_shuffle.scoring.dartmoor.score_table`). Totals and lines are counted at
    once; the per-card reasons are written when ``cards`` is first read."""
    facts = _facts_of(forests)
    tables = _tables(facts)
    return [_score(fa, ta) for fa, ta in zip(facts, tables, strict=True)]
