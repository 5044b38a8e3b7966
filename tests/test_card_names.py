"""The card names in four languages (``cards/data/names.json``), the lookup both ways, and
``cards --lang``."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from forest_shuffle.cards.model import CardDataError, Catalog, Species
from forest_shuffle.cards.names import (
    LANGS,
    UnknownLanguageError,
    build_table,
    cave_name,
    check_lang,
    document_language,
    fold_name,
    name_fact,
    name_languages,
    name_table,
    printed_name,
    species_named,
)
from forest_shuffle.cli.app import app
from forest_shuffle.engine.game import game_ids
from forest_shuffle.games import make_game

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "card-names.md"


def _catalogs() -> list[tuple[str, Catalog]]:
    return [(gid, make_game(gid).catalog) for gid in game_ids()]


def _every_species() -> list[tuple[str, Species]]:
    return [(gid, sp) for gid, cat in _catalogs() for sp in cat.species.values()]


@pytest.mark.parametrize(("gid", "sp"), _every_species(),
                         ids=lambda v: v if isinstance(v, str) else v.name)
def test_every_species_of_every_game_has_four_names(gid: str, sp: Species) -> None:
    entry = name_table().facts[sp.module][sp.name]
    assert set(entry) == set(LANGS)
    assert entry["en"].name == sp.printed and not entry["en"].fallback
    assert entry["en"].sources == ("cards",) and not entry["en"].provisional
    for lang in LANGS[1:]:
        fact = entry[lang]
        assert fact.sources or fact.fallback, (sp.name, lang)
        if fact.fallback:
            assert fact.name == sp.printed and not fact.sources
        # one source: provisional; two or more agree: confirmed
        assert fact.provisional == (len(fact.sources) == 1), (sp.name, lang)


def test_the_names_file_holds_no_species_the_games_lack() -> None:
    known = {(sp.module, sp.name) for _gid, sp in _every_species()}
    for module, entries in name_table().facts.items():
        for key in entries:
            assert key == "Cave" or (module, key) in known, (module, key)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("gid", "cat"), _catalogs(), ids=lambda v: v if isinstance(v, str) else "")
def test_every_name_reads_back_to_its_species(gid: str, cat: Catalog, lang: str) -> None:
    for sp in cat.species.values():
        name = printed_name(sp, lang)
        for spelling in (name, name.upper(), f"  {name.casefold()} "):
            found = species_named(cat, spelling.strip())
            assert sp in found, (gid, lang, spelling)
            # several only where they share the English printed name too (the Squeakers)
            assert {other.printed for other in found} == {sp.printed}, (gid, lang, spelling)


def test_no_two_species_of_a_game_share_a_name_they_do_not_share_in_english() -> None:
    for gid, cat in _catalogs():
        for lang in LANGS:
            seen: dict[str, Species] = {}
            for sp in cat.species.values():
                key = fold_name(printed_name(sp, lang))
                other = seen.setdefault(key, sp)
                assert other.printed == sp.printed, (gid, lang, sp.name, other.name)


def test_names_in_other_languages_as_players_write_them() -> None:
    cat = make_game("base+alpine+woodland_edge").catalog
    assert [s.name for s in species_named(cat, "weisstanne")] == ["Silver Fir"]
    assert [s.name for s in species_named(cat, "Eichhoernchen")] == ["Red Squirrel"]
    assert [s.name for s in species_named(cat, "HETRE")] == ["Beech"]
    assert [s.name for s in species_named(cat, "ｌｉｎｄｅ")] == ["Linden"]  # full width, NFKC
    assert [s.name for s in species_named(cat, "Frischling")] == ["Squeaker", "Edge Squeaker"]
    assert [s.name for s in species_named(cat, "小野猪")] == ["Squeaker", "Edge Squeaker"]
    assert species_named(cat, "Salweide") == ()  # a Dartmoor tree, not in this game
    moor = make_game("dartmoor").catalog
    assert [s.name for s in species_named(moor, "Rhos Pasture")] == ["Rhôs Pasture"]
    assert [s.name for s in species_named(moor, "Orthétrum bleuissant")] == ["Keeled Skimmer"]


def test_printed_names_per_language() -> None:
    base = make_game("base").catalog.species
    assert [printed_name(base["Linden"], lang) for lang in LANGS] == [
        "Linden", "Linde", "Tilleul", "椴树"]
    moor = make_game("dartmoor").catalog.species
    fact = name_fact(moor["Goat Willow"], "zh")
    assert fact.fallback and fact.name == "Goat Willow"
    assert printed_name(moor["Goat Willow"], "fr") == "Saule marsault"
    assert cave_name("de") == "Höhle"


def test_a_language_no_one_knows_is_refused_in_one_line() -> None:
    assert check_lang(" DE ") == "de"
    with pytest.raises(UnknownLanguageError,
                       match=r"unknown language 'xx' \(known: en, de, fr, zh\)"):
        printed_name(make_game("base").catalog.species["Oak"], "xx")


def test_the_document_language_is_the_one_most_names_are_in() -> None:
    cat = make_game("base").catalog
    assert name_languages(cat, "Wolf") == {"en", "de"}
    assert document_language(cat, ["Wolf", "Lynx"]) == "en"  # a tie: English
    assert document_language(cat, ["Wolf", "Buche", "Linde"]) == "de"
    assert document_language(cat, ["椴树", "Oak"]) == "en"
    assert document_language(cat, ["椴树", "橡树", "Oak"]) == "zh"
    assert document_language(cat, []) == "en"


def test_a_broken_names_file_names_the_entry() -> None:
    good = {"sources": {"X": "somewhere"}, "modules": {"base": {"Oak": {
        lang: {"name": "Oak", "sources": ["X"]} for lang in LANGS}}}}
    assert not build_table(good).facts["base"]["Oak"]["de"].provisional
    bad = json.loads(json.dumps(good))
    bad["modules"]["base"]["Oak"]["fr"] = {"name": "Chêne", "sources": []}
    with pytest.raises(CardDataError, match=r"base 'Oak', fr: a name without sources"):
        build_table(bad)
    bad["modules"]["base"]["Oak"]["fr"] = {"name": "Chêne", "sources": ["Y"]}
    with pytest.raises(CardDataError, match="sources must be keys"):
        build_table(bad)


def test_the_document_gives_every_source_and_lists_every_fallback() -> None:
    text = DOC.read_text(encoding="utf-8")
    table = name_table()
    for key in table.sources:
        assert f"`{key}`" in text, key
    for module, entries in table.facts.items():
        for key, facts in entries.items():
            for lang, fact in facts.items():
                if fact.fallback:
                    line = re.search(rf"^\| {re.escape(module)} \| {re.escape(key)} \|.*$",
                                     text, flags=re.M)
                    assert line and lang in line.group(0), (module, key, lang)


def _cards(*args: str) -> tuple[int, str]:
    res = CliRunner().invoke(app, ["cards", *args], env={"COLUMNS": "200"})
    return res.exit_code, res.output


def test_cards_lang_de_lists_the_german_names() -> None:
    code, out = _cards("--lang", "de")
    assert code == 0, out
    for name in ("Linde", "Eiche", "Frischling", "Feldhase", "Eichhörnchen"):
        assert name in out


def test_cards_json_keeps_its_keys_and_adds_the_name() -> None:
    code, out = _cards("--json", "--lang", "zh", "Buche")
    assert code == 0, out
    records = json.loads(out)
    assert records and all(r["tree"] == "Beech" and r["name"] == "山毛榉" for r in records)
    code, out = _cards("--json", "--lang", "fr", "70")
    halves = json.loads(out)[0]
    assert halves["left"]["name"] == printed_name(
        make_game("base").catalog.species[halves["left"]["species"]], "fr")


def test_cards_json_names_dartmoors_caves_in_the_language() -> None:
    code, out = _cards("--json", "--lang", "fr", "--game", "dartmoor")
    assert code == 0, out
    caves = [r for r in json.loads(out) if r["kind"] == "cave"]
    assert len(caves) == 5 and {r["name"] for r in caves} == {"Grotte"}


def test_cards_with_an_unknown_language_is_one_line_and_exit_2() -> None:
    code, out = _cards("--lang", "klingon")
    assert code == 2
    assert out.strip().splitlines() == ["unknown language 'klingon' (known: en, de, fr, zh)"]
