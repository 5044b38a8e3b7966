"""The registry of decision kinds: each kind of pending decision declared once.

Contract: a :class:`KindDecl` says everything the engine and the faces need about one kind
of decision (the ``kind`` of a :class:`~forest_shuffle.engine.state.Pending`): its legal
actions (``legal(state, pend)``), how an action applies (``apply(state, pend, action)``:
``pend`` is already off the stack; it returns True when the turn goes on with ``pend`` as
the finished record, False when it went on by itself), why an action the decision asks for
is refused (``refuse(state, pend, action)``: "" to leave it to the generic reasons), what
it asks for in words (``expected``, or ``ask(state, pend)`` where that depends on the
decision), its choice shape (``pick``: the action kind that takes the cards, where they
lie and whether exactly ``need`` are taken, for ``engine/picks.py``; None for a decision of
one card or none), the index of its one-hot slot in the RL observation (``obs``) and
whether the observation marks the cards it took (``obs_paid``), and where the cards it
picks lie (``source``, the page's ``pick_from``).

:func:`register_kind` adds one: the base family's kinds are declared in
``engine/decisions.py``, a game's own by its game module (Dartmoor's in
``games/dartmoor_state.py``; a game that asks a kind otherwise, as Dartmoor's free plays
from the clearing, declares its own under the same name and passes it to its definition).
A game definition (``engine/game.py: make_def``) compiles the kinds it asks into a table
(``GameDef.kinds``): its structural ones (``options["decisions"]``), those its ops push
(:attr:`~forest_shuffle.cards.ops.OpDecl.kinds`) and its own.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

#: Where the cards of a decision lie (``KindDecl.source``).
HAND = "hand"
CLEARING = "clearing"


def _no_refusal(state: Any, pend: Any, action: Any) -> str:
    return ""


@dataclass(frozen=True, slots=True, eq=False)
class KindDecl:
    """One decision kind, declared once (see the module contract)."""

    name: str
    legal: Callable[[Any, Any], list[Any]]
    apply: Callable[[Any, Any, Any], bool]
    expected: str
    #: The words of ``expected`` when they depend on the decision (None: ``expected``).
    ask: Callable[[Any, Any], str] | None = None
    refuse: Callable[[Any, Any, Any], str] = _no_refusal
    #: (action kind, HAND or CLEARING, exactly ``need``) for a decision of several cards.
    pick: tuple[str, str, bool] | None = None
    #: The one-hot slot of the RL observation's ``decision`` (stable: never renumbered).
    obs: int = -1
    #: The RL observation marks the cards this decision took (``pending_paid``).
    obs_paid: bool = False
    #: Where the cards this decision picks lie (HAND or CLEARING; "": in either, or
    #: elsewhere, or no cards): where a face takes a click as a pick (the page's
    #: ``pick_from``).
    source: str = ""


#: Every registered kind by name (the base family's and every game's own).
DECISION_KINDS: dict[str, KindDecl] = {}


def register_kind(decl: KindDecl) -> KindDecl:
    """Declare a decision kind (declaring a name again replaces it). Returns ``decl``."""
    DECISION_KINDS[decl.name] = decl
    return decl


def kind_decl(name: str) -> KindDecl:
    """The declaration of ``name``; KeyError naming it if no one registered it."""
    decl = DECISION_KINDS.get(name)
    if decl is None:
        raise KeyError(f"unknown decision kind {name!r}")
    return decl


__all__ = ["CLEARING", "DECISION_KINDS", "HAND", "KindDecl", "kind_decl", "register_kind"]
