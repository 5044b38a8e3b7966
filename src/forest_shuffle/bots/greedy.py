"""The greedy bot: a one-step heuristic that knows the cards.

Contract: :class:`GreedyBot` chooses from a :class:`~forest_shuffle.view.PlayerView` only.
Each decision is scored by hand-written estimates: the exact change of the own score
(minus the best rival's change) from :func:`forest_shuffle.scoring.totals` on the forest
with the card placed, what the card enables (tree slots, set progress, draws, extra turns,
free plays, the cave), the bonus when a matching payment is affordable, and the value of the
cards paid (the least useful ones, matching symbols when the bonus is worth it). The same
policy runs on a full :class:`~forest_shuffle.engine.GameState` (:func:`greedy_action`), for
search rollouts; ``exact=False`` skips the scorer for speed. Deterministic: ties are broken
by the order of the legal actions, so the seed does not matter.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..actions import CAVE, DONE, DRAW, KEEP, MULLIGAN, NO, PAY, PLAY, SAPLING, TAKE, YES, Action
from ..cards import CATALOG, SIDES, Card, Effect, Species
from ..engine import GameState
from ..forest import Dweller, Forest, TreeSite
from ..rules import HAND_LIMIT
from ..scoring import totals
from ..view import PlayerView
from .base import Bot, Budget

#: Value of one unknown card drawn from the deck, in points.
CARD = 2.2
#: Value of an extra turn, in points.
TURN = 4.5

_CARDS: tuple[Card | None, ...] = CATALOG.cards
_MUSHROOMS = frozenset(
    sp.name for sp in CATALOG.species.values()
    if sp.permanent is not None and sp.permanent.op == "draw_on_play")
_DECK_START = 158.0


def card_of(cid: int) -> Card:
    c = _CARDS[cid]
    assert c is not None
    return c


@dataclass(slots=True)
class Situation:
    """What the heuristic reads: one player's hand, the table and the pending decision."""

    player: int
    hand: Sequence[int]
    forests: Sequence[Forest]
    clearing: Sequence[int]
    deck_size: int
    kind: str
    card: int
    side: str
    need: int
    paid: Sequence[int]
    species: str  # the species whose step is offered (option) or the free-play tag
    legal: Sequence[Action]


def situation_of_view(view: PlayerView) -> Situation:
    """The situation of the player whose view it is (at that player's decision)."""
    pend = view.pending
    assert pend is not None
    return Situation(view.player, view.hand, view.forests, view.clearing, view.deck_size,
                     pend.kind, pend.card, pend.side, pend.need, pend.paid, pend.species,
                     view.legal_actions)


def situation_of_state(state: GameState) -> Situation:
    """The situation of the player to move in a full state (for rollouts)."""
    pend = state.stack[-1]
    p = pend.player
    species = pend.step[3] if pend.step is not None else pend.tag
    return Situation(p, state.hands[p], state.forests, state.clearing, len(state.deck),
                     pend.kind, pend.card, pend.side, pend.need, pend.paid, species,
                     state.legal_actions())


# ---------------------------------------------------------------------- forest facts


@dataclass(slots=True)
class _Ctx:
    """Facts about the own forest gathered once per decision."""

    counts: dict[str, int]
    tags: dict[str, int]
    trees: int
    tree_species: int
    free: dict[str, int]  # empty slots by side
    bottom: int
    full: int
    most_trees: bool
    symbols: dict[str, int]
    hand: int
    late: float  # 0 at the start of the game, 1 when the deck is exhausted
    clearing: int


def _ctx(s: Situation) -> _Ctx:
    forest = s.forests[s.player]
    counts: dict[str, int] = {}
    tags: dict[str, int] = {}
    symbols: dict[str, int] = {}
    free = dict.fromkeys(SIDES, 0)
    bottom = full = 0
    species: set[str] = set()
    for t in forest.trees:
        if t.species is not None:
            n = t.species.name
            species.add(n)
            counts[n] = counts.get(n, 0) + 1
            symbols[n] = symbols.get(n, 0) + 1
        occupied = 0
        for side in SIDES:
            stack = t.slots[side]
            if not stack:
                free[side] += 1
                continue
            occupied += 1
            for d in stack:
                n = d.species.name
                counts[n] = counts.get(n, 0) + 1
                for tag in d.species.tags:
                    tags[tag] = tags.get(tag, 0) + 1
                if d.symbol:
                    symbols[d.symbol] = symbols.get(d.symbol, 0) + 1
            if side == "bottom":
                bottom += len(stack)
        if occupied == 4:
            full += 1
    ntrees = len(forest.trees)
    most = all(len(f.trees) <= ntrees for f in s.forests)
    late = 1.0 - min(1.0, s.deck_size / _DECK_START)
    return _Ctx(counts, tags, ntrees, len(species), free, bottom, full, most, symbols,
                len(s.hand), late, len(s.clearing))


# ---------------------------------------------------------------------- estimates


def potential(sp: Species, c: _Ctx) -> float:
    """Rough points a species half (or tree) brings when played into this forest, beyond
    its immediate score (future set progress, slots) plus its immediate score where the
    exact scorer is not used."""
    pts = sp.points
    rule = pts.rule
    a = float(pts.get("points_each", pts.get("points_per", pts.get("points_per_card", 0))))
    name = sp.name
    have = c.counts.get(name, 0)
    if sp.is_tree:
        slots = 2.0 + 0.7 * max(0, 8 - sum(c.free.values()))
        if name == "Linden":
            base = 2.0
        elif name == "Oak":
            base = 10.0 if c.tree_species >= 7 and have == 0 else 1.0
        elif name == "Silver Fir":
            base = 4.0
        elif name == "Birch":
            base = 1.0
        elif name == "Beech":
            base = 5.0 if have >= 3 else 2.0 + have
        elif name == "Sycamore":
            base = 1.0 + c.trees * 0.8
        elif name == "Douglas Fir":
            base = 5.0
        else:  # Horse Chestnut
            base = 2.0 * have + 1.0
        if have == 0:
            base += 0.8  # a new tree species (Oak, Wild Strawberries)
        return base + slots * (1.0 - 0.6 * c.late)
    if rule == "none":
        if name in _MUSHROOMS:
            return 4.0 * (1.0 - c.late)
        return 1.0
    if rule == "flat":
        return a
    if rule == "per_tag":
        key = pts.params["tag"]
        n = c.trees if key == "tree" else c.tags.get(key, 0)
        if pts.get("includes_self"):
            n += 1
        return a * n + a * 1.5 * (1.0 - c.late)
    if rule == "per_tags":
        return a * (c.trees + c.tags.get("plant", 0)) + 2.0
    if rule == "per_species":
        key = pts.params["species"]
        n = c.counts.get(key, 0) + (1 if key == name else 0)
        return a * n + 1.0
    if rule == "requires_species":
        return a if c.counts.get(pts.params["species"], 0) else 3.0
    if rule == "butterfly_sets":
        kinds = sum(1 for k in _BUTTERFLIES if c.counts.get(k, 0))
        return 4.0 if have == 0 else 1.5 + 0.3 * kinds
    if rule == "bat_variety":
        kinds = sum(1 for k in _BATS if c.counts.get(k, 0))
        if kinds >= 3 or (kinds == 2 and have == 0):
            return 5.0 + (10.0 if kinds == 2 else 0.0)
        return 3.0 if have == 0 else 1.0
    if rule == "set_table":
        table = pts.params["table"]
        now = _lookup(table, have)
        nxt = _lookup(table, have + 1)
        return max(nxt - now, 4.0 if have == 0 else 0.0)
    if rule == "per_fully_occupied_tree":
        return a * c.full + 2.0
    if rule == "paired_in_slot":
        return 3.0
    if rule == "min_trees":
        return a if c.trees >= 7 else 2.0 * (1.0 - c.late)
    if rule == "all_tree_species":
        return a if c.tree_species >= 6 else 1.0
    if rule == "on_tree_species":
        return a if c.counts.get(pts.params["tree"], 0) else 1.0
    if rule == "bat_opposite":
        return 6.0 if c.tags.get("bat", 0) else 3.0
    if rule == "per_own_tree_symbol":
        return 3.0 + 3.0 * 1.5
    if rule == "per_bottom_card":
        return a * (c.bottom + 1) + 2.0 * (1.0 - c.late)
    if rule == "most_trees":
        return a if c.most_trees else 3.0
    return a


_BUTTERFLIES = tuple(sp.name for sp in CATALOG.species.values()
                     if sp.points.rule == "butterfly_sets")
_BATS = tuple(sp.name for sp in CATALOG.species.values() if sp.points.rule == "bat_variety")


def _lookup(table: object, n: int) -> float:
    assert isinstance(table, dict)
    best = 0.0
    for key, value in table.items():
        k = str(key)
        m = int(k[:-1]) if k.endswith("+") else int(k)
        if m <= n:
            best = max(best, float(value))
    return best


def effect_value(eff: Effect | None, c: _Ctx, hand: Sequence[int], room: int) -> float:
    """Points an effect or bonus is worth now; ``room`` is the free hand space after it."""
    if eff is None:
        return 0.0
    op = eff.op
    draw_v = CARD * (1.0 - 0.5 * c.late)
    if op == "draw":
        return draw_v * min(int(eff.params["n"]), max(room, 0))
    if op == "draw_per_species":
        return draw_v * min(c.counts.get(eff.params["species"], 0), max(room, 0))
    if op == "draw_per_tag":
        return draw_v * min(c.tags.get(eff.params["tag"], 0), max(room, 0))
    if op == "extra_turn":
        return TURN
    if op == "draw_and_extra_turn":
        return TURN + draw_v * min(int(eff.params["n"]), max(room, 0))
    if op in ("free_play", "free_play_any"):
        tag = eff.params["tag"]
        n = 0
        for cid in hand:
            card = card_of(cid)
            if any(tag in h.species.tags for h in card.halves.values()):
                n += 1
        if op == "free_play":
            n = min(n, 1)
        return 3.5 * n
    if op == "clearing_to_cave":
        return float(c.clearing)
    if op == "hand_to_cave_redraw":
        return 2.5
    if op == "play_any_number_paying":
        return 2.0
    return 0.0


def hand_value(cid: int, c: _Ctx) -> float:
    """How much a card is worth keeping in hand (to play later or pay with)."""
    card = card_of(cid)
    if card.species is not None:
        sp = card.species
        v = potential(sp, c) - 0.8 * sp.cost * CARD * 0.5
    else:
        v = 0.0
        for side, half in card.halves.items():
            sp = half.species
            slot = c.free[side] > 0 or sp.name in ("European Hare", "Common Toad")
            pv = potential(sp, c) * (1.0 if slot else 0.6) - 0.5 * sp.cost * CARD * 0.8
            v = max(v, pv)
    return max(1.0, min(v, 12.0)) * 0.5 + 0.5


# ---------------------------------------------------------------------- the policy


class _Eval:
    """Scores a situation's actions; ``exact`` uses the scorer for the immediate change."""

    def __init__(self, s: Situation, exact: bool) -> None:
        self.s = s
        self.exact = exact
        self.c = _ctx(s)
        self.hv = {cid: hand_value(cid, self.c) for cid in s.hand}
        self.base: list[int] | None = None

    # -- immediate score change

    def _delta(self, place: TreeSite | tuple[int, str, Dweller]) -> float:
        s = self.s
        forests = s.forests
        if self.base is None:
            self.base = totals(forests)
        forest = forests[s.player]
        if isinstance(place, TreeSite):
            forest.trees.append(place)
            try:
                new = totals(forests)
            finally:
                forest.trees.pop()
        else:
            tree, side, d = place
            stack = forest.trees[tree].slots[side]
            stack.append(d)
            try:
                new = totals(forests)
            finally:
                stack.pop()
        base = self.base
        p = s.player
        mine = new[p] - base[p]
        others = [i for i in range(len(base)) if i != p]
        if not others:
            return float(mine)
        rival_new = max(new[i] for i in others)
        rival_old = max(base[i] for i in others)
        return float(mine - (rival_new - rival_old))

    # -- payment

    def payment(self, exclude: int, cost: int, symbol: str, bonus: float,
                pool: Sequence[int] | None = None, after: int = 0) -> tuple[float, list[int]]:
        """The least valuable way to pay ``cost`` cards (matching ``symbol`` when the
        bonus is worth it): (net cost in points, cards)."""
        if cost <= 0:
            return (-bonus, [])
        cands = [cid for cid in (pool if pool is not None else self.s.hand)
                 if cid != exclude and cid > after]
        hv = self.hv
        cands.sort(key=lambda x: (hv.get(x, 1.0), x))
        if len(cands) < cost:
            return (1e9, [])
        cheap = cands[:cost]
        best = (sum(hv.get(x, 1.0) for x in cheap), cheap)
        if bonus > 0:
            match = [x for x in cands if symbol in card_of(x).symbols]
            if len(match) >= cost:
                m = match[:cost]
                mv = sum(hv.get(x, 1.0) for x in m) - bonus
                if mv < best[0]:
                    best = (mv, m)
        return best

    # -- one play

    def play_value(self, a: Action, pool: Sequence[int] | None = None) -> float:
        s, c = self.s, self.c
        card = card_of(a.card)
        if a.kind == SAPLING:
            site = TreeSite(None, a.card)
            d = self._delta(site) if self.exact else 0.0
            slots = 2.0 + 0.7 * max(0, 8 - sum(c.free.values()))
            return d + slots * (1.0 - 0.6 * c.late) - self.hv.get(a.card, 1.0) * 0.6
        if a.side:
            half = card.halves[a.side]
            sp = half.species
            symbol = half.symbol
            if self.exact:
                imm = self._delta((a.tree, a.side, Dweller(sp, symbol, a.card)))
                fut = max(0.0, potential(sp, c) - imm) * 0.4 if imm < 1 else 0.0
                val = imm + fut
            else:
                val = potential(sp, c)
        else:
            tree_sp = card.species
            assert tree_sp is not None
            sp = tree_sp
            symbol = sp.name
            if self.exact:
                imm = self._delta(TreeSite(sp, a.card))
                slots = 2.0 + 0.7 * max(0, 8 - sum(c.free.values()))
                val = imm + slots * (1.0 - 0.6 * c.late)
                if sp.name == "Beech" and c.counts.get("Beech", 0) < 3:
                    val += 1.0 + c.counts.get("Beech", 0)
                if sp.name == "Horse Chestnut":
                    val += 1.0
            else:
                val = potential(sp, c)
        cost = sp.cost
        room = HAND_LIMIT - (c.hand - 1 - cost)
        val += effect_value(sp.effect, c, s.hand, room)
        bonus = effect_value(sp.bonus, c, s.hand, room) if sp.bonus is not None else 0.0
        pay, _ = self.payment(a.card, cost, symbol, bonus, pool)
        return val - pay

    # -- choices per decision

    def choose(self) -> Action:
        s = self.s
        kind = s.kind
        legal = s.legal
        if len(legal) == 1:
            return legal[0]
        if kind == "mulligan":
            return Action(MULLIGAN) if Action(MULLIGAN) in legal else Action(KEEP)
        if kind == "turn":
            return self._turn()
        if kind == "draw":
            return self._draw_second()
        if kind == "pay":
            return self._pay()
        if kind == "option":
            return Action(YES) if Action(YES) in legal else Action(NO)
        if kind in ("free", "mole"):
            return self._best_play(allow_done=True)
        if kind == "raccoon":
            return self._raccoon()
        return legal[0]

    def _draw_value(self) -> float:
        c = self.c
        n = min(2, HAND_LIMIT - c.hand)
        crowd = 1.0 if c.hand <= 5 else max(0.2, 1.0 - 0.15 * (c.hand - 5))
        return CARD * n * crowd

    def _take_value(self, cid: int) -> float:
        return self.hv.get(cid, hand_value(cid, self.c))

    def turn_values(self) -> list[tuple[float, Action]]:
        """Every legal turn action with its estimated value."""
        s = self.s
        draw_v = self._draw_value()
        second = CARD
        out: list[tuple[float, Action]] = []
        for a in s.legal:
            if a.kind == DRAW:
                v = draw_v
            elif a.kind == TAKE:
                v = self._take_value(a.card) * 1.6 + (second if self.c.hand <= 8 else 0.0)
                v = v * (draw_v / (CARD * 2) if draw_v > 0 else 0.0) + 0.01
            else:
                v = self.play_value(a)
            out.append((v, a))
        return out

    def _turn(self) -> Action:
        best: Action | None = None
        best_v = -1e18
        for v, a in self.turn_values():
            if v > best_v:
                best_v, best = v, a
        assert best is not None
        return best

    def ranked(self, k: int) -> list[Action]:
        """At most ``k`` promising legal actions, the greedy choice first."""
        first = self.choose()
        if self.s.kind != "turn":
            rest = [a for a in self.s.legal if a != first]
            return [first] + rest[:max(0, k - 1)]
        vals = sorted(self.turn_values(), key=lambda va: -va[0])
        out = [first] + [a for _, a in vals if a != first]
        return out[:k]

    def _draw_second(self) -> Action:
        best: Action = Action(DRAW)
        best_v = CARD
        for a in self.s.legal:
            if a.kind == TAKE:
                v = self._take_value(a.card) * 1.6
                if v > best_v:
                    best_v, best = v, a
        return best if best in self.s.legal else self.s.legal[0]

    def _pay(self) -> Action:
        s = self.s
        card = card_of(s.card)
        if s.side:
            half = card.halves[s.side]
            sp, symbol = half.species, half.symbol
        else:
            assert card.species is not None
            sp, symbol = card.species, card.species.name
        pays = [a.card for a in s.legal if a.kind == PAY]
        matched = all(symbol in card_of(x).symbols for x in s.paid)
        bonus = 0.0
        if matched and sp.bonus is not None:
            room = HAND_LIMIT - (self.c.hand - s.need)
            bonus = effect_value(sp.bonus, self.c, s.hand, room)
        after = s.paid[-1] if s.paid else 0
        pool = [x for x in s.hand if x > after]
        _, cards = self.payment(-1, s.need, symbol, bonus, pool)
        for x in sorted(cards):
            if x in pays:
                return Action(PAY, x)
        return Action(PAY, min(pays))

    def _best_play(self, allow_done: bool) -> Action:
        s = self.s
        best: Action | None = None
        best_v = 0.0 if allow_done else -1e18
        free = s.kind == "free"
        for a in s.legal:
            if a.kind not in (PLAY, SAPLING):
                continue
            v = self._free_value(a) if free else self.play_value(a)
            if v > best_v:
                best_v, best = v, a
        if best is None:
            return Action(DONE) if Action(DONE) in s.legal else s.legal[0]
        return best

    def _free_value(self, a: Action) -> float:
        card = card_of(a.card)
        half = card.halves[a.side]
        if self.exact:
            v = self._delta((a.tree, a.side, Dweller(half.species, half.symbol, a.card)))
        else:
            v = potential(half.species, self.c)
        return v + 1.0  # a free card is a card not paid for

    def _raccoon(self) -> Action:
        keep_above = CARD + 1.0
        for a in self.s.legal:
            if a.kind == CAVE and self.hv.get(a.card, 1.0) < keep_above:
                return a
        return Action(DONE)


def greedy_action(state: GameState, exact: bool = True) -> Action:
    """The greedy choice for the player to move in a full state (rollouts use this; the
    heuristic reads only the mover's hand and the public table)."""
    return _Eval(situation_of_state(state), exact).choose()


def ranked_actions(state: GameState, k: int, exact: bool = False) -> list[Action]:
    """At most ``k`` promising legal actions of the player to move, the greedy one first."""
    return _Eval(situation_of_state(state), exact).ranked(k)


def ranked_view_actions(view: PlayerView, k: int, exact: bool = True) -> list[Action]:
    """At most ``k`` promising legal actions from a view, the greedy one first."""
    return _Eval(situation_of_view(view), exact).ranked(k)


def greedy_view_action(view: PlayerView, exact: bool = True) -> Action:
    """The greedy choice from a player's view."""
    return _Eval(situation_of_view(view), exact).choose()


class GreedyBot(Bot):
    """One-step heuristic player (well under 10 ms a decision)."""

    name = "greedy"

    def __init__(self, seed: int = 0, exact: int = 1) -> None:
        super().__init__(seed)
        self.exact = bool(exact)

    def choose(self, view: PlayerView, budget: Budget | None = None) -> Action:
        legal = view.legal_actions
        if not legal:
            raise ValueError(f"player {view.player + 1} has no decision to make")
        if len(legal) == 1:
            return legal[0]
        a = greedy_view_action(view, self.exact)
        return a if a in legal else legal[0]


def hand_values(state: GameState, p: int) -> list[float]:
    """Greedy's keep value (:func:`hand_value`) of each card in player ``p``'s hand, read
    from a full state (for the search's cut-off evaluation)."""
    hand = state.hands[p]
    s = Situation(p, hand, state.forests, state.clearing, len(state.deck), "", 0, "", 0,
                  (), "", ())
    c = _ctx(s)
    return [hand_value(cid, c) for cid in hand]
