"""Games other than the base game at the command line: Forest JSON version 2 (``score``)
and the ``--game`` option of ``play``, ``simulate``, ``tournament``, ``stats``, ``cards``
and ``serve``; ``replay`` takes the game from the record.

The scores of the tables below were worked out by hand from the card data (the comments
give the sums); the example files are in ``tests/data/forest``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from forest_shuffle.cards.model import EFFECT_OPS, POINT_RULES
from forest_shuffle.cli.app import app
from forest_shuffle.formats.records import read_record
from forest_shuffle.games import game_ids, make_game
from forest_shuffle.text import cardtext

DATA = Path(__file__).parent / "data" / "forest"
GAMES = ("base+alpine", "base+woodland_edge", "base+alpine+woodland_edge")


def invoke(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(app, list(args), input=stdin, env={"COLUMNS": "200"})


def score(doc: Any) -> dict[str, Any]:
    """``score - --json`` of a document (a dict, or a path to a file)."""
    if isinstance(doc, Path):
        result = invoke("score", str(doc), "--json")
    else:
        result = invoke("score", "-", "--json", stdin=json.dumps(doc))
    assert result.exit_code == 0, result.output
    out: dict[str, Any] = json.loads(result.stdout)
    return out


def by_name(out: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {p["name"]: p for p in out["players"]}


def points(player: dict[str, Any], where: str, species: str) -> int:
    hits = [c["points"] for c in player["cards"]
            if c["where"] == where and c["species"] == species]
    assert len(hits) == 1, (where, species, player["cards"])
    return int(hits[0])


def refused(doc: Any) -> str:
    """The one line ``score`` refuses a document with (exit 2, nothing scored)."""
    result = invoke("score", "-", "--json", stdin=json.dumps(doc))
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    return lines[0][len("error: "):]


def one(game: str | None, *trees: dict[str, Any], **player: Any) -> dict[str, Any]:
    """A document of one player ``A`` with these trees."""
    doc: dict[str, Any] = {"players": [{"name": "A", "trees": list(trees), **player}]}
    if game is not None:
        doc["game"] = game
    return doc


def total(doc: dict[str, Any]) -> int:
    return int(score(doc)["players"][0]["total"])


# ---------------------------------------------------------------- scoring each game


def test_alpine_table() -> None:
    out = score(DATA / "base+alpine.json")
    ann, ben = by_name(out)["Ann"], by_name(out)["Ben"]
    # Stone Pine 4 (itself, Golden Eagle, Edelweiss, Mountain Hare show the Alps symbol);
    # Golden Eagle 3 (3 pawed animals); Edelweiss 3; European Hare 2 and Mountain Hare 2
    # (2 hares each: the Mountain Hare counts as one); Red Fox 2 x 2 = 4; cave 2
    assert ann["total"] == 20
    assert ann["lines"] == {"trees": 4, "top_bottom": 6, "left_right": 8, "cave": 2}
    assert points(ann, "tree 1", "Stone Pine") == 4
    assert points(ann, "tree 1 left", "Mountain Hare") == 2
    assert points(ann, "tree 1 right", "Red Fox") == 4
    # European Larch 3; Bearded Vulture 1 per cave card = 3; Chamois 3 x 3 cards showing
    # the Larch symbol (the tree, card 194's vulture and itself) = 9; cave 3
    assert ben["total"] == 18
    assert ben["lines"] == {"trees": 3, "top_bottom": 3, "left_right": 9, "cave": 3}
    assert points(ben, "tree 1 left", "Chamois") == 9
    assert out["winners"] == ["Ann"]


def test_woodland_edge_table() -> None:
    out = score(DATA / "base+woodland_edge.json")
    ann, ben = by_name(out)["Ann"], by_name(out)["Ben"]
    assert points(ann, "tree 1", "Elderberry") == 0
    assert points(ann, "tree 1 top", "Nightingale") == 5  # atop a shrub
    assert points(ann, "tree 1 bottom", "Digitalis") == 3  # 2 plant species: Digitalis, Nettle
    # Bison: 2 x 6 cards showing Oak or Beech (Oak tree, shrub 201, Nightingale 217, itself,
    # Map Butterfly 212, the Fritillary)
    assert points(ann, "tree 2 left", "European Bison") == 12
    assert points(ann, "tree 2 bottom", "Stinging Nettle") == 6  # 3 butterflies
    assert points(ann, "tree 3 left", "European Polecat") == 10  # alone at its Birch
    assert points(ann, "tree 4 left", "European Wildcat") == 8  # 8 Woodland Edge cards
    # butterflies sharing the Nettle host's top slot: a set of 3 species, 6 points
    butterflies = sum(c["points"] for c in ann["cards"] if c["where"] == "tree 2 top")
    assert butterflies == 6
    assert ann["total"] == 5 + 3 + 12 + 6 + 10 + 8 + 6 + 1  # + Birch 1
    assert ann["lines"] == {"trees": 1, "top_bottom": 20, "left_right": 30, "cave": 0}
    # Ben: base Wild Boar 10 with an Edge Squeaker (which counts as a Squeaker) 1; a
    # Nightingale on a sapling 0 (a sapling is no shrub); cave 1
    assert points(ben, "tree 1 left", "Wild Boar") == 10
    assert points(ben, "tree 2 top", "Nightingale") == 0
    assert ben["total"] == 12
    assert out["winners"] == ["Ann"]


def test_both_expansions_in_any_order() -> None:
    path = DATA / "base+woodland_edge+alpine.json"
    out = score(path)
    # Stone Pine 3 (itself, Golden Eagle, Edelweiss), Golden Eagle 0, Edelweiss 3,
    # Nightingale 5 on the Elderberry, Stinging Nettle 0 (no butterfly)
    assert out["players"][0]["total"] == 11
    assert out["players"][0]["lines"] == {"trees": 3, "top_bottom": 8, "left_right": 0,
                                          "cave": 0}
    doc = json.loads(path.read_text(encoding="utf-8"))
    for spelled in ("base+alpine+woodland_edge", " Base + Woodland_Edge + ALPINE "):
        doc["game"] = spelled
        assert score(doc) == out


def test_the_spec_example_as_written_is_refused() -> None:
    """The spec's version-2 example puts card 215 (a top/bottom card) on the right."""
    doc = json.loads((DATA / "base+woodland_edge+alpine.json").read_text(encoding="utf-8"))
    doc["game"] = "base+alpine+woodland_edge"
    doc["players"][0]["trees"][1] = {"tree": "Elderberry", "top": ["Nightingale"],
                                     "right": [{"card": 215}]}
    assert refused(doc) == ('player 1 "A", tree 2, right: card 215 (Eurasian Magpie / '
                            "Stinging Nettle) has no right half").replace('"A"', '"Ann"')


def test_butterflies_share_the_top_slot_of_a_nettle_host() -> None:
    shared = {"tree": "Elderberry", "top": ["Map Butterfly", "Map Butterfly",
                                            "Peacock Butterfly"],
              "bottom": ["Stinging Nettle"]}
    # sets: {Map, Peacock} 3 + {Map} 0; Nettle 2 x 3 butterflies
    assert total(one("base+woodland_edge", shared)) == 3 + 6
    # the keys' order does not matter: the Nettle is placed before the second butterfly
    flipped = {"bottom": ["Stinging Nettle"], **shared}
    assert total(one("base+woodland_edge", flipped)) == 9
    # a tree host too, and in the game with both expansions
    on_oak = {**shared, "tree": "Oak"}
    assert total(one("base+alpine+woodland_edge", on_oak)) == 9
    # without a Nettle at that host, one card a slot
    msg = refused(one("base+woodland_edge", {"tree": "Oak", "top": ["Map Butterfly",
                                                                     "Peacock Butterfly"]},
                      {"tree": "Birch", "bottom": ["Stinging Nettle"]}))
    assert msg == ('player 1 "A", tree 1, top: two cards in a slot that holds one '
                   "(Map Butterfly and Peacock Butterfly)")
    # the Nettle lets butterflies share, nothing else
    msg = refused(one("base+woodland_edge", {"tree": "Elderberry", "top": [
        "Map Butterfly", "Nightingale"], "bottom": ["Stinging Nettle"]}))
    assert "two cards in a slot" in msg and "Nightingale" in msg


def test_mountain_hare_counts_and_stacks_as_a_european_hare() -> None:
    # A Red Fox counts the Mountain Hare: Red Fox 2, Mountain Hare 1
    assert total(one("base+alpine", {"tree": "Oak", "left": ["Mountain Hare"],
                                     "right": ["Red Fox"]})) == 3
    # it joins a stack of hares and they join its stack, by name or by card (197: right):
    # 4 hares, each scores 4
    stacks = {"tree": "Oak", "left": ["Mountain Hare", "European Hare"],
              "right": ["European Hare", {"card": 197}]}
    assert total(one("base+alpine", stacks)) == 16
    # but shares with nothing else
    msg = refused(one("base+alpine", {"tree": "Oak", "left": ["Mountain Hare", "Lynx"]}))
    assert msg == ('player 1 "A", tree 1, left: two cards in a slot that holds one '
                   "(Mountain Hare and Lynx)")
    # toads still pair, at most two
    msg = refused(one("base+alpine", {"tree": "Oak", "bottom": ["Common Toad"] * 3}))
    assert msg.endswith("three Common Toads in one slot (at most two)")


def test_tree_symbols_come_from_the_game() -> None:
    chamois = {"tree": "Stone Pine", "left": [{"species": "Chamois", "symbol": "Stone Pine"}]}
    # Stone Pine: 2 Alps cards (itself, the Chamois); Chamois: 3 x 2 cards with its symbol
    assert total(one("base+alpine", chamois)) == 2 + 3 * 2
    msg = refused(one(None, {"tree": "Oak", "left": [{"species": "Lynx",
                                                      "symbol": "Stone Pine"}]}))
    assert msg == 'player 1 "A", tree 1, left: unknown tree symbol "Stone Pine"'
    # a shrub shows the symbol printed on it; one named may say which
    bison = {"tree": "Oak", "left": ["European Bison"]}  # every Bison shows Oak or Beech
    assert total(one("base+woodland_edge", bison, {"card": 201})) == 2 * 3
    assert total(one("base+woodland_edge", bison, {"card": 198})) == 2 * 2
    assert total(one("base+woodland_edge", bison,
                     {"tree": "Elderberry", "symbol": "Oak"})) == 2 * 3


# ---------------------------------------------------------------- refusals


@pytest.mark.parametrize(("doc", "expected"), [
    (one("base+dartmoor"), 'game: unknown game "base+dartmoor" (known: "base", '
                           '"base+alpine", "base+woodland_edge", '
                           '"base+alpine+woodland_edge", "base+exploration"'),
    (one("base+promos"), 'game: "base+promos": the promos module is not supported yet'),
    (one("alpine"), 'game: unknown game "alpine"'),
    (one("base+alpine+alpine"), 'game: unknown game "base+alpine+alpine"'),
    ({"game": 2, "players": []}, 'game: must be a game id such as "base", not 2'),
])
def test_refuses_games_not_read(doc: dict[str, Any], expected: str) -> None:
    assert expected in refused(doc)


@pytest.mark.parametrize(("game", "tree", "expected"), [
    (None, {"tree": "Oak", "bottom": ["Edelweiss"]},
     'tree 1, bottom: unknown species "Edelweiss" (it is in the alpine expansion, not in '
     'the game "base")'),
    ("base", {"tree": "Stone Pine"},
     'tree 1: unknown tree "Stone Pine" (it is in the alpine expansion'),
    ("base+alpine", {"tree": "Elderberry"},
     'unknown tree "Elderberry" (it is in the woodland_edge expansion, not in the game '
     '"base+alpine")'),
    ("base+alpine", {"tree": "Oak", "top": ["Nightingale"]}, 'unknown species "Nightingale"'),
    ("base+woodland_edge", {"card": 170},
     "tree 1: card 170 is not in the deck (it is in the alpine expansion"),
    ("base+alpine", {"tree": "Oak", "top": [{"card": 217}]}, "card 217 is not in the deck"),
    ("base", {"card": 234}, "tree 1: card 234 is not in the deck"),
])
def test_refuses_species_and_cards_of_another_game(game: str | None, tree: dict[str, Any],
                                                   expected: str) -> None:
    assert expected in refused(one(game, tree))


@pytest.mark.parametrize(("trees", "expected"), [
    ([{"tree": "Oak", "top": ["Elderberry"]}],
     "tree 1, top: Elderberry is a shrub, not a card for a slot"),
    ([{"tree": "Oak", "top": [{"card": 198}]}],
     "tree 1, top: card 198 is a shrub card, not a dweller"),
    ([{"tree": "Wolf"}], "tree 1: Wolf is not a tree or shrub"),
    ([{"card": 76}], "tree 1: card 76 is not a tree or shrub card"),
    ([{"tree": "Elderberry"}] * 5, "tree 5: more Elderberry shrub cards than the deck has (4)"),
    ([{"card": 198}, {"card": 198}], "tree 2: card 198 is used twice"),
    ([{"tree": "Elderberry", "symbol": "Beech"}],
     "tree 1: no Elderberry in the deck shows the Beech symbol"),
    ([{"tree": "Elderberry", "symbol": "Linden"}, {"card": 198}],
     "tree 2: more Elderberry cards showing the Linden symbol than the deck has (1)"),
    ([{"card": 198, "symbol": "Oak"}], "tree 1: card 198 shows the Linden symbol"),
    ([{"tree": "Elderberry", "left": ["European Bison"]}],
     "tree 1: give this Elderberry's card or symbol; a European Bison counts the Oak symbol"),
    ([{"tree": "Oak", "left": ["European Bison"], "top": ["Nightingale"]}],
     "tree 1, top: give this Nightingale's card or symbol"),
])
def test_refuses_shrubs_out_of_place(trees: list[dict[str, Any]], expected: str) -> None:
    assert expected in refused(one("base+woodland_edge", *trees))


def test_a_sapling_is_never_a_shrub() -> None:
    # a Nightingale scores on a shrub only, a Polecat alone at a sapling still scores
    assert total(one("base+woodland_edge", {"tree": "sapling", "top": ["Nightingale"]})) == 0
    assert total(one("base+woodland_edge", {"tree": "Blackthorn", "top": ["Nightingale"]})) == 5
    assert total(one("base+woodland_edge", {"tree": "sapling",
                                            "left": ["European Polecat"]})) == 10


def test_counts_are_bounded_by_the_games_deck() -> None:
    msg = refused(one("base+alpine", *[{"tree": "Stone Pine"}] * 8))
    assert msg.endswith("tree 8: more Stone Pine tree cards than the deck has (7)")
    assert "more Mountain Hare cards than the deck has (3)" in refused(
        one("base+alpine", {"tree": "Oak", "left": ["Mountain Hare"] * 4}))
    # the caves: 194 cards besides the winter cards with one expansion, 230 with both
    assert total(one("base+alpine", cave=194)) == 194
    assert "only 194 cards besides the winter cards" in refused(one("base+alpine", cave=195))
    assert total(one("base+alpine+woodland_edge", cave=230)) == 230
    assert "only 158 cards" in refused(one(None, cave=194))


# ---------------------------------------------------------------- --game


def test_simulate_an_expansion_and_replay_its_records(tmp_path: Path) -> None:
    folder = tmp_path / "recs"
    result = invoke("simulate", "--game", "base+alpine", "--games", "2", "--seed", "3",
                    "--json", "--records", str(folder))
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["game"] == "base+alpine"
    assert len(data["winter_turns"]) == make_game("base+alpine").winter_to_end
    files = sorted(folder.iterdir())
    assert len(files) == 2
    for f in files:
        assert read_record(f)["game"] == "base+alpine"
        replayed = invoke("replay", str(f))
        assert replayed.exit_code == 0, replayed.output
        assert replayed.stdout.startswith("OK:") and "game base+alpine" in replayed.stdout
    text = invoke("simulate", "--game", "base+woodland_edge+alpine", "--games", "1")
    assert text.exit_code == 0, text.output
    assert "Forest Shuffle + Alpine + Woodland Edge" in text.stdout


def test_tournament_and_stats_of_an_expansion(tmp_path: Path) -> None:
    result = invoke("tournament", "--bots", "random,random", "--game", "base+woodland_edge",
                    "--games", "2", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["game"] == "base+woodland_edge"
    out = tmp_path / "stats"
    result = invoke("stats", "--bots", "random", "--game", "base+alpine", "--games", "2",
                    "--out", str(out))
    assert result.exit_code == 0, result.output
    data = json.loads((out / "stats.json").read_text(encoding="utf-8"))
    assert data["game"] == "base+alpine"
    catalog = make_game("base+alpine").catalog
    assert set(data["species"]) == set(catalog.species) | {"sapling"}
    assert data["species"]["Stone Pine"]["kind"] == "tree"


def test_cards_of_woodland_edge_show_the_shrubs() -> None:
    result = invoke("cards", "--game", "base+woodland_edge")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Forest Shuffle + Woodland Edge: 76 species" in out
    assert "8 trees, 3 shrubs, 65 dwellers" in out
    for name in ("Elderberry", "Common Hazel", "Blackthorn", "Stinging Nettle"):
        assert name in out
    hazel = next(line for line in out.splitlines() if "Common Hazel" in line)
    assert "shrub" in hazel and "Whenever you play a bat," in hazel
    assert "Elderberry" not in invoke("cards").stdout
    records = json.loads(invoke("cards", "--game", "base+woodland_edge", "--json").stdout)
    assert [r["id"] for r in records] == [*range(1, 162), *range(198, 234)]
    shrub = next(r for r in records if r["id"] == 201)
    assert shrub["kind"] == "shrub" and shrub["shrub"] == "Elderberry"
    assert shrub["tree_symbol"] == "Oak" and shrub["code"] == "ES04"
    detail = invoke("cards", "--game", "base+woodland_edge", "201").stdout
    assert "#201 ES04: Elderberry (shrub card, Oak, cost 2)" in detail


def test_cards_of_alpine_mark_provisional_species() -> None:
    result = invoke("cards", "--game", "base+alpine")
    assert result.exit_code == 0, result.output
    out = result.stdout
    catalog = make_game("base+alpine").catalog
    provisional = [sp for sp in catalog.species.values() if sp.provisional]
    assert provisional
    for sp in provisional:
        assert f"{sp.name} (provisional)" in out
        assert sp.provisional in " ".join(out.split())
    detail = invoke("cards", "--game", "base+alpine", "mountain hare").stdout
    assert "Provisional" in detail and "Counts as" in detail and "European Hare" in detail
    record = json.loads(invoke("cards", "--game", "base+alpine", "--json", "178").stdout)[0]
    assert record["left"]["provisional"] == catalog.species["Mountain Hare"].provisional


def test_cards_names_the_game_that_has_a_species() -> None:
    result = invoke("cards", "edelweiss")
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        "no card named 'edelweiss' (it is in the game base+alpine: --game base+alpine)"]


@pytest.mark.parametrize("args", [
    ["cards"], ["cards", "--json"], ["simulate", "--games", "1"],
    ["tournament", "--bots", "random", "--games", "1"],
    ["stats", "--bots", "random", "--games", "1"], ["play"], ["serve"],
])
def test_bad_game_exits_2_with_one_line(args: list[str], tmp_path: Path) -> None:
    extra = ["--out", str(tmp_path / "out")] if args[0] == "stats" else []
    result = invoke(*args, *extra, "--game", "base+promos")
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("--game: unknown game 'base+promos' (known: base, ")
    assert not (tmp_path / "out").exists()


def test_bad_game_in_a_real_process() -> None:
    proc = subprocess.run([sys.executable, "-m", "forest_shuffle", "simulate", "--game",
                           "dartmoor+alpine", "--games", "1"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 2 and proc.stdout == ""
    assert len(proc.stderr.splitlines()) == 1 and "unknown game 'dartmoor+alpine'" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_game_ids_are_listed_in_the_help() -> None:
    result = invoke("simulate", "--help")
    assert result.exit_code == 0
    for gid in game_ids():
        assert gid in " ".join(result.stdout.split())


# ---------------------------------------------------------------- words for the cards


@pytest.mark.parametrize("game", GAMES)
def test_every_op_and_rule_has_words(game: str) -> None:
    catalog = make_game(game).catalog
    for sp in catalog.species.values():
        rule = sp.points.rule
        assert rule in POINT_RULES
        words = cardtext.describe_points(sp)
        assert words and "_" not in words and words != rule.replace("_", " "), sp.name
        for part in ("effect", "bonus", "permanent"):
            eff = cardtext.part_effect(sp, part)
            if eff is None:
                continue
            assert eff.op in EFFECT_OPS
            text = cardtext.describe_effect(eff)
            assert text and text != eff.op.replace("_", " ").capitalize(), (sp.name, part)
        for part in cardtext.PARTS:
            has = part == "points" or cardtext.part_effect(sp, part) is not None
            assert bool(cardtext.full_text(sp, part)) == has, (sp.name, part)


def test_words_of_the_new_ops_and_rules() -> None:
    sp = make_game("base+alpine+woodland_edge").catalog.species
    effect = cardtext.describe_effect
    points = cardtext.describe_points
    assert effect(sp["Wild Boar (female)"].bonus) == "Place 1 Squeaker from your hand for free"
    assert effect(sp["Alpine Newt"].bonus) == (
        "Place 1 Alps card, then 1 insect from your hand for free")
    assert effect(sp["Bearded Vulture"].effect) == (
        "Put 2 cards of the clearing of your choice under your cave")
    assert effect(sp["Bee Swarm"].effect) == (
        "Put every card of the clearing showing a plant, shrub or tree under your cave")
    assert effect(sp["European Wildcat"].effect) == (
        "Take 1 card of your choice from the clearing into your hand")
    assert effect(sp["Crane Fly"].bonus) == (
        "Take every bat of the clearing into your hand, up to the hand limit")
    assert effect(sp["Wild Boar (female)"].effect) == (
        "Remove every card in the clearing from the game")
    assert effect(sp["Water Vole"].effect) == (
        "Place any number of hand cards face down as saplings for free")
    assert effect(sp["Black Trumpet"].permanent) == (
        "Whenever you play an Alps card, draw 1 card")
    assert effect(sp["Stinging Nettle"].permanent) == (
        "Any number of butterflies may share the top slot of the tree or shrub it sits at")
    assert effect(sp["Barn Owl"].effect) == "Take another turn if your forest holds a bat"
    assert points(sp["Alpine Marmot"]) == "3 per different plant species"
    assert points(sp["Digitalis"]) == (
        "by different plant species: 1/3/6/10/15 for 1/2/3/4/5+")
    assert points(sp["European Bison"]) == "2 per card with the Oak or Beech symbol"
    assert points(sp["Bearded Vulture"]) == "1 per card in your cave"
    assert points(sp["Nightingale"]) == "5 if atop a shrub"
    assert points(sp["European Polecat"]) == "10 if the only card at its tree or shrub"
    assert points(sp["Red Fox"]) == "2 per European Hare (Mountain Hares included)"
    assert points(sp["Stone Pine"]) == "1 per Alps card (itself included)"
