"""The translators' tool (docs/i18n.md, "Tools"): needs Babel (the ``dev`` extra).

``python -m forest_shuffle.i18n.build`` extracts every domain's messages from the sources
into ``locale/<domain>.pot``, updates each language's ``.po`` (new messages empty, gone
ones dropped, translations kept), compiles the ``.mo`` files the package reads at run time
and writes the page's words, ``server/static/words/<lang>.json``. ``--check`` writes nothing
and exits 1 naming every stale file. The tests call :func:`expected_files`.

Sources by domain: ``page``: ``server/static/*.js`` (``_``, ``N_``, ``ngettext``,
``pgettext``, ``npgettext``) and ``data-i18n`` attributes of ``server/static/*.html``;
``terminal``: ``terminal/*.py``; ``cli``: ``cli/**/*.py``; ``server``: the solo companion's
refusals (``server/companion.py``), the words of ``text/narration.py``, ``server/payloads.py``
and ``server/service.py``, the engine's refusals and decision kinds' words (``Refusal``,
``N_`` and a ``KindDecl``'s fourth argument in ``engine/state.py``, ``engine/decisions.py``,
``games/dartmoor_state.py``, ``games/exploration.py``), and the solo challenges' titles of
``cards/data/dartmoor/solo.json`` (context ``solo challenge``), which the companion sends in
the page's language; ``cards``: the card texts of ``text/cardtext.py`` and the effect ops'
words of ``engine/effects.py``, ``games/dartmoor_state.py`` and ``games/exploration.py``.

The page's words (JSON): ``lang``, ``messages`` (source text, or ``context\\u0004source``
for a message in a context, -> its translation, a list of forms for a plural), and
``plural``: the index of the catalog's form for each CLDR plural category of the language,
which the browser gets from ``Intl.PluralRules`` (so no expression is evaluated there);
checked on the numbers 0 to 1,000 and some millions against the catalog's Plural-Forms.
"""

from __future__ import annotations

import gettext
import io
import json
import re
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.extract import extract
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from forest_shuffle.i18n.catalog import LOCALE_DIR
from forest_shuffle.i18n.lang import DEFAULT, DOMAINS, LANGUAGES

PKG = LOCALE_DIR.parents[1]
STATIC = PKG / "server" / "static"
WORDS_DIR = STATIC / "words"
#: The solo challenges: their titles are messages of the ``server`` domain.
SOLO_DATA = PKG / "cards" / "data" / "dartmoor" / "solo.json"
SOLO_CONTEXT = "solo challenge"
#: The calls that mark a message, as Babel reads them (argument numbers; "c": context).
KEYWORDS: dict[str, object] = {
    "_": None, "N_": None, "gettext": None, "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2), "npgettext": ((1, "c"), 2, 3),
    # the engine's refusals (engine/refusals.py) and a decision kind's words
    "Refusal": None, "KindDecl": (4,),
}
#: Files that hold messages of two domains: the card texts there are ``say``'s methods
#: (``w.gettext``...: the ``cards`` domain), the refusals and decision kinds' words
#: ``Refusal``, ``N_`` and ``KindDecl`` (the ``server`` domain); each domain reads its own.
SHARED = ("games/dartmoor_state.py", "games/exploration.py")
_CARDS_KEYWORDS = {k: v for k, v in KEYWORDS.items()
                   if k in ("gettext", "ngettext", "pgettext", "npgettext")}
_SERVER_KEYWORDS = {k: v for k, v in KEYWORDS.items() if k in ("_", "N_", "Refusal", "KindDecl")}
_DATA_I18N = re.compile(r'data-i18n(?:-[a-z]+)?="([^"]+)"')
#: The numbers on which a language's CLDR categories are matched to its catalog's forms.
SAMPLES = [*range(1001), 10**6, 2 * 10**6, 10**7]
HEADER = "Forest Shuffle's messages for people, the {domain} domain (docs/i18n.md)."
#: Each language's plural rule, written into its new catalogs (gettext's usual ones: French
#: says 0 like 1, Chinese has one form).
PLURAL_FORMS = {"fr": "nplurals=2; plural=(n > 1);", "de": "nplurals=2; plural=(n != 1);",
                "zh": "nplurals=1; plural=0;"}
_NEW_PO = """# {comment}
msgid ""
msgstr ""
"Project-Id-Version: forest-shuffle\\n"
"Language: {lang}\\n"
"Language-Team: forest-shuffle ({name})\\n"
"Plural-Forms: {plural}\\n"
"MIME-Version: 1.0\\n"
"Content-Type: text/plain; charset=utf-8\\n"
"Content-Transfer-Encoding: 8bit\\n"
"""


def sources(domain: str) -> list[Path]:
    """The files a domain's messages are extracted from."""
    if domain == "page":
        return sorted(STATIC.glob("*.js")) + sorted(STATIC.glob("*.html"))
    if domain == "terminal":
        return sorted((PKG / "terminal").glob("*.py"))
    if domain == "cli":
        return sorted((PKG / "cli").rglob("*.py"))
    if domain == "server":
        return [PKG / "server" / "companion.py", PKG / "server" / "payloads.py",
                PKG / "server" / "service.py", PKG / "text" / "narration.py",
                *(PKG / "engine" / f"{name}.py" for name in ("decisions", "state")),
                *(PKG / "games" / f"{name}.py" for name in ("dartmoor_state", "exploration")),
                SOLO_DATA]
    if domain == "cards":
        return [PKG / "text" / "cardtext.py", PKG / "engine" / "effects.py",
                PKG / "games" / "dartmoor_state.py", PKG / "games" / "exploration.py"]
    return []


def _extract_file(path: Path, keywords: dict[str, object] = KEYWORDS
                  ) -> Iterator[tuple[int, str | tuple[str, ...], str | None]]:
    """(line, message, context) for each message of one file marked by ``keywords``."""
    text = path.read_bytes()
    if path == SOLO_DATA:
        source = text.decode("utf-8")
        for challenge in json.loads(source)["challenges"]:
            title = challenge["title"]
            line = source[:source.index(json.dumps(title))].count("\n") + 1
            yield line, title, SOLO_CONTEXT
        return
    if path.suffix == ".html":
        for match in _DATA_I18N.finditer(text.decode("utf-8")):
            line = text[:match.start()].count(b"\n") + 1
            yield line, match.group(1).replace("&amp;", "&"), None
        return
    method = "javascript" if path.suffix == ".js" else "python"
    for line, message, _comments, context in extract(method, io.BytesIO(text),
                                                     keywords=keywords):  # type: ignore[arg-type]
        yield line, message, context


def template(domain: str) -> Catalog:
    """A domain's messages as they are in the sources now."""
    cat = Catalog(project="forest-shuffle", domain=domain, header_comment="# " + HEADER.format(
        domain=domain), fuzzy=False)
    for path in sources(domain):
        rel = path.relative_to(PKG).as_posix()
        keywords = KEYWORDS if rel not in SHARED else (
            _CARDS_KEYWORDS if domain == "cards" else _SERVER_KEYWORDS)
        for line, message, context in _extract_file(path, keywords):
            if isinstance(message, tuple) and any(part is None for part in message):
                raise ValueError(f"{rel}:{line}: a plural message needs two literal texts")
            cat.add(message, locations=[(rel, line)], context=context)
    return cat


def _po_path(domain: str, lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po"


def translated(domain: str, lang: str, tmpl: Catalog) -> Catalog:
    """The language's catalog updated to ``tmpl`` (a new one if it has none)."""
    path = _po_path(domain, lang)
    if path.is_file():
        with path.open("rb") as f:
            cat = read_po(f, locale=lang, domain=domain)
    else:
        head = _NEW_PO.format(comment=HEADER.format(domain=domain), lang=lang,
                              name=LANGUAGES[lang], plural=PLURAL_FORMS[lang])
        cat = read_po(io.StringIO(head), locale=lang, domain=domain)
    cat.update(tmpl, no_fuzzy_matching=True)
    cat.obsolete.clear()
    return cat


def _po_bytes(cat: Catalog) -> bytes:
    buf = io.BytesIO()
    write_po(buf, cat, width=100, sort_output=True, omit_header=False, include_lineno=False)
    return buf.getvalue()


def _mo_bytes(cat: Catalog) -> bytes:
    buf = io.BytesIO()
    write_mo(buf, cat, use_fuzzy=False)
    return buf.getvalue()


def plural_map(lang: str, expression: str, nplurals: int) -> dict[str, int]:
    """CLDR category -> the catalog's form index, checked on :data:`SAMPLES`; a
    ``ValueError`` when one category would need two forms."""
    rule = gettext.c2py(expression)
    locale = Locale.parse(lang)
    found: dict[str, int] = {}
    for n in SAMPLES:
        category = locale.plural_form(n)
        index = rule(n)
        if not 0 <= index < nplurals or found.setdefault(category, index) != index:
            raise ValueError(f"{lang}: the Plural-Forms {expression!r} and CLDR's "
                             f"category {category!r} disagree at {n}")
    return dict(sorted(found.items()))


def page_words(lang: str, cat: Catalog | None) -> bytes:
    """The page's words in ``lang`` as JSON (``cat`` None: English, the source text)."""
    messages: dict[str, str | list[str]] = {}
    if cat is None:
        plural = plural_map(lang, "(n != 1)", 2)
    else:
        plural = plural_map(lang, cat.plural_expr, cat.num_plurals)
        for msg in cat:
            if not msg.id or msg.fuzzy or not msg.string:
                continue
            source = msg.id[0] if isinstance(msg.id, (tuple, list)) else msg.id
            key = f"{msg.context}\x04{source}" if msg.context else source
            if isinstance(msg.string, (tuple, list)):
                if all(msg.string):
                    messages[key] = list(msg.string)
            else:
                messages[key] = msg.string
    doc = {"lang": lang, "plural": plural, "messages": messages}
    return (json.dumps(doc, ensure_ascii=False, sort_keys=True, indent=0) + "\n").encode()


def expected_files(domains: Iterable[str] = DOMAINS) -> dict[Path, bytes]:
    """Every generated file and its bytes as the sources and ``.po`` files make them."""
    out: dict[Path, bytes] = {}
    for domain in domains:
        tmpl = template(domain)
        out[LOCALE_DIR / f"{domain}.pot"] = _po_bytes(tmpl)
        for lang in LANGUAGES:
            if lang == DEFAULT:
                if domain == "page":
                    out[WORDS_DIR / f"{lang}.json"] = page_words(lang, None)
                continue
            cat = translated(domain, lang, tmpl)
            po = _po_bytes(cat)
            path = _po_path(domain, lang)
            if path.is_file() and _strip_dates(path.read_bytes()) == _strip_dates(po):
                po = path.read_bytes()  # unchanged: compile the committed file as it is
            out[_po_path(domain, lang)] = po
            # compile what is written, as a maintainer's .po is read back
            again = read_po(io.BytesIO(po), locale=lang, domain=domain)
            out[_po_path(domain, lang).with_suffix(".mo")] = _mo_bytes(again)
            if domain == "page":
                out[WORDS_DIR / f"{lang}.json"] = page_words(lang, again)
    return out


def _strip_dates(data: bytes) -> bytes:
    """A catalog without the header lines Babel rewrites on each run (dates, its version)."""
    return re.sub(rb'"(POT-Creation-Date|PO-Revision-Date|Generated-By): [^"]*\\n"\n', b"",
                  data)


def stale(files: dict[Path, bytes]) -> list[Path]:
    """The files whose committed bytes differ (catalogs compared without their dates)."""
    out = []
    for path, data in files.items():
        have = path.read_bytes() if path.is_file() else b""
        if path.suffix in (".po", ".pot"):
            have, data = _strip_dates(have), _strip_dates(data)
        if have != data:
            out.append(path)
    return out


def main(argv: list[str]) -> int:
    """Write the generated files (or with ``--check`` name the stale ones)."""
    files = expected_files()
    old = stale(files)
    if "--check" in argv:
        for path in old:
            print(f"stale: {path.relative_to(PKG)}")
        return 1 if old else 0
    for path in old:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(files[path])
        print(f"wrote {path.relative_to(PKG)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
