"""The terminal's words in the player's language (docs/i18n.md, domain ``terminal``).

Contract: :func:`use_language` sets the language of this process's terminal (the command
line passes its ``--lang`` or environment choice); until then the environment's
(:func:`forest_shuffle.i18n.from_environ`). :func:`_` and :func:`ngettext` translate a
message of the ``terminal`` domain into it, with named placeholders. The sentences of the
game itself (narration, prompts, card texts) are the ``server`` domain's, not this one's.
"""

from __future__ import annotations

import os

from forest_shuffle.i18n import LANGUAGES, from_environ, words

_chosen: list[str] = []  # the language the command line chose (once per command)


def use_language(lang: str) -> None:
    """Speak ``lang`` (a code of :data:`forest_shuffle.i18n.LANGUAGES`) from now on."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}")
    _chosen[:] = [lang]


def language() -> str:
    """The terminal's language now."""
    return _chosen[0] if _chosen else from_environ(os.environ)


def _(message: str, /, **params: object) -> str:
    """One message of the ``terminal`` domain in the terminal's language."""
    return words("terminal", language()).gettext(message, **params)


def N_(message: str) -> str:
    """Only marks ``message`` for the catalog (translated where it is shown, with :func:`_`)."""
    return message


def ngettext(singular: str, plural: str, n: int, /, **params: object) -> str:
    """A message that depends on the number ``n`` (the language's plural rule)."""
    return words("terminal", language()).ngettext(singular, plural, n, **params)
