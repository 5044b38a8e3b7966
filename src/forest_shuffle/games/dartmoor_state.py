"""Forest Shuffle: Dartmoor's turn, as a state class the Dartmoor definition names.

Contract: :class:`DartmoorState` is a :class:`~forest_shuffle.engine.state.GameState` (the
same contract: legal actions, apply, clone, views, save and load) that overrides only
where Dartmoor differs (docs/dartmoor.md, "Engine"):

- setup: no mulligans; one numbered cave per player is dealt into the clearing
  (:attr:`cave_offer`), in reverse turn order each player chooses one (``choose N``), then
  in reverse turn order each resolves its start effect (``moor C``, ``discard C`` where it
  asks for cards), then the first player's turn begins;
- the turn: draw two (deck or clearing, one at a time; the hand limit stops it) or play a
  card; no saplings. A player who can do neither shows the hand, discards 2 cards into
  the clearing and draws 2 (a ``discard`` decision);
- only tree cards reveal a deck card into the clearing; a clearing of 10 or more at the
  end of a turn goes to the discard pile (:attr:`discard`, public);
- moors are hosts (two top and two bottom slots, :meth:`Host.accepts`); universal moors
  come only from the ``universal_moor`` op (``moor C``: a hand card face down);
- every op of docs/dartmoor.md, each offered as an option; free plays fire the
  permanents (``draw_on_play``, ``moor placed`` included) that were in the forest when the
  turn began, and a shrub's from its placement on (``"from": "now"``; a moor's from the
  next turn);
- the bonus: every paid card shows the played card's tree symbol (either half).

No species is named here: everything comes from the card data.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, Final

from forest_shuffle.cards.forest import UNIVERSAL_MOOR, Forest, Host
from forest_shuffle.cards.model import SIDES, Card, Effect, Species
from forest_shuffle.cards.ops import OpDecl, op_decl, register_op
from forest_shuffle.engine.actions import (
    CHOOSE,
    DISCARD,
    DONE,
    DRAW,
    MOOR,
    PLAY,
    SAPLING,
    TAKE,
    Action,
    shape_problem,
)
from forest_shuffle.engine.kinds import DECISION_KINDS, HAND, KindDecl, register_kind
from forest_shuffle.engine.refusals import N_, Noun, Refusal
from forest_shuffle.engine.state import (
    D_FREE,
    D_TURN,
    S_BONUS,
    S_EFFECT,
    S_MUSHROOM,
    VIA_FREE,
    VIA_TURN,
    GameState,
    Pending,
)
from forest_shuffle.engine.view import PlayerView

# Decision kinds Dartmoor adds.
D_CAVE_DRAFT: Final = "cave draft"  # choose a cave from the clearing (setup)
D_UNIVERSAL: Final = "universal moor"  # put a hand card face down as a universal moor
D_DISCARD: Final = "discard"  # put hand cards face up into the clearing (cave 3, the stuck turn)
D_DRAW_OR_TAKE: Final = "draw or take"  # one card from the deck top or the clearing (an effect)

# Where a Dartmoor free play takes its card from (the ``via`` of a free decision).
FREE_HAND: Final = ""
FREE_CLEARING: Final = "clearing"
FREE_WITH_EFFECT: Final = "effect"  # from the hand, the placed card's effect is used
VIA_FREE_EFFECT: Final = "free effect"
# Why hand cards are discarded (the ``via`` of a discard decision).
DISCARD_STUCK: Final = "stuck"
DISCARD_EFFECT: Final = "effect"



def _answers(sp: Species, tags: list[str] | None) -> bool:
    """Does ``sp`` answer a free play of any of ``tags`` (tags or species it counts as)?"""
    if tags is None:
        return True
    return any(t in sp.tags or t in sp.counts_as for t in tags)


def count_with(forest: Forest, tag: str) -> int:
    """Cards in ``forest`` showing ``tag``: hosts (a universal moor shows ``moor``) and
    visible halves (the one count of effects and of the solo challenges)."""
    n = 0
    for t in forest.trees:
        if t.species is not None:
            n += tag in t.species.tags
        elif t.kind == UNIVERSAL_MOOR:
            n += tag == "moor"
        for side in SIDES:
            n += sum(1 for d in t.slots[side] if tag in d.species.tags)
    return n


class DartmoorState(GameState):
    """A game of Forest Shuffle: Dartmoor (see the module contract)."""

    __slots__ = ("discard", "cave_offer", "setup")

    discard: list[int]  # the discard pile of cleared clearings (public)
    cave_offer: list[int]  # cave numbers still in the clearing during the draft
    setup: int  # the draft's progress: picks 0..n-1, effects n..2n-1, 2n: playing

    SETUP_KINDS = frozenset({D_CAVE_DRAFT, D_UNIVERSAL, D_DISCARD})
    #: The base kinds' and Dartmoor's (filled from the declarations below the class).
    PICK_KINDS = dict(GameState.PICK_KINDS)

    # ------------------------------------------------------------ setup

    def _after_deal(self, rng: Any) -> None:
        """Deal one cave per player into the clearing, then draft them."""
        caves = list(range(1, len(self.game.catalog.caves) + 1))
        rng.shuffle(caves)
        self.cave_offer = sorted(caves[:self.num_players])
        self._continue_setup()

    def _reverse(self, i: int) -> int:
        """The i-th seat in reverse turn order (the first player's right-hand neighbour
        first, the first player last)."""
        n = self.num_players
        return (self.first_player + n - 1 - i) % n

    def _continue_setup(self) -> None:
        """Offer the next cave choice, resolve the next cave effect, or begin the game."""
        n = self.num_players
        while not self.over and not self.stack and self.setup < 2 * n:
            i = self.setup
            if i < n:
                p = self._reverse(i)
                self.current = p
                self.stack.append(Pending(D_CAVE_DRAFT, p, need=i))
                return
            p = self._reverse(i - n)
            self.current = p
            self.setup += 1
            self._cave_effect(p)
        if not self.over and not self.stack:
            self._begin_turn(self.first_player)

    def _cave_effect(self, p: int) -> None:
        number = self.forests[p].cave_number
        eff = self.game.catalog.caves[number - 1].effect
        if eff is None:
            return
        self._run(p, eff)

    def _run(self, p: int, eff: Effect) -> None:
        """Resolve ``eff`` for player p now (from a cave, or a test): its op's declaration
        applies it with p as the current player."""
        current = self.current
        self.current = p
        decl = self.game.ops.get(eff.op)
        (op_decl(eff.op) if decl is None else decl).apply(self, eff)
        self.current = current

    @property
    def in_setup(self) -> bool:
        """The cave draft is still going on."""
        return self.setup < 2 * self.num_players

    # ------------------------------------------------------------ turn flow

    def _begin_turn(self, p: int, record: Pending | None = None) -> None:
        super()._begin_turn(p, record)
        hand = self.hands[p]
        if len(hand) >= self.game.hand_limit and not self._placements(
                p, None, None, max_cost=len(hand) - 1):
            # Neither action is possible: the hand is shown, 2 cards go, 2 are drawn.
            self.stack[-1] = Pending(D_DISCARD, p, need=min(2, len(hand)), via=DISCARD_STUCK)
            self.known[p] = set(hand)

    def _clear_full_clearing(self) -> None:
        # A full clearing goes to the discard pile (public), not out of the game.
        self.discard.extend(self.clearing)
        self.clearing.clear()

    def _advance(self, record: Pending | None = None) -> None:
        # Turn 0 is the draft: a cave effect's decision (the first player's, resolved last,
        # included) leads back to the setup, which begins the first player's turn.
        if self.turn == 0:
            self._continue_setup()
        else:
            super()._advance(record)

    # ------------------------------------------------------------ effects

    def _count_with(self, p: int, tag: str) -> int:
        """Cards in p's forest showing ``tag`` (:func:`count_with`)."""
        return count_with(self.forests[p], tag)

    def _deck_to_cave(self, p: int, n: int) -> None:
        """Up to n deck cards under p's cave, one at a time (winter cards as when drawing)."""
        for _ in range(n):
            cid = self._draw_from_deck()
            if cid is None:
                return
            self._to_cave(p, [cid])

    # ------------------------------------------------------------ placing cards

    def _placements(self, p: int, tag: str | None, pool: frozenset[int] | None,
                    max_cost: int = 99, source: list[int] | None = None) -> list[Action]:
        """Play actions for the cards of ``source`` (the hand if None; in ``pool`` if
        given) whose played half or host answers ``tag`` (``a|b``: any of them; None:
        any) and costs at most ``max_cost``: hosts (trees, shrubs, moors), and halves in
        every slot the host accepts (moors: split halves only, moor-only species)."""
        out: list[Action] = []
        g = self.game
        cards: tuple[Card, ...] = g.cards  # typed: compiled code reads fields natively
        trees = self.forests[p].trees
        n_trees = len(trees)
        joins = self.rules.counts_as_joins_stack
        tags = tag.split("|") if tag else None
        for cid in self.hands[p] if source is None else source:
            if pool is not None and cid not in pool:
                continue
            card = cards[cid]
            sp = card.species
            if sp is not None:
                if sp.cost <= max_cost and _answers(sp, tags):
                    out.append(g.a_tree[cid])
                continue
            if not n_trees:
                continue
            for side, half in card.halves.items():
                hs = half.species
                if hs.cost > max_cost or not _answers(hs, tags):
                    continue
                acts = g.half_actions(cid, side, n_trees)
                out.extend([acts[i] for i, t in enumerate(trees) if t.accepts(hs, side, joins)])
        return out

    def _add_placements(self, out: list[Action], p: int, tag: str | None,
                        pool: frozenset[int] | None, max_cost: int) -> None:
        """This game's :meth:`_placements`, appended to ``out``."""
        out.extend(self._placements(p, tag, pool, max_cost))

    def _fire(self, p: int, cid: int, side: str, sp: Species | None, moor: bool,
              at_tree: bool = False) -> list[tuple[str, int, str, str]]:
        """The permanent draws a card placed now fires (free plays included): those in the
        forest when the turn began, and those placed since that act at once (shrubs,
        :meth:`_permanent_now`; a moor's acts from the next turn). ``at_tree``: the
        dweller's host is a tree ("atop/below a tree" draws fire only there, not at a shrub
        or moor)."""
        counts = self.active[p]
        if not any(counts.values()):
            return []
        steps: list[tuple[str, int, str, str]] = []
        for trg in self.game.triggers:
            k = counts[trg.name]
            if not k:
                continue
            t = trg.trigger
            if (t == "moor placed" and moor
                    or sp is not None and (
                        t == "tag played" and trg.tag in sp.tags
                        or t == "pawed animal played" and "pawed animal" in sp.tags
                        or t == "tree card played" and not side and sp.is_tree
                        or t == "card placed atop a tree" and side == "top" and at_tree
                        or t == "card placed below a tree" and side == "bottom"
                        and at_tree)):
                steps.extend([(S_MUSHROOM, cid, side, trg.name)] * k)
        return steps

    def _place(self, p: int, cid: int, side: str, tree: int, via: str, sapling: bool,
               bonus: bool) -> list[tuple[str, int, str, str]]:
        """Put a card into p's forest; return its permanent draws, effect and bonus steps.
        Only a tree card reveals a deck card into the clearing. A free play uses neither
        effect nor bonus, a free play with effect (``VIA_FREE_EFFECT``) its effect."""
        g = self.game
        card: Card = g.cards[cid]
        forest = self.forests[p]
        if not side:
            sp = card.species
            assert sp is not None
            forest.add_host(Host(sp, cid, kind=card.kind, symbol=g.host_symbol[cid]))
            if card.kind == "tree":
                top = self._draw_from_deck()
                if top is None:
                    return []
                self.clearing.append(top)
            steps = self._fire(p, cid, "", sp, card.kind == "moor")
        else:
            dweller = g.dwellers[cid][side]  # the shared Dweller.of_card(card, side)
            sp = dweller.species
            forest.add_dweller(tree, side, dweller)
            steps = self._fire(p, cid, side, sp, False, forest.trees[tree].is_tree)
        if sp.name in g.mushrooms_now:
            self._permanent_now(p, sp.name)
        if via == VIA_FREE:
            return steps
        if sp.effect is not None:
            steps.append((S_EFFECT, cid, side, sp.name))
        if via == VIA_TURN and bonus and sp.bonus is not None:
            steps.append((S_BONUS, cid, side, sp.name))
        return steps

    def _place_universal(self, p: int, cid: int) -> list[tuple[str, int, str, str]]:
        """A hand card face down as a universal moor; the ``moor placed`` draws it fires."""
        self.forests[p].add_host(Host(None, cid, kind=UNIVERSAL_MOOR))
        return self._fire(p, cid, "", None, True)

    # ------------------------------------------------------------ legal actions

    def _free_options(self, pend: Pending) -> list[Action]:
        source = self.clearing if pend.via == FREE_CLEARING else None
        return self._placements(pend.player, pend.tag, None, source=source)

    # ------------------------------------------------------------ reasons

    def _why_illegal(self, action: object) -> str:
        """The base reasons (each decision kind's own first), and: Dartmoor has no
        saplings."""
        if (isinstance(action, Action) and not self.over and not shape_problem(action)
                and action.kind == SAPLING):
            return Refusal("Dartmoor has no saplings (a card goes face down only as a "
                           "universal moor, when an effect asks for it)")
        return super()._why_illegal(action)

    def _kind_rule(self, kind: str) -> str:
        if kind in ("keep", "mulligan"):
            return N_("Dartmoor has no mulligans")
        if kind == CHOOSE:
            return N_("caves are chosen only before turn 1")
        if kind == MOOR:
            return N_("a universal moor comes only by an effect")
        if kind == DISCARD:
            return N_("discard: only by an effect or a stuck hand")
        if kind == PLAY:
            return N_("play: only on a turn or a free play")
        if kind == DONE:
            return N_("done ends only a free play")
        return super()._kind_rule(kind)

    def _host_words(self) -> str:
        return Noun(N_("tree, shrub or moor"))

    # ------------------------------------------------------------ copies, saves, views

    def _init_more(self, more: dict[str, Any] | None) -> None:
        """The discard pile, the caves offered and the draft's progress (a new game: none,
        none, 0)."""
        if more is None:
            self.discard = []
            self.cave_offer = []
            self.setup = 0
        else:
            self.discard = more["discard"]
            self.cave_offer = more["cave_offer"]
            self.setup = more["setup"]

    def _more_copy(self) -> dict[str, Any] | None:
        return {"discard": self.discard[:], "cave_offer": self.cave_offer[:],
                "setup": self.setup}

    def locations(self) -> dict[int, str]:
        where = super().locations()
        for c in self.discard:
            where[c] = "discard"
        return where

    def _more_places(self) -> list[tuple[int, str]]:
        return [(c, "discard") for c in self.discard]

    def to_dict(self) -> dict[str, Any]:
        d = super().to_dict()
        d["discard"] = self.discard[:]
        d["cave_offer"] = self.cave_offer[:]
        d["setup"] = self.setup
        for f, fd in zip(self.forests, d["forests"], strict=True):
            fd["cave_number"] = f.cave_number
            for t, td in zip(f.trees, fd["trees"], strict=True):
                if t.kind == UNIVERSAL_MOOR:
                    td["universal"] = True
        return d

    def _load_more(self, data: dict[str, Any]) -> None:
        self._init_more({"discard": list(data["discard"]),
                         "cave_offer": list(data["cave_offer"]), "setup": int(data["setup"])})
        self._load_forests(data)

    def _load_forests(self, data: dict[str, Any]) -> None:
        """A save's cave numbers and universal moors (the face-down hosts)."""
        for f, fd in zip(self.forests, data["forests"], strict=True):
            f.cave_number = int(fd["cave_number"])
            for t in f.trees:
                if t.species is None:
                    t.kind = UNIVERSAL_MOOR

    @staticmethod
    def _check_save_more(data: Any) -> None:
        """The shape of what Dartmoor adds to a save; BrokenSaveError naming the field."""
        from forest_shuffle.engine.check import BrokenSaveError

        def need(ok: bool, problem: str) -> None:
            if not ok:
                raise BrokenSaveError(f"broken saved game: {problem}")

        def ints(v: Any) -> bool:
            return isinstance(v, list) and all(type(x) is int for x in v)

        need(ints(data.get("discard")), "discard must be a list of card ids")
        need(ints(data.get("cave_offer")), "cave_offer must be a list of cave numbers")
        need(type(data.get("setup")) is int, "setup must be an integer")
        for i, f in enumerate(data["forests"]):
            need(type(f.get("cave_number")) is int, f"forests[{i}].cave_number must be an "
                 "integer (0: no cave chosen yet)")
            for j, t in enumerate(f["trees"]):
                need(t["sapling"] == bool(t.get("universal")),
                     f"forests[{i}].trees[{j}]: a card face down is a universal moor "
                     "(sapling and universal true together; Dartmoor has no saplings)")

    def _check_more(self) -> None:
        from forest_shuffle.engine.check import BrokenSaveError

        def need(ok: bool, problem: str) -> None:
            if not ok:
                raise BrokenSaveError(f"broken saved game: {problem}")

        n = self.num_players
        caves = len(self.game.catalog.caves)
        need(0 <= self.setup <= 2 * n, f"setup step {self.setup} (0 to {2 * n})")
        chosen = [f.cave_number for f in self.forests if f.cave_number]
        numbers = chosen + self.cave_offer
        need(all(1 <= c <= caves for c in numbers), f"a cave number outside 1-{caves}")
        need(len(set(numbers)) == len(numbers), "a cave is in two places")
        picked = min(self.setup, n)
        need(len(chosen) == picked and len(self.cave_offer) == n - picked,
             f"{len(chosen)} caves chosen and {len(self.cave_offer)} offered at setup step "
             f"{self.setup} of {n} players")
        for i in range(picked):
            need(self.forests[self._reverse(i)].cave_number > 0,
                 f"player {self._reverse(i) + 1} has not chosen a cave")
        need(self.setup == 2 * n or self.turn == 0, "the cave draft after the first turn")
        need(self.setup == 2 * n or self.over or self.stack[-1].kind in self.SETUP_KINDS,
             "a turn decision during the cave draft")
        for i, f in enumerate(self.forests):
            for j, t in enumerate(f.trees):
                need(t.species is not None or t.kind == UNIVERSAL_MOOR,
                     f"forest {i + 1} tree {j + 1}: Dartmoor has no saplings")
        for k, pend in enumerate(self.stack):
            if pend.kind == D_FREE:
                need(pend.via in (FREE_HAND, FREE_CLEARING, FREE_WITH_EFFECT),
                     f"stack[{k}]: a free play from {pend.via!r}")
            if pend.kind in (D_DISCARD, D_UNIVERSAL):
                need(1 <= pend.need <= len(self.hands[pend.player]),
                     f"stack[{k}] ({pend.kind}): {pend.need} cards to choose from a hand of "
                     f"{len(self.hands[pend.player])}")

    def _load_view(self, view: PlayerView) -> None:
        self._init_more({"discard": list(view.discard), "cave_offer": list(view.cave_offer),
                         "setup": view.setup})

    def _view_more(self) -> dict[str, Any]:
        return {"discard": tuple(self.discard), "cave_offer": tuple(self.cave_offer),
                "setup": self.setup}


# ------------------------------------------------------------ Dartmoor's effect ops
# Each declared once (cards/ops.py): its parameters, when it can change something, how it
# applies (for the current player, from a card or a cave), the decisions it pushes, its
# words. The greedy bot values none of them (0).


def _count(e: Effect) -> int:
    return int(e.get("n", e.get("count", 1)) or 0)


def _free_clearing_possible(s: DartmoorState, e: Effect) -> bool:
    return bool(s._placements(s.current, e.params["tag"], None, source=s.clearing))


def _free_clearing(s: DartmoorState, e: Effect) -> None:
    s.stack.append(Pending(D_FREE, s.current, tag=e.params["tag"],
                           need=int(e.params["count"]), via=FREE_CLEARING))


def _free_tag_possible(s: DartmoorState, e: Effect) -> bool:
    return bool(s._placements(s.current, e.params["tag"], None))


def _free_with_effect(s: DartmoorState, e: Effect) -> None:
    s.stack.append(Pending(D_FREE, s.current, tag=e.params["tag"],
                           need=int(e.params["count"]), via=FREE_WITH_EFFECT))


def _free_one_of_possible(s: DartmoorState, e: Effect) -> bool:
    return bool(s._placements(s.current, "|".join(e.params["tags"]), None))


def _free_one_of(s: DartmoorState, e: Effect) -> None:
    s.stack.append(Pending(D_FREE, s.current, tag="|".join(e.params["tags"]),
                           need=int(e.params["count"])))


def _free_species_possible(s: DartmoorState, e: Effect) -> bool:
    return bool(s._placements(s.current, e.params["species"], None))


def _free_species_any(s: DartmoorState, e: Effect) -> None:
    s.stack.append(Pending(D_FREE, s.current, tag=e.params["species"], need=-1))


def _hand_not_empty(s: DartmoorState, e: Effect) -> bool:
    return bool(s.hands[s.current])


def _universal_moor(s: DartmoorState, e: Effect) -> None:
    p = s.current
    need = min(int(e.params["n"]), len(s.hands[p]))
    if need:
        s.stack.append(Pending(D_UNIVERSAL, p, need=need))


def _room_in_hand(s: DartmoorState, e: Effect) -> bool:
    return len(s.hands[s.current]) < s.game.hand_limit


def _draw_or_take(s: DartmoorState, e: Effect) -> None:
    s.stack.append(Pending(D_DRAW_OR_TAKE, s.current, need=int(e.params["n"])))


def _always(s: DartmoorState, e: Effect) -> bool:
    return True


def _deck_to_cave_op(s: DartmoorState, e: Effect) -> None:
    s._deck_to_cave(s.current, int(e.params["n"]))


def _per_tag_possible(s: DartmoorState, e: Effect) -> bool:
    return s._count_with(s.current, e.params["tag"]) > 0


def _deck_to_cave_per_tag(s: DartmoorState, e: Effect) -> None:
    p = s.current
    s._deck_to_cave(p, s._count_with(p, e.params["tag"]))


def _draw_then_discard(s: DartmoorState, e: Effect) -> None:
    p = s.current
    s._draw_n(p, int(e.params["n"]))
    need = min(int(e.params["discard"]), len(s.hands[p]))
    if need and not s.over:
        s.stack.append(Pending(D_DISCARD, p, need=need, via=DISCARD_EFFECT))


def _check_sides(params: Mapping[str, Any]) -> str:
    sides = params["sides"]
    if not isinstance(sides, list) or not set(sides) <= set(SIDES):
        return f"sides must be a list of {SIDES}"
    return ""


register_op(OpDecl(
    "free_play_clearing", ("tag", "count"), None, _free_clearing_possible, _free_clearing,
    (D_FREE,),
    lambda e, w: w.ngettext("Place {n} {tag} from the clearing for free (none there: nothing)",
                            "Place {n} {tag} from the clearing for free (none there: nothing)",
                            _count(e), tag=w(str(e.get("tag")), _count(e)))))
register_op(OpDecl(
    "free_play_with_effect", ("tag", "count"), None, _free_tag_possible, _free_with_effect,
    (D_FREE,),
    lambda e, w: w.ngettext("Place {n} {tag} from your hand for free, using its effect",
                            "Place {n} {tag} from your hand for free, using its effect",
                            _count(e), tag=w(str(e.get("tag")), _count(e)))))
register_op(OpDecl(
    "free_play_one_of", ("tags", "count"), None, _free_one_of_possible, _free_one_of,
    (D_FREE,),
    lambda e, w: w.ngettext("Place {n} {tags} from your hand for free",
                            "Place {n} {tags} from your hand for free", _count(e),
                            tags=w.either([w(str(t), 1) for t in e.get("tags", ())]))))
register_op(OpDecl(
    "free_play_species_any", ("species",), None, _free_species_possible, _free_species_any,
    (D_FREE,),
    lambda e, w: w.gettext("Place any number of {species} from your hand for free",
                           species=w.name(str(e.get("species")), 2))))
register_op(OpDecl(
    "universal_moor", ("n",), None, _hand_not_empty, _universal_moor, (D_UNIVERSAL,),
    lambda e, w: w.ngettext("Put {n} card from your hand face down into your forest as a "
                            "universal moor, for free",
                            "Put {n} cards from your hand face down into your forest as "
                            "universal moors, for free", _count(e))))
register_op(OpDecl(
    "draw_or_take", ("n",), None, _room_in_hand, _draw_or_take, (D_DRAW_OR_TAKE,),
    lambda e, w: w.ngettext("Draw {n} card, each from the deck or the clearing",
                            "Draw {n} cards, each from the deck or the clearing", _count(e))))
register_op(OpDecl(
    "deck_to_cave", ("n",), None, _always, _deck_to_cave_op,
    words=lambda e, w: w.ngettext("Put {n} card from the top of the deck under your cave",
                                  "Put {n} cards from the top of the deck under your cave",
                                  _count(e))))
register_op(OpDecl(
    "deck_to_cave_per_tag", ("tag",), None, _per_tag_possible, _deck_to_cave_per_tag,
    words=lambda e, w: w.gettext("Put 1 card from the top of the deck under your cave per "
                                 "{tag} in your forest", tag=w(str(e.get("tag")), 1))))
register_op(OpDecl(
    "draw_then_discard", ("n", "discard"), None, _always, _draw_then_discard, (D_DISCARD,),
    lambda e, w: w.gettext("Draw {drawn}, then put {put} of your hand into the clearing",
                           drawn=w.ngettext("{n} card", "{n} cards", _count(e)),
                           put=w.ngettext("{n} card", "{n} cards",
                                          int(e.get("discard", 0))))))
register_op(OpDecl(
    "host_species_sharing", ("species", "sides"), _check_sides,
    words=lambda e, w: w.gettext("At its tree or shrub, any number of {species} may join "
                                 "occupied {sides} slots",
                                 species=w.name(str(e.get("species")), 2),
                                 sides=w.pgettext("and", " and ").join(
                                     w.side(str(x)) for x in e.get("sides", ()))),
    permanent=True))

# ------------------------------------------------------------ Dartmoor's decision kinds
# Each declared once (engine/kinds.py). Its own kinds advance the turn themselves (no
# record reused); ``free`` and ``turn`` are Dartmoor's own ways of the base kinds, given
# to its definition (DECISIONS).


def _then(s: DartmoorState) -> bool:
    if not s.over and not s.stack:
        s._advance()
    return False


def _free_legal(s: DartmoorState, pend: Pending) -> list[Action]:
    return s._free_options(pend) + [s.game.a_done]


def _free_apply(s: DartmoorState, pend: Pending, action: Action) -> bool:
    if action.kind != DONE:
        p = pend.player
        cid = action.card
        if pend.via == FREE_CLEARING:
            s.clearing.remove(cid)
        else:
            s._remove_from_hand(p, cid)
        via = VIA_FREE_EFFECT if pend.via == FREE_WITH_EFFECT else VIA_FREE
        s.queue[0:0] = s._place(p, cid, action.side, action.tree, via, False, False)
        if pend.need != 1 and not s.over:
            pend.need -= 1 if pend.need > 0 else 0
            if s._free_options(pend):
                s.stack.append(pend)
    return _then(s)


def _free_ask(s: DartmoorState, pend: Pending) -> str:
    if pend.via == FREE_CLEARING:
        return "play (a free card from the clearing) or done"
    return FREE.expected


def _free_refuse(s: DartmoorState, pend: Pending, action: Action) -> str:
    if pend.via == FREE_CLEARING and action.kind == PLAY:
        if action.card not in s.clearing:
            return Refusal("card {card} is not in the clearing (this free play takes a card "
                           "from it)", card=action.card)
        return s._why_not_placeable(pend.player, action, pend)
    return ""


def _draft_legal(s: DartmoorState, pend: Pending) -> list[Action]:
    a_choose = s.game.a_choose
    return [a_choose[c] for c in sorted(s.cave_offer)]


def _draft_apply(s: DartmoorState, pend: Pending, action: Action) -> bool:
    s.cave_offer.remove(action.card)
    s.forests[pend.player].cave_number = action.card
    s.setup += 1
    return _then(s)


def _draft_refuse(s: DartmoorState, pend: Pending, action: Action) -> str:
    if action.kind != CHOOSE:
        return s._wrong_kind(pend.player, s._expected(pend), action.kind)
    return Refusal("cave {n} is not in the clearing (offered: {offered})", n=action.card,
                   offered=str(s.cave_offer))


def _universal_legal(s: DartmoorState, pend: Pending) -> list[Action]:
    a_moor = s.game.a_moor
    return [a_moor[c] for c in s.hands[pend.player]]


def _universal_apply(s: DartmoorState, pend: Pending, action: Action) -> bool:
    p = pend.player
    s._remove_from_hand(p, action.card, hidden=True)
    s.queue[0:0] = s._place_universal(p, action.card)
    pend.need -= 1
    if pend.need > 0 and s.hands[p]:
        s.stack.append(pend)
    return _then(s)


def _universal_refuse(s: DartmoorState, pend: Pending, action: Action) -> str:
    if action.kind != MOOR:
        return s._wrong_kind(pend.player, s._expected(pend), action.kind)
    return Refusal("card {card} is not in player {player}'s hand", card=action.card,
                   player=pend.player + 1)


def _discard_legal(s: DartmoorState, pend: Pending) -> list[Action]:
    pool = sorted(s.hands[pend.player])
    last = pend.paid[-1] if pend.paid else 0
    a_discard = s.game.a_discard
    return [a_discard[c] for i, c in enumerate(pool)
            if c > last and len(pool) - i >= pend.need]


def _discard_apply(s: DartmoorState, pend: Pending, action: Action) -> bool:
    p = pend.player
    cid = action.card
    s._remove_from_hand(p, cid)
    s.clearing.append(cid)
    pend.paid.append(cid)
    pend.need -= 1
    if pend.need > 0:
        s.stack.append(pend)
    elif pend.via == DISCARD_STUCK:
        s._draw_n(p, len(pend.paid))
    return _then(s)


def _discard_ask(s: DartmoorState, pend: Pending) -> str:
    why = ("a player who can neither draw nor play shows the hand, discards 2 and "
           "draws 2" if pend.via == DISCARD_STUCK else "the effect asks for it")
    return f"discard ({pend.need} more hand cards into the clearing: {why})"


def _discard_refuse(s: DartmoorState, pend: Pending, action: Action) -> str:
    p = pend.player
    if action.kind != DISCARD:
        return s._wrong_kind(p, s._expected(pend), action.kind)
    if action.card not in s.hands[p]:
        return Refusal("card {card} is not in player {player}'s hand", card=action.card,
                       player=p + 1)
    return Refusal("discard cards in ascending order of their numbers")


def _draw_or_take_legal(s: DartmoorState, pend: Pending) -> list[Action]:
    g = s.game
    return [g.a_draw] + [g.a_take[c] for c in s.clearing]


def _draw_or_take_apply(s: DartmoorState, pend: Pending, action: Action) -> bool:
    s._do_draw(pend, action)  # the base draw's card (its second is not offered)
    pend.need -= 1
    if (pend.need > 0 and not s.over
            and len(s.hands[pend.player]) < s.game.hand_limit):
        s.stack.append(pend)
    return _then(s)


def _draw_or_take_refuse(s: DartmoorState, pend: Pending, action: Action) -> str:
    if action.kind not in (DRAW, TAKE):
        return s._wrong_kind(pend.player, s._expected(pend), action.kind)
    return Refusal("card {card} is not in the clearing", card=action.card)


FREE = DECISION_KINDS[D_FREE]
register_kind(KindDecl(
    D_CAVE_DRAFT, _draft_legal, _draft_apply,
    "choose (a cave from the clearing, in the draft before the first turn)",
    refuse=_draft_refuse, obs=11))
register_kind(KindDecl(
    D_UNIVERSAL, _universal_legal, _universal_apply,
    "moor (a hand card face down as a universal moor)", refuse=_universal_refuse, obs=12,
    source=HAND))
register_kind(KindDecl(
    D_DISCARD, _discard_legal, _discard_apply, "discard", ask=_discard_ask,
    refuse=_discard_refuse, pick=(DISCARD, HAND, True), obs=13, source=HAND))
register_kind(KindDecl(
    D_DRAW_OR_TAKE, _draw_or_take_legal, _draw_or_take_apply,
    "draw or take (a card, from the deck or the clearing)", refuse=_draw_or_take_refuse,
    obs=14))
DartmoorState.PICK_KINDS[D_DISCARD] = (DISCARD, HAND, True)

#: The decision kinds Dartmoor asks whatever its cards (for its definition, with its own
#: ways of the free play and the turn; the kinds its ops push are added by make_def):
#: every kind of its own, the ``draw or take`` of an op no card uses yet included.
DECISIONS: Final[tuple[str | KindDecl, ...]] = (
    replace(DECISION_KINDS[D_TURN], expected="draw, take or play"), "draw", "pay", "option",
    KindDecl(D_FREE, _free_legal, _free_apply, FREE.expected, ask=_free_ask,
             refuse=_free_refuse, obs=FREE.obs),  # from the hand or the clearing
    D_CAVE_DRAFT, D_UNIVERSAL, D_DISCARD, D_DRAW_OR_TAKE)


#: The effect ops Dartmoor adds to the vocabulary.
OWN_OPS: Final[frozenset[str]] = frozenset({
    "free_play_clearing", "free_play_with_effect", "free_play_one_of",
    "free_play_species_any", "universal_moor", "draw_or_take", "deck_to_cave",
    "deck_to_cave_per_tag", "draw_then_discard", "host_species_sharing",
})


__all__ = ["DECISIONS", "D_CAVE_DRAFT", "D_DISCARD", "D_DRAW_OR_TAKE", "D_UNIVERSAL",
           "DartmoorState", "OWN_OPS", "S_BONUS", "count_with"]
