"""End-of-game scoring of a whole table of forests (every game of the base family).

Contract:

* :meth:`Scorer.score_table` (and :func:`score_table`) scores every forest of a table and
  explains every visible card's points in plain words; the table is needed because Linden
  (majority) and Great Spotted Woodpecker (most trees) compare forests; ties count as most.
* :meth:`Scorer.totals` (and :func:`totals`) returns the same totals as ``score_table``,
  fast and without explanations (bots and benchmarks call it).
* :func:`winners` lists every index with the top total.

Scoring is driven by each species' ``points`` (rule and params), by ``counts_as`` (a card
counts for the species it counts as) and by the ``tree_count_modifier`` permanent effect; no
species is known by name here. Each point rule is declared once (:class:`PointRule`,
registered with :func:`point_rule` in a vocabulary, the base family's :data:`RULES`): the
params the data loader checks, how its plan counts and its words. A game's definition holds
a :class:`Scorer` made from its catalog (:func:`scorer_for`), which compiles each species'
rule once into a plan of its own; plans and the registry that numbers them are immutable
once published, so threads score at once without a lock (:class:`_Registry`).
:func:`totals` and :func:`score_table` of this module score with a scorer made for the call
(callers with no definition: tests, tools).
Saplings are trees without a species or a tree symbol; shrubs are hosts that count for no
tree-counting rule but show their printed tree symbol; a rule that reads a card's host
(``per_bottom_card``, ``bat_opposite``) with ``trees_only`` counts only hosts that are
trees (trees and saplings). A dweller whose ``symbol`` is None
counts for no tree symbol, unless every copy of its species in the deck shows the same
symbol, which is then used. A tree card shows its species' ``tree_symbol`` and is, for
"different tree species", the first species it counts as beyond itself. A forest whose
``cave_number`` names one of the catalog's named caves (Exploration's) scores that cave by
its rule instead of 1 point per cave card. The per-card split of a set (butterflies,
Fireflies, Horse Chestnuts, ...) is as even as integers allow; the set's total is exact.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from forest_shuffle.cards.forest import SHRUB, Dweller, Forest, Host
from forest_shuffle.cards.model import OPPOSITE, Catalog, Cave, Species, declare_point_rule
from forest_shuffle.cards.words import article, plural
from forest_shuffle.cards.words import count as _n  # "3 birds": the one English rule

__all__ = ["AT_LEAST", "C_BOTTOM", "C_CAVE", "C_DISTINCT", "C_FULL", "C_OWN", "C_SYMBOLS",
           "C_TAG", "C_TAGS", "C_TARGETS", "C_TREES", "C_TREE_SPECIES", "FLAT", "LAYERS",
           "LINES", "MOST", "PER", "RULES", "TABLE_EACH", "TABLE_SET", "VARIETY", "CardPoints",
           "ForestScore", "PointRule", "Scorer", "Shape", "point_rule", "score_table",
           "scorer_for", "totals", "winners"]

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
# Point rules, declared once, and the plans a scorer compiles from them
# --------------------------------------------------------------------------------------


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


# How the fast path counts a plan (Final: compiled code has them as constants), in order of
# how often each occurs: the two most common shapes inline, the other shapes, a rule's own
# functions, a set over several species, by card.
_FLAT: Final = 0  # shape FLAT: ``a`` a copy
_PER_TAG: Final = 1  # shape PER, counter TAG: ``a`` times the cards with ``key``
_SET_OWN: Final = 2  # shape TABLE_SET, counter OWN (from here to _HALF: the first half
# of _forest_total's dispatch)
_LAYERS: Final = 3  # shape LAYERS
_PER_TARGETS: Final = 4  # shape PER, counter TARGETS
_VARIETY: Final = 5  # shape VARIETY
_AT_LEAST_TARGETS: Final = 6  # shape AT_LEAST, counter TARGETS
_AT_LEAST_SPECIES: Final = 7  # shape AT_LEAST, counter TREE_SPECIES
_HALF: Final = 8  # no plan's code: from here on the second half of the dispatch
_AT_LEAST_OWN: Final = 9  # shape AT_LEAST, counter OWN
_MOST_OWN: Final = 10  # shape MOST, counter OWN
_PER_FULL: Final = 11  # shape PER, counter FULL
_ANY_SHAPE: Final = 12  # another shape (:class:`Shape`)
_GROUP: Final = 13  # the rule's ``group_total``, once for all its species present
_EACH: Final = 14  # n times the rule's ``points`` (a copy's points, an int)
_TOTAL: Final = 15  # the rule's ``total`` (the points of all n copies)
_HOST_CARD: Final = 16  # host cards, each by the rule's ``card`` function
_CARD: Final = 17  # dwellers, each by the rule's ``card`` function (the positional pass)
_NONE: Final = 18  # nothing

# Shapes of a plan scored by count: what each copy scores, from one number the forest
# counts (a counter, below).
FLAT: Final = 0  # ``a``
PER: Final = 1  # ``a`` times the counter
AT_LEAST: Final = 2  # ``a`` if the counter is at least ``b``, else 0
TABLE_EACH: Final = 3  # the ``table`` value of the counter
TABLE_SET: Final = 4  # the ``table`` value of the counter, split over the copies
MOST: Final = 5  # ``hi`` if no other forest's counter is more (ties as the rule says), else ``lo``
# Shapes of a set over species (every plan of the shape in a forest forms one set):
LAYERS: Final = 6  # set k holds each species with k or more copies: the ``table`` value of
# its number of species, split over them (butterflies)
VARIETY: Final = 7  # each copy ``a`` if the set holds ``b`` or more species, else 0 (bats)

# Counters: what a shape counts in the forest.
C_NONE: Final = 0
C_TAG: Final = 1  # cards with the tag ``key`` (``tree``: trees, saplings if ``saplings``)
C_TAGS: Final = 2  # cards with each tag of ``keys``, added
C_TARGETS: Final = 3  # cards of the ``species`` param (those counting as it included)
C_OWN: Final = 4  # cards of the plan's species (bees at its trees too, with ``vcb_counts``)
C_TREES: Final = 5  # trees (saplings if ``saplings``; bees with ``vcb_counts``)
C_TREE_SPECIES: Final = 6  # different species of trees
C_FULL: Final = 7  # fully occupied trees
C_BOTTOM: Final = 8  # cards in bottom slots (below trees only with ``trees_only``)
C_CAVE: Final = 9  # cards in the cave
C_DISTINCT: Final = 10  # different species with the tag ``key``
C_SYMBOLS: Final = 11  # visible cards showing each symbol of ``keys``, added


#: The shapes the fast path inlines with a code of their own: (kind, counter) -> code.
_SHAPE_CODES: Final = {
    (FLAT, C_NONE): _FLAT, (PER, C_TAG): _PER_TAG, (TABLE_SET, C_OWN): _SET_OWN,
    (PER, C_TARGETS): _PER_TARGETS, (AT_LEAST, C_TARGETS): _AT_LEAST_TARGETS,
    (AT_LEAST, C_TREE_SPECIES): _AT_LEAST_SPECIES, (AT_LEAST, C_OWN): _AT_LEAST_OWN,
    (MOST, C_OWN): _MOST_OWN, (PER, C_FULL): _PER_FULL, (LAYERS, C_NONE): _LAYERS,
    (VARIETY, C_NONE): _VARIETY,
}


@dataclass(frozen=True, slots=True)
class Shape:
    """The plan of a rule scored by count in the scorer's own terms: a shape of the
    points a copy scores (:data:`FLAT` ... :data:`MOST`) and the counter it reads
    (:data:`C_TAG` ... :data:`C_SYMBOLS`); for :data:`MOST`, the params of the points with
    the most (``hi``) and without (``lo``, "": 0). Both paths (totals and the explained
    one) score a shaped rule from its shape alone; the fast path inlines it."""

    kind: int
    counter: int = C_NONE
    hi: str = ""
    lo: str = ""

#: A rule's points for the ``n`` copies of one species present, by count: each copy's
#: points (an int) or copy k's (a list, a set split over its cards). Args: plan, the
#: forest's facts, n, the best number of each comparing species among the other forests.
PointsFn = Callable[["_Plan", "_Facts", int, Mapping[str, int]], "int | list[int]"]
#: The reason of those copies, in words: the same for each (a str) or copy k's (a list).
WordsFn = Callable[["_Plan", "_Facts", int, Mapping[str, int]], "str | list[str]"]
#: A card scored by where it sits: plan, facts, its host, its side ("" for the host card
#: itself) and the dweller (None for a host card).
CardFn = Callable[["_Plan", "_Facts", Host, str, "Dweller | None"], int]
#: Its reason, given its points too.
CardWordsFn = Callable[["_Plan", "_Facts", Host, str, "Dweller | None", int], str]
#: A set scored over every species of the rule present: their plans (in the order the
#: explanations take them) and counts -> points by plan idx, as :data:`PointsFn` gives.
GroupFn = Callable[[list["_Plan"], list[int], "_Facts"], "dict[int, int | list[int]]"]
#: Its reasons by species name.
GroupWordsFn = Callable[[list["_Plan"], list[int], "_Facts"], "dict[str, str | list[str]]"]
#: The fast path's form of ``points``: the points of all n copies of one species.
TotalFn = Callable[["_Plan", "_Facts", int, Mapping[str, int]], int]
#: The fast path's form of ``group``: the points of all the rule's cards present, given
#: the rule itself, the plans of every set present (those of other rules too: it reads
#: those whose ``r`` is the rule) and the forest's counts by plan idx.
GroupTotalFn = Callable[["PointRule", list["_Plan"], list[int]], int]
#: The number a forest compares with the other forests' for this plan (most of ...).
ComparedFn = Callable[["_Plan", "_Facts"], int]
#: A check of a rule's params for the data loader: "" if fine, else the problem.
CheckFn = Callable[[Mapping[str, Any]], str]
#: A named cave's points (Exploration's caves): the cave's params and the forest's facts.
CaveFn = Callable[[Mapping[str, Any], "_Facts"], int]
#: Their reason, given the points too.
CaveWordsFn = Callable[[Mapping[str, Any], "_Facts", int], str]


@dataclass(frozen=True, slots=True)
class PointRule:
    """One point rule of a scorer's vocabulary, declared once (:func:`point_rule`): the
    params the data must give and any further ``check`` of them (the data loader's, through
    :func:`forest_shuffle.cards.model.declare_point_rule`); how its plan counts, either a
    ``shape`` (:class:`Shape`: the scorer's own terms, which both paths score and the fast
    path inlines) or its own functions (``points`` by count, with ``total`` for the fast
    path when ``points`` splits a set over its copies; ``card`` card by card; ``group`` and
    ``group_total`` over its species present; ``compared`` when it compares forests); and
    its words (``words``, ``card_words``, ``group_words``). A rule a named cave may use has
    ``cave`` (the cave's points, replacing the base cave's 1 per card) and ``cave_words``.
    A rule with none of them scores nothing."""

    name: str
    needs: tuple[str, ...] = ()
    check: CheckFn | None = None
    shape: Shape | None = None
    points: PointsFn | None = None
    words: WordsFn | None = None
    card: CardFn | None = None
    card_words: CardWordsFn | None = None
    group: GroupFn | None = None
    group_words: GroupWordsFn | None = None
    compared: ComparedFn | None = None
    total: TotalFn | None = None
    group_total: GroupTotalFn | None = None
    #: A card rule the fast path inlines (``on_tree_species``, the most common).
    on_tree: bool = False
    cave: CaveFn | None = None
    cave_words: CaveWordsFn | None = None

    def code(self, host: bool) -> int:
        """How the fast path counts it for a species (a host or not) (:data:`_FLAT` ...
        :data:`_NONE`)."""
        sh = self.shape
        if sh is not None:
            return _SHAPE_CODES.get((sh.kind, sh.counter), _ANY_SHAPE)
        if self.group is not None:
            return _GROUP
        if self.card is not None:
            return _HOST_CARD if host else _CARD
        if self.total is not None:
            return _TOTAL
        if self.points is not None:
            return _EACH
        return _NONE


def point_rule(rules: dict[str, PointRule], rule: PointRule) -> PointRule:
    """Register ``rule`` in a scorer's vocabulary ``rules`` (the base family's
    :data:`RULES`, Dartmoor's, a test's own) and declare its params to the data loader.
    ValueError if the vocabulary has a rule of that name already, or the loader knows it
    with other params."""
    if rule.name in rules:
        raise ValueError(f"point rule {rule.name!r} is registered already")
    declare_point_rule(rule.name, rule.needs, rule.check)
    rules[rule.name] = rule
    return rule


@dataclass(frozen=True, slots=True)
class _Plan:
    """A species' point rule compiled by one scorer (params pulled out into fields)."""

    species: Species
    name: str
    tags: frozenset[str]
    tag_seq: tuple[str, ...]  # the same tags, as a tuple
    is_tree: bool
    rule: str
    r: PointRule  # the rule's declaration
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
    idx: int  # this plan's number in its scorer (the index of its count in _Facts.counts)
    tag_ids: tuple[int, ...]  # the ids (_Registry.tag_ids) of ``tags``
    key_tag: int  # the id of ``key`` as a tag
    tree_key: bool  # ``key`` is "tree" (trees are counted by the forest, not by plan)
    pc: int  # 1: the fast path's inline card rule, 2: another card rule, 0: none
    fn: Any  # the fast path's function: the rule's total, points or card (None: none)
    shape: int  # the shape's kind (-1: none)
    counter: int  # the shape's counter
    hi: int  # MOST: points with the most
    lo: int  # MOST: points without
    #: Bits: 1, a tree counting as another species (Exploration's Moor Birch: "different
    #: tree species" by what it is); 2, a tree whose card shows another tree symbol than
    #: its name (Moor Birch, Palm Tree): a forest holding one counts tree symbols card by card.
    odd: int
    tree_kind: str  # a tree: the species it is one of for "different tree species" (the
    # first it counts as beyond itself: a Moor Birch is a Birch), else its name
    joins: tuple[str, ...]  # the species it counts as beyond itself (their sets take it)

    def __reduce__(self) -> tuple[Callable[[], None], tuple[()]]:
        """A plan belongs to its scorer: a pickled or copied one is not carried over."""
        return (_no_plan, ())


def _no_plan() -> None:
    return None


@dataclass(frozen=True, slots=True)
class _Registry:
    """Every plan one scorer compiled, numbered: a forest counts its cards in a list of
    ints indexed by plan, with no dict of names (species of a catalog and any others met
    live side by side; a species met later gets the next numbers). Immutable: a new plan
    publishes a new registry in one assignment (:meth:`Scorer.plan`), so a forest counted
    against one registry reads only plans that registry numbers (``< n``), whatever other
    threads compile meanwhile."""

    n: int  # plans numbered 0 .. n-1
    plans: Mapping[Species, _Plan]  # species (by identity) -> its plan
    tag_ids: Mapping[str, int]  # tag -> small int id, given on first sight
    tag_plans: tuple[tuple[int, ...], ...]  # tag id -> the plans whose species have the tag
    by_name: Mapping[str, tuple[int, ...]]  # species name -> its plans (names recur)
    #: Plan number -> the plans of the species its ``targets`` name (those counting for
    #: its ``species`` param).
    targets: tuple[tuple[int, ...], ...]
    every: tuple[_Plan, ...]  # the plans by number
    #: Species name -> the plans of the other species counting as it (``counts_as``).
    aliases: Mapping[str, tuple[int, ...]]
    #: The named caves of the scorer's catalog (``Forest.cave_number`` k: item k - 1) with
    #: the rule of each one's points; empty: a forest's cave scores 1 per card.
    caves: tuple[tuple[Cave, PointRule], ...]


_EMPTY: Final = _Registry(0, {}, {}, (), {}, (), (), {}, ())


def _compile(reg: _Registry, sp: Species, rules: Mapping[str, PointRule]) -> _Registry:
    """``reg`` with ``sp``'s plan added (a new registry; ``reg`` is left as it was)."""
    pts = sp.points
    rule = pts.rule
    r = rules.get(rule)
    if r is None:
        raise ValueError(f"{sp.name}: no scoring for rule {rule!r}")
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
    code = r.code(sp.is_host)
    sh = r.shape
    a = g("points_each", g("points_per", g("points_per_card", 0)))
    b = g("min_count", g("species_needed", g("min_trees", g("min_distinct_bat_species",
                                                           g("points_each_if_most", 0)))))
    key = str(g("tag", g("species", g("tree", g("host", "")))))
    targets = sp.targets or (str(g("species", "")),)
    idx = reg.n
    raw_table = pts.params.get("table")
    plan = _Plan(
        species=sp, name=sp.name, tags=sp.tags, tag_seq=tuple(sorted(sp.tags)),
        is_tree=sp.is_tree, rule=rule, r=r,
        params=pts.params, code=code, a=int(a), b=int(b),
        key=key, keys=tuple(g("tags", g("symbols", ()))), targets=targets,
        saplings=bool(g("saplings_count", True)), trees_only=bool(g("trees_only", False)),
        vcb=bool(g("vcb_counts", False)),
        ties=bool(g("ties_count_as_most", True)),
        per_card=code >= _HOST_CARD and code != _NONE or bee_plus > 0,
        compares=r.compared is not None or sh is not None and sh.kind == MOST,
        bee_plus=bee_plus,
        table=_table_lookup(raw_table) if isinstance(raw_table, Mapping) else (),
        idx=idx, tag_ids=tuple(tag_id(t) for t in sorted(sp.tags)), key_tag=tag_id(key),
        tree_key=key == "tree", pc=(1 if r.on_tree else 2) if r.card is not None else 0,
        fn=r.total if code == _TOTAL else r.points if code == _EACH else r.card,
        shape=-1 if sh is None else sh.kind, counter=C_NONE if sh is None else sh.counter,
        hi=int(g(sh.hi, 0)) if sh is not None and sh.hi else 0,
        lo=int(g(sh.lo, 0)) if sh is not None and sh.lo else 0,
        odd=(1 if sp.is_tree and len(sp.counts_as) > 1 else 0)
        | (2 if sp.is_tree and sp.tree_symbol != sp.name else 0),
        tree_kind=sp.counts_as[1] if sp.is_tree and len(sp.counts_as) > 1 else sp.name,
        joins=sp.counts_as[1:],
    )
    for t in plan.tag_ids:
        tag_plans[t] += (idx,)
    name = sp.name
    by_name = dict(reg.by_name)
    by_name[name] = by_name.get(name, ()) + (idx,)
    every = reg.every
    found = [t + (idx,) * every[i].targets.count(name) if name in every[i].targets else t
             for i, t in enumerate(reg.targets)]
    found.append(tuple([i for n in targets for i in by_name.get(n, ())]))
    plans = dict(reg.plans)
    plans[sp] = plan
    aliases = dict(reg.aliases)
    for other in plan.joins:
        aliases[other] = aliases.get(other, ()) + (idx,)
    return _Registry(idx + 1, plans, tag_ids, tuple(tag_plans), by_name, tuple(found),
                     every + (plan,), aliases, reg.caves)


def _symbol(d: Dweller) -> str | None:
    if d.symbol is not None:
        return d.symbol
    return d.species.deck_symbol or None



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
    positional: list[tuple[Host, str, Dweller, _Plan]]  # per-card scorers and bees
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
    #: The forest's named cave and the rule of its points (None: a base cave, 1 per card).
    named: tuple[Cave, PointRule] | None = None
    _symbols: list[str | None] | None = None
    _names: dict[str, int] | None = None
    _tree_syms: dict[str, int] | None = None
    odd_symbols: int = 0  # a tree showing another symbol than its name is here

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
        """Visible cards showing ``symbol``: tree cards showing it (their species'
        ``tree_symbol``: a Moor Birch shows the Birch), shrubs showing it and dweller
        halves."""
        syms = self._symbols
        if syms is None:  # the dwellers' symbols (None: not known), kept for the next call
            syms = self._symbols = [
                d.symbol if d.symbol is not None else (d.species.deck_symbol or None)
                for stack in self.stacks for d in stack]
        k = syms.count(symbol) + self.tree_symbol_count(symbol)
        shrubs = self.shrub_symbols
        return k + shrubs.count(symbol) if shrubs else k

    def tree_symbol_count(self, symbol: str) -> int:
        """Tree cards (not shrubs, not saplings) showing the tree symbol ``symbol``."""
        if not self.odd_symbols:  # every tree shows its own name: count by species
            return self.name_count(symbol) if symbol in self.tree_names else 0
        by_symbol = self._tree_syms
        if by_symbol is None:  # counted once a forest, kept for the next call
            by_symbol = self._tree_syms = {}
            for t in self.trees:
                sp = t.species
                if sp is not None and t.kind != SHRUB:
                    sym = sp.tree_symbol
                    by_symbol[sym] = by_symbol.get(sym, 0) + 1
        return by_symbol.get(symbol, 0)

    def set_count(self, plan: _Plan) -> int:
        """The cards of a set the plan's species scores (``own_count`` and the cards of
        the species counting as it); -1 when its cards join the set of a species it
        counts as that is present (that set scores them)."""
        reg = self.reg
        if not reg.aliases:
            return self.own_count(plan)
        counts = self.counts
        for other in plan.joins:
            for i in reg.by_name.get(other, ()):
                if counts[i] and reg.every[i].rule == plan.rule:
                    return -1
        n = self.own_count(plan)
        for i in reg.aliases.get(plan.name, ()):
            n += counts[i]
        return n

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



_NO_SLOTS: Final[dict[str, list[Dweller]]] = {"top": [], "bottom": [], "left": [], "right": []}


def _facts(sc: Scorer, forest: Forest) -> _Facts:
    """Count the forest's cards by plan in one pass over its hosts, against the scorer's
    newest registry; a species it has no plan of is compiled (:meth:`Scorer.plan`) and the
    pass made again."""
    while True:
        reg = sc.reg
        try:
            return _count(reg, forest)
        except KeyError as missing:
            sp = missing.args[0] if missing.args else None
            if not isinstance(sp, Species):
                raise
            sc.plan(sp)


def _count(reg: _Registry, forest: Forest) -> _Facts:
    """:func:`_facts` against ``reg``; KeyError naming a species it has no plan of."""
    plans = reg.plans
    trees = forest.trees
    counts = [0] * reg.n
    present: list[_Plan] = []
    positional: list[tuple[Host, str, Dweller, _Plan]] = []
    compares: list[_Plan] = []
    occupied: list[Host] = []
    stacks: list[list[Dweller]] = []
    tree_names: list[str] = []
    shrub_symbols: list[str] = []
    full = bottom = shrubs = saplings = tree_species = odd = 0
    p: _Plan
    for t in trees:
        sp = t.species
        if sp is not None:
            p = plans[sp]
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
                    if p.odd:
                        odd |= p.odd
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
                p = plans[d.species]
                i = p.idx
                c = counts[i]
                if not c:
                    present.append(p)
                    if p.compares:
                        compares.append(p)
                counts[i] = c + 1
                if p.per_card:
                    positional.append((t, "top", d, p))
        if bot:
            stacks.append(bot)
            bottom += len(bot)
            for d in bot:
                p = plans[d.species]
                i = p.idx
                c = counts[i]
                if not c:
                    present.append(p)
                    if p.compares:
                        compares.append(p)
                counts[i] = c + 1
                if p.per_card:
                    positional.append((t, "bottom", d, p))
        if left:
            stacks.append(left)
            for d in left:
                p = plans[d.species]
                i = p.idx
                c = counts[i]
                if not c:
                    present.append(p)
                    if p.compares:
                        compares.append(p)
                counts[i] = c + 1
                if p.per_card:
                    positional.append((t, "left", d, p))
            if right and top and bot and t.kind != SHRUB:
                full += 1
        if right:
            stacks.append(right)
            for d in right:
                p = plans[d.species]
                i = p.idx
                c = counts[i]
                if not c:
                    present.append(p)
                    if p.compares:
                        compares.append(p)
                counts[i] = c + 1
                if p.per_card:
                    positional.append((t, "right", d, p))
    boost: dict[str, int] = {}
    boost_all = 0
    booster = ""
    if positional:
        for t, _side, d, q in positional:
            plus = q.bee_plus
            if plus and t.kind != SHRUB:  # at a shrub a bee is at no tree: it adds nothing
                boost_all += plus
                booster = d.species.name
                if t.species is not None:
                    boost[t.species.name] = boost.get(t.species.name, 0) + plus
    sites = len(trees) - shrubs
    if odd & 1:  # a tree counting as another species: different species by what it is
        tree_species = len({plans[t.species].tree_kind for t in trees
                            if t.species is not None and t.kind != SHRUB})
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
    f.reg = reg
    f.named = None
    if reg.caves and forest.cave_number:
        number = forest.cave_number
        if number > len(reg.caves):
            raise ValueError(f"cave {number}: this game has {len(reg.caves)} named caves")
        f.named = reg.caves[number - 1]
    f._symbols = None
    f._names = None
    f._tree_syms = None
    f.odd_symbols = odd & 2
    return f



def _tables2(f0: _Facts, f1: _Facts) -> tuple[dict[str, int], dict[str, int]]:
    """:func:`_tables` of two forests (each one's best other is the other one)."""
    t0: dict[str, int] = {}
    t1: dict[str, int] = {}
    for f in (f0, f1):
        for p in f.compares:
            name = p.name
            if name not in t0:
                c = p.counter
                if c == C_OWN and p.r.compared is None:  # own_count inlined
                    i = p.idx
                    n0 = f0.counts[i]
                    n1 = f1.counts[i]
                    if p.vcb:
                        n0 += f0.boost.get(name, 0)
                        n1 += f1.boost.get(name, 0)
                elif c == C_TREES and p.r.compared is None:  # trees_for inlined
                    n0 = f0.sites if p.saplings else f0.tree_cards
                    n1 = f1.sites if p.saplings else f1.tree_cards
                    if p.vcb:
                        n0 += f0.boost_all
                        n1 += f1.boost_all
                else:
                    n0 = _compared(p, f0)
                    n1 = _compared(p, f1)
                t0[name] = n1
                t1[name] = n0
    return t0, t1


def _tables(facts: Sequence[_Facts]) -> list[dict[str, int]]:
    """For each forest: comparing species -> the best number among the other forests (the
    number each rule's ``compared`` gives)."""
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
            vals = [_compared(p, g) for g in facts]
            top = max(vals)
            at = vals.index(top)
            second = max(vals[:at] + vals[at + 1:], default=0)
            for i, table in enumerate(out):
                table[name] = second if i == at else top
    return out


def _is_most(plan: _Plan, mine: int, best_other: int) -> bool:
    return mine >= best_other if plan.ties else mine > best_other


def _compared(p: _Plan, f: _Facts) -> int:
    """The number ``f`` compares with the other forests for ``p``: its rule's ``compared``,
    else its shape's counter."""
    compared = p.r.compared
    return compared(p, f) if compared is not None else _counter(p, f)


def _counter(p: _Plan, f: _Facts) -> int:
    """The number the plan's shape counts in the forest (its counter, :data:`C_TAG` ...)."""
    c = p.counter
    if c == C_TAG:
        return f.tag(p.key, p.saplings)
    if c == C_TARGETS:
        return f.count_of(p)
    if c == C_OWN:
        return f.own_count(p)
    if c == C_TREES:
        return f.trees_for(p)
    if c == C_TREE_SPECIES:
        return f.tree_species
    if c == C_TAGS:
        k = 0
        for tag in p.keys:
            k += f.tag(tag, p.saplings)
        return k
    if c == C_FULL:
        return f.full
    if c == C_BOTTOM:
        return f.bottom_for(p)
    if c == C_CAVE:
        return f.cave
    if c == C_DISTINCT:
        return f.distinct(p.key)
    if c == C_SYMBOLS:
        k = 0
        for sym in p.keys:
            k += f.symbol_count(sym)
        return k
    return 0


def _shape_each(p: _Plan, f: _Facts, n: int, table: Mapping[str, int]) -> int | list[int]:
    """Each copy's points by the plan's shape (a list: a set split over the copies)."""
    kind = p.shape
    if kind == FLAT:
        return p.a
    k = _counter(p, f)
    if kind == PER:
        return p.a * k
    if kind == AT_LEAST:
        return p.a if k >= p.b else 0
    if kind == TABLE_EACH:
        return _lookup(p.table, k)
    if kind == TABLE_SET:
        if p.counter == C_OWN:
            k = f.set_count(p)
        return _split(_lookup(p.table, k), n)
    if kind == MOST:
        return p.hi if _is_most(p, k, table.get(p.name, 0)) else p.lo
    raise ValueError(f"{p.name}: no shape {kind}")


# --------------------------------------------------------------------------------------
# Fast path
# --------------------------------------------------------------------------------------


def _forest_total(f: _Facts, best_other: dict[str, int]) -> int:
    """The forest's total: each species present scored by count (the two most common rules
    inline, the others by their rule's functions; sets over species once for all of them),
    then the cards scored by where they sit."""
    total = f.cave if f.named is None else _cave_points(f)
    counts = f.counts
    aliases = f.reg.aliases
    groups: list[_Plan] | None = None
    layers: list[int] | None = None  # copies of each species of the LAYERS set
    layer_plan: _Plan | None = None
    variety_plan: _Plan | None = None
    varied = kinds = 0
    p: _Plan
    for p in f.present:
        code = p.code
        if code == _FLAT:
            total += p.a * counts[p.idx]
        elif code == _PER_TAG:  # f.tag inlined: the most common rule
            if p.tree_key:
                k = f.sites if p.saplings else f.tree_cards
            else:  # a loop: cheaper than sum(map(counts.__getitem__, ...)) for these lists
                k = 0
                for j in f.reg.tag_plans[p.key_tag]:
                    k += counts[j]
            total += p.a * counts[p.idx] * k
        elif code >= _CARD:  # dwellers scored by where they sit (below), or nothing
            continue
        elif code < _HALF:
            if code == _SET_OWN:  # own_count inlined
                if aliases:  # species counting as others: sets joined
                    n = f.set_count(p)
                else:
                    n = counts[p.idx]
                    if p.vcb:
                        n += f.boost.get(p.name, 0)
                if n > 0:
                    table = p.table
                    total += table[n] if n < len(table) else table[-1]
            elif code == _LAYERS:
                n = counts[p.idx]
                if layers is None:
                    layers = [n]
                    layer_plan = p
                else:
                    layers.append(n)
                    if layer_plan is None or len(p.table) > len(layer_plan.table):
                        layer_plan = p
            elif code == _PER_TARGETS:  # count_of inlined
                k = 0
                for i in f.reg.targets[p.idx]:
                    k += counts[i]
                total += p.a * counts[p.idx] * k
            elif code == _VARIETY:
                varied += counts[p.idx]
                kinds += 1
                variety_plan = p
            elif code == _AT_LEAST_TARGETS:
                k = 0
                for i in f.reg.targets[p.idx]:
                    k += counts[i]
                if k >= p.b:
                    total += p.a * counts[p.idx]
            elif f.tree_species >= p.b:  # _AT_LEAST_SPECIES
                total += p.a * counts[p.idx]
        elif code == _AT_LEAST_OWN:  # own_count inlined
            n = counts[p.idx]
            if (n + f.boost.get(p.name, 0) if p.vcb else n) >= p.b:
                total += p.a * n
        elif code == _MOST_OWN:  # own_count and _is_most inlined
            n = counts[p.idx]
            mine = n + f.boost.get(p.name, 0) if p.vcb else n
            other = best_other.get(p.name, 0)
            total += (p.hi if (mine >= other if p.ties else mine > other) else p.lo) * n
        elif code == _PER_FULL:
            total += p.a * counts[p.idx] * f.full
        elif code == _ANY_SHAPE:  # the shapes and their counters (_shape_each's numbers)
            n = counts[p.idx]
            c = p.counter
            if c == C_OWN:  # f.own_count
                k = n + f.boost.get(p.name, 0) if p.vcb else n
            elif c == C_FULL:
                k = f.full
            elif c == C_TREES:  # f.trees_for
                k = f.sites if p.saplings else f.tree_cards
                if p.vcb:
                    k += f.boost_all
            elif c == C_TAGS:
                k = 0
                for tag in p.keys:
                    k += f.tag(tag, p.saplings)
            elif c == C_BOTTOM:
                k = f.bottom
                if p.trees_only and f.sites != len(f.trees):  # not the cards below shrubs
                    k -= f.below_shrubs()
            elif c == C_DISTINCT:
                k = f.distinct(p.key)
            elif c == C_SYMBOLS:
                k = 0
                for sym in p.keys:
                    k += f.symbol_count(sym)
            elif c == C_CAVE:
                k = f.cave
            else:
                k = _counter(p, f)
            kind = p.shape
            if kind == PER:
                total += p.a * n * k
            elif kind == AT_LEAST:
                if k >= p.b:
                    total += p.a * n
            elif kind == TABLE_SET:
                if k > 0:
                    table = p.table
                    total += table[k] if k < len(table) else table[-1]
            elif kind == MOST:
                other = best_other.get(p.name, 0)
                total += (p.hi if (k >= other if p.ties else k > other) else p.lo) * n
            elif kind == TABLE_EACH:
                total += n * _lookup(p.table, k)
        elif code == _GROUP:
            if groups is None:
                groups = [p]
            else:
                groups.append(p)
        elif code == _EACH:
            n = counts[p.idx]
            each: int = p.fn(p, f, n, best_other)
            total += each * n
        elif code == _TOTAL:
            every: int = p.fn(p, f, counts[p.idx], best_other)
            total += every
        elif code == _HOST_CARD:  # host cards scored by where they are
            sp = p.species
            left = counts[p.idx]
            for t in f.trees:
                if t.species is sp:
                    pts: int = p.fn(p, f, t, "", None)
                    total += pts
                    left -= 1
                    if not left:
                        break
    if layers is not None:
        assert layer_plan is not None
        total += _layers_total(layer_plan.table, layers)
    if variety_plan is not None and kinds >= variety_plan.b:
        total += variety_plan.a * varied
    if groups is not None:
        total += _groups_total(f, groups)
    for t, side, d, p in f.positional:
        pc = p.pc
        if pc == 1:  # on_tree_species inlined: the most common card rule
            host = t.species
            if host is not None and host.name == p.key:
                total += p.a
        elif pc:
            total += p.fn(p, f, t, side, d)
    return total


def _groups_total(f: _Facts, groups: list[_Plan]) -> int:
    """The points of the sets over species (each rule's ``group_total`` once, for all its
    plans present)."""
    counts = f.counts
    r = groups[0].r
    fn = r.group_total
    assert fn is not None
    total: int = fn(r, groups, counts)
    done: list[PointRule] | None = None  # the other rules scored
    for q in groups:
        other = q.r
        if other is r:
            continue
        if done is None:
            done = [other]
        else:
            seen = False
            for x in done:
                if x is other:
                    seen = True
                    break
            if seen:
                continue
            done.append(other)
        fn = other.group_total
        assert fn is not None
        total += fn(other, groups, counts)
    return total


def winners(totals: Sequence[int]) -> list[int]:
    """Every index with the highest total (a tie shares the victory); [] for no players."""
    if not totals:
        return []
    best = max(totals)
    return [i for i, v in enumerate(totals) if v == best]


#: The comparisons of a table where no forest has a comparing species (read, never written).
_NO_TABLE: Final[dict[str, int]] = {}


# --------------------------------------------------------------------------------------
# The scorer of one definition
# --------------------------------------------------------------------------------------


class Scorer:
    """The base family's scorer for one game definition: the plans of every species of
    its catalog, compiled from its vocabulary of point rules (:data:`RULES`, or a
    vocabulary of its own) when it is made; a species met that the catalog does not hold
    (an unpickled copy, one built by hand) is compiled on first sight under the scorer's
    lock and published in a new registry (:class:`_Registry`), so threads score at once
    without a lock. Nothing is shared with another scorer."""

    __slots__ = ("rules", "reg", "_lock")

    rules: Mapping[str, PointRule]
    reg: _Registry  # the registry published last (read once per forest counted)
    _lock: threading.Lock  # held while a plan is compiled and published

    def __init__(self, catalog: Catalog | None = None,
                 rules: Mapping[str, PointRule] | None = None) -> None:
        self.rules = RULES if rules is None else rules
        self._lock = threading.Lock()
        reg = _EMPTY
        if catalog is not None:
            for sp in catalog.species.values():
                reg = _compile(reg, sp, self.rules)
            caves: list[tuple[Cave, PointRule]] = []
            for cave in catalog.named_caves:
                rule = self.rules.get(cave.points.rule) if cave.points is not None else None
                if rule is None or rule.cave is None:
                    raise ValueError(f"{cave.name}: no scoring of a cave by "
                                     f"{cave.points.rule if cave.points else None!r}")
                caves.append((cave, rule))
            if caves:
                reg = _Registry(reg.n, reg.plans, reg.tag_ids, reg.tag_plans, reg.by_name,
                                reg.targets, reg.every, reg.aliases, tuple(caves))
        self.reg = reg

    def plan(self, sp: Species) -> _Plan:
        """The plan of ``sp``, compiled on first sight (once, whichever threads ask)."""
        p = self.reg.plans.get(sp)
        if p is None:
            with self._lock:
                p = self.reg.plans.get(sp)
                if p is None:
                    reg = _compile(self.reg, sp, self.rules)
                    self.reg = reg
                    p = reg.plans[sp]
        return p

    def _facts_of(self, forests: Sequence[Forest]) -> list[_Facts]:
        """The facts of every forest, all counted against one registry (the newest any of
        them read: each plan present anywhere at the table has a count in each; a forest
        counted against an older one is padded with zeros for the plans compiled since)."""
        facts = [_facts(self, fo) for fo in forests]
        newest: _Registry | None = None
        for fa in facts:
            if newest is None or fa.reg.n > newest.n:
                newest = fa.reg
        for fa in facts:
            if fa.reg is not newest:
                assert newest is not None
                fa.pad(newest)
        return facts

    def totals(self, forests: Sequence[Forest]) -> list[int]:
        """Each forest's total, equal to ``score_table(forests)[i].total``, without
        explanations."""
        if len(forests) == 2:  # the common table, written out (no comprehension, fewer calls)
            reg = self.reg
            try:  # both against one registry
                f0 = _count(reg, forests[0])
                f1 = _count(reg, forests[1])
            except KeyError:  # a species with no plan yet: _facts_of compiles it
                f0, f1 = self._facts_of(forests)
            if f0.compares or f1.compares:
                t0, t1 = _tables2(f0, f1)
                return [_forest_total(f0, t0), _forest_total(f1, t1)]
            return [_forest_total(f0, _NO_TABLE), _forest_total(f1, _NO_TABLE)]
        facts = self._facts_of(forests)
        tables = _tables(facts)
        return [_forest_total(fa, ta) for fa, ta in zip(facts, tables, strict=True)]

    def score_table(self, forests: Sequence[Forest]) -> list[ForestScore]:
        """Score every forest of a table, with the four lines and every card's points
        explained. Totals and lines are counted at once; the per-card reasons are written
        when ``cards`` is first read."""
        facts = self._facts_of(forests)
        tables = _tables(facts)
        return [_score(fa, ta) for fa, ta in zip(facts, tables, strict=True)]


def scorer_for(catalog: Catalog, rules: Mapping[str, PointRule] | None = None) -> Scorer:
    """The scorer a definition of the base family holds (:func:`forest_shuffle.engine.game.
    make_def` asks for it): its catalog's plans, compiled now from ``rules`` (None: the
    base family's :data:`RULES`)."""
    return Scorer(catalog, rules)


def totals(forests: Sequence[Forest]) -> list[int]:
    """Each forest's total by the base family's rules, for a caller with no definition (a
    test, a tool): a scorer made for this call alone compiles the plans of the species met.
    Games score through their definition (``GameDef.totals``), which holds its scorer."""
    return Scorer().totals(forests)


def score_table(forests: Sequence[Forest]) -> list[ForestScore]:
    """Every forest's score, explained, by the base family's rules, for a caller with no
    definition (as :func:`totals`; Dartmoor tables go to its own scorer,
    :mod:`forest_shuffle.scoring.dartmoor`)."""
    return Scorer().score_table(forests)


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
    plans = f.reg.plans
    for t in f.trees:
        sp = t.species
        if sp is not None:
            p = plans[sp]
            if p.idx not in seen:
                seen.add(p.idx)
                out.append(p)
    if len(out) == len(f.present):
        return out
    for p in f.present:
        if p.idx not in seen:
            out.append(p)
    return out


def _by_rule(plans: list[_Plan]) -> list[list[_Plan]]:
    """The group plans by rule, each rule's in the order given, rules in order of first
    appearance."""
    rules: dict[str, list[_Plan]] = {}
    for p in plans:
        code = p.code
        if code in (_GROUP, _LAYERS, _VARIETY):
            rules.setdefault(p.rule, []).append(p)
    return list(rules.values())


def _copy_points(f: _Facts, table: dict[str, int]) -> dict[int, int | list[int]]:
    """Plan idx -> the points of each copy (an int) or of copy k (a list), for every
    species present scored by count (each by its rule's ``points``, sets by ``group``)."""
    counts = f.counts
    out: dict[int, int | list[int]] = {}
    grouped = False
    p: _Plan
    for p in f.present:
        code = p.code
        if code in (_GROUP, _LAYERS, _VARIETY):
            grouped = True
        elif p.per_card or code >= _HOST_CARD:
            out[p.idx] = 0
        elif p.shape >= 0:
            out[p.idx] = _shape_each(p, f, counts[p.idx], table)
        else:
            points = p.r.points
            assert points is not None
            out[p.idx] = points(p, f, counts[p.idx], table)
    if grouped:
        for members in _by_rule(_in_order(f)):
            ns = [counts[q.idx] for q in members]
            code = members[0].code
            if code == _LAYERS:
                out.update(_layers(members, ns))
            elif code == _VARIETY:
                out.update(_variety(members))
            else:
                group = members[0].r.group
                assert group is not None
                out.update(group(members, ns, f))
    return out


def _explainers(f: _Facts, table: dict[str, int], order: list[_Plan]) -> dict[str, _Why]:
    """species -> the reason of each copy for count rules (``order``: the plans present,
    hosts first, as :func:`_in_order` gives them; a card scored by where it sits is
    explained by :func:`_walk`)."""
    counts = f.counts
    out: dict[str, _Why] = {}
    for members in _by_rule(order):
        group_words = members[0].r.group_words
        assert group_words is not None
        out.update(group_words(members, [counts[q.idx] for q in members], f))
    for p in order:
        name = p.name
        if name in out:
            continue
        words = p.r.words
        if p.per_card or words is None or p.code >= _HOST_CARD:
            out[name] = "scores no points"
        else:
            out[name] = words(p, f, counts[p.idx], table)
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
    plans = f.reg.plans
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
            p = plans[sp]
            if p.pc:
                pts, why = _per_card(p, f, t, "", None)
                add((i, "", p.name, pts, 0, why))
            else:
                v = each[p.idx]
                if isinstance(v, int):
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
                p = plans[d.species]
                if p.per_card:
                    pts, why = _per_card(p, f, t, side, d)
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


def _per_card(p: _Plan, f: _Facts, t: Host, side: str, d: Dweller | None) -> tuple[int, str]:
    """Points and reason of one card scored by where it sits (its rule's ``card`` and
    ``card_words``), or of a bee (a ``tree_count_modifier`` permanent effect)."""
    card = p.r.card
    if card is not None:
        pts = card(p, f, t, side, d)
        words = p.r.card_words
        return pts, words(p, f, t, side, d, pts) if words is not None else "scores no points"
    if p.bee_plus:
        plus = p.bee_plus
        if t.kind == SHRUB:
            return 0, "scores no points; a shrub is no tree, so it adds no tree here"
        if t.species is None:
            return 0, f"scores no points; at a sapling it adds {plus} to the number of trees"
        return 0, (f"scores no points; counts as +{plus} {t.species.printed} "
                   f"and +{plus} to the number of trees")
    return 0, "scores no points"


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
    named = f.named
    if named is not None:
        cave, rule = named
        pts = _cave_points(f)
        words = rule.cave_words
        assert words is not None and cave.points is not None
        add(CardPoints("cave", cave.name, pts, words(cave.points.params, f, pts)))
    elif f.cave:
        add(CardPoints("cave", "cave", f.cave, f"{_n(f.cave, 'card')} under the cave"))
    return tuple(cards)


def _cave_points(f: _Facts) -> int:
    """The points of the forest's named cave by its rule (``f.named`` is set)."""
    named = f.named
    assert named is not None
    cave, rule = named
    fn = rule.cave
    assert fn is not None and cave.points is not None
    return fn(cave.points.params, f)


def _score(f: _Facts, table: dict[str, int]) -> ForestScore:
    lines = [0, 0, 0]
    walked = _walk(f, table, lines)
    cave = f.cave if f.named is None else _cave_points(f)
    return ForestScore(lines[0] + lines[1] + lines[2] + cave,
                       {"trees": lines[0], "top_bottom": lines[1], "left_right": lines[2],
                        "cave": cave},
                       build=lambda: _explain(f, table, walked))


# --------------------------------------------------------------------------------------
# The base family's point rules, each declared once: its params, how it counts, its words
# --------------------------------------------------------------------------------------

#: The base family's vocabulary of point rules (a scorer's default; a game with rules of
#: its own makes a scorer with its own vocabulary, as Dartmoor's scorer does).
RULES: dict[str, PointRule] = {}


def _shown(t: Host) -> str:
    """A host as a person reads it: its printed name, or ``sapling``."""
    return t.name if t.species is None else t.species.printed


#: Tags that are symbols printed on a card rather than a kind of living thing.
_TAG_WORDS = {"alps": "Alps card", "woodland edge": "Woodland Edge card"}


def _tag(tag: str) -> str:
    """How a tag reads after "per": ``bird``, ``Alps card``."""
    return _TAG_WORDS.get(tag, tag)


def _table_check(params: Mapping[str, Any]) -> str:
    """The loader's check of a ``table``: an object of counts (``"7+"``: 7 and more) to
    points."""
    table = params["table"]
    ok = isinstance(table, dict) and bool(table) and all(
        isinstance(k, str) and k.rstrip("+").isdigit() and type(v) is int
        for k, v in table.items())
    return "" if ok else "table must be an object of counts (\"7+\": 7 or more) to points"


# ----------------------------------------------------------------------------- by count

point_rule(RULES, PointRule("none"))

point_rule(RULES, PointRule(
    "flat", ("points_each",), shape=Shape(FLAT),
    words=lambda p, f, n, t: f"{_n(p.params['points_each'], 'point')} each"))


def _per_tag_words(p: _Plan, f: _Facts, n: int, t: Mapping[str, int]) -> str:
    params = p.params
    tag = params["tag"]
    sap = params.get("saplings_count", True)
    k = f.tag(tag, sap)
    extra = " (saplings included)" if tag == "tree" and sap and f.sites > f.tree_cards else ""
    return f"{_n(params['points_per'], 'point')} per {_tag(tag)}: {_n(k, _tag(tag))}{extra}"


point_rule(RULES, PointRule("per_tag", ("points_per", "tag"),
                            shape=Shape(PER, C_TAG), words=_per_tag_words))


def _per_tags_words(p: _Plan, f: _Facts, n: int, t: Mapping[str, int]) -> str:
    params = p.params
    sap = params.get("saplings_count", True)
    parts = [(x, f.tag(x, sap)) for x in params["tags"]]
    what = " and ".join(_tag(x) for x in params["tags"])
    return (f"{_n(params['points_per'], 'point')} per {what}: "
            + " + ".join(_n(v, _tag(x)) for x, v in parts))


point_rule(RULES, PointRule("per_tags", ("points_per", "tags"),
                            shape=Shape(PER, C_TAGS), words=_per_tags_words))

point_rule(RULES, PointRule(
    "per_species", ("points_per", "species"),
    shape=Shape(PER, C_TARGETS),
    words=lambda p, f, n, t: (f"{_n(p.params['points_per'], 'point')} per "
                              f"{p.params['species']}: "
                              f"{_n(f.count_of(p), p.params['species'])}")))


point_rule(RULES, PointRule(
    "set_table", ("table",), check=_table_check, shape=Shape(TABLE_SET, C_OWN),
    words=lambda p, f, n, t: _set_words(p, f, n)))


def _set_words(p: _Plan, f: _Facts, n: int) -> str:
    """``3 Fireflies score 15 together``; with cards counting as the species, how many;
    for such a card, the set it joins."""
    k = f.set_count(p)
    if k < 0:
        return f"counts as {' or '.join(p.joins)}: scored in their set"
    more = k - f.own_count(p)
    also = f" and {_n(more, 'card')} counting as {plural(p.name)}" if more > 0 else ""
    return (f"{_n(n, p.name)}{_bee_note(f, p.name, p)}{also} score "
            f"{_lookup(p.table, k)} together")


def _requires_words(p: _Plan, f: _Facts, n: int, t: Mapping[str, int]) -> str:
    other = p.params["species"]
    k = f.count_of(p)
    if k >= p.params["min_count"]:
        return f"{_n(k, other)} in the forest"
    return f"no {other} in the forest" if k == 0 else \
        f"only {_n(k, other)}, {p.params['min_count']} needed"


point_rule(RULES, PointRule(
    "requires_species", ("points_each", "species", "min_count"),
    shape=Shape(AT_LEAST, C_TARGETS), words=_requires_words))

point_rule(RULES, PointRule(
    "per_distinct_species", ("points_per", "tag"),
    shape=Shape(PER, C_DISTINCT),
    words=lambda p, f, n, t: (f"{_n(p.a, 'point')} per different {p.key} species: "
                              f"{_n(f.distinct(p.key), 'species')}")))

point_rule(RULES, PointRule(
    "distinct_species_table", ("tag", "table"), check=_table_check,
    shape=Shape(TABLE_EACH, C_DISTINCT),
    words=lambda p, f, n, t: (f"{_n(f.distinct(p.key), 'different ' + p.key + ' species')}"
                              " in the forest")))


def _symbols_words(p: _Plan, f: _Facts, n: int, t: Mapping[str, int]) -> str:
    parts = [(sym, f.symbol_count(sym)) for sym in p.keys]
    what = " or ".join(p.keys)
    return (f"{_n(p.a, 'point')} per card showing the {what} symbol: "
            + " + ".join(_n(v, sym + " card") for sym, v in parts))


point_rule(RULES, PointRule(
    "per_tree_symbols", ("points_per", "symbols"),
    shape=Shape(PER, C_SYMBOLS),
    words=_symbols_words))

point_rule(RULES, PointRule(
    "per_cave_card", ("points_per",),
    shape=Shape(PER, C_CAVE),
    words=lambda p, f, n, t: (f"{_n(p.a, 'point')} per card in the cave: "
                              f"{_n(f.cave, 'card')}"),
    cave=lambda params, f: int(params["points_per"]) * f.cave,
    cave_words=lambda params, f, pts: (f"{_n(int(params['points_per']), 'point')} per card "
                                       f"in this cave: {_n(f.cave, 'card')}")))


def _bottom_words(p: _Plan, f: _Facts, n: int, t: Mapping[str, int]) -> str:
    where = "below a tree" if p.trees_only else "in a bottom slot"
    return (f"{_n(p.params['points_per'], 'point')} per card {where}: "
            f"{_n(f.bottom_for(p), 'card')}")


point_rule(RULES, PointRule(
    "per_bottom_card", ("points_per",),
    shape=Shape(PER, C_BOTTOM),
    words=_bottom_words))

point_rule(RULES, PointRule(
    "per_fully_occupied_tree", ("points_per",),
    shape=Shape(PER, C_FULL),
    words=lambda p, f, n, t: (f"{_n(p.params['points_per'], 'point')} per fully occupied "
                              f"tree: {_n(f.full, 'tree')}")))


def _threshold_words(p: _Plan, f: _Facts, n: int, t: Mapping[str, int]) -> str:
    need = p.params["min_count"]
    desc = f"{_n(n, p.name)}{_bee_note(f, p.name, p)}"
    if f.own_count(p) >= need:
        return f"{desc}: {need} needed, reached"
    return f"only {desc}, {need} needed"


point_rule(RULES, PointRule(
    "threshold_own_species", ("points_each", "min_count"),
    shape=Shape(AT_LEAST, C_OWN), words=_threshold_words))


def _all_trees_words(p: _Plan, f: _Facts, n: int, t: Mapping[str, int]) -> str:
    k = f.tree_species
    need = p.params["species_needed"]
    if k >= need:
        return f"all {need} tree species in the forest"
    return f"only {k} of {need} tree species in the forest"


point_rule(RULES, PointRule(
    "all_tree_species", ("points_each", "species_needed"),
    shape=Shape(AT_LEAST, C_TREE_SPECIES), words=_all_trees_words))


def _majority_words(p: _Plan, f: _Facts, n: int, t: Mapping[str, int]) -> str:
    other = t.get(p.name, 0)
    desc = f"{_n(n, p.name)}{_bee_note(f, p.name, p)}"
    if _is_most(p, f.own_count(p), other):
        return f"{desc}, no other forest has more ({other} at most)"
    return f"{desc}, another forest has more ({other})"


point_rule(RULES, PointRule(
    "majority", ("points_each", "points_each_if_most"),
    shape=Shape(MOST, C_OWN, hi="points_each_if_most", lo="points_each"),
    words=_majority_words))


def _most_trees_words(p: _Plan, f: _Facts, n: int, t: Mapping[str, int]) -> str:
    other = t.get(p.name, 0)
    desc = _trees_desc(f, p)
    if _is_most(p, f.trees_for(p), other):
        return f"{desc}, no other forest has more ({other} at most)"
    return f"{desc}, another forest has more ({other})"


point_rule(RULES, PointRule(
    "most_trees", ("points_each",),
    shape=Shape(MOST, C_TREES, hi="points_each"), words=_most_trees_words))


def _min_trees_words(p: _Plan, f: _Facts, n: int, t: Mapping[str, int]) -> str:
    need = p.params["min_trees"]
    desc = _trees_desc(f, p)
    if f.trees_for(p) >= need:
        return f"{desc}: {need} needed, reached"
    return f"only {desc}, {need} needed"


point_rule(RULES, PointRule(
    "min_trees", ("points_each", "min_trees"),
    shape=Shape(AT_LEAST, C_TREES), words=_min_trees_words))

# ----------------------------------------------------------------------------- sets


def _layers(plans: list[_Plan], counts: list[int]) -> dict[int, int | list[int]]:
    """Shape LAYERS, copy by copy: set k holds every species with at least k copies, its
    table value split over its cards."""
    table = max((p.table for p in plans), key=len)
    shares: dict[int, int | list[int]] = {}
    lists: dict[int, list[int]] = {p.idx: [] for p in plans}
    for k in range(1, max(counts) + 1):
        members = [p for p, c in zip(plans, counts, strict=True) if c >= k]
        for p, pts in zip(members, _split(_lookup(table, len(members)), len(members)),
                          strict=True):
            lists[p.idx].append(pts)
    shares.update(lists)
    return shares


def _butterfly_words(plans: list[_Plan], counts: list[int], f: _Facts) -> dict[str, _Why]:
    table = max((p.table for p in plans), key=len)
    shares: dict[str, list[str]] = {p.name: [] for p in plans}
    for k in range(1, max(counts) + 1):
        members = [p for p, c in zip(plans, counts, strict=True) if c >= k]
        value = _lookup(table, len(members))
        if len(members) == 1:
            why = f"in butterfly set {k} alone: a set of one species scores {value}"
        else:
            why = (f"in butterfly set {k} of {len(members)} different species, "
                   f"{value} points for the set")
        for p in members:
            shares[p.name].append(why)
    return dict(shares)


point_rule(RULES, PointRule("butterfly_sets", ("table",), check=_table_check,
                            shape=Shape(LAYERS), group_words=_butterfly_words))


def _variety(plans: list[_Plan]) -> dict[int, int | list[int]]:
    """Shape VARIETY, copy by copy: each copy scores ``a`` with ``b`` or more species in
    the set."""
    enough = len(plans) >= plans[0].b
    return {p.idx: p.a if enough else 0 for p in plans}


def _layers_total(table: tuple[int, ...], ns: list[int]) -> int:
    """Shape LAYERS summed at once (``ns``: the copies of each species of the set)."""
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


def _bat_words(plans: list[_Plan], counts: list[int], f: _Facts) -> dict[str, _Why]:
    need = plans[0].params["min_distinct_bat_species"]
    kinds = len(plans)
    if kinds >= need:
        why = f"{_n(sum(counts), 'bat')} of {_n(kinds, 'species')}"
    else:
        why = f"only {kinds} bat species, {need} needed"
    return {p.name: why for p in plans}


point_rule(RULES, PointRule("bat_variety", ("points_each", "min_distinct_bat_species"),
                            shape=Shape(VARIETY), group_words=_bat_words))

# ----------------------------------------------------------------------------- by card


def _on_tree(p: _Plan, f: _Facts, t: Host, side: str, d: Dweller | None) -> int:
    host = t.species
    return p.a if host is not None and host.name == p.key else 0


def _on_tree_words(p: _Plan, f: _Facts, t: Host, side: str, d: Dweller | None,
                   pts: int) -> str:
    where = "atop" if side == "top" else ("below" if side == "bottom" else "beside")
    if pts:
        return f"{where} {article(p.key)}"
    return f"{where} {article(_shown(t))}, not {article(p.key)}"


point_rule(RULES, PointRule("on_tree_species", ("points_each", "tree"),
                            card=_on_tree, card_words=_on_tree_words, on_tree=True))


def _paired(p: _Plan, f: _Facts, t: Host, side: str, d: Dweller | None) -> int:
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


point_rule(RULES, PointRule(
    "paired_in_slot", ("points_each",), card=_paired,
    card_words=lambda p, f, t, side, d, pts: (
        f"shares its slot with another {p.species.printed}" if pts else "alone in its slot")))


def _bat_opposite(p: _Plan, f: _Facts, t: Host, side: str, d: Dweller | None) -> int:
    for x in t.slots[OPPOSITE[side]]:
        if "bat" in x.species.tags:
            return 0 if t.kind == SHRUB and p.trees_only else p.a  # a shrub is no tree
    return 0


def _bat_opposite_words(p: _Plan, f: _Facts, t: Host, side: str, d: Dweller | None,
                        pts: int) -> str:
    if t.kind == SHRUB and p.trees_only:
        return f"at {article(t.kind)}, which is no tree"
    bat = next((x for x in t.slots[OPPOSITE[side]] if "bat" in x.species.tags), None)
    if bat is not None:
        return f"a bat ({bat.species.printed}) in the opposite slot"
    return "no bat in the opposite slot"


point_rule(RULES, PointRule("bat_opposite", ("points_each",),
                            card=_bat_opposite, card_words=_bat_opposite_words))


def _own_symbol(p: _Plan, f: _Facts, t: Host, side: str, d: Dweller | None) -> int:
    sym = None if d is None else _symbol(d)
    return 0 if sym is None else p.a * f.symbol_count(sym)


def _own_symbol_words(p: _Plan, f: _Facts, t: Host, side: str, d: Dweller | None,
                      pts: int) -> str:
    sym = None if d is None else _symbol(d)
    if sym is None:
        return "its tree symbol is not known"
    return (f"{_n(p.a, 'point')} per card showing the {sym} symbol: "
            f"{_n(f.symbol_count(sym), 'card')}")


point_rule(RULES, PointRule("per_own_tree_symbol", ("points_per",),
                            card=_own_symbol, card_words=_own_symbol_words))


def _host_kind_words(p: _Plan, f: _Facts, t: Host, side: str, d: Dweller | None,
                     pts: int) -> str:
    if pts:
        return f"on {article(p.key)}"
    here = t.kind if t.species is None else t.species.printed
    return f"on {article(here)}, not {article(p.key)}"


point_rule(RULES, PointRule(
    "on_host_kind", ("points_each", "host"),
    card=lambda p, f, t, side, d: p.a if t.kind == p.key else 0,
    card_words=_host_kind_words))


def _cards_at(t: Host) -> int:
    s = t.slots
    return len(s["top"]) + len(s["bottom"]) + len(s["left"]) + len(s["right"])


def _alone_words(p: _Plan, f: _Facts, t: Host, side: str, d: Dweller | None,
                 pts: int) -> str:
    if pts:
        return f"the only card at its {t.kind}"
    return f"{_n(_cards_at(t) - 1, 'other card')} at its {t.kind}"


point_rule(RULES, PointRule(
    "alone_on_host", ("points_each",),
    card=lambda p, f, t, side, d: p.a if _cards_at(t) == 1 else 0, card_words=_alone_words))

def _own_slots(p: _Plan, f: _Facts, t: Host, side: str, d: Dweller | None) -> int:
    s = t.slots
    return p.a * (len(s["top"]) + len(s["bottom"]) + len(s["left"]) + len(s["right"]))


point_rule(RULES, PointRule(
    "per_card_in_own_slots", ("points_per_card",), card=_own_slots,
    card_words=lambda p, f, t, side, d, pts: (f"{_n(p.a, 'point')} per card in its slots: "
                                              f"{_n(_cards_at(t), 'card')}")))


# ----------------------------------------------------------------------------- Exploration's
# (docs/exploration.md, "Vocabulary"): its Marsh Cinquefoil, Elk and named caves.


def _band_check(params: Mapping[str, Any]) -> str:
    """The loader's check of a table of bands: lowest count of a band -> points, 0 among
    them (``{"0": 15, "6": 7, "11": 3}``)."""
    table = params["table"]
    ok = isinstance(table, dict) and "0" in table and all(
        isinstance(k, str) and k.isdigit() and type(v) is int for k, v in table.items())
    return "" if ok else "table must map the lowest count of each band (\"0\" first) to points"


def _band(params: Mapping[str, Any], k: int) -> int:
    """The points of the band ``k`` falls in (the band of the highest lowest count <= k)."""
    best = -1
    pts = 0
    for key, value in params["table"].items():
        low = int(key)
        if best < low <= k:
            best, pts = low, int(value)
    return pts


point_rule(RULES, PointRule(
    "tree_count_table", ("table",), check=_band_check,
    points=lambda p, f, n, t: _band(p.params, f.trees_for(p)),
    words=lambda p, f, n, t: (f"{_trees_desc(f, p)} in the forest: "
                              f"{_n(_band(p.params, f.trees_for(p)), 'point')}")))


def _saplings_symbols(p: _Plan, f: _Facts) -> int:
    k = f.sites - f.tree_cards
    for sym in p.keys:
        k += f.symbol_count(sym)
    return k


def _saplings_symbols_words(p: _Plan, f: _Facts, n: int, t: Mapping[str, int]) -> str:
    what = " or ".join(p.keys)
    return (f"{_n(p.a, 'point')} per sapling and per card showing the {what} symbol: "
            + " + ".join([_n(f.sites - f.tree_cards, "sapling")]
                         + [_n(f.symbol_count(sym), sym + " card") for sym in p.keys]))


point_rule(RULES, PointRule(
    "per_sapling_and_tree_symbols", ("points_per", "symbols"),
    points=lambda p, f, n, t: p.a * _saplings_symbols(p, f),
    words=_saplings_symbols_words))


def _cave_and_tag(params: Mapping[str, Any], f: _Facts) -> int:
    return (int(params["points_per"]) * f.cave
            + int(params["points_per_tag"]) * f.tag(str(params["tag"])))


def _cave_and_tag_words(params: Mapping[str, Any], f: _Facts, pts: int) -> str:
    tag = str(params["tag"])
    return (f"{_n(int(params['points_per']), 'point')} per card in this cave and "
            f"{_n(int(params['points_per_tag']), 'point')} per {_tag(tag)} card in the forest: "
            f"{_n(f.cave, 'card')}, {_n(f.tag(tag), _tag(tag) + ' card')}")


point_rule(RULES, PointRule("cave_cards_and_tag", ("points_per", "tag", "points_per_tag"),
                            cave=_cave_and_tag, cave_words=_cave_and_tag_words))


def _empty_cave(params: Mapping[str, Any], f: _Facts) -> int:
    return int(params["points_if_empty"]) if not f.cave else int(params["points_per"]) * f.cave


point_rule(RULES, PointRule(
    "empty_cave", ("points_if_empty", "points_per"), cave=_empty_cave,
    cave_words=lambda params, f, pts: (
        f"the cave is empty: {_n(pts, 'point')}" if not f.cave else
        f"{_n(int(params['points_per']), 'point')} per card in this cave: "
        f"{_n(f.cave, 'card')}")))
