"""Forest Shuffle: Dartmoor, a game of its own, registered as ``dartmoor``.

Contract: :func:`dartmoor_game` builds Dartmoor's :class:`~forest_shuffle.engine.game.GameDef`
(built once): the ``dartmoor`` catalog (a standalone data module with a provisional
physical deck, ``docs/dartmoor.md``), 2 to 5 players, 45/30/15/0 cards boxed unseen for
2/3/4/5 players, hand and clearing limits 10, an opening hand of 6, the third winter card
ending the game, the six score-pad lines of the rulebook's scoring example, the scorer
:mod:`forest_shuffle.scoring.dartmoor` and the state class
:class:`~forest_shuffle.games.dartmoor_state.DartmoorState` (the cave draft, the turn
without saplings, moors, the discard pile, the stuck turn, the new effect ops). Its
``options`` name the differences from the base game for people and faces. The solo game
against the automa is not played yet (``REMOVED_AT_SETUP[1]`` is kept for it).
"""

from __future__ import annotations

import functools

from forest_shuffle.cards.model import load_catalog
from forest_shuffle.engine.game import GameDef, make_def, register
from forest_shuffle.games.dartmoor_state import DECISIONS, DartmoorState

DARTMOOR_ID = "dartmoor"
#: The score-pad lines (those of :data:`forest_shuffle.scoring.dartmoor.LINES`; games sit
#: below scoring's users but may not import it).
PAD_LINES: tuple[str, ...] = ("top", "bottom", "left_right", "cave", "moors", "trees")
#: Cards boxed unseen at setup by number of players (the rulebook); solo: as with 2.
REMOVED_AT_SETUP: dict[int, int] = {1: 45, 2: 45, 3: 30, 4: 15, 5: 0}
#: How the game differs from the base game where the engine must act (docs/dartmoor.md).
OPTIONS: dict[str, object] = {
    "modules": ("dartmoor",),
    "saplings": False,  # no sapling play; a card face down is a universal moor (by effect only)
    # the action kinds of its decisions: no mulligan (keep, mulligan) and no sapling
    "actions": ("draw", "take", "play", "pay", "yes", "no", "cave", "done", "choose", "moor",
                "discard"),
    "caves": "drafted",  # one numbered cave per player, drafted in reverse turn order
    "free_plays_trigger_permanents": True,  # free plays fire draw_on_play permanents
    "clearing_to": "discard",  # a cleared clearing goes to a discard pile
    "tree_reveal": "tree",  # only a card with the tree symbol reveals a deck card
    "solo_winter_cards": 1,  # solo: one winter card, shuffled into the last 10 cards
    "stuck_turn": "swap 2",  # neither action possible: show hand, discard 2, draw 2
    "provisional_deck": True,
}


@functools.cache
def dartmoor_game() -> GameDef:
    """Dartmoor's definition (built once)."""
    return make_def(DARTMOOR_ID, "Forest Shuffle: Dartmoor", load_catalog(("dartmoor",)),
                    players=(2, 3, 4, 5), removed_at_setup=REMOVED_AT_SETUP,
                    hand_limit=10, clearing_limit=10, opening_hand=6, winter_to_end=3,
                    pad_lines=PAD_LINES, options=OPTIONS, scorer="dartmoor",
                    state_class=DartmoorState, decisions=DECISIONS)


register(DARTMOOR_ID, dartmoor_game)
