"""End-of-game scoring of Forest Shuffle: Dartmoor tables.

Contract:

* :func:`score_table` scores every forest of a Dartmoor table and explains every visible
  card's points; its lines are the groups of the rulebook's scoring example
  (:data:`LINES`: top, bottom, left/right, cave, moors, trees and shrubs), adding up to the
  total. A table of one forest is a solo game: the moor majorities (Black-Tailed Godwit,
  Dartmoor Pony) use the rule's ``solo_min_moors`` instead of comparing forests; otherwise
  a forest tied for the most moors has the most.
* :func:`totals` gives the same totals (it sums the same per-card points: one code path).
* :class:`DartmoorScorer` is what a Dartmoor definition holds (:func:`scorer_for`): the
  scorer of its catalog (its caves' bonuses come from that catalog, the definition's);
  :func:`score_table`, :func:`totals` and :func:`winners_of` of this module score with one
  made for Dartmoor's own catalog (callers with no definition: tests, tools).
* :func:`is_dartmoor` tells a table of Dartmoor forests from one of the base family (a
  reader's helper: no scorer guesses its game).

Driven by the species' ``points`` and the caves' ``cave_bonus``; each of Dartmoor's point
rules is declared once in its vocabulary :data:`RULES` (:class:`MoorRule`: its params for
the data loader, how a card scores and why); no species is known by name. Counting: a
card's tags count for the tag (a dragonfly is also an insect, a mouse a pawed animal: the
data lists both); a universal moor counts as a moor; a tree shows
its own species' symbol, a shrub or moor its printed one, a dweller the symbol of its
half (None: none). A ``double_below`` moor (Blanket Bog) doubles the points of each card
in its bottom slots that shows its ``tag`` (every card without one). Sets (dragonflies,
Warty Newts) are split over their cards as evenly as integers allow; the set's total is
exact. Cards in the cave score 1 each, plus the drafted cave's ``cave_bonus``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from forest_shuffle.cards.forest import MOOR_KINDS, Dweller, Forest, Host
from forest_shuffle.cards.model import (
    SIDES,
    Catalog,
    Cave,
    Points,
    Species,
    declare_point_rule,
    load_catalog,
)
from forest_shuffle.cards.words import article
from forest_shuffle.cards.words import count as _n  # "3 birds": the one English rule
from forest_shuffle.scoring.core import CardPoints, ForestScore

__all__ = ["LINES", "RULES", "DartmoorScorer", "MoorRule", "is_dartmoor", "moor_rule",
           "score_table", "scorer_for", "totals", "winners_of"]

#: The score-pad lines of a Dartmoor table, in order.
LINES: tuple[str, ...] = ("top", "bottom", "left_right", "cave", "moors", "trees")
_LINE_OF_SIDE = {"top": "top", "bottom": "bottom", "left": "left_right", "right": "left_right"}
MODULE = "dartmoor"


def is_dartmoor(forests: Sequence[Forest]) -> bool:
    """Whether these are Dartmoor forests: a numbered cave, a moor or a Dartmoor host."""
    for f in forests:
        if f.cave_number:
            return True
        for t in f.trees[:1]:
            if t.kind in MOOR_KINDS or (t.species is not None and t.species.module == MODULE):
                return True
    return False


def _shown(host: Host) -> str:
    """A host as a person reads it: its printed name, or its kind (a universal moor)."""
    return host.name if host.species is None else host.species.printed


def _lookup(table: dict[str, int], n: int) -> int:
    """The value of ``table`` (keys are counts; a missing count takes the one below) for
    ``n`` (above the largest key: the largest key's value)."""
    best = 0
    for key in sorted(table, key=lambda k: int(str(k).rstrip("+"))):
        if int(str(key).rstrip("+")) <= n:
            best = int(table[key])
    return best


def _split(total: int, n: int) -> list[int]:
    q, r = divmod(total, n) if n else (0, 0)
    return [q + 1 if i < r else q for i in range(n)]


@dataclass
class _Facts:
    """What one forest shows, gathered once."""

    tags: dict[str, int] = field(default_factory=dict)
    distinct: dict[str, set[str]] = field(default_factory=dict)
    symbols: dict[str, int] = field(default_factory=dict)
    species: dict[str, int] = field(default_factory=dict)
    bottom: int = 0
    tree_bottom: int = 0  # cards in the bottom slots of trees (not shrubs or moors)
    cave: int = 0
    moors: int = 0

    def see(self, sp: Species | None, symbol: str | None, moor: bool = False) -> None:
        if sp is not None:
            self.species[sp.name] = self.species.get(sp.name, 0) + 1
            for tag in sp.tags:
                self.tags[tag] = self.tags.get(tag, 0) + 1
                self.distinct.setdefault(tag, set()).add(sp.name)
        elif moor:
            self.tags["moor"] = self.tags.get("moor", 0) + 1
        if symbol:
            self.symbols[symbol] = self.symbols.get(symbol, 0) + 1

    def tag(self, tag: str) -> int:
        return self.tags.get(tag, 0)

    def kinds(self, tag: str) -> int:
        return len(self.distinct.get(tag, ()))


def _facts(forest: Forest) -> _Facts:
    f = _Facts(cave=forest.cave)
    for t in forest.trees:
        f.see(t.species, t.symbol or None, moor=t.kind in MOOR_KINDS)
        for side in SIDES:
            for d in t.slots[side]:
                f.see(d.species, d.symbol if d.symbol is not None else d.species.deck_symbol)
        below = len(t.slots["bottom"])
        f.bottom += below
        if t.is_tree:
            f.tree_bottom += below
    f.moors = f.tag("moor")
    return f


@dataclass(frozen=True)
class _Place:
    """A visible card: its host (None for a host itself: ``host`` is then the card), side."""

    host: Host
    side: str  # "" for the host card
    dweller: Dweller | None

    @property
    def species(self) -> Species | None:
        return self.dweller.species if self.dweller is not None else self.host.species


def _places(forest: Forest) -> list[_Place]:
    out: list[_Place] = []
    for t in forest.trees:
        out.append(_Place(t, "", None))
        for side in SIDES:
            out.extend(_Place(t, side, d) for d in t.slots[side])
    return out


@dataclass(frozen=True, slots=True)
class _Table:
    """What a card's points may read of the whole table: whether it has more than one
    forest (else the solo rules), and the most moors another forest has."""

    multi: bool
    best_moors: int


#: A card scored by itself: its place, its forest's facts, the table -> points and why.
CardFn = Callable[[_Place, _Facts, _Table], tuple[int, str]]
#: Cards scored together (one group of a rule): fills ``out`` (index into the forest's
#: places -> points and why) for the group's indices, given the first card's points and
#: the group's key.
GroupFn = Callable[[dict[int, tuple[int, str]], list[_Place], list[int], Points, str], None]


@dataclass(frozen=True, slots=True)
class MoorRule:
    """One of Dartmoor's point rules, declared once (:func:`moor_rule`): the params the
    data must give and any further ``check`` (declared to the data loader), and how it
    scores: a card by itself (``card``: points and why), cards together (``group``, over
    the cards of one ``group_key``: "" for one group of the rule), a moor that doubles the
    cards below it (``doubles_below``, with the optional ``tag``) or a cave's end bonus
    (``cave``)."""

    name: str
    needs: tuple[str, ...] = ()
    check: Callable[[Mapping[str, Any]], str] | None = None
    card: CardFn | None = None
    group: GroupFn | None = None
    group_key: Callable[[Species], str] | None = None
    doubles_below: bool = False
    cave: Callable[[Points], int] | None = None


#: Dartmoor's vocabulary of point rules.
RULES: dict[str, MoorRule] = {}


def moor_rule(rules: dict[str, MoorRule], rule: MoorRule) -> MoorRule:
    """Register ``rule`` in a Dartmoor scorer's vocabulary and declare its params to the
    data loader; ValueError for a name registered already or params the loader knows
    otherwise."""
    if rule.name in rules:
        raise ValueError(f"point rule {rule.name!r} is registered already")
    declare_point_rule(rule.name, rule.needs, rule.check)
    rules[rule.name] = rule
    return rule


def _sets(places: list[_Place], rules: Mapping[str, MoorRule]) -> dict[int, tuple[int, str]]:
    """Points of the cards scored as a group (each rule's ``group`` over the cards of one
    key), by index into ``places``."""
    out: dict[int, tuple[int, str]] = {}
    groups: dict[tuple[str, str], list[int]] = {}
    for i, pl in enumerate(places):
        sp = pl.species
        if sp is None:
            continue
        r = rules.get(sp.points.rule)
        if r is not None and r.group is not None:
            key = r.group_key(sp) if r.group_key is not None else ""
            groups.setdefault((r.name, key), []).append(i)
    for (name, key), idx in groups.items():
        first = places[idx[0]].species
        assert first is not None
        group = rules[name].group
        assert group is not None
        group(out, places, idx, first.points, key)
    return out


def _card(pl: _Place, f: _Facts, tab: _Table, rules: Mapping[str, MoorRule]) -> tuple[int, str]:
    """Points of one visible card scored by itself, and why (its rule's ``card``)."""
    sp = pl.species
    if sp is None:
        return 0, "a universal moor scores no points (it counts as a moor)"
    r = rules.get(sp.points.rule)
    if r is None or r.card is None:
        raise ValueError(f"{sp.name}: no Dartmoor scoring for rule {sp.points.rule!r}")
    return r.card(pl, f, tab)


def _doubles(pl: _Place, rules: Mapping[str, MoorRule]) -> str:
    """The name of the moor above that doubles this card's points ("" if none)."""
    if pl.dweller is None or pl.side != "bottom" or pl.host.species is None:
        return ""
    p = pl.host.species.points
    r = rules.get(p.rule)
    if r is None or not r.doubles_below:
        return ""
    tag = p.get("tag")
    return pl.host.species.name if tag is None or tag in pl.dweller.species.tags else ""


def _score(forest: Forest, tab: _Table, caves: Sequence[Cave],
           rules: Mapping[str, MoorRule]) -> ForestScore:
    f = _facts(forest)
    places = _places(forest)
    grouped = _sets(places, rules)
    lines = dict.fromkeys(LINES, 0)
    cards: list[CardPoints] = []
    count: dict[str, int] = {"tree": 0, "moor": 0}
    where_host = ""
    for i, pl in enumerate(places):
        if pl.dweller is None:
            count[pl.host.label] += 1
            where_host = f"{pl.host.label} {count[pl.host.label]}"
            where = where_host
            line = "moors" if pl.host.kind in MOOR_KINDS else "trees"
        else:
            where = f"{where_host} {pl.side}"
            line = _LINE_OF_SIDE[pl.side]
        pts, why = grouped[i] if i in grouped else _card(pl, f, tab, rules)
        doubled = _doubles(pl, rules)
        if doubled:
            pts *= 2
            why = f"{why}; doubled by the {doubled} above it"
        lines[line] += pts
        cards.append(CardPoints(where, _shown(pl.host) if pl.dweller is None
                                else pl.dweller.species.printed, pts, why))
    bonus = _cave_bonus(forest.cave_number, caves, rules)
    if forest.cave or bonus:
        why = _n(forest.cave, "card") + " under the cave"
        if bonus:
            why += f", {bonus} more for cave {forest.cave_number}"
        lines["cave"] += forest.cave + bonus
        cards.append(CardPoints("cave", f"cave {forest.cave_number}" if forest.cave_number
                                else "cave", forest.cave + bonus, why))
    return ForestScore(sum(lines.values()), lines, tuple(cards))


def _cave_bonus(number: int, caves: Sequence[Cave], rules: Mapping[str, MoorRule]) -> int:
    """The end bonus of the drafted cave ``number`` of the scorer's caves (0: none)."""
    if not number:
        return 0
    if not 1 <= number <= len(caves):
        raise ValueError(f"no cave number {number}")
    pts = caves[number - 1].points
    if pts is None:
        return 0
    r = rules.get(pts.rule)
    if r is None or r.cave is None:
        raise ValueError(f"cave {number}: no Dartmoor scoring for rule {pts.rule!r}")
    return r.cave(pts)


def _moors(forest: Forest) -> int:
    return sum(1 for t in forest.trees if t.kind in MOOR_KINDS)


class DartmoorScorer:
    """The scorer of one Dartmoor definition: its catalog's caves and a vocabulary of
    point rules (:data:`RULES` by default), every species of the catalog checked to have
    a rule there when it is made (ValueError naming the species otherwise). Holds nothing
    that changes: threads share it freely."""

    __slots__ = ("caves", "rules")

    caves: tuple[Cave, ...]
    rules: Mapping[str, MoorRule]

    def __init__(self, catalog: Catalog, rules: Mapping[str, MoorRule] | None = None) -> None:
        self.rules = RULES if rules is None else rules
        self.caves = catalog.caves
        for sp in catalog.species.values():
            if sp.points.rule not in self.rules:
                raise ValueError(f"{sp.name}: no Dartmoor scoring for rule {sp.points.rule!r}")

    def score_table(self, forests: Sequence[Forest]) -> list[ForestScore]:
        """Score every Dartmoor forest of a table (one forest: the solo rules), explained."""
        multi = len(forests) > 1
        moors = [_moors(fo) for fo in forests]
        out: list[ForestScore] = []
        for i, fo in enumerate(forests):
            best = max(moors[:i] + moors[i + 1:], default=0)
            out.append(_score(fo, _Table(multi, best), self.caves, self.rules))
        return out

    def totals(self, forests: Sequence[Forest]) -> list[int]:
        """Each forest's total, equal to ``score_table(forests)[i].total``."""
        return [s.total for s in self.score_table(forests)]


def scorer_for(catalog: Catalog,
               rules: Mapping[str, MoorRule] | None = None) -> DartmoorScorer:
    """The scorer a Dartmoor definition holds (``make_def`` asks for it; ``rules``: a
    vocabulary of its own, None: :data:`RULES`)."""
    return DartmoorScorer(catalog, rules)


def _own() -> DartmoorScorer:
    """A scorer of Dartmoor's own catalog, for the callers with no definition."""
    return DartmoorScorer(load_catalog((MODULE,)))


def score_table(forests: Sequence[Forest]) -> list[ForestScore]:
    """Score every Dartmoor forest of a table (one forest: the solo rules), explained, with
    Dartmoor's own catalog's caves (a game scores through its definition's scorer)."""
    return _own().score_table(forests)


def totals(forests: Sequence[Forest]) -> list[int]:
    """Each forest's total, equal to ``score_table(forests)[i].total``."""
    return _own().totals(forests)


def winners_of(forests: Sequence[Forest]) -> list[int]:
    """Every index with the highest total (ties share the victory)."""
    t = totals(forests)
    return [i for i, v in enumerate(t) if t and v == max(t)]


# ----------------------------------------------------------------------------- the rules


def _rule_card(name: str, needs: tuple[str, ...], card: CardFn) -> None:
    moor_rule(RULES, MoorRule(name, needs, card=card))


def _none(pl: _Place, f: _Facts, tab: _Table) -> tuple[int, str]:
    return 0, "scores no points"


def _double_below(pl: _Place, f: _Facts, tab: _Table) -> tuple[int, str]:
    tag = pl.host.species.points.get("tag") if pl.host.species is not None else None
    what = f"each {tag}" if tag else "each card"
    return 0, f"scores no points itself; {what} below it scores double"


def _flat(pl: _Place, f: _Facts, tab: _Table) -> tuple[int, str]:
    p = _points(pl)
    return int(p["points_each"]), f"{_n(int(p['points_each']), 'point')} each"


def _points(pl: _Place) -> Mapping[str, Any]:
    sp = pl.species
    assert sp is not None
    return sp.points.params


def _per_tag(pl: _Place, f: _Facts, tab: _Table) -> tuple[int, str]:
    p = _points(pl)
    k = f.tag(str(p["tag"]))
    return int(p["points_per"]) * k, (f"{_n(int(p['points_per']), 'point')} per {p['tag']}: "
                                      f"{_n(k, str(p['tag']))}")


def _per_tags(pl: _Place, f: _Facts, tab: _Table) -> tuple[int, str]:
    p = _points(pl)
    parts = [(str(t), f.tag(str(t))) for t in p["tags"]]
    k = sum(v for _t, v in parts)
    what = " and ".join(t for t, _v in parts)
    return int(p["points_per"]) * k, (f"{_n(int(p['points_per']), 'point')} per {what}: "
                                      + " + ".join(_n(v, t) for t, v in parts))


def _per_species(pl: _Place, f: _Facts, tab: _Table) -> tuple[int, str]:
    sp = pl.species
    assert sp is not None
    p = sp.points.params
    other = str(p["species"])
    k = sum(f.species.get(n, 0) for n in (sp.targets or (other,)))
    return int(p["points_per"]) * k, (f"{_n(int(p['points_per']), 'point')} per {other}: "
                                      f"{_n(k, other)}")


def _per_tag_and_symbol(pl: _Place, f: _Facts, tab: _Table) -> tuple[int, str]:
    p = _points(pl)
    tag, sym = str(p["tag"]), str(p["symbol"])
    a, b = f.tag(tag), f.symbols.get(sym, 0)
    return int(p["points_per"]) * (a + b), (f"{_n(int(p['points_per']), 'point')} per {tag} "
                                            f"and per card showing {sym}: {_n(a, tag)} + "
                                            f"{_n(b, sym + ' card')}")


def _per_tree_symbols(pl: _Place, f: _Facts, tab: _Table) -> tuple[int, str]:
    p = _points(pl)
    parts = [(str(s), f.symbols.get(str(s), 0)) for s in p["symbols"]]
    k = sum(v for _s, v in parts)
    return int(p["points_per"]) * k, (f"{_n(int(p['points_per']), 'point')} per card showing "
                                      + " or ".join(s for s, _v in parts) + ": "
                                      + " + ".join(_n(v, s + " card") for s, v in parts))


def _per_own_tree_symbol(pl: _Place, f: _Facts, tab: _Table) -> tuple[int, str]:
    p = _points(pl)
    own = pl.dweller.symbol if pl.dweller is not None else pl.host.symbol
    if not own:
        return 0, "shows no tree symbol"
    k = f.symbols.get(own, 0)
    return int(p["points_per"]) * k, (f"{_n(int(p['points_per']), 'point')} per card showing "
                                      f"its {own} symbol: {_n(k, 'card')}")


def _per_bottom_card(pl: _Place, f: _Facts, tab: _Table) -> tuple[int, str]:
    p = _points(pl)
    trees_only = bool(p.get("trees_only"))
    k = f.tree_bottom if trees_only else f.bottom
    where = "below a tree" if trees_only else "in a bottom slot"
    return int(p["points_per"]) * k, (f"{_n(int(p['points_per']), 'point')} per card "
                                      f"{where}: {_n(k, 'card')}")


def _per_cave_card(pl: _Place, f: _Facts, tab: _Table) -> tuple[int, str]:
    p = _points(pl)
    return int(p["points_per"]) * f.cave, (f"{_n(int(p['points_per']), 'point')} per card in "
                                           f"the cave: {_n(f.cave, 'card')}")


def _per_distinct_species(pl: _Place, f: _Facts, tab: _Table) -> tuple[int, str]:
    p = _points(pl)
    tag = str(p["tag"])
    k = f.kinds(tag)
    return int(p["points_per"]) * k, (f"{_n(int(p['points_per']), 'point')} per different "
                                      f"{tag} species: {k}")


def _distinct_species_table(pl: _Place, f: _Facts, tab: _Table) -> tuple[int, str]:
    p = _points(pl)
    tag = str(p["tag"])
    k = f.kinds(tag)
    return _lookup(dict(p["table"]), k), f"{_n(k, 'different ' + tag + ' species')}"


def _fully_occupied_self(pl: _Place, f: _Facts, tab: _Table) -> tuple[int, str]:
    if pl.host.fully_occupied():
        return int(_points(pl)["points_each"]), "fully occupied"
    return 0, "not fully occupied"


def _host_fully_occupied(pl: _Place, f: _Facts, tab: _Table) -> tuple[int, str]:
    if pl.host.fully_occupied():
        return int(_points(pl)["points_each"]), f"its {_shown(pl.host)} is fully occupied"
    return 0, f"its {_shown(pl.host)} is not fully occupied"


def _on_host_kind(pl: _Place, f: _Facts, tab: _Table) -> tuple[int, str]:
    p = _points(pl)
    host = str(p["host"])
    here = pl.host.kind in MOOR_KINDS if host == "moor" else pl.host.kind == host
    if here:
        return int(p["points_each"]), f"sits at {article(host)}"
    return 0, f"not at {article(host)}"


def _tag_threshold(pl: _Place, f: _Facts, tab: _Table) -> tuple[int, str]:
    p = _points(pl)
    tag, need = str(p["tag"]), int(p["min_count"])
    k = f.tag(tag)
    if k >= need:
        return int(p["points_each_if_met"]), f"{_n(k, tag)}, at least {need} needed"
    return int(p["points_each"]), f"only {_n(k, tag)}, {need} needed for more"


def _moor_majority(pl: _Place, f: _Facts, tab: _Table) -> tuple[int, str]:
    p = _points(pl)
    hi, lo = int(p["points_each_if_most"]), int(p["points_each"])
    if not tab.multi:
        need = int(p["solo_min_moors"])
        if f.moors >= need:
            return hi, f"solo: {_n(f.moors, 'moor')}, at least {need} needed"
        return lo, f"solo: only {_n(f.moors, 'moor')}, {need} needed"
    best = tab.best_moors
    if f.moors >= best:
        return hi, f"{_n(f.moors, 'moor')}, no other forest has more ({best} at most)"
    return lo, f"{_n(f.moors, 'moor')}, another forest has more ({best})"


def _bats(out: dict[int, tuple[int, str]], places: list[_Place], idx: list[int],
          pts: Points, key: str) -> None:
    """Every bat scores ``points_each`` with enough different bat species in the forest."""
    need = int(pts.params["min_distinct_bat_species"])
    kinds = len({sp.name for sp in (places[i].species for i in idx) if sp is not None})
    each = int(pts.params["points_each"]) if kinds >= need else 0
    why = (f"{_n(len(idx), 'bat')} of {kinds} species, {need} species needed"
           if each == 0 else f"{_n(len(idx), 'bat')} of {kinds} different species")
    for i in idx:
        out[i] = (each, why)


def _set_table(out: dict[int, tuple[int, str]], places: list[_Place], idx: list[int],
               pts: Points, key: str) -> None:
    """A species' cards score the table's value for their number together."""
    first = places[idx[0]].species
    assert first is not None
    value = _lookup(dict(pts.params["table"]), len(idx))
    why = f"{_n(len(idx), first.printed)} score {value} together"
    for i, p in zip(idx, _split(value, len(idx)), strict=True):
        out[i] = (p, why)


def _variety(out: dict[int, tuple[int, str]], places: list[_Place], idx: list[int],
             pts: Points, tag: str) -> None:
    """Layered sets of different species (set k: every species with k or more cards);
    optimal for a table whose increments never shrink, as the dragonflies'."""
    table = dict(pts.params["table"])
    by_species: dict[str, list[int]] = {}
    for i in idx:
        sp = places[i].species
        assert sp is not None
        by_species.setdefault(sp.name, []).append(i)
    layers = max(len(v) for v in by_species.values())
    for k in range(layers):
        members = [v[k] for v in by_species.values() if len(v) > k]
        value = _lookup(table, len(members))
        why = (f"in {tag} set {k + 1} of {len(members)} different species, {value} points "
               "for the set")
        for i, p in zip(members, _split(value, len(members)), strict=True):
            out[i] = (p, why)


_rule_card("none", (), _none)
_rule_card("flat", ("points_each",), _flat)
_rule_card("per_tag", ("points_per", "tag"), _per_tag)
_rule_card("per_tags", ("points_per", "tags"), _per_tags)
_rule_card("per_species", ("points_per", "species"), _per_species)
_rule_card("per_tag_and_symbol", ("points_per", "tag", "symbol"), _per_tag_and_symbol)
_rule_card("per_tree_symbols", ("points_per", "symbols"), _per_tree_symbols)
_rule_card("per_own_tree_symbol", ("points_per",), _per_own_tree_symbol)
_rule_card("per_bottom_card", ("points_per",), _per_bottom_card)
_rule_card("per_cave_card", ("points_per",), _per_cave_card)
_rule_card("per_distinct_species", ("points_per", "tag"), _per_distinct_species)
_rule_card("distinct_species_table", ("tag", "table"), _distinct_species_table)
_rule_card("fully_occupied_self", ("points_each",), _fully_occupied_self)
_rule_card("host_fully_occupied", ("points_each",), _host_fully_occupied)
_rule_card("on_host_kind", ("points_each", "host"), _on_host_kind)
_rule_card("tag_threshold", ("points_each", "points_each_if_met", "tag", "min_count"),
           _tag_threshold)
_rule_card("moor_majority", ("points_each", "points_each_if_most", "solo_min_moors"),
           _moor_majority)
moor_rule(RULES, MoorRule("double_below", (), card=_double_below, doubles_below=True))
moor_rule(RULES, MoorRule("bat_variety", ("points_each", "min_distinct_bat_species"),
                          group=_bats))
moor_rule(RULES, MoorRule("set_table", ("table",), group=_set_table,
                          group_key=lambda sp: sp.name))
moor_rule(RULES, MoorRule("variety_sets", ("tag", "table"), group=_variety,
                          group_key=lambda sp: str(sp.points.get("tag"))))
moor_rule(RULES, MoorRule("cave_bonus", ("points",), cave=lambda pts: int(pts.params["points"])))
