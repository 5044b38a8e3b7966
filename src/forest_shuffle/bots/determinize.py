"""Determinization: a full game state sampled to agree with one player's view.

Contract: :class:`Determinizer` is built from a :class:`~forest_shuffle.engine.view.PlayerView`
at that player's own decision; :meth:`Determinizer.sample` returns a new
:class:`~forest_shuffle.engine.state.GameState` in which

- everything the view shows is as shown: the own hand (same order) and cave, every forest
  (others' face-down saplings get sampled ids), the clearing, the revealed winter cards, the
  cards others were seen taking from the clearing (fixed in their hands), the cards everyone
  saw go from the clearing into the box or a cave (fixed there: never dealt into the deck
  or a hand), the sizes of every hand, cave, the deck and the box;
- the unseen cards (others' other hand cards, the rest of their caves, their saplings, the
  rest of the box, the deck) are one uniformly shuffled multiset of the card ids not seen
  anywhere, dealt into those places with the right counts, every card in exactly one place;
- the winter cards not yet revealed lie where the engine's setup plan
  (:func:`~forest_shuffle.engine.state.bottom_pile_size`) allows: before the first one is
  revealed, the last winter card lies on top of the bottom pile and the others uniformly
  below it; afterwards the rest lie uniformly in the remaining deck (all of it is then the
  bottom pile);
- the decision in progress is the view's exactly: the stack of pending decisions (a Mole's
  pool and collected steps included), the steps still queued this turn, the mushrooms
  active this turn and the rule switches, so the legal actions are the view's and play on
  from the sample follows the same rules. The view itself is never modified;
- in a game with its own state class (Dartmoor) the sample is of that class, with the
  view's public extras: the discard pile (seen), the caves offered, the draft's progress;
  others' universal moors (face down) get sampled ids like saplings.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from forest_shuffle.cards.forest import Forest
from forest_shuffle.engine.options import Rules
from forest_shuffle.engine.setup import KEYED
from forest_shuffle.engine.state import D_PAY, GameState, bottom_pile_size
from forest_shuffle.engine.view import PlayerView


class DeterminizeError(ValueError):
    """The view is not consistent with the card counts (a bug, or a foreign view)."""


class Determinizer:
    """Samples full states consistent with one view (see the module contract)."""

    def __init__(self, view: PlayerView, rules: Rules | None = None) -> None:
        if view.pending is None or view.over:
            raise DeterminizeError("the view has no pending decision")
        self.view = view
        self.rules = rules or view.rules
        me = view.player
        n = view.num_players
        seen: set[int] = set(view.hand) | set(view.own_cave) | set(view.clearing)
        seen |= set(view.winter) | set(view.discard) | set(view.box_seen)
        #: per seat, the cards seen going under its cave (a view without them: none)
        self.caves_seen = view.caves_seen or ((),) * n
        for cave in self.caves_seen:
            seen |= set(cave)
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
        for d in view.decisions:
            if d.kind == D_PAY:
                seen.add(d.card)  # the card being paid for is in play
        game = view.game
        self.unrevealed = [w for w in game.winter_ids if w not in view.winter]
        self.all_winters = len(game.winter_ids)
        self.unseen = sorted(c for c in game.deck_ids if c not in seen)
        self.hand_gaps = [0 if i == me else view.hand_sizes[i] - len(view.known_hands[i])
                          for i in range(n)]
        self.cave_gaps = [0 if i == me else view.cave_sizes[i] - len(self.caves_seen[i])
                          for i in range(n)]
        self.box_gap = view.box_size - len(view.box_seen)
        deck_plain = view.deck_size - len(self.unrevealed)
        slots = (sum(self.hand_gaps) + sum(self.cave_gaps) + len(self.hidden_saplings)
                 + self.box_gap + deck_plain)
        if deck_plain < 0 or min(self.cave_gaps + [self.box_gap]) < 0 \
                or slots != len(self.unseen):
            raise DeterminizeError(
                f"view of player {me + 1}: {len(self.unseen)} unseen cards for {slots} places")
        self.deck_plain = deck_plain
        #: index (from the bottom) of the last winter card while none is revealed
        self.first_winter_at = bottom_pile_size(game, n) + self.all_winters - 1
        # The decision in progress is public to the deciding player: copy it.
        self._stack = [d.copy() for d in view.decisions]
        self._queue = list(view.queue)
        self._active = dict(view.active)
        self.first_player = 0
        if pend.kind == "mulligan":
            self.first_player = (pend.player - pend.need) % n

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
                caves.append(list(self.caves_seen[i]) + pool[pos:pos + g])
                pos += g
        forests: list[Forest] = [f.copy() for f in view.forests]
        for i, j in self.hidden_saplings:
            forests[i].trees[j].card = pool[pos]
            pos += 1
        for f, cave in zip(forests, caves, strict=True):
            f.cave = len(cave)
        box = list(view.box_seen) + pool[pos:pos + self.box_gap]
        pos += self.box_gap
        plain = pool[pos:pos + self.deck_plain]
        deck = self._deck(plain, rng)
        cls: type[GameState] = view.game.state_class or GameState
        active = [dict.fromkeys(view.game.mushrooms, 0) for _ in range(n)]
        active[me] = dict(self._active)
        # A sampled world has no seed of its own: it is never dealt again.
        s = cls.build(
            view.game, n, 0, KEYED, self.rules, self.first_player, deck, box,
            list(view.clearing), list(view.winter), hands, forests, caves,
            [set() if i == me else set(view.known_hands[i]) for i in range(n)], view.box_seen,
            self.caves_seen, view.current, view.turn, view.extra_turns, False,
            [p.copy() for p in self._stack], self._queue[:], active, [], None)
        if cls is not GameState:
            s._load_view(view)
        return s

    def _deck(self, plain: list[int], rng: random.Random) -> list[int]:
        """The deck (top last) with the unrevealed winter cards placed by the setup rule."""
        winters = self.unrevealed[:]
        size = len(plain) + len(winters)
        deck = plain[:]
        if not winters:
            return deck
        at = self.first_winter_at
        k = self.all_winters - 1
        if len(winters) == self.all_winters and size > at:
            last = winters.pop()
            # The other winters uniformly in [0, at), the last exactly at index `at`.
            below = deck[:at - k]
            spots = sorted(rng.sample(range(at), k))
            for w, spot in zip(winters, spots, strict=True):
                below.insert(spot, w)
            return below + [last] + deck[at - k:]
        for w in winters:
            deck.insert(rng.randrange(len(deck) + 1), w)
        return deck


def determinize(view: PlayerView, rng: random.Random) -> GameState:
    """One full state sampled consistently with ``view`` (see the module contract)."""
    return Determinizer(view).sample(rng)


def seen_counts(view: PlayerView) -> Sequence[int]:
    """How many cards of each kind of place a determinization fills (for tests): hands,
    caves, saplings, box, deck."""
    d = Determinizer(view)
    return (sum(d.hand_gaps), sum(d.cave_gaps), len(d.hidden_saplings), d.box_gap,
            view.deck_size)

