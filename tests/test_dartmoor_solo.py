"""Dartmoor's solo mode against the automa Anna: the data file, setup, every automa card
kind, Anna's deck running out, the challenges' goals on built forests, the medals, the
solo scoring, saves, views, random games with the invariants, words and the CLI."""

from __future__ import annotations

import copy
import json
import pickle
import random
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from forest_shuffle.bots.determinize import Determinizer
from forest_shuffle.cards.forest import Forest
from forest_shuffle.cli.app import app
from forest_shuffle.engine.check import BrokenSaveError, check_state
from forest_shuffle.engine.game import game_by_id, game_ids
from forest_shuffle.engine.state import GameState
from forest_shuffle.formats.forest_json import read_table
from forest_shuffle.games.dartmoor_solo import (
    MEDALS,
    AnnaTurn,
    DartmoorSoloState,
    SoloDataError,
    check_solo,
    goal_progress,
    medal_for,
    result_of,
    solo_data,
    solo_game,
    solo_id,
    solo_result,
)
from forest_shuffle.text.narration import (
    anna_status_words,
    anna_words,
    challenge_words,
    solo_result_words,
)

DATA = Path(__file__).parents[1] / "src/forest_shuffle/cards/data/dartmoor/solo.json"
REFERENCE = Path("/work/shared/reference/cards-dartmoor.json")
runner = CliRunner()


def new(challenge: int = 1, seed: int = 1) -> DartmoorSoloState:
    s = GameState.new(1, seed, game=solo_id(challenge))
    assert isinstance(s, DartmoorSoloState)
    return s


def playing(challenge: int = 1, seed: int = 1) -> DartmoorSoloState:
    """A new game past cave 3's discards (the first turn's decision)."""
    s = new(challenge, seed)
    while s.decision == "discard":
        s.apply(s.legal_actions()[0])
    assert s.decision == "turn" and s.turn == 1
    return s


def forest(player: dict[str, Any]) -> Forest:
    return read_table({"game": "dartmoor", "players": [{"name": "Solo", **player}]}).forests[0]


def universal(n: int, top: list[list[str]] | None = None,
              bottom: list[list[str]] | None = None) -> list[dict[str, Any]]:
    top = top or []
    bottom = bottom or []
    return [{"moor": "universal", "top": top[i] if i < len(top) else [],
             "bottom": bottom[i] if i < len(bottom) else []} for i in range(n)]


# ------------------------------------------------------------------------ data

def test_the_data_file_is_loaded_and_checked() -> None:
    data = solo_data()
    assert len(data.automa) == 20 and len(data.challenges) == 15
    assert data.cave == 3 and data.boxed == 45 and data.winter_cards == 1
    assert data.winter_into_last == 10 and data.automa_name == "Anna"
    kinds = {(a.add, a.remove, a.side, a.burn) for a in data.automa}
    assert len(kinds) == 12
    assert sum(a.add for a in data.automa) == 2 * 3 + 2 * 3 + 2 * 2 + 2 * 1
    assert data.challenges[6].start_in_hand == "Adder"
    assert all(c.thresholds["bronze"] < c.thresholds["silver"] < c.thresholds["gold"]
               for c in data.challenges)


@pytest.mark.skipif(not REFERENCE.exists(), reason="the shared reference is not here")
def test_the_data_file_agrees_with_the_reference() -> None:
    ref = json.loads(REFERENCE.read_text(encoding="utf-8"))["solo_mode"]
    mine = json.loads(DATA.read_text(encoding="utf-8"))
    for c, r in zip(mine["challenges"], ref["challenges"], strict=True):
        assert c["number"] == r["id"] and c["title"] == r["goal"].split(" (")[0]
        assert (c["bronze"], c["silver"], c["gold"]) == (r["bronze"], r["silver"], r["gold"])
    want = [(k["copies"], k.get("add", 0), k.get("remove_from_clearing", 0), k.get("from", ""),
             k.get("burn_from_stack", 0)) for k in ref["automa_deck_per_companion_app"]]
    have = [(k["copies"], k.get("add", 0), k.get("remove", 0), k.get("from", ""),
             k.get("burn", 0)) for k in mine["automa"]]
    assert have == want


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d["automa"][0].update(copies=1), "19 automa cards, not 20"),
    (lambda d: d["automa"][4].pop("from"), "'from' (left or right) goes with remove"),
    (lambda d: d["automa"][0].update(add=4), "add and remove are 0 to 3"),
    (lambda d: d["challenges"][0].update(silver=150), "bronze < silver < gold"),
    (lambda d: d["challenges"][3]["goal"].update(tag="paw"), "is no tag"),
    (lambda d: d["challenges"][3]["goal"].update(kind="most"), "goal.kind must be one of"),
    (lambda d: d["challenges"][6].update(start_in_hand="Viper"), "no species 'Viper'"),
    (lambda d: d["challenges"][2].update(number=9), "challenges[2].number must be 3"),
    (lambda d: d["setup"].update(cave=6), "setup.cave must be a cave number"),
])
def test_a_broken_data_file_is_refused_in_one_line(change: Any, message: str) -> None:
    doc = json.loads(DATA.read_text(encoding="utf-8"))
    change(doc)
    cat = game_by_id("dartmoor").catalog
    with pytest.raises(SoloDataError, match=re.escape(message)) as err:
        check_solo(doc, cat)
    assert "\n" not in str(err.value)


def test_the_challenges_are_unlisted_games_looked_up_by_id() -> None:
    assert not any(g.startswith("dartmoor-solo") for g in game_ids())
    assert [f"dartmoor-solo-{n}" for n in range(1, 16)] == [
        g for g in game_ids(unlisted=True) if g.startswith("dartmoor-solo")]
    g = game_by_id("dartmoor-solo-7")
    assert g is solo_game(7) and g.players == (1,) and g.winter_to_end == 1
    assert g.options["challenge"] == 7 and g.scorer == "dartmoor"
    assert pickle.loads(pickle.dumps(g)) is g
    with pytest.raises(ValueError, match="1 to 15"):
        solo_id(16)
    with pytest.raises(ValueError, match="1 to 1 players"):
        GameState.new(2, 1, game="dartmoor-solo-1")


# ------------------------------------------------------------------------ setup

def test_setup_one_winter_in_the_last_ten_cave_three_and_anna_shuffled() -> None:
    places = set()
    for seed in range(40):
        s = new(1 + seed % 15, seed)
        winters = [i for i, c in enumerate(s.deck) if s.game.cards[c].is_winter]
        assert len(winters) == 1 and winters[0] <= 10  # deck[0] is the bottom card
        places.add(winters[0])
        assert len(s.aside) == 2 and all(s.game.cards[c].is_winter for c in s.aside)
        assert s.forests[0].cave_number == 3 and s.cave_offer == []
        assert len(s.box) == 45 and sorted(s.automa) == list(range(20))
        assert s.decision == "discard" and s.pending is not None and s.pending.need == 3
        assert len(s.hands[0]) == (10 if s.challenge == 7 else 9)  # 6 (+ Adder) + 3
        check_state(s)
    assert len(places) >= 6  # the place varies with the seed
    assert len({tuple(new(1, seed).automa) for seed in range(5)}) == 5


def test_cave_three_is_resolved_before_play() -> None:
    s = new(2, 4)
    hand = sorted(s.hands[0])
    for _ in range(3):
        s.apply(s.legal_actions()[0])
    assert s.decision == "turn" and s.turn == 1 and len(s.hands[0]) == 6
    assert sorted(s.clearing) == hand[:3] and s.anna_turns == 0


@pytest.mark.parametrize("seed", range(8))
def test_challenge_seven_starts_with_an_adder(seed: int) -> None:
    s = new(7, seed)
    cards = s.game.cards

    def adders(cids: list[int]) -> int:
        return sum(1 for c in cids if any(h.species.name == "Adder"
                                          for h in cards[c].halves.values()))

    assert adders(s.hands[0]) >= 1
    assert adders(new(7, seed).hands[0]) == adders(s.hands[0])  # from the seed


def test_the_adder_comes_from_the_box_when_none_is_in_the_deck() -> None:
    g = solo_game(7)
    adders = [c.id for c in g.cards if c is not None and c.halves
              and any(h.species.name == "Adder" for h in c.halves.values())]
    s = new(7, 2)
    s.hands[0] = [c for c in s.hands[0] if c not in adders]
    others = [c for c in s.box if c not in adders]
    s.deck = [c for c in s.deck if c not in adders]
    s.box = others[:45 - len(adders)] + adders
    size = len(s.box)
    s._give("Adder", random.Random(1))
    assert len(s.box) == size and sum(c in adders for c in s.hands[0]) == 1


# ------------------------------------------------------------------------ Anna's cards

def _anna(s: DartmoorSoloState, k: int, clearing: list[int]) -> AnnaTurn:
    """Anna's turn with automa card k on top and ``clearing`` (cards taken out of the deck
    by the caller, or already there); the clearing's other cards go to the discard pile."""
    s.discard.extend(c for c in s.clearing if c not in clearing)
    s.clearing[:] = clearing
    s.automa = [x for x in s.automa if x != k] + [k]
    if k in s.automa_shown:
        s.automa_shown.remove(k)
    s._anna_turn()
    assert s.anna_last is not None
    return s.anna_last


@pytest.mark.parametrize("k", [i for i, a in enumerate(solo_data().automa)
                               if i == 0 or solo_data().automa[i - 1] != a.__class__(
                                   a.number - 1, a.add, a.remove, a.side, a.burn)])
def test_each_automa_card_kind_against_the_clearing_and_deck(k: int) -> None:
    card = solo_data().automa[k]
    s = playing(3, 5)
    pool = [c for c in s.deck[-30:] if not s.game.cards[c].is_winter]
    start = s.clearing + pool[:2]
    s.deck = [c for c in s.deck if c not in start]
    meet = card.add + card.burn
    top = s.deck[len(s.deck) - meet:][::-1]  # the cards Anna meets, first first
    box, discard = len(s.box), len(s.discard)
    last = _anna(s, k, start[:])
    assert list(last.added) == top[:card.add]
    middle = start + list(last.added)
    n = card.remove
    want = middle[:n] if card.side == "left" else middle[len(middle) - n:] if n else []
    assert list(last.removed) == want and last.side == card.side
    assert s.clearing == [c for c in middle if c not in want]
    assert s.discard[discard:] == want
    assert last.burnt == card.burn and s.box[box:] == top[card.add:]
    assert s.automa_shown[-1] == k and s.anna_turns == 1
    check_state(s)


def test_anna_removes_what_the_clearing_holds() -> None:
    s = playing(1, 6)
    k = next(i for i, a in enumerate(solo_data().automa) if a.remove == 3 and not a.burn)
    pool = [c for c in s.deck if not s.game.cards[c].is_winter][-2:]
    s.deck = [c for c in s.deck if c not in pool]
    last = _anna(s, k, pool[:])
    assert sorted(last.removed) == sorted(pool) and s.clearing == []
    last = _anna(s, k, [])
    assert last.removed == ()
    assert "nothing to remove" in anna_words(last._asdict(), s.game.catalog)


def test_a_winter_card_anna_meets_ends_the_game() -> None:
    for kind in ("add", "burn"):
        s = playing(1, 7)
        k = next(i for i, a in enumerate(solo_data().automa)
                 if (a.add if kind == "add" else a.burn and not a.add))
        w = s.game.winter_ids[0]
        s.deck.remove(w)
        s.deck.append(w)  # on top
        clearing = s.clearing[:]
        last = _anna(s, k, clearing)
        assert s.over and s.winter == [w] and s.decision is None
        if kind == "burn":
            assert s.clearing == [c for c in clearing if c not in last.removed]
        else:
            assert last.removed == () and last.burnt == 0  # the game ended while adding
        check_state(s)


def test_anna_plays_after_each_turn_and_after_the_extra_turns() -> None:
    s = playing(4, 3)
    s.discard.extend(s.hands[0][:4])
    del s.hands[0][:4]
    s.apply(s.game.a_draw)
    s.apply(s.game.a_draw)
    assert s.anna_turns == 1 and s.decision == "turn" and s.turn == 2
    s.extra_turns = 1
    s.apply(s.game.a_draw)
    s.apply(s.game.a_draw)
    assert s.anna_turns == 1 and s.turn == 3  # the extra turn first
    s.apply(s.game.a_draw)
    s.apply(s.game.a_draw)
    assert s.anna_turns == 2


def test_a_full_clearing_after_annas_turn_goes_to_the_discard_pile() -> None:
    s = playing(1, 8)
    k = next(i for i, a in enumerate(solo_data().automa) if a.add == 3 and not a.burn)
    s.clearing[:] = [c for c in s.deck if not s.game.cards[c].is_winter][-9:-2]
    s.deck = [c for c in s.deck if c not in s.clearing]
    s.automa = [x for x in s.automa if x != k] + [k]
    s.extra_turns = 0
    s.queue.clear()
    s.stack.clear()
    before = s.clearing[:]
    s._end_turn()
    assert s.clearing == [] and s.discard[-10:][:7] == before
    assert s.anna_last is not None and s.anna_last.cleared
    assert anna_words(s.anna_last._asdict(), s.game.catalog).endswith("went to the discard pile.")


def test_annas_deck_running_out_is_shuffled_again_from_the_seed() -> None:
    s = playing(1, 9)
    for _ in range(20):
        s._anna_turn()
        if s.over:
            pytest.skip("the winter came early")
    assert s.automa == [] and sorted(s.automa_shown) == list(range(20)) and s.cycles == 0
    twin = s.clone()
    s._anna_turn()
    twin._anna_turn()
    assert s.cycles == 1 and len(s.automa) == 19 and len(s.automa_shown) == 1
    assert s.automa == twin.automa  # deterministic from the seed
    other = s.clone()
    other.seed += 1
    other.automa, other.automa_shown, other.cycles = [], list(range(20)), 0
    orders = set()
    for seed in range(6):
        t = other.clone()
        t.seed = seed
        t._anna_turn()
        orders.add(tuple(t.automa + t.automa_shown))
    assert len(orders) > 1


def test_a_whole_game_outlasts_annas_deck() -> None:
    s = new(5, 11)
    rng = random.Random(2)
    while not s.over:
        s.apply(rng.choice(s.legal_actions()))
    assert s.anna_turns > 20 and s.cycles >= 1


# ------------------------------------------------------------------------ goals, medals

BATS = ["Alcathoe Bat", "Brandt's Bat", "Common Noctule", "Daubenton's Bat", "Serotine Bat"]
BIRDS = ["Barn Owl", "Black-Tailed Godwit", "Buzzard", "Common Moorhen", "Curlew",
         "Grey Heron", "Meadow Pipit", "Wheatear"]
PLANTS = [["Heather", "Royal Fern"], ["Blueberry", "Bog Asphodel"],
          ["Greater Butterfly Orchid", "Meadowsweet"], ["Adder's Tongue", "Water Soldiers"],
          ["Heather", "Royal Fern"], ["Blueberry", "Bog Asphodel"]]
DRAGONFLIES = ["Beautiful Demoiselle", "Emerald Damselfly", "Keeled Skimmer",
               "Small Red Damselfly", "Southern Damselfly"]


def _trees(pairs: list[tuple[str, str]]) -> list[dict[str, Any]]:
    return [{"tree": "Moor Birch", "left": [a], "right": [b]} for a, b in pairs]


#: For each challenge: a forest that meets the goal exactly, and one a step short.
GOALS: dict[int, tuple[dict[str, Any], dict[str, Any]]] = {
    1: ({"moors": universal(5, [[d] for d in DRAGONFLIES])},
        {"moors": universal(5, [[d] for d in DRAGONFLIES[:4]] + [["Curlew"]])}),
    2: ({"moors": universal(10)}, {"moors": universal(9)}),
    3: ({"moors": universal(4, [BIRDS[i:i + 2] for i in range(0, 8, 2)])},
        {"moors": universal(4, [BIRDS[i:i + 2] for i in range(0, 6, 2)] + [[BIRDS[6]]])}),
    4: ({"trees": _trees([("Dartmoor Badger", "Field Vole"), ("Shrew", "Wood Mouse"),
                          ("Field Vole", "Shrew"), ("Wood Mouse", "Dartmoor Badger"),
                          ("Shrew", "Field Vole"), ("Wood Mouse", "Dartmoor Badger")])
         + [{"tree": "Ash", "bottom": ["Beaver"]}, {"tree": "Ash", "bottom": ["Otter"]}]},
        {"trees": _trees([("Dartmoor Badger", "Field Vole"), ("Shrew", "Wood Mouse"),
                          ("Field Vole", "Shrew"), ("Wood Mouse", "Dartmoor Badger"),
                          ("Shrew", "Field Vole"), ("Wood Mouse", "Dartmoor Badger")])
         + [{"tree": "Ash", "bottom": ["Beaver"]}]}),
    5: ({"trees": _trees([(BATS[0], BATS[1]), (BATS[2], BATS[3]), (BATS[4], BATS[0]),
                          (BATS[1], "Roe Deer")])
         [:3] + [{"tree": "Ash", "left": [BATS[1]]}]},
        {"trees": _trees([(BATS[0], BATS[1]), (BATS[2], BATS[3]), (BATS[4], BATS[0])])}),
    6: ({"moors": [{"moor": "Wet Woodland"}] + universal(9)},
        {"moors": [{"moor": "Wet Woodland"}] + universal(8)}),
    7: ({"trees": [{"tree": "Ash", "bottom": ["Adder"], "left": ["Field Vole"],
                    "right": ["Shrew"]}, {"tree": "Moor Birch", "left": ["Wood Mouse"]}],
         "moors": universal(3, bottom=[["Moor Frog", "Warty Newt"], ["Common Lizard",
                                                                      "Grass Snake"],
                                       ["Adder", "Moor Frog"]])},
        {"trees": [{"tree": "Ash", "bottom": ["Adder"], "left": ["Field Vole"]},
                   {"tree": "Moor Birch", "left": ["Wood Mouse"]}],
         "moors": universal(3, bottom=[["Moor Frog", "Warty Newt"], ["Common Lizard",
                                                                      "Grass Snake"],
                                       ["Adder", "Moor Frog"]])}),
    8: ({"trees": [{"tree": t} for t in ("Ash", "Goat Willow", "Crab Apple", "Black Alder",
                                         "Moor Birch", "Sessile Oak", "Common Hazel",
                                         "Elderberry")],
         "moors": [{"moor": m} for m in ("Tor", "Rivulet", "Warrens")]},
        {"trees": [{"tree": t} for t in ("Ash", "Goat Willow", "Crab Apple", "Black Alder",
                                         "Moor Birch", "Sessile Oak", "Common Hazel",
                                         "Elderberry", "Ash")],
         "moors": [{"moor": m} for m in ("Tor", "Tor", "Rivulet")] + universal(2)}),
    9: ({"moors": universal(5, [[d] for d in DRAGONFLIES], [["Blue Ground Beetle"]] * 2),
         "trees": _trees([("Gnat", "Lake Fly"), ("Gnat", "Roe Deer")])[:1]
         + [{"tree": "Ash", "left": ["Lake Fly"]}]},
        {"moors": universal(5, [[d] for d in DRAGONFLIES], [["Blue Ground Beetle"]] * 2),
         "trees": _trees([("Gnat", "Lake Fly")])}),
    10: ({"moors": universal(3, bottom=[["Moor Frog", "Warty Newt"], ["Adder", "Grass Snake"],
                                        ["Common Lizard", "Moor Frog"]])},
         {"moors": universal(3, bottom=[["Moor Frog", "Warty Newt"], ["Adder", "Grass Snake"],
                                        ["Common Lizard"]])}),
    11: ({"moors": universal(6, bottom=PLANTS)},
         {"moors": universal(6, bottom=PLANTS[:5] + [PLANTS[5][:1]])}),
    12: ({"trees": _trees([("Dartmoor Pony", "Dartmoor Sheep"), ("Roe Deer", "Dartmoor Pony"),
                           ("Dartmoor Sheep", "Roe Deer")])},
         {"trees": _trees([("Dartmoor Pony", "Dartmoor Sheep"), ("Roe Deer", "Dartmoor Pony"),
                           ("Dartmoor Sheep", "Field Vole")])}),
    13: ({"trees": _trees([("Field Vole", "Shrew"), ("Wood Mouse", "Field Vole"),
                           ("Shrew", "Wood Mouse"), ("Field Vole", "Shrew")])},
         {"trees": _trees([("Field Vole", "Shrew"), ("Wood Mouse", "Field Vole"),
                           ("Shrew", "Wood Mouse"), ("Field Vole", "Dartmoor Badger")])}),
    14: ({"cave": 15}, {"cave": 14}),
    15: ({"trees": [{"tree": "Ash", "top": ["Barn Owl"], "left": ["Nuthatch"]}],
          "moors": universal(1, [["Curlew", "Grey Heron"]])},
         {"trees": [{"tree": "Ash", "top": ["Barn Owl"], "left": ["Nuthatch"]}],
          "moors": universal(2, [["Curlew", "Grey Heron"], ["Curlew"]])}),
}


def _fix_symbols(player: dict[str, Any]) -> dict[str, Any]:
    """Roe Deer need a known symbol in Forest JSON (each card shows another one)."""
    out = copy.deepcopy(player)
    symbols = iter(["Ash", "Crab Apple", "Sessile Oak", "Moor Birch", "Black Alder"])
    for t in out.get("trees", []):
        for side in ("left", "right"):
            t[side] = [{"species": "Roe Deer", "symbol": next(symbols)} if x == "Roe Deer"
                       else x for x in t.get(side, [])]
    return out


@pytest.mark.parametrize("number", range(1, 16))
def test_each_challenge_goal_on_built_forests(number: int) -> None:
    met, short = (forest(_fix_symbols(p)) for p in GOALS[number])
    g = solo_game(number)
    goal = solo_data().challenges[number - 1].goal
    assert goal_progress(g, met, goal) == goal["min"]
    step = 2 if number == 6 else 1  # a Wet Woodland scores 2 a moor
    assert goal_progress(g, short, goal) == goal["min"] - step
    assert result_of(g, met, number).goal_met and not result_of(g, short, number).goal_met


def test_no_host_is_no_goal_for_challenge_fifteen() -> None:
    assert goal_progress(solo_game(15), Forest(), solo_data().challenges[14].goal) == 0


@pytest.mark.parametrize("number", [1, 4, 6, 14])
def test_medals_at_the_thresholds(number: int) -> None:
    th = solo_data().challenges[number - 1].thresholds
    assert medal_for(th["bronze"] - 1, True, th) == ""
    for m in MEDALS:
        assert medal_for(th[m], True, th) == m
        assert medal_for(th[m], False, th) == ""
    assert medal_for(th["gold"] + 100, True, th) == "gold"
    assert medal_for(th["silver"] - 1, True, th) == "bronze"


def test_the_result_of_a_finished_game() -> None:
    s = new(14, 3)
    rng = random.Random(4)
    while not s.over:
        s.apply(rng.choice(s.legal_actions()))
    r = solo_result(s)
    assert r.score == s.scores()[0] and r.have == s.forests[0].cave and r.need == 15
    assert r.medal == medal_for(r.score, r.goal_met, r.thresholds)
    words = solo_result_words(r, "gold")
    assert words[0].startswith("Goal of challenge 14, at least 15 cards in your cave:")
    assert words[-1] in ("You won the gold medal.", "You did not win the gold medal.")


# ------------------------------------------------------------------------ scoring

@pytest.mark.parametrize(("species", "moors", "points"), [
    ("Black-Tailed Godwit", 5, 0), ("Black-Tailed Godwit", 6, 10),
    ("Dartmoor Pony", 7, 5), ("Dartmoor Pony", 8, 15)])
def test_the_solo_scoring_changes(species: str, moors: int, points: int) -> None:
    if species == "Dartmoor Pony":
        player = {"trees": [{"tree": "Moor Birch", "left": [species]}],
                  "moors": universal(moors)}
    else:
        player = {"moors": universal(moors, [[species]])}
    f = forest(player)
    card = next(cp for cp in solo_game(2).score_table([f])[0].cards if cp.species == species)
    assert card.points == points
    two = read_table({"game": "dartmoor", "players": [
        {"name": "A", **player}, {"name": "B", "moors": universal(moors + 1)}]})
    sheet = two.game.score_table(two.forests)[0]
    rival = next(cp for cp in sheet.cards if cp.species == species)
    assert rival.points == (0 if species == "Black-Tailed Godwit" else 5)


def test_score_command_reads_a_one_player_table_as_solo(tmp_path: Path) -> None:
    path = tmp_path / "solo.json"
    player = {"name": "Solo", "moors": universal(6, [["Black-Tailed Godwit"]])}
    path.write_text(json.dumps({"game": "dartmoor", "players": [player]}), encoding="utf-8")
    out = runner.invoke(app, ["score", str(path), "--json"])
    assert out.exit_code == 0, out.output
    total = json.loads(out.output)["players"][0]["total"]
    assert total == solo_game(1).totals([forest({"moors": universal(
        6, [["Black-Tailed Godwit"]])})])[0] and total >= 10


# ------------------------------------------------------------------------ saves, views

def test_save_load_and_clone_keep_the_challenge_and_annas_deck() -> None:
    s = playing(7, 12)
    rng = random.Random(3)
    for _ in range(30):
        s.apply(rng.choice(s.legal_actions()))
    data = json.loads(json.dumps(s.to_dict()))
    assert data["game"] == "dartmoor-solo-7" and data["solo"]["challenge"] == 7
    loaded = GameState.from_dict(data)
    assert isinstance(loaded, DartmoorSoloState) and loaded.to_dict() == data
    assert loaded.automa == s.automa and loaded.anna_last == s.anna_last
    twin = s.clone()
    before = s.to_dict()
    while not twin.over:
        twin.apply(rng.choice(twin.legal_actions()))
    assert s.to_dict() == before


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d.pop("solo"), "solo must be an object"),
    (lambda d: d["solo"].update(automa=d["solo"]["automa"][:-1]), "Anna's automa cards"),
    (lambda d: d["solo"].update(challenge=3), "solo challenge 3 in a game of challenge 7"),
    (lambda d: d["solo"].update(aside=[]), "is nowhere"),
    (lambda d: d["solo"].update(anna_last={"automa": 1}), "solo.anna_last must be"),
    (lambda d: d["forests"][0].update(cave_number=4), "a solo player has cave 3"),
])
def test_a_broken_solo_save_is_refused(change: Any, message: str) -> None:
    s = playing(7, 12)
    s.apply(s.game.a_draw)
    s.apply(s.game.a_draw)
    data = json.loads(json.dumps(s.to_dict()))
    change(data)
    with pytest.raises(BrokenSaveError, match=re.escape(message)):
        GameState.from_dict(data)


def test_views_hide_annas_undrawn_cards() -> None:
    s = playing(2, 13)
    s.apply(s.game.a_draw)
    s.apply(s.game.a_draw)
    view = s.view(0)
    assert s.anna_last is not None
    solo = view.to_dict()["solo"]
    assert solo["automa_left"] == 19 and list(solo["automa_shown"]) == s.automa_shown
    assert "automa" not in solo and solo["anna_last"] == s.anna_last.to_dict()
    assert anna_status_words(view.solo) == "Anna has 19 automa cards left."
    samples = set()
    d = Determinizer(view)
    rng = random.Random(1)
    for _ in range(5):
        t = d.sample(rng)
        assert isinstance(t, DartmoorSoloState)
        check_state(t)
        assert t.automa_shown == s.automa_shown and len(t.automa) == 19
        assert t.legal_actions() == s.legal_actions()
        w = next(i for i, c in enumerate(t.deck) if t.game.cards[c].is_winter)
        assert w <= 10
        samples.add(tuple(t.automa))
    assert len(samples) > 1


@pytest.mark.parametrize("number", range(1, 16))
def test_random_solo_games_keep_the_invariants(number: int) -> None:
    s = new(number, 100 + number)
    g = s.game
    ids = sorted(g.catalog.deck_ids)
    rng = random.Random(number)
    k = 0
    while not s.over:
        s.apply(rng.choice(s.legal_actions()))
        k += 1
        assert sorted(s.locations()) == ids
        assert len(s.hands[0]) <= g.hand_limit
        if s.decision == "turn":
            assert len(s.clearing) < g.clearing_limit
        assert sorted(s.automa + s.automa_shown) == list(range(20))
        assert s.over == (len(s.winter) == 1) and s.anna_turns <= s.turn
        if k % 25 == 0:
            check_state(s)
            assert GameState.from_dict(json.loads(json.dumps(s.to_dict()))).to_dict() == \
                s.to_dict()
    r = solo_result(s)
    assert r.score == s.scores()[0] and r.challenge == number


# ------------------------------------------------------------------------ words

def test_words_for_anna_the_automa_the_challenge() -> None:
    cat = solo_game(1).catalog
    ash = next(c.id for c in cat.cards if c is not None and c.species is not None
               and c.species.name == "Ash")
    tor = next(c.id for c in cat.cards if c is not None and c.species is not None
               and c.species.name == "Tor")
    words = anna_words(AnnaTurn(0, (ash,), (tor,), "left", 2, False)._asdict(), cat)
    assert words == ("Anna added Ash to the right end of the clearing, removed Tor from its "
                     "left end to the discard pile and burnt 2 cards from the top of the "
                     "deck, face down.")
    th = solo_data().challenges[6].thresholds
    assert challenge_words(7, "at least 10 points from one Adder", th, "silver") == (
        "Solo challenge 7: at least 10 points from one Adder; medals at bronze 225, "
        "silver 275, gold 325 points; you play for silver (275 points).")


# ------------------------------------------------------------------------ CLI

@pytest.mark.parametrize(("args", "message"), [
    (["play", "--game", "dartmoor", "--solo", "16"], "--solo must be a challenge from 1 to 15"),
    (["play", "--game", "dartmoor", "--solo", "seven"], "--solo must be a challenge"),
    (["play", "--game", "dartmoor", "--solo", "3", "--medal", "tin"],
     "--medal must be bronze, silver or gold"),
    (["play", "--game", "dartmoor", "--medal", "gold"], "--medal goes with --solo"),
    (["play", "--solo", "3"], "use --game dartmoor"),
    (["play", "--game", "dartmoor", "--solo", "3", "--players", "2"], "one player and no bots"),
    (["simulate", "--game", "dartmoor", "--solo", "0"], "1 to 15 or all"),
    (["simulate", "--game", "dartmoor", "--solo", "2", "--bot", "nobot"], "--bot: unknown bot"),
    (["simulate", "--game", "dartmoor", "--bot", "greedy"], "--bot goes with --solo"),
])
def test_cli_refuses_bad_solo_options_in_one_line(args: list[str], message: str) -> None:
    out = runner.invoke(app, args)
    assert out.exit_code == 2
    assert message in out.output and "Traceback" not in out.output


def test_simulate_solo_reports_medal_rates() -> None:
    out = runner.invoke(app, ["simulate", "--game", "dartmoor", "--solo", "14", "--games", "2",
                              "--seed", "5", "--json"])
    assert out.exit_code == 0, out.output
    row = json.loads(out.output)["challenges"][0]
    assert row["challenge"] == 14 and row["games"] == 2
    rates = row["medal_rates"]
    assert rates["bronze"] >= rates["silver"] >= rates["gold"]
    assert 0 <= row["goal_rate"] <= 1 and row["avg_score"] > 0


def test_play_solo_to_the_end_in_the_terminal() -> None:
    out = runner.invoke(app, ["play", "--game", "dartmoor", "--solo", "2", "--medal",
                              "bronze", "--seed", "3"], input="1\n" * 400)
    assert out.exit_code == 0, out.output
    assert out.output.startswith("Solo challenge 2: at least 10 moors")
    assert "Anna " in out.output and "Goal of challenge 2, at least 10 moors" in out.output
    assert "the bronze medal." in out.output


def test_a_solo_game_record_replays() -> None:
    from forest_shuffle.formats.records import check_record, random_game, record_of, replay

    s = random_game(1, 5, game="dartmoor-solo-4")
    record = json.loads(json.dumps(record_of(s)))
    check_record(record)
    result = replay(record)
    assert result.ok and result.state is not None
    assert result.state.to_dict() == s.to_dict()


# ------------------------------------------------------------------------ Anna as steps


def test_the_engines_anna_does_the_steps_anna_steps_gives(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """One copy of her turn: the engine follows :func:`anna_steps` (here its order turned
    round: burn before add), so a table with physical cards asks the same function."""
    import forest_shuffle
    from forest_shuffle.games import dartmoor_solo

    if "forest_shuffle.games.dartmoor_solo" in forest_shuffle.compiled():
        pytest.skip("compiled callers are bound to anna_steps: a patch cannot reach them "
                    "(the pure-Python run of this test checks the one copy)")
    k = next(i for i, a in enumerate(solo_data().automa) if a.add and a.burn)
    card = solo_data().automa[k]
    plain = playing(1, 9)
    turned = plain.clone()
    top = plain.deck[len(plain.deck) - card.add - card.burn:][::-1]
    assert _anna(plain, k, plain.clearing[:]).added == tuple(top[:card.add])
    monkeypatch.setattr(dartmoor_solo, "anna_steps", lambda c: tuple(reversed(_steps_of(c))))
    last = _anna(turned, k, turned.clearing[:])
    assert last.burnt == card.burn and turned.box[-card.burn:] == top[:card.burn]
    assert last.added == tuple(top[card.burn:card.burn + card.add])


def _steps_of(card: Any) -> tuple[Any, ...]:
    from forest_shuffle.games.dartmoor_solo import TableStep

    return tuple(s for s in (TableStep("add", card.add, "right", deck=True),
                             TableStep("remove", card.remove, card.side),
                             TableStep("burn", card.burn, deck=True)) if s.cards)


def test_the_setup_steps_are_the_datas_and_the_definitions() -> None:
    from forest_shuffle.games.dartmoor_solo import setup_steps

    data = solo_data()
    for n in (1, 7):
        g = solo_game(n)
        steps = {s.kind: s for s in setup_steps(n)}
        assert steps["box"].cards == data.boxed
        assert steps["deal"].cards == g.opening_hand
        assert steps["winter_bottom"].cards == data.winter_into_last
        assert steps["cave"].cards == data.cave
        assert steps["winter_aside"].cards + int(steps["winter_aside"].name) == sum(
            1 for c in g.cards if c is not None and c.is_winter)
        assert ("start_card" in steps) == bool(data.challenges[n - 1].start_in_hand)
        assert [s.kind for s in setup_steps(n)][-1] == "start"


def test_annas_deck_of_a_seed_is_the_engines_deal() -> None:
    from forest_shuffle.games.dartmoor_solo import automa_deck, reshuffled_automa

    for seed in (1, 2**100 + 7):
        s = new(4, seed)
        assert automa_deck(seed, 4) == s.automa
        shown = list(range(20))
        s.automa, s.automa_shown = [], shown[:]
        s._anna_turn()
        assert s.automa + s.automa_shown == reshuffled_automa(seed, 1, shown)
