"""Checks on what is loaded from outside: JSON text, and saved games.

Contract:

- :func:`load_json` parses JSON text, or raises :class:`JsonInputError` (a ValueError) with
  one line: text longer than ``max_chars``, nesting deeper than ``max_depth``, an integer
  too long for Python (more than 4,300 digits), ``NaN``/``Infinity`` (not JSON), a key
  given twice in one object, a string holding a lone surrogate, or text that does not
  parse. The commands ``score`` and ``replay`` read their files through it.
- :func:`check_save` checks the shape of a saved game (the dict of
  :meth:`GameState.to_dict <forest_shuffle.engine.state.GameState.to_dict>`) before it is built;
  :func:`check_state` checks a whole built state against the rules: every card of the
  deck in exactly one place, sizes, seats, decisions, queued steps. Both raise
  :class:`BrokenSaveError` (a ValueError) whose one-line message names the first problem.
  :meth:`GameState.from_dict <forest_shuffle.engine.state.GameState.from_dict>` calls both.

Pure: no I/O. :func:`check_state` only reads the state (a few hundred set operations).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from forest_shuffle.cards.forest import Host
from forest_shuffle.cards.model import SIDES, TAGS, Card, Species
from forest_shuffle.cards.words import article
from forest_shuffle.engine.game import GameDef, UnknownGameError, game_by_id
from forest_shuffle.engine.state import (
    D_CLEARING_CAVE,
    D_DRAW,
    D_FREE,
    D_MOLE,
    D_MULLIGAN,
    D_OPTION,
    D_PAY,
    D_RACCOON,
    D_SAPLINGS,
    D_TAKE,
    D_TURN,
    S_BONUS,
    S_EFFECT,
    S_MUSHROOM,
    VIA_MOLE,
    VIA_TURN,
    GameState,
    Pending,
)

__all__ = [
    "BrokenSaveError", "JsonInputError", "MAX_JSON_CHARS", "MAX_JSON_DEPTH", "check_save",
    "check_state", "load_json", "printable", "safe_json",
]

#: Default bounds of :func:`load_json`. Records, saves and forest-json documents of real
#: games are a few hundred kilobytes at most and nest fewer than ten levels.
MAX_JSON_CHARS = 8_000_000
MAX_JSON_DEPTH = 32


class JsonInputError(ValueError):
    """JSON text that is refused; the message is one line."""


class BrokenSaveError(ValueError):
    """A saved game that is not one a game can reach; the one-line message names the first
    problem (``broken saved game: ...``, or ``not a saved game ...`` for another format)."""


def _broken(problem: str) -> BrokenSaveError:
    return BrokenSaveError(f"broken saved game: {problem}")


# ------------------------------------------------------------------------------ JSON


def _no_constant(name: str) -> Any:
    raise JsonInputError(f"not valid JSON: {name} is not a JSON number")


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise JsonInputError(f"not valid JSON: the key {_short(key)} is given twice in "
                                     "one object")
            seen.add(key)
    return out


def safe_json(data: object, indent: int | None = None) -> str:
    """``data`` as JSON text that a terminal shows as it is: characters beyond ASCII stay
    (names in any script), but every character :func:`printable` would escape (C0 and C1
    controls, format and bidirectional characters such as U+202E, separators, lone
    surrogates) is written as a JSON ``\\uXXXX`` escape, so the text reads back to the same
    data. TypeError or ValueError for data JSON cannot hold."""
    text = json.dumps(data, indent=indent, ensure_ascii=False)
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() or ch == "\n" else _json_escape(ch) for ch in text)


def _json_escape(ch: str) -> str:
    code = ord(ch)
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000  # beyond the BMP: a surrogate pair, as JSON writes it
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def printable(text: str) -> str:
    """``text`` with every character that is not printable (control characters, line and
    paragraph separators, lone surrogates...) written as its Python escape."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text)


def _short(text: str, limit: int = 40) -> str:
    """A string quoted on one line, escaped and cut to ``limit`` characters."""
    shown = printable(json.dumps(text[:limit], ensure_ascii=False))
    return shown[:-1] + '..."' if len(text) > limit else shown


def _check_tree(value: Any, max_depth: int) -> None:
    """Depth and strings of a parsed value, without recursion."""
    todo: list[tuple[Any, int]] = [(value, 1)]
    while todo:
        v, depth = todo.pop()
        if isinstance(v, dict | list) and depth > max_depth:
            raise JsonInputError(f"not valid input: nested deeper than {max_depth} levels")
        if isinstance(v, dict):
            for k, x in v.items():
                _check_string(k)
                todo.append((x, depth + 1))
        elif isinstance(v, list):
            todo.extend((x, depth + 1) for x in v)
        elif isinstance(v, str):
            _check_string(v)


def _check_string(s: str) -> None:
    if not s.isascii():
        try:
            s.encode("utf-8")
        except UnicodeEncodeError:
            raise JsonInputError("not valid JSON: a string holds a lone surrogate "
                                 "(an escape such as \\ud800 that is not half of a pair)"
                                 ) from None


def load_json(text: str, *, max_chars: int = MAX_JSON_CHARS,
              max_depth: int = MAX_JSON_DEPTH) -> Any:
    """Parse JSON text with bounds; :class:`JsonInputError` (one line) if refused."""
    if len(text) > max_chars:
        raise JsonInputError(f"not valid input: larger than {max_chars:,} characters")
    try:
        value = json.loads(text, parse_constant=_no_constant, object_pairs_hook=_pairs)
    except JsonInputError:
        raise
    except json.JSONDecodeError as exc:
        raise JsonInputError(f"not valid JSON: {exc.msg} at line {exc.lineno}, column "
                             f"{exc.colno}") from None
    except RecursionError:
        raise JsonInputError(f"not valid input: nested deeper than {max_depth} levels"
                             ) from None
    except ValueError as exc:  # an integer of more digits than int() accepts
        if "digits" in str(exc):
            raise JsonInputError("not valid input: a number has too many digits (more than "
                                 "4,300)") from None
        raise JsonInputError(f"not valid JSON: {str(exc).splitlines()[0][:200]}") from None
    _check_tree(value, max_depth)
    return value


# ------------------------------------------------------------------------------ saves

class _Ctx:
    """The card tables of the game a save belongs to."""

    def __init__(self, game: GameDef) -> None:
        self.game = game
        self.cards: tuple[Card | None, ...] = game.cards
        self.ids: frozenset[int] = frozenset(game.catalog.deck_ids)
        self.winter: frozenset[int] = frozenset(game.winter_ids)
        self.id_range = _ranges(sorted(self.ids))
        self.mushroom_counts: Mapping[str, int] = {
            m: game.catalog.species[m].count for m in game.mushrooms}
        self.host_share = any(sp.permanent is not None and sp.permanent.op in _HOST_SHARING
                              for sp in game.catalog.species.values())


def _ranges(ids: list[int]) -> str:
    """``1 to 161`` or ``1 to 161, 198 to 233``."""
    out: list[str] = []
    start = prev = ids[0]
    for i in ids[1:] + [-1]:
        if i != prev + 1:
            out.append(f"{start} to {prev}")
            start = i
        prev = i
    return ", ".join(out)


_CTX: dict[str, _Ctx] = {}


def _ctx_of(game: GameDef) -> _Ctx:
    """The card tables of ``game``, built once per game."""
    ctx = _CTX.get(game.id)
    if ctx is None or ctx.game is not game:
        ctx = _CTX[game.id] = _Ctx(game)
    return ctx


def _game_of(data: Mapping[str, Any]) -> GameDef:
    gid = data.get("game", "base")
    if not isinstance(gid, str):
        raise _broken(f"game must be a game id, not {_show(gid)}")
    try:
        return game_by_id(gid)
    except UnknownGameError as exc:
        raise _broken(str(exc)) from None


_PER_PLAYER = ("hands", "forests", "caves", "known", "active")


def _show(value: Any) -> str:
    """A saved value on one short line."""
    if isinstance(value, str):
        return _short(value, 30)
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value) if value.bit_length() <= 64 else "a huge integer"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, list | tuple):
        return "a list"
    return "an object" if isinstance(value, dict) else type(value).__name__


def _is_int(v: Any) -> bool:
    return type(v) is int


def _need(ok: bool, problem: str) -> None:
    if not ok:
        raise _broken(problem)


def _list(data: Mapping[str, Any], key: str, where: str) -> list[Any]:
    if key not in data:
        raise _broken(f"{where}{key} is missing")
    v = data[key]
    if not isinstance(v, list):
        raise _broken(f"{where}{key} must be a list, not {_show(v)}")
    out: list[Any] = v
    return out


def _int_field(data: Mapping[str, Any], key: str, where: str = "") -> int:
    if key not in data:
        raise _broken(f"{where}{key} is missing")
    v = data[key]
    if type(v) is not int:
        raise _broken(f"{where}{key} must be an integer, not {_show(v)}")
    out: int = v
    return out


def _str_field(data: Mapping[str, Any], key: str, where: str) -> str:
    if key not in data:
        raise _broken(f"{where}{key} is missing")
    v = data[key]
    if not isinstance(v, str):
        raise _broken(f"{where}{key} must be a string, not {_show(v)}")
    out: str = v
    return out


def _ids(ctx: _Ctx, values: list[Any], where: str) -> None:
    for k, c in enumerate(values):
        if not (type(c) is int and c in ctx.ids):
            raise _broken(f"{where}[{k}] is {_show(c)}, not a card id ({ctx.id_range})")


def _id_lists(ctx: _Ctx, data: Mapping[str, Any], key: str) -> list[Any]:
    outer = _list(data, key, "")
    for i, inner in enumerate(outer):
        _need(isinstance(inner, list), f"{key}[{i}] must be a list, not {_show(inner)}")
        _ids(ctx, inner, f"{key}[{i}]")
    return outer


def _step_shape(step: Any, where: str) -> None:
    if not (isinstance(step, list | tuple) and len(step) == 4 and isinstance(step[0], str)
            and _is_int(step[1]) and isinstance(step[2], str) and isinstance(step[3], str)):
        raise _broken(f"{where} must be a step [kind, card, side, species], not {_show(step)}")


def _pending_shape(ctx: _Ctx, p: Any, where: str) -> None:
    _need(isinstance(p, dict), f"{where} must be an object, not {_show(p)}")
    for key in ("kind", "side", "via", "tag"):
        _str_field(p, key, f"{where}.")
    for key in ("player", "card", "tree", "need"):
        _int_field(p, key, f"{where}.")
    paid = _list(p, "paid", f"{where}.")
    for k, c in enumerate(paid):
        if type(c) is not int:
            raise _broken(f"{where}.paid[{k}] must be a card id, not {_show(c)}")
    if "pool" not in p:
        raise _broken(f"{where}.pool is missing")
    if p["pool"] is not None:
        _ids(ctx, _list(p, "pool", f"{where}."), f"{where}.pool")
    if "step" not in p:
        raise _broken(f"{where}.step is missing")
    if p["step"] is not None:
        _step_shape(p["step"], f"{where}.step")
    for k, s in enumerate(_list(p, "steps", f"{where}.")):
        _step_shape(s, f"{where}.steps[{k}]")


def check_save(data: Mapping[str, Any]) -> None:
    """Check the shape of a saved game before it is built: every field present with its
    type, card ids valid, one entry per player in every per-player list, tree cards as
    trees and split cards in slots they have a half for. :class:`BrokenSaveError` naming
    the field (``hands[1][3]``, counted from 0 as in the JSON) otherwise."""
    ctx = _ctx_of(_game_of(data))
    g = ctx.game
    _int_field(data, "seed")
    n = _int_field(data, "num_players")
    _need(n in g.players, f"num_players is {n}; {g.title} is for {g.players[0]} to "
          f"{g.players[-1]} players")
    for key in ("first_player", "current", "turn", "extra_turns"):
        _int_field(data, key)
    _need(isinstance(data.get("over"), bool), f"over must be true or false, not "
          f"{_show(data.get('over'))}")
    _need(isinstance(data.get("rules"), dict), "rules must be an object of switches")
    for key in ("deck", "box", "clearing", "winter"):
        _ids(ctx, _list(data, key, ""), key)
    for key in ("hands", "caves", "known"):
        _id_lists(ctx, data, key)
    if "box_seen" in data:  # saves from before these lists have none
        _ids(ctx, _list(data, "box_seen", ""), "box_seen")
    if "caves_seen" in data:
        have = len(_id_lists(ctx, data, "caves_seen"))
        _need(have == n, f"{have} caves_seen for {n} players (one each)")
    forests = _list(data, "forests", "")
    for i, f in enumerate(forests):
        _need(isinstance(f, dict), f"forests[{i}] must be an object, not {_show(f)}")
        for j, t in enumerate(_list(f, "trees", f"forests[{i}].")):
            w = f"forests[{i}].trees[{j}]"
            if not isinstance(t, dict):
                raise _broken(f"{w} must be an object, not {_show(t)}")
            cid = _int_field(t, "card", f"{w}.")
            card = ctx.cards[cid] if 0 < cid < len(ctx.cards) else None
            if card is None:
                raise _broken(f"{w}.card is {_show(cid)}, not a card id ({ctx.id_range})")
            if not isinstance(t.get("sapling"), bool):
                raise _broken(f"{w}.sapling must be true or false")
            if card.is_winter:
                raise _broken(f"{w}: card {cid} is a winter card")
            if not (t["sapling"] or card.is_host):
                raise _broken(f"{w}: card {cid} is not a tree or shrub card, so it can only "
                              "be a sapling")
            slots = t.get("slots")
            if not isinstance(slots, dict):
                raise _broken(f"{w}.slots must be an object of the four slots")
            for side in SIDES:
                stack = _list(slots, side, f"{w}.slots.")
                _ids(ctx, stack, f"{w}.slots.{side}")
                for k, c in enumerate(stack):
                    dweller = ctx.cards[c]
                    if dweller is None or side not in dweller.halves:
                        raise _broken(f"{w}.slots.{side}[{k}]: card {c} has no {side} half")
    stack = _list(data, "stack", "")
    for k, p in enumerate(stack):
        _pending_shape(ctx, p, f"stack[{k}]")
    for k, s in enumerate(_list(data, "queue", "")):
        _step_shape(s, f"queue[{k}]")
    active = _list(data, "active", "")
    for i, a in enumerate(active):
        _need(isinstance(a, dict), f"active[{i}] must be an object, not {_show(a)}")
        for m in g.mushrooms:
            _int_field(a, m, f"active[{i}].")
    for k, text in enumerate(_list(data, "history", "")):
        if not isinstance(text, str):
            raise _broken(f"history[{k}] must be an action text, not {_show(text)}")
    for key in _PER_PLAYER:
        have = len(data[key])
        _need(have == n, f"{have} {key} for {n} players (one each)")
    if g.state_class is not None:
        g.state_class._check_save_more(data)


def _seen_in(seen: Sequence[int], place: Sequence[int], name: str) -> None:
    """Cards seen going into ``place`` are in it, once each."""
    extra = sorted(set(seen) - set(place))
    _need(not extra, f"card {extra[0] if extra else 0} is seen in {name} but is not in it")
    _need(len(set(seen)) == len(seen), f"a card is seen going into {name} twice")


def check_state(state: GameState) -> None:
    """Check a whole state against the rules; :class:`BrokenSaveError` naming the first
    problem. Checked: players (2 to 5, one hand, forest, cave, known set and mushroom count
    each; seats in range), every deck card in exactly one place (deck, box, clearing,
    winter pile, hands, forests, caves, a card being paid for), winter cards only in the
    deck, the winter pile or the box, hand and clearing sizes, slots, seen cards in their
    hands, the box and the caves, the decision stack, the queued steps and the game's end."""
    ctx = _ctx_of(state.game)
    g = state.game
    n = state.num_players
    _need(n in g.players, f"{n} players; {g.title} is for {g.players[0]} to "
          f"{g.players[-1]} players")
    for key in _PER_PLAYER:
        have = len(getattr(state, key))
        _need(have == n, f"{have} {key} for {n} players (one each)")
    _need(0 <= state.first_player < n, f"first player {state.first_player} is no seat "
          f"(0 to {n - 1})")
    _need(0 <= state.current < n, f"current player {state.current} is no seat (0 to {n - 1})")
    _need(state.turn >= 0, f"turn {state.turn} is negative")
    _need(state.extra_turns >= 0, f"{state.extra_turns} extra turns is negative")

    # -- the decisions' kinds, players and order (the places below depend on them)
    stack, queue = state.stack, state.queue
    kinds = state.game.kinds  # the decision kinds this game asks
    for k, pend in enumerate(stack):
        _need(pend.kind in kinds, f"stack[{k}]: unknown decision {_show(pend.kind)}")
        _need(0 <= pend.player < n, f"stack[{k}] ({pend.kind}): player {pend.player} is no "
              f"seat (0 to {n - 1})")
    # A decision that holds the game's end open (Exploration's winter reprieve) is the
    # state class's to check (_check_more); the game below it goes on as checked here.
    held = state._end_held()
    if held:
        stack = stack[:-1]
    _need(len(stack) <= 2, f"{len(stack)} decisions stacked (at most a Mole and a payment, "
          "or two free plays)")
    if len(stack) == 2:
        _need(stack[0].kind == D_MOLE and stack[1].kind == D_PAY
              or stack[0].kind == D_FREE and stack[1].kind == D_FREE,
              f"{article(stack[1].kind)} decision above {article(stack[0].kind)} one "
              "(only a payment goes above a Mole, a free play above a free play)")

    # -- every card in exactly one place
    places: dict[int, str] = {}
    winter_ok = ("deck", "winter", "box")

    def put(cid: int, where: str) -> None:
        if not (type(cid) is int and cid in ctx.ids):
            raise _broken(f"{where} holds {_show(cid)}, which is not a card id ({ctx.id_range})")
        first = places.get(cid)
        if first is not None:
            raise _broken(f"card {cid} is in two places: {first} and {where}")
        places[cid] = where
        if cid in ctx.winter:
            if where not in winter_ok:
                raise _broken(f"winter card {cid} is in {where} (winter cards are only in "
                              "the deck, the winter pile or the box)")
        elif where == "winter":
            raise _broken(f"card {cid} in the winter pile is not a winter card")

    for c in state.deck:
        put(c, "deck")
    for c in state.box:
        put(c, "box")
    for c in state.clearing:
        put(c, "clearing")
    for c in state.winter:
        put(c, "winter")
    for i, hand in enumerate(state.hands):
        for c in hand:
            put(c, f"hand {i + 1}")
    for i, f in enumerate(state.forests):
        for j, t in enumerate(f.trees):
            if t.card is None:
                raise _broken(f"forest {i + 1} tree {j + 1} has no card")
            put(t.card, f"forest {i + 1} tree {j + 1}")
            for side in SIDES:
                for d in t.slots[side]:
                    if d.card is None:
                        raise _broken(f"forest {i + 1} tree {j + 1} {side}: a "
                                              "dweller without a card")
                    put(d.card, f"forest {i + 1} tree {j + 1} {side}")
    for i, cave in enumerate(state.caves):
        for c in cave:
            put(c, f"cave {i + 1}")
    for k, pend in enumerate(state.stack):
        if pend.kind == D_PAY:
            put(pend.card, "in play" if k == len(state.stack) - 1 else f"in play (stack {k})")
    for c, where in state._more_places():
        put(c, where)
    if len(places) != len(ctx.ids):
        missing = sorted(ctx.ids - places.keys())
        more = f" (and {len(missing) - 1} more cards)" if len(missing) > 1 else ""
        raise _broken(f"card {missing[0]} is nowhere{more}; every card of the deck "
                              "is in exactly one place")

    # -- sizes
    for i, hand in enumerate(state.hands):
        _need(len(hand) <= g.hand_limit, f"hand {i + 1} holds {len(hand)} cards (the hand "
              f"limit is {g.hand_limit})")
    _need(len(state.winter) <= g.winter_to_end,
          f"{len(state.winter)} winter cards revealed (the game ends at the "
          f"{_nth(g.winter_to_end)})")
    for i, (f, cave) in enumerate(zip(state.forests, state.caves, strict=True)):
        _need(f.cave == len(cave), f"forest {i + 1} counts {f.cave} cave cards, cave "
              f"{i + 1} holds {len(cave)}")
        for j, t in enumerate(f.trees):
            _check_slots(ctx, state, t, f"forest {i + 1} tree {j + 1}")
    for i, (known, hand) in enumerate(zip(state.known, state.hands, strict=True)):
        extra = sorted(set(known) - set(hand))
        _need(not extra, f"card {extra[0] if extra else 0} is seen in hand {i + 1} but is "
              f"not in it")
    _seen_in(state.box_seen, state.box, "the box")
    _need(len(state.caves_seen) == n, f"{len(state.caves_seen)} caves_seen for {n} players "
          "(one each)")
    for i, (seen, cave) in enumerate(zip(state.caves_seen, state.caves, strict=True)):
        _seen_in(seen, cave, f"cave {i + 1}")
    for i, a in enumerate(state.active):
        for m in g.mushrooms:
            v: Any = a.get(m)
            most = ctx.mushroom_counts[m]
            if not (type(v) is int and 0 <= v <= most):
                raise _broken(f"player {i + 1} has {_show(v)} active {m} (0 to {most})")

    # -- the end of the game
    if state.over:
        _need(len(state.winter) == g.winter_to_end,
              f"the game is over with {len(state.winter)} winter cards revealed (it ends at "
              f"the {_nth(g.winter_to_end)})")
        _need(not stack and not queue, "the game is over but decisions or steps are pending")
    else:
        _need(len(state.winter) < g.winter_to_end or held,
              f"{len(state.winter)} winter cards are revealed but the game is not over")
        _need(bool(stack), "the game is not over but no decision is pending")

    # -- each decision
    for k, pend in enumerate(stack):
        where = f"stack[{k}] ({pend.kind})"
        if pend.kind == D_MULLIGAN:
            _need(0 <= pend.need < n and pend.player == (state.first_player + pend.need) % n,
                  f"{where}: player {pend.player + 1} is not the one to decide a mulligan")
            _need(state.turn == 0, f"{where}: a mulligan after the first turn began")
        else:
            _need(pend.player == state.current,
                  f"{where}: player {pend.player + 1} decides in player "
                  f"{state.current + 1}'s turn")
        if pend.kind == D_DRAW:
            _need(len(state.hands[pend.player]) < g.hand_limit,
                  f"{where}: a second card to draw with {g.hand_limit} cards in hand")
        if pend.kind in (D_MULLIGAN, D_TURN, D_DRAW):
            _need(not queue, f"{where}: steps are queued before {article(pend.kind)} decision")
        if pend.kind == D_PAY:
            _check_pay(ctx, state, pend, where, stack[0] if k > 0 else None)
        elif pend.kind == D_OPTION:
            _need(pend.step is not None, f"{where}: no step is offered")
            assert pend.step is not None
            _check_step(ctx, pend.step, f"{where} step")
        elif pend.kind == D_FREE:
            _need(not pend.tag or all(t in TAGS for t in pend.tag.split("|"))
                  or pend.tag in g.catalog.species,
                  f"{where}: unknown tag {_show(pend.tag)}")
            _need(pend.need == -1 or pend.need >= 1,
                  f"{where}: {pend.need} free plays left")
        elif pend.kind == D_RACCOON:
            _ascending(pend.paid, where)
            under = set(state.caves[pend.player])
            for c in pend.paid:
                _need(c in under, f"{where}: card {c} was put under the cave but is not there")
        elif pend.kind == D_MOLE:
            _need(pend.pool is not None, f"{where}: the Mole has no pool of cards")
            for c in pend.pool or ():
                if not (type(c) is int and c in ctx.ids):
                    raise _broken(f"{where}: pool holds {_show(c)}, not a card id")
            for j, step in enumerate(pend.steps):
                _check_step(ctx, step, f"{where} steps[{j}]")
        elif pend.kind in (D_TAKE, D_CLEARING_CAVE):
            _need(1 <= pend.need <= len(state.clearing),
                  f"{where}: {pend.need} cards to choose from a clearing of "
                  f"{len(state.clearing)}")
            if pend.kind == D_TAKE:
                _need(len(state.hands[pend.player]) < g.hand_limit,
                      f"{where}: a card to take with {g.hand_limit} cards in hand")
            else:
                _ascending(pend.paid, where)
                last = pend.paid[-1] if pend.paid else 0
                left = sum(1 for c in state.clearing if c > last)
                _need(left >= pend.need, f"{where}: {pend.need} clearing cards to choose above "
                      f"card {last}, {left} lie there")
        elif pend.kind == D_SAPLINGS:
            _need(bool(state.hands[pend.player]), f"{where}: no hand card to play as a sapling")
    if stack and stack[-1].kind == D_TURN:
        _need(len(state.clearing) < g.clearing_limit,
              f"the clearing holds {len(state.clearing)} cards at the start of a turn (it is "
              f"emptied when it reaches {g.clearing_limit})")
    if not state.over and state.turn == 0:
        _need(stack[-1].kind in state.SETUP_KINDS,
              f"turn 0 is not {article(' or '.join(sorted(state.SETUP_KINDS)))} decision")
    state._check_more()
    for j, step in enumerate(queue):
        _check_step(ctx, step, f"queue[{j}]")


def _nth(n: int) -> str:
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n if n < 20 else n % 10, 'th') }"


_HOST_SHARING = frozenset({"host_slot_sharing", "host_species_sharing"})


def _check_slots(ctx: _Ctx, state: GameState, t: Host, where: str) -> None:
    """The slots of a host as the card data lets them fill (:meth:`Host.accepts`)."""
    if t.card is not None and t.species is not None:
        _need(t.species is ctx.game.catalog.card(t.card).species,
              f"{where}: card {t.card} is not {article(t.species.name)}")
    probe = Host(t.species, t.card, kind=t.kind, symbol=t.symbol)
    joins = state.rules.counts_as_joins_stack
    # Fill in the order the data allows: a host permanent (Nettle, Dartmoor Badger) lets a
    # slot stack, so it is laid first.
    order = SIDES if not ctx.host_share else sorted(SIDES, key=lambda sd: not any(
        d.species.permanent is not None and d.species.permanent.op in _HOST_SHARING
        for d in t.slots[sd]))
    for side in order:
        for d in t.slots[side]:
            if not probe.accepts(d.species, side, joins):
                raise _broken(f"{where} {side}: {d.species.name} cannot join "
                              f"{probe.slots[side][-1].species.name} in one slot")
            probe.slots[side].append(d)


def _ascending(paid: list[int], where: str) -> None:
    for a, b in zip(paid, paid[1:], strict=False):
        _need(a < b, f"{where}: cards are paid in ascending order, not {a} then {b}")


def _check_pay(ctx: _Ctx, state: GameState, pend: Pending, where: str,
               below: Pending | None) -> None:
    card = ctx.cards[pend.card]
    assert card is not None
    forest = state.forests[pend.player]
    if card.is_host:
        _need(pend.side == "" and pend.tree == -1,
              f"{where}: {card.kind} card {card.id} is played as a host, not into a slot")
        sp = card.species
    else:
        _need(pend.side in card.halves,
              f"{where}: card {card.id} has no {_show(pend.side)} half")
        _need(0 <= pend.tree < len(forest.trees),
              f"{where}: there is no tree {pend.tree + 1} in forest {pend.player + 1}")
        sp = card.halves[pend.side].species
        _need(forest.trees[pend.tree].accepts(sp, pend.side, state.rules.counts_as_joins_stack),
              f"{where}: the {pend.side} slot of tree {pend.tree + 1} is taken")
    assert sp is not None
    if pend.via == VIA_TURN:
        _need(below is None and pend.pool is None, f"{where}: a turn's play under a Mole")
    elif pend.via == VIA_MOLE:
        _need(below is not None and below.kind == D_MOLE and pend.pool == below.pool,
              f"{where}: a play through the Mole without its Mole")
    else:
        raise _broken(f"{where}: a play via {_show(pend.via)} is never paid for")
    _need(pend.need >= 1 and pend.need + len(pend.paid) == sp.cost,
          f"{where}: {len(pend.paid)} paid and {pend.need} to pay for {sp.name}, which "
          f"costs {sp.cost}")
    _ascending(pend.paid, where)
    last = pend.paid[-1] if pend.paid else 0
    left = sum(1 for c in state.hands[pend.player]
               if c > last and (pend.pool is None or c in pend.pool))
    _need(left >= pend.need, f"{where}: {pend.need} cards still to pay above card {last}, "
          f"the hand holds {left}")
    clearing = set(state.clearing)
    for c in pend.paid:
        _need(c in clearing, f"{where}: card {_show(c)} was paid but is not in the clearing")
        _need(pend.pool is None or c in pend.pool,
              f"{where}: card {c} was paid but was not in hand when the Mole was played")


def _check_step(ctx: _Ctx, step: tuple[str, int, str, str], where: str) -> None:
    kind, cid, side, name = step
    _need(kind in (S_EFFECT, S_BONUS, S_MUSHROOM), f"{where}: unknown step {_show(kind)}")
    _need(_is_int(cid) and cid in ctx.ids, f"{where}: {_show(cid)} is not a card id")
    card = ctx.cards[cid]
    assert card is not None
    _need(not card.is_winter, f"{where}: card {cid} is a winter card")
    played: Species | None
    if side:
        _need(side in card.halves, f"{where}: card {cid} has no {_show(side)} half")
        played = card.halves[side].species
    else:
        played = card.species  # a tree, or (for a Chanterelle) a sapling
    sp = ctx.game.catalog.species.get(name)
    _need(sp is not None, f"{where}: unknown species {_show(name)}")
    assert sp is not None
    if kind == S_MUSHROOM:
        _need(sp.permanent is not None and sp.permanent.op == "draw_on_play",
              f"{where}: {sp.name} draws no card when cards are played")
    else:
        _need(played is sp, f"{where}: card {cid} {side or 'tree'} is not {article(sp.name)}")
        eff = sp.effect if kind == S_EFFECT else sp.bonus
        _need(eff is not None, f"{where}: {sp.name} has no {kind}")
