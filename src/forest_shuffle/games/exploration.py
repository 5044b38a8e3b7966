"""Exploration's effect ops, each declared once (:class:`~forest_shuffle.cards.ops.OpDecl`).

Contract: importing this module registers the ops the ``exploration`` data module uses
beyond the base family's (``engine/effects.py``), as Dartmoor's module registers its own.
Four have their engine rule: ``draw_per_tree`` (draw one card per tree of the forest,
saplings included, up to the hand limit), ``tree_to_sapling_free_play`` (the tree whose
top slot holds the card turns face down into a sapling, keeping its slots; then a free
play of any hand card, without its effect or bonus), ``hands_to_clearing`` (from each
other hand, left first, cards taken at random into the clearing) and ``discards_to_deck``
(cards seen leaving the game from the clearing, shuffled, onto the deck). Chance after
setup comes from a sub-seed of the game's seed (:func:`chance`). The permanent
``winter_reprieve`` is declared for the data but has no engine rule yet: no game id uses
it (``docs/exploration.md``). No species is named here: which card does what comes from
the data.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from forest_shuffle.cards.forest import SAPLING, TREE, Host
from forest_shuffle.cards.model import Effect
from forest_shuffle.cards.ops import OpDecl, register_op
from forest_shuffle.cards.words import count as cards_word
from forest_shuffle.engine.effects import FREE_PLAY_VALUE
from forest_shuffle.engine.setup import KEYED, Shuffler, derive, shuffler
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

# ------------------------------------------------------------ chance after setup


def chance(s: GameState, label: str) -> Shuffler:
    """A shuffler for a draw of chance during the game: a sub-seed of the game's seed for
    ``label`` and the point of the game (so the seed and the actions still make the same
    game), as Dartmoor's solo automa reshuffles. A bot's sampled world has seed 0, so what
    it plays out is its own guess, never the real outcome."""
    return shuffler(derive(s.seed, f"{label} {s.turn} {s.current} {len(s.history)}"), KEYED)


def _hands_possible(s: GameState, eff: Effect) -> bool:
    p = s.current
    return any(s.hands[q] for q in range(s.num_players) if q != p)


def _hands_to_clearing(s: GameState, eff: Effect) -> None:
    """From each other player's hand, from the current player's left on, ``n`` cards taken
    blind (at random) into the clearing, face up."""
    p = s.current
    rng = chance(s, "hands to clearing")
    for k in range(1, s.num_players):
        q = (p + k) % s.num_players
        hand = s.hands[q]
        for _ in range(min(int(eff.params["n"]), len(hand))):
            pick = sorted(hand)  # blind: the order of a hand tells nothing
            rng.shuffle(pick)
            hand.remove(pick[0])
            s.known[q].discard(pick[0])
            s.clearing.append(pick[0])


def _discards_possible(s: GameState, eff: Effect) -> bool:
    return bool(s.box_seen)


def _discards_to_deck(s: GameState, eff: Effect) -> None:
    """``n`` of the cards every player saw leave the game from the clearing (``box_seen``),
    shuffled, face down onto the deck (all of them when fewer)."""
    pile = sorted(s.box_seen)
    chance(s, "discards to deck").shuffle(pile)
    back = pile[:int(eff.params["n"])]
    gone = set(back)
    s.box[:] = [c for c in s.box if c not in gone]
    s.box_seen = tuple(c for c in s.box_seen if c not in gone)
    s.deck.extend(back)


register_op(OpDecl(
    "hands_to_clearing", ("n",), None, _hands_possible, _hands_to_clearing,
    words=lambda e, tw: (f"Take {cards_word(int(e.get('n', 1)))} at random from each other "
                         "player's hand, starting on your left, into the clearing"),
    value=lambda e, c, hand, room: 0.5))
register_op(OpDecl(
    "discards_to_deck", ("n",), None, _discards_possible, _discards_to_deck,
    words=lambda e, tw: (f"Shuffle the cards that left the game from the clearing and put "
                         f"{cards_word(int(e.get('n', 1)))} of them on top of the deck"),
    value=lambda e, c, hand, room: 0.5))

# ------------------------------------------------------------ declared, no engine rule yet

register_op(OpDecl(
    "winter_reprieve", ("times",),
    words=lambda e, tw: ("Once: when the third winter card comes up, you may shuffle it "
                         "back into the deck"),
    permanent=True))

__all__ = ["chance", "host_holding", "trees_of", "turn_into_sapling"]

