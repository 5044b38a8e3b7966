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
``winter_reprieve`` (the O Christmas Tree's) is a rule of :class:`ExplorationState`, with
its decision kind ``winter reprieve`` (:data:`REPRIEVE`). No species is named here: which
card does what comes from the data.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from forest_shuffle.cards.forest import SAPLING, TREE, Host
from forest_shuffle.cards.model import Effect
from forest_shuffle.cards.ops import OpDecl, register_op
from forest_shuffle.engine.actions import CHOOSE, YES, Action
from forest_shuffle.engine.effects import FREE_PLAY_VALUE
from forest_shuffle.engine.game import BASE_DECISIONS
from forest_shuffle.engine.kinds import KindDecl, register_kind
from forest_shuffle.engine.refusals import Refusal
from forest_shuffle.engine.setup import KEYED, Shuffler, derive, shuffler
from forest_shuffle.engine.state import D_FREE, D_MULLIGAN, GameState, Pending
from forest_shuffle.engine.view import PlayerView
from forest_shuffle.games.dartmoor_state import D_CAVE_DRAFT

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
    words=lambda e, w: w.gettext("Draw 1 card per tree in your forest (saplings included)"),
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
    lambda e, w: w.ngettext("Turn the tree it sits on into a sapling, then place {n} card "
                            "from your hand for free",
                            "Turn the tree it sits on into a sapling, then place {n} cards "
                            "from your hand for free", int(e.get("count", 1))),
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
    words=lambda e, w: w.ngettext("Take {n} card at random from each other player's hand, "
                                  "starting on your left, into the clearing",
                                  "Take {n} cards at random from each other player's hand, "
                                  "starting on your left, into the clearing",
                                  int(e.get("n", 1))),
    value=lambda e, c, hand, room: 0.5))
register_op(OpDecl(
    "discards_to_deck", ("n",), None, _discards_possible, _discards_to_deck,
    words=lambda e, w: w.ngettext("Shuffle the cards that left the game from the clearing "
                                  "and put {n} card of them on top of the deck",
                                  "Shuffle the cards that left the game from the clearing "
                                  "and put {n} cards of them on top of the deck",
                                  int(e.get("n", 1))),
    value=lambda e, c, hand, room: 0.5))

# ------------------------------------------------------------ the winter reprieve

#: The op of a permanent that may put the third winter card back into the deck (its
#: ``times``: how often each card may).
REPRIEVE_OP: Final = "winter_reprieve"
#: The decision kind that asks a reprieve's owner (``Pending.card``: the card; ``tree``:
#: its place in the owner's forest; ``paid``: the cards whose owners said no to this
#: winter card).
D_REPRIEVE: Final = "winter reprieve"

register_op(OpDecl(
    REPRIEVE_OP, ("times",),
    words=lambda e, w: w.gettext("Once: when the third winter card comes up, you may shuffle "
                                 "it back into the deck"),
    kinds=(D_REPRIEVE,),
    permanent=True))

# ------------------------------------------------------------ the cave draft


class ExplorationState(GameState):
    """A game of the base family with Exploration's named caves (``Catalog.named_caves``).

    Contract: after the opening hands, every named cave lies face up and each player, in
    reverse turn order (the first player's right-hand neighbour first, the first player
    last), chooses one (decision ``cave draft``, action ``choose N``: N the cave's number,
    its place in ``caves.json``); the caves no one chose go back to the box; then the
    mulligans and the first turn, as in the base game. A forest's ``cave_number`` names
    its cave, which the scorer scores by its rule. Saves add ``cave_offer``, ``drafted``
    and each forest's ``cave_number``; views show the offer (``cave_offer``) and the
    caves chosen so far (``setup``: how many).

    The winter reprieve (a permanent of op :data:`REPRIEVE_OP`, the O Christmas Tree's):
    when the card that would end the game (the third winter card) comes up while a tree of
    such a species with a use left stands in a forest (a tree card, not turned into a
    sapling), the card is laid on the winter pile but the game goes on to the end of the
    action; then the owner is asked (decision :data:`D_REPRIEVE`, ``yes``/``no``, pushed on
    top of whatever comes next). Yes shuffles that winter card back into the deck (with
    :func:`chance`) and uses the tree; no ends the game, unless another player owns such a
    tree: then that player is asked. Reading: the tree's owner decides, whoever drew the
    card (the appendix: "while the O Christmas Tree is in your forest, you may").
    ``reprieves`` (the cards used, once per use) is saved, cloned, checked and shown in
    views."""

    __slots__ = ("cave_offer", "drafted", "reprieves", "reprieve_held")

    cave_offer: list[int]  # the numbers of the caves still offered during the draft
    drafted: int  # caves chosen so far (the draft is over at num_players)
    reprieves: list[int]  # the reprieve cards used, once per use, in order
    #: The card that would end the game came up during this action and an owner may put it
    #: back: asked when the action ends (False between actions).
    reprieve_held: bool

    SETUP_KINDS = frozenset({D_MULLIGAN, D_CAVE_DRAFT})

    def _after_deal(self, rng: Any) -> None:
        """Offer every named cave, then draft them."""
        self.cave_offer = list(range(1, len(self.game.catalog.named_caves) + 1))
        self.drafted = 0
        self._next_draft()

    def _reverse(self, i: int) -> int:
        """The i-th seat in reverse turn order."""
        n = self.num_players
        return (self.first_player + n - 1 - i) % n

    def _next_draft(self) -> None:
        """Ask the next player for a cave, or end the draft (the rest to the box) and offer
        the mulligans."""
        if self.drafted < self.num_players and self.cave_offer:
            p = self._reverse(self.drafted)
            self.current = p
            self.stack.append(Pending(D_CAVE_DRAFT, p, need=self.drafted))
            return
        self.cave_offer = []
        self.current = self.first_player
        self._offer_mulligans(0)

    # ------------------------------------------------------------ the winter reprieve

    def _winter_held(self) -> bool:
        """The card that would end the game is held when an owner may put it back: asked
        when the action ends (:meth:`apply_legal`)."""
        if not self.reprieve_held and self.reprieve_next(()) is not None:
            self.reprieve_held = True
            return True
        return False

    def apply_legal(self, action: Action) -> None:
        """As the base game's; then, when the action brought up a winter card an owner may
        put back, that owner's decision :data:`D_REPRIEVE` on top."""
        super().apply_legal(action)
        if self.reprieve_held:
            self.reprieve_held = False
            if not self.over:
                self._ask_reprieve(())

    def reprieve_uses(self, card: int) -> int:
        """How often ``card`` may still put the winter card back (its ``times`` less its
        uses)."""
        sp = self.game.cards[card].species
        eff = sp.permanent if sp is not None else None
        if eff is None or eff.op != REPRIEVE_OP:
            return 0
        return int(eff.params.get("times", 1)) - self.reprieves.count(card)

    def reprieve_next(self, declined: Sequence[int]) -> tuple[int, int, int] | None:
        """The next reprieve to offer as (player, card, tree index): a tree card of a
        species with the reprieve permanent and a use left, whose owner has not said no to
        this winter card (``declined``: cards of the owners who did), from the current
        player on in seat order; None when there is none."""
        n = self.num_players
        refused = {p for p in range(n) for t in self.forests[p].trees if t.card in declined}
        for k in range(n):
            p = (self.current + k) % n
            if p in refused:
                continue
            for i, t in enumerate(self.forests[p].trees):
                sp = t.species
                if (sp is not None and t.card is not None and sp.permanent is not None
                        and sp.permanent.op == REPRIEVE_OP and self.reprieve_uses(t.card) > 0):
                    return p, t.card, i
        return None

    def _ask_reprieve(self, declined: Sequence[int]) -> bool:
        """Push the next reprieve decision; False when no owner is left to ask."""
        nxt = self.reprieve_next(declined)
        if nxt is None:
            return False
        p, card, tree = nxt
        self.stack.append(Pending(D_REPRIEVE, p, card, "", tree, "", 0, list(declined)))
        self._legal = None
        return True

    def _end_held(self) -> bool:
        return bool(self.stack) and self.stack[-1].kind == D_REPRIEVE

    # ------------------------------------------------------------ copies, saves, views

    def _init_more(self, more: dict[str, Any] | None) -> None:
        """The caves offered, how many were chosen and the reprieves used (a new game:
        none, 0, none)."""
        self.reprieve_held = False
        if more is None:
            self.cave_offer = []
            self.drafted = 0
            self.reprieves = []
        else:
            self.cave_offer = more["cave_offer"]
            self.drafted = more["drafted"]
            self.reprieves = more["reprieves"]

    def _more_copy(self) -> dict[str, Any] | None:
        return {"cave_offer": self.cave_offer[:], "drafted": self.drafted,
                "reprieves": self.reprieves[:]}

    def to_dict(self) -> dict[str, Any]:
        d = super().to_dict()
        d["cave_offer"] = self.cave_offer[:]
        d["drafted"] = self.drafted
        d["reprieves"] = self.reprieves[:]
        for f, fd in zip(self.forests, d["forests"], strict=True):
            fd["cave_number"] = f.cave_number
        return d

    def _load_more(self, data: dict[str, Any]) -> None:
        self._init_more({"cave_offer": list(data["cave_offer"]),
                         "drafted": int(data["drafted"]),
                         "reprieves": [int(c) for c in data.get("reprieves", [])]})
        for f, fd in zip(self.forests, data["forests"], strict=True):
            f.cave_number = int(fd["cave_number"])

    @staticmethod
    def _check_save_more(data: Any) -> None:
        """The shape of what the draft adds to a save; BrokenSaveError naming the field."""
        from forest_shuffle.engine.check import BrokenSaveError

        def need(ok: bool, problem: str) -> None:
            if not ok:
                raise BrokenSaveError(f"broken saved game: {problem}")

        offer = data.get("cave_offer")
        need(isinstance(offer, list) and all(type(x) is int for x in offer),
             "cave_offer must be a list of cave numbers")
        need(type(data.get("drafted")) is int, "drafted must be an integer")
        used = data.get("reprieves", [])
        need(isinstance(used, list) and all(type(x) is int for x in used),
             "reprieves must be a list of card ids")
        for i, f in enumerate(data["forests"]):
            need(type(f.get("cave_number")) is int, f"forests[{i}].cave_number must be an "
                 "integer (0: no cave chosen yet)")

    def _check_more(self) -> None:
        from forest_shuffle.engine.check import BrokenSaveError

        def need(ok: bool, problem: str) -> None:
            if not ok:
                raise BrokenSaveError(f"broken saved game: {problem}")

        n = self.num_players
        caves = len(self.game.catalog.named_caves)
        need(0 <= self.drafted <= min(n, caves), f"drafted {self.drafted} (0 to {min(n, caves)})")
        chosen = [f.cave_number for f in self.forests if f.cave_number]
        numbers = chosen + self.cave_offer
        need(all(1 <= c <= caves for c in numbers), f"a cave number outside 1-{caves}")
        need(len(set(numbers)) == len(numbers), "a cave is in two places")
        need(len(chosen) == self.drafted, f"{len(chosen)} caves chosen, drafted says "
             f"{self.drafted}")
        for i in range(self.drafted):
            need(self.forests[self._reverse(i)].cave_number > 0,
                 f"player {self._reverse(i) + 1} has not chosen a cave")
        drafting = bool(self.stack) and self.stack[-1].kind == D_CAVE_DRAFT
        need(drafting == bool(self.cave_offer), "caves offered with no cave draft at hand")
        if drafting:
            need(self.turn == 0 and self.stack[-1].player == self._reverse(self.drafted),
                 "the cave draft out of reverse turn order or after the first turn")
        cards = self.game.cards
        for c in set(self.reprieves):
            need(0 < c < len(cards) and cards[c] is not None, f"reprieves: {c} is no card")
            need(self.reprieve_uses(c) >= 0, f"reprieves: card {c} has no winter reprieve "
                 "left to use")
        for k, pend in enumerate(self.stack[:-1]):
            need(pend.kind != D_REPRIEVE, f"stack[{k}]: a winter reprieve under another "
                 "decision")
        if self._end_held():
            pend = self.stack[-1]
            trees = self.forests[pend.player].trees
            need(len(self.winter) == self.game.winter_to_end,
                 f"a winter reprieve asked with {len(self.winter)} winter cards revealed")
            need(0 <= pend.tree < len(trees) and trees[pend.tree].card == pend.card
                 and trees[pend.tree].species is not None,
                 f"the winter reprieve's card {pend.card} is not tree {pend.tree + 1} of "
                 f"forest {pend.player + 1}")
            need(self.reprieve_uses(pend.card) > 0,
                 f"the winter reprieve of card {pend.card} is used up")

    def _load_view(self, view: PlayerView) -> None:
        self._init_more({"cave_offer": list(view.cave_offer), "drafted": max(view.setup, 0),
                         "reprieves": list(view.reprieves)})

    def _view_more(self) -> dict[str, Any]:
        return {"cave_offer": tuple(self.cave_offer), "setup": self.drafted,
                "reprieves": tuple(self.reprieves)}


def _draft_legal(s: GameState, pend: Pending) -> list[Action]:
    assert isinstance(s, ExplorationState)
    a_choose = s.game.a_choose
    return [a_choose[c] for c in sorted(s.cave_offer)]


def _draft_apply(s: GameState, pend: Pending, action: Action) -> bool:
    assert isinstance(s, ExplorationState)
    s.cave_offer.remove(action.card)
    s.forests[pend.player].cave_number = action.card
    s.drafted += 1
    s._next_draft()
    return False


def _draft_refuse(s: GameState, pend: Pending, action: Action) -> str:
    assert isinstance(s, ExplorationState)
    if action.kind != CHOOSE:
        return s._wrong_kind(pend.player, s._expected(pend), action.kind)
    return Refusal("cave {n} is not offered (offered: {offered})", n=action.card,
                   offered=str(sorted(s.cave_offer)))


def _reprieve_legal(s: GameState, pend: Pending) -> list[Action]:
    return [s.game.a_yes, s.game.a_no]


def _reprieve_apply(s: GameState, pend: Pending, action: Action) -> bool:
    """Yes: the winter card back into the deck, shuffled, and the card's use counted; no:
    the next owner is asked, or the game ends."""
    assert isinstance(s, ExplorationState)
    if action.kind == YES:
        s.deck.append(s.winter.pop())
        chance(s, "winter reprieve").shuffle(s.deck)
        s.reprieves.append(pend.card)
    elif not s._ask_reprieve([*pend.paid, pend.card]):
        s._end_game()
    return False


def _reprieve_ask(s: GameState, pend: Pending) -> str:
    sp = s.game.cards[pend.card].species
    name = sp.printed if sp is not None else f"card {pend.card}"
    return (f"yes or no (shuffle the winter card that ends the game back into the deck: "
            f"your {name}, tree {pend.tree + 1}, may do it once; no ends the game)")


def _reprieve_refuse(s: GameState, pend: Pending, action: Action) -> str:
    return s._wrong_kind(pend.player, s._expected(pend), action.kind)


#: The winter reprieve's question (an op's kind: games whose cards have the op ask it).
REPRIEVE: Final = register_kind(KindDecl(
    D_REPRIEVE, _reprieve_legal, _reprieve_apply, "yes or no (a winter reprieve)",
    ask=_reprieve_ask, refuse=_reprieve_refuse, obs=15))

#: Exploration's way of the ``cave draft`` (Dartmoor registers the kind for its state
#: class; a game with Exploration's caves passes this one in ``make_def(decisions=...)``).
CAVE_DRAFT: Final = KindDecl(
    D_CAVE_DRAFT, _draft_legal, _draft_apply,
    "choose (a cave, in the draft before the first turn)", refuse=_draft_refuse, obs=11)

#: The decision kinds a game with Exploration asks whatever its cards.
DECISIONS: Final[tuple[str | KindDecl, ...]] = (*BASE_DECISIONS, CAVE_DRAFT)

__all__ = ["CAVE_DRAFT", "DECISIONS", "D_REPRIEVE", "REPRIEVE", "REPRIEVE_OP",
           "ExplorationState", "chance", "host_holding", "trees_of", "turn_into_sapling"]

