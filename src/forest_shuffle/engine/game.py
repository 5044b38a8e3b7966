"""Game definitions: what is fixed about one game of the family, carried by every state.

Contract: a :class:`GameDef` holds a game's card catalog, player counts, limits, setup plan
(cards boxed by player count, winter placement), score-pad lines, the permanent-effect
tables compiled from the data and the interned actions of the hot loop. Nothing about a
game is a module global: two definitions live side by side in one process. Definitions
are registered by id (:func:`register`, done by :mod:`forest_shuffle.games`) and looked up
with :func:`game_by_id`, the way OpenSpiel loads games by name; a definition pickles as
its id. The engine reads only this module, never a game's own module.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Final

import forest_shuffle.scoring  # noqa: F401  (the scorers declare their point rules to the data loader)
from forest_shuffle.cards.forest import Dweller, Forest
from forest_shuffle.cards.model import NEXT_TURN, NOW, TRIGGERS, Catalog, Effect, Species
from forest_shuffle.cards.ops import EFFECT_OPS, OpDecl
from forest_shuffle.engine.actions import (
    CAVE,
    CHOOSE,
    DISCARD,
    DONE,
    DRAW,
    KEEP,
    KINDS,
    MOOR,
    MULLIGAN,
    NO,
    PAY,
    PLAY,
    SAPLING,
    TAKE,
    YES,
    Action,
    make_action,
)
from forest_shuffle.engine.kinds import DECISION_KINDS, KindDecl

#: Scoring modules by name, imported on first use.
_SCORING: dict[str, ModuleType] = {}
#: Held while a definition's interned play actions grow and while a definition is built
#: (never on a hot path: readers take what was published, each in one assignment).
_LOCK: Final = threading.RLock()
#: Trees a half's play actions are interned for when a definition is made (random 2-player
#: games reach some 35 hosts in a forest at most; beyond, :meth:`GameDef.half_actions`).
HALF_TREES: Final = 32


class UnknownGameError(ValueError):
    """No game is registered under that id; the message lists the known ids."""


@dataclass(frozen=True, slots=True)
class Trigger:
    """A ``draw_on_play`` permanent effect compiled for the engine: ``name`` of the
    species, its ``trigger`` (one of :data:`~forest_shuffle.cards.model.TRIGGERS`), the ``tag``
    of ``tag played`` ("" otherwise) and the cards ``n`` it draws."""

    name: str
    trigger: str
    tag: str
    n: int


@dataclass(eq=False)
class GameDef:
    """One game of the family. Build with :func:`make_def`; look up with
    :func:`game_by_id`."""

    id: str
    title: str
    catalog: Catalog
    players: tuple[int, ...]
    removed_at_setup: Mapping[int, int]
    hand_limit: int = 10
    clearing_limit: int = 10
    opening_hand: int = 6
    winter_to_end: int = 3
    #: The lines of the score pad, in order (each card's points go to one).
    pad_lines: tuple[str, ...] = ("trees", "top_bottom", "left_right", "cave")
    #: Game-specific options the definition was made with (e.g. the modules in play).
    options: Mapping[str, Any] = field(default_factory=dict)
    #: The module of :mod:`forest_shuffle.scoring` that scores this game's tables: ``core``
    #: for the base family. Its ``scorer_for(catalog)`` makes :attr:`scoring`.
    scorer: str = "core"
    #: The vocabulary of point rules the scorer compiles this game's plans from (rule ->
    #: its declaration, ``scoring``'s ``point_rule``); None: the scoring module's own.
    point_rules: Mapping[str, Any] | None = None
    #: The class of this game's states: None for :class:`~forest_shuffle.engine.state.GameState`
    #: itself, or a subclass a game module supplies (Dartmoor's overrides the turn).
    state_class: Any = None

    # Compiled from the catalog by make_def (not arguments).
    #: This definition's scorer (``totals`` and ``score_table``), made by its scoring
    #: module for its catalog: the plans of its species are its own, shared with no other
    #: definition.
    scoring: Any = None
    cards: tuple[Any, ...] = ()
    deck_ids: tuple[int, ...] = ()  # every card of the deck but the winter cards
    winter_ids: tuple[int, ...] = ()
    #: Every card of the catalog that is a winter card (what a draw lays aside).
    winter_cards: frozenset[int] = frozenset()
    mushrooms: tuple[str, ...] = ()  # species with a draw_on_play permanent, sorted
    triggers: tuple[Trigger, ...] = ()  # in firing order
    permanent_sides: frozenset[str] = frozenset()  # sides where such species can sit
    permanent_hosts: bool = False  # a host species has a draw_on_play permanent
    #: The draw_on_play species that act from their placement on (``"from": "now"``:
    #: Dartmoor's shrubs), not from the owner's next turn.
    mushrooms_now: frozenset[str] = frozenset()
    # Interned actions (legal-action lists reuse them; apply's membership test hits
    # identity first).
    a_draw: Action = Action(DRAW)
    a_yes: Action = Action(YES)
    a_no: Action = Action(NO)
    a_done: Action = Action(DONE)
    a_keep_mulligan: tuple[Action, Action] = (Action(KEEP), Action(MULLIGAN))
    a_take: tuple[Action, ...] = ()
    a_sapling: tuple[Action, ...] = ()
    #: A hand card may be played as a sapling on a turn (the ``saplings`` option; Dartmoor: no).
    turn_saplings: bool = True
    #: The action kinds this game's decisions ask for (the ``actions`` option; every kind by
    #: default), in the order of :data:`~forest_shuffle.engine.actions.KINDS`: what faces
    #: list, and what a refusal says belongs to no decision of this game.
    action_kinds: tuple[str, ...] = KINDS
    a_pay: tuple[Action, ...] = ()
    a_cave: tuple[Action, ...] = ()
    a_tree: tuple[Action, ...] = ()
    a_choose: tuple[Action, ...] = ()  # choose a numbered cave (index = number)
    a_moor: tuple[Action, ...] = ()
    a_discard: tuple[Action, ...] = ()
    #: ``play cid side t`` interned, by the key :attr:`half_keys` gives (cid, side): a tuple
    #: of ``t`` = 0, 1, ..., :data:`HALF_TREES` - 1 made with the definition; for a forest
    #: of more trees :meth:`half_actions` replaces it by a longer one in one assignment
    #: (copy on write), so a reader in any thread sees a whole tuple whose item ``t`` plays
    #: at tree ``t``.
    half_acts: list[tuple[Action, ...]] = field(default_factory=list)
    #: (cid, side) -> its key in :attr:`half_acts`, for every half of a split card (made
    #: whole by :func:`make_def`, never changed).
    half_keys: dict[tuple[int, str], int] = field(default_factory=dict)
    #: By card id: each half of a split card as (side, species, its :attr:`half_acts` tuple
    #: as made with the definition (never changed), the species' cost, whether it
    #: ``stacks``); () for others.
    half_plays: tuple[tuple[tuple[str, Species, tuple[Action, ...], int, bool], ...], ...] = ()
    #: By card id: the tree symbol of a host card (:attr:`Card.symbol`; "" for others).
    host_symbol: tuple[str, ...] = ()
    #: The effect ops this game's catalog uses (species' effects, bonuses and permanents,
    #: caves' effects) -> their declarations (:mod:`forest_shuffle.cards.ops`): the
    #: engine resolves a step with one lookup here and a call.
    ops: dict[str, OpDecl] = field(default_factory=dict)
    #: The decision kinds this game asks -> their declarations
    #: (:mod:`forest_shuffle.engine.kinds`): the structural ones :func:`make_def` was
    #: given, those the ops of :attr:`ops` push, the game's own. The engine's legal
    #: actions and apply are one lookup here and a call.
    kinds: dict[str, KindDecl] = field(default_factory=dict)
    #: By card id: side -> the :class:`Dweller` a split card shows there
    #: (``Dweller.of_card``; frozen, so every forest may hold the same one); {} for others.
    dwellers: tuple[dict[str, Dweller], ...] = ()

    def __reduce__(self) -> tuple[Callable[[str], GameDef], tuple[str]]:
        """Pickle as the id (worker processes look the definition up again)."""
        return game_by_id, (self.id,)

    def __repr__(self) -> str:
        return f"GameDef({self.id!r})"

    def totals(self, forests: Sequence[Forest]) -> list[int]:
        """Each forest's total by this game's scorer."""
        fn: Callable[[Sequence[Forest]], list[int]] = self.scoring.totals
        return fn(forests)

    def totals_fn(self) -> Callable[[Sequence[Forest]], list[int]]:
        """This game's scorer's ``totals`` function itself (``fn(forests)`` is
        :meth:`totals`): a caller scoring many tables looks it up once."""
        fn: Callable[[Sequence[Forest]], list[int]] = self.scoring.totals
        return fn

    def score_table(self, forests: Sequence[Forest]) -> list[Any]:
        """Every forest's :class:`~forest_shuffle.scoring.core.ForestScore` by this game's
        scorer (its own score-pad lines, :attr:`pad_lines`)."""
        fn: Callable[[Sequence[Forest]], list[Any]] = self.scoring.score_table
        return fn(forests)

    def half_actions(self, cid: int, side: str, n_trees: int) -> tuple[Action, ...]:
        """At least ``play cid side t`` for t in 0..n_trees-1, item t at tree t: the
        interned tuple, grown when too short (under a lock, published whole in one
        assignment; safe from any thread). A card and side with no half: fresh actions."""
        key = self.half_keys.get((cid, side))
        if key is None:
            return tuple([make_action(PLAY, cid, side, t) for t in range(n_trees)])
        acts = self.half_acts[key]
        if len(acts) >= n_trees:
            return acts
        with _LOCK:
            acts = self.half_acts[key]  # another thread may have grown it meanwhile
            have = len(acts)
            if have < n_trees:
                # Room for a few more trees, so a growing forest seldom copies.
                acts = acts + tuple([make_action(PLAY, cid, side, t)
                                     for t in range(have, max(n_trees, have + 4))])
                self.half_acts[key] = acts
        return acts


def _scoring(name: str) -> ModuleType:
    """The module of :mod:`forest_shuffle.scoring` called ``name``, imported on first use."""
    mod = _SCORING.get(name)
    if mod is None:
        mod = _SCORING[name] = importlib.import_module(f"forest_shuffle.scoring.{name}")
    return mod


#: The decision kinds every game of the base family asks, whatever its cards: every kind
#: the base engine declares (a save or a test may set any of them in any such game).
BASE_DECISIONS: Final[tuple[str, ...]] = (
    "mulligan", "turn", "draw", "pay", "option", "free", "raccoon", "mole", "take",
    "clearing cave", "saplings")


def make_def(id: str, title: str, catalog: Catalog, players: tuple[int, ...],
             removed_at_setup: Mapping[int, int],
             decisions: Sequence[str | KindDecl] = BASE_DECISIONS, **kw: Any) -> GameDef:
    """A definition with its tables compiled from the catalog. ``decisions``: the decision
    kinds the game asks whatever its cards, by name (registered) or declared by the game
    (its own, or its own way of a registered kind); the kinds its ops push are added. Its
    scorer is compiled from the catalog too."""
    g = GameDef(id, title, catalog, players, dict(removed_at_setup), **kw)
    g.scoring = _scoring(g.scorer).scorer_for(catalog, g.point_rules)
    cards = catalog.cards
    g.cards = cards
    g.deck_ids = tuple(c.id for c in cards if c is not None and not c.is_winter)
    g.winter_ids = tuple(c.id for c in cards if c is not None and c.is_winter)
    g.winter_cards = frozenset(c.id for c in cards if c is not None and c.is_winter)
    trig: list[Trigger] = []
    sides: set[str] = set()
    hosts = False
    for sp in catalog.species.values():
        perm = sp.permanent
        if perm is not None and perm.op == "draw_on_play":
            trig.append(Trigger(sp.name, perm.params["trigger"], perm.params.get("tag", ""),
                                int(perm.params["n"])))
            if sp.is_host:
                hosts = True
            else:
                sides.update(sp.positions)
    trig.sort(key=lambda t: (TRIGGERS.index(t.trigger), t.name))
    g.triggers = tuple(trig)
    g.mushrooms = tuple(sorted(t.name for t in trig))
    g.permanent_sides = frozenset(sides)
    g.permanent_hosts = hosts
    g.mushrooms_now = frozenset(
        sp.name for sp in catalog.species.values()
        if sp.permanent is not None and sp.permanent.op == "draw_on_play"
        and sp.permanent.params.get("from", NEXT_TURN) == NOW)
    n = len(cards)
    g.a_take = tuple(make_action(TAKE, c) for c in range(n))
    g.a_sapling = tuple(make_action(SAPLING, c) for c in range(n))
    g.turn_saplings = bool(g.options.get("saplings", True))
    kinds = g.options.get("actions", KINDS)
    g.action_kinds = tuple(k for k in KINDS if k in kinds)
    g.a_pay = tuple(make_action(PAY, c) for c in range(n))
    g.a_cave = tuple(make_action(CAVE, c) for c in range(n))
    g.a_tree = tuple(make_action(PLAY, c) for c in range(n))
    g.a_moor = tuple(make_action(MOOR, c) for c in range(n))
    g.a_discard = tuple(make_action(DISCARD, c) for c in range(n))
    g.a_choose = tuple(make_action(CHOOSE, c) for c in range(
        max(len(catalog.caves), len(catalog.named_caves)) + 1))  # numbered or named caves
    for c in cards:
        if c is not None:
            for side in c.halves:
                g.half_keys[(c.id, side)] = len(g.half_acts)
                g.half_acts.append(tuple([make_action(PLAY, c.id, side, t)
                                          for t in range(HALF_TREES)]))
    g.half_plays = tuple(
        () if c is None else tuple((side, h.species, g.half_acts[g.half_keys[(c.id, side)]],
                                    h.species.cost, h.species.stacks)
                                   for side, h in c.halves.items())
        for c in cards)
    g.host_symbol = tuple("" if c is None else c.symbol for c in cards)
    g.ops = {op: EFFECT_OPS[op] for op in sorted(catalog_ops(catalog))}
    own = {d.name: d for d in decisions if isinstance(d, KindDecl)}
    names = [d if isinstance(d, str) else d.name for d in decisions]
    names += [k for decl in g.ops.values() for k in decl.kinds if k not in names]
    g.kinds = {k: own[k] if k in own else DECISION_KINDS[k] for k in dict.fromkeys(names)}
    g.dwellers = tuple({} if c is None else {side: Dweller.of_card(c, side) for side in c.halves}
                       for c in cards)
    return g


def catalog_ops(catalog: Catalog) -> set[str]:
    """Every effect op the catalog's species and caves use."""
    effects: list[Effect | None] = []
    for sp in catalog.species.values():
        effects += [sp.effect, sp.bonus, sp.permanent]
    effects += [cave.effect for cave in catalog.caves]
    return {e.op for e in effects if e is not None}


_FACTORIES: dict[str, Callable[[], GameDef]] = {}
_DEFS: dict[str, GameDef] = {}
_CANONICAL: list[Callable[[str], str | None]] = []
_UNLISTED: set[str] = set()


def register(id: str, factory: Callable[[], GameDef], listed: bool = True) -> None:
    """Register a game under ``id``; it is built on first lookup. An unlisted game (the
    Dartmoor solo challenges) is looked up by id but left out of :func:`game_ids`."""
    _FACTORIES[id] = factory
    if listed:
        _UNLISTED.discard(id)
    else:
        _UNLISTED.add(id)


def register_canonical(fn: Callable[[str], str | None]) -> None:
    """Register a function that maps other spellings of an id to a registered id (e.g.
    ``base+woodland_edge+alpine`` to ``base+alpine+woodland_edge``)."""
    _CANONICAL.append(fn)


def canonical_id(id: str) -> str:
    """The registered id for ``id`` (spelled any accepted way); UnknownGameError if none."""
    if not isinstance(id, str):
        raise UnknownGameError(f"a game id is a string, not {type(id).__name__}")
    if id in _FACTORIES:
        return id
    for fn in _CANONICAL:
        other = fn(id)
        if other is not None and other in _FACTORIES:
            return other
    known = ", ".join(game_ids())
    shown = id if len(id) <= 60 and id.isprintable() else repr(id[:60])
    raise UnknownGameError(f"unknown game {shown!r} (known: {known})")


def game_by_id(id: str) -> GameDef:
    """The registered definition with that id (built once)."""
    g = _DEFS.get(id) if isinstance(id, str) else None
    if g is not None:
        return g
    key = canonical_id(id)
    with _LOCK:  # built once, whole, then published (two threads get the same one)
        g = _DEFS.get(key)
        if g is None:
            g = _DEFS[key] = _FACTORIES[key]()
    return g


def game_ids(unlisted: bool = False) -> list[str]:
    """Every listed game id in registration order (with ``unlisted``: every id)."""
    return [g for g in _FACTORIES if unlisted or g not in _UNLISTED]
