"""Loading a saved game checks the whole state: valid saves load back exactly, impossible
ones are refused with one :class:`BrokenSaveError` line naming the first problem."""

from __future__ import annotations

import copy
import json
import time
from collections.abc import Callable
from typing import Any

import pytest
from scenario import CATALOG, HAND_LIMIT, WINTER, Picker, act, build, site

from forest_shuffle.engine.check import BrokenSaveError, check_state
from forest_shuffle.engine.options import Rules
from forest_shuffle.engine.state import D_MOLE, D_PAY, GameState
from forest_shuffle.formats.records import random_game

Save = dict[str, Any]

# ----------------------------------------------------------------------------- valid saves


def _round_trip(state: GameState, kinds: set[tuple[str, ...]]) -> None:
    data = json.loads(json.dumps(state.to_dict()))
    loaded = GameState.from_dict(data)
    assert loaded.to_dict() == data
    kinds.add(tuple(p.kind for p in state.stack))


@pytest.mark.parametrize("players, seed, rules", [
    (2, 1, Rules()),
    (3, 2, Rules(mole_plays_saplings=True)),
    (4, 3, Rules(sapling_reveals_card=False, free_plays_trigger_mushrooms=False)),
    (5, 4, Rules(sapling_triggers_chanterelle=False)),
    (2, 5, Rules(mole_plays_saplings=True)),
])
def test_every_state_of_random_games_loads_back(players: int, seed: int, rules: Rules) -> None:
    kinds: set[tuple[str, ...]] = set()
    _round_trip(GameState.new(players, seed, rules), kinds)
    final = random_game(players, seed, rules, on_action=lambda s: _round_trip(s, kinds))
    assert final.over
    assert ("turn",) in kinds and ("pay",) in kinds and () in kinds


WANTED: tuple[tuple[str, ...], ...] = (
    ("mulligan",), ("draw",), ("option",), ("free",), ("raccoon",), ("mole",), ("mole", "pay"),
)


def _stacks(players: int, seed: int, rules: Rules) -> set[tuple[str, ...]]:
    seen = {tuple(p.kind for p in GameState.new(players, seed, rules).stack)}
    random_game(players, seed, rules,
                on_action=lambda s: seen.add(tuple(p.kind for p in s.stack)))
    return seen


def test_games_through_every_decision_load_back_at_every_step() -> None:
    """Games (found by playing cheaply) that reach every kind of decision, the Mole with a
    payment above it included, are saved and loaded at every step."""
    chosen: list[tuple[int, int, Rules]] = []
    missing = set(WANTED)
    for seed in range(10, 400):
        game = (2 + seed % 4, seed, Rules(mole_plays_saplings=seed % 2 == 0))
        found = _stacks(*game) & missing
        if found:
            chosen.append(game)
            missing -= found
        if not missing:
            break
    assert not missing, missing
    kinds: set[tuple[str, ...]] = set()
    for players, seed, rules in chosen:
        _round_trip(GameState.new(players, seed, rules), kinds)
        random_game(players, seed, rules, on_action=lambda s: _round_trip(s, kinds))
    assert set(WANTED) <= kinds


def test_scenario_states_load(mole_state: GameState) -> None:
    assert [p.kind for p in mole_state.stack] == [D_MOLE, D_PAY]
    data = mole_state.to_dict()
    assert GameState.from_dict(data).to_dict() == data


def test_loading_is_fast() -> None:
    state = random_game(5, 7)
    data = json.loads(json.dumps(state.to_dict()))
    GameState.from_dict(data)
    start = time.perf_counter()
    for _ in range(50):
        GameState.from_dict(data)
    per_load = (time.perf_counter() - start) / 50
    assert per_load < 0.02, per_load


# ----------------------------------------------------------------------------- broken saves


@pytest.fixture(scope="module")
def mole_state() -> GameState:
    """A Mole frame on the stack with a payment above it (as in test_rules)."""
    pk = Picker()
    mole, side = pk.half("Mole", "bottom")
    oak = pk.tree("Oak")
    tree = pk.tree("Beech")
    fill = sorted(pk.fillers(4))
    state = build([[mole, tree, *fill], []], deck=pk.fillers(8), forests=[[site(oak)], []])
    act(state, f"play {mole} {side} 1", f"pay {fill[0]}", f"pay {fill[1]}", "yes",
        f"play {tree}")
    return state


@pytest.fixture(scope="module")
def mid_game() -> Save:
    """A 3-player save in the middle of a payment, with cards in every kind of place."""
    saves: list[Save] = []

    def keep(s: GameState) -> None:
        if (not saves and s.turn > 30 and len(s.stack) == 1 and s.stack[-1].kind == D_PAY
                and s.stack[-1].paid and s.forests[s.current].trees):
            saves.append(json.loads(json.dumps(s.to_dict())))

    for seed in range(100):
        random_game(3, seed, on_action=keep)
        if saves:
            break
    assert saves
    return saves[0]


def _a_deck_card(d: Save) -> int:
    return next(c for c in d["deck"] if not CATALOG.card(c).is_winter)


def _move_deck_to_hand(d: Save, n: int) -> None:
    for _ in range(n):
        c = _a_deck_card(d)
        d["deck"].remove(c)
        d["hands"][0].append(c)


def _swap_winter_into_hand(d: Save) -> None:
    w = next(c for c in d["deck"] if CATALOG.card(c).is_winter)
    h = d["hands"][1][0]
    d["deck"][d["deck"].index(w)] = h
    d["hands"][1][0] = w
    d["known"][1] = []


def _set(path: str, value: Any) -> Callable[[Save], None]:
    def change(d: Save) -> None:
        keys: list[Any] = [int(k) if k.lstrip("-").isdigit() else k for k in path.split(".")]
        target: Any = d
        for k in keys[:-1]:
            target = target[k]
        target[keys[-1]] = value
    return change


def _full_hand(d: Save) -> None:
    hand = d["hands"][2]
    while len(hand) <= HAND_LIMIT:
        c = _a_deck_card(d)
        d["deck"].remove(c)
        hand.append(c)


def _first_tree(d: Save) -> dict[str, Any]:
    return next(t for f in d["forests"] for t in f["trees"])


def _tree_card_into_slot(d: Save) -> None:
    tree_card = next(c for c in d["deck"] if CATALOG.card(c).is_tree)
    d["deck"].remove(tree_card)
    _first_tree(d)["slots"]["top"].append(tree_card)


def _two_in_one_slot(d: Save) -> None:
    t = _first_tree(d)
    for side in ("top", "bottom", "left", "right"):
        cands = [c for c in d["deck"] if side in CATALOG.card(c).halves
                 and CATALOG.card(c).halves[side].species.name not in (
                     "European Hare", "Common Toad")]
        if len(cands) >= 2:
            d["box"].extend(t["slots"][side])
            t["slots"][side] = []
            for c in cands[:2]:
                d["deck"].remove(c)
                t["slots"][side].append(c)
            return
    raise AssertionError("no cards")


def _split_card_as_tree(d: Save) -> None:
    t = _first_tree(d)
    split = next(c for c in d["deck"] if not CATALOG.card(c).is_tree
                 and not CATALOG.card(c).is_winter)
    d["deck"].remove(split)
    d["box"].append(t["card"])
    t["card"], t["sapling"] = split, False


def _clearing_of_ten_at_turn_start(d: Save) -> None:
    d["clearing"].append(d["stack"][-1]["card"])
    d["stack"] = [{"kind": "turn", "player": d["current"], "card": 0, "side": "", "tree": -1,
                   "via": "", "need": 0, "paid": [], "pool": None, "step": None, "tag": "",
                   "steps": []}]
    d["queue"] = []
    for c in d["hands"][d["current"]]:
        d["clearing"].append(c)
    d["hands"][d["current"]] = []
    d["known"][d["current"]] = []
    while len(d["clearing"]) < 10:
        c = _a_deck_card(d)
        d["deck"].remove(c)
        d["clearing"].append(c)


def _three_decisions(d: Save) -> None:
    d["stack"] = [copy.deepcopy(d["stack"][-1]) for _ in range(3)]


def _paid_not_in_clearing(d: Save) -> None:
    paid = d["stack"][-1]["paid"][0]
    d["clearing"].remove(paid)
    d["box"].append(paid)


BROKEN: list[tuple[str, Callable[[Save], None], str]] = [
    ("a card twice", lambda d: d["box"].append(d["deck"][0]), "is in two places: deck and box"),
    ("a card missing", lambda d: d["deck"].pop(0), "is nowhere"),
    ("id 999", lambda d: d["hands"][0].append(999), "hands[0]["),
    ("id -1", lambda d: d["deck"].append(-1), "is -1, not a card id (1 to 161)"),
    ("id 0", lambda d: d["box"].append(0), "is 0, not a card id"),
    ("id true", lambda d: d["clearing"].append(True), "is true, not a card id"),
    ("id as text", lambda d: d["deck"].append("12"), 'is "12", not a card id'),
    ("id 10**30", lambda d: d["deck"].append(10**30), "a huge integer"),
    ("a winter card in a hand", _swap_winter_into_hand, "winter card"),
    ("11 cards in a hand", _full_hand, f"hand 3 holds 11 cards (the hand limit is {HAND_LIMIT})"),
    ("5 players with 3 hands", _set("num_players", 5), "3 hands for 5 players"),
    ("6 players", _set("num_players", 6), "Forest Shuffle is for 2 to 5 players"),
    ("a decision of player 9", _set("stack.-1.player", 9), "player 9 is no seat"),
    ("a decision of another player",
     lambda d: d["stack"][-1].__setitem__("player", (d["current"] + 1) % 3), "decides in player"),
    ("an unknown decision", _set("stack.-1.kind", "dance"), 'unknown decision "dance"'),
    ("current player out of range", _set("current", 7), "current player 7 is no seat"),
    ("first player out of range", _set("first_player", -1), "first player -1 is no seat"),
    ("a seen card not in the hand", lambda d: d["known"][0].append(d["deck"][0]),
     "is seen in hand 1 but is not in it"),
    ("a malformed step", lambda d: d["queue"].append(["effect", 999, "", "Wolf"]),
     "999 is not a card id"),
    ("an unknown step", lambda d: d["queue"].append(["magic", 12, "", "Oak"]), "unknown step"),
    ("a step of the wrong species",
     lambda d: d["queue"].append(["effect", 12, "", "Red Squirrel"]), "is not a Red Squirrel"),
    ("a step without its card", lambda d: d["queue"].append(["effect", 12]),
     "must be a step [kind, card, side, species]"),
    ("history that does not parse", lambda d: d["history"].append("take ²"),
     "must be a number"),
    ("history not a text", lambda d: d["history"].append(5), "history["),
    ("a tree card in a slot", _tree_card_into_slot, "has no top half"),
    ("two cards in a one-card slot", _two_in_one_slot, "cannot join"),
    ("a split card as a tree", _split_card_as_tree,
     "is not a tree or shrub card, so it can only be"),
    ("a non-winter card in the winter pile",
     lambda d: d["winter"].append(d["deck"].pop(d["deck"].index(_a_deck_card(d)))),
     "in the winter pile is not a winter card"),
    ("the game over without 3 winter cards", _set("over", True), "the game is over with"),
    ("a clearing of 10 at the start of a turn", _clearing_of_ten_at_turn_start,
     "cards at the start of a turn (it is emptied when it reaches 10)"),
    ("three stacked decisions", _three_decisions, "3 decisions stacked"),
    ("a paid card not in the clearing", _paid_not_in_clearing, "is not in the clearing"),
    ("a payment of the wrong amount", _set("stack.-1.need", 7), "to pay for"),
    ("negative mushrooms", _set("active.0.Chanterelle", -1), "active Chanterelle"),
    ("a missing field", lambda d: d.pop("stack"), "stack is missing"),
    ("hands not lists", _set("hands", "abc"), "hands must be a list"),
    ("a slot missing", lambda d: _first_tree(d)["slots"].pop("left"), "slots.left is missing"),
    ("a negative turn", _set("turn", -3), "turn -3 is negative"),
    ("an unknown rule", _set("rules.house_rule", True), "unknown rule setting"),
    ("a bad seed", _set("seed", "abc"), "broken saved game"),
]


@pytest.mark.parametrize("name, change, words", BROKEN, ids=[b[0] for b in BROKEN])
def test_impossible_saves_are_refused(mid_game: Save, name: str,
                                      change: Callable[[Save], None], words: str) -> None:
    data = copy.deepcopy(mid_game)
    assert GameState.from_dict(copy.deepcopy(data)).to_dict() == data
    change(data)
    with pytest.raises(BrokenSaveError) as err:
        GameState.from_dict(data)
    msg = str(err.value)
    assert isinstance(err.value, ValueError)
    assert msg.startswith("broken saved game: "), msg
    assert "\n" not in msg and msg.isprintable() and len(msg) < 300, msg
    assert words in msg, msg


def test_mulligans_only_before_the_first_turn() -> None:
    data = next(d for d in (GameState.new(2, seed).to_dict() for seed in range(500))
                if d["stack"][-1]["kind"] == "mulligan")
    GameState.from_dict(data)
    data["turn"] = 5
    with pytest.raises(BrokenSaveError, match="a mulligan after the first turn began"):
        GameState.from_dict(data)
    data["turn"] = 0
    data["stack"][-1]["player"] = (data["stack"][-1]["player"] + 1) % 2
    with pytest.raises(BrokenSaveError, match="is not the one to decide a mulligan"):
        GameState.from_dict(data)


def test_not_a_save_at_all() -> None:
    for data in ({"format": "something else"}, [], None, {"format": ["x"]}):
        with pytest.raises(BrokenSaveError, match="not a saved game"):
            GameState.from_dict(data)  # type: ignore[arg-type]


def test_winter_cards_in_the_box_are_out_of_the_game() -> None:
    """Scenario states box the unused winter cards: a box is out of the game."""
    state = build([[], []], deck=[WINTER[0]], winter=[WINTER[1]])
    assert WINTER[2] in state.box
    check_state(state)


def test_check_state_on_a_state_in_memory(mid_game: Save) -> None:
    state = GameState.from_dict(copy.deepcopy(mid_game))
    check_state(state)
    state.hands[0].append(state.hands[1][0])
    with pytest.raises(BrokenSaveError, match="in two places"):
        check_state(state)
