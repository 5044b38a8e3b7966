"""Which language a person reads (docs/i18n.md, "Choosing the language").

Contract: :func:`language_of` maps one language tag or locale name (``fr-CA``,
``zh_CN.UTF-8``, ``de_DE@euro``) to a supported code or None; :func:`negotiate` picks from
an explicit choice first, then an ``Accept-Language`` header by its quality values, else
:data:`DEFAULT`; :func:`from_environ` does the same for the terminal and the command line
from ``--lang``, then ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` (gettext's order).
Never raises on bad input: an unknown or malformed tag is skipped.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

#: The supported languages: code -> the language's own name (shown on the switch as is).
LANGUAGES: dict[str, str] = {"en": "English", "fr": "Français", "de": "Deutsch",
                             "zh": "中文"}
#: The language of the messages' source text, and of anyone whose language is unsupported.
DEFAULT = "en"
#: The catalogs, one per face (docs/i18n.md, "Domains").
DOMAINS: tuple[str, ...] = ("page", "terminal", "cli", "server", "cards")
#: The environment variables the terminal and the command line read, first found wins.
ENV_VARS = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
_TAG = re.compile(r"[A-Za-z]{1,8}")


def language_of(tag: str) -> str | None:
    """The supported code a tag or locale name means (its primary subtag), else None.
    ``C`` and ``POSIX`` mean no choice; every Chinese tag means Simplified Chinese ``zh``."""
    base = tag.strip().split(".")[0].split("@")[0].replace("_", "-").split("-")[0]
    if not _TAG.fullmatch(base):
        return None
    code = base.lower()
    return code if code in LANGUAGES else None


def _accepted(header: str) -> list[str]:
    """The tags of an Accept-Language header, best first (quality 0 and bad items left out;
    equal qualities keep their order)."""
    ranked: list[tuple[float, int, str]] = []
    for index, item in enumerate(header.split(",")[:50]):
        tag, _, params = item.strip().partition(";")
        quality = 1.0
        params = params.strip()
        if params:
            name, _, value = params.partition("=")
            if name.strip().lower() != "q":
                continue
            try:
                quality = float(value)
            except ValueError:
                continue
            if not 0 < quality <= 1:
                continue
        if tag.strip():
            ranked.append((-quality, index, tag.strip()))
    return [tag for _, _, tag in sorted(ranked)]


def negotiate(accept_language: str | None = None, choice: str | None = None) -> str:
    """The language of a page or a request: ``choice`` when supported, else the best
    supported language of ``accept_language`` (``*`` is :data:`DEFAULT`), else
    :data:`DEFAULT`."""
    if choice and (code := language_of(choice)):
        return code
    for tag in _accepted(accept_language or ""):
        if tag == "*":
            return DEFAULT
        if code := language_of(tag):
            return code
    return DEFAULT


def from_environ(environ: Mapping[str, str], choice: str | None = None) -> str:
    """The terminal's and command line's language: ``choice`` (``--lang``) when supported,
    else the first of :data:`ENV_VARS` that is set (``LANGUAGE`` may list several, colon
    separated; the first supported one counts), else :data:`DEFAULT`."""
    if choice and (code := language_of(choice)):
        return code
    for var in ENV_VARS:
        value = environ.get(var, "")
        if not value:
            continue
        for tag in value.split(":"):
            if code := language_of(tag):
                return code
        if var != "LANGUAGE":
            return DEFAULT
    return DEFAULT
