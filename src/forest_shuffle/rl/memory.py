"""What a player remembers beyond its view: where the cards it has seen went out of sight.

Contract: a view shows where every card is that its player may see now; a player also
remembers cards it saw that have since left its sight: the clearing boxed when full (or by
an effect), clearing cards put under a cave (Brown Bear), its own mulligan, and a card it
saw another player take that is no longer known to be in that hand. A card everyone saw go
from the clearing into the box or a cave (the state's ``box_seen`` and ``caves_seen``, in
every view) is remembered there even when no view between two actions showed it in the
clearing (a tree turns the deck's top card into the clearing, which fills it and is boxed).
The engine forgets a hand's known cards whenever a card of it goes face down (a sapling, a
cave, a universal moor), so such a card is *held*: in that player's hand or among its
face-down cards, and nobody else can tell which. Cards never come back to the deck.

- :func:`visible` is the set of cards a view shows; :class:`Seen` grows each player's set of
  cards ever seen, from views only.
- :func:`remembered` maps each card a player saw and sees no more to its :data:`Place`.
- :data:`MEMORY_FIELDS` lays these out as arrays (seats relative to the player, as in
  :mod:`forest_shuffle.rl.observation`); :func:`encode_memory` fills them and
  :func:`memory_text` writes them as one canonical line.
"""

from __future__ import annotations

from collections.abc import Mapping
from math import prod

import numpy as np
import numpy.typing as npt

from forest_shuffle.engine.state import D_PAY, GameState
from forest_shuffle.engine.view import PlayerView
from forest_shuffle.rl.actions import CARD_SLOTS
from forest_shuffle.rl.observation import MAX_PLAYERS

#: Where a remembered card is: ``("box",)``, ``("cave", seat)`` (put there from the
#: clearing) or ``("held", seat)`` (in that seat's hand or face down in its forest or cave:
#: the seat took it in sight of all, then a card of its hand went face down). Seats count
#: from 0.
Place = tuple[str | int, ...]

MEMORY_FIELDS: tuple[tuple[str, tuple[int, ...]], ...] = (
    ("seen_in_box", (CARD_SLOTS,)),
    ("seen_in_cave", (MAX_PLAYERS, CARD_SLOTS)),
    ("seen_held", (MAX_PLAYERS, CARD_SLOTS)),
)
MEMORY_SIZE = sum(prod(shape) for _, shape in MEMORY_FIELDS)


def visible(view: PlayerView) -> set[int]:
    """Every card ``view`` shows where it is."""
    out = set(view.hand) | set(view.own_cave) | set(view.clearing) | set(view.winter)
    out.update(getattr(view, "discard", ()))  # Dartmoor's discard pile lies face up
    for k in view.known_hands:
        out.update(k)
    for f in view.forests:
        out.update(f.card_ids())
    for d in view.decisions:
        if d.kind == D_PAY and d.card:
            out.add(d.card)
    out.discard(0)
    return out


def visible_all(state: GameState) -> list[set[int]]:
    """``visible(state.view(p))`` for every seat ``p`` at once, read from the state (a view
    per seat per action would copy every forest each time; the tests check the two agree):
    the public cards (clearing, winter, cards seen taken, forests but face-down saplings,
    cards being paid for) and each seat's own hand, cave and saplings."""
    public = set(state.clearing) | set(state.winter)
    public.update(getattr(state, "discard", ()))
    for k in state.known:
        public |= k
    own: list[set[int]] = []
    for p, f in enumerate(state.forests):
        mine = set(state.hands[p]) | set(state.caves[p])
        for t in f.trees:
            if t.card is not None:
                (mine if t.species is None else public).add(t.card)
            for stack in t.slots.values():
                for d in stack:
                    if d.card is not None:
                        public.add(d.card)
        own.append(mine)
    for dec in state.stack:
        if dec.kind == D_PAY and dec.card:
            public.add(dec.card)
    return [public | mine for mine in own]


class Seen:
    """Each player's cards ever seen (``cards``) and, among them, those last seen in another
    seat's known hand (``held``: card -> that seat); :meth:`update` after every action."""

    __slots__ = ("cards", "held")

    def __init__(self, cards: list[set[int]], held: list[dict[int, int]] | None = None) -> None:
        self.cards = cards
        self.held = held if held is not None else [{} for _ in cards]

    @staticmethod
    def start(state: GameState) -> Seen:
        out = Seen([set() for _ in state.hands])
        out.update(state)
        return out

    def update(self, state: GameState) -> None:
        known = {c: q for q, k in enumerate(state.known) for c in k}
        gone = set(state.box_seen).union(*state.caves_seen)  # seen going there, by all
        for p, now in enumerate(visible_all(state)):
            self.cards[p] |= now | gone
            held = self.held[p]
            for c in [c for c in held if c in now or c in gone]:  # placed anew below
                del held[c]
            for c, q in known.items():
                if q != p:
                    held[c] = q

    def copy(self) -> Seen:
        return Seen([set(c) for c in self.cards], [dict(h) for h in self.held])

    def __deepcopy__(self, memo: dict[int, object]) -> Seen:
        out = memo[id(self)] = self.copy()
        return out


def hidden_places(state: GameState) -> dict[int, Place]:
    """The place of every card in the box, under a cave or in a face-down sapling."""
    out: dict[int, Place] = dict.fromkeys(state.box, ("box",))
    for q, cave in enumerate(state.caves):
        for c in cave:
            out[c] = ("cave", q)
    for q, f in enumerate(state.forests):
        for j, t in enumerate(f.trees):
            if t.species is None and t.card is not None:
                out[t.card] = ("sapling", q, j)
    return out


def remembered(state: GameState, player: int, seen: set[int],
               held: Mapping[int, int] | None = None) -> dict[int, Place]:
    """The cards ``player`` saw (``seen``) and sees no more, each with its place; a card of
    ``held`` (last seen in that seat's known hand, :class:`Seen`) is ``("held", seat)``
    whatever became of it."""
    gone = seen - visible_all(state)[player]
    if not gone:
        return {}
    places = hidden_places(state)
    held = held or {}
    out: dict[int, Place] = {}
    for c in sorted(gone):
        if c in held:
            out[c] = ("held", held[c])
        elif c in places:
            out[c] = places[c]
    return out


def encode_memory(memory: Mapping[int, Place], player: int, num_players: int,
                  out: npt.NDArray[np.float32]) -> None:
    """Write ``memory`` into ``out`` (MEMORY_SIZE values, zeroed first) by MEMORY_FIELDS."""
    out.fill(0.0)
    cave0 = CARD_SLOTS
    held0 = CARD_SLOTS + MAX_PLAYERS * CARD_SLOTS
    for c, place in memory.items():
        if place[0] == "box":
            out[c] = 1.0
        else:
            r = (int(place[1]) - player) % num_players
            out[(cave0 if place[0] == "cave" else held0) + r * CARD_SLOTS + c] = 1.0


def memory_text(memory: Mapping[int, Place]) -> str:
    """``memory`` as one canonical line (``12:box 40:cave1 77:held0``)."""
    return " ".join(f"{c}:{place[0]}{'.'.join(str(x) for x in place[1:])}"
                    for c, place in sorted(memory.items()))
