"""English left in the faces (docs/i18n.md, "Checks"): every string literal of the page's
scripts and markup that reads as words for people goes through the `page` catalog
(``_``, ``N_``, ``ngettext``, ``pgettext``, ``data-i18n``), and every literal the terminal
and the command line print goes through their catalogs, unless the committed allowlist
(tests/data/i18n_allowlist.json) names it with a reason."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parents[1] / "src" / "forest_shuffle"
STATIC = PKG / "server" / "static"
ALLOWLIST = Path(__file__).resolve().parent / "data" / "i18n_allowlist.json"

#: A call that marks its literal arguments as messages.
_MARKED = re.compile(
    r"""\b(?:N_|_|ngettext|pgettext|npgettext)\(\s*"""
    r"""(?:"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')"""
    r"""(?:\s*,\s*(?:"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'))*""")
_COMMENT = re.compile(r"""("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`)"""
                      r"""|//[^\n]*|/\*.*?\*/""", re.S)
_LITERAL = re.compile(r""""((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'|`((?:[^`\\]|\\.)*)`""",
                      re.S)
_PLACE = re.compile(r"\$\{(?:[^{}]|\{[^{}]*\})*\}")
#: Words that make a literal English for people (a sentence, not a name of a thing).
_FUNCTION_WORDS = {"the", "a", "an", "to", "of", "your", "you", "is", "are", "and", "or",
                   "in", "on", "for", "with", "no", "not", "this", "that", "it", "by", "at",
                   "from", "here", "now", "yet", "cannot", "may", "be", "was", "each"}


def for_people(text: str) -> bool:
    """Whether a literal reads as words for people: a capitalised word, a sentence's
    punctuation, or English function words among its words."""
    text = _PLACE.sub(" ", text)
    if text.startswith(("/", "#", ".", "[", ":")) or "=" in text or "://" in text:
        return False
    words = re.findall(r"[A-Za-z][A-Za-z'-]*", text)
    if not words:
        return False
    if any(re.fullmatch(r"[A-Z][a-z]+", w) for w in words):
        return True
    if not re.search(r"[A-Za-z][,.!?:;]? +[A-Za-z]", text):
        return False  # one word: a key, a class, an id (a capitalised one counts above)
    return bool(re.search(r"[a-z][.!?…:]\s*$", text)) or any(
        w.lower() in _FUNCTION_WORDS for w in words)


def js_literals(source: str) -> list[tuple[int, str]]:
    """(line, text) of each string literal of a script outside comments and outside the
    marked calls (a template's text outside its ``${...}``)."""
    def blank(match: re.Match[str]) -> str:
        kept = match.group(0)
        if kept.startswith(("//", "/*")):
            return re.sub(r"[^\n]", " ", kept)
        return kept
    source = _COMMENT.sub(blank, source)
    source = _MARKED.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), source)
    out = []
    for match in _LITERAL.finditer(source):
        text = next(g for g in match.groups() if g is not None)
        line = source.count("\n", 0, match.start()) + 1
        out.append((line, text))
    return out


def html_texts(source: str) -> list[tuple[int, str]]:
    """(line, text) of the text and the title, placeholder, alt and aria-label attributes
    of a page's markup that have no data-i18n of their own."""
    out = []
    body = re.sub(r"<(script|style|svg)\b.*?</\1>", lambda m: re.sub(r"[^\n]", " ", m.group(0)),
                  source, flags=re.S)
    for match in re.finditer(r"<([a-z]+)\b([^>]*)>([^<]*)", body):
        attrs, text = match.group(2), match.group(3)
        line = body.count("\n", 0, match.start()) + 1
        if text.strip() and "data-i18n=" not in attrs:
            out.append((line, text.strip()))
        for name, value in re.findall(r'\b(title|placeholder|alt|aria-label)="([^"]*)"', attrs):
            if f"data-i18n-{'label' if name == 'aria-label' else name}=" not in attrs:
                out.append((line, value))
    return out


def _allowed(face: str) -> dict[str, dict[str, str]]:
    return dict(json.loads(ALLOWLIST.read_text(encoding="utf-8"))[face])


def page_findings() -> dict[str, list[tuple[int, str]]]:
    """The page's files -> their English literals not through the catalog."""
    found: dict[str, list[tuple[int, str]]] = {}
    for path in sorted(STATIC.glob("*.js")) + sorted(STATIC.glob("*.html")):
        source = path.read_text(encoding="utf-8")
        items = js_literals(source) if path.suffix == ".js" else html_texts(source)
        hits = [(line, text) for line, text in items if for_people(text)]
        if hits:
            found[path.name] = hits
    return found


def test_the_page_shows_no_english_outside_the_catalog() -> None:
    allowed = _allowed("page")
    left = [f"{name}:{line}: {text!r}" for name, hits in page_findings().items()
            for line, text in hits if text not in allowed.get(name, {})]
    assert not left, "English outside the page catalog:\n" + "\n".join(left)


def test_the_page_allowlist_names_literals_that_exist_with_reasons() -> None:
    found = {name: {text for _, text in hits} for name, hits in page_findings().items()}
    for name, items in _allowed("page").items():
        for text, reason in items.items():
            assert reason.strip(), (name, text)
            assert text in found.get(name, set()), f"{name}: {text!r} is no longer there"


def test_the_check_sees_english_literals() -> None:
    """The check finds a sentence, a label and a template's words, and passes marked ones,
    names of things, selectors and addresses."""
    src = '''
      h("p", {}, "The clearing is empty.");  // "A comment is no text"
      h("b", {}, `Deck ${n}`);
      h("span", {}, _("Your move"), ngettext("{n} card", "{n} cards", n));
      q("[data-testid=hand] .tile"); api("GET", "/api/levels"); h("div", {class: "tile can"});
    '''
    hits = [text for _, text in js_literals(src) if for_people(text)]
    assert hits == ["The clearing is empty.", "Deck ${n}"]
    html = '<p class="x">Loading…</p><p data-i18n="Hi">Hi</p><a title="New game">x</a>'
    assert [t for _, t in html_texts(html) if for_people(t)] == ["Loading…", "New game"]


# ------------------------------------------------------------------ terminal and command line

_PRINTERS = {"print", "echo", "secho", "rule", "log", "Exit", "BadParameter", "_refuse"}
_TRANSLATORS = {"_", "N_", "gettext", "ngettext", "pgettext", "npgettext"}
#: What each face's check reads: the command line's printed messages (its help texts are
#: built by Typer at import, before --lang is read: not checked), every literal of the
#: terminal.
EVERY_LITERAL = {"terminal": True, "cli": False, "cards": True}
#: The modules of the ``cards`` domain's check (every literal): the card texts' module, whose
#: phrases are the catalog's messages in every language but English (docs/i18n.md, "The
#: cards' words"); the ops' words are checked by tests/test_card_words.py.
CARD_SOURCES = ("text/cardtext.py",)


def _name(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else (
        func.id if isinstance(func, ast.Name) else "")


def _every_literal(tree: ast.Module) -> list[tuple[int, str]]:
    """(line, text) of the string constants of a module that read as words for people,
    but for docstrings and the arguments of a translator's call."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) and isinstance(
                body[0].value, ast.Constant):
            skip.add(id(body[0].value))
        if isinstance(node, ast.Call) and _name(node) in _TRANSLATORS:
            skip.update(id(a) for a in node.args)
    return [(n.lineno, n.value) for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in skip
            and for_people(n.value)]


def python_findings(face: str) -> dict[str, list[tuple[int, str]]]:
    """The face's modules -> the literal words they print (print, echo, console.print...)
    that are not a call of the face's translators (for the terminal: every literal)."""
    root = PKG / face
    found: dict[str, list[tuple[int, str]]] = {}
    paths = ([PKG / name for name in CARD_SOURCES] if face == "cards"
             else sorted(root.rglob("*.py")))
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if EVERY_LITERAL[face]:
            if hits := _every_literal(tree):
                found[path.relative_to(PKG).as_posix()] = hits
            continue
        hits = []
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or _name(node) not in _PRINTERS:
                continue
            for arg in node.args:
                parts = [arg] if isinstance(arg, ast.Constant) else (
                    [v for v in arg.values if isinstance(v, ast.Constant)]
                    if isinstance(arg, ast.JoinedStr) else [])
                text = "".join(str(p.value) for p in parts if isinstance(p.value, str))
                if text and for_people(re.sub(r"\[/?[a-z ]*\]", " ", text)):
                    hits.append((node.lineno, text))
        if hits:
            found[path.relative_to(PKG).as_posix()] = hits
    return found


@pytest.mark.parametrize("face", ["terminal", "cli", "cards"])
def test_the_terminal_and_command_line_print_no_english_outside_their_catalogs(
        face: str) -> None:
    """Each module with literal English is on the allowlist's list of modules not yet
    translated (with the reason), or every literal of it is allowed by name."""
    allowed = _allowed(face)
    left = []
    for module, hits in python_findings(face).items():
        entry = allowed.get(module, {})
        if "*" in entry:
            continue
        left += [f"{module}:{line}: {text!r}" for line, text in hits if text not in entry]
    assert not left, f"English outside the {face} catalog:\n" + "\n".join(left)


@pytest.mark.parametrize("face", ["terminal", "cli", "cards"])
def test_modules_waiting_for_translation_still_need_it(face: str) -> None:
    """A module on the waiting list still prints English (else it leaves the list)."""
    found = python_findings(face)
    for module, entry in _allowed(face).items():
        assert all(reason.strip() for reason in entry.values()), module
        assert module in found, f"{module} prints no English literal: take it off the list"


def test_the_python_check_sees_english_literals() -> None:
    """Every literal: a sentence and a label are seen; docstrings, a translator's
    arguments and identifiers are not."""
    tree = ast.parse('"""A module."""\ndef f():\n    """Doc."""\n'
                     '    say("Not allowed: card 3")\n    w = _("Your hand")\n'
                     '    k = "hand-card"\n    return "Score pad"\n')
    assert sorted(t for _, t in _every_literal(tree)) == ["Not allowed: card 3", "Score pad"]
