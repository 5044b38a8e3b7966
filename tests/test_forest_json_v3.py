"""Forest JSON version 3 (``spec/forest-json.md``, "Exploration and the promo cards"): the
game ids with ``exploration``, card ids 234-248, named caves, the Cuckoo, a Mistletoe's
sapling, the new tree symbols, every refusal, the writer and its round trip, and the
``score`` command's cave line and provisional notes."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from forest_shuffle.cli.commands.score import register
from forest_shuffle.engine.state import GameState
from forest_shuffle.formats.forest_json import (
    ForestJsonError,
    read_table,
    result_to_json,
    table_to_document,
)

EXPLORATION = "base+exploration"

#: The spec's example document (section "Exploration and the promo cards").
SPEC_EXAMPLE: dict[str, Any] = {
    "game": "base+woodland_edge+exploration",
    "players": [
        {
            "name": "Ann",
            "cave": {"name": "Bat Cave", "cards": 3},
            "trees": [
                {"tree": "Palm Tree", "top": ["Robin"], "left": ["Elk"]},
                {"tree": "Turkey Oak", "bottom": [{"card": 248}],
                 "right": [{"species": "Troll", "symbol": "Douglas Fir"}]},
            ],
        }
    ],
}


def doc(game: str | None, *players: dict[str, Any]) -> dict[str, Any]:
    """A document of ``game`` (None: no ``game`` key) with players A, B, ..."""
    out: dict[str, Any] = {"players": [{"name": chr(65 + i), **p}
                                       for i, p in enumerate(players)]}
    if game is not None:
        out["game"] = game
    return out


def refused(d: dict[str, Any]) -> str:
    with pytest.raises(ForestJsonError) as exc:
        read_table(d)
    message = str(exc.value)
    assert "\n" not in message
    return message


def totals(d: dict[str, Any]) -> list[int]:
    t = read_table(d)
    return t.game.totals(t.forests)


def score_json(d: dict[str, Any]) -> dict[str, Any]:
    t = read_table(d)
    return result_to_json(t.names, t.game.score_table(t.forests), t)


# ---------------------------------------------------------------- the spec's example


def test_the_specs_example_scores_28_with_the_bat_cave_on_the_cave_line() -> None:
    # Worked out by hand from the card texts (shared/reference/cards-exploration.json):
    # Palm Tree, 1 per bird: the Robin                                        1
    # Robin, 1 per insect: none visible (card 248 shows its Marsh Cinquefoil)  0
    # Elk, 2 per sapling and per card showing Birch or Douglas Fir: its own
    #   half (Birch), the Robin's (card 240: Birch), the Troll's (Douglas Fir)  6
    # Turkey Oak, 1 per cloven-hoofed animal: the Elk                          1
    # Marsh Cinquefoil, 2 trees (0-5 trees: 15)                               15
    # Troll, 1 per tree: 2                                                     2
    # Bat Cave, 1 per cave card and 3 per bat: 3 cards, no bat                 3
    # total                                                                   28
    out = score_json(SPEC_EXAMPLE)
    ann = out["players"][0]
    assert ann["total"] == 28
    assert ann["lines"] == {"trees": 2, "top_bottom": 15, "left_right": 8, "cave": 3}
    cave = [c for c in ann["cards"] if c["where"] == "cave"]
    assert [(c["species"], c["points"]) for c in cave] == [("Bat Cave", 3)]
    assert out["winners"] == ["Ann"]


def test_score_command_prints_the_named_cave_and_refuses_in_one_line(tmp_path: Any) -> None:
    app = typer.Typer()
    register(app)
    app.command("noop")(lambda: None)  # two commands: "score" stays a sub-command
    good = tmp_path / "good.json"
    good.write_text(json.dumps(SPEC_EXAMPLE), encoding="utf-8")
    res = CliRunner().invoke(app, ["score", str(good), "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["players"][0]["lines"]["cave"] == 3
    res = CliRunner().invoke(app, ["score", str(good)], env={"COLUMNS": "200"})
    assert res.exit_code == 0 and "Bat Cave" in res.stdout and "provisional" in res.stdout
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc(EXPLORATION, {"cave": 3})), encoding="utf-8")
    res = CliRunner().invoke(app, ["score", str(bad)])
    assert res.exit_code == 2
    assert len(res.stderr.splitlines()) == 1 and "the cave is named" in res.stderr


# ---------------------------------------------------------------- game ids


@pytest.mark.parametrize(("written", "game"), [
    ("base+exploration", "base+exploration"),
    ("base+exploration+alpine", "base+alpine+exploration"),
    ("base+woodland_edge+exploration", "base+woodland_edge+exploration"),
    ("BASE + Exploration + woodland_edge + alpine", "base+alpine+woodland_edge+exploration"),
])
def test_exploration_joins_the_game_in_any_order(written: str, game: str) -> None:
    assert read_table(doc(written, {})).game.id == game


@pytest.mark.parametrize("game", ["base+promos", "base+exploration+promos",
                                  "base+promos+alpine"])
def test_the_promos_are_refused_as_not_supported_yet(game: str) -> None:
    assert "the promos module is not supported yet" in refused(doc(game, {}))


def test_exploration_once_with_base_and_nothing_else_is_a_game() -> None:
    assert read_table(doc("base+exploration", {})).game.id == "base+exploration"
    assert refused(doc("base+exploration+exploration", {})).startswith("game: unknown game")
    assert refused(doc("exploration", {})).startswith("game: unknown game")


# ---------------------------------------------------------------- cards and species


def test_card_ids_234_to_248_and_every_exploration_species_resolve() -> None:
    t = read_table(doc(EXPLORATION, {"cave": {"name": "Lonely Cave"}, "trees": [
        {"card": 234}, {"card": 235}, {"card": 236}, {"card": 237}]}))
    assert [h.species.name for h in t.forests[0].trees if h.species] == [
        "Moor Birch", "Palm Tree", "O Christmas Tree", "Turkey Oak"]
    # one sapling per split card, the second half showing (bottom or right)
    saplings = []
    for cid in range(238, 249):
        card = t.game.catalog.cards[cid]
        assert card is not None
        side = "bottom" if "bottom" in card.halves else "right"
        saplings.append({"tree": "sapling", side: [{"card": cid}]})
    got = read_table(doc(EXPLORATION, {"trees": saplings}))
    shown = [d.species.name for h in got.forests[0].trees for _s, d in h.dwellers()]
    assert shown == ["Fire Salamander", "Red Panda", "Water Vole", "White Stork",
                     "Say's Firefly", "European Badger", "Eierschwammerl", "Troll",
                     "Wild Tulip", "Sable", "Marsh Cinquefoil"]
    for name in ("Whinchat", "Robin", "Cardinal", "Brimstone", "Mistletoe"):  # top halves
        read_table(doc(EXPLORATION, {"trees": [{"tree": "Beech", "top": [name]}]}))
    for name in ("Genet", "Elk", "Arctic Fox", "Gnat", "European Bison"):  # left halves
        read_table(doc(EXPLORATION, {"trees": [{"tree": "Beech", "left": [name]}]}))


def test_exploration_cards_are_not_in_a_game_without_it() -> None:
    assert refused(doc("base", {"trees": [{"card": 240}]})) == (
        'player 1 "A", tree 1: card 240 is not in the deck (it is in the exploration '
        'expansion, not in the game "base")')
    assert "unknown tree" in refused(doc("base+alpine", {"trees": [{"tree": "Palm Tree"}]}))
    assert "card 252 is not in the deck" in refused(doc(EXPLORATION, {"trees": [
        {"card": 252}]}))


# ---------------------------------------------------------------- named caves


@pytest.mark.parametrize(("name", "cards", "bats", "points"), [
    ("Bat Cave", 2, 2, 2 + 3 * 2),      # 1 per card and 3 per bat card in the forest
    ("Collectors' Cave", 3, 0, 2 * 3),  # 2 per card
    ("Lonely Cave", 0, 0, 5),           # 5 when empty
    ("Lonely Cave", 4, 0, 4),           # else 1 per card
    ("Smuggler's Cave", 3, 0, 3),       # 1 per card
    ("Storage Cave", 3, 0, 3),          # 1 per card
])
def test_each_named_cave_scores_on_the_cave_line(name: str, cards: int, bats: int,
                                                 points: int) -> None:
    trees = [{"tree": "sapling", "left": ["Barbastelle Bat"]},
             {"tree": "sapling", "left": ["Greater Horseshoe Bat"]}][:bats]
    out = score_json(doc(EXPLORATION, {"cave": {"name": name, "cards": cards},
                                       "trees": trees}))
    assert out["players"][0]["lines"]["cave"] == points


def test_cave_names_match_like_species_names() -> None:
    t = read_table(doc(EXPLORATION, {"cave": {"name": "smuggler’s  CAVE", "cards": 1}},
                       {"cave": {"name": "bat cave"}}))
    assert [(f.cave_number, f.cave) for f in t.forests] == [(4, 1), (1, 0)]


@pytest.mark.parametrize(("game", "cave", "expected"), [
    ("base", {"name": "Bat Cave", "cards": 2},
     'player 1 "A", cave: a named cave is only in a game with exploration (this game is '
     '"base"): write the number of cards'),
    ("base+alpine", {"name": "Bat Cave"}, "a named cave is only in a game with exploration"),
    (EXPLORATION, 3, 'player 1 "A", cave: in a game with exploration the cave is named: '
                     'write {"name": NAME, "cards": 3} (NAME: Bat Cave, Collectors\' Cave, '
                     "Lonely Cave, Smuggler's Cave or Storage Cave)"),
    (EXPLORATION, {"name": "Bear Cave"}, 'player 1 "A", cave: unknown cave "Bear Cave" '
                                         "(the caves: Bat Cave"),
    (EXPLORATION, {"cards": 2}, 'player 1 "A", cave: no cave name'),
    (EXPLORATION, {"name": "Lonely Cave", "cards": -1},
     'player 1 "A", cave: "cards" must be a non-negative integer, not -1'),
    (EXPLORATION, {"name": "Lonely Cave", "cards": "two"},
     '"cards" must be a non-negative integer, not "two"'),
    (EXPLORATION, {"name": "Lonely Cave", "number": 2},
     'player 1 "A", cave: unknown key "number" (a numbered cave is Dartmoor\'s: an '
     "Exploration cave is named)"),
    (EXPLORATION, {"name": 7}, "unknown cave 7"),
])
def test_refused_caves(game: str, cave: Any, expected: str) -> None:
    assert expected in refused(doc(game, {"cave": cave}))


def test_one_cave_used_by_two_players_is_refused() -> None:
    assert refused(doc(EXPLORATION, {"cave": {"name": "Bat Cave"}},
                       {"cave": {"name": "bat cave", "cards": 1}})) == (
        'player 2 "B", cave: the Bat Cave is used twice (also player 1 "A")')


# ---------------------------------------------------------------- the Cuckoo


def test_the_cuckoo_joins_a_trees_top_slot_after_exactly_one_other_bird() -> None:
    # Tawny Owl 5 (its own points), Cuckoo 7; the Oak scores 0 without 8 tree species
    assert totals(doc(EXPLORATION, {"trees": [
        {"tree": "Oak", "top": ["Tawny Owl", "Cuckoo"]}]})) == [5 + 7]
    assert totals(doc(EXPLORATION, {"trees": [
        {"tree": "Oak", "top": ["Tawny Owl", {"card": 244}]}]})) == [5 + 7]


@pytest.mark.parametrize(("host", "top", "expected"), [
    ("Oak", ["Cuckoo"], "tree 1, top: a Cuckoo goes only into the top slot of a tree that "
                        "holds exactly one other bird, written after it"),
    ("Oak", [{"card": 244}], "a Cuckoo goes only into the top slot of a tree"),
    ("Oak", ["Cuckoo", "Tawny Owl"], "written after it"),
    ("Oak", ["Red Squirrel", "Cuckoo"], "holds exactly one other bird"),
    ("Oak", ["Tawny Owl", "Cuckoo", "Goshawk"],
     "tree 1, top: a Cuckoo shares its slot with exactly one bird, written before it "
     "(Goshawk is one card too many)"),
    ("Oak", ["Tawny Owl", "Goshawk", "Cuckoo"], "two cards in a slot that holds one"),
    ("sapling", ["Tawny Owl", "Cuckoo"], "tree 1, top: a Cuckoo goes only at a tree, not at "
                                         "a sapling"),
    ("Elderberry", ["Tawny Owl", "Cuckoo"], "a Cuckoo goes only at a tree, not at a shrub"),
])
def test_refused_cuckoos(host: str, top: list[Any], expected: str) -> None:
    d = doc("base+woodland_edge+exploration", {"trees": [{"tree": host, "top": top}]})
    assert expected in refused(d)


# ---------------------------------------------------------------- the Mistletoe's sapling


def test_a_mistletoes_tree_is_written_as_a_sapling_with_its_slots() -> None:
    # The sapling: Elk 2 x (1 sapling + its own Birch half) = 4; Mistletoe 1 per plant
    # (itself) = 1. Total 5.
    assert totals(doc(EXPLORATION, {"trees": [
        {"tree": "sapling", "top": ["Mistletoe"], "left": ["Elk"]}]})) == [4 + 1]
    # the same cards on a Beech: no sapling, Elk 2 x 1 (its half) = 2, Beech 0 (5 with 4
    # Beeches), Mistletoe 1
    assert totals(doc(EXPLORATION, {"trees": [
        {"tree": "Beech", "top": ["Mistletoe"], "left": ["Elk"]}]})) == [2 + 0 + 1]


# ---------------------------------------------------------------- tree symbols


def test_the_new_tree_symbols_are_symbols_and_the_palm_tree_is_a_tree() -> None:
    t = read_table(doc(EXPLORATION, {"trees": [
        {"tree": "sapling", "right": [{"species": "Red Panda", "symbol": "bamboo"}],
         "bottom": [{"species": "Marsh Cinquefoil", "symbol": "European Alder"}]},
        {"tree": "Palm Tree"}]}))
    trees = t.forests[0].trees
    assert [d.symbol for _s, d in trees[0].dwellers()] == ["European Alder", "Bamboo"]
    assert trees[1].symbol == "Golden Palm"
    # Golden Palm is known as a symbol: refused only because no Roe Deer shows it
    assert refused(doc(EXPLORATION, {"trees": [{"tree": "Oak", "left": [
        {"species": "Roe Deer", "symbol": "Golden Palm"}]}]})) == (
        'player 1 "A", tree 1, left: no Roe Deer in the deck shows the Golden Palm symbol')
    assert refused(doc(EXPLORATION, {"trees": [{"tree": "Oak", "left": [
        {"species": "Roe Deer", "symbol": "Palm Tree"}]}]})) == (
        'player 1 "A", tree 1, left: Palm Tree is a tree, not a symbol (it shows the '
        "Golden Palm symbol)")
    assert "unknown tree symbol \"Bamboo\"" in refused(doc("base", {"trees": [
        {"tree": "Oak", "left": [{"species": "Roe Deer", "symbol": "Bamboo"}]}]}))


def test_an_elk_needs_the_symbol_of_a_card_whose_copies_differ_on_its_symbols() -> None:
    # Tawny Owls show Beech, Birch or Sycamore; the Elk counts Birch and Douglas Fir
    assert refused(doc(EXPLORATION, {"trees": [
        {"tree": "Oak", "top": ["Tawny Owl"], "left": ["Elk"]}]})) == (
        'player 1 "A", tree 1, top: give this Tawny Owl\'s card or symbol; an Elk counts the '
        "Birch symbol and Tawny Owl cards show different symbols")
    # Elk 2 x (its own Birch half + the Owl's Birch) = 4, Tawny Owl 5, Oak 0
    assert totals(doc(EXPLORATION, {"trees": [
        {"tree": "Oak", "top": [{"species": "Tawny Owl", "symbol": "Birch"}],
         "left": ["Elk"]}]})) == [4 + 5]


def test_a_roe_deer_counts_the_birch_a_moor_birch_shows() -> None:
    # Roe Deer (Birch) 3 per card showing its symbol: the Moor Birch (Birch) and itself,
    # 3 x 2 = 6; Moor Birch 1 point
    assert totals(doc(EXPLORATION, {"trees": [
        {"tree": "Moor Birch", "left": [{"species": "Roe Deer", "symbol": "Birch"}]}]})) == [
        6 + 1]


# ---------------------------------------------------------------- provisional notes


def test_provisional_facts_are_said_in_the_scores_words() -> None:
    out = score_json(doc(EXPLORATION, {"cave": {"name": "Storage Cave", "cards": 1},
                                       "trees": [{"tree": "Palm Tree", "top": ["Goshawk"]},
                                                 {"tree": "Oak", "right": [{"card": 245}]}]}))
    why = {c["species"]: c["why"] for c in out["players"][0]["cards"]}
    assert "(provisional: " in why["Palm Tree"] and "Golden Palm" in why["Palm Tree"]
    assert "(provisional: " in why["Storage Cave"]
    assert "provisional" not in why["Troll"]  # card 245 and the Troll: sure
    assert "provisional" not in why["Goshawk"]  # a base species


# ---------------------------------------------------------------- the writer


def test_the_writer_writes_version_3_and_reads_back_the_same_scores() -> None:
    t = read_table(SPEC_EXAMPLE)
    written = table_to_document(t.game, t.names, t.forests)
    assert written["game"] == "base+woodland_edge+exploration"
    assert written["players"][0]["cave"] == {"name": "Bat Cave", "cards": 3}
    again = read_table(json.loads(json.dumps(written)))
    assert again.game.totals(again.forests) == t.game.totals(t.forests) == [28]
    assert table_to_document(again.game, again.names, again.forests) == written


@pytest.mark.parametrize("game", ["base+exploration", "base+alpine+woodland_edge+exploration"])
def test_a_played_games_table_round_trips_through_forest_json(game: str) -> None:
    for seed in range(2):
        s = GameState.new(3, seed=seed, game=game)
        rng = random.Random(seed)
        while not s.over:
            s.apply(rng.choice(s.legal_actions()))
        assert all(f.cave_number for f in s.forests)  # the draft gave each a cave
        written = table_to_document(s.game, ["A", "B", "C"], s.forests)
        assert all(isinstance(p["cave"], dict) for p in written["players"])
        t = read_table(json.loads(json.dumps(written)))
        assert t.game.totals(t.forests) == s.scores()
