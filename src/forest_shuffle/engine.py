"""The rules engine: one game of Forest Shuffle as a state with a single contract.

Contract (in the manner of OpenSpiel's game state):

- :meth:`GameState.new` deals a game from a seed; same seed and same actions, same game.
- :attr:`GameState.to_move` is the player whose decision it is (None once the game is over),
  :attr:`GameState.decision` names the kind of decision.
- :meth:`GameState.legal_actions` lists the legal :class:`~forest_shuffle.actions.Action`s.
- :meth:`GameState.apply` applies one; an illegal action raises
  :class:`~forest_shuffle.actions.IllegalActionError` naming the reason and changes nothing.
- :attr:`GameState.over`, :meth:`GameState.scores`, :meth:`GameState.clone`,
  :meth:`GameState.view` (what one player may see), :meth:`GameState.to_dict` /
  :meth:`GameState.from_dict` (full save and load, round-trips exactly).

Multi-step choices are a stack of pending decisions: payment card by card, each optional
effect, bonus or mushroom draw as yes/no, free plays, the Mole and the Raccoon. The engine
does no I/O and holds no global random state: the seed is only used to shuffle at setup
(:mod:`forest_shuffle.deal`: a keyed shuffle for new games, Python's for old saves).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

from .actions import (
    CAVE,
    DONE,
    DRAW,
    KEEP,
    MULLIGAN,
    NO,
    PAY,
    PLAY,
    SAPLING,
    TAKE,
    YES,
    Action,
    IllegalActionError,
)
from .cards import CATALOG, SIDES, Card, Effect, Species
from .deal import KEYED, LEGACY, check_seed, shuffler
from .forest import Dweller, Forest, TreeSite
from .rules import (
    CLEARING_LIMIT,
    HAND_LIMIT,
    OPENING_HAND,
    REMOVED_AT_SETUP,
    WINTER_CARDS_TO_END,
    Rules,
)

FORMAT = "forest-shuffle state 1"

# Decision kinds (the ``kind`` of a pending decision).
D_MULLIGAN = "mulligan"  # keep or mulligan the opening hand
D_TURN = "turn"  # start of a turn: draw, take, play or sapling
D_DRAW = "draw"  # the second card of a draw action
D_PAY = "pay"  # choose the next payment card
D_OPTION = "option"  # use an optional effect, bonus or mushroom draw (yes/no)
D_FREE = "free"  # free play of a card with a tag (or done)
D_RACCOON = "raccoon"  # put hand cards under the cave (or done)
D_MOLE = "mole"  # play another card through the Mole (or done)

# Where a play comes from: decides payment, effects and bonus.
VIA_TURN = "turn"
VIA_MOLE = "mole"
VIA_FREE = "free"

# Step kinds in the resolution queue.
S_EFFECT = "effect"
S_BONUS = "bonus"
S_MUSHROOM = "mushroom"

_CARDS: tuple[Card | None, ...] = CATALOG.cards
_MUSHROOM_TRIGGERS: dict[str, str] = {}
for _sp in CATALOG.species.values():
    if _sp.permanent is not None and _sp.permanent.op == "draw_on_play":
        _MUSHROOM_TRIGGERS[_sp.name] = _sp.permanent.params["trigger"]
MUSHROOMS: tuple[str, ...] = tuple(sorted(_MUSHROOM_TRIGGERS))


# Interned actions: legal-action lists reuse these objects instead of building new ones
# (the hot path of playouts), and membership tests in apply hit identity first.
_N_IDS = len(_CARDS)
_A_DRAW, _A_YES, _A_NO, _A_DONE = Action(DRAW), Action(YES), Action(NO), Action(DONE)
_A_KEEP_MULLIGAN = (Action(KEEP), Action(MULLIGAN))
_A_TAKE = [Action(TAKE, c) for c in range(_N_IDS)]
_A_SAPLING = [Action(SAPLING, c) for c in range(_N_IDS)]
_A_PAY = [Action(PAY, c) for c in range(_N_IDS)]
_A_CAVE = [Action(CAVE, c) for c in range(_N_IDS)]
_A_TREE = [Action(PLAY, c) for c in range(_N_IDS)]
_A_HALF: dict[tuple[int, str], list[Action]] = {}
_SHARING = frozenset({"European Hare", "Common Toad"})


def _half_actions(cid: int, side: str, n_trees: int) -> list[Action]:
    """``play cid side t`` for t in 0..n_trees-1 (grown on demand, then reused)."""
    acts = _A_HALF.get((cid, side))
    if acts is None:
        acts = _A_HALF[(cid, side)] = []
    while len(acts) < n_trees:
        acts.append(Action(PLAY, cid, side, len(acts)))
    return acts


#: Action texts parsed once (actions are immutable values): loading a saved game parses
#: hundreds of history entries drawn from a few thousand distinct texts.
_parse_action = functools.lru_cache(maxsize=8192)(Action.parse)


def _card(cid: int) -> Card:
    c = _CARDS[cid]
    assert c is not None
    return c


@dataclass(slots=True)
class Pending:
    """One pending decision. Fields beyond ``kind`` and ``player`` depend on the kind.

    - pay: ``card``/``side``/``tree``/``via`` name the play being paid for, ``need`` the
      cards still to pay, ``paid`` those paid so far, ``pool`` the cards that may pay
      (None: the whole hand).
    - option: ``step`` is the effect, bonus or mushroom draw offered.
    - free: ``tag`` and ``need`` (free plays left; -1 for any number).
    - raccoon: ``paid`` holds the cards put under the cave so far.
    - mole: ``pool`` holds the cards that may be played or paid; ``steps`` collects the
      effects and bonuses of the cards played, resolved when the Mole is done.
    """

    kind: str
    player: int
    card: int = 0
    side: str = ""
    tree: int = -1
    via: str = ""
    need: int = 0
    paid: list[int] = field(default_factory=list)
    pool: frozenset[int] | None = None
    step: tuple[str, int, str, str] | None = None
    tag: str = ""
    steps: list[tuple[str, int, str, str]] = field(default_factory=list)

    def copy(self) -> Pending:
        return Pending(self.kind, self.player, self.card, self.side, self.tree, self.via,
                       self.need, self.paid[:], self.pool, self.step, self.tag, self.steps[:])

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind, "player": self.player, "card": self.card, "side": self.side,
            "tree": self.tree, "via": self.via, "need": self.need, "paid": self.paid[:],
            "pool": None if self.pool is None else sorted(self.pool),
            "step": None if self.step is None else list(self.step), "tag": self.tag,
            "steps": [list(s) for s in self.steps],
        }

    @staticmethod
    def from_dict(d: dict[str, Any]) -> Pending:
        step = d["step"]
        return Pending(
            d["kind"], d["player"], d["card"], d["side"], d["tree"], d["via"], d["need"],
            list(d["paid"]), None if d["pool"] is None else frozenset(d["pool"]),
            None if step is None else (step[0], step[1], step[2], step[3]), d["tag"],
            [(s[0], s[1], s[2], s[3]) for s in d["steps"]],
        )


def _species_of(card: Card, side: str) -> Species:
    if side:
        return card.halves[side].species
    assert card.species is not None
    return card.species


def _symbol_of(card: Card, side: str) -> str:
    if side:
        return card.halves[side].symbol
    assert card.species is not None
    return card.species.name


def _step_effect(step: tuple[str, int, str, str]) -> Effect:
    kind, cid, side, name = step
    sp = CATALOG.species[name]
    eff = sp.permanent if kind == S_MUSHROOM else sp.effect if kind == S_EFFECT else sp.bonus
    assert eff is not None
    return eff


class GameState:
    """The full state of one game. See the module docstring for the contract."""

    __slots__ = (
        "num_players", "seed", "deal", "rules", "first_player", "deck", "box", "clearing",
        "winter", "hands", "forests", "caves", "known", "current", "turn", "extra_turns", "over",
        "stack", "queue", "active", "history", "_legal",
    )

    num_players: int
    seed: int
    deal: str  # the scheme that turns the seed into the deal (deal.KEYED or deal.LEGACY)
    rules: Rules
    first_player: int
    deck: list[int]  # the top card is the last one
    box: list[int]
    clearing: list[int]
    winter: list[int]
    hands: list[list[int]]
    forests: list[Forest]
    caves: list[list[int]]
    known: list[set[int]]  # cards in each hand that every player has seen (taken from the clearing)
    current: int
    turn: int
    extra_turns: int
    over: bool
    stack: list[Pending]
    queue: list[tuple[str, int, str, str]]
    active: list[dict[str, int]]  # mushrooms of each player active this turn
    history: list[Action]
    _legal: list[Action] | None

    # ----------------------------------------------------------------- setup

    @staticmethod
    def new(num_players: int, seed: int, rules: Rules | None = None,
            first_player: int = 0, deal: str = KEYED) -> GameState:
        """Set up a game: box the unseen cards, build the deck with winter in the last
        third, deal 6 cards each and offer mulligans. ``deal`` names how the seed shuffles
        (:mod:`forest_shuffle.deal`; new games use the keyed scheme). ValueError on a bad
        player count, seed or scheme."""
        if num_players not in REMOVED_AT_SETUP:
            raise ValueError(f"Forest Shuffle is for 2 to 5 players, not {num_players}")
        if not 0 <= first_player < num_players:
            raise ValueError(f"first player must be a seat from 0 to {num_players - 1}")
        rng = shuffler(seed, deal)
        s = GameState.__new__(GameState)
        s.num_players = num_players
        s.seed = seed
        s.deal = deal
        s.rules = rules or Rules()
        s.first_player = first_player
        winter = [c.id for c in CATALOG.cards if c is not None and c.is_winter]
        others = [c.id for c in CATALOG.cards if c is not None and not c.is_winter]
        rng.shuffle(others)
        removed = REMOVED_AT_SETUP[num_players]
        s.box = others[:removed]
        rest = others[removed:]
        third = len(rest) // 3
        # Three piles: the two that go on top and the bottom one with the winter cards.
        top_piles = rest[: len(rest) - third]
        bottom = rest[len(rest) - third:] + winter[:2]
        rng.shuffle(bottom)
        bottom.append(winter[2])  # the third winter card lies on top of that pile
        # deck[-1] is the top: the winter pile lies at the bottom, the other two on it.
        s.deck = bottom + top_piles
        s.clearing = []
        s.winter = []
        s.hands = [[] for _ in range(num_players)]
        s.forests = [Forest() for _ in range(num_players)]
        s.caves = [[] for _ in range(num_players)]
        s.known = [set() for _ in range(num_players)]
        s.current = first_player
        s.turn = 0
        s.extra_turns = 0
        s.over = False
        s.stack = []
        s.queue = []
        s.active = [dict.fromkeys(MUSHROOMS, 0) for _ in range(num_players)]
        s.history = []
        s._legal = None
        for i in range(num_players):
            p = (first_player + i) % num_players
            for _ in range(OPENING_HAND):
                s._draw_into_hand(p)
        s._offer_mulligans(0)
        return s

    def _offer_mulligans(self, start: int) -> None:
        """Push the next mulligan decision (seat order from the first player) or begin."""
        for i in range(start, self.num_players):
            p = (self.first_player + i) % self.num_players
            if not any(_card(c).is_tree for c in self.hands[p]):
                self.stack.append(Pending(D_MULLIGAN, p, need=i))
                return
        self._begin_turn(self.first_player)

    # ------------------------------------------------------------ properties

    @property
    def to_move(self) -> int | None:
        """The player whose decision it is, or None when the game is over."""
        if self.over or not self.stack:
            return None
        return self.stack[-1].player

    @property
    def decision(self) -> str | None:
        """The kind of the pending decision (``turn``, ``pay``, ``option``...), or None."""
        if self.over or not self.stack:
            return None
        return self.stack[-1].kind

    @property
    def pending(self) -> Pending | None:
        """The pending decision (do not modify it), or None."""
        return None if self.over or not self.stack else self.stack[-1]

    # ------------------------------------------------------------ card moves

    def _draw_from_deck(self) -> int | None:
        """Take the top deck card; winter cards are laid aside and replaced. None when the
        third winter card ends the game (or, never in a real game, the deck is empty)."""
        deck = self.deck
        while deck:
            cid = deck.pop()
            if _CARDS[cid].kind != "winter":  # type: ignore[union-attr]
                return cid
            self.winter.append(cid)
            if len(self.winter) >= WINTER_CARDS_TO_END:
                self._end_game()
                return None
        return None

    def _draw_into_hand(self, p: int) -> bool:
        """Draw one deck card into p's hand; False if the game ended instead."""
        cid = self._draw_from_deck()
        if cid is None:
            return False
        self.hands[p].append(cid)
        return True

    def _draw_n(self, p: int, n: int) -> None:
        """Draw up to n deck cards into p's hand, stopping at the hand limit."""
        hand = self.hands[p]
        for _ in range(n):
            if len(hand) >= HAND_LIMIT or self.over:
                return
            self._draw_into_hand(p)

    def _remove_from_hand(self, p: int, cid: int) -> None:
        self.hands[p].remove(cid)
        self.known[p].discard(cid)

    def _end_game(self) -> None:
        self.over = True
        self.stack.clear()
        self.queue.clear()
        self._legal = None

    # ------------------------------------------------------------ turn flow

    def _begin_turn(self, p: int) -> None:
        self.current = p
        self.turn += 1
        counts = self.active[p]
        for name in MUSHROOMS:
            counts[name] = 0
        for t in self.forests[p].trees:
            for d in t.slots["bottom"]:
                name = d.species.name
                if name in counts:
                    counts[name] += 1
        self.stack.append(Pending(D_TURN, p))

    def _end_turn(self) -> None:
        if len(self.clearing) >= CLEARING_LIMIT:
            self.box.extend(self.clearing)
            self.clearing.clear()
        if self.extra_turns > 0:
            self.extra_turns -= 1
            self._begin_turn(self.current)
        else:
            self._begin_turn((self.current + 1) % self.num_players)

    def _advance(self) -> None:
        """Resolve queued steps until a decision is needed or the turn ends."""
        while not self.over and not self.stack:
            if not self.queue:
                self._end_turn()
                return
            step = self.queue.pop(0)
            if self._step_possible(step):
                self.stack.append(Pending(D_OPTION, self.current, step=step))

    def _step_possible(self, step: tuple[str, int, str, str]) -> bool:
        """False for a step that could change nothing (it is then skipped unasked)."""
        eff = _step_effect(step)
        p = self.current
        op = eff.op
        hand = self.hands[p]
        if op in ("draw", "draw_on_play", "draw_per_species", "draw_per_tag"):
            return len(hand) < HAND_LIMIT and self._draw_count(p, eff) > 0
        if op == "free_play" or op == "free_play_any":
            return bool(self._placements(p, eff.params["tag"], None))
        if op == "clearing_to_cave":
            return bool(self.clearing)
        if op == "hand_to_cave_redraw":
            return bool(hand)
        if op == "play_any_number_paying":
            pool = frozenset(hand)
            return bool(self._mole_plays(p, pool))
        return True  # extra_turn, draw_and_extra_turn

    def _draw_count(self, p: int, eff: Effect) -> int:
        op = eff.op
        if op == "draw_per_species":
            name = eff.params["species"]
            return sum(1 for t in self.forests[p].trees for side in SIDES
                       for d in t.slots[side] if d.species.name == name)
        if op == "draw_per_tag":
            tag = eff.params["tag"]
            return sum(1 for t in self.forests[p].trees for side in SIDES
                       for d in t.slots[side] if tag in d.species.tags)
        n: int = eff.params["n"]
        return n

    def _apply_step(self, step: tuple[str, int, str, str]) -> None:
        eff = _step_effect(step)
        p = self.current
        op = eff.op
        if op in ("draw", "draw_on_play", "draw_per_species", "draw_per_tag"):
            self._draw_n(p, self._draw_count(p, eff))
        elif op == "extra_turn":
            self.extra_turns += 1
        elif op == "draw_and_extra_turn":
            self.extra_turns += 1
            self._draw_n(p, eff.params["n"])
        elif op == "free_play":
            self.stack.append(Pending(D_FREE, p, tag=eff.params["tag"], need=eff.params["count"]))
        elif op == "free_play_any":
            self.stack.append(Pending(D_FREE, p, tag=eff.params["tag"], need=-1))
        elif op == "clearing_to_cave":
            self.caves[p].extend(self.clearing)
            self.forests[p].cave = len(self.caves[p])
            self.clearing.clear()
        elif op == "hand_to_cave_redraw":
            self.stack.append(Pending(D_RACCOON, p))
        elif op == "play_any_number_paying":
            self.stack.append(Pending(D_MOLE, p, pool=frozenset(self.hands[p])))
        else:  # pragma: no cover - the data loader admits no other op
            raise AssertionError(f"unhandled effect op {op}")

    # ------------------------------------------------------------ placing cards

    def _placements(self, p: int, tag: str | None, pool: frozenset[int] | None,
                    max_cost: int = 99) -> list[Action]:
        """Play actions for hand cards (in ``pool`` if given) whose played half or tree has
        ``tag`` (any if None) and costs at most ``max_cost``."""
        out: list[Action] = []
        trees = self.forests[p].trees
        n_trees = len(trees)
        for cid in self.hands[p]:
            if pool is not None and cid not in pool:
                continue
            card = _CARDS[cid]
            assert card is not None
            sp = card.species
            if sp is not None:
                if sp.cost <= max_cost and (tag is None or tag in sp.tags):
                    out.append(_A_TREE[cid])
                continue
            if not n_trees:
                continue
            for side, half in card.halves.items():
                hs = half.species
                if hs.cost > max_cost or (tag is not None and tag not in hs.tags):
                    continue
                acts = _half_actions(cid, side, n_trees)
                if hs.name in _SHARING:
                    out.extend(acts[i] for i, t in enumerate(trees) if t.accepts(hs, side))
                else:
                    out.extend(acts[i] for i, t in enumerate(trees) if not t.slots[side])
        return out

    def _place(self, p: int, cid: int, side: str, tree: int, via: str, sapling: bool,
               bonus: bool) -> list[tuple[str, int, str, str]]:
        """Put a card into p's forest; return its mushroom draws, effect and bonus steps
        in order. A tree (or sapling, by the rules setting) turns a deck card into the
        clearing."""
        card = _card(cid)
        forest = self.forests[p]
        rules = self.rules
        steps: list[tuple[str, int, str, str]] = []
        counts = self.active[p]
        mushrooms = via != VIA_FREE or rules.free_plays_trigger_mushrooms
        if sapling or not side:
            species = None if sapling else card.species
            forest.trees.append(TreeSite(species, cid))
            if not sapling or rules.sapling_reveals_card:
                top = self._draw_from_deck()
                if top is None:
                    return []
                self.clearing.append(top)
            if mushrooms and (not sapling or rules.sapling_triggers_chanterelle):
                steps.extend([(S_MUSHROOM, cid, "", "Chanterelle")] * counts["Chanterelle"])
            if sapling:
                return steps
            sp = card.species
        else:
            half = card.halves[side]
            sp = half.species
            forest.trees[tree].slots[side].append(Dweller(sp, half.symbol, cid))
            if mushrooms:
                if "pawed animal" in sp.tags:
                    steps.extend([(S_MUSHROOM, cid, side, "Fly Agaric")] * counts["Fly Agaric"])
                if side == "top":
                    steps.extend([(S_MUSHROOM, cid, side, "Penny Bun")] * counts["Penny Bun"])
                elif side == "bottom":
                    steps.extend([(S_MUSHROOM, cid, side, "Parasol Mushroom")]
                                 * counts["Parasol Mushroom"])
        assert sp is not None
        if via != VIA_FREE:
            if sp.effect is not None:
                steps.append((S_EFFECT, cid, side, sp.name))
            if bonus and sp.bonus is not None:
                steps.append((S_BONUS, cid, side, sp.name))
        return steps

    def _mole_plays(self, p: int, pool: frozenset[int]) -> list[Action]:
        """Cards from ``pool`` that can be played and paid for from ``pool``."""
        hand_pool = [c for c in self.hands[p] if c in pool]
        out = self._placements(p, None, pool, max_cost=len(hand_pool) - 1)
        if self.rules.mole_plays_saplings:
            out.extend(_A_SAPLING[c] for c in hand_pool)
        return out

    # ------------------------------------------------------------ legal actions

    def legal_actions(self) -> list[Action]:
        """Every legal action for the player to move (empty once the game is over)."""
        if self._legal is None:
            self._legal = self._compute_legal()
        return self._legal

    def _compute_legal(self) -> list[Action]:
        if self.over or not self.stack:
            return []
        pend = self.stack[-1]
        kind = pend.kind
        p = pend.player
        hand = self.hands[p]
        if kind == D_TURN:
            out: list[Action] = []
            if len(hand) < HAND_LIMIT:
                out.append(_A_DRAW)
                out.extend(_A_TAKE[c] for c in self.clearing)
            out.extend(self._placements(p, None, None, max_cost=len(hand) - 1))
            out.extend(_A_SAPLING[c] for c in hand)
            return out
        if kind == D_DRAW:
            return [_A_DRAW] + [_A_TAKE[c] for c in self.clearing]
        if kind == D_PAY:
            pool = [c for c in hand if pend.pool is None or c in pend.pool]
            pool.sort()
            last = pend.paid[-1] if pend.paid else 0
            need = pend.need
            return [_A_PAY[c] for i, c in enumerate(pool)
                    if c > last and len(pool) - i >= need]
        if kind == D_OPTION:
            return [_A_YES, _A_NO]
        if kind == D_FREE:
            return self._placements(p, pend.tag, None) + [_A_DONE]
        if kind == D_RACCOON:
            last = pend.paid[-1] if pend.paid else 0
            return [_A_CAVE[c] for c in sorted(hand) if c > last] + [_A_DONE]
        if kind == D_MOLE:
            assert pend.pool is not None
            return self._mole_plays(p, pend.pool) + [_A_DONE]
        if kind == D_MULLIGAN:
            return list(_A_KEEP_MULLIGAN)
        raise AssertionError(f"unknown decision {kind}")  # pragma: no cover

    # ------------------------------------------------------------ apply

    def apply(self, action: Action) -> None:
        """Apply a legal action. An illegal one raises IllegalActionError and changes
        nothing."""
        legal = self.legal_actions()
        if action not in legal:
            raise IllegalActionError(action, self._why_illegal(action))
        self._legal = None
        self.history.append(action)
        pend = self.stack.pop()
        kind = action.kind
        p = pend.player
        if pend.kind == D_TURN or pend.kind == D_DRAW:
            if kind in (DRAW, TAKE):
                self._do_draw(pend, action)
            elif kind == SAPLING:
                self._remove_from_hand(p, action.card)
                self.queue = self._place(p, action.card, "", -1, VIA_TURN, True, False)
            else:
                self._start_play(p, action, VIA_TURN, None)
        elif pend.kind == D_PAY:
            self._do_pay(pend, action.card)
        elif pend.kind == D_OPTION:
            if kind == YES:
                assert pend.step is not None
                self._apply_step(pend.step)
        elif pend.kind == D_FREE:
            if kind != DONE:
                self._remove_from_hand(p, action.card)
                steps = self._place(p, action.card, action.side, action.tree, VIA_FREE,
                                    False, False)
                self.queue[0:0] = steps
                if pend.need != 1 and not self.over:
                    pend.need -= 1 if pend.need > 0 else 0
                    if self._placements(p, pend.tag, None):
                        self.stack.append(pend)
        elif pend.kind == D_RACCOON:
            if kind == CAVE:
                self._remove_from_hand(p, action.card)
                self.caves[p].append(action.card)
                self.forests[p].cave = len(self.caves[p])
                pend.paid.append(action.card)
                if self.hands[p]:
                    self.stack.append(pend)
                else:
                    self._draw_n(p, len(pend.paid))
            else:
                self._draw_n(p, len(pend.paid))
        elif pend.kind == D_MOLE:
            if kind == DONE:
                self.queue[0:0] = pend.steps
            else:
                self.stack.append(pend)
                if kind == SAPLING:
                    self._remove_from_hand(p, action.card)
                    pend.steps.extend(self._place(p, action.card, "", -1, VIA_MOLE, True, False))
                    self._after_mole_play(pend)
                else:
                    self._start_play(p, action, VIA_MOLE, pend.pool)
        elif pend.kind == D_MULLIGAN:
            if kind == MULLIGAN:
                hand = self.hands[p]
                self.box.extend(hand)
                hand.clear()
                for _ in range(OPENING_HAND):
                    if not self._draw_into_hand(p):
                        break
            if not self.over:
                self._offer_mulligans(pend.need + 1)
            return
        if not self.over and not self.stack:
            self._advance()

    def _after_mole_play(self, mole: Pending) -> None:
        """After a card played through the Mole: offer the next one, or finish."""
        if self.over:
            return
        if not self._mole_plays(mole.player, mole.pool or frozenset()):
            self.stack.pop()
            self.queue[0:0] = mole.steps

    def _do_draw(self, pend: Pending, action: Action) -> None:
        p = pend.player
        if action.kind == TAKE:
            self.clearing.remove(action.card)
            self.hands[p].append(action.card)
            self.known[p].add(action.card)
        elif not self._draw_into_hand(p):
            return
        if pend.kind == D_TURN and len(self.hands[p]) < HAND_LIMIT:
            self.stack.append(Pending(D_DRAW, p))

    def _start_play(self, p: int, action: Action, via: str,
                    pool: frozenset[int] | None) -> None:
        cid = action.card
        card = _card(cid)
        self._remove_from_hand(p, cid)
        cost = _species_of(card, action.side).cost
        pend = Pending(D_PAY, p, card=cid, side=action.side, tree=action.tree, via=via,
                       need=cost, pool=pool)
        if cost == 0:
            self._finish_play(pend)
        else:
            self.stack.append(pend)

    def _do_pay(self, pend: Pending, cid: int) -> None:
        self._remove_from_hand(pend.player, cid)
        self.clearing.append(cid)  # payment goes face up into the clearing at once
        pend.paid.append(cid)
        pend.need -= 1
        if pend.need > 0:
            self.stack.append(pend)
        else:
            self._finish_play(pend)

    def _finish_play(self, pend: Pending) -> None:
        p = pend.player
        card = _card(pend.card)
        symbol = _symbol_of(card, pend.side)
        bonus = all(symbol in _card(c).symbols for c in pend.paid)
        steps = self._place(p, pend.card, pend.side, pend.tree, pend.via, False, bonus)
        if self.over:  # the tree revealed the third winter card (the stack is cleared)
            return
        if pend.via == VIA_MOLE:
            mole = self.stack[-1]
            mole.steps.extend(steps)
            self._after_mole_play(mole)
        else:
            self.queue = steps

    # ------------------------------------------------------------ reasons

    def _why_illegal(self, action: object) -> str:
        """A one-line reason why ``action`` is not legal now."""
        if not isinstance(action, Action):
            return "not an Action"
        if self.over:
            return "the game is over"
        pend = self.stack[-1]
        p = pend.player
        hand = self.hands[p]
        expected = {
            D_MULLIGAN: "keep or mulligan",
            D_TURN: "draw, take, play or sapling",
            D_DRAW: "draw or take (the second card)",
            D_PAY: "pay",
            D_OPTION: "yes or no",
            D_FREE: "play (a free card) or done",
            D_RACCOON: "cave or done",
            D_MOLE: "play (through the Mole) or done",
        }[pend.kind]
        kinds = {a.kind for a in self.legal_actions()}
        if action.kind not in kinds:
            # The kind fits the decision but no such action is legal now: say why.
            if action.kind in (DRAW, TAKE) and pend.kind == D_TURN and len(hand) >= HAND_LIMIT:
                return f"player {p + 1} holds {HAND_LIMIT} cards and may not draw"
            if action.kind == TAKE and pend.kind in (D_TURN, D_DRAW):
                return f"card {action.card} is not in the clearing"
            if (action.kind == PLAY and pend.kind in (D_TURN, D_FREE, D_MOLE)
                    or action.kind == SAPLING and pend.kind == D_MOLE):
                if action.card not in hand:
                    return f"card {action.card} is not in player {p + 1}'s hand"
                return self._why_not_placeable(p, action, pend)
            return f"player {p + 1} must choose: {expected}"
        if action.kind in (PLAY, SAPLING, PAY, CAVE) and action.card not in hand:
            return f"card {action.card} is not in player {p + 1}'s hand"
        if action.kind == TAKE and action.card not in self.clearing:
            return f"card {action.card} is not in the clearing"
        if action.kind == PAY:
            if pend.pool is not None and action.card not in pend.pool:
                return f"card {action.card} was not in hand when the Mole was played"
            return "pay cards in ascending order of their numbers"
        if action.kind == CAVE:
            return "put cards under the cave in ascending order of their numbers"
        if action.kind in (PLAY, SAPLING):
            return self._why_not_placeable(p, action, pend)
        return "not allowed now"

    def _why_not_placeable(self, p: int, action: Action, pend: Pending) -> str:
        card = _card(action.card)
        if action.kind == SAPLING:
            return "the Mole plays cards by their printed cost, not as saplings"
        if card.is_tree:
            if action.side:
                return f"card {card.id} is a tree: write 'play {card.id}'"
        else:
            if not action.side:
                sides = "/".join(card.halves)
                return f"card {card.id} is a split card: name a half ({sides}) and a tree"
            if action.side not in card.halves:
                return f"card {card.id} has no {action.side} half ({'/'.join(card.halves)})"
            trees = self.forests[p].trees
            if not 0 <= action.tree < len(trees):
                return f"there is no tree {action.tree + 1} in the forest ({len(trees)} trees)"
            sp = card.halves[action.side].species
            if not trees[action.tree].accepts(sp, action.side):
                return f"the {action.side} slot of tree {action.tree + 1} is taken"
        sp = _species_of(card, action.side)
        if pend.kind == D_FREE and pend.tag not in sp.tags:
            return f"{sp.name} is not a {pend.tag}"
        if pend.kind == D_MOLE and pend.pool is not None and action.card not in pend.pool:
            return f"card {card.id} was not in hand when the Mole was played"
        return f"{sp.name} costs {sp.cost} and there are not enough other cards to pay"

    # ------------------------------------------------------------ results

    def scores(self) -> list[int]:
        """Each player's total by the score pad (trees, top/bottom, left/right, cave)."""
        from .scoring import totals

        return totals(self.forests)

    def winners(self) -> list[int]:
        """Every player with the top total (a tie shares the victory)."""
        sc = self.scores()
        best = max(sc)
        return [i for i, v in enumerate(sc) if v == best]

    # ------------------------------------------------------------ copies

    def clone(self) -> GameState:
        """An independent copy: applying actions to it leaves this state unchanged."""
        s = GameState.__new__(GameState)
        s.num_players = self.num_players
        s.seed = self.seed
        s.deal = self.deal
        s.rules = self.rules
        s.first_player = self.first_player
        s.deck = self.deck[:]
        s.box = self.box[:]
        s.clearing = self.clearing[:]
        s.winter = self.winter[:]
        s.hands = [h[:] for h in self.hands]
        s.forests = [f.copy() for f in self.forests]
        s.caves = [c[:] for c in self.caves]
        s.known = [set(k) for k in self.known]
        s.current = self.current
        s.turn = self.turn
        s.extra_turns = self.extra_turns
        s.over = self.over
        s.stack = [p.copy() for p in self.stack]
        s.queue = self.queue[:]
        s.active = [dict(a) for a in self.active]
        s.history = self.history[:]
        s._legal = None
        return s

    def locations(self) -> dict[int, str]:
        """Where every deck card is: ``hand 1``, ``deck``, ``clearing``, ``winter``, ``box``,
        ``forest 2 tree 3``, ``forest 2 tree 3 left``, ``cave 1``, ``in play`` (a card
        being paid for)."""
        where: dict[int, str] = {}
        for c in self.deck:
            where[c] = "deck"
        for c in self.box:
            where[c] = "box"
        for c in self.clearing:
            where[c] = "clearing"
        for c in self.winter:
            where[c] = "winter"
        for i, h in enumerate(self.hands):
            for c in h:
                where[c] = f"hand {i + 1}"
        for i, cave in enumerate(self.caves):
            for c in cave:
                where[c] = f"cave {i + 1}"
        for i, f in enumerate(self.forests):
            for j, t in enumerate(f.trees):
                if t.card is not None:
                    where[t.card] = f"forest {i + 1} tree {j + 1}"
                for side in SIDES:
                    for d in t.slots[side]:
                        if d.card is not None:
                            where[d.card] = f"forest {i + 1} tree {j + 1} {side}"
        for pend in self.stack:
            if pend.kind == D_PAY:
                where[pend.card] = "in play"
        return where

    # ------------------------------------------------------------ save / load

    def to_dict(self) -> dict[str, Any]:
        """The whole state as JSON-ready data; :meth:`from_dict` restores it exactly."""
        return {
            "format": FORMAT,
            "num_players": self.num_players,
            "seed": self.seed,
            "deal": self.deal,
            "rules": self.rules.to_dict(),
            "first_player": self.first_player,
            "deck": self.deck[:],
            "box": self.box[:],
            "clearing": self.clearing[:],
            "winter": self.winter[:],
            "hands": [h[:] for h in self.hands],
            "forests": [
                {"trees": [{"card": t.card, "sapling": t.species is None,
                            "slots": {s: [d.card for d in t.slots[s]] for s in SIDES}}
                           for t in f.trees]}
                for f in self.forests
            ],
            "caves": [c[:] for c in self.caves],
            "known": [sorted(k) for k in self.known],
            "current": self.current,
            "turn": self.turn,
            "extra_turns": self.extra_turns,
            "over": self.over,
            "stack": [p.to_dict() for p in self.stack],
            "queue": [list(q) for q in self.queue],
            "active": [dict(a) for a in self.active],
            "history": [str(a) for a in self.history],
        }

    @staticmethod
    def from_dict(data: dict[str, Any]) -> GameState:
        """Restore a state saved by :meth:`to_dict`.
        :class:`~forest_shuffle.state_check.BrokenSaveError` (a ValueError, one line naming
        the first problem) if it is not one a game can reach: the shape and every card are
        checked before the state is built, the whole state after (:mod:`.state_check`)."""
        from .actions import ActionParseError
        from .state_check import BrokenSaveError, check_save, check_state, printable

        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise BrokenSaveError(f"not a saved game (expected format {FORMAT!r})")
        check_save(data)
        try:
            s = GameState.__new__(GameState)
            s.num_players = int(data["num_players"])
            s.seed = int(data["seed"])
            # Saves from before the keyed deal have no scheme: they were dealt the old way.
            s.deal = data.get("deal", LEGACY)
            check_seed(s.seed, s.deal)
            s.rules = Rules.from_dict(data["rules"])
            s.first_player = int(data["first_player"])
            s.deck = list(data["deck"])
            s.box = list(data["box"])
            s.clearing = list(data["clearing"])
            s.winter = list(data["winter"])
            s.hands = [list(h) for h in data["hands"]]
            s.forests = []
            for f in data["forests"]:
                trees = []
                for t in f["trees"]:
                    card = _card(t["card"])
                    site = TreeSite(None if t["sapling"] else card.species, card.id)
                    for side in SIDES:
                        site.slots[side] = [Dweller.of_card(_card(c), side)
                                            for c in t["slots"][side]]
                    trees.append(site)
                s.forests.append(Forest(trees))
            s.caves = [list(c) for c in data["caves"]]
            for f, cave in zip(s.forests, s.caves, strict=True):
                f.cave = len(cave)
            s.known = [set(k) for k in data["known"]]
            s.current = int(data["current"])
            s.turn = int(data["turn"])
            s.extra_turns = int(data["extra_turns"])
            s.over = bool(data["over"])
            s.stack = [Pending.from_dict(p) for p in data["stack"]]
            s.queue = [(q[0], q[1], q[2], q[3]) for q in data["queue"]]
            s.active = [{m: int(a[m]) for m in MUSHROOMS} for a in data["active"]]
            s.history = []
            for k, text in enumerate(data["history"]):
                try:
                    s.history.append(_parse_action(text))
                except ActionParseError as exc:
                    raise BrokenSaveError(f"broken saved game: history[{k}] "
                                          f"{printable(repr(text[:40]))}: {exc}") from None
            s._legal = None
        except BrokenSaveError:
            raise
        except (KeyError, TypeError, IndexError, AssertionError, ValueError) as exc:
            why = printable(str(exc).split("\n")[0][:200]) or type(exc).__name__
            raise BrokenSaveError(f"broken saved game: {why}") from None
        check_state(s)
        return s

    # ------------------------------------------------------------ views

    def view(self, player: int) -> PlayerView:
        """What ``player`` may see: never another hand (beyond cards seen taken from the
        clearing), the deck order, the box or the cards under a cave."""
        from .view import make_view

        return make_view(self, player)


from .view import PlayerView  # noqa: E402  (PlayerView refers back to this module)
