"""Exploration's effect ops, each declared once (:class:`~forest_shuffle.cards.ops.OpDecl`).

Contract: importing this module registers the ops the ``exploration`` data module uses
beyond the base family's (``engine/effects.py``), as Dartmoor's module registers its own.
Two have their engine rule: ``draw_per_tree`` (draw one card per tree of the forest,
saplings included, up to the hand limit) and ``tree_to_sapling_free_play`` (the tree whose
top slot holds the card turns face down into a sapling, keeping its slots; then a free
play of any hand card, without its effect or bonus). Three are declared for the data but
have no engine rule yet (``hands_to_clearing``, ``discards_to_deck``, the permanent
``winter_reprieve``): resolving one raises :class:`NotImplementedError` naming it, so no
game plays them silently; no game id uses them (``docs/exploration.md``). No species is
named here: which card does what comes from the data.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from forest_shuffle.cards.forest import SAPLING, TREE, Host
from forest_shuffle.cards.model import Effect
from forest_shuffle.cards.ops import OpDecl, register_op
from forest_shuffle.cards.words import count as cards_word
from forest_shuffle.engine.effects import FREE_PLAY_VALUE
from forest_shuffle.engine.state import D_FREE, GameState, Pending

# ------------------------------------------------------------ draw per tree


def trees_of(s: GameState, p: int) -> int:
    """The trees of p's forest (tree cards and saplings, not shrubs)."""
    return sum(1 for t in s.forests[p].trees if t.is_tree)


def _draw_per_tree_possible(s: GameState, eff: Effect) -> bool:
    p = s.current
    return len(s.hands[p]) < s.game.hand_limit and trees_of(s, p) > 0


def _draw_per_tree(s: GameState, eff: Effect) -> None:
    p = s.current
    s._draw_n(p, trees_of(s, p))


def _draw_per_tree_value(e: Effect, c: Any, hand: Sequence[int], room: int) -> float:
    v: float = c.draw_value() * min(c.n_tag("tree"), room)
    return v


register_op(OpDecl(
    "draw_per_tree", (), None, _draw_per_tree_possible, _draw_per_tree,
    words=lambda e, tw: "Draw 1 card per tree in your forest (saplings included)",
    value=_draw_per_tree_value))

# ------------------------------------------------------------ a tree turned into a sapling


def host_holding(s: GameState, p: int, eff: Effect) -> Host | None:
    """The tree card of p's forest whose top slot holds a card with this effect (the card
    whose effect resolves: a host it already turned is a sapling), or None."""
    for t in s.forests[p].trees:
        if t.kind == TREE and any(d.species.effect is eff for d in t.slots["top"]):
            return t
    return None


def turn_into_sapling(s: GameState, p: int, host: Host) -> None:
    """Turn a tree card of p's forest face down: a sapling with the same slots."""
    host.species = None
    host.kind = SAPLING
    host.symbol = ""
    s.forests[p].reindex()


def _sapling_possible(s: GameState, eff: Effect) -> bool:
    return host_holding(s, s.current, eff) is not None


def _tree_to_sapling_free_play(s: GameState, eff: Effect) -> None:
    p = s.current
    host = host_holding(s, p, eff)
    assert host is not None  # possible() said so
    turn_into_sapling(s, p, host)
    s.stack.append(Pending(D_FREE, p, tag="", need=int(eff.params["count"])))
    s._skip_unplayable_free(p)


def _sapling_value(e: Effect, c: Any, hand: Sequence[int], room: int) -> float:
    # the free play, less about what a tree card is worth over a sapling
    return FREE_PLAY_VALUE * min(1, len(hand)) - 1.0


register_op(OpDecl(
    "tree_to_sapling_free_play", ("count",), None, _sapling_possible,
    _tree_to_sapling_free_play, (D_FREE,),
    lambda e, tw: ("Turn the tree it sits on into a sapling, then place "
                   f"{cards_word(int(e.get('count', 1)))} from your hand for free"),
    _sapling_value))

# ------------------------------------------------------------ declared, no engine rule yet


def _no_rule(s: GameState, eff: Effect) -> bool:
    raise NotImplementedError(f"effect op {eff.op!r} has no engine rule yet "
                              "(docs/exploration.md)")


def _no_apply(s: GameState, eff: Effect) -> None:
    _no_rule(s, eff)


register_op(OpDecl(
    "hands_to_clearing", ("n",), None, _no_rule, _no_apply,
    words=lambda e, tw: (f"Take {cards_word(int(e.get('n', 1)))} from each other player's "
                         "hand, starting on your left, into the clearing")))
register_op(OpDecl(
    "discards_to_deck", ("n",), None, _no_rule, _no_apply,
    words=lambda e, tw: (f"Shuffle the cards that left the game and put "
                         f"{cards_word(int(e.get('n', 1)))} of them on top of the deck")))
register_op(OpDecl(
    "winter_reprieve", ("times",),
    words=lambda e, tw: ("Once: when the third winter card comes up, you may shuffle it "
                         "back into the deck"),
    permanent=True))

__all__ = ["host_holding", "trees_of", "turn_into_sapling"]
