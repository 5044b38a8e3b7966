"""The command line's words in the reader's language (docs/i18n.md, domain ``cli``).

Contract: :func:`use_language` sets the language of this process's command line (and its
terminal game, :mod:`forest_shuffle.terminal.words`) from
``--lang`` (else the environment: ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``;
:func:`forest_shuffle.i18n.from_environ`) and returns it; an unknown ``--lang`` raises
``typer.BadParameter`` naming the languages. :func:`_` and :func:`ngettext` translate a
message of the ``cli`` domain into it (:func:`N_` only marks one) (the environment's language until
:func:`use_language` is called), with named placeholders.
"""

from __future__ import annotations

import os

import typer

from forest_shuffle.i18n import LANGUAGES, from_environ, language_of, words
from forest_shuffle.terminal import words as terminal_words

_chosen: list[str] = []  # the language --lang or the environment gave (set once per command)


def use_language(choice: str | None) -> str:
    """Choose the command line's and the terminal's language (``choice``: the ``--lang``
    option, or None)."""
    if choice is not None and language_of(choice) is None:
        raise typer.BadParameter(
            _("unknown language {lang} (one of {languages})", lang=repr(choice),
              languages=", ".join(LANGUAGES)), param_hint="'--lang'")
    lang = from_environ(os.environ, choice)
    _chosen[:] = [lang]
    terminal_words.use_language(lang)
    return lang


def language() -> str:
    """The command line's language now."""
    return _chosen[0] if _chosen else from_environ(os.environ)


def _(message: str, /, **params: object) -> str:
    """One message of the ``cli`` domain in the command line's language."""
    return words("cli", language()).gettext(message, **params)


def N_(message: str) -> str:
    """Only marks ``message`` for the catalog (translated where it is shown, with :func:`_`)."""
    return message


def ngettext(singular: str, plural: str, n: int, /, **params: object) -> str:
    """A message that depends on the number ``n`` (the language's plural rule)."""
    return words("cli", language()).ngettext(singular, plural, n, **params)
