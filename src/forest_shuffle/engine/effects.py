"""The base family's effect ops, each declared once (:class:`~forest_shuffle.cards.ops.OpDecl`).

Contract: importing this module registers every op of the base game and its expansions
(Alpine, Woodland Edge): its parameters and their checks, when a queued step of it can
change something, how it applies to a :class:`~forest_shuffle.engine.state.GameState`,
the decision kinds it pushes, its words and the greedy bot's value of it. The engine's
queue reaches them through its definition's table (``GameDef.ops``), never by name; a
game's own ops are registered by its module the same way (``games/dartmoor_state.py``).
No species is named here: what an op does with which cards comes from its parameters.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from forest_shuffle.cards.model import (
    NEXT_TURN,
    PERMANENT_FROM,
    SIDES,
    TRIGGERS,
    Card,
    Effect,
)
from forest_shuffle.cards.ops import OpDecl, Say, register_op
from forest_shuffle.cards.words import article
from forest_shuffle.engine.state import (
    D_CLEARING_CAVE,
    D_FREE,
    D_MOLE,
    D_RACCOON,
    D_SAPLINGS,
    D_TAKE,
    GameState,
    Pending,
)

#: What the greedy bot counts a card placed by a free play as worth (points).
FREE_PLAY_VALUE: Final = 3.5

#: The triggers of ``draw_on_play`` in words ("Whenever ..., draw 1 card"), each a whole
#: message of the ``cards`` domain; ``tag played`` names its tag.
TRIGGER_WORDS: Final[Mapping[str, Callable[[Say, int], str]]] = {
    "tree card played": lambda w, n: w.ngettext(
        "Whenever you play a tree card, draw {n} card",
        "Whenever you play a tree card, draw {n} cards", n),
    "pawed animal played": lambda w, n: w.ngettext(
        "Whenever you play a pawed animal, draw {n} card",
        "Whenever you play a pawed animal, draw {n} cards", n),
    "card placed below a tree": lambda w, n: w.ngettext(
        "Whenever you place a card below a tree, draw {n} card",
        "Whenever you place a card below a tree, draw {n} cards", n),
    "card placed atop a tree": lambda w, n: w.ngettext(
        "Whenever you place a card atop a tree, draw {n} card",
        "Whenever you place a card atop a tree, draw {n} cards", n),
    "moor placed": lambda w, n: w.ngettext(
        "Whenever another moor enters your forest (a universal moor too), draw {n} card",
        "Whenever another moor enters your forest (a universal moor too), draw {n} cards",
        n),
}


def or_words(words: list[str]) -> str:
    """``a``, ``a or b``, ``a, b or c``."""
    if len(words) < 3:
        return " or ".join(words)
    return ", ".join(words[:-1]) + " or " + words[-1]


def _n(eff: Effect, key: str = "n") -> int:
    return int(eff.get(key, 1))


# ------------------------------------------------------------ draws


def draw_count(s: GameState, p: int, eff: Effect) -> int:
    """The cards a draw op of ``eff`` draws for ``p`` now (before the hand limit)."""
    op = eff.op
    if op == "draw_per_species":
        name = eff.params["species"]
        return sum(1 for t in s.forests[p].trees for side in SIDES
                   for d in t.slots[side] if name in d.species.counts_as)
    if op == "draw_per_tag":
        tag = eff.params["tag"]
        return sum(1 for t in s.forests[p].trees for side in SIDES
                   for d in t.slots[side] if tag in d.species.tags)
    n: int = eff.params["n"]
    return n


def _draw_possible(s: GameState, eff: Effect) -> bool:
    p = s.current
    return len(s.hands[p]) < s.game.hand_limit and draw_count(s, p, eff) > 0


def _draw_apply(s: GameState, eff: Effect) -> None:
    p = s.current
    s._draw_n(p, draw_count(s, p, eff))


def _draw_v(c: Any) -> float:
    v: float = c.draw_value()
    return v


register_op(OpDecl(
    "draw", ("n",), None, _draw_possible, _draw_apply,
    words=lambda e, w: w.ngettext("Draw {n} card", "Draw {n} cards", _n(e)),
    value=lambda e, c, hand, room: _draw_v(c) * min(int(e.params["n"]), room)))
register_op(OpDecl(
    "draw_per_species", ("species",), None, _draw_possible, _draw_apply,
    words=lambda e, w: w.gettext("Draw 1 card per {species} in your forest",
                                 species=w.name(str(e.get("species")))),
    value=lambda e, c, hand, room: _draw_v(c) * min(c.n_species(e.params["species"]), room)))
register_op(OpDecl(
    "draw_per_tag", ("tag",), None, _draw_possible, _draw_apply,
    words=lambda e, w: w.gettext("Draw 1 card per {tag} in your forest",
                                 tag=w(str(e.get("tag")), 1)),
    value=lambda e, c, hand, room: _draw_v(c) * min(c.dtags.get(e.params["tag"], 0), room)))


def _check_draw_on_play(params: Mapping[str, Any]) -> str:
    if params["trigger"] not in TRIGGERS:
        return f"unknown trigger {params['trigger']!r}"
    if (params["trigger"] == "tag played") != ("tag" in params):
        return "the trigger 'tag played' (only) takes a 'tag'"
    if params.get("from", NEXT_TURN) not in PERMANENT_FROM:
        return f"'from' must be one of {list(PERMANENT_FROM)}"
    return ""


def _draw_on_play_words(e: Effect, w: Say) -> str:
    trigger = str(e.get("trigger"))
    if trigger == "tag played":
        return w.ngettext("Whenever you play {a_tag}, draw {n} card",
                          "Whenever you play {a_tag}, draw {n} cards", _n(e),
                          a_tag=w.a(str(e.get("tag"))))
    said = TRIGGER_WORDS.get(trigger)
    if said is None:
        return w.ngettext("Whenever {trigger}, draw {n} card",
                          "Whenever {trigger}, draw {n} cards", _n(e), trigger=trigger)
    return said(w, _n(e))


# A permanent whose queued draws (one per card fired) are steps like any draw.
register_op(OpDecl("draw_on_play", ("trigger", "n"), _check_draw_on_play, _draw_possible,
                   _draw_apply, words=_draw_on_play_words))

# ------------------------------------------------------------ turns


def _extra_turn_possible(s: GameState, eff: Effect) -> bool:
    need = eff.params.get("requires_tag")
    return need is None or s._count_tag(s.current, need) > 0


def _extra_turn(s: GameState, eff: Effect) -> None:
    s.extra_turns += 1


def _extra_turn_words(e: Effect, w: Say) -> str:
    need = e.get("requires_tag")
    if need:
        return w.gettext("Take another turn if your forest holds {a_tag}", a_tag=w.a(str(need)))
    return w.gettext("Take another turn")


def _extra_turn_value(e: Effect, c: Any, hand: Sequence[int], room: int) -> float:
    need = e.params.get("requires_tag")
    if need is not None and not c.n_tag(need):
        return 0.0
    v: float = c.turn_value
    return v


def _always(s: GameState, eff: Effect) -> bool:
    return True


def _draw_and_extra_turn(s: GameState, eff: Effect) -> None:
    s.extra_turns += 1
    s._draw_n(s.current, eff.params["n"])


register_op(OpDecl("extra_turn", (), None, _extra_turn_possible, _extra_turn,
                   words=_extra_turn_words, value=_extra_turn_value))
register_op(OpDecl(
    "draw_and_extra_turn", ("n",), None, _always, _draw_and_extra_turn,
    words=lambda e, w: w.ngettext("Draw {n} card and take another turn",
                                  "Draw {n} cards and take another turn", _n(e)),
    value=lambda e, c, hand, room: (c.turn_value
                                    + _draw_v(c) * min(int(e.params["n"]), room))))

# ------------------------------------------------------------ free plays


def _free_what(eff: Effect) -> str:
    what: str = eff.params.get("tag") or eff.params["species"]
    return what


def _free_possible(s: GameState, eff: Effect) -> bool:
    return bool(s._placements(s.current, _free_what(eff), None))


def _check_free_play(params: Mapping[str, Any]) -> str:
    if ("tag" in params) == ("species" in params):
        return "op 'free_play' needs 'tag' or 'species'"
    return ""


def _free_play(s: GameState, eff: Effect) -> None:
    s.stack.append(Pending(D_FREE, s.current, tag=_free_what(eff), need=eff.params["count"]))


def _free_play_words(e: Effect, w: Say) -> str:
    n = _n(e, "count")
    if e.get("species") is not None:
        return w.ngettext("Place {n} {species} from your hand for free",
                          "Place {n} {species} from your hand for free", n,
                          species=w.name(str(e.get("species")), n))
    return w.ngettext("Place {n} {tag} from your hand for free",
                      "Place {n} {tag} from your hand for free", n,
                      tag=w(str(e.get("tag")), n))


def _free_play_value(e: Effect, c: Any, hand: Sequence[int], room: int) -> float:
    n: int = c.hand_fits(hand, _free_what(e))
    return FREE_PLAY_VALUE * min(n, int(e.params.get("count", 1)))


def _free_play_any(s: GameState, eff: Effect) -> None:
    s.stack.append(Pending(D_FREE, s.current, tag=eff.params["tag"], need=-1))


def _free_each_possible(s: GameState, eff: Effect) -> bool:
    p = s.current
    return any(s._placements(p, t, None) for t in eff.params["tags"])


def _free_play_each(s: GameState, eff: Effect) -> None:
    p = s.current
    for tag in reversed(eff.params["tags"]):  # the first tag's play is offered first
        s.stack.append(Pending(D_FREE, p, tag=tag, need=1))
    s._skip_unplayable_free(p)


def _free_each_words(e: Effect, w: Say) -> str:
    each = w.pgettext("list", ", then ").join(
        w.gettext("1 {tag}", tag=w(str(t), 1)) for t in e.get("tags", ()))
    return w.gettext("Place {each} from your hand for free", each=each)


register_op(OpDecl("free_play", ("count",), _check_free_play, _free_possible, _free_play,
                   (D_FREE,), _free_play_words, _free_play_value))
register_op(OpDecl(
    "free_play_any", ("tag",), None, _free_possible, _free_play_any, (D_FREE,),
    lambda e, w: w.gettext("Place any number of {tags} from your hand for free",
                           tags=w(str(e.get("tag")), 2)),
    lambda e, c, hand, room: FREE_PLAY_VALUE * c.hand_fits(hand, _free_what(e))))
register_op(OpDecl(
    "free_play_each", ("tags",), None, _free_each_possible, _free_play_each, (D_FREE,),
    _free_each_words,
    lambda e, c, hand, room: FREE_PLAY_VALUE * sum(min(1, c.hand_fits(hand, tag))
                                                   for tag in e.params["tags"])))

# ------------------------------------------------------------ the clearing


def _clearing_to_cave_possible(s: GameState, eff: Effect) -> bool:
    tags = eff.params.get("tags")
    if tags is not None:
        cards: tuple[Card, ...] = s.game.cards
        return any(cards[c].tags & set(tags) for c in s.clearing)
    return bool(s.clearing)


def _clearing_to_cave(s: GameState, eff: Effect) -> None:
    p = s.current
    params = eff.params
    if "n" in params:
        need = min(int(params["n"]), len(s.clearing))
        s.stack.append(Pending(D_CLEARING_CAVE, p, need=need))
    elif "tags" in params:
        tags = set(params["tags"])
        cards: tuple[Card, ...] = s.game.cards
        moved = [c for c in s.clearing if cards[c].tags & tags]
        s.clearing[:] = [c for c in s.clearing if c not in moved]
        s._clearing_to_cave(p, moved)
    else:
        s._clearing_to_cave(p, s.clearing[:])
        s.clearing.clear()


def _clearing_to_cave_words(e: Effect, w: Say) -> str:
    if e.get("n") is not None:
        return w.ngettext("Put {n} card of the clearing of your choice under your cave",
                          "Put {n} cards of the clearing of your choice under your cave",
                          int(e.get("n")))
    tags = [str(t) for t in e.get("tags") or ()]
    if tags:
        a_tags = (article(or_words(tags)) if w.lang == "en"
                  else w.either([w.a(t) for t in tags]))
        return w.gettext("Put every card of the clearing showing {a_tags} under your cave",
                         a_tags=a_tags)
    return w.gettext("Put every card in the clearing under your cave")


def _clearing_to_cave_value(e: Effect, c: Any, hand: Sequence[int], room: int) -> float:
    clearing = c.clearing
    params = e.params
    if "tags" in params:
        tags = set(params["tags"])
        card_tags = c.t.card_tags
        n = sum(1 for x in clearing if card_tags[x] & tags)
    elif "n" in params:
        n = min(int(params["n"]), len(clearing))
    else:
        n = len(clearing)
    v: float = c.cave_points * n
    return v


def _any_clearing(s: GameState, eff: Effect) -> bool:
    return bool(s.clearing)


def _clearing_removed(s: GameState, eff: Effect) -> None:
    s._clearing_to_box()


def _take_possible(s: GameState, eff: Effect) -> bool:
    return len(s.hands[s.current]) < s.game.hand_limit and bool(s.clearing)


def _take_from_clearing(s: GameState, eff: Effect) -> None:
    s.stack.append(Pending(D_TAKE, s.current, need=int(eff.params["n"])))


def _to_hand_possible(s: GameState, eff: Effect) -> bool:
    if len(s.hands[s.current]) >= s.game.hand_limit:
        return False
    tag = eff.params["tag"]
    cards: tuple[Card, ...] = s.game.cards
    return any(tag in cards[c].tags for c in s.clearing)


def _clearing_to_hand(s: GameState, eff: Effect) -> None:
    p = s.current
    tag = eff.params["tag"]
    hand = s.hands[p]
    cards: tuple[Card, ...] = s.game.cards
    wanted = [c for c in s.clearing if tag in cards[c].tags]
    room = s.game.hand_limit - len(hand)
    if len(wanted) > room:  # not all fit: the player chooses which
        s.stack.append(Pending(D_TAKE, p, need=room, tag=tag))
    else:
        for c in wanted:
            s.clearing.remove(c)
            hand.append(c)
            s.known[p].add(c)


def _clearing_to_hand_value(e: Effect, c: Any, hand: Sequence[int], room: int) -> float:
    tag = e.params["tag"]
    card_tags = c.t.card_tags
    n = sum(1 for x in c.clearing if tag in card_tags[x])
    return 1.2 * _draw_v(c) * min(n, room)


register_op(OpDecl("clearing_to_cave", (), None, _clearing_to_cave_possible,
                   _clearing_to_cave, (D_CLEARING_CAVE,), _clearing_to_cave_words,
                   _clearing_to_cave_value))
register_op(OpDecl("clearing_removed", (), None, _any_clearing, _clearing_removed,
                   words=lambda e, w: w.gettext("Remove every card in the clearing from the "
                                                "game")))
register_op(OpDecl(
    "take_from_clearing", ("n",), None, _take_possible, _take_from_clearing, (D_TAKE,),
    lambda e, w: w.ngettext("Take {n} card of your choice from the clearing into your hand",
                            "Take {n} cards of your choice from the clearing into your hand",
                            _n(e)),
    lambda e, c, hand, room: 1.3 * _draw_v(c) * min(int(e.params["n"]), room)))
register_op(OpDecl(
    "clearing_to_hand", ("tag",), None, _to_hand_possible, _clearing_to_hand, (D_TAKE,),
    lambda e, w: w.gettext("Take every {tag} of the clearing into your hand, up to the hand "
                           "limit", tag=w(str(e.get("tag")), 1)),
    _clearing_to_hand_value))

# ------------------------------------------------------------ the hand


def _any_hand(s: GameState, eff: Effect) -> bool:
    return bool(s.hands[s.current])


def _saplings_any(s: GameState, eff: Effect) -> None:
    s.stack.append(Pending(D_SAPLINGS, s.current))


def _hand_to_cave_redraw(s: GameState, eff: Effect) -> None:
    s.stack.append(Pending(D_RACCOON, s.current))


def _mole_possible(s: GameState, eff: Effect) -> bool:
    p = s.current
    return bool(s._mole_plays(p, frozenset(s.hands[p])))


def _play_any_number_paying(s: GameState, eff: Effect) -> None:
    p = s.current
    s.stack.append(Pending(D_MOLE, p, pool=frozenset(s.hands[p])))


register_op(OpDecl(
    "saplings_any", (), None, _any_hand, _saplings_any, (D_SAPLINGS,),
    lambda e, w: w.gettext("Place any number of hand cards face down as saplings for free"),
    lambda e, c, hand, room: 2.5 * (1.0 - 0.6 * c.late)))
register_op(OpDecl(
    "hand_to_cave_redraw", (), None, _any_hand, _hand_to_cave_redraw, (D_RACCOON,),
    lambda e, w: w.gettext("Put any number of hand cards under your cave, then draw as many"),
    lambda e, c, hand, room: 2.5))
register_op(OpDecl(
    "play_any_number_paying", (), None, _mole_possible, _play_any_number_paying, (D_MOLE,),
    lambda e, w: w.gettext("Play any number of further cards from your hand, paying their "
                           "costs"),
    lambda e, c, hand, room: 2.0))

# ------------------------------------------------------------ permanents (never steps)


def _slot_sharing_words(e: Effect, w: Say) -> str:
    most = e.get("max_per_slot")
    if most is None:
        return w.gettext("Any number of this species may share one slot")
    return w.gettext("Up to {most} of this species may share one slot", most=most)


def _host_slot_sharing_words(e: Effect, w: Say) -> str:
    most = e.get("max_per_slot")
    tags = w(str(e.get("tag")), 2)
    side = w.side(str(e.get("side")))
    if most is None:
        return w.gettext("Any number of {tags} may share the {side} slot of the tree or shrub "
                         "it sits at", tags=tags, side=side)
    return w.gettext("Up to {most} {tags} may share the {side} slot of the tree or shrub it "
                     "sits at", most=most, tags=tags, side=side)


def _check_side(params: Mapping[str, Any]) -> str:
    return "" if params["side"] in SIDES else f"unknown side {params['side']!r}"


register_op(OpDecl("slot_sharing", ("max_per_slot",), words=_slot_sharing_words,
                   permanent=True))
register_op(OpDecl("host_slot_sharing", ("tag", "side", "max_per_slot"), _check_side,
                   words=_host_slot_sharing_words, permanent=True))
register_op(OpDecl(
    "tree_count_modifier", ("plus",),
    words=lambda e, w: w.gettext("Counts as +{plus} tree of the species it sits at",
                                 plus=e.get("plus", 1)),
    permanent=True))


__all__ = ["FREE_PLAY_VALUE", "TRIGGER_WORDS", "draw_count", "or_words"]
