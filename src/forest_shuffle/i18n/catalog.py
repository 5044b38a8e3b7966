"""Translators of one domain in one language (docs/i18n.md, "In Python").

Contract: :func:`words` returns the :class:`Words` of ``(domain, language)``, read once per
process from ``locale/<lang>/LC_MESSAGES/<domain>.mo`` with the stdlib :mod:`gettext`
(English, or a catalog not shipped: the source text). A message's placeholders are named
(``{player}``), so translators may put them in any order; ``ngettext`` chooses the form by
the catalog's own ``Plural-Forms`` and passes ``n`` to the placeholders.
"""

from __future__ import annotations

import gettext
import threading
from pathlib import Path

from forest_shuffle.i18n.lang import DEFAULT, DOMAINS, LANGUAGES

#: Where the catalogs live: ``<domain>.pot`` and ``<lang>/LC_MESSAGES/<domain>.po/.mo``.
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
_lock = threading.Lock()
_cache: dict[tuple[str, str], Words] = {}


def _fill(text: str, params: dict[str, object]) -> str:
    """``text`` with its named placeholders filled (unchanged when there are none)."""
    return text.format_map(params) if params else text


class Words:
    """The messages of one domain in one language; every method returns the translation
    (the English source text when it has none) with the named ``params`` filled."""

    def __init__(self, domain: str, lang: str, trans: gettext.NullTranslations) -> None:
        self.domain = domain
        self.lang = lang
        self._t = trans

    def __call__(self, message: str, /, **params: object) -> str:
        """Same as :meth:`gettext`."""
        return self.gettext(message, **params)

    def gettext(self, message: str, /, **params: object) -> str:
        """One message."""
        return _fill(self._t.gettext(message), params)

    def ngettext(self, singular: str, plural: str, n: int, /, **params: object) -> str:
        """A message that depends on a number ``n`` (the language's plural rule)."""
        return _fill(self._t.ngettext(singular, plural, n), {"n": n, **params})

    def pgettext(self, context: str, message: str, /, **params: object) -> str:
        """One message in a context (the same English word translated apart)."""
        return _fill(self._t.pgettext(context, message), params)

    def npgettext(self, context: str, singular: str, plural: str, n: int, /,
                  **params: object) -> str:
        """:meth:`ngettext` in a context."""
        return _fill(self._t.npgettext(context, singular, plural, n), {"n": n, **params})


def words(domain: str, lang: str = DEFAULT) -> Words:
    """The translators of ``domain`` in ``lang`` (a code of :data:`LANGUAGES`); a
    ``ValueError`` names an unknown domain or language."""
    if domain not in DOMAINS:
        raise ValueError(f"unknown message domain {domain!r} (one of {', '.join(DOMAINS)})")
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r} (one of {', '.join(LANGUAGES)})")
    key = (domain, lang)
    found = _cache.get(key)
    if found is None:
        with _lock:
            found = _cache.get(key)
            if found is None:
                trans = gettext.translation(domain, LOCALE_DIR, languages=[lang],
                                            fallback=True)
                found = _cache[key] = Words(domain, lang, trans)
    return found
