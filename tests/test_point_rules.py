"""Point rules declared once, and the scorer given its game (issue 39, items 1 and 2).

A rule is one registration (``scoring.core.point_rule``): its params reach the data loader,
its plan and words the scorer, with no other file touched. A definition holds its own
scorer made from its catalog and vocabulary, so two definitions in one process, or the
base family's and Dartmoor's scorers on one table, never share a plan.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

import pytest

from forest_shuffle.cards.forest import Dweller, Forest, host_of_card
from forest_shuffle.cards.model import CardDataError, Catalog, build_catalog, load_catalog
from forest_shuffle.engine.game import GameDef, make_def
from forest_shuffle.games import make_game
from forest_shuffle.scoring import core, dartmoor
from forest_shuffle.scoring.core import RULES, PointRule, Scorer, point_rule

TOY = "test_per_sapling"


def _toy_rules() -> dict[str, PointRule]:
    """The base family's rules and a toy rule of this test: ``points_per`` for each sapling
    in the forest."""
    rules = dict(RULES)
    point_rule(rules, PointRule(
        TOY, ("points_per",),
        check=lambda params: "" if type(params["points_per"]) is int else
        "points_per must be an integer",
        points=lambda p, f, n, t: p.a * (f.sites - f.tree_cards),
        words=lambda p, f, n, t: f"{p.a} per sapling: {f.sites - f.tree_cards}"))
    return rules


def _catalog(points: Mapping[str, Any]) -> Catalog:
    """The base catalog with the Birch scoring by ``points``."""
    base = load_catalog(("base",))
    species = []
    for sp in base.species.values():
        raw: dict[str, Any] = {
            "name": sp.name, "kind": sp.kind, "count": sp.count, "cost": sp.cost,
            "tags": sorted(sp.tags), "positions": list(sp.positions),
            "points": dict(points) if sp.name == "Birch" else
            {"rule": sp.points.rule, **sp.points.params}, "text": dict(sp.text)}
        for key in ("effect", "bonus", "permanent"):
            eff = getattr(sp, key)
            raw[key] = None if eff is None else {"op": eff.op, **eff.params}
        if sp.plural:
            raw["plural"] = sp.plural
        if sp.short_name and sp.short_name != sp.name:
            raw["short_name"] = sp.short_name
        if len(sp.counts_as) > 1:
            raw["counts_as"] = list(sp.counts_as[1:])
        species.append(raw)
    from forest_shuffle.cards.model import _read

    return build_catalog({"module": "base", "species": species}, _read("base", "cards.json"))


def _table(catalog: Catalog) -> list[Forest]:
    """Two forests: Birch and Beech trees, saplings, a few dwellers."""
    birch = [c.id for c in catalog.cards if c is not None and c.species is not None
             and c.species.name == "Birch"]
    splits = [c for c in catalog.cards if c is not None and c.kind == "split"]
    a = Forest(trees=[host_of_card(catalog, birch[0]), host_of_card(catalog, birch[1]),
                      host_of_card(catalog, splits[0].id, sapling=True),
                      host_of_card(catalog, splits[1].id, sapling=True)])
    b = Forest(trees=[host_of_card(catalog, birch[2]),
                      host_of_card(catalog, splits[2].id, sapling=True)])
    for f, card in ((a, splits[3]), (b, splits[4])):
        side = next(iter(card.halves))
        f.trees[0].slots[side].append(Dweller.of_card(card, side))
    return [a, b]


def test_a_toy_rule_registered_here_scores_with_no_other_file_touched() -> None:
    rules = _toy_rules()
    catalog = _catalog({"rule": TOY, "points_per": 3})
    g = make_def("toy", "Toy", catalog, (2,), {2: 0}, point_rules=rules)
    table = _table(catalog)
    birch = [c for c in g.score_table(table)[0].cards if c.species == "Birch"]
    assert [c.points for c in birch] == [6, 6]  # two saplings in the first forest
    assert birch[0].why == "3 per sapling: 2"
    assert g.totals(table) == [s.total for s in g.score_table(table)]
    plain = Scorer(load_catalog(("base",)))
    old = plain.totals(_table(load_catalog(("base",))))
    assert g.totals(table)[0] - old[0] == 2 * (6 - 1)  # the Birch's flat 1 each replaced
    # The loader knows the rule's params and its check.
    with pytest.raises(CardDataError, match=f"rule '{TOY}' needs 'points_per'"):
        _catalog({"rule": TOY})
    with pytest.raises(CardDataError, match="points_per must be an integer"):
        _catalog({"rule": TOY, "points_per": "3"})
    # A scorer whose vocabulary lacks it refuses the catalog by the species' name.
    with pytest.raises(ValueError, match=f"Birch: no scoring for rule '{TOY}'"):
        Scorer(catalog)


def test_two_definitions_in_one_process_score_with_their_own_plans() -> None:
    catalog = load_catalog(("base",))
    doubled = dict(RULES)
    del doubled["flat"]
    point_rule(doubled, PointRule("flat", ("points_each",),
                                  points=lambda p, f, n, t: 2 * p.a,
                                  words=lambda p, f, n, t: f"twice {p.a}"))
    one = make_def("one", "One", catalog, (2,), {2: 0})
    two = make_def("two", "Two", catalog, (2,), {2: 0}, point_rules=doubled)
    table = _table(catalog)
    birch = catalog.species["Birch"]
    assert one.scoring.plan(birch) is not two.scoring.plan(birch)
    assert one.scoring.plan(birch).r is RULES["flat"]
    assert two.scoring.plan(birch).r is doubled["flat"]
    first = one.totals(table), two.totals(table)
    for _ in range(2):  # interleaved, any order: each keeps its own
        assert two.totals(table) == first[1] and one.totals(table) == first[0]
    assert first[1][0] - first[0][0] == 2  # the two Birches: 1 more each
    assert first[1][1] - first[0][1] == 1
    assert [c.why for c in two.score_table(table)[0].cards if c.species == "Birch"] == \
        ["twice 1", "twice 1"]
    assert birch.plan is None  # no plan on the species: plans belong to a scorer


def _shared_table() -> list[Forest]:
    """A table of base cards whose rules both the base family and Dartmoor score."""
    catalog = load_catalog(("base",))
    both = set(RULES) & set(dartmoor.RULES)
    trees = [c for c in catalog.cards if c is not None and c.is_tree
             and c.species is not None and c.species.points.rule in both]
    splits = [c for c in catalog.cards if c is not None and c.kind == "split"
              and all(h.species.points.rule in both for h in c.halves.values())]
    forests = []
    for k in range(2):
        f = Forest(trees=[host_of_card(catalog, c.id) for c in trees[k::2][:4]])
        for j, card in enumerate(splits[k::2][:8]):
            side = list(card.halves)[j % len(card.halves)]
            host = f.trees[j % len(f.trees)]
            if host.accepts(card.halves[side].species, side):
                host.slots[side].append(Dweller.of_card(card, side))
        f.cave = 2 + k
        forests.append(f)
    return forests


def test_one_table_scored_for_base_and_dartmoor_never_mixes_plans() -> None:
    base, moor = make_game("base"), make_game("dartmoor")
    table = _shared_table()
    assert sum(len(s) for f in table for t in f.trees for s in t.slots.values()) >= 6
    reg = base.scoring.reg
    want_base = Scorer(base.catalog).totals(copy.deepcopy(table))
    want_moor = dartmoor.DartmoorScorer(moor.catalog).totals(copy.deepcopy(table))
    for _ in range(2):
        assert moor.totals(table) == want_moor
        assert base.totals(table) == want_base
        assert [s.total for s in moor.score_table(table)] == want_moor
        assert [s.total for s in base.score_table(table)] == want_base
    assert base.scoring.reg is reg  # Dartmoor's scoring added no plan to the base game's
    assert base.scoring is not moor.scoring and base.scoring is not make_game(
        "base+alpine").scoring
    species = {d.species for f in table for t in f.trees for s in t.slots.values() for d in s}
    assert all(sp.plan is None for sp in species)
    # Each scorer keeps its own lines: the table's cards, the game's score pad.
    assert list(base.score_table(table)[0].lines) == list(core.LINES)
    assert list(moor.score_table(table)[0].lines) == list(dartmoor.LINES)


def test_every_rule_of_a_catalog_is_compiled_with_its_definition() -> None:
    for gid in ("base", "base+alpine+woodland_edge"):
        known: GameDef = make_game(gid)
        g = make_def(gid, known.title, known.catalog, known.players, known.removed_at_setup)
        assert set(g.scoring.reg.plans) == set(g.catalog.species.values())  # made whole
        assert set(g.catalog.species.values()) <= set(known.scoring.reg.plans)
    with pytest.raises(ValueError, match="no scoring for rule"):
        Scorer(load_catalog(("dartmoor",)))  # Dartmoor's own rules are not the base family's


def test_dartmoor_caves_come_from_the_definition_not_a_global_catalog() -> None:
    """A Dartmoor definition whose catalog's cave bonus differs scores its own bonus."""
    from dataclasses import replace

    from forest_shuffle.cards.model import Points

    moor = make_game("dartmoor")
    caves = moor.catalog.caves
    number = next(c.number for c in caves if c.points is not None)
    bonus = int(caves[number - 1].points.params["points"])  # type: ignore[union-attr]
    richer = tuple(replace(c, points=Points("cave_bonus", {"points": bonus + 4}))
                   if c.number == number else c for c in caves)
    catalog = replace(moor.catalog, caves=richer)
    g = make_def("dartmoor-richer-cave", moor.title, catalog, moor.players,
                 moor.removed_at_setup, pad_lines=moor.pad_lines, options=moor.options,
                 scorer="dartmoor", state_class=moor.state_class)
    table = [Forest(cave=3), Forest(cave=1)]
    table[0].cave_number = number
    assert moor.totals(table) == [3 + bonus, 1]
    assert g.totals(table) == [3 + bonus + 4, 1]
    assert g.score_table(table)[0].lines["cave"] == 3 + bonus + 4
    assert moor.totals(table) == [3 + bonus, 1]  # each definition its own caves
