"""The registry of effect ops: each op of the card vocabulary declared once.

Contract: an :class:`OpDecl` says everything about one op of an effect, bonus or permanent
effect: its parameters (``needs``; ``check`` for what the data loader checks beyond the
parameter kinds it checks for every op), whether a queued step of it can change something
(``possible(state, effect)``), how it applies (``apply(state, effect)``), the decision
kinds its ``apply`` may push (``kinds``), its words (``words(effect, say)``: the
phrase ``text/cardtext.py`` shows, in the language of ``say``, a :class:`Say`) and what
the greedy bot thinks it is worth (``value(effect, facts, hand, room)``).
:func:`register_op` adds one; the base family's ops are registered by
``engine/effects.py``, a game's own by its game module (Dartmoor's by
``games/dartmoor_state.py``). The card loader (:mod:`forest_shuffle.cards.model`) refuses
an op no one registered, by name; a game definition (``engine/game.py: make_def``)
compiles the ops its catalog uses into a table, so the engine's hot path is one dict
lookup and a call.

The registry is filled when the package is imported (``forest_shuffle/__init__.py``
imports every game) and is not changed once a catalog that uses an op is loaded.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from forest_shuffle.cards.model import Effect


class Say(Protocol):
    """The words of cards in one language, as the text layer gives them to an op's
    ``words`` (``text/cardtext.py: CardSay``; the ``cards`` message domain, docs/i18n.md).

    ``say(tag, n)`` is the noun of a tag (``bird``, ``bats``, ``Alps card``); ``a(tag)`` one
    of it (``a bird``; French ``1 oiseau``); ``name(key, n)`` a species as printed in the
    language's edition (English: the key, in the plural for ``n`` != 1); ``either(words)``
    ``a, b or c``; ``side(side)`` a slot's side (``left``); ``gettext``, ``ngettext``,
    ``pgettext`` the ``cards`` catalog's messages, English being the source text.
    """

    lang: str

    def __call__(self, tag: str, n: int = 1, /) -> str: ...

    def a(self, tag: str, /) -> str: ...

    def name(self, key: str, n: int = 1, /) -> str: ...

    def either(self, words: Sequence[str], /) -> str: ...

    def side(self, side: str, /) -> str: ...

    def gettext(self, message: str, /, **params: object) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int, /, **params: object) -> str: ...

    def pgettext(self, context: str, message: str, /, **params: object) -> str: ...


#: ``words(effect, say)``: the phrase for an effect in the language of ``say``.
Words = Callable[["Effect", Say], str]


def _never(state: Any, effect: Effect) -> bool:
    return False


def _nothing(state: Any, effect: Effect) -> None:
    raise AssertionError(f"op {effect.op} is a permanent effect, never a step")


@dataclass(frozen=True, slots=True, eq=False)
class OpDecl:
    """One effect op, declared once (see the module contract).

    - ``needs``: the parameters the op requires (the loader names a missing one).
    - ``check(params)``: "" or the problem of the parameters in words (after the checks of
      every op: known tags, non-negative counts).
    - ``possible(state, effect)``: False for a queued step that could change nothing (it
      is skipped unasked); ``apply(state, effect)``: do it for ``state.current``. A
      permanent effect that is never a step keeps the defaults.
    - ``kinds``: the decision kinds ``apply`` may push (a definition's table of decision
      kinds holds them).
    - ``words(effect, say)``: the short phrase in the language of ``say`` (None: the op's
      name in words).
    - ``value(effect, facts, hand, room)``: the greedy bot's points for it now (``facts``:
      the bot's facts of its own forest, ``bots/greedy.py: _Ctx``; None: worth 0).
    """

    name: str
    needs: tuple[str, ...] = ()
    check: Callable[[Mapping[str, Any]], str] | None = None
    possible: Callable[[Any, Effect], bool] = _never
    apply: Callable[[Any, Effect], None] = _nothing
    kinds: tuple[str, ...] = ()
    words: Words | None = None
    value: Callable[[Effect, Any, Sequence[int], int], float] | None = None
    #: A permanent effect (acts while its card is in the forest), not a step.
    permanent: bool = False


#: Every registered op by name (the closed vocabulary the card data may use).
EFFECT_OPS: dict[str, OpDecl] = {}


def register_op(decl: OpDecl) -> OpDecl:
    """Declare an op (once per name; declaring a name again replaces it, for a test's
    toy game). Returns ``decl``."""
    EFFECT_OPS[decl.name] = decl
    return decl


def op_decl(name: str) -> OpDecl:
    """The declaration of ``name``; KeyError naming it if no one registered it."""
    decl = EFFECT_OPS.get(name)
    if decl is None:
        raise KeyError(f"unknown effect op {name!r}")
    return decl


def op_words(effect: Effect, say: Say) -> str:
    """The phrase of ``effect`` by its op's declaration, in the language of ``say`` (its
    name in words if it has none)."""
    decl = EFFECT_OPS.get(effect.op)
    if decl is None or decl.words is None:
        return effect.op.replace("_", " ").capitalize()
    return decl.words(effect, say)


__all__ = ["EFFECT_OPS", "OpDecl", "Say", "Words", "op_decl", "op_words", "register_op"]
