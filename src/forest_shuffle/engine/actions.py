"""Actions: small immutable values with a readable text form that parses back.

Text forms (tree numbers count from 1, card numbers are the deck ids):

========================  ==============================================================
``keep`` / ``mulligan``   keep the opening hand, or return it to the box and draw 6 new
``draw``                  draw the top card of the deck (one of the two draws)
``take 57``               take card 57 from the clearing (one of the two draws)
``play 12``               play tree card 12 (then pay its cost)
``play 71 left 3``        play the left half of card 71 into the left slot of tree 3
``sapling 34``            play card 34 face down as a tree sapling
``pay 40``                put card 40 from the hand into the clearing as payment
``yes`` / ``no``          use or skip the optional effect, bonus or mushroom draw offered
``cave 40``               (Raccoon) put card 40 from the hand under the cave
``done``                  end a free play, a Mole or a Raccoon choice
``choose 3``              (Dartmoor) take cave 3 from the clearing in the cave draft
``moor 40``               (Dartmoor) put card 40 from the hand face down as a universal moor
``discard 40``            (Dartmoor) put card 40 from the hand face up into the clearing
========================  ==============================================================

``str(Action.parse(text)) == text`` for every canonical text, and
``Action.parse(str(a)) == a`` for every action. Any other text raises
:class:`ActionParseError` with a one-line printable reason: numbers are ASCII digits
``0``-``9`` (at most :data:`MAX_NUMBER_DIGITS`), a text has at most
:data:`MAX_ACTION_TEXT` characters.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from forest_shuffle.cards.model import SIDES

KEEP: Final = "keep"
MULLIGAN: Final = "mulligan"
DRAW: Final = "draw"
TAKE: Final = "take"
PLAY: Final = "play"
SAPLING: Final = "sapling"
PAY: Final = "pay"
YES: Final = "yes"
NO: Final = "no"
CAVE: Final = "cave"
DONE: Final = "done"
CHOOSE: Final = "choose"
MOOR: Final = "moor"
DISCARD: Final = "discard"

_BARE: Final = (KEEP, MULLIGAN, DRAW, YES, NO, DONE)
_WITH_CARD: Final = (TAKE, SAPLING, PAY, CAVE, CHOOSE, MOOR, DISCARD)

#: The longest action text parsed (the longest canonical one, ``play 161 bottom 158``, has
#: 19 characters; the web server accepts texts of up to 200 characters).
MAX_ACTION_TEXT: Final = 200
#: Card and tree numbers have at most this many digits (ids go to 161, leading zeros are
#: allowed), so no number is too long for ``int``.
MAX_NUMBER_DIGITS: Final = 6


class ActionParseError(ValueError):
    """A text is not an action; the message says what was expected."""


class IllegalActionError(ValueError):
    """An action is not legal in this state; ``reason`` says why. The state is unchanged."""

    def __init__(self, action: object, reason: str) -> None:
        super().__init__(f"illegal action {action}: {reason}")
        self.action = action
        self.reason = reason
        #: The rule that words ``reason`` (its message, for the catalogs) and its values:
        #: a face says the reason in another language by this key
        #: (:class:`~forest_shuffle.engine.refusals.Refusal`; a plain reason is its own rule).
        self.rule: str = getattr(reason, "rule", reason)
        self.params: dict[str, object] = dict(getattr(reason, "params", {}))


class Action(NamedTuple):
    """One decision. ``tree`` counts from 0 here and from 1 in the text form."""

    kind: str
    card: int = 0
    side: str = ""
    tree: int = -1

    def __str__(self) -> str:
        if self.kind in _BARE:
            return self.kind
        if self.kind == PLAY and self.side:
            return f"play {self.card} {self.side} {self.tree + 1}"
        return f"{self.kind} {self.card}"

    @staticmethod
    def parse(text: str, kinds: tuple[str, ...] | None = None) -> Action:
        """Parse a text form; :class:`ActionParseError` with a one-line reason otherwise.
        ``kinds``: the action kinds of the game played (``GameDef.action_kinds``), which
        the reason for an unknown word lists (every kind if None); a text of another
        kind still parses (the game's refusal says why it has none)."""
        if len(text) > MAX_ACTION_TEXT:
            raise ActionParseError(f"an action is at most {MAX_ACTION_TEXT} characters, not "
                                   f"{len(text)}")
        words = text.strip().lower().split()
        if not words:
            raise ActionParseError("empty action")
        kind, args = words[0], words[1:]
        if kind in _BARE:
            if args:
                raise ActionParseError(f"{_shown(kind)} takes nothing after it")
            return Action(kind)
        if kind in _WITH_CARD or kind == PLAY:
            if not args:
                raise ActionParseError(f"{_shown(kind)} needs a card number")
            card = _number(args[0], "card")
            if kind != PLAY or len(args) == 1:
                if len(args) != 1:
                    raise ActionParseError(f"{_shown(kind)} takes one card number")
                return Action(kind, card)
            if len(args) != 3 or args[1] not in SIDES:
                raise ActionParseError("write 'play CARD' for a tree or 'play CARD SIDE TREE' "
                                       "(side: top, bottom, left, right)")
            tree = _number(args[2], "tree")
            if tree < 1:
                raise ActionParseError("trees are numbered from 1")
            return Action(PLAY, card, args[1], tree - 1)
        raise ActionParseError(
            f"unknown action {_shown(kind)} (one of: {', '.join(kinds or KINDS)})")


#: Every action kind, in the order the parser's message lists them.
KINDS: Final[tuple[str, ...]] = (KEEP, MULLIGAN, DRAW, TAKE, PLAY, SAPLING, PAY, YES, NO, CAVE,
                                 DONE, CHOOSE, MOOR, DISCARD)


def shape_problem(action: Action) -> str:
    """Why ``action`` is no action of any game, as a one-line reason (the form
    :meth:`Action.parse` gives every action it reads), or "" for a well-formed one. For
    actions built in code: a text always parses into a well-formed one."""
    raw: tuple[object, ...] = tuple(action)  # objects: built in code, any value may be there
    kind, card, side, tree = raw[0], raw[1], raw[2], raw[3]
    if not isinstance(kind, str) or kind not in KINDS:
        return f"unknown action kind {_shown(str(kind))} (one of: {', '.join(KINDS)})"
    if type(card) is not int or type(tree) is not int or not isinstance(side, str):
        return "an action's card and tree are integers and its side a word"
    if kind in _BARE:
        if card or side or tree != -1:
            return f"'{kind}' takes no card, side or tree"
        return ""
    if card < 0:
        return "card numbers are not negative"
    if kind != PLAY or not side:
        if side or tree != -1:
            return (f"'{kind}' takes one card number" if kind != PLAY else
                    "'play' with no side takes no tree: write 'play CARD' or 'play CARD SIDE "
                    "TREE'")
        return ""
    if side not in SIDES:
        return f"unknown side {_shown(side)} (one of: {', '.join(SIDES)})"
    if tree < 0:
        return "trees are numbered from 1"
    return ""


def make_action(kind: str, card: int = 0, side: str = "", tree: int = -1) -> Action:
    """``Action(kind, card, side, tree)``, the same value, built by ``tuple.__new__``: the
    named tuple's own ``__new__`` is interpreted Python (several times the cost, compiled
    or not). For the tables of interned actions, which grow during play."""
    return _TUPLE_NEW(_ACTION, (kind, card, side, tree))


# Final: compiled code holds them as C constants (no look-up of tuple.__new__ or Action).
_TUPLE_NEW: Final = tuple.__new__
_ACTION: Final = Action

def _number(word: str, what: str) -> int:
    """A number of ASCII digits (``str.isdigit`` alone also admits ``²`` and ``٣``)."""
    if not (word.isascii() and word.isdigit()):
        raise ActionParseError(f"{what} must be a number, not {_shown(word)}")
    if len(word) > MAX_NUMBER_DIGITS:
        raise ActionParseError(f"{what} number has {len(word)} digits (at most "
                               f"{MAX_NUMBER_DIGITS})")
    return int(word)


def _shown(word: str, limit: int = 24) -> str:
    """A word of the text quoted for a message: cut short, unprintable characters escaped."""
    cut = word[:limit]
    if not cut.isprintable():
        cut = "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in cut)
    return f"'{cut}...'" if len(word) > limit else f"'{cut}'"
