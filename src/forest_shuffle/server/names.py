"""Names people can read (docs/web.md, "Names").

Contract: :func:`clean_name` returns a seat's name as it is stored and shown (NFC, runs of
white space as one space, trimmed) or raises :class:`NameError_` with one line saying what
is wrong: no visible character, a control, format (bidirectional controls among them),
private-use, unassigned or surrogate character, more than :data:`MAX_MARKS` combining marks
in a row, more than :data:`MAX_NAME` characters, or (a human seat) a name that reads like a
bot's. :func:`same_name` is the comparison under which names at one table are unique.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

#: Characters of a name at most (after normalization).
MAX_NAME = 40
#: Combining marks in a row at most: enough for any script's syllables (Thai, Devanagari
#: and Vietnamese written decomposed use two or three), too few to stack marks over lines.
MAX_MARKS = 3
#: Categories no name may hold: controls, formats (bidirectional controls, zero-width
#: joiners and spaces, invisible operators), surrogates, private use, unassigned.
_REFUSED = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})
#: Categories that show: letters, numbers, punctuation, symbols.
_VISIBLE = ("L", "N", "P", "S")


class NameError_(ValueError):  # noqa: N801 (NameError is Python's own)
    """A name that cannot be used; the message is one line."""


def _looks_like_bot(key: str, levels: Iterable[str]) -> bool:
    """Whether a folded name reads like a bot's: ``bot``, ``bot 2``, ``bot (hard)``, or
    any name ending in a level in brackets (``Ann (hard)``)."""
    if re.fullmatch(r"bot\b.*", key):
        return True
    return any(key.endswith(f"({level})") for level in levels)


def fold(name: str) -> str:
    """The form two names are compared in: compatibility-normalized, case-folded, single
    spaces (``"ANN"``, ``"ann"`` and ``"Ａｎｎ"`` are one name)."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def same_name(a: str, b: str) -> bool:
    """Whether two names would read as the same at one table (:func:`fold`)."""
    return fold(a) == fold(b)


def clean_name(name: str, human: bool, levels: Iterable[str] = ()) -> str:
    """The stored form of a seat's name (empty: the caller picks the default); NameError_
    with one line for a name that cannot be used. ``levels``: the bot levels whose
    bracketed name a human seat may not end with."""
    text = unicodedata.normalize("NFC", name)
    if any(unicodedata.category(ch) in _REFUSED for ch in text):
        raise NameError_("a name holds letters, digits, spaces, punctuation and symbols "
                         "only (no control, format or direction characters)")
    text = " ".join(text.split())
    if not text:
        return ""
    run = 0
    for ch in text:
        run = run + 1 if unicodedata.category(ch).startswith("M") else 0
        if run > MAX_MARKS:
            raise NameError_(f"a name has at most {MAX_MARKS} combining marks in a row")
    if not any(unicodedata.category(ch).startswith(_VISIBLE) for ch in text):
        raise NameError_("a name needs at least one visible letter, digit or sign")
    if len(text) > MAX_NAME:
        raise NameError_(f"a name has at most {MAX_NAME} characters")
    if human and _looks_like_bot(fold(text), levels):
        raise NameError_("a person's name may not read like a bot's (such as 'Bot 2 "
                         "(hard)')")
    return text
