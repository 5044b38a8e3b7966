"""Determinization: a full game state sampled to agree with one player's view.

Contract: :class:`Determinizer` is built from a :class:`~forest_shuffle.view.PlayerView`
at that player's own decision (and optionally a :class:`TurnMemory` of the player's own
earlier choices this turn); :meth:`Determinizer.sample` returns a new
:class:`~forest_shuffle.engine.GameState` in which

- everything the view shows is as shown: the own hand (same order) and cave, every forest
  (others' face-down saplings get sampled ids), the clearing, the revealed winter cards, the
  cards others were seen taking from the clearing (fixed in their hands), the sizes of every
  hand, cave, the deck and the box;
- the unseen cards (others' other hand cards, their caves and saplings, the box, the deck)
  are one uniformly shuffled multiset of the card ids not seen anywhere, dealt into those
  places with the right counts, every card in exactly one place;
- the winter cards not yet revealed lie where the setup rule allows: before the first one
  is revealed, the third winter card is the first card of the bottom third and the other two
  lie uniformly below it; afterwards the rest lie uniformly in the remaining deck (all of it
  is then the bottom pile);
- the pending decision is the view's, so the legal actions are the view's. What the view
  does not show of the decision in progress (the queue of effects still to come, a Mole's
  deferred steps) is rebuilt from the played card and the memory, as well as it can be.

Rules switches are not part of a view: the default :class:`~forest_shuffle.rules.Rules`
are assumed. The view itself is never modified.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..actions import CAVE, PLAY, Action
from ..cards import CATALOG, Card
from ..engine import (
    D_MOLE,
    D_OPTION,
    D_PAY,
    D_RACCOON,
    MUSHROOMS,
    S_BONUS,
    S_EFFECT,
    S_MUSHROOM,
    VIA_MOLE,
    VIA_TURN,
    GameState,
    Pending,
)
from ..forest import Forest
from ..rules import REMOVED_AT_SETUP, Rules
from ..view import PlayerView

_CARDS: tuple[Card | None, ...] = CATALOG.cards
WINTER_IDS: tuple[int, ...] = tuple(c.id for c in CATALOG.cards if c is not None and c.is_winter)
ALL_IDS: tuple[int, ...] = tuple(c.id for c in CATALOG.cards if c is not None)


def _card(cid: int) -> Card:
    c = _CARDS[cid]
    assert c is not None
    return c


@dataclass(slots=True)
class TurnMemory:
    """A player's own choices in the current turn: (decision kind, action) in order."""

    turn: int = -1
    choices: list[tuple[str, Action]] = field(default_factory=list)

    def note(self, turn: int, kind: str, action: Action) -> None:
        """Record a choice made at decision ``kind`` of turn ``turn``."""
        if turn != self.turn:
            self.turn = turn
            self.choices = []
        self.choices.append((kind, action))

    def for_turn(self, turn: int) -> list[tuple[str, Action]]:
        return self.choices if turn == self.turn else []


class DeterminizeError(ValueError):
    """The view is not consistent with the card counts (a bug, or a foreign view)."""


class Determinizer:
    """Samples full states consistent with one view (see the module contract)."""

    def __init__(self, view: PlayerView, memory: TurnMemory | None = None,
                 rules: Rules | None = None) -> None:
        if view.pending is None or view.over:
            raise DeterminizeError("the view has no pending decision")
        self.view = view
        self.rules = rules or Rules()
        me = view.player
        n = view.num_players
        seen: set[int] = set(view.hand) | set(view.own_cave) | set(view.clearing)
        seen |= set(view.winter)
        for i, k in enumerate(view.known_hands):
            if i != me:
                seen |= set(k)
        self.hidden_saplings: list[tuple[int, int]] = []  # (player, tree index)
        for i, f in enumerate(view.forests):
            seen |= set(f.card_ids())
            if i != me:
                for j, t in enumerate(f.trees):
                    if t.card is None:
                        self.hidden_saplings.append((i, j))
        pend = view.pending
        if pend.kind == D_PAY and pend.player == me:
            seen.add(pend.card)  # the card being paid for is in play
        self.unrevealed = [w for w in WINTER_IDS if w not in view.winter]
        self.unseen = sorted(c for c in ALL_IDS if c not in seen and c not in WINTER_IDS)
        self.hand_gaps = [0 if i == me else view.hand_sizes[i] - len(view.known_hands[i])
                          for i in range(n)]
        self.cave_gaps = [0 if i == me else view.cave_sizes[i] for i in range(n)]
        deck_plain = view.deck_size - len(self.unrevealed)
        slots = (sum(self.hand_gaps) + sum(self.cave_gaps) + len(self.hidden_saplings)
                 + view.box_size + deck_plain)
        if deck_plain < 0 or slots != len(self.unseen):
            raise DeterminizeError(
                f"view of player {me + 1}: {len(self.unseen)} unseen cards for {slots} places")
        self.deck_plain = deck_plain
        removed = REMOVED_AT_SETUP[n]
        rest = len(ALL_IDS) - len(WINTER_IDS) - removed
        #: index (from the bottom) of the third winter card while none is revealed
        self.first_winter_at = rest // 3 + 2
        self.memory = memory.for_turn(view.turn) if memory is not None else []
        self._stack, self._queue, self._active = self._decision()
        self.first_player = 0
        if pend.kind == "mulligan":
            self.first_player = (pend.player - pend.need) % n

    # ------------------------------------------------------------ the decision

    def _own_mushrooms(self) -> dict[str, int]:
        """Mushrooms below the own trees (those in the forest now)."""
        counts = dict.fromkeys(MUSHROOMS, 0)
        for t in self.view.forests[self.view.player].trees:
            for d in t.slots["bottom"]:
                if d.species.name in counts:
                    counts[d.species.name] += 1
        return counts

    def _decision(self) -> tuple[list[Pending], list[tuple[str, int, str, str]], dict[str, int]]:
        view = self.view
        pend = view.pending
        assert pend is not None
        me = pend.player
        active = self._own_mushrooms()
        # Mushrooms placed earlier this turn are not active yet.
        placed_now: list[tuple[int, str]] = [(a.card, a.side) for k, a in self.memory
                                             if a.kind == PLAY and a.side]
        if pend.kind == D_OPTION and (pend.card, pend.side) not in placed_now and pend.side:
            placed_now.append((pend.card, pend.side))
        for cid, side in placed_now:
            if side == "bottom":
                name = _card(cid).halves[side].species.name
                if name in active and active[name] > 0:
                    active[name] -= 1
        kinds = [k for k, _ in self.memory]
        in_mole = D_MOLE in kinds and all(k in (D_MOLE, D_PAY) for k in
                                          kinds[kinds.index(D_MOLE):])
        hand = frozenset(view.hand)
        stack: list[Pending] = []
        queue: list[tuple[str, int, str, str]] = []
        if pend.kind == D_PAY:
            if in_mole:
                stack.append(Pending(D_MOLE, me, pool=hand))
            stack.append(Pending(D_PAY, me, card=pend.card, side=pend.side, tree=pend.tree,
                                 via=VIA_MOLE if in_mole else VIA_TURN, need=pend.need,
                                 paid=list(pend.paid), pool=hand if in_mole else None))
        elif pend.kind == D_OPTION:
            step = (pend.step, pend.card, pend.side, pend.species)
            stack.append(Pending(D_OPTION, me, step=step))
            queue = self._rest_of_steps(step, active)
        elif pend.kind == "free":
            stack.append(Pending("free", me, tag=pend.species, need=pend.need))
        elif pend.kind == D_RACCOON:
            paid: list[int] = []
            for k, a in reversed(self.memory):
                if k != D_RACCOON or a.kind != CAVE:
                    break
                paid.insert(0, a.card)
            stack.append(Pending(D_RACCOON, me, paid=paid))
        elif pend.kind == D_MOLE:
            stack.append(Pending(D_MOLE, me, pool=hand))
        else:  # turn, draw, mulligan
            stack.append(Pending(pend.kind, me, need=pend.need))
        return stack, queue, active

    def _rest_of_steps(self, step: tuple[str, int, str, str],
                       active: dict[str, int]) -> list[tuple[str, int, str, str]]:
        """The steps still queued after the offered one, rebuilt from the played card."""
        kind, cid, side, _name = step
        card = _card(cid)
        if side:
            sp = card.halves[side].species
            symbol = card.halves[side].symbol
        elif card.species is not None and not any(
                t.card == cid and t.is_sapling for t in self.view.forests[self.view.player].trees):
            sp = card.species
            symbol = sp.name
        else:
            return []  # a sapling: only Chanterelle draws, assume this is the last
        steps: list[tuple[str, int, str, str]] = []
        if not side:
            steps += [(S_MUSHROOM, cid, "", "Chanterelle")] * active["Chanterelle"]
        else:
            if "pawed animal" in sp.tags:
                steps += [(S_MUSHROOM, cid, side, "Fly Agaric")] * active["Fly Agaric"]
            if side == "top":
                steps += [(S_MUSHROOM, cid, side, "Penny Bun")] * active["Penny Bun"]
            elif side == "bottom":
                steps += [(S_MUSHROOM, cid, side, "Parasol Mushroom")] * active[
                    "Parasol Mushroom"]
        if sp.effect is not None:
            steps.append((S_EFFECT, cid, side, sp.name))
        if sp.bonus is not None and self._bonus_paid(cid, side, sp.cost, symbol):
            steps.append((S_BONUS, cid, side, sp.name))
        if step in steps:
            return steps[steps.index(step) + 1:]
        return []

    def _bonus_paid(self, cid: int, side: str, cost: int, symbol: str) -> bool:
        """Did the payment for the card match its symbol? From the memory, else from the
        clearing (the payment is its last cards, before a tree's revealed card)."""
        paid = [a.card for k, a in self.memory if k == D_PAY]
        if not paid:
            clearing = self.view.clearing
            tail = clearing[:-1] if not side else clearing
            if cost == 0 or len(tail) < cost:
                return cost == 0
            paid = list(tail[-cost:])
        else:
            paid = paid[-cost:] if cost else []
        return all(symbol in _card(c).symbols for c in paid)

    # ------------------------------------------------------------ sampling

    def sample(self, rng: random.Random) -> GameState:
        """A full state consistent with the view; each call shuffles the unseen cards."""
        view = self.view
        me = view.player
        n = view.num_players
        pool = self.unseen[:]
        rng.shuffle(pool)
        pos = 0
        hands: list[list[int]] = []
        for i in range(n):
            if i == me:
                hands.append(list(view.hand))
            else:
                g = self.hand_gaps[i]
                hands.append(list(view.known_hands[i]) + pool[pos:pos + g])
                pos += g
        caves: list[list[int]] = []
        for i in range(n):
            if i == me:
                caves.append(list(view.own_cave))
            else:
                g = self.cave_gaps[i]
                caves.append(pool[pos:pos + g])
                pos += g
        forests: list[Forest] = [f.copy() for f in view.forests]
        for i, j in self.hidden_saplings:
            forests[i].trees[j].card = pool[pos]
            pos += 1
        for f, cave in zip(forests, caves, strict=True):
            f.cave = len(cave)
        box = pool[pos:pos + view.box_size]
        pos += view.box_size
        plain = pool[pos:pos + self.deck_plain]
        deck = self._deck(plain, rng)
        s = GameState.__new__(GameState)
        s.num_players = n
        s.seed = 0
        s.rules = self.rules
        s.first_player = self.first_player
        s.deck = deck
        s.box = box
        s.clearing = list(view.clearing)
        s.winter = list(view.winter)
        s.hands = hands
        s.forests = forests
        s.caves = caves
        s.known = [set() if i == me else set(view.known_hands[i]) for i in range(n)]
        s.current = view.current
        s.turn = view.turn
        s.extra_turns = view.extra_turns
        s.over = False
        s.stack = [p.copy() for p in self._stack]
        s.queue = self._queue[:]
        active = [dict.fromkeys(MUSHROOMS, 0) for _ in range(n)]
        active[me] = dict(self._active)
        s.active = active
        s.history = []
        s._legal = None
        return s

    def _deck(self, plain: list[int], rng: random.Random) -> list[int]:
        """The deck (top last) with the unrevealed winter cards placed by the setup rule."""
        winters = self.unrevealed[:]
        size = len(plain) + len(winters)
        deck = plain[:]
        if not winters:
            return deck
        at = self.first_winter_at
        if len(winters) == 3 and size > at:
            third = winters.pop()
            # Two winters uniformly in [0, at), the third exactly at index `at`.
            below = deck[:at - 2]
            spots = sorted(rng.sample(range(at), 2))
            for w, spot in zip(winters, spots, strict=True):
                below.insert(spot, w)
            return below + [third] + deck[at - 2:]
        for w in winters:
            deck.insert(rng.randrange(len(deck) + 1), w)
        return deck


def determinize(view: PlayerView, rng: random.Random,
                memory: TurnMemory | None = None) -> GameState:
    """One full state sampled consistently with ``view`` (see the module contract)."""
    return Determinizer(view, memory).sample(rng)


def seen_counts(view: PlayerView) -> Sequence[int]:
    """How many cards of each kind of place a determinization fills (for tests): hands,
    caves, saplings, box, deck."""
    d = Determinizer(view)
    return (sum(d.hand_gaps), sum(d.cave_gaps), len(d.hidden_saplings), view.box_size,
            view.deck_size)

