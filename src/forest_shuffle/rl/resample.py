"""Resampling a full state for any seat: the engine's sampling of unseen cards, made to
keep what that seat knows beyond its view.

Contract: :func:`resample` returns a new :class:`~forest_shuffle.engine.state.GameState`
that agrees with ``player``'s view (the search bot's
:class:`~forest_shuffle.bots.determinize.Determinizer` draws it) and also

- keeps every card the player remembers (:mod:`forest_shuffle.rl.memory`) where it went:
  the box, a cave, or *held* by a seat (its hand, a face-down card of its forest, its cave);
  each such card is swapped into its place with a card drawn uniformly from those of that
  place not already pinned (the cards everyone saw go into the box or a cave are there
  already, from the view, and never move);
- gives the player to move its active mushrooms (the view shows the current player's; the
  Determinizer puts them on the viewer's seat), and, when another player decides, a Mole
  pool (the cards its player holds: during a Mole the hand only shrinks) and the cards its
  Raccoon put under the cave so far (the last ones of that cave, ascending, as the engine
  takes them);
- is a position the game can reach from what was public: the player to move has a legal
  action (so a half-finished payment leaves the payer enough cards above the last one
  paid), and during the mulligans the hands agree with the answers given so far (a seat
  offered a mulligan held no tree, a seat passed over held one).

Samples that break the last point are drawn again (at most :data:`MAX_TRIES` times, then
:class:`~forest_shuffle.bots.determinize.DeterminizeError`). The view is never modified.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from forest_shuffle.bots.determinize import DeterminizeError, Determinizer
from forest_shuffle.cards.forest import Host
from forest_shuffle.engine.state import D_MOLE, D_MULLIGAN, D_PAY, D_RACCOON, GameState
from forest_shuffle.rl.memory import Place

MAX_TRIES = 2000

_Slot = tuple[list[int] | Host, int]


def _public(s: GameState) -> set[int]:
    """The cards everyone saw go into the box or a cave: never moved by a pin."""
    return set(s.box_seen).union(*s.caves_seen)


def _slots(s: GameState, player: int) -> dict[int, _Slot]:
    """Where each card hidden from ``player`` lies in ``s``: (list, index) or (host, -1)."""
    out: dict[int, _Slot] = {}
    cards = s.game.cards
    public = _public(s)
    for i, c in enumerate(s.deck):
        if not cards[c].is_winter:
            out[c] = (s.deck, i)
    for i, c in enumerate(s.box):
        if c not in public:
            out[c] = (s.box, i)
    for q in range(s.num_players):
        if q == player:
            continue
        for i, c in enumerate(s.hands[q]):
            if c not in s.known[q]:
                out[c] = (s.hands[q], i)
        for i, c in enumerate(s.caves[q]):
            if c not in public:
                out[c] = (s.caves[q], i)
        for t in s.forests[q].trees:
            if t.species is None and t.card:
                out[t.card] = (t, -1)
    return out


def _put(slot: _Slot, card: int) -> None:
    where, i = slot
    if isinstance(where, Host):
        where.card = card
    else:
        where[i] = card


def _pin(s: GameState, player: int, memory: Mapping[int, Place], rng: random.Random) -> None:
    """Swap each remembered card into its place (see the module contract)."""
    slots = _slots(s, player)
    public = _public(s)
    places: dict[Place, list[_Slot]] = {
        ("box",): [(s.box, i) for i, c in enumerate(s.box) if c not in public]}
    for q in range(s.num_players):
        cave: list[_Slot] = [(s.caves[q], i) for i, c in enumerate(s.caves[q])
                             if c not in public]
        places[("cave", q)] = cave
        held: list[_Slot] = [] if q == player else [
            (s.hands[q], i) for i, c in enumerate(s.hands[q]) if c not in s.known[q]]
        held += [(t, -1) for t in s.forests[q].trees if t.species is None]
        places[("held", q)] = held + cave
    keys = {place: {_key(x) for x in xs} for place, xs in places.items()}
    done: set[tuple[int, int]] = set()  # slots holding their pinned card
    for c, place in memory.items():
        at = slots.get(c)
        if place[0] != "held" and at is not None and _key(at) in keys.get(place, ()):
            done.add(_key(at))
    # Exact places first: a held card may lie under a cave, but not in a slot that a card
    # seen going there holds.
    for c in sorted(memory, key=lambda c: (memory[c][0] == "held", c)):
        target = places.get(memory[c])
        at = slots.get(c)
        if not target or at is None or _key(at) in done:
            continue  # not hidden from the player, or already in place
        free = [x for x in target if _key(x) not in done]
        if not free:
            continue
        y = free[rng.randrange(len(free))]
        d = _get(y)
        _put(at, d)
        _put(y, c)
        slots[d] = at
        slots[c] = y
        done.add(_key(y))


def _key(slot: _Slot) -> tuple[int, int]:
    return id(slot[0]), slot[1]


def _get(slot: _Slot) -> int:
    where, i = slot
    if isinstance(where, Host):
        assert where.card is not None
        return where.card
    return where[i]


def _fix_decisions(s: GameState, player: int, active: Mapping[str, int]) -> None:
    """Active mushrooms of the current player; others' Mole pools and Raccoon caves."""
    s.active[s.current] = dict(active)
    if player != s.current:
        s.active[player] = dict.fromkeys(s.game.mushrooms, 0)
    for d in s.stack:
        if d.player == player:
            continue
        if d.pool is not None and d.kind in (D_MOLE, D_PAY):
            d.pool = frozenset(s.hands[d.player])
        if d.kind == D_RACCOON and d.paid:
            cave = s.caves[d.player]
            k = len(d.paid)
            cave[-k:] = sorted(cave[-k:])
            d.paid = cave[-k:]


def _plausible(s: GameState, player: int, mulligans: Mapping[int, str]) -> bool:
    """The mover has a legal action; the hands agree with the mulligan answers."""
    if not s.legal_actions():
        return False
    top = s.stack[-1] if s.stack else None
    if top is None or top.kind != D_MULLIGAN:
        return True
    cards = s.game.cards
    n = s.num_players
    for i in range(top.need + 1):  # seats in mulligan order up to the one deciding
        q = (s.first_player + i) % n
        if q == player:
            continue
        has_tree = any(cards[c].is_tree for c in s.hands[q])
        answer = mulligans.get(q)
        offered = i == top.need or answer is not None
        if answer == "mulligan":
            continue  # a new hand, whatever it holds
        if offered == has_tree:
            return False
    return True


def resample(state: GameState, player: int, memory: Mapping[int, Place],
             rng: random.Random, mulligans: Mapping[int, str] | None = None) -> GameState:
    """A full state ``player`` cannot tell from ``state`` (see the module contract).
    ``memory``: what it remembers (:func:`forest_shuffle.rl.memory.remembered`);
    ``mulligans``: the answers (``keep``/``mulligan``) each seat gave so far."""
    view = state.view(player)
    det = Determinizer(view)
    answers = mulligans or {}
    for _ in range(MAX_TRIES):
        s = det.sample(rng)
        _pin(s, player, memory, rng)
        _fix_decisions(s, player, view.active)
        s.first_player = state.first_player  # public; the seed stays 0 (it is secret)
        if _plausible(s, player, answers):
            return s
    raise DeterminizeError(f"no plausible state for player {player + 1} in {MAX_TRIES} "
                           "samples")
