"""One word, one place (issue 39): every effect op (``cards/ops.py``) and decision kind
(``engine/kinds.py``) is declared once, every game's definition holds exactly the ops its
catalog uses and the kinds it asks, and an op and a kind a test registers work end to end
in a toy game with no other file touched."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from importlib import resources
from typing import Any

import pytest

from forest_shuffle.bots.greedy import effect_value
from forest_shuffle.cards.model import CardDataError, Catalog, Effect, build_catalog
from forest_shuffle.cards.ops import EFFECT_OPS, OpDecl, op_decl, register_op
from forest_shuffle.engine import game as game_module
from forest_shuffle.engine.check import check_state
from forest_shuffle.engine.game import game_by_id, game_ids, make_def
from forest_shuffle.engine.kinds import DECISION_KINDS, KindDecl
from forest_shuffle.engine.state import GameState, Pending
from forest_shuffle.games.base import REMOVED_AT_SETUP
from forest_shuffle.text.cardtext import describe_effect
from forest_shuffle.text.narration import ask_words

ALL_GAMES = game_ids(unlisted=True)


def _used_ops(catalog: Catalog) -> set[str]:
    """The ops a catalog's species (effect, bonus, permanent) and caves name."""
    found: set[str] = set()
    for sp in catalog.species.values():
        for eff in (sp.effect, sp.bonus, sp.permanent):
            if eff is not None:
                found.add(eff.op)
    for cave in catalog.caves:
        if cave.effect is not None:
            found.add(cave.effect.op)
    return found


@pytest.mark.parametrize("gid", ALL_GAMES)
def test_every_op_a_game_uses_is_declared_and_in_its_table(gid: str) -> None:
    g = game_by_id(gid)
    used = _used_ops(g.catalog)
    assert used, gid
    assert set(g.ops) == used  # exactly what the catalog uses, nothing more
    for op in used:
        assert g.ops[op] is EFFECT_OPS[op] is op_decl(op)
        decl = g.ops[op]
        assert decl.name == op
        assert decl.words is not None, op  # every op has its own words
        if not decl.permanent or op == "draw_on_play":
            # a step: something that can be offered and applied
            assert decl.apply is not OpDecl.__dataclass_fields__["apply"].default, op


def test_an_unknown_op_is_refused_by_name_when_the_catalog_loads() -> None:
    species, cards = _base_docs()
    _set_effect(species, "Birch", {"op": "no_such_op", "n": 1})
    with pytest.raises(CardDataError, match="Birch.*unknown op 'no_such_op'"):
        build_catalog(species, cards)


def test_a_declared_parameter_is_required_by_the_loader() -> None:
    species, cards = _base_docs()
    _set_effect(species, "Birch", {"op": "draw"})
    with pytest.raises(CardDataError, match="op 'draw' needs 'n'"):
        build_catalog(species, cards)


def test_an_op_check_is_run_by_the_loader() -> None:
    species, cards = _base_docs()
    _set_effect(species, "Birch", {"op": "free_play", "count": 1})
    with pytest.raises(CardDataError, match="needs 'tag' or 'species'"):
        build_catalog(species, cards)


# ------------------------------------------------------------ a toy game with its own op

TOY_OP = "toy_deck_to_box"
TOY_GAME = "toy-registry"


def _base_docs() -> tuple[dict[str, Any], dict[str, Any]]:
    base = resources.files("forest_shuffle.cards") / "data" / "base"
    species = json.loads((base / "species.json").read_text(encoding="utf-8"))
    cards = json.loads((base / "cards.json").read_text(encoding="utf-8"))
    return species, cards


def _set_effect(species_doc: dict[str, Any], name: str, effect: dict[str, Any]) -> None:
    for sp in species_doc["species"]:
        if sp["name"] == name:
            sp["effect"] = effect
            return
    raise AssertionError(name)


def _toy_possible(s: GameState, eff: Effect) -> bool:
    return len(s.deck) > int(eff.params["n"])


def _toy_apply(s: GameState, eff: Effect) -> None:
    for _ in range(int(eff.params["n"])):
        s.box.append(s.deck.pop())


def _toy_check(params: Any) -> str:
    return "" if params["n"] in (1, 2, 3) else "n must be 1, 2 or 3"


TOY = OpDecl(TOY_OP, ("n",), _toy_check, _toy_possible, _toy_apply,
             words=lambda e, tw: f"Put {e.params['n']} deck cards into the box",
             value=lambda e, c, hand, room: 0.5 * int(e.params["n"]))


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A toy game: the base game whose Birch has the toy op as its effect. The op and the
    game are registered for this test alone."""
    monkeypatch.setitem(EFFECT_OPS, TOY_OP, TOY)  # restored after the test
    species, cards = _base_docs()
    _set_effect(species, "Birch", {"op": TOY_OP, "n": 2})

    def factory() -> Any:
        return make_def(TOY_GAME, "Toy", build_catalog(species, cards), (2, 3, 4, 5),
                        REMOVED_AT_SETUP[0])

    monkeypatch.setitem(game_module._FACTORIES, TOY_GAME, factory)
    monkeypatch.setitem(game_module._DEFS, TOY_GAME, factory())
    yield TOY_GAME


def test_a_registered_op_works_end_to_end_in_a_toy_game(toy: str) -> None:
    g = game_by_id(toy)
    assert g.ops[TOY_OP] is TOY
    birch = g.catalog.species["Birch"]
    assert birch.effect is not None and birch.effect.op == TOY_OP
    assert describe_effect(birch.effect) == "Put 2 deck cards into the box"
    assert effect_value(birch.effect, None, [], 3) == 1.0
    offered = applied = 0
    for seed in range(40):
        s = GameState.new(2, seed, game=toy)
        r = random.Random(seed)
        while not s.over:
            pend = s.pending
            assert pend is not None
            if pend.kind == "option" and pend.step is not None and pend.step[3] == "Birch" \
                    and pend.step[0] == "effect":
                offered += 1
                deck, box = len(s.deck), len(s.box)
                s.apply(s.game.a_yes)
                applied += 1
                assert (len(s.deck), len(s.box)) == (deck - 2, box + 2)
                check_state(s)
                continue
            s.apply(r.choice(s.legal_actions()))
        assert GameState.from_dict(s.to_dict()).scores() == s.scores()
        if applied >= 3:
            break
    assert offered >= 3 and applied >= 3


def test_a_registered_op_is_checked_by_its_own_check(toy: str) -> None:
    species, cards = _base_docs()
    _set_effect(species, "Birch", {"op": TOY_OP, "n": 7})
    with pytest.raises(CardDataError, match="Birch.*n must be 1, 2 or 3"):
        build_catalog(species, cards)


def test_registering_an_op_replaces_its_declaration(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(EFFECT_OPS, TOY_OP, TOY)
    other = OpDecl(TOY_OP, ("n",))
    assert register_op(other) is other and op_decl(TOY_OP) is other
    with pytest.raises(KeyError, match="no_such_op"):
        op_decl("no_such_op")


# ------------------------------------------------------------ decision kinds

def _structural(gid: str) -> set[str]:
    """The kinds a game asks whatever its cards (what its module gives make_def)."""
    from forest_shuffle.engine.game import BASE_DECISIONS
    from forest_shuffle.games.dartmoor_state import DECISIONS

    if gid.startswith("dartmoor"):
        return {d if isinstance(d, str) else d.name for d in DECISIONS}
    if "exploration" in gid.split("+"):  # its cave draft, in Exploration's own way
        from forest_shuffle.games.exploration import DECISIONS as EXPLORATION

        return {d if isinstance(d, str) else d.name for d in EXPLORATION}
    return set(BASE_DECISIONS)


@pytest.mark.parametrize("gid", ALL_GAMES)
def test_a_games_kinds_are_its_structural_ones_and_those_its_ops_push(gid: str) -> None:
    g = game_by_id(gid)
    pushed = {k for op in _used_ops(g.catalog) for k in EFFECT_OPS[op].kinds}
    assert set(g.kinds) == _structural(gid) | pushed
    for name, decl in g.kinds.items():
        assert decl.name == name
        assert decl.expected  # words for a refusal
        registered = DECISION_KINDS[name]
        # a game's own way of a kind keeps the kind's observation slot
        assert decl.obs == registered.obs >= 0


@pytest.mark.parametrize("gid", ["base", "base+alpine+woodland_edge", "dartmoor",
                                 "dartmoor-solo-1"])
def test_every_kind_a_game_reaches_is_in_its_table(gid: str) -> None:
    g = game_by_id(gid)
    seen: set[str] = set()
    for seed in range(12):
        s = GameState.new(min(g.players), seed, game=gid)
        r = random.Random(seed)
        while not s.over:
            assert s.decision is not None
            seen.add(s.decision)
            s.apply_legal(r.choice(s.legal_actions()))
    assert seen <= set(g.kinds)
    assert {"turn", "pay", "option"} <= seen


def test_the_observation_slots_are_stable_and_distinct() -> None:
    slots = {d.obs: name for name, d in DECISION_KINDS.items() if d.obs >= 0}
    assert len(slots) == len([d for d in DECISION_KINDS.values() if d.obs >= 0])
    assert [slots[i] for i in range(15)] == [
        "mulligan", "turn", "draw", "pay", "option", "free", "raccoon", "mole", "take",
        "clearing cave", "saplings", "cave draft", "universal moor", "discard", "draw or take"]


def test_the_pick_shapes_come_from_the_declarations() -> None:
    for gid in ("base", "dartmoor"):
        g = game_by_id(gid)
        picks = {k: d.pick for k, d in g.kinds.items() if d.pick is not None}
        cls = g.state_class or GameState
        assert picks == {k: v for k, v in cls.PICK_KINDS.items() if k in g.kinds}
    assert set(game_by_id("dartmoor").kinds["discard"].pick or ()) >= {"discard"}


TOY_KIND = "toy box"


def _toy_kind_legal(s: GameState, pend: Any) -> list[Any]:
    return [s.game.a_take[c] for c in s.clearing] + [s.game.a_done]


def _toy_kind_apply(s: GameState, pend: Any, action: Any) -> bool:
    if action.kind == "take":
        s.clearing.remove(action.card)
        s.box.append(action.card)
        if s.clearing:
            s.stack.append(pend)
    return True


TOY_KIND_DECL = KindDecl(TOY_KIND, _toy_kind_legal, _toy_kind_apply,
                         "take (a clearing card into the box) or done")


def _toy_push(s: GameState, eff: Effect) -> None:
    s.stack.append(Pending(TOY_KIND, s.current))


TOY_PUSH = OpDecl("toy_box_clearing", (), None, lambda s, e: bool(s.clearing), _toy_push,
                  (TOY_KIND,), lambda e, tw: "Put clearing cards into the box")


@pytest.fixture
def toy_kind(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A toy game whose Birch pushes a decision of a kind this test registers."""
    monkeypatch.setitem(EFFECT_OPS, TOY_PUSH.name, TOY_PUSH)
    monkeypatch.setitem(DECISION_KINDS, TOY_KIND, TOY_KIND_DECL)
    species, cards = _base_docs()
    _set_effect(species, "Birch", {"op": TOY_PUSH.name})
    g = make_def(TOY_GAME, "Toy", build_catalog(species, cards), (2, 3, 4, 5),
                 REMOVED_AT_SETUP[0])
    monkeypatch.setitem(game_module._FACTORIES, TOY_GAME, lambda: g)
    monkeypatch.setitem(game_module._DEFS, TOY_GAME, g)
    yield TOY_GAME


def test_a_registered_kind_works_end_to_end_in_a_toy_game(toy_kind: str) -> None:
    from forest_shuffle.engine.actions import Action, IllegalActionError

    g = game_by_id(toy_kind)
    assert g.kinds[TOY_KIND] is TOY_KIND_DECL
    asked = 0
    for seed in range(40):
        s = GameState.new(2, seed, game=toy_kind)
        r = random.Random(seed)
        while not s.over:
            if s.decision == TOY_KIND:
                asked += 1
                first = s.clearing[0]
                with pytest.raises(IllegalActionError, match="take \\(a clearing card into "
                                                             "the box\\) or done"):
                    s.apply(Action("pay", first))
                # the prompt of a kind the narration has no words for: its declaration's
                assert ask_words(s.view(s.current)) == \
                    "Choose: take (a clearing card into the box) or done."
                boxed = len(s.box)
                s.apply(Action("take", first))
                assert len(s.box) == boxed + 1 and first not in s.clearing
                check_state(s)
                again = GameState.from_dict(s.to_dict())
                assert again.legal_actions() == s.legal_actions()
                continue
            s.apply(r.choice(s.legal_actions()))
        if asked >= 3:
            break
    assert asked >= 3


def test_a_save_may_hold_only_the_kinds_its_game_asks() -> None:
    """A Dartmoor save with a decision of the base game's Raccoon (no Dartmoor card asks
    it) is refused by name, not played by code of another game."""
    from forest_shuffle.engine.check import BrokenSaveError

    s = GameState.new(2, 3, game="dartmoor")
    while s.turn == 0 or s.decision != "turn":  # past the cave draft
        s.apply(s.legal_actions()[0])
    data = s.to_dict()
    data["stack"][-1]["kind"] = "raccoon"
    with pytest.raises(BrokenSaveError, match='unknown decision "raccoon"'):
        GameState.from_dict(data)
    base = GameState.new(2, 3, game="base").to_dict()
    base["stack"][-1]["kind"] = "cave draft"
    with pytest.raises(BrokenSaveError, match='unknown decision "cave draft"'):
        GameState.from_dict(base)
