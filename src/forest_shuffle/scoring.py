"""End-of-game scoring of a whole table of forests (base game).

Contract:

* :func:`score_table` scores every forest of a table and explains every visible card's
  points in plain words; the table is needed because Linden (majority) and Great Spotted
  Woodpecker (most trees) compare forests; ties count as most.
* :func:`totals` returns the same totals as :func:`score_table`, fast and without
  explanations (bots and benchmarks call it).
* :func:`winners` lists every index with the top total.

Scoring is driven by each species' ``points`` (rule and params, see
:data:`forest_shuffle.cards.POINT_RULES`) and by the ``tree_count_modifier`` permanent
effect (Violet Carpenter Bee). Saplings are trees without a species or a tree symbol. A
dweller whose ``symbol`` is None counts for no tree symbol, unless every copy of its
species in the deck shows the same symbol, which is then used.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import CATALOG, OPPOSITE, SIDES, Species
from .forest import Dweller, Forest, TreeSite

__all__ = ["CardPoints", "ForestScore", "score_table", "totals", "winners", "LINES"]

#: The four lines of the score pad, in order.
LINES: tuple[str, ...] = ("trees", "top_bottom", "left_right", "cave")
_LINE_OF_SIDE: Mapping[str, str] = {
    "top": "top_bottom", "bottom": "top_bottom", "left": "left_right", "right": "left_right",
}


@dataclass(frozen=True)
class CardPoints:
    """The points of one visible card: where it is, its species, points and why."""

    where: str
    species: str
    points: int
    why: str


@dataclass(frozen=True)
class ForestScore:
    """A forest's total, its four score-pad lines (adding up to ``total``) and per-card points."""

    total: int
    lines: dict[str, int]
    cards: tuple[CardPoints, ...]


# --------------------------------------------------------------------------------------
# Compiled scoring plans, one per species
# --------------------------------------------------------------------------------------

# Rules whose points depend on where each card sits (scored per card, not per count).
_PER_CARD_RULES = frozenset({
    "on_tree_species", "bat_opposite", "paired_in_slot", "per_own_tree_symbol",
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


@dataclass(frozen=True, slots=True)
class _Plan:
    species: Species
    rule: str
    params: Mapping[str, Any]
    per_card: bool
    vcb: bool  # Violet Carpenter Bees raise the counted number
    bee_plus: int  # > 0 for species with a tree_count_modifier permanent effect
    table: tuple[int, ...]


_PLANS: dict[str, _Plan] = {}


def _compile(sp: Species) -> _Plan:
    pts = sp.points
    bee_plus = 0
    if sp.permanent is not None and sp.permanent.op == "tree_count_modifier":
        bee_plus = int(sp.permanent.get("plus", 1))
    table = _table_lookup(pts.params["table"]) if "table" in pts.params else ()
    return _Plan(sp, pts.rule, pts.params, pts.rule in _PER_CARD_RULES or bee_plus > 0,
                 bool(pts.get("vcb_counts", False)), bee_plus, table)


def _plan(sp: Species) -> _Plan:
    p = _PLANS.get(sp.name)
    if p is None or p.species is not sp:
        p = _compile(sp)
        if sp is CATALOG.species.get(sp.name):
            _PLANS[sp.name] = p
    return p


for _sp in CATALOG.species.values():
    _plan(_sp)

_DECK_SYMBOL: dict[str, str] = {}


def _deck_symbols() -> dict[str, str]:
    """species name -> the one tree symbol all its deck copies show (if they agree)."""
    if not _DECK_SYMBOL:
        seen: dict[str, set[str]] = {}
        for c in CATALOG.cards:
            if c is not None:
                for h in c.halves.values():
                    seen.setdefault(h.species.name, set()).add(h.symbol)
        _DECK_SYMBOL.update({n: next(iter(s)) for n, s in seen.items() if len(s) == 1})
    return _DECK_SYMBOL


def _symbol(d: Dweller) -> str | None:
    if d.symbol is not None:
        return d.symbol
    return _deck_symbols().get(d.species.name)


# --------------------------------------------------------------------------------------
# Facts about one forest, gathered in a single pass
# --------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Facts:
    counts: dict[str, int]  # species name -> cards (trees and dwellers)
    plans: dict[str, _Plan]  # species name -> plan, for every species present
    sites: int  # trees and saplings
    tree_cards: int  # trees with a species
    full: int  # fully occupied sites
    bottom: int  # cards in bottom slots
    own_slots: dict[str, int]  # tree species -> cards in the slots of trees of that species
    positional: list[tuple[TreeSite, str, Dweller]]  # per-card scorers and bees
    boost: dict[str, int]  # tree species -> bee boost at trees of that species
    boost_all: int  # bee boost to the total number of trees
    _tags: dict[str, int] | None = None
    _symbols: dict[str, int] | None = None

    def tag(self, tag: str, saplings: bool = True) -> int:
        """Cards with ``tag``; for ``"tree"`` saplings count unless ``saplings`` is False."""
        if tag == "tree":
            return self.sites if saplings else self.tree_cards
        tags = self._tags
        if tags is None:
            tags = {}
            for name, n in self.counts.items():
                for t in self.plans[name].species.tags:
                    tags[t] = tags.get(t, 0) + n
            self._tags = tags
        return tags.get(tag, 0)

    def symbol_count(self, forest: Forest, symbol: str) -> int:
        """Visible cards showing ``symbol``: tree cards of that species and dweller halves."""
        syms = self._symbols
        if syms is None:
            syms = {}
            for t in forest.trees:
                for stack in t.slots.values():
                    for d in stack:
                        s = _symbol(d)
                        if s is not None:
                            syms[s] = syms.get(s, 0) + 1
            self._symbols = syms
        n = syms.get(symbol, 0)
        sp = CATALOG.species.get(symbol)
        if sp is not None and sp.is_tree:
            n += self.counts.get(symbol, 0)
        return n

    def trees_for(self, plan: _Plan) -> int:
        """Number of trees as the plan counts them (saplings and bees as its params say)."""
        n = self.sites if plan.params.get("saplings_count", True) else self.tree_cards
        return n + self.boost_all if plan.vcb else n

    def own_count(self, plan: _Plan) -> int:
        """Cards of the plan's species, plus bees at such trees if the plan says so."""
        name = plan.species.name
        n = self.counts.get(name, 0)
        return n + self.boost.get(name, 0) if plan.vcb else n


def _facts(forest: Forest) -> _Facts:
    counts: dict[str, int] = {}
    plans: dict[str, _Plan] = {}
    own_slots: dict[str, int] = {}
    positional: list[tuple[TreeSite, str, Dweller]] = []
    tree_cards = full = bottom = 0
    cache = _PLANS
    for t in forest.trees:
        slots = t.slots
        top = slots["top"]
        bot = slots["bottom"]
        left = slots["left"]
        right = slots["right"]
        if top and bot and left and right:
            full += 1
        nb = len(bot)
        bottom += nb
        sp = t.species
        if sp is not None:
            tree_cards += 1
            name = sp.name
            c = counts.get(name)
            if c is None:
                counts[name] = 1
                p = cache.get(name)
                plans[name] = p if p is not None and p.species is sp else _plan(sp)
            else:
                counts[name] = c + 1
            own_slots[name] = own_slots.get(name, 0) + len(top) + nb + len(left) + len(right)
        for side in SIDES:
            for d in slots[side]:
                dsp = d.species
                name = dsp.name
                c = counts.get(name)
                if c is None:
                    counts[name] = 1
                    p = cache.get(name)
                    if p is None or p.species is not dsp:
                        p = _plan(dsp)
                    plans[name] = p
                else:
                    counts[name] = c + 1
                    p = plans[name]
                if p.per_card:
                    positional.append((t, side, d))
    boost: dict[str, int] = {}
    boost_all = 0
    for t, _side, d in positional:
        plus = plans[d.species.name].bee_plus
        if plus:
            boost_all += plus
            if t.species is not None:
                boost[t.species.name] = boost.get(t.species.name, 0) + plus
    return _Facts(counts, plans, len(forest.trees), tree_cards, full, bottom, own_slots,
                  positional, boost, boost_all)


@dataclass(frozen=True, slots=True)
class _Table:
    """What a forest needs to know about the other forests at the table."""

    best_other_own: Mapping[str, int]  # majority species -> best count among other forests
    best_other_trees: Mapping[str, int]  # most_trees species -> best tree count elsewhere


def _tables(facts: Sequence[_Facts]) -> list[_Table]:
    majority: dict[str, _Plan] = {}
    most: dict[str, _Plan] = {}
    for f in facts:
        for name, p in f.plans.items():
            if p.rule == "majority":
                majority[name] = p
            elif p.rule == "most_trees":
                most[name] = p
    if not majority and not most:
        empty = _Table({}, {})
        return [empty] * len(facts)
    own = {name: [f.own_count(p) for f in facts] for name, p in majority.items()}
    trees = {name: [f.trees_for(p) for f in facts] for name, p in most.items()}
    out: list[_Table] = []
    for i in range(len(facts)):
        out.append(_Table(
            {n: max((v for j, v in enumerate(vals) if j != i), default=0)
             for n, vals in own.items()},
            {n: max((v for j, v in enumerate(vals) if j != i), default=0)
             for n, vals in trees.items()},
        ))
    return out


def _is_most(plan: _Plan, mine: int, best_other: int) -> bool:
    if plan.params.get("ties_count_as_most", True):
        return mine >= best_other
    return mine > best_other


# --------------------------------------------------------------------------------------
# Per-card rules (the same code for the fast and the explained path)
# --------------------------------------------------------------------------------------


def _per_card(plan: _Plan, forest: Forest, facts: _Facts, t: TreeSite, side: str,
              d: Dweller) -> tuple[int, str]:
    """Points and reason of one dweller scored by where it sits."""
    rule = plan.rule
    params = plan.params
    if rule == "on_tree_species":
        host = params["tree"]
        pts = int(params["points_each"])
        where = "atop" if side == "top" else ("below" if side == "bottom" else "beside")
        if t.species is not None and t.species.name == host:
            return pts, f"{where} {_a(host)}"
        return 0, f"{where} {_a(t.name)}, not {_a(host)}"
    if rule == "bat_opposite":
        opp = t.slots[OPPOSITE[side]]
        bat = next((x for x in opp if "bat" in x.species.tags), None)
        if bat is not None:
            return int(params["points_each"]), f"a bat ({bat.species.name}) in the opposite slot"
        return 0, "no bat in the opposite slot"
    if rule == "paired_in_slot":
        same = sum(1 for x in t.slots[side] if x.species.name == d.species.name)
        if same >= 2:
            return int(params["points_each"]), f"shares its slot with another {d.species.name}"
        return 0, "alone in its slot"
    if rule == "per_own_tree_symbol":
        sym = _symbol(d)
        if sym is None:
            return 0, "its tree symbol is not known"
        n = facts.symbol_count(forest, sym)
        per = int(params["points_per"])
        return per * n, f"{per} per card showing the {sym} symbol: {_n(n, 'card')}"
    return 0, "scores no points"


def _a(name: str) -> str:
    return ("an " if name[:1].lower() in "aeiou" else "a ") + name


_PLURAL = {
    "butterfly": "butterflies", "deer": "deer", "cloven-hoofed animal": "cloven-hoofed animals",
    "Beech": "Beeches", "Birch": "Birches", "Horse Chestnut": "Horse Chestnuts",
    "Blackberries": "Blackberries", "Fireflies": "Fireflies", "Tree Ferns": "Tree Ferns",
    "Wild Strawberries": "Wild Strawberries", "Moss": "Mosses", "Red Fox": "Red Foxes",
    "Wolf": "Wolves", "Red Deer": "Red Deer", "Roe Deer": "Roe Deer",
    "Fallow Deer": "Fallow Deer", "Wild Boar": "Wild Boar",
    "European Fat Dormouse": "European Fat Dormice", "Bullfinch": "Bullfinches",
    "Chaffinch": "Chaffinches", "Great Spotted Woodpecker": "Great Spotted Woodpeckers",
}


def _n(n: int, word: str) -> str:
    """``3 birds``, ``1 bird``."""
    if n == 1:
        return f"1 {word}"
    return f"{n} {_PLURAL.get(word, word + 's')}"


# --------------------------------------------------------------------------------------
# Fast path
# --------------------------------------------------------------------------------------


def _forest_total(forest: Forest, f: _Facts, table: _Table) -> int:
    total = forest.cave
    counts = f.counts
    butterflies: list[int] = []  # copies of each butterfly species (one set rule)
    butterfly_plan: _Plan | None = None
    bats: list[int] = []
    bat_plan: _Plan | None = None
    for name, n in counts.items():
        p = f.plans[name]
        rule = p.rule
        params = p.params
        if rule == "none" or p.per_card:
            continue
        if rule == "flat":
            total += params["points_each"] * n
        elif rule == "per_tag":
            total += params["points_per"] * n * f.tag(
                params["tag"], params.get("saplings_count", True))
        elif rule == "per_species":
            total += params["points_per"] * n * counts.get(params["species"], 0)
        elif rule == "per_tags":
            sap = params.get("saplings_count", True)
            total += params["points_per"] * n * sum(f.tag(t, sap) for t in params["tags"])
        elif rule == "set_table":
            total += _lookup(p.table, f.own_count(p))
        elif rule == "butterfly_sets":
            butterflies.append(n)
            butterfly_plan = p
        elif rule == "bat_variety":
            bats.append(n)
            bat_plan = p
        elif rule == "requires_species":
            if counts.get(params["species"], 0) >= params["min_count"]:
                total += params["points_each"] * n
        elif rule == "per_bottom_card":
            total += params["points_per"] * n * f.bottom
        elif rule == "per_fully_occupied_tree":
            total += params["points_per"] * n * f.full
        elif rule == "per_card_in_own_slots":
            total += params["points_per_card"] * f.own_slots.get(name, 0)
        elif rule == "threshold_own_species":
            if f.own_count(p) >= params["min_count"]:
                total += params["points_each"] * n
        elif rule == "all_tree_species":
            if _tree_species(f) >= params["species_needed"]:
                total += params["points_each"] * n
        elif rule == "majority":
            most = _is_most(p, f.own_count(p), table.best_other_own.get(name, 0))
            total += (params["points_each_if_most"] if most else params["points_each"]) * n
        elif rule == "most_trees":
            if _is_most(p, f.trees_for(p), table.best_other_trees.get(name, 0)):
                total += params["points_each"] * n
        elif rule == "min_trees":
            if f.trees_for(p) >= params["min_trees"]:
                total += params["points_each"] * n
        else:
            raise ValueError(f"{name}: no scoring for rule {rule!r}")
    if butterfly_plan is not None:
        total += _butterfly_total(butterfly_plan.table, butterflies)
    if bat_plan is not None and len(bats) >= bat_plan.params["min_distinct_bat_species"]:
        total += bat_plan.params["points_each"] * sum(bats)
    for t, side, d in f.positional:
        p = f.plans[d.species.name]
        if p.rule in _PER_CARD_RULES:
            total += _per_card(p, forest, f, t, side, d)[0]
    return total


def _butterfly_total(table: tuple[int, ...], ns: list[int]) -> int:
    """Optimal layered sets: set k holds every species with at least k copies."""
    total = 0
    for k in range(1, max(ns, default=0) + 1):
        total += _lookup(table, sum(1 for n in ns if n >= k))
    return total


def _tree_species(f: _Facts) -> int:
    return sum(1 for name in f.counts if f.plans[name].species.is_tree)


def totals(forests: Sequence[Forest]) -> list[int]:
    """Each forest's total, equal to ``score_table(forests)[i].total``, without explanations."""
    facts = [_facts(fo) for fo in forests]
    tables = _tables(facts)
    return [_forest_total(fo, fa, ta) for fo, fa, ta in zip(forests, facts, tables, strict=True)]


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
    return f" (+{b} for Violet Carpenter Bees)" if b else ""


_Explainer = Callable[[str, int], tuple[int, str]]


def _explainers(forest: Forest, f: _Facts, table: _Table) -> dict[str, _Explainer]:
    """species -> function(where, index among its copies) -> (points, why) for count rules."""
    counts = f.counts
    out: dict[str, _Explainer] = {}

    def const(pts: int, why: str) -> _Explainer:
        return lambda _w, _i: (pts, why)

    # Set rules: compute the per-copy split once.
    butterfly_names = [n for n in counts if f.plans[n].rule == "butterfly_sets"]
    bat_names = [n for n in counts if f.plans[n].rule == "bat_variety"]

    for names in ([butterfly_names] if butterfly_names else []):
        table_ = f.plans[names[0]].table
        layers = max(counts[bn] for bn in names)
        shares: dict[str, list[tuple[int, str]]] = {bn: [] for bn in names}
        for k in range(1, layers + 1):
            members = [bn for bn in names if counts[bn] >= k]
            value = _lookup(table_, len(members))
            split = _split(value, len(members))
            for bn, pts in zip(members, split, strict=True):
                why = (f"in butterfly set {k}: {_n(len(members), 'different butterfly')}, "
                       f"{value} points for the set")
                if len(members) == 1:
                    why = f"in butterfly set {k} alone: a set of one species scores {value}"
                shares[bn].append((pts, why))
        for bn in names:
            out[bn] = (lambda s: lambda _w, i: s[i])(shares[bn])

    for names in ([bat_names] if bat_names else []):
        p0 = f.plans[names[0]]
        need = p0.params["min_distinct_bat_species"]
        nbats = sum(counts[bn] for bn in names)
        kinds = len(names)
        if kinds >= need:
            why = f"{_n(nbats, 'bat')} of {_n(kinds, 'species')}"
            for bn in names:
                out[bn] = const(int(f.plans[bn].params["points_each"]), why)
        else:
            why = f"only {kinds} bat species, {need} needed"
            for bn in names:
                out[bn] = const(0, why)

    for name, n in counts.items():
        if name in out:
            continue
        p = f.plans[name]
        rule = p.rule
        params = p.params
        if p.per_card and rule not in _PER_CARD_RULES:
            plus = p.bee_plus
            out[name] = const(0, f"scores no points; adds {plus} to the trees it sits at")
        elif rule == "none" or p.per_card:
            out[name] = const(0, "scores no points")
        elif rule == "flat":
            out[name] = const(int(params["points_each"]), f"{params['points_each']} points each")
        elif rule == "per_tag":
            tag = params["tag"]
            sap = params.get("saplings_count", True)
            k = f.tag(tag, sap)
            extra = ""
            if tag == "tree" and sap and f.sites > f.tree_cards:
                extra = " (saplings included)"
            out[name] = const(params["points_per"] * k,
                              f"{params['points_per']} per {tag}: {_n(k, tag)}{extra}")
        elif rule == "per_tags":
            sap = params.get("saplings_count", True)
            parts = [(t, f.tag(t, sap)) for t in params["tags"]]
            k = sum(v for _t, v in parts)
            out[name] = const(params["points_per"] * k,
                              f"{params['points_per']} per {' and '.join(params['tags'])}: "
                              + " + ".join(_n(v, t) for t, v in parts))
        elif rule == "per_species":
            other = params["species"]
            k = counts.get(other, 0)
            out[name] = const(params["points_per"] * k,
                              f"{params['points_per']} per {other}: {_n(k, other)}")
        elif rule == "set_table":
            eff = f.own_count(p)
            value = _lookup(p.table, eff)
            split = _split(value, n)
            why = f"{_n(n, name)}{_bee_note(f, name, p)} score {value} together"
            out[name] = (lambda s, w: lambda _w, i: (s[i], w))(split, why)
        elif rule == "requires_species":
            other = params["species"]
            k = counts.get(other, 0)
            if k >= params["min_count"]:
                out[name] = const(int(params["points_each"]), f"{_n(k, other)} in the forest")
            else:
                out[name] = const(0, f"no {other} in the forest" if k == 0 else
                                  f"only {_n(k, other)}, {params['min_count']} needed")
        elif rule == "per_bottom_card":
            out[name] = const(params["points_per"] * f.bottom,
                              f"{params['points_per']} per card in a bottom slot: "
                              f"{_n(f.bottom, 'card')}")
        elif rule == "per_fully_occupied_tree":
            out[name] = const(params["points_per"] * f.full,
                              f"{params['points_per']} per fully occupied tree: "
                              f"{_n(f.full, 'tree')}")
        elif rule == "per_card_in_own_slots":
            out[name] = (lambda per: lambda w, _i: _own_slots(forest, w, per))(
                int(params["points_per_card"]))
        elif rule == "threshold_own_species":
            eff = f.own_count(p)
            need = params["min_count"]
            desc = f"{_n(n, name)}{_bee_note(f, name, p)}"
            if eff >= need:
                out[name] = const(int(params["points_each"]), f"{desc}, at least {need} needed")
            else:
                out[name] = const(0, f"only {desc}, {need} needed")
        elif rule == "all_tree_species":
            k = _tree_species(f)
            need = params["species_needed"]
            if k >= need:
                out[name] = const(int(params["points_each"]),
                                  f"all {need} tree species in the forest")
            else:
                out[name] = const(0, f"only {k} of {need} tree species in the forest")
        elif rule == "majority":
            mine = f.own_count(p)
            other = table.best_other_own.get(name, 0)
            desc = f"{_n(n, name)}{_bee_note(f, name, p)}"
            if _is_most(p, mine, other):
                out[name] = const(int(params["points_each_if_most"]),
                                  f"{desc}, no other forest has more ({other} at most)")
            else:
                out[name] = const(int(params["points_each"]),
                                  f"{desc}, another forest has more ({other})")
        elif rule == "most_trees":
            mine = f.trees_for(p)
            other = table.best_other_trees.get(name, 0)
            desc = _trees_desc(f, p)
            if _is_most(p, mine, other):
                out[name] = const(int(params["points_each"]),
                                  f"{desc}, no other forest has more ({other} at most)")
            else:
                out[name] = const(0, f"{desc}, another forest has more ({other})")
        elif rule == "min_trees":
            need = params["min_trees"]
            desc = _trees_desc(f, p)
            if f.trees_for(p) >= need:
                out[name] = const(int(params["points_each"]), f"{desc}, at least {need} needed")
            else:
                out[name] = const(0, f"only {desc}, {need} needed")
        else:
            raise ValueError(f"{name}: no scoring for rule {rule!r}")
    return out


def _trees_desc(f: _Facts, p: _Plan) -> str:
    sap = p.params.get("saplings_count", True)
    base = f.sites if sap else f.tree_cards
    parts = [_n(base, "tree")]
    if sap and f.sites > f.tree_cards:
        parts.append(f"saplings included ({f.sites - f.tree_cards})")
    if p.vcb and f.boost_all:
        parts.append(f"+{f.boost_all} for Violet Carpenter Bees")
    return ", ".join(parts) if len(parts) == 1 else f"{parts[0]} ({'; '.join(parts[1:])})"


def _own_slots(forest: Forest, where: str, per: int) -> tuple[int, str]:
    index = int(where.split()[1]) - 1
    k = sum(len(s) for s in forest.trees[index].slots.values())
    return per * k, f"{per} per card in its slots: {_n(k, 'card')}"


def _explain(forest: Forest, f: _Facts, table: _Table) -> ForestScore:
    explain = _explainers(forest, f, table)
    seen: dict[str, int] = {}
    cards: list[CardPoints] = []
    lines = dict.fromkeys(LINES, 0)

    def add(where: str, name: str, line: str, pts: int, why: str) -> None:
        cards.append(CardPoints(where, name, pts, why))
        lines[line] += pts

    for i, t in enumerate(forest.trees, start=1):
        where = f"tree {i}"
        if t.species is None:
            add(where, "sapling", "trees", 0, "a sapling scores no points (it counts as a tree)")
        else:
            name = t.species.name
            k = seen.get(name, 0)
            seen[name] = k + 1
            pts, why = explain[name](where, k)
            add(where, name, "trees", pts, why)
        for side in SIDES:
            for d in t.slots[side]:
                name = d.species.name
                p = f.plans[name]
                if p.rule in _PER_CARD_RULES:
                    pts, why = _per_card(p, forest, f, t, side, d)
                else:
                    k = seen.get(name, 0)
                    seen[name] = k + 1
                    pts, why = explain[name](where, k)
                add(f"{where} {side}", name, _LINE_OF_SIDE[side], pts, why)
    if forest.cave:
        add("cave", "cave", "cave", forest.cave, f"{_n(forest.cave, 'card')} under the cave")
    return ForestScore(sum(lines.values()), lines, tuple(cards))


def score_table(forests: Sequence[Forest]) -> list[ForestScore]:
    """Score every forest of a table, with the four lines and every card's points explained."""
    facts = [_facts(fo) for fo in forests]
    tables = _tables(facts)
    return [_explain(fo, fa, ta) for fo, fa, ta in zip(forests, facts, tables, strict=True)]
