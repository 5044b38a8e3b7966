"""Decisions that take several cards, shown as one choice of a set.

Contract: the engine takes the cards of a payment, of the Raccoon's cave, of an effect's
clearing cards for the cave and of Dartmoor's discards one action at a time and only in
ascending order of their ids (every set is then reached by exactly one path: see
``docs/actions.md``). :func:`pick_shape` says, from a player's view alone, which cards that
player may pick, how many, and how the choice ends; the order is free. A face lets a
person pick and take back cards in any order, then sends :func:`pick_actions`: the
engine's one canonical sequence for that set, each action of which is legal when the one
before it is applied. The decision kinds are those whose declaration has a ``pick`` (their
choice shape: ``engine/kinds.py``, ``KindDecl.pick``), so no face names them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from forest_shuffle.cards.words import count
from forest_shuffle.engine.actions import DONE, Action
from forest_shuffle.engine.view import PlayerView

#: Where the cards of a pick come from.
HAND = "hand"
CLEARING = "clearing"


class PickShape(NamedTuple):
    """A decision that takes several cards, as one choice: any ``least`` to ``most`` of
    ``cards``, in any order."""

    kind: str  # the decision kind ("pay", "raccoon", "clearing cave", "discard", ...)
    verb: str  # the kind of the actions that take the cards ("pay", "cave", "discard")
    source: str  # HAND or CLEARING
    cards: tuple[int, ...]  # the cards that may be picked, ascending
    least: int  # the fewest cards a whole choice holds
    most: int  # the most cards a whole choice holds
    paid: tuple[int, ...]  # the cards this decision took already (sent one by one before)
    ends_with_done: bool  # a choice of fewer than every card of the source ends with "done"
    source_size: int  # the cards of the source (hand or clearing) now


def pick_shape(view: PlayerView) -> PickShape | None:
    """The choice of a set that ``view``'s player makes now, or None (not that player's
    decision, or a decision that takes one card or none)."""
    pend = view.pending
    if pend is None or not view.legal_actions or not view.decisions:
        return None
    decl = view.game.kinds.get(pend.kind)
    rule = None if decl is None else decl.pick
    if rule is None:
        return None
    verb, source, exact = rule
    top = view.decisions[-1]  # the viewer's own decision: its cards and pool are whole
    last = top.paid[-1] if top.paid else 0
    pool = top.pool
    where = view.hand if source == HAND else view.clearing
    cards = tuple(sorted(c for c in where if c > last and (pool is None or c in pool)))
    if exact:
        least = most = min(top.need, len(cards))
    else:
        least, most = 0, len(cards)
    return PickShape(pend.kind, verb, source, cards, least, most, tuple(top.paid),
                     not exact, len(where))


def pick_problem(shape: PickShape, picks: Iterable[int]) -> str:
    """Why ``picks`` is no whole choice of ``shape`` (one line), or "" when it is one."""
    chosen = list(picks)
    allowed = set(shape.cards)
    seen: set[int] = set()
    for c in chosen:
        if c in seen:
            return f"card {c} is picked twice"
        seen.add(c)
        if c not in allowed:
            where = "your hand" if shape.source == HAND else "the clearing"
            return (f"card {c} cannot be picked now (it is not one of the cards of {where} "
                    "this choice takes)")
    n = len(chosen)
    if shape.least == shape.most and n != shape.least:
        return f"this choice takes {count(shape.least, 'card')}, not {n}"
    if n < shape.least or n > shape.most:
        return f"this choice takes {shape.least} to {count(shape.most, 'card')}, not {n}"
    return ""


def pick_actions(shape: PickShape, picks: Iterable[int]) -> list[Action]:
    """The engine's actions for the whole choice ``picks`` (any order): its cards in
    ascending order, then ``done`` when the decision needs it to end. ValueError (the
    :func:`pick_problem` line) for a set that is no whole choice."""
    chosen = list(picks)
    problem = pick_problem(shape, chosen)
    if problem:
        raise ValueError(problem)
    out = [Action(shape.verb, c) for c in sorted(chosen)]
    if shape.ends_with_done and len(chosen) < shape.source_size:
        out.append(Action(DONE))
    return out


__all__ = ["CLEARING", "HAND", "PickShape", "pick_actions", "pick_problem", "pick_shape"]
