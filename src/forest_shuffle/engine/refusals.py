"""A refusal's reason with the rule that words it, so a face can say it in another
language (docs/i18n.md, "The server's words").

Contract: a :class:`Refusal` *is* its English words (a ``str``, byte for byte what the
engine always said: logs, tests and ``str(IllegalActionError)`` read it) and keeps the
message it was made from (``rule``, with named placeholders) and their values (``params``).
A face says it in a language by the same key (``text/narration.py: refusal_words``).
A :class:`Noun` is a placeholder's word with its English article ("a bird"); ``word`` is
the bare word, for the other languages' own grammar. The engine stays free of catalogs:
this module only keeps the facts. Not compiled (a compiled class cannot subclass ``str``).
"""

from __future__ import annotations

from forest_shuffle.cards.words import article


class Refusal(str):
    """``Refusal("card {card} is not in the clearing", card=7)``: the words
    ``"card 7 is not in the clearing"`` that remember their rule and values."""

    rule: str
    params: dict[str, object]

    def __new__(cls, rule: str, /, **params: object) -> Refusal:
        self = super().__new__(cls, rule.format_map(params) if params else rule)
        self.rule = rule
        self.params = params
        return self


class Noun(str):
    """A word said with its English article (``Noun("bird")`` is ``"a bird"``); ``word``
    keeps the bare word (a tag, a species key, a host kind)."""

    word: str

    def __new__(cls, word: str) -> Noun:
        self = super().__new__(cls, article(word))
        self.word = word
        return self


def N_(message: str) -> str:
    """Marks a message of the ``server`` catalog written in the engine (said later)."""
    return message


__all__ = ["N_", "Noun", "Refusal"]
