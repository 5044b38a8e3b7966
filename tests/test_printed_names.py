"""The printed name is always accepted and shown: the Woodland Edge copies of the Squeaker
(key ``Edge Squeaker``) are printed "Squeaker", and every face (Forest JSON in and out,
``cards``, card text, the log's words, the terminal, ``GET /api/cards`` and the page) reads
and shows "Squeaker"; the key is still read in Forest JSON, and the scorer keeps the two
species apart (the Woodland Edge symbol the European Wildcat counts)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from rich.console import Console
from typer.testing import CliRunner

from forest_shuffle.cards.forest import Dweller, Forest, host_of_card
from forest_shuffle.cards.model import CardDataError, build_catalog, normalize_name
from forest_shuffle.cli.app import app
from forest_shuffle.engine.actions import PLAY, Action
from forest_shuffle.formats.forest_json import ForestJsonError, parse_table, result_to_json
from forest_shuffle.games import game_ids, make_game
from forest_shuffle.server.app import create_app
from forest_shuffle.terminal.line import card_details, forest_table, hand_table
from forest_shuffle.text import cardtext
from forest_shuffle.text.narration import label, public_words

EDGE = "base+woodland_edge"
CAT = make_game(EDGE).catalog
#: The three Woodland Edge Squeaker cards and the side of their Squeaker half.
EDGE_HALVES = {225: "right", 226: "left", 227: "right"}
#: ``../shared/reference`` beside the project root (as in CI; ``FOREST_SHUFFLE_SHARED`` names
#: another ``shared`` folder, for a worktree elsewhere).
REFERENCE = Path(os.environ.get("FOREST_SHUFFLE_SHARED",
                                Path(__file__).resolve().parents[2] / "shared")) / "reference"


def _reference_names() -> dict[str, set[str]]:
    """Printed species names of the reference card facts, by data module."""
    if not REFERENCE.is_dir():
        pytest.skip(f"reference card facts not found at {REFERENCE}")
    base = json.loads((REFERENCE / "cards-base.json").read_text(encoding="utf-8"))
    exp = json.loads((REFERENCE / "cards-expansions.json").read_text(encoding="utf-8"))
    dm = json.loads((REFERENCE / "cards-dartmoor.json").read_text(encoding="utf-8"))
    ex = json.loads((REFERENCE / "cards-exploration.json").read_text(encoding="utf-8"))
    out = {"base": {s["name"] for s in base["trees"] + base["dwellers"]}}
    for module in ("alpine", "woodland_edge"):
        out[module] = {s["name"] for s in exp["expansions"][module]["species"]}
    # its new species and those it adds a card of (read from their module's definition)
    out["exploration"] = {s["name"] for s in ex["species"]}
    out["dartmoor"] = {s["name"] for group in dm["species"].values() if isinstance(group, list)
                       for s in group}
    xp = json.loads((REFERENCE / "cards-exploration.json").read_text(encoding="utf-8"))
    out["exploration"] = {s["name"] for s in xp["species"]}
    return out


@pytest.mark.parametrize("gid", game_ids(unlisted=True))
def test_every_species_shows_its_printed_name(gid: str) -> None:
    """Every species of every game (the Dartmoor solo challenges too) is printed with a name
    of the reference card facts; a key differs from it only where species share it."""
    names = _reference_names()
    catalog = make_game(gid).catalog
    for sp in catalog.species.values():
        assert sp.printed in names[sp.module], (gid, sp.name, sp.printed)
        if sp.printed != sp.name:
            assert len(catalog.named(sp.printed)) > 1, sp.name


def test_the_edge_squeaker_is_printed_squeaker() -> None:
    edge = CAT.species["Edge Squeaker"]
    assert (edge.printed, edge.short_name) == ("Squeaker", "Squeaker")
    assert [sp.name for sp in CAT.named("squeaker")] == ["Squeaker", "Edge Squeaker"]
    assert CAT.named("Edge Squeaker") == (edge,)
    assert "woodland edge" in edge.tags and "woodland edge" not in CAT.species["Squeaker"].tags
    for cid, side in EDGE_HALVES.items():
        assert CAT.card(cid).halves[side].species is edge


# -- Forest JSON -------------------------------------------------------------------------


def _doc(*trees: dict[str, Any], game: str = EDGE) -> dict[str, Any]:
    return {"game": game, "players": [{"name": "Ann", "trees": list(trees)}]}


def _score(doc: dict[str, Any]) -> dict[str, Any]:
    table = parse_table(json.dumps(doc))
    out: dict[str, Any] = result_to_json(table.names, table.game.score_table(table.forests))
    return out


def _refusal(doc: dict[str, Any]) -> str:
    with pytest.raises(ForestJsonError) as err:
        parse_table(json.dumps(doc))
    text = str(err.value)
    assert "\n" not in text
    return text


def _points(doc: dict[str, Any]) -> list[tuple[str, str, int]]:
    return [(c["where"], c["species"], c["points"]) for c in _score(doc)["players"][0]["cards"]]


def test_the_issue_example_is_read_as_an_edge_squeaker() -> None:
    """``{"species": "Squeaker", "symbol": "Silver Fir"}``: only a Woodland Edge copy shows
    Silver Fir, so it is one, and the Wildcat counts it."""
    doc = _doc({"tree": "Oak", "left": [{"species": "Squeaker", "symbol": "Silver Fir"}],
                "right": ["European Wildcat"]})
    assert _points(doc) == [("tree 1", "Oak", 0), ("tree 1 left", "Squeaker", 1),
                            ("tree 1 right", "European Wildcat", 2)]


def test_a_symbol_that_no_squeaker_shows_is_refused_by_the_printed_name() -> None:
    doc = _doc({"tree": "Oak", "left": [{"species": "Squeaker", "symbol": "Linden"}]})
    assert _refusal(doc).endswith("tree 1, left: no Squeaker in the deck shows the Linden "
                                  "symbol")


def test_a_card_id_takes_the_printed_name_and_the_old_key() -> None:
    for name in ("Squeaker", "squeaker", "Edge Squeaker"):
        doc = _doc({"tree": "Oak", "left": [{"card": 226, "species": name}],
                    "right": ["European Wildcat"]})
        assert _points(doc)[1:] == [("tree 1 left", "Squeaker", 1),
                                    ("tree 1 right", "European Wildcat", 2)]
    wrong = _doc({"tree": "Oak", "right": [{"card": 99, "species": "Edge Squeaker"}]})
    assert "card 99 shows Squeaker (base game) on its right half, not Squeaker " \
           "(woodland_edge expansion)" in _refusal(wrong)


def test_the_old_key_is_still_read() -> None:
    doc = _doc({"tree": "Oak", "left": ["Edge Squeaker"], "right": ["European Wildcat"]})
    assert _points(doc)[1:] == [("tree 1 left", "Squeaker", 1),
                                ("tree 1 right", "European Wildcat", 2)]


def test_a_plain_squeaker_is_any_copy_when_that_changes_no_score() -> None:
    """Seven cards are printed "Squeaker" (four base, three Woodland Edge); without a card
    that tells them apart any of them scores the same."""
    seven = [{"tree": "Oak", "left": ["Squeaker"], "right": ["Squeaker"]}] * 3 + [
        {"tree": "Oak", "left": ["Squeaker"], "right": ["Wild Boar"]}]
    got = _points(_doc(*seven))
    assert [p for _w, s, p in got if s == "Squeaker"] == [1] * 7
    assert ("tree 4 right", "Wild Boar", 10) in got
    eight = [*seven, {"tree": "Oak", "left": ["Squeaker"]}]
    assert _refusal(_doc(*eight)).endswith("tree 5, left: more Squeaker cards than the deck "
                                           "has (7)")


def test_a_plain_squeaker_is_refused_where_the_copy_changes_a_score() -> None:
    """With a Wildcat in the forest a base and a Woodland Edge Squeaker score differently:
    the entry must say which (one line saying what it needs)."""
    doc = _doc({"tree": "Oak", "left": ["Squeaker"], "right": ["European Wildcat"]})
    text = _refusal(doc)
    assert text.startswith('player 1 "Ann", tree 1, left: give this Squeaker\'s card or '
                           "symbol:")
    assert "European Wildcat" in text and "Edge Squeaker" not in text
    both = _doc({"tree": "Oak", "left": [{"species": "Squeaker", "symbol": "Horse Chestnut"}],
                 "right": ["European Wildcat"]})  # a base and an Edge copy show it
    assert "give this Squeaker's card:" in _refusal(both)
    base = _doc({"tree": "Oak", "left": [{"species": "Squeaker", "symbol": "Oak"}],
                 "right": ["European Wildcat"]})
    assert _points(base)[1:] == [("tree 1 left", "Squeaker", 1),
                                 ("tree 1 right", "European Wildcat", 1)]


def test_explicit_copies_are_counted_before_plain_names() -> None:
    """A plain name waits for the whole table, so it takes a copy the cards given by id or
    symbol leave (read in document order, four plain Squeakers would have taken all the
    base copies before the base card 108)."""
    trees = [{"tree": "Oak", "left": ["Squeaker"], "right": ["Squeaker"]}] * 2 + [
        {"tree": "Oak", "left": [{"card": 108}], "right": [{"card": 99}]},
        {"tree": "Oak", "left": [{"species": "Squeaker", "symbol": "Oak"}]}]
    got = _points(_doc(*trees))
    assert [p for _w, s, p in got if s == "Squeaker"] == [1] * 7


def test_score_cli_prints_the_printed_name(tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    path.write_text(json.dumps(_doc({"tree": "Oak", "left": [{"card": 226}]})),
                    encoding="utf-8")
    done = CliRunner().invoke(app, ["score", str(path), "--json"])
    assert done.exit_code == 0, done.output
    assert "Edge Squeaker" not in done.output
    assert json.loads(done.output)["players"][0]["cards"][1]["species"] == "Squeaker"
    table = CliRunner().invoke(app, ["score", str(path)], env={"COLUMNS": "200"})
    assert "Squeaker" in table.output and "Edge Squeaker" not in table.output
    path.write_text(json.dumps(_doc({"tree": "Oak", "left": ["Squeaker"],
                                     "right": ["European Wildcat"]})), encoding="utf-8")
    bad = CliRunner().invoke(app, ["score", str(path)])
    assert bad.exit_code == 2 and "give this Squeaker's card or symbol" in bad.output
    assert "Traceback" not in bad.output


# -- cards, card text, the log ---------------------------------------------------------


def _cards(*args: str) -> str:
    done = CliRunner().invoke(app, ["cards", *args, "--game", EDGE], env={"COLUMNS": "200"})
    assert done.exit_code == 0, done.output
    return done.output


def test_cards_shows_and_finds_the_printed_name() -> None:
    assert "Edge Squeaker" not in _cards()
    both = _cards("Squeaker")
    assert "Edge Squeaker" not in both
    assert "Squeaker (base game)" in both and "Squeaker (Woodland Edge)" in both
    for cid in EDGE_HALVES:
        assert str(cid) in both
    one = _cards("225")
    assert "Squeaker (right" in one and "Edge Squeaker" not in one
    old = _cards("Edge Squeaker")  # the key still finds the Woodland Edge copies
    assert "Squeaker (Woodland Edge)" in old and "(base game)" not in old
    records = json.loads(_cards("Squeaker", "--json"))
    assert sorted(r["id"] for r in records) == [99, 105, 106, 108, 225, 226, 227]
    assert {r[EDGE_HALVES[r["id"]]]["species"] for r in records if r["id"] in EDGE_HALVES} == {
        "Squeaker"}


def test_card_text_and_the_log_show_the_printed_name() -> None:
    for cid, side in EDGE_HALVES.items():
        card = CAT.card(cid)
        assert "Squeaker" in card.label() and "Edge" not in card.label()
        assert "Edge Squeaker" not in cardtext.card_summary(cid, CAT)
        assert "Squeaker" in label(cid, CAT).split("/")
        record = cardtext.card_record(card, CAT)
        assert record[side]["species"] == "Squeaker"
    forest = Forest([host_of_card(CAT, 1)])
    words = public_words(Action(PLAY, 225, "right", 0), None, forest, CAT)
    assert words.startswith("plays Squeaker (card 225) right of tree 1")
    facts = dict(cardtext.species_facts(CAT.species["Edge Squeaker"], CAT))
    assert facts["Counts as"] == "Squeaker"


def test_the_terminal_shows_the_printed_name() -> None:
    tree = host_of_card(CAT, 1)
    tree.slots["right"].append(Dweller.of_card(CAT.card(225), "right"))
    console = Console(width=120, color_system=None, record=True)
    console.print(forest_table(Forest([tree]), "Forest", CAT))
    console.print(hand_table([226], Forest([tree]), "Hand", CAT))
    console.print(card_details(227, CAT))
    text = console.export_text()
    assert text.count("Squeaker") >= 3 and "Edge Squeaker" not in text


# -- the server and the page -----------------------------------------------------------


def _api_cards() -> dict[str, Any]:
    with TestClient(create_app("sqlite://", bot_delay=0.0)) as c:
        data: dict[str, Any] = c.get("/api/cards", params={"game": EDGE}).json()
    return data


def test_api_cards_names_species_by_their_printed_name() -> None:
    data = _api_cards()
    edge = data["species"]["Edge Squeaker"]
    assert (edge["name"], edge["key"], edge["short_name"]) == ("Squeaker", "Edge Squeaker",
                                                               "Squeaker")
    assert data["species"]["Squeaker"]["name"] == "Squeaker"
    for cid, side in EDGE_HALVES.items():
        card = data["cards"][str(cid)]
        assert card["halves"][side] == "Edge Squeaker"  # the key of "species"
        assert "Edge" not in card["label"] and "Edge Squeaker" not in card["summary"]
    for sp in data["species"].values():  # every name is printed, every key is its own
        assert sp["name"] == CAT.species[sp["key"]].printed


#: Loads the page's cards.js in Node, builds a Catalog from GET /api/cards and prints the
#: halves of the Woodland Edge Squeaker cards as the page draws them.
PAGE_SCRIPT = """
const { Catalog, shortName } = await import(process.argv[1]);
const cat = new Catalog(JSON.parse(process.env.CATALOG));
const out = {};
for (const id of [225, 226, 227]) {
  out[id] = cat.halves(id).map((h) => ({ side: h.side, key: h.key, name: h.name,
    short: shortName(h.name), tags: h.sp.tags }));
}
console.log(JSON.stringify(out));
"""


def test_the_page_shows_the_printed_name() -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    cards_js = (Path(__file__).resolve().parents[1] / "src" / "forest_shuffle" / "server"
                / "static" / "cards.js")
    done = subprocess.run([node, "--input-type=module", "-e", PAGE_SCRIPT, str(cards_js)],
                          capture_output=True, text=True, timeout=60, check=True,
                          env={"CATALOG": json.dumps(_api_cards())})
    got = json.loads(done.stdout)
    for cid, side in EDGE_HALVES.items():
        half = next(h for h in got[str(cid)] if h["side"] == side)
        assert (half["key"], half["name"], half["short"]) == ("Edge Squeaker", "Squeaker",
                                                              "Squeaker")
        assert "woodland edge" in half["tags"]  # the species' own facts, not the base one's
        assert "Edge" not in json.dumps(got[str(cid)]).replace("Edge Squeaker", "")


# -- the loader --------------------------------------------------------------------------


def _docs(module: str) -> tuple[Any, Any]:
    folder = Path(__file__).resolve().parents[1] / "src" / "forest_shuffle" / "cards" / "data"
    return tuple(json.loads((folder / module / f).read_text(encoding="utf-8"))  # type: ignore[return-value]
                 for f in ("species.json", "cards.json"))


@pytest.mark.parametrize(("name", "change", "words"), [
    ("Wild Boar (female)", {"printed_name": "Edge Squeaker"},
     "printed name 'Edge Squeaker' is the name of 'Edge Squeaker', printed otherwise"),
    ("Edge Squeaker", {"short_name": "Edge Squeak"},
     "short name 'Edge Squeak', but 'Squeaker', printed alike, has 'Squeaker'"),
    ("Edge Squeaker", {"printed_name": " Squeaker"},
     "printed_name must be a trimmed non-empty string"),
])
def test_the_loader_checks_printed_names(name: str, change: dict[str, Any], words: str) -> None:
    base, (species, cards) = _docs("base"), _docs("woodland_edge")
    entry = next(s for s in species["species"] if s["name"] == name)
    entry.update(change)
    with pytest.raises(CardDataError) as err:
        build_catalog(*base, (species, cards))
    assert words in str(err.value) and "\n" not in str(err.value)


def test_printed_names_fold_like_names() -> None:
    assert CAT.by_printed[normalize_name("SQUEAKER")] == CAT.named("squeaker")


def test_stats_count_species_by_printed_name() -> None:
    """The scorer's cards name a Woodland Edge Squeaker "Squeaker": the statistics list one
    Squeaker and no key."""
    from forest_shuffle.cli.commands.stats import summarize
    from forest_shuffle.match import MatchResult
    from forest_shuffle.scoring.core import LINES

    played = {"Oak": 1, "Squeaker": 2, "European Wildcat": 1}
    points = {"Oak": 0, "Squeaker": 2, "European Wildcat": 2}
    match = MatchResult(seed=1, bots=("random", "random"), scores=(4, 0),
                        lines=(dict.fromkeys(LINES, 1), dict.fromkeys(LINES, 0)),
                        winners=(0,), turns=1,
                        decisions=(1, 1), species_played=(played, {}),
                        species_points=(points, {}), game=EDGE)
    species = summarize("random", 2, 1, [match], EDGE)["species"]
    assert "Edge Squeaker" not in species
    assert species["Squeaker"]["played_per_forest"] == 1.0  # 2 copies in 2 forests
    assert species["Squeaker"]["kind"] == "dweller"
    old = MatchResult.from_dict({**match.to_dict(), "species_played": [
        {"Oak": 1, "Squeaker": 1, "Edge Squeaker": 1, "European Wildcat": 1}, {}]})
    again = summarize("random", 2, 1, [old], EDGE)["species"]  # a result written before
    assert again["Squeaker"] == species["Squeaker"]


def test_a_refused_play_names_the_printed_name() -> None:
    """The engine's reason for refusing a free play of a Woodland Edge Squeaker as a plant
    names it "Squeaker"."""
    from scenario import build, site

    from forest_shuffle.engine.actions import IllegalActionError
    from forest_shuffle.engine.state import GameState

    state = build([[225], [1]], [2, 3, 4], forests=[[site(5)], []], game=EDGE)
    data = state.to_dict()
    data["stack"] = [{**data["stack"][-1], "kind": "free", "player": 0, "tag": "plant",
                      "need": 1}]
    state = GameState.from_dict(data)
    with pytest.raises(IllegalActionError) as err:
        state.apply(Action(PLAY, 225, "right", 0))
    assert "Squeaker is not a plant" in str(err.value) and "Edge" not in str(err.value)


def test_a_plain_squeaker_is_refused_where_its_tree_symbol_could_count() -> None:
    """A Roe Deer showing Silver Fir counts a Woodland Edge Squeaker showing it, and no
    base one: "Squeaker" alone could be either."""
    deer = {"species": "Roe Deer", "symbol": "Linden"}
    doc = _doc({"tree": "Oak", "left": [{"card": 101}], "right": ["Squeaker"]})
    text = _refusal(doc)
    assert "give this Squeaker's card or symbol" in text and "Roe Deer counts the" in text
    fine = _doc({"tree": "Oak", "left": [deer], "right": ["Squeaker"]})  # Linden: none shows
    assert ("tree 1 right", "Squeaker", 1) in _points(fine)


def test_the_first_problem_is_still_reported_first() -> None:
    """Waiting for the whole table does not reorder refusals: a forest without a shared name
    is checked (its symbols too) before the next forest is read."""
    doc = {"game": EDGE, "players": [
        {"name": "Ann", "trees": [{"tree": "Oak", "left": ["Roe Deer"]}]},
        {"name": "Ben", "trees": [{"tree": "Oak", "left": ["Nightingale"]}]}]}
    assert _refusal(doc).startswith('player 1 "Ann", tree 1, left: give this Roe Deer\'s')


def test_the_rl_text_rendering_shows_the_printed_name() -> None:
    pytest.importorskip("pettingzoo")
    from scenario import build, site

    from forest_shuffle.rl.pettingzoo_env import view_words

    state = build([[2], [3]], [4, 5, 6], forests=[[site(1, right=[225])], []], game=EDGE)
    words = view_words(state.view(0))
    assert "right Squeaker" in words and "Edge Squeaker" not in words


def test_cards_finds_a_tree_by_its_appendix_name() -> None:
    """The appendix prints "Linden Tree"; Forest JSON already read it."""
    assert cardtext.match_printed("Linden Tree", CAT) == (CAT.species["Linden"],)
    assert "Linden" in _cards("linden tree")
