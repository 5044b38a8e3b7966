"""The games people play; importing this package registers each one's definition.

Face: :func:`make_game` (a definition by id), :func:`game_ids`, :data:`BASE_ID`.
"""

from __future__ import annotations

from forest_shuffle.engine.game import GameDef, UnknownGameError, canonical_id, game_by_id, game_ids
from forest_shuffle.games import base as _base  # noqa: F401  (registers the base game and its expansions)
from forest_shuffle.games import dartmoor as _dartmoor  # noqa: F401  (registers Dartmoor)
from forest_shuffle.games import dartmoor_solo as _solo  # noqa: F401  (the solo challenges)
from forest_shuffle.games import exploration as _exploration  # noqa: F401  (its effect ops)
from forest_shuffle.games.base import BASE_ID, EXPANSIONS

__all__ = ["BASE_ID", "EXPANSIONS", "GameDef", "UnknownGameError", "canonical_id",
           "game_ids", "make_game"]


def make_game(id: str = BASE_ID) -> GameDef:
    """The definition of the game ``id`` (``base``, ``base+alpine``, ``dartmoor``...);
    UnknownGameError naming the known ids otherwise."""
    return game_by_id(id)
