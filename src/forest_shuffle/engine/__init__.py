"""The pure rules core: one contract for every game (docs/architecture.md).

No I/O, no printing, no global random state; it imports no game and no face. Modules:
``game`` (GameDef and the registry of games by id), ``options`` (Rules: named switches),
``actions`` (Action values and their text form), ``setup`` (the deal's shuffles from the
secret seed), ``state`` (GameState: turn flow, pending decisions, legal/apply/clone/save),
``view`` (PlayerView: the one place hidden information is filtered), ``effects`` (the
base family's effect ops, declared once), ``kinds`` and ``decisions`` (the registry of
decision kinds and the base family's, declared once), ``picks`` (decisions
that take several cards as one choice of a set), ``check`` (checks of saves and states).

Face: :class:`GameState`, :class:`GameDef`, :func:`game_by_id`, :class:`Action`, the errors,
:class:`Rules`, :class:`PlayerView`, :func:`make_view`, :class:`PickShape`, :func:`pick_shape`,
:func:`pick_actions`.
"""

from forest_shuffle.engine import (
           decisions,  # noqa: F401  (registers the base family's kinds)
           effects,  # noqa: F401  (registers the base family's ops)
)
from forest_shuffle.engine.actions import Action, ActionParseError, IllegalActionError
from forest_shuffle.engine.check import BrokenSaveError
from forest_shuffle.engine.game import GameDef, UnknownGameError, game_by_id, game_ids
from forest_shuffle.engine.options import Rules
from forest_shuffle.engine.picks import PickShape, pick_actions, pick_problem, pick_shape
from forest_shuffle.engine.state import GameState
from forest_shuffle.engine.view import PlayerView, make_spectator_view, make_view

__all__ = ["Action", "ActionParseError", "BrokenSaveError", "GameDef", "GameState",
           "IllegalActionError", "PickShape", "PlayerView", "Rules", "UnknownGameError",
           "game_by_id", "game_ids", "make_spectator_view", "make_view", "pick_actions",
           "pick_problem", "pick_shape"]
