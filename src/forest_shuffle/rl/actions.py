"""One stable integer id per action, shared by every game and both research adapters.

Contract: :func:`action_to_id` and :func:`id_to_action` are inverse bijections between the
encodable :class:`~forest_shuffle.engine.actions.Action` values and ``range(NUM_ACTIONS)``.
An id is plain arithmetic on the action's kind, card, side and tree (no hashing, no table
built at import), so it is the same in every process whatever ``PYTHONHASHSEED`` is, and
one id space serves every registered game (an id names the kind, a card number of that
game's data, the side and the tree; the base family shares its card numbers, Dartmoor
numbers its own cards from 1).

Id ranges (``C`` = :data:`CARD_SLOTS`, ``T`` = :data:`TREE_CAP`; a block holds ``C`` ids,
one per number ``0..C-1``: a card id, or for ``choose`` a cave number; id ``offset + 0``
belongs to card 0, which no game deals):

======================  ===========================================  ===================
ids                     action                                       formula
======================  ===========================================  ===================
0..15                   ``keep mulligan draw yes no done``, then     :data:`BARE` index
                        10 ids reserved for new bare kinds
16 + k*C + card         block k of :data:`CARD_KINDS`: ``take``,     16 + k*C + card
                        ``sapling``, ``pay``, ``cave``, ``play``
                        (a tree or shrub), then Dartmoor's
                        ``choose`` (a cave), ``moor``, ``discard``;
                        blocks 8..11 reserved for new kinds
16+12C .. NUM_ACTIONS-1 ``play CARD SIDE TREE`` (a half)             16 + 12C + (card*4
                                                                     + side)*T + tree
======================  ===========================================  ===================

Sides are numbered in the order of :data:`~forest_shuffle.cards.model.SIDES` (top, bottom,
left, right); trees count from 0 as in :class:`Action`.

The tree cap. Trees are counted up to :data:`TREE_CAP` = 200, and no forest can hold
more hosts than that: every host is a card put into play at setup (a card of the deck not
boxed), and no registered game puts more than 200 into play (base + Alpine + Woodland Edge
with 5 players: 230 - 30). The tests check that bound for every registered game and player
count, so a new game that puts more cards into play fails them until the cap is raised.
(A smaller cap would not be safe: over 2,000 random games a forest reached 36 hosts, but a
policy that hoards saplings and trees reaches 69 in a 2-player game.) Should a half play
to tree ``TREE_CAP`` or later ever be legal, it has no id (:func:`action_to_id` raises
:class:`ActionEncodingError`) and the masks leave it out.
"""

from __future__ import annotations

from forest_shuffle.cards.model import SIDES
from forest_shuffle.engine.actions import (
    CAVE,
    DONE,
    DRAW,
    KEEP,
    MULLIGAN,
    NO,
    PAY,
    PLAY,
    SAPLING,
    TAKE,
    YES,
    Action,
)

#: The card numbers the encoding has room for (0..CARD_SLOTS-1). The games of today use
#: up to 233 (base + Alpine + Woodland Edge; Dartmoor 1 to 180); the rest is room for later
#: modules. Changing it changes every id above the bare ones.
CARD_SLOTS = 512
#: Trees 0..TREE_CAP-1 of a forest can be named by a half play: the most cards any
#: registered game puts into play, so no forest has more hosts (module docstring).
TREE_CAP = 200
#: The actions without arguments, in id order (ids 0..len-1).
BARE: tuple[str, ...] = (KEEP, MULLIGAN, DRAW, YES, NO, DONE)
#: Ids kept for actions without arguments (the unused ones are reserved).
BARE_SLOTS = 16
#: The kinds with one number, one block of CARD_SLOTS ids each, in id order (Dartmoor's
#: kinds are spelled here so these ids do not depend on which engine modules exist).
CARD_KINDS: tuple[str, ...] = (TAKE, SAPLING, PAY, CAVE, PLAY, "choose", "moor", "discard")
#: Blocks kept for kinds with one number (the unused ones are reserved).
CARD_BLOCKS = 12

#: The first id of each kind's block.
BLOCK_BASE: dict[str, int] = {k: BARE_SLOTS + i * CARD_SLOTS for i, k in enumerate(CARD_KINDS)}
HALF_BASE = BARE_SLOTS + CARD_BLOCKS * CARD_SLOTS
#: The number of distinct action ids (415,760).
NUM_ACTIONS = HALF_BASE + CARD_SLOTS * len(SIDES) * TREE_CAP

_BARE_ID = {k: i for i, k in enumerate(BARE)}
_SIDE_ID = {s: i for i, s in enumerate(SIDES)}
_BARE_ACTIONS = tuple(Action(k) for k in BARE)


class ActionEncodingError(ValueError):
    """An action or an id outside the encoding; the message says which bound it breaks."""


def half_side_id(action: Action) -> int:
    """The side's index of a half play (``SIDES`` order), its tree checked against
    ``TREE_CAP``; ActionEncodingError names the bound it breaks. Both encodings use it."""
    side = _SIDE_ID.get(action.side)
    if side is None:
        raise ActionEncodingError(f"unknown side {action.side!r}")
    if not 0 <= action.tree < TREE_CAP:
        raise ActionEncodingError(f"tree {action.tree + 1} is beyond the cap of "
                                  f"{TREE_CAP} trees")
    return side


def action_to_id(action: Action) -> int:
    """The id of ``action`` (see the module table); ActionEncodingError if it has none."""
    kind = action.kind
    bare = _BARE_ID.get(kind)
    if bare is not None:
        return bare
    card = action.card
    if not 0 <= card < CARD_SLOTS:
        raise ActionEncodingError(f"card {card} is outside the encoding (0..{CARD_SLOTS - 1})")
    if kind == PLAY and action.side:
        side = half_side_id(action)
        return HALF_BASE + (card * len(SIDES) + side) * TREE_CAP + action.tree
    base = BLOCK_BASE.get(kind)
    if base is None:
        raise ActionEncodingError(f"unknown action kind {kind!r}")
    return base + card


def id_to_action(i: int) -> Action:
    """The action with id ``i``; ActionEncodingError for a reserved id or one out of range."""
    if not 0 <= i < NUM_ACTIONS:
        raise ActionEncodingError(f"action id {i} is outside 0..{NUM_ACTIONS - 1}")
    if i < BARE_SLOTS:
        if i >= len(BARE):
            raise ActionEncodingError(f"action id {i} is reserved")
        return _BARE_ACTIONS[i]
    if i < HALF_BASE:
        block, card = divmod(i - BARE_SLOTS, CARD_SLOTS)
        if block >= len(CARD_KINDS):
            raise ActionEncodingError(f"action id {i} is reserved")
        return Action(CARD_KINDS[block], card)
    rest, tree = divmod(i - HALF_BASE, TREE_CAP)
    card, side = divmod(rest, len(SIDES))
    return Action(PLAY, card, SIDES[side], tree)


def encodable(action: Action) -> bool:
    """Whether ``action`` has an id (false only beyond the caps)."""
    try:
        action_to_id(action)
    except ActionEncodingError:
        return False
    return True
