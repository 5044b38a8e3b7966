"""Words in the players' languages (docs/i18n.md): gettext catalogs by face.

Contract: :data:`LANGUAGES` (code -> the language's own name; English first, the source
language of every message), :data:`DOMAINS` (one catalog per face: ``page``, ``terminal``,
``cli``, ``server``); :func:`negotiate` picks a language from an ``Accept-Language`` header
or an explicit choice, :func:`from_environ` from ``LC_ALL``/``LC_MESSAGES``/``LANG``;
:func:`words` gives the :class:`Words` of a domain in a language (stdlib :mod:`gettext`
reading the compiled ``.mo`` files shipped in the package; Babel is needed only to
maintain the catalogs, :mod:`forest_shuffle.i18n.build`).
"""

from forest_shuffle.i18n.catalog import LOCALE_DIR, Words, words
from forest_shuffle.i18n.lang import (
    DEFAULT,
    DOMAINS,
    LANGUAGES,
    from_environ,
    language_of,
    negotiate,
)

__all__ = ["DEFAULT", "DOMAINS", "LANGUAGES", "LOCALE_DIR", "Words", "from_environ",
           "language_of", "negotiate", "words"]
