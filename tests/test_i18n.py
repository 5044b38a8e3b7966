"""The message catalogs (docs/i18n.md): languages chosen from headers and the environment,
catalogs complete and compiled from their sources, plural rules and placeholders kept."""

from __future__ import annotations

import io
import json
import re

import pytest

from forest_shuffle.i18n import DOMAINS, LANGUAGES, LOCALE_DIR, from_environ, negotiate, words
from forest_shuffle.i18n.lang import language_of

babel = pytest.importorskip("babel")
from babel.messages.pofile import read_po  # noqa: E402

from forest_shuffle.i18n import build  # noqa: E402

TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]
_PLACEHOLDER = re.compile(r"\{(\w*)\}")


def _catalog(domain: str, lang: str):  # type: ignore[no-untyped-def]
    path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po"
    with path.open("rb") as f:
        return read_po(f, locale=lang, domain=domain)


def _untranslated() -> dict[tuple[str, str, str], str]:
    items = json.loads((LOCALE_DIR.parent / "untranslated.json").read_text(encoding="utf-8"))
    return {(i["domain"], i["lang"], i["message"]): i["reason"] for i in items}


# ------------------------------------------------------------------ choosing the language

@pytest.mark.parametrize(("header", "lang"), [
    ("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5", "fr"),
    ("it, de;q=0.8, fr;q=0.9", "fr"),
    ("de;q=0.5, zh-CN;q=0.6", "zh"),
    ("zh-Hans-CN", "zh"),
    ("it, es;q=0.9", "en"),
    ("*", "en"),
    ("fr;q=0, de", "de"),
    ("fr;q=abc, de;q=2, zh;x=1, ;;, de-AT;q=0.1", "de"),
    ("", "en"),
])
def test_negotiate_reads_accept_language(header: str, lang: str) -> None:
    assert negotiate(header) == lang


def test_an_explicit_choice_wins_and_an_unknown_one_is_ignored() -> None:
    assert negotiate("fr", choice="zh") == "zh"
    assert negotiate("fr", choice="klingon") == "fr"
    assert negotiate(None, choice="DE") == "de"


@pytest.mark.parametrize(("env", "lang"), [
    ({"LANG": "fr_FR.UTF-8"}, "fr"),
    ({"LANG": "fr_FR.UTF-8", "LC_MESSAGES": "de_DE@euro"}, "de"),
    ({"LANG": "fr_FR.UTF-8", "LC_MESSAGES": "de_DE", "LC_ALL": "zh_CN.UTF-8"}, "zh"),
    ({"LANG": "fr_FR.UTF-8", "LC_ALL": "C"}, "en"),
    ({"LANGUAGE": "it:de", "LANG": "fr_FR"}, "de"),
    ({"LANGUAGE": "it", "LANG": "fr_FR"}, "fr"),
    ({}, "en"),
])
def test_from_environ_follows_gettexts_order(env: dict[str, str], lang: str) -> None:
    assert from_environ(env) == lang


def test_lang_option_comes_before_the_environment() -> None:
    assert from_environ({"LC_ALL": "fr_FR"}, choice="de") == "de"


@pytest.mark.parametrize("tag", ["", "C", "POSIX", "x" * 20, "../fr", "1234"])
def test_odd_tags_mean_nothing(tag: str) -> None:
    assert language_of(tag) is None


def test_words_refuses_an_unknown_domain_or_language() -> None:
    with pytest.raises(ValueError, match="unknown message domain"):
        words("nope", "fr")
    with pytest.raises(ValueError, match="unknown language"):
        words("page", "xx")


# ------------------------------------------------------------------ catalogs

def test_generated_files_are_current() -> None:
    """Templates, .po, compiled .mo and the page's JSON words are what the sources and the
    .po files make (python -m forest_shuffle.i18n.build rewrites them)."""
    stale = build.stale(build.expected_files())
    assert not stale, "stale (run python -m forest_shuffle.i18n.build): " + ", ".join(
        str(p.relative_to(build.PKG)) for p in stale)


def test_a_stale_mo_is_seen(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The staleness check sees a .mo that is not the compiled .po."""
    files = build.expected_files(["page"])
    mo = next(p for p in files if p.suffix == ".mo")
    copy = tmp_path / "page.mo"
    copy.write_bytes(files[mo][:-1])
    assert build.stale({copy: files[mo]}) == [copy]


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_has_every_language(domain: str, lang: str) -> None:
    """Every message of the template is translated (all plural forms, nothing fuzzy),
    unless the committed list of untranslated ones names it with a reason."""
    allowed = _untranslated()
    template = {m.id if isinstance(m.id, str) else m.id[0]: m
                for m in build.template(domain) if m.id}
    missing = []
    for msg in _catalog(domain, lang):
        if not msg.id:
            continue
        key = msg.id if isinstance(msg.id, str) else msg.id[0]
        strings = msg.string if isinstance(msg.string, (tuple, list)) else [msg.string]
        done = not msg.fuzzy and all(strings)
        if not done and (domain, lang, key) not in allowed:
            missing.append(key)
    assert not missing, f"{domain}/{lang} lacks: {missing[:10]}"
    assert set(template) <= {m.id if isinstance(m.id, str) else m.id[0]
                             for m in _catalog(domain, lang) if m.id}


def test_the_untranslated_list_gives_reasons_for_real_messages() -> None:
    for (domain, lang, message), reason in _untranslated().items():
        assert domain in DOMAINS and lang in TRANSLATED, (domain, lang)
        assert reason.strip(), message
        ids = {m.id if isinstance(m.id, str) else m.id[0] for m in build.template(domain)}
        assert message in ids, f"{domain}/{lang}: {message!r} is no message (any more)"


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", TRANSLATED)
def test_translations_keep_the_named_placeholders(domain: str, lang: str) -> None:
    """A translation names the same placeholders as its source (order is free); no
    message uses an unnamed ``{}``."""
    for msg in _catalog(domain, lang):
        if not msg.id:
            continue
        sources = [msg.id] if isinstance(msg.id, str) else list(msg.id)
        want = set(_PLACEHOLDER.findall(sources[-1]))
        assert "" not in want, f"unnamed placeholder in {sources[0]!r}"
        strings = [msg.string] if isinstance(msg.string, str) else list(msg.string)
        for text in strings:
            if text:
                got = set(_PLACEHOLDER.findall(text))
                # a singular form may say "one" in words instead of {n}
                assert got <= want and want - got <= {"n"}, (lang, sources[0], text)


@pytest.mark.parametrize(("lang", "nplurals", "forms"), [
    ("fr", 2, {0: 0, 1: 0, 2: 1, 5: 1}),
    ("de", 2, {0: 1, 1: 0, 2: 1}),
    ("zh", 1, {0: 0, 1: 0, 2: 0, 11: 0}),
])
@pytest.mark.parametrize("domain", DOMAINS)
def test_each_language_has_its_own_plural_rule(domain: str, lang: str, nplurals: int,
                                               forms: dict[int, int]) -> None:
    cat = _catalog(domain, lang)
    assert cat.num_plurals == nplurals
    rule = __import__("gettext").c2py(cat.plural_expr)
    assert {n: rule(n) for n in forms} == forms


def test_plural_map_matches_cldr_or_refuses() -> None:
    assert build.plural_map("fr", "(n > 1)", 2) == {"many": 1, "one": 0, "other": 1}
    assert build.plural_map("zh", "0", 1) == {"other": 0}
    with pytest.raises(ValueError, match="disagree"):
        build.plural_map("fr", "(n != 1)", 2)  # French says "0 carte", like 1


def test_runtime_words_choose_forms_and_fill_placeholders(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Compiled catalogs read by the stdlib: French 0 like 1, Chinese one form, named
    placeholders filled in the translator's order."""
    import gettext

    from babel.messages.mofile import write_mo

    from forest_shuffle.i18n.catalog import Words

    po = ('msgid ""\nmsgstr ""\n"Plural-Forms: {plural}\\n"\n"Content-Type: text/plain; '
          'charset=utf-8\\n"\n\nmsgid "{n} card"\nmsgid_plural "{n} cards"\n{forms}\n\n'
          'msgid "{player} takes {card}"\nmsgstr "{tr}"\n')
    cases = {
        "fr": ("nplurals=2; plural=(n > 1);", 'msgstr[0] "{n} carte"\nmsgstr[1] "{n} cartes"',
               "{card} : pris par {player}"),
        "zh": ("nplurals=1; plural=0;", 'msgstr[0] "{n} 张牌"', "{player}拿了{card}"),
    }
    out = {}
    for lang, (plural, forms, tr) in cases.items():
        text = po.replace("{plural}", plural).replace("{forms}", forms).replace("{tr}", tr)
        cat = read_po(io.StringIO(text), locale=lang)
        buf = io.BytesIO()
        write_mo(buf, cat)
        buf.seek(0)
        w = Words("page", lang, gettext.GNUTranslations(buf))
        out[lang] = ([w.ngettext("{n} card", "{n} cards", n) for n in (0, 1, 2)],
                     w("{player} takes {card}", player="Ann", card="Oak"))
    assert out["fr"] == (["0 carte", "1 carte", "2 cartes"], "Oak : pris par Ann")
    assert out["zh"] == (["0 张牌", "1 张牌", "2 张牌"], "Ann拿了Oak")
    en = words("page", "en")
    assert [en.ngettext("{n} card", "{n} cards", n) for n in (0, 1, 2)] == [
        "0 cards", "1 card", "2 cards"]
