"""Game records: a whole game as JSON that can be replayed and checked.

Contract:

- :func:`record_of` turns a :class:`~forest_shuffle.engine.state.GameState` into a record (a
  JSON-ready dict, see ``docs/records.md``): format tag, game id, seed and deal scheme,
  players, rules, first player, every action in text form, final scores (totals and the
  four score-pad lines), winners and where every card id ended.
- :func:`write_record` / :func:`read_record` save and load one; ``read_record`` raises
  :class:`RecordError` with a one-line message for a file that cannot be read or is not a
  well-formed record.
- :func:`replay` replays a record from its seed and actions and compares the result with
  what the record says, naming the first difference: the first illegal action, the first
  card whose place differs, or a score mismatch.
- :func:`random_game` plays uniformly random legal actions from a ``random.Random`` seeded
  with the game seed (no global random state).

Seats are numbered from 0 in the JSON (list positions, ``first_player``, ``winners``) and
from 1 in messages ("player 1", "hand 1").
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from forest_shuffle.cards.model import SIDES
from forest_shuffle.cards.words import plural
from forest_shuffle.engine.actions import Action, ActionParseError, IllegalActionError
from forest_shuffle.engine.game import GameDef, UnknownGameError, game_by_id
from forest_shuffle.engine.options import Rules
from forest_shuffle.engine.setup import LEGACY, check_seed
from forest_shuffle.engine.state import GameState

RECORD_FORMAT = "forest-shuffle record 1"

__all__ = [
    "RECORD_FORMAT", "RecordError", "ReplayResult", "check_record",
    "final_of", "places_of", "random_game", "read_record", "record_of", "replay",
    "write_record",
]


class RecordError(ValueError):
    """A file or dict is not a readable game record; the message is one line."""


# ------------------------------------------------------------------ playing


def random_game(num_players: int, seed: int, rules: Rules | None = None,
                on_action: Callable[[GameState], None] | None = None,
                game: GameDef | str = "base") -> GameState:
    """Play a whole game of ``game`` from ``seed`` choosing uniformly among the legal
    actions with ``random.Random(seed)``; return the finished state. ``on_action`` (if
    given) is called with the state after every action. Same arguments, same game."""
    state = GameState.new(num_players, seed, rules, game=game)
    bits = random.Random(seed).getrandbits
    # The engine's methods are called on the state, not through bound methods kept in
    # locals: compiled, such a call is a native call (a bound method is a generic one).
    while not state.over:
        acts = state.legal_actions()
        # rng.choice(acts) written out, the same numbers: CPython's choice takes
        # acts[_randbelow(n)], which draws getrandbits(n.bit_length()) until below n
        # (tests/test_engine_fast_paths.py plays games both ways).
        n = len(acts)
        k = n.bit_length()
        r = bits(k)
        while r >= n:
            r = bits(k)
        state.apply_legal(acts[r])  # from legal_actions(): no check needed
        if on_action is not None:
            on_action(state)
    return state


# ------------------------------------------------------------------ building records


def final_of(state: GameState) -> dict[str, Any]:
    """Where every card id is in ``state``, as the ``final`` part of a record: hands, deck
    (top first), clearing, forests (trees with their four slots), caves, winter, box and
    ``in_play`` (a card being paid for); Dartmoor also ``discard`` (the discard pile) and
    ``cave_numbers``, and a universal moor is written as a sapling (face down)."""
    in_play = sorted(c for c, where in state.locations().items() if where == "in play")
    more: dict[str, Any] = {}
    if state.game.state_class is not None:
        more = {"discard": list(state.to_dict().get("discard", [])),
                "cave_numbers": [f.cave_number for f in state.forests]}
    return {
        "hands": [list(h) for h in state.hands],
        "deck": state.deck[::-1],
        "clearing": list(state.clearing),
        "forests": [
            [{"card": t.card, "sapling": t.species is None,
              **{side: [d.card for d in t.slots[side]] for side in SIDES}}
             for t in f.trees]
            for f in state.forests
        ],
        "caves": [list(c) for c in state.caves],
        "winter": list(state.winter),
        "box": list(state.box),
        "in_play": in_play,
        **more,
    }


def _scores_of(state: GameState) -> list[dict[str, Any]]:
    totals = state.scores()
    table = state.game.score_table(state.forests)
    lines = state.game.pad_lines
    return [{"total": totals[i], "lines": {line: fs.lines[line] for line in lines}}
            for i, fs in enumerate(table)]


def record_of(state: GameState) -> dict[str, Any]:
    """The JSON-ready record of ``state`` (finished or not): setup, actions, scores,
    winners and final card places."""
    return {
        "format": RECORD_FORMAT,
        "game": state.game.id,
        "seed": state.seed,
        "deal": state.deal,
        "players": state.num_players,
        "rules": state.rules.to_dict(),
        "first_player": state.first_player,
        "over": state.over,
        "turns": state.turn,
        "actions": [str(a) for a in state.history],
        "scores": _scores_of(state),
        "winners": state.winners(),
        "final": final_of(state),
    }


# ------------------------------------------------------------------ files


def write_record(path: str | Path, record: dict[str, Any]) -> None:
    """Write ``record`` to ``path`` as UTF-8 JSON; :func:`read_record` reads it back equal."""
    text = json.dumps(record, indent=1, ensure_ascii=False)
    Path(path).write_text(text + "\n", encoding="utf-8")


def read_record(path: str | Path) -> dict[str, Any]:
    """Load and check a record. :class:`RecordError` (one line) if the file cannot be read,
    is not JSON (or is larger than 8 million characters, nested deeper than 32 levels, holds
    an integer too long for Python: :func:`~forest_shuffle.engine.check.load_json`) or is not
    a well-formed record."""
    from forest_shuffle.engine.check import MAX_JSON_CHARS, JsonInputError, load_json, printable

    p = Path(path)
    shown = printable(str(p))
    try:
        with p.open(encoding="utf-8") as fh:
            text = fh.read(MAX_JSON_CHARS + 1)
    except OSError as exc:
        raise RecordError(f"cannot read {shown}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise RecordError(f"{shown} is not a text file (not UTF-8)") from None
    try:
        data = load_json(text)
    except JsonInputError as bad_json:  # one name per exception type (mypyc)
        raise RecordError(f"{shown} is {bad_json}") from None
    try:
        check_record(data)
    except RecordError as bad:
        why = printable(str(bad))
        raise RecordError(f"{shown}: {why if len(why) <= 300 else why[:297] + '...'}") from None
    result: dict[str, Any] = data
    return result


def _int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _ints(value: object) -> bool:
    return isinstance(value, list) and all(_int(v) for v in value)


def _need(ok: bool, what: str) -> None:
    if not ok:
        raise RecordError(what)


def check_record(data: object) -> None:
    """Raise :class:`RecordError` (one line) unless ``data`` has the shape of a record."""
    _need(isinstance(data, dict), "not a game record (the top level is not an object)")
    assert isinstance(data, dict)
    fmt = data.get("format")
    _need(fmt == RECORD_FORMAT,
          f"not a game record (format {fmt!r}, expected {RECORD_FORMAT!r})")
    for key in ("seed", "players", "rules", "first_player", "actions", "scores", "winners",
                "final"):
        _need(key in data, f"missing field {key!r}")
    _need(_int(data["seed"]), "'seed' must be an integer")
    try:
        check_seed(data["seed"], data.get("deal", LEGACY))
    except ValueError as exc:
        raise RecordError(f"'seed'/'deal': {exc}") from None
    game = game_of(data)
    n = data["players"]
    _need(_int(n) and n in game.players,
          f"'players' must be {', '.join(map(str, game.players[:-1]))} or {game.players[-1]}")
    try:
        Rules.from_dict(data["rules"])
    except ValueError as exc:
        raise RecordError(f"'rules': {exc}") from None
    _need(_int(data["first_player"]) and 0 <= data["first_player"] < n,
          f"'first_player' must be a seat from 0 to {n - 1}")
    _need("over" not in data or isinstance(data["over"], bool), "'over' must be true or false")
    acts = data["actions"]
    _need(isinstance(acts, list) and all(isinstance(a, str) for a in acts),
          "'actions' must be a list of strings")
    scores = data["scores"]
    _need(isinstance(scores, list) and len(scores) == n,
          f"'scores' must be a list of {n} entries, one per seat")
    for i, s in enumerate(scores):
        _need(isinstance(s, dict) and _int(s.get("total")) and isinstance(s.get("lines"), dict)
              and all(_int(s["lines"].get(line)) for line in game.pad_lines),
              f"'scores'[{i}] must have an integer 'total' and 'lines' "
              f"{', '.join(game.pad_lines)}")
    _need(_ints(data["winners"]), "'winners' must be a list of seats")
    final = data["final"]
    _need(isinstance(final, dict), "'final' must be an object")
    for key in ("deck", "clearing", "winter", "box"):
        _need(_ints(final.get(key)), f"'final.{key}' must be a list of card ids")
    _need(_ints(final.get("in_play", [])), "'final.in_play' must be a list of card ids")
    for key in ("hands", "caves", "forests"):
        v = final.get(key)
        _need(isinstance(v, list) and len(v) == n, f"'final.{key}' must have one entry per seat")
    for key in ("hands", "caves"):
        for i, v in enumerate(final[key]):
            _need(_ints(v), f"'final.{key}'[{i}] must be a list of card ids")
    for i, forest in enumerate(final["forests"]):
        _need(isinstance(forest, list), f"'final.forests'[{i}] must be a list of trees")
        for j, tree in enumerate(forest):
            _need(isinstance(tree, dict) and _int(tree.get("card"))
                  and isinstance(tree.get("sapling"), bool)
                  and all(_ints(tree.get(side)) for side in SIDES),
                  f"'final.forests'[{i}][{j}] must have 'card', 'sapling' and the four slots")


# ------------------------------------------------------------------ comparing


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def places_of(final: dict[str, Any]) -> dict[int, list[str]]:
    """Card id -> its places in a ``final`` part (one place each in a sound record): ``hand
    1``, ``deck, 3rd from the top``, ``clearing``, ``forest 1 tree 2`` (``sapling``),
    ``forest 1 tree 2 left``, ``cave 1``, ``winter``, ``box``, ``in play``."""
    out: dict[int, list[str]] = {}

    def put(cid: int, where: str) -> None:
        out.setdefault(cid, []).append(where)

    for i, hand in enumerate(final["hands"]):
        for c in hand:
            put(c, f"hand {i + 1}")
    for k, c in enumerate(final["deck"]):
        put(c, f"deck, {_ordinal(k + 1)} from the top")
    for c in final["clearing"]:
        put(c, "clearing")
    for i, forest in enumerate(final["forests"]):
        for j, tree in enumerate(forest):
            put(tree["card"], f"forest {i + 1} tree {j + 1}"
                + (" (sapling)" if tree["sapling"] else ""))
            for side in SIDES:
                for c in tree[side]:
                    put(c, f"forest {i + 1} tree {j + 1} {side}")
    for i, cave in enumerate(final["caves"]):
        for c in cave:
            put(c, f"cave {i + 1}")
    for c in final["winter"]:
        put(c, "winter")
    for c in final["box"]:
        put(c, "box")
    for c in final.get("in_play", []):
        put(c, "in play")
    for c in final.get("discard", []):
        put(c, "discard")
    return out


def _place_text(places: list[str] | None) -> str:
    if not places:
        return "nowhere"
    return " and ".join(places)


@dataclass(frozen=True, slots=True)
class ReplayResult:
    """The outcome of :func:`replay`.

    ``ok`` is True when everything matched; otherwise ``kind`` names the first difference
    (``action``: illegal or unreadable action, ``index`` its position in ``actions`` from
    0; ``place``: ``card`` is the first card id, in ascending order, whose place differs;
    ``order``: same places, different order; ``over``; ``score``; ``winners``) and
    ``message`` says it in one line. ``state`` is the replayed state (as far as it got).
    """

    ok: bool
    kind: str
    message: str
    state: GameState
    index: int | None = None
    card: int | None = None


def _summary(record: dict[str, Any], state: GameState) -> str:
    totals = "-".join(str(s) for s in state.scores())
    won = ", ".join(str(w + 1) for w in state.winners())
    end = "game over" if state.over else "game not finished"
    return (f"OK: {record['players']} players, seed {record['seed']}, "
            f"{len(record['actions'])} actions, {state.turn} turns, {end}, "
            f"scores {totals}, {plural('winner', len(state.winners()))}: player {won}")


def replay(record: dict[str, Any]) -> ReplayResult:
    """Replay ``record`` from its seed and actions and compare with what it says, in this
    order: each action legal, game over (or not) as recorded, every card's place, the order
    of every pile, scores (totals, then lines), winners. Stops at the first difference.
    :class:`RecordError` if ``record`` is not well-formed."""
    check_record(record)
    rules = Rules.from_dict(record["rules"])
    # Records from before the keyed deal have no 'deal': they were dealt the legacy way.
    # Records from before game definitions have no 'game': they are base games.
    state = GameState.new(record["players"], record["seed"], rules, record["first_player"],
                          record.get("deal", LEGACY), game=game_of(record))

    def fail(kind: str, message: str, index: int | None = None,
             card: int | None = None) -> ReplayResult:
        return ReplayResult(False, kind, message, state, index, card)

    for i, text in enumerate(record["actions"]):
        try:
            action = Action.parse(text)
        except ActionParseError as exc:
            return fail("action", f"actions[{i}] {text!r} is not an action: {exc}", index=i)
        try:
            state.apply(action)
        except IllegalActionError as illegal:  # one name per exception type (mypyc)
            return fail("action", f"actions[{i}] {text!r} is illegal: {illegal.reason}",
                        index=i)

    over = record.get("over")
    if over is not None and over != state.over:
        said = "over" if over else "still running"
        got = "over" if state.over else "still running"
        return fail("over", f"the record says the game is {said} after "
                    f"{len(record['actions'])} actions, the replay says {got}")

    final = final_of(state)
    want = places_of(record["final"])
    got_places = places_of(final)
    for cid in sorted(set(want) | set(got_places)):
        w, g = want.get(cid), got_places.get(cid)
        if w != g:
            return fail("place", f"card {cid}: the record says {_place_text(w)}, "
                        f"the replay says {_place_text(g)}", card=cid)
    for key in ("hands", "deck", "clearing", "forests", "caves", "winter", "box", "in_play"):
        if record["final"].get(key, []) != final[key]:
            return fail("order", f"the order of the cards in 'final.{key}' differs from the "
                        "replay")

    scores = _scores_of(state)
    for i, (w_s, g_s) in enumerate(zip(record["scores"], scores, strict=True)):
        if w_s["total"] != g_s["total"]:
            return fail("score", f"player {i + 1} total: the record says {w_s['total']}, "
                        f"the replay says {g_s['total']}")
    for i, (w_s, g_s) in enumerate(zip(record["scores"], scores, strict=True)):
        for line in state.game.pad_lines:
            if w_s["lines"][line] != g_s["lines"][line]:
                return fail("score", f"player {i + 1} {line} line: the record says "
                            f"{w_s['lines'][line]}, the replay says {g_s['lines'][line]}")
    if sorted(record["winners"]) != state.winners():
        said = ", ".join(str(w + 1) for w in record["winners"]) or "none"
        got = ", ".join(str(w + 1) for w in state.winners())
        return fail("winners", f"the record says the winners are players {said}, "
                    f"the replay says players {got}")
    return ReplayResult(True, "ok", _summary(record, state), state)


def game_of(data: dict[str, Any]) -> GameDef:
    """The game a record names (the base game when it names none); RecordError if the id
    is not a known game."""
    gid = data.get("game", "base")
    _need(isinstance(gid, str), "'game' must be a game id")
    try:
        return game_by_id(gid)
    except UnknownGameError as exc:
        raise RecordError(f"'game': {exc}") from None
