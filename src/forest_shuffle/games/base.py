"""Forest Shuffle, the base game, and its expansion modules Alpine and Woodland Edge.

Registers ``base``, ``base+alpine``, ``base+woodland_edge`` and
``base+alpine+woodland_edge``, and each of them with Exploration's rare cards and named
caves (``base+exploration``, ``base+alpine+exploration``...; the module written last, any
order accepted), whose state class is Exploration's (the cave draft). The expansions are
data modules shuffled into the base deck; what differs is the number of cards boxed unseen
at setup (BGA's implementation values, the only ones found: see docs/rules.md).
"""

from __future__ import annotations

from collections.abc import Mapping

from forest_shuffle.cards.model import Catalog, load_catalog
from forest_shuffle.engine.game import GameDef, make_def, register, register_canonical

BASE_ID = "base"
#: The expansion modules, in the order their ids are written.
EXPANSIONS: tuple[str, ...] = ("alpine", "woodland_edge")
_TITLES = {"alpine": "Alpine", "woodland_edge": "Woodland Edge"}

#: Cards returned to the box unseen at setup, by number of expansions and of players.
REMOVED_AT_SETUP: dict[int, dict[int, int]] = {
    0: {2: 30, 3: 20, 4: 10, 5: 0},
    1: {2: 55, 3: 40, 4: 25, 5: 10},
    2: {2: 90, 3: 60, 4: 45, 5: 30},
}


#: Modules of rare cards (Exploration's): each of their cards shuffled in sends one more
#: card back to the box at setup (LB-SETUP, the rulebook's "Around the Globe"), so the
#: deck keeps its size. They do not count among the expansions of :data:`REMOVED_AT_SETUP`.
RARE_MODULES: tuple[str, ...] = ("exploration",)


def removed_at_setup(catalog: Catalog, modules: tuple[str, ...]) -> dict[int, int]:
    """Cards boxed unseen at setup, by number of players, for the base game with
    ``modules`` (its catalog's cards): :data:`REMOVED_AT_SETUP` of the expansions among
    them, plus one per card of a module of :data:`RARE_MODULES`."""
    expansions = sum(1 for m in modules if m not in RARE_MODULES)
    rare = sum(1 for c in catalog.cards if c is not None and c.module in RARE_MODULES)
    table: Mapping[int, int] = REMOVED_AT_SETUP[expansions]
    return {players: n + rare for players, n in table.items()}


def _game_id(modules: tuple[str, ...]) -> str:
    return "+".join((BASE_ID, *modules))


def _factory(modules: tuple[str, ...]) -> GameDef:
    catalog = load_catalog((BASE_ID, *modules))
    title = "Forest Shuffle" + "".join(f" + {_TITLES[m]}" for m in modules)
    return make_def(_game_id(modules), title, catalog, players=(2, 3, 4, 5),
                    removed_at_setup=removed_at_setup(catalog, modules),
                    options={"modules": modules,
                             # the action kinds of its decisions: no Dartmoor ones
                             "actions": ("keep", "mulligan", "draw", "take", "play",
                                         "sapling", "pay", "yes", "no", "cave", "done")})


def _canonical(id: str) -> str | None:
    """``base+woodland_edge+alpine`` (any order, no repeats) -> the registered id."""
    parts = id.strip().lower().split("+")
    if parts[:1] != [BASE_ID] or len(set(parts)) != len(parts):
        return None
    rest = parts[1:]
    if not set(rest) <= set(EXPANSIONS):
        return None
    return _game_id(tuple(m for m in EXPANSIONS if m in rest))


register(BASE_ID, lambda: _factory(()))
for _mods in (("alpine",), ("woodland_edge",), ("alpine", "woodland_edge")):
    register(_game_id(_mods), (lambda m: lambda: _factory(m))(_mods))
register_canonical(_canonical)

# exploration game ids
#: The rare-card module, written after the expansions in a game id (``spec/forest-json.md``,
#: version 3); its games have the named caves, drafted before the first turn.
EXPLORATION = "exploration"


def _exploration_factory(modules: tuple[str, ...]) -> GameDef:
    from forest_shuffle.games.exploration import DECISIONS, ExplorationState

    catalog = load_catalog((BASE_ID, *modules, EXPLORATION))
    title = ("Forest Shuffle" + "".join(f" + {_TITLES[m]}" for m in modules)
             + " + Exploration")
    return make_def(_game_id((*modules, EXPLORATION)), title, catalog, players=(2, 3, 4, 5),
                    removed_at_setup=removed_at_setup(catalog, (*modules, EXPLORATION)),
                    state_class=ExplorationState, decisions=DECISIONS,
                    options={"modules": (*modules, EXPLORATION),
                             "actions": ("keep", "mulligan", "draw", "take", "play",
                                         "sapling", "pay", "yes", "no", "cave", "done",
                                         "choose")})


def _exploration_canonical(id: str) -> str | None:
    """``base+exploration+alpine`` (any order, no repeats) -> the registered id."""
    parts = id.strip().lower().split("+")
    if parts[:1] != [BASE_ID] or len(set(parts)) != len(parts) or EXPLORATION not in parts:
        return None
    rest = set(parts[1:]) - {EXPLORATION}
    if not rest <= set(EXPANSIONS):
        return None
    return _game_id((*(m for m in EXPANSIONS if m in rest), EXPLORATION))


_EXPLORATION_SETS: tuple[tuple[str, ...], ...] = ((), ("alpine",), ("woodland_edge",),
                                                  ("alpine", "woodland_edge"))
for _with in _EXPLORATION_SETS:
    register(_game_id((*_with, EXPLORATION)), (lambda m: lambda: _exploration_factory(m))(_with))
register_canonical(_exploration_canonical)
