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

from typing import Any, Final

from forest_shuffle.cards.forest import UNIVERSAL_MOOR, Forest, Host
from forest_shuffle.cards.model import SIDES, Card, Effect, Species
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

#: The ops this class resolves itself (the others are the base engine's).
OWN_OPS: Final[frozenset[str]] = frozenset({
    "free_play_clearing", "free_play_with_effect", "free_play_one_of",
    "free_play_species_any", "universal_moor", "draw_or_take", "deck_to_cave",
    "deck_to_cave_per_tag", "draw_then_discard",
})
_OWN_KINDS: Final = frozenset({D_FREE, D_CAVE_DRAFT, D_UNIVERSAL, D_DISCARD, D_DRAW_OR_TAKE})


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

    MORE_KINDS = frozenset({D_CAVE_DRAFT, D_UNIVERSAL, D_DISCARD, D_DRAW_OR_TAKE})
    SETUP_KINDS = frozenset({D_CAVE_DRAFT, D_UNIVERSAL, D_DISCARD})
    PICK_KINDS = {**GameState.PICK_KINDS, D_DISCARD: (DISCARD, "hand", True)}

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
        if eff.op == "draw":
            self._draw_n(p, int(eff.params["n"]))
        else:
            self._run(p, eff)

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

    def _step_possible(self, step: tuple[str, int, str, str]) -> bool:
        eff = self._step_effect(step)
        op = eff.op
        if op not in OWN_OPS:
            return super()._step_possible(step)
        p = self.current
        params = eff.params
        hand = self.hands[p]
        if op == "free_play_clearing":
            return bool(self._placements(p, params["tag"], None, source=self.clearing))
        if op == "free_play_with_effect":
            return bool(self._placements(p, params["tag"], None))
        if op == "free_play_one_of":
            return bool(self._placements(p, "|".join(params["tags"]), None))
        if op == "free_play_species_any":
            return bool(self._placements(p, params["species"], None))
        if op == "universal_moor":
            return bool(hand)
        if op == "draw_or_take":
            return len(hand) < self.game.hand_limit
        if op == "deck_to_cave_per_tag":
            return self._count_with(p, params["tag"]) > 0
        return True  # deck_to_cave, draw_then_discard

    def _apply_step(self, step: tuple[str, int, str, str]) -> None:
        eff = self._step_effect(step)
        if eff.op in OWN_OPS:
            self._run(self.current, eff)
        else:
            super()._apply_step(step)

    def _run(self, p: int, eff: Effect) -> None:
        """Resolve one of :data:`OWN_OPS` for player p (from a card or a cave)."""
        op = eff.op
        params = eff.params
        hand = self.hands[p]
        if op == "free_play_clearing":
            self.stack.append(Pending(D_FREE, p, tag=params["tag"], need=int(params["count"]),
                                      via=FREE_CLEARING))
        elif op == "free_play_with_effect":
            self.stack.append(Pending(D_FREE, p, tag=params["tag"], need=int(params["count"]),
                                      via=FREE_WITH_EFFECT))
        elif op == "free_play_one_of":
            self.stack.append(Pending(D_FREE, p, tag="|".join(params["tags"]),
                                      need=int(params["count"])))
        elif op == "free_play_species_any":
            self.stack.append(Pending(D_FREE, p, tag=params["species"], need=-1))
        elif op == "universal_moor":
            need = min(int(params["n"]), len(hand))
            if need:
                self.stack.append(Pending(D_UNIVERSAL, p, need=need))
        elif op == "draw_or_take":
            self.stack.append(Pending(D_DRAW_OR_TAKE, p, need=int(params["n"])))
        elif op == "deck_to_cave":
            self._deck_to_cave(p, int(params["n"]))
        elif op == "deck_to_cave_per_tag":
            self._deck_to_cave(p, self._count_with(p, params["tag"]))
        elif op == "draw_then_discard":
            self._draw_n(p, int(params["n"]))
            need = min(int(params["discard"]), len(hand))
            if need and not self.over:
                self.stack.append(Pending(D_DISCARD, p, need=need, via=DISCARD_EFFECT))
        else:  # pragma: no cover - OWN_OPS lists every op above
            raise AssertionError(f"unhandled effect op {op}")

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

    def _compute_legal(self) -> list[Action]:
        if self.over or not self.stack:
            return []
        pend = self.stack[-1]
        kind = pend.kind
        p = pend.player
        hand = self.hands[p]
        g = self.game
        if kind == D_FREE:
            return self._free_options(pend) + [g.a_done]
        if kind == D_CAVE_DRAFT:
            return [g.a_choose[c] for c in sorted(self.cave_offer)]
        if kind == D_UNIVERSAL:
            return [g.a_moor[c] for c in hand]
        if kind == D_DISCARD:
            pool = sorted(hand)
            last = pend.paid[-1] if pend.paid else 0
            return [g.a_discard[c] for i, c in enumerate(pool)
                    if c > last and len(pool) - i >= pend.need]
        if kind == D_DRAW_OR_TAKE:
            return [g.a_draw] + [g.a_take[c] for c in self.clearing]
        return super()._compute_legal()

    def _free_options(self, pend: Pending) -> list[Action]:
        source = self.clearing if pend.via == FREE_CLEARING else None
        return self._placements(pend.player, pend.tag, None, source=source)

    # ------------------------------------------------------------ apply

    def apply_legal(self, action: Action) -> None:
        """Apply an action from :meth:`legal_actions` (the base engine's contract; the
        base :meth:`apply` checks it first)."""
        if self.over or not self.stack or self.stack[-1].kind not in _OWN_KINDS:
            super().apply_legal(action)
            return
        self._legal = None
        self.history.append(action)
        pend = self.stack.pop()
        p = pend.player
        kind = pend.kind
        cid = action.card
        if kind == D_FREE:
            if action.kind != DONE:
                if pend.via == FREE_CLEARING:
                    self.clearing.remove(cid)
                else:
                    self._remove_from_hand(p, cid)
                via = VIA_FREE_EFFECT if pend.via == FREE_WITH_EFFECT else VIA_FREE
                self.queue[0:0] = self._place(p, cid, action.side, action.tree, via, False,
                                              False)
                if pend.need != 1 and not self.over:
                    pend.need -= 1 if pend.need > 0 else 0
                    if self._free_options(pend):
                        self.stack.append(pend)
        elif kind == D_CAVE_DRAFT:
            self.cave_offer.remove(cid)
            self.forests[p].cave_number = cid
            self.setup += 1
        elif kind == D_UNIVERSAL:
            self._remove_from_hand(p, cid, hidden=True)
            self.queue[0:0] = self._place_universal(p, cid)
            pend.need -= 1
            if pend.need > 0 and self.hands[p]:
                self.stack.append(pend)
        elif kind == D_DISCARD:
            self._remove_from_hand(p, cid)
            self.clearing.append(cid)
            pend.paid.append(cid)
            pend.need -= 1
            if pend.need > 0:
                self.stack.append(pend)
            elif pend.via == DISCARD_STUCK:
                self._draw_n(p, len(pend.paid))
        elif kind == D_DRAW_OR_TAKE:
            self._do_draw(pend, action)  # the base draw's card (its second is not offered)
            pend.need -= 1
            if (pend.need > 0 and not self.over
                    and len(self.hands[p]) < self.game.hand_limit):
                self.stack.append(pend)
        if not self.over and not self.stack:
            self._advance()

    def _why_illegal(self, action: object) -> str:
        if not isinstance(action, Action) or self.over or shape_problem(action):
            return super()._why_illegal(action)
        pend = self.stack[-1]
        p = pend.player
        kind = action.kind
        if kind == SAPLING:
            return "Dartmoor has no saplings (a card goes face down only as a universal moor, " \
                "when an effect asks for it)"
        if pend.kind == D_CAVE_DRAFT:
            if kind != CHOOSE:
                return self._wrong_kind(p, self._expected(pend), kind)
            return f"cave {action.card} is not in the clearing (offered: {self.cave_offer})"
        if pend.kind == D_UNIVERSAL:
            if kind != MOOR:
                return self._wrong_kind(p, self._expected(pend), kind)
            return f"card {action.card} is not in player {p + 1}'s hand"
        if pend.kind == D_DISCARD:
            if kind != DISCARD:
                return self._wrong_kind(p, self._expected(pend), kind)
            if action.card not in self.hands[p]:
                return f"card {action.card} is not in player {p + 1}'s hand"
            return "discard cards in ascending order of their numbers"
        if pend.kind == D_DRAW_OR_TAKE:
            if kind not in (DRAW, TAKE):
                return self._wrong_kind(p, self._expected(pend), kind)
            return f"card {action.card} is not in the clearing"
        if pend.kind == D_FREE and pend.via == FREE_CLEARING and kind == PLAY:
            if action.card not in self.clearing:
                return (f"card {action.card} is not in the clearing (this free play takes a "
                        "card from it)")
            return self._why_not_placeable(p, action, pend)
        return super()._why_illegal(action)

    def _expected(self, pend: Pending) -> str:
        kind = pend.kind
        if kind == D_TURN:
            return "draw, take or play"
        if kind == D_CAVE_DRAFT:
            return "choose (a cave from the clearing, in the draft before the first turn)"
        if kind == D_UNIVERSAL:
            return "moor (a hand card face down as a universal moor)"
        if kind == D_DISCARD:
            why = ("a player who can neither draw nor play shows the hand, discards 2 and "
                   "draws 2" if pend.via == DISCARD_STUCK else "the effect asks for it")
            return f"discard ({pend.need} more hand cards into the clearing: {why})"
        if kind == D_DRAW_OR_TAKE:
            return "draw or take (a card, from the deck or the clearing)"
        if kind == D_FREE and pend.via == FREE_CLEARING:
            return "play (a free card from the clearing) or done"
        return super()._expected(pend)

    def _kind_rule(self, kind: str) -> str:
        if kind in ("keep", "mulligan"):
            return "Dartmoor has no mulligans"
        if kind == CHOOSE:
            return "caves are chosen only before turn 1"
        if kind == MOOR:
            return "a universal moor comes only by an effect"
        if kind == DISCARD:
            return "discard: only by an effect or a stuck hand"
        if kind == PLAY:
            return "play: only on a turn or a free play"
        if kind == DONE:
            return "done ends only a free play"
        return super()._kind_rule(kind)

    def _host_words(self) -> str:
        return "tree, shrub or moor"

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


__all__ = ["D_CAVE_DRAFT", "D_DISCARD", "D_DRAW_OR_TAKE", "D_UNIVERSAL", "DartmoorState",
           "OWN_OPS", "S_BONUS", "count_with"]
