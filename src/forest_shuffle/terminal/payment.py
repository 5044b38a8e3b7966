"""Payments chosen as a set: the engine's ``pay`` actions in an order it accepts.

Contract: the engine offers a payment one card at a time, and only in the orders it
accepts (``legal_actions`` of a pay decision). A person names the cards in any order,
one at a time or all at once; these functions map such a set onto a sequence of ``pay``
actions by asking the engine on copies of the game (``clone``, ``legal_actions``,
``apply``), never by a rule of their own. The game itself is never changed.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from forest_shuffle.engine.actions import PAY, Action
from forest_shuffle.engine.state import GameState


def _order(state: GameState, must: frozenset[int], extra: int) -> list[int] | None:
    """Pay cards for the pay decision at hand: all of ``must`` and ``extra`` other cards,
    in an order the engine accepts, or None. The last card is checked, not applied."""
    if not must and extra == 0:
        return []
    legal = sorted(a.card for a in state.legal_actions() if a.kind == PAY)
    for c in legal:
        if c in must:
            rest, more = must - {c}, extra
        elif extra > 0:
            rest, more = must, extra - 1
        else:
            continue
        if not rest and more == 0:
            return [c]
        nxt = state.clone()
        nxt.apply(Action(PAY, c))
        found = _order(nxt, rest, more)
        if found is not None:
            return [c, *found]
    return None


def _paying(state: GameState, player: int) -> int:
    """The cards ``player`` still pays in the decision at hand (ValueError if none)."""
    pend = state.pending
    if state.over or pend is None or pend.kind != "pay" or pend.player != player:
        raise ValueError(f"player {player + 1} is not paying")
    return pend.need


def payment_order(state: GameState, player: int, cards: Collection[int]) -> list[int] | None:
    """The ``pay`` cards, in an order the engine accepts, that pay with every card of
    ``cards`` and complete the payment (with other hand cards when ``cards`` are fewer
    than it needs; the ones of ``cards`` come first in no particular place). None when
    no payment holds all of ``cards``."""
    need = _paying(state, player)
    chosen = frozenset(cards)
    if len(chosen) != len(cards) or len(chosen) > need:
        return None
    return _order(state, chosen, need - len(chosen))


def payable_cards(state: GameState, player: int, chosen: Sequence[int]) -> list[int]:
    """The hand cards not in ``chosen`` that a payment holding ``chosen`` may also hold,
    ascending (empty once ``chosen`` is the whole payment)."""
    need = _paying(state, player)
    if len(chosen) >= need:
        return []
    return [c for c in sorted(state.hands[player]) if c not in chosen
            and payment_order(state, player, [*chosen, c]) is not None]
