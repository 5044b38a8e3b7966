"""End-of-game scoring of Forest Shuffle: Dartmoor tables.

Contract:

* :func:`score_table` scores every forest of a Dartmoor table and explains every visible
  card's points; its lines are the groups of the rulebook's scoring example
  (:data:`LINES`: top, bottom, left/right, cave, moors, trees and shrubs), adding up to the
  total. A table of one forest is a solo game: the moor majorities (Black-Tailed Godwit,
  Dartmoor Pony) use the rule's ``solo_min_moors`` instead of comparing forests; otherwise
  a forest tied for the most moors has the most.
* :func:`totals` gives the same totals (it sums the same per-card points: one code path).
* :func:`is_dartmoor` tells a table of Dartmoor forests from one of the base family.

Driven by the species' ``points`` (rule and params of
:data:`forest_shuffle.cards.model.POINT_RULES`) and the caves' ``cave_bonus``; no species is
known by name. Counting: a card's tags count for the tag (a dragonfly is also an insect, a
mouse a pawed animal: the data lists both); a universal moor counts as a moor; a tree shows
its own species' symbol, a shrub or moor its printed one, a dweller the symbol of its
half (None: none). A ``double_below`` moor (Blanket Bog) doubles the points of each card
in its bottom slots that shows its ``tag`` (every card without one). Sets (dragonflies,
Warty Newts) are split over their cards as evenly as integers allow; the set's total is
exact. Cards in the cave score 1 each, plus the drafted cave's ``cave_bonus``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from forest_shuffle.cards.forest import MOOR_KINDS, Dweller, Forest, Host
from forest_shuffle.cards.model import SIDES, Points, Species, load_catalog
from forest_shuffle.cards.words import article
from forest_shuffle.cards.words import count as _n  # "3 birds": the one English rule
from forest_shuffle.scoring.core import CardPoints, ForestScore

__all__ = ["LINES", "is_dartmoor", "score_table", "totals", "winners_of"]

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


def _sets(forest_places: list[_Place], f: _Facts, multi: bool,
          best_moors: int) -> dict[int, tuple[int, str]]:
    """Points of the cards scored as a group (variety sets, bat variety, set tables), by
    index into ``forest_places``."""
    out: dict[int, tuple[int, str]] = {}
    groups: dict[tuple[str, str], list[int]] = {}
    for i, pl in enumerate(forest_places):
        sp = pl.species
        if sp is None:
            continue
        rule = sp.points.rule
        if rule == "variety_sets":
            groups.setdefault(("variety", str(sp.points.get("tag"))), []).append(i)
        elif rule == "bat_variety":
            groups.setdefault(("bats", ""), []).append(i)
        elif rule == "set_table":
            groups.setdefault(("set", sp.name), []).append(i)
    for (kind, key), idx in groups.items():
        species = [forest_places[i].species for i in idx]
        first = species[0]
        assert first is not None
        pts = first.points
        if kind == "variety":
            _variety(out, forest_places, idx, pts, key)
        elif kind == "bats":
            need = int(pts.params["min_distinct_bat_species"])
            kinds = len({sp.name for sp in species if sp is not None})
            each = int(pts.params["points_each"]) if kinds >= need else 0
            why = (f"{_n(len(idx), 'bat')} of {kinds} species, {need} species needed"
                   if each == 0 else f"{_n(len(idx), 'bat')} of {kinds} different species")
            for i in idx:
                out[i] = (each, why)
        else:
            value = _lookup(dict(pts.params["table"]), len(idx))
            why = f"{_n(len(idx), first.printed)} score {value} together"
            for i, p in zip(idx, _split(value, len(idx)), strict=True):
                out[i] = (p, why)
    return out


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


def _card(pl: _Place, f: _Facts, multi: bool, best_moors: int) -> tuple[int, str]:
    """Points of one visible card scored by itself, and why."""
    sp = pl.species
    if sp is None:
        return 0, "a universal moor scores no points (it counts as a moor)"
    p = sp.points
    rule = p.rule

    def g(key: str) -> Any:
        return p.params.get(key)
    if rule in ("none", "double_below"):
        if rule == "double_below":
            what = f"each {g('tag')}" if g("tag") else "each card"
            return 0, f"scores no points itself; {what} below it scores double"
        return 0, "scores no points"
    if rule == "flat":
        return int(g("points_each")), f"{_n(int(g('points_each')), 'point')} each"
    if rule == "per_tag":
        k = f.tag(str(g("tag")))
        return int(g("points_per")) * k, f"{_n(int(g('points_per')), 'point')} per {g('tag')}: " \
                                         f"{_n(k, str(g('tag')))}"
    if rule == "per_tags":
        parts = [(str(t), f.tag(str(t))) for t in g("tags")]
        k = sum(v for _t, v in parts)
        what = " and ".join(t for t, _v in parts)
        return int(g("points_per")) * k, (f"{_n(int(g('points_per')), 'point')} per {what}: "
                                          + " + ".join(_n(v, t) for t, v in parts))
    if rule == "per_species":
        other = str(g("species"))
        k = sum(f.species.get(n, 0) for n in (sp.targets or (other,)))
        return int(g("points_per")) * k, f"{_n(int(g('points_per')), 'point')} per {other}: " \
                                         f"{_n(k, other)}"
    if rule == "per_tag_and_symbol":
        tag, sym = str(g("tag")), str(g("symbol"))
        a, b = f.tag(tag), f.symbols.get(sym, 0)
        return int(g("points_per")) * (a + b), (f"{_n(int(g('points_per')), 'point')} per {tag} "
                                                f"and per card showing {sym}: {_n(a, tag)} + "
                                                f"{_n(b, sym + ' card')}")
    if rule == "per_tree_symbols":
        parts = [(str(s), f.symbols.get(str(s), 0)) for s in g("symbols")]
        k = sum(v for _s, v in parts)
        return int(g("points_per")) * k, (f"{_n(int(g('points_per')), 'point')} per card showing "
                                          + " or ".join(s for s, _v in parts) + ": "
                                          + " + ".join(_n(v, s + " card") for s, v in parts))
    if rule == "per_own_tree_symbol":
        own = pl.dweller.symbol if pl.dweller is not None else pl.host.symbol
        if not own:
            return 0, "shows no tree symbol"
        k = f.symbols.get(own, 0)
        return int(g("points_per")) * k, (f"{_n(int(g('points_per')), 'point')} per card showing "
                                          f"its {own} symbol: {_n(k, 'card')}")
    if rule == "per_bottom_card":
        trees_only = bool(g("trees_only"))
        k = f.tree_bottom if trees_only else f.bottom
        where = "below a tree" if trees_only else "in a bottom slot"
        return int(g("points_per")) * k, (f"{_n(int(g('points_per')), 'point')} per card "
                                          f"{where}: {_n(k, 'card')}")
    if rule == "per_cave_card":
        return int(g("points_per")) * f.cave, (f"{_n(int(g('points_per')), 'point')} per card in "
                                               f"the cave: {_n(f.cave, 'card')}")
    if rule == "per_distinct_species":
        tag = str(g("tag"))
        k = f.kinds(tag)
        return int(g("points_per")) * k, (f"{_n(int(g('points_per')), 'point')} per different "
                                          f"{tag} species: {k}")
    if rule == "distinct_species_table":
        tag = str(g("tag"))
        k = f.kinds(tag)
        return _lookup(dict(g("table")), k), f"{_n(k, 'different ' + tag + ' species')}"
    if rule == "fully_occupied_self":
        if pl.host.fully_occupied():
            return int(g("points_each")), "fully occupied"
        return 0, "not fully occupied"
    if rule == "host_fully_occupied":
        if pl.host.fully_occupied():
            return int(g("points_each")), f"its {_shown(pl.host)} is fully occupied"
        return 0, f"its {_shown(pl.host)} is not fully occupied"
    if rule == "on_host_kind":
        host = str(g("host"))
        here = pl.host.kind in MOOR_KINDS if host == "moor" else pl.host.kind == host
        if here:
            return int(g("points_each")), f"sits at {article(host)}"
        return 0, f"not at {article(host)}"
    if rule == "tag_threshold":
        tag, need = str(g("tag")), int(g("min_count"))
        k = f.tag(tag)
        if k >= need:
            return int(g("points_each_if_met")), f"{_n(k, tag)}, at least {need} needed"
        return int(g("points_each")), f"only {_n(k, tag)}, {need} needed for more"
    if rule == "moor_majority":
        hi, lo = int(g("points_each_if_most")), int(g("points_each"))
        if not multi:
            need = int(g("solo_min_moors"))
            if f.moors >= need:
                return hi, f"solo: {_n(f.moors, 'moor')}, at least {need} needed"
            return lo, f"solo: only {_n(f.moors, 'moor')}, {need} needed"
        if f.moors >= best_moors:
            return hi, f"{_n(f.moors, 'moor')}, no other forest has more ({best_moors} at most)"
        return lo, f"{_n(f.moors, 'moor')}, another forest has more ({best_moors})"
    raise ValueError(f"{sp.name}: no Dartmoor scoring for rule {rule!r}")


def _places(forest: Forest) -> list[_Place]:
    out: list[_Place] = []
    for t in forest.trees:
        out.append(_Place(t, "", None))
        for side in SIDES:
            out.extend(_Place(t, side, d) for d in t.slots[side])
    return out


def _doubles(pl: _Place) -> str:
    """The name of the moor above that doubles this card's points ("" if none)."""
    if pl.dweller is None or pl.side != "bottom" or pl.host.species is None:
        return ""
    p = pl.host.species.points
    if p.rule != "double_below":
        return ""
    tag = p.get("tag")
    return pl.host.species.name if tag is None or tag in pl.dweller.species.tags else ""


def _cave_bonus(number: int) -> int:
    if not number:
        return 0
    caves = load_catalog((MODULE,)).caves
    if not 1 <= number <= len(caves):
        raise ValueError(f"no cave number {number}")
    pts = caves[number - 1].points
    return int(pts.params["points"]) if pts is not None else 0


def _score(forest: Forest, multi: bool, best_moors: int) -> ForestScore:
    f = _facts(forest)
    places = _places(forest)
    grouped = _sets(places, f, multi, best_moors)
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
        pts, why = grouped[i] if i in grouped else _card(pl, f, multi, best_moors)
        doubled = _doubles(pl)
        if doubled:
            pts *= 2
            why = f"{why}; doubled by the {doubled} above it"
        lines[line] += pts
        cards.append(CardPoints(where, _shown(pl.host) if pl.dweller is None
                                else pl.dweller.species.printed, pts, why))
    bonus = _cave_bonus(forest.cave_number)
    if forest.cave or bonus:
        why = _n(forest.cave, "card") + " under the cave"
        if bonus:
            why += f", {bonus} more for cave {forest.cave_number}"
        lines["cave"] += forest.cave + bonus
        cards.append(CardPoints("cave", f"cave {forest.cave_number}" if forest.cave_number
                                else "cave", forest.cave + bonus, why))
    return ForestScore(sum(lines.values()), lines, tuple(cards))


def _moors(forest: Forest) -> int:
    return sum(1 for t in forest.trees if t.kind in MOOR_KINDS)


def score_table(forests: Sequence[Forest]) -> list[ForestScore]:
    """Score every Dartmoor forest of a table (one forest: the solo rules), explained."""
    multi = len(forests) > 1
    moors = [_moors(fo) for fo in forests]
    out: list[ForestScore] = []
    for i, fo in enumerate(forests):
        best = max(moors[:i] + moors[i + 1:], default=0)
        out.append(_score(fo, multi, best))
    return out


def totals(forests: Sequence[Forest]) -> list[int]:
    """Each forest's total, equal to ``score_table(forests)[i].total``."""
    return [s.total for s in score_table(forests)]


def winners_of(forests: Sequence[Forest]) -> list[int]:
    """Every index with the highest total (ties share the victory)."""
    t = totals(forests)
    return [i for i, v in enumerate(t) if t and v == max(t)]
