"""A compact action encoding for learning: 3,800 ids for every registered game.

Contract: beside the stable full encoding of :mod:`forest_shuffle.rl.actions` (415,760 ids,
one per action), this one names every action with at most :data:`NUM_COMPACT` ids by
making the host of a half play a **second step**. A half play ``play CARD SIDE TREE`` is
two ids: first ``half CARD SIDE`` (which half of which card), then ``host TREE`` (which
host of the own forest it goes to). Every other action is one id. So each legal action is
exactly one id, or exactly one pair of ids for a half play, and two different legal
actions never share their ids.

Ids (``K`` = :data:`COMPACT_CARDS` = 256 card numbers; today's games use 1 to 233):

=======================  ==========================================  ===================
ids                      action                                      id
=======================  ==========================================  ===================
0 - 5                    ``keep mulligan draw yes no done``           in that order
6 - 15                   reserved for new actions without arguments
16 + k*K + card          block k of :data:`~forest_shuffle.rl.actions.CARD_KINDS`:
                         take, sapling, pay, cave, play (a tree,
                         shrub or moor), choose (a cave number),
                         moor, discard (blocks 8 and 9 reserved)
16 + 10K + 4*card + s    ``half CARD SIDE`` (the first step of a     2576 + 4 card + s
                         half play; s: top, bottom, left, right)
16 + 14K + tree          ``host TREE`` (the second step)              3600 + tree
=======================  ==========================================  ===================

Hosts are counted up to :data:`~forest_shuffle.rl.actions.TREE_CAP` (200, safe for every
registered game: see :mod:`forest_shuffle.rl.actions`), so ``NUM_COMPACT`` = 3,800.

:class:`CompactDecision` is the two-step choice over one list of legal actions: its
:meth:`~CompactDecision.ids` are the ids legal now (the first step's, or after a
``half`` the hosts legal for that half), :meth:`~CompactDecision.choose` takes one id and
gives the action once it is complete (None after a ``half``). :func:`split` and
:func:`join` convert an action to its ids and back.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from forest_shuffle.cards.model import SIDES
from forest_shuffle.engine.actions import PLAY, Action
from forest_shuffle.rl.actions import (
    BARE,
    BARE_SLOTS,
    CARD_KINDS,
    TREE_CAP,
    ActionEncodingError,
    half_side_id,
)

#: Card numbers the compact encoding has room for (0..COMPACT_CARDS-1).
COMPACT_CARDS = 256
#: Blocks of COMPACT_CARDS ids kept for kinds with one number (8 used, 2 reserved).
COMPACT_BLOCKS = 10
#: First id of ``half CARD SIDE`` and of ``host TREE``.
HALF_START = BARE_SLOTS + COMPACT_BLOCKS * COMPACT_CARDS
HOST_START = HALF_START + len(SIDES) * COMPACT_CARDS
#: The number of compact ids (3,800).
NUM_COMPACT = HOST_START + TREE_CAP

_BARE_ID = {k: i for i, k in enumerate(BARE)}
_BLOCK = {k: BARE_SLOTS + i * COMPACT_CARDS for i, k in enumerate(CARD_KINDS)}
_BARE_ACTIONS = tuple(Action(k) for k in BARE)
_NSIDES = len(SIDES)

Mask = npt.NDArray[np.int8]


def split(action: Action) -> tuple[int, ...]:
    """The compact ids of ``action``: one id, or (half, host) for a half play;
    ActionEncodingError beyond the caps."""
    kind = action.kind
    bare = _BARE_ID.get(kind)
    if bare is not None:
        return (bare,)
    card = action.card
    if not 0 <= card < COMPACT_CARDS:
        raise ActionEncodingError(f"card {card} is outside the compact encoding "
                                  f"(0..{COMPACT_CARDS - 1})")
    if kind == PLAY and action.side:
        side = half_side_id(action)
        return (HALF_START + card * _NSIDES + side, HOST_START + action.tree)
    base = _BLOCK.get(kind)
    if base is None:
        raise ActionEncodingError(f"unknown action kind {kind!r}")
    return (base + card,)


def first_id(action: Action) -> int:
    """The id of ``action``'s first (or only) step."""
    return split(action)[0]


def join(ids: Sequence[int]) -> Action:
    """The action of ``ids`` (one id, or a half and a host): the inverse of :func:`split`;
    ActionEncodingError for reserved ids, ids out of range or a wrong sequence."""
    if not ids or len(ids) > 2:
        raise ActionEncodingError(f"an action is one or two compact ids, not {len(ids)}")
    i = int(ids[0])
    if not 0 <= i < HOST_START:
        raise ActionEncodingError(f"compact id {i} does not start an action "
                                  f"(0..{HOST_START - 1})")
    if i >= HALF_START:
        if len(ids) != 2:
            raise ActionEncodingError(f"compact id {i} (a half) needs a host id after it")
        card, side = divmod(i - HALF_START, _NSIDES)
        return Action(PLAY, card, SIDES[side], host_tree(int(ids[1])))
    if len(ids) != 1:
        raise ActionEncodingError(f"compact id {i} is a whole action; no second id")
    if i < BARE_SLOTS:
        if i >= len(BARE):
            raise ActionEncodingError(f"compact id {i} is reserved")
        return _BARE_ACTIONS[i]
    block, card = divmod(i - BARE_SLOTS, COMPACT_CARDS)
    if block >= len(CARD_KINDS):
        raise ActionEncodingError(f"compact id {i} is reserved")
    return Action(CARD_KINDS[block], card)


def host_tree(i: int) -> int:
    """The tree of the host id ``i``; ActionEncodingError for another id."""
    if not HOST_START <= i < NUM_COMPACT:
        raise ActionEncodingError(f"compact id {i} is not a host ({HOST_START}.."
                                  f"{NUM_COMPACT - 1})")
    return i - HOST_START


def half_of(i: int) -> tuple[int, str] | None:
    """(card, side) of a ``half`` id, None for any other id."""
    if HALF_START <= i < HOST_START:
        card, side = divmod(i - HALF_START, _NSIDES)
        return card, SIDES[side]
    return None


_FIRST: dict[Action, int] = {}  # action -> its first id (-1: none); filled as met


def _first_of(a: Action) -> int:
    try:
        i = split(a)[0]
    except ActionEncodingError:
        i = -1
    if len(_FIRST) > 400_000:  # every action of every game is far fewer
        _FIRST.clear()
    _FIRST[a] = i
    return i


class CompactDecision:
    """The two-step choice over one decision's legal actions (see the module contract).

    ``legal`` is the engine's list (a half beyond the caps has no ids and is left out, as
    the full encoding's masks leave it out). ``half`` is the half chosen by a first step,
    or None. The first step's ids are worked out once, when first asked for."""

    __slots__ = ("_first", "_hosts", "_mask", "half", "legal")

    def __init__(self, legal: Sequence[Action]) -> None:
        self.legal = legal
        self.half: int | None = None
        self._first: dict[int, Action] | None = None  # first id -> action (a half: any)
        self._mask: bytes | None = None
        self._hosts: dict[int, Action] = {}

    def _scan(self) -> tuple[dict[int, Action], bytes]:
        first: dict[int, Action] = {}
        bits = bytearray(NUM_COMPACT)
        get = _FIRST.get
        for a in self.legal:
            i = get(a)
            if i is None:
                i = _first_of(a)
            if i >= 0:
                bits[i] = 1
                first[i] = a
        frozen = bytes(bits)  # numpy views of it are read-only
        self._first, self._mask = first, frozen
        return first, frozen

    def _host_map(self, half: int) -> dict[int, Action]:
        card, side = divmod(half - HALF_START, _NSIDES)
        name = SIDES[side]
        return {HOST_START + a.tree: a for a in self.legal
                if a.card == card and a.side == name and a.kind == PLAY and a.tree < TREE_CAP}

    def ids(self) -> list[int]:
        """The ids legal now, ascending."""
        if self.half is not None:
            return sorted(self._hosts)
        first = self._first if self._first is not None else self._scan()[0]
        return sorted(first)

    def mask(self, out: Mask | None = None) -> Mask:
        """``int8`` of length NUM_COMPACT, 1 at each id legal now: written into ``out``, or
        a read-only array of this decision's own (no copy; it stays as it is)."""
        bits: bytes | bytearray
        if self.half is not None:
            bits = bytearray(NUM_COMPACT)
            for h in self._hosts:
                bits[h] = 1
            bits = bytes(bits)
        else:
            bits = self._mask if self._mask is not None else self._scan()[1]
        if out is None:
            m: Mask = np.frombuffer(bits, np.int8)
            return m
        out[:] = np.frombuffer(bits, np.int8)
        return out

    def mask_has(self, i: int) -> bool:
        """Whether id ``i`` is legal now."""
        if self.half is not None:
            return i in self._hosts
        bits = self._mask if self._mask is not None else self._scan()[1]
        return 0 <= i < NUM_COMPACT and bits[i] == 1

    def choose(self, i: int) -> Action | None:
        """Take id ``i``: the action once complete, None after a ``half`` (the hosts come
        next). ActionEncodingError, with nothing changed, for an id not legal now."""
        i = int(i)
        if self.half is not None:
            a = self._hosts.get(i)
            if a is None:
                raise ActionEncodingError(f"compact id {i} is not a legal host for this half")
            self.half = None
            self._hosts = {}
            return a
        first = self._first if self._first is not None else self._scan()[0]
        a = first.get(i)
        if a is None:
            raise ActionEncodingError(f"compact id {i} is not legal here")
        if i < HALF_START:
            return a
        self.half = i
        self._hosts = self._host_map(i)
        return None

    def undo(self) -> None:
        """Forget a chosen half (back to the first step)."""
        self.half = None
        self._hosts = {}
