"""The save format (docs/save-format.md) is a public interface: hand-written positions load.

The two example positions of the document live in ``tests/data/saves/``. This module also
makes them: ``.venv/bin/python tests/test_save_format.py`` rewrites both files from
:func:`base_example` and :func:`woodland_edge_example`, and the tests check that the files,
the examples printed in the document and these functions agree. Every other test loads the
files: they load, round-trip exactly, offer the legal actions the document lists, play on as
it says, and hand-broken copies are refused with the documented one-line messages.
"""

from __future__ import annotations

import copy
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from forest_shuffle.engine.actions import Action
from forest_shuffle.engine.check import BrokenSaveError, load_json
from forest_shuffle.engine.state import GameState
from forest_shuffle.games import make_game

Save = dict[str, Any]

ROOT = Path(__file__).resolve().parent.parent
SAVES = ROOT / "tests" / "data" / "saves"
DOC = ROOT / "docs" / "save-format.md"
BASE_FILE = SAVES / "base-2p-turn.json"
EDGE_FILE = SAVES / "woodland-edge-2p-shrub.json"

# ------------------------------------------------------------------ making the examples

EMPTY_SLOTS = ("top", "bottom", "left", "right")


def _tree(card: int, sapling: bool = False, **slots: list[int]) -> dict[str, Any]:
    return {"card": card, "sapling": sapling,
            "slots": {side: list(slots.get(side, [])) for side in EMPTY_SLOTS}}


def _turn(player: int) -> dict[str, Any]:
    """A ``turn`` decision: every field but kind and player at its default."""
    return {"kind": "turn", "player": player, "card": 0, "side": "", "tree": -1, "via": "",
            "need": 0, "paid": [], "pool": None, "step": None, "tag": "", "steps": []}


def _placed(save: Save) -> list[int]:
    """Every card id the position names outside the box."""
    out: list[int] = save["deck"] + save["clearing"] + save["winter"]
    for i in range(save["num_players"]):
        out += save["hands"][i] + save["caves"][i]
        for t in save["forests"][i]["trees"]:
            out.append(t["card"])
            for side in EMPTY_SLOTS:
                out += t["slots"][side]
    return out


def _with_box(save: Save) -> Save:
    """Put every card of the game the position does not name into the box, ascending."""
    game = make_game(save["game"])
    used = set(_placed(save))
    save["box"] = sorted(set(game.catalog.deck_ids) - used)
    return save


def _save(game: str, **fields: Any) -> Save:
    """A save with the keys in the order ``GameState.to_dict`` writes them."""
    g = make_game(game)
    save: Save = {
        "format": "forest-shuffle state 1", "game": game, "num_players": 2, "seed": 0,
        "deal": "keyed",
        "rules": {"sapling_reveals_card": True, "sapling_triggers_chanterelle": True,
                  "free_plays_trigger_mushrooms": True, "mole_plays_saplings": False,
                  "counts_as_joins_stack": True},
        "first_player": 0, "deck": [], "box": [], "clearing": [], "winter": [],
        "hands": [[], []], "forests": [{"trees": []}, {"trees": []}], "caves": [[], []],
        "known": [[], []], "current": 0, "turn": 1, "extra_turns": 0, "over": False,
        "stack": [], "queue": [],
        "active": [dict.fromkeys(g.mushrooms, 0), dict.fromkeys(g.mushrooms, 0)],
        "history": [],
    }
    for key, value in fields.items():
        assert key in save, key
        save[key] = value
    return _with_box(save)


def base_example() -> Save:
    """Base game, 2 players, the start of player 1's third turn (turn 3)."""
    return _save(
        "base",
        # bottom first, top last: 79 is drawn first; the three winter cards lie among the
        # last six cards to be drawn, so the game ends within ten draws.
        deck=[73, 67, 74, 68, 75, 69, 76, 77, 78, 79],
        clearing=[12, 114],
        hands=[[23, 70, 10], [2, 3, 11, 115, 117, 72]],
        forests=[
            {"trees": [_tree(1, left=[71])]},  # a Linden with a European Hare on its left
            {"trees": [_tree(150, sapling=True, top=[116])]},  # a sapling with a Chaffinch
        ],
        caves=[[], [40]],
        known=[[], [11]],  # player 2 took card 11 (an Oak) from the clearing
        current=0,
        turn=3,
        stack=[_turn(0)],
    )


def woodland_edge_example() -> Save:
    """Base + Woodland Edge, 2 players, player 1 to start turn 4 with an Elderberry shrub."""
    save = _save(
        "base+woodland_edge",
        first_player=1,
        deck=[80, 68, 81, 82, 69, 83, 84, 85],
        clearing=[3, 222],
        winter=[67],
        hands=[[217, 199, 23], [4, 5, 56, 118, 226, 212]],
        forests=[
            # a Linden; an Elderberry shrub with a Map Butterfly (card 210) on top
            {"trees": [_tree(2), _tree(198, top=[210])]},
            # a Horse Chestnut with a Common Pipistrelle (card 225) on its left
            {"trees": [_tree(57, left=[225])]},
        ],
        current=0,
        turn=4,
        stack=[_turn(0)],
    )
    # The Elderberry was in player 1's forest when this turn began: it is active.
    save["active"][0]["Elderberry"] = 1
    return save


def dumps(value: Any, indent: int = 0) -> str:
    """JSON with an indent of 1; a list of numbers or strings stays on one line (wrapped
    at 90 characters), so that card lists read as lists."""
    pad = " " * (indent + 1)
    if isinstance(value, dict) and value:
        items = [f"{pad}{json.dumps(k)}: {dumps(v, indent + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    if isinstance(value, list) and value:
        if all(not isinstance(v, dict | list) for v in value):
            words = [json.dumps(v) for v in value]
            lines = [""]
            for w in words:
                if lines[-1] and len(lines[-1]) + len(w) > 88:
                    lines.append("")
                lines[-1] += (", " if lines[-1] else "") + w
            if len(lines) == 1:
                return "[" + lines[0] + "]"
            return "[" + (",\n" + pad).join(lines) + "]"
        items = [pad + dumps(v, indent + 1) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"
    return json.dumps(value)


EXAMPLES: dict[Path, Callable[[], Save]] = {
    BASE_FILE: base_example, EDGE_FILE: woodland_edge_example,
}


def write_examples() -> None:
    SAVES.mkdir(parents=True, exist_ok=True)
    for path, make in EXAMPLES.items():
        path.write_text(dumps(make()) + "\n", encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")


# ------------------------------------------------------------------ helpers


def _read(path: Path) -> Save:
    data: Save = load_json(path.read_text(encoding="utf-8"))
    return data


def _load(data: Save) -> GameState:
    return GameState.from_dict(copy.deepcopy(data))


def _legal(state: GameState) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def _play(state: GameState, *texts: str) -> None:
    for t in texts:
        state.apply(Action.parse(t))


def _doc_blocks() -> dict[str, Any]:
    """The JSON code blocks of the document that follow ``<!-- file: NAME -->``."""
    text = DOC.read_text(encoding="utf-8")
    found = re.findall(r"<!-- file: (\S+) -->\s*```json\n(.*?)```", text, flags=re.S)
    return {name: json.loads(block) for name, block in found}


# ------------------------------------------------------------------ the examples


@pytest.mark.parametrize("path", list(EXAMPLES), ids=lambda p: p.name)
def test_example_files_are_what_this_module_writes(path: Path) -> None:
    assert path.read_text(encoding="utf-8") == dumps(EXAMPLES[path]()) + "\n", (
        "regenerate with: .venv/bin/python tests/test_save_format.py")


def test_the_document_prints_the_example_files() -> None:
    blocks = _doc_blocks()
    assert set(blocks) == {p.name for p in EXAMPLES}
    for path in EXAMPLES:
        assert blocks[path.name] == _read(path), path.name


@pytest.mark.parametrize("path", list(EXAMPLES), ids=lambda p: p.name)
def test_examples_load_and_round_trip_exactly(path: Path) -> None:
    data = _read(path)
    state = _load(data)
    assert state.to_dict() == data
    again = json.loads(json.dumps(state.to_dict()))
    assert GameState.from_dict(again).to_dict() == data


@pytest.mark.parametrize("path", list(EXAMPLES), ids=lambda p: p.name)
def test_examples_place_every_card_once(path: Path) -> None:
    data = _read(path)
    placed = _placed(data) + data["box"]
    game = make_game(data["game"])
    assert sorted(placed) == sorted(game.catalog.deck_ids)
    assert len(placed) == {"base": 161, "base+woodland_edge": 197}[data["game"]]


def test_base_example_legal_actions() -> None:
    state = _load(_read(BASE_FILE))
    assert (state.to_move, state.decision, state.turn) == (0, "turn", 3)
    assert _legal(state) == [
        "draw", "take 12", "take 114", "play 23", "play 70 left 1", "play 70 right 1",
        "play 10", "sapling 23", "sapling 70", "sapling 10",
    ]


def test_base_example_plays_on_from_the_top_of_the_deck() -> None:
    data = _read(BASE_FILE)
    state = _load(data)
    _play(state, "draw")  # the top card is the last one of "deck"
    assert state.hands[0] == [23, 70, 10, 79] and state.decision == "draw"
    _play(state, "take 12")
    assert (state.to_move, state.decision, state.turn) == (1, "turn", 4)

    state = _load(data)
    _play(state, "play 10")  # an Oak costs 2
    assert state.decision == "pay" and _legal(state) == ["pay 23"]
    _play(state, "pay 23", "pay 70")
    # The payment went to the clearing, then the tree turned the top deck card (79) up.
    assert state.clearing == [12, 114, 23, 70, 79]
    assert state.to_move == 1  # no bonus (23 and 70 show no Oak symbol): player 2's turn


def test_woodland_edge_example_legal_actions() -> None:
    state = _load(_read(EDGE_FILE))
    assert (state.to_move, state.decision, state.turn) == (0, "turn", 4)
    assert state.forests[0].trees[1].kind == "shrub"
    assert _legal(state) == [
        "draw", "take 3", "take 222", "play 217 top 1", "play 217 bottom 1",
        "play 217 bottom 2", "play 199", "play 23", "sapling 217", "sapling 199",
        "sapling 23",
    ]


def test_woodland_edge_example_active_shrub_draws_on_a_plant() -> None:
    state = _load(_read(EDGE_FILE))
    _play(state, "play 217 bottom 2")  # a Digitalis (a plant) under the Elderberry
    assert state.decision == "option"
    assert state.to_dict()["stack"][-1]["step"] == ["mushroom", 217, "bottom", "Elderberry"]
    _play(state, "yes")
    assert state.hands[0] == [199, 23, 85]
    assert (state.to_move, state.turn) == (1, 5)


def test_woodland_edge_example_a_shrub_turns_up_no_card() -> None:
    state = _load(_read(EDGE_FILE))
    _play(state, "play 199", "pay 23", "pay 217")
    assert state.clearing == [3, 222, 23, 217]  # the payment only: a shrub is no tree
    assert state.deck[-1] == 85 and len(state.forests[0].trees) == 3
    assert state.to_move == 1  # no bonus: 23 and 217 do not both show a Sycamore


def test_an_inactive_shrub_draws_nothing() -> None:
    """``active`` is not worked out on load: with Elderberry 0 the shrub is not active this
    turn, as when it was played this turn."""
    data = _read(EDGE_FILE)
    data["active"][0]["Elderberry"] = 0
    state = _load(data)
    _play(state, "play 217 bottom 2")
    assert state.to_move == 1


# ------------------------------------------------------------------ normalised fields


def test_fields_that_may_be_left_out() -> None:
    data = _read(BASE_FILE)
    short = copy.deepcopy(data)
    del short["game"]  # missing: the base game
    short["rules"] = {}  # missing switches: their defaults
    assert _load(short).to_dict() == data
    del short["deal"]  # missing: the legacy deal (saves from before the keyed deal)
    assert _load(short).to_dict() == {**data, "deal": "legacy"}


def test_fields_that_are_normalised() -> None:
    data = _read(EDGE_FILE)
    loose = copy.deepcopy(data)
    loose["game"] = "base+Woodland_Edge"  # other spellings of a game id
    loose["comment"] = "a puzzle"  # unknown keys are ignored and not written back
    loose["forests"][0]["trees"][0]["note"] = "a Linden"
    loose["active"][1]["Wood Ant"] = 0  # keys other than the game's draw_on_play species
    loose["hands"][1] = [56, 4, 5, 118, 226, 212]
    loose["known"][1] = [56, 5, 56]  # a set: written sorted, once each
    want = copy.deepcopy(data)
    want["hands"][1] = loose["hands"][1]
    want["known"][1] = [5, 56]
    assert _load(loose).to_dict() == want


# ------------------------------------------------------------------ broken saves


def _first_hand_card_into_box(d: Save) -> None:
    d["box"].append(d["hands"][0][0])


def _winter_into_hand(d: Save) -> None:
    d["deck"][d["deck"].index(67)] = d["hands"][0][0]  # swap 67 and card 23
    d["hands"][0][0] = 67


def _hand_of_eleven(d: Save) -> None:
    for _ in range(8):
        d["hands"][0].append(d["box"].pop())


def _from_box(d: Save, card: int) -> int:
    d["box"].remove(card)
    return card


def _two_birds_on_top(d: Save) -> None:
    d["forests"][1]["trees"][0]["slots"]["top"].append(_from_box(d, 160))  # a Chaffinch


def _shrub_into_base(d: Save) -> None:
    d["forests"][0]["trees"][0]["card"] = 198  # an Elderberry, not in the base game
    d["box"].append(1)


def _shrub_in_a_slot(d: Save) -> None:
    d["forests"][1]["trees"][0]["slots"]["top"].append(_from_box(d, 200))


def _split_card_as_tree(d: Save) -> None:
    d["forests"][0]["trees"][0]["card"] = _from_box(d, 120)
    d["box"].append(1)
    d["box"].sort()


def _shrub_paid_into_a_slot(d: Save) -> None:
    d["hands"][0].remove(199)
    d["hands"][0].remove(23)
    d["clearing"].append(23)
    d["stack"] = [dict(d["stack"][0], kind="pay", card=199, side="top", tree=0, via="turn",
                       need=1, paid=[23])]


def _alpine_card(d: Save) -> None:
    d["clearing"].append(162)


def _base_mushrooms_only(d: Save) -> None:
    for a in d["active"]:
        for name in ("Blackthorn", "Common Hazel", "Elderberry"):
            del a[name]


def _pending(**kw: Any) -> Callable[[Save], None]:
    def change(d: Save) -> None:
        d["stack"][-1].update(kw)
    return change


def _field(key: str, value: Any) -> Callable[[Save], None]:
    def change(d: Save) -> None:
        d[key] = value
    return change


def _clearing_of_ten(d: Save) -> None:
    while len(d["clearing"]) < 10:
        d["clearing"].append(d["box"].pop(0))


def _three_winter_cards_revealed(d: Save) -> None:
    for w in (67, 68, 69):
        d["deck"].remove(w)
    d["winter"] = [67, 68, 69]


B = "broken saved game: "

BROKEN: list[tuple[str, Path, Callable[[Save], None], str]] = [
    ("a card twice", BASE_FILE, _first_hand_card_into_box,
     B + "card 23 is in two places: box and hand 1"),
    ("a card missing", BASE_FILE, lambda d: d["box"].remove(161),
     B + "card 161 is nowhere; every card of the deck is in exactly one place"),
    ("a bad game id", BASE_FILE, _field("game", "base+tundra"),
     B + "unknown game 'base+tundra' (known: base, base+alpine, base+woodland_edge, "
     "base+alpine+woodland_edge, base+exploration, base+alpine+exploration, "
     "base+woodland_edge+exploration, base+alpine+woodland_edge+exploration, dartmoor)"),
    ("a game id that is no string", BASE_FILE, _field("game", None),
     B + "game must be a game id, not null"),
    ("a winter card in a hand", BASE_FILE, _winter_into_hand,
     B + "winter card 67 is in hand 1 (winter cards are only in the deck, the winter pile "
     "or the box)"),
    ("an unknown decision", BASE_FILE, _pending(kind="dance"),
     B + 'stack[0]: unknown decision "dance"'),
    ("a hand over the limit", BASE_FILE, _hand_of_eleven,
     B + "hand 1 holds 11 cards (the hand limit is 10)"),
    ("a dweller in a slot it has no half for", BASE_FILE,
     lambda d: d["forests"][0]["trees"][0]["slots"]["right"].append(_from_box(d, 118)),
     B + "forests[0].trees[0].slots.right[0]: card 118 has no right half"),
    ("two dwellers in a slot that holds one", BASE_FILE, _two_birds_on_top,
     B + "forest 2 tree 1 top: Chaffinch cannot join Chaffinch in one slot"),
    ("a split card as a tree", BASE_FILE, _split_card_as_tree,
     B + "forests[0].trees[0]: card 120 is not a tree or shrub card, so it can only be a "
     "sapling"),
    ("a shrub card in a base game", BASE_FILE, _shrub_into_base,
     B + "forests[0].trees[0].card is 198, not a card id (1 to 161)"),
    ("a shrub card in a slot", EDGE_FILE, _shrub_in_a_slot,
     B + "forests[1].trees[0].slots.top[0]: card 200 has no top half"),
    ("a shrub paid for as a dweller", EDGE_FILE, _shrub_paid_into_a_slot,
     B + "stack[0] (pay): shrub card 199 is played as a host, not into a slot"),
    ("an Alpine card in a Woodland Edge game", EDGE_FILE, _alpine_card,
     B + "clearing[2] is 162, not a card id (1 to 161, 198 to 233)"),
    ("the mushroom counts of another game", EDGE_FILE, _base_mushrooms_only,
     B + "active[0].Blackthorn is missing"),
    ("a decision of the other player", BASE_FILE, _pending(player=1),
     B + "stack[0] (turn): player 2 decides in player 1's turn"),
    ("turn 0 without a mulligan", BASE_FILE, _field("turn", 0),
     B + "turn 0 is not a mulligan decision"),
    ("a full clearing at the start of a turn", BASE_FILE, _clearing_of_ten,
     B + "the clearing holds 10 cards at the start of a turn (it is emptied when it "
     "reaches 10)"),
    ("a seen card not in the hand", BASE_FILE, _field("known", [[12], [11]]),
     B + "card 12 is seen in hand 1 but is not in it"),
    ("no decision", BASE_FILE, _field("stack", []),
     B + "the game is not over but no decision is pending"),
    ("three winter cards but not over", BASE_FILE, _three_winter_cards_revealed,
     B + "3 winter cards are revealed but the game is not over"),
    ("too many active mushrooms", EDGE_FILE,
     lambda d: d["active"][0].update(Elderberry=5),
     B + "player 1 has 5 active Elderberry (0 to 4)"),
    ("a missing field", BASE_FILE, lambda d: d.pop("clearing"), B + "clearing is missing"),
    ("a wrong format", BASE_FILE, _field("format", "forest-shuffle state 2"),
     "not a saved game (expected format 'forest-shuffle state 1')"),
]


@pytest.mark.parametrize("name, path, change, message", BROKEN, ids=[b[0] for b in BROKEN])
def test_hand_broken_saves_are_refused(name: str, path: Path, change: Callable[[Save], None],
                                       message: str) -> None:
    data = _read(path)
    _load(data)  # the unbroken file loads
    change(data)
    with pytest.raises(BrokenSaveError) as err:
        GameState.from_dict(data)
    assert isinstance(err.value, ValueError)
    text = str(err.value)
    assert "\n" not in text and text.isprintable()
    assert text == message


# ------------------------------------------------------------------ gaps closed

# Positions no game reaches that the loader once accepted.


@pytest.mark.parametrize("seed", ["12", 12.7, True])
def test_a_seed_that_is_no_integer_is_refused(seed: Any) -> None:
    data = _read(BASE_FILE)
    data["seed"] = seed
    with pytest.raises(BrokenSaveError):
        GameState.from_dict(data)


def test_a_missing_seed_is_named() -> None:
    data = _read(BASE_FILE)
    del data["seed"]
    with pytest.raises(BrokenSaveError, match="seed is missing"):
        GameState.from_dict(data)


def test_a_payment_that_cannot_be_finished_is_refused() -> None:
    data = _read(BASE_FILE)
    data["hands"][0] = [23, 70]  # Oak 10 in play, 114 paid: nothing above 114 in hand
    data["stack"] = [dict(data["stack"][0], kind="pay", card=10, via="turn", need=1,
                          paid=[114])]
    with pytest.raises(BrokenSaveError):
        GameState.from_dict(data)


def test_a_second_draw_with_a_full_hand_is_refused() -> None:
    data = _read(BASE_FILE)
    _hand_of_eleven(data)
    data["box"].append(data["hands"][0].pop())  # 10 cards: the limit
    data["box"].sort()
    data["stack"][0]["kind"] = "draw"
    with pytest.raises(BrokenSaveError):
        GameState.from_dict(data)


if __name__ == "__main__":
    if sys.argv[1:] not in ([], ["--write"]):
        sys.exit("usage: python tests/test_save_format.py [--write]")
    write_examples()
