"""A compact observation for learning: a few thousand scaled floats from one player's sight.

Contract: :func:`layout` gives a game's :class:`Layout` (its fields, their offsets and
:attr:`Layout.size`: 2,136 floats in the base game, 3,052 with both expansions, 2,618 in
Dartmoor). :func:`encode_view` turns a :class:`~forest_shuffle.engine.view.PlayerView`
into a ``float32`` array of that size; :func:`encode_state` writes the same array straight
from a :class:`~forest_shuffle.engine.state.GameState` for one seat, reading only what that
seat sees (the engine's view is not built: it copies every forest), so
``encode_state(s, p) == encode_view(s.view(p))`` and a relabelling of the cards hidden
from ``p`` changes neither (``tests/rl/test_rl_compact_obs.py``). ``chosen`` is the half
picked by the first step of a compact half play (:mod:`forest_shuffle.rl.compact`), shown
in ``chosen_card``/``chosen_side`` until its host is chosen. :meth:`Layout.fields` gives
named views in each field's shape.

Unlike the full observation (:mod:`forest_shuffle.rl.observation`) the layout depends on
the game: card planes have one value per card number of the game (``N`` = the largest
card number + 1), species counts one per species of its catalog (``S``, in
:attr:`Layout.species` order: sorted names), host species one per species that is a host
(``H``: trees, shrubs, moors). Seats are relative (row 0: the observer, row r: the player r
seats after it; rows beyond the player count are zero), ``P`` = 5. Every value is scaled
to about 0..1 by the divisor given (counts can pass 1 in long games).

==================  ============  ==========================================================
field               shape         values
==================  ============  ==========================================================
hand                (N,)          1 for each card in the own hand
clearing            (N,)          1 for each card in the clearing
discard             (N,)          Dartmoor: 1 for each card in the discard pile
forest              (P, S + 7)    row r, seat r's forest: the cards showing each species
                                  (/8), then hosts (/20), face-down hosts (/10), dwellers
                                  (/40), hosts with a free top, bottom, left, right slot (/20)
known               (P, S)        row r: species of the cards everyone saw seat r take and
                                  still known in its hand (each half counted; /4; row 0: 0)
own_trees           (32, 8 + H)   the own hosts 0..31 (a larger forest's later hosts are not
                                  shown): present, face down, shrub, moor, cards on its top,
                                  bottom, left, right (/3), then its species one-hot
mole_pool           (N,)          1 for each card the own Mole may still play or pay with
chosen_card         (N,)          1 at the card of the half chosen (a compact first step)
chosen_side         (4,)          one-hot: its side, top, bottom, left, right
seats               (P, 3)        row r: present, hand size (/10), cave size (/20)
table               (8,)          deck size (/100), box size (/100), winter cards revealed
                                  (/3), turn (/60), extra turns, game over, decisions on the
                                  stack (/4), steps queued (/4)
current             (P,)          one-hot: whose turn (relative seat)
num_players         (P,)          one-hot at num_players - 1
decision            (24,)         one-hot: the pending decision, as the full observation's
decider             (P,)          one-hot: who decides it
pending_species     (S,)          one-hot: the species of the card being paid for, or whose
                                  effect, bonus or mushroom draw is offered (0 if hidden)
pending             (12,)         its side one-hot (4), cards still to pay or plays left
                                  (/5), 1 if any number, the step one-hot (effect, bonus,
                                  mushroom, other), cards paid so far (/5), its tree + 1 (/20)
pending_tag         (32,)         one-hot: the tag a free play asks for (observation.TAGS)
queue               (4,)          effects, bonuses, mushroom draws, other steps queued (/4)
active              (16,)         the mover's mushrooms acting this turn (/3), as the full
                                  observation's
caves               (16 + P + 1,) Dartmoor: cave numbers still offered (16), the cave
                                  number each seat drafted (/16), the draft's step + 1 (/10)
==================  ============  ==========================================================

:class:`Encoder` writes the same arrays faster over a game: it keeps what it wrote for each
seat and rewrites the first six fields only where their inputs changed (the adapters use
one).
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Mapping, Sequence
from math import prod
from typing import Any

import numpy as np
import numpy.typing as npt

from forest_shuffle.cards.forest import Forest
from forest_shuffle.cards.model import SIDES
from forest_shuffle.cards.words import article
from forest_shuffle.engine.game import GameDef
from forest_shuffle.engine.state import D_FREE, D_MOLE, GameState
from forest_shuffle.engine.view import PlayerView
from forest_shuffle.rl.observation import (
    _DECISION,
    _MUSHROOM,
    _STEP,
    _TAG,
    DECISION_SLOTS,
    MAX_PLAYERS,
    MUSHROOM_SLOTS,
    STEPS,
    TAG_SLOTS,
)

P = MAX_PLAYERS
#: Own hosts shown in ``own_trees``.
TREE_ROWS = 32
#: Cave numbers in ``caves``.
CAVE_SLOTS = 16
_SIDE = {s: i for i, s in enumerate(SIDES)}
_FREE_SIDES = tuple(SIDES)

Array = npt.NDArray[np.float32]


class Layout:
    """One game's compact layout: :attr:`fields` (name, shape) in order, :attr:`offsets`,
    :attr:`size`, the species order and the tables the encoder reads."""

    def __init__(self, game: GameDef) -> None:
        self.game_id = game.id
        cat = game.catalog
        self.species: tuple[str, ...] = tuple(sorted(cat.species))
        self.hosts: tuple[str, ...] = tuple(n for n in self.species
                                            if cat.species[n].kind != "dweller")
        self.n_cards = len(game.cards)
        n, s, h = self.n_cards, len(self.species), len(self.hosts)
        # The fields an encoder keeps between calls while their inputs stay come first
        # (up to ``mole_pool``); the rest is written anew every time.
        self.fields: tuple[tuple[str, tuple[int, ...]], ...] = (
            ("hand", (n,)), ("clearing", (n,)), ("discard", (n,)),
            ("forest", (P, s + 7)), ("known", (P, s)), ("own_trees", (TREE_ROWS, 8 + h)),
            ("mole_pool", (n,)), ("chosen_card", (n,)), ("chosen_side", (4,)),
            ("seats", (P, 3)), ("table", (8,)), ("current", (P,)),
            ("num_players", (P,)), ("decision", (DECISION_SLOTS,)), ("decider", (P,)),
            ("pending_species", (s,)), ("pending", (12,)), ("pending_tag", (TAG_SLOTS,)),
            ("queue", (len(STEPS) + 1,)), ("active", (MUSHROOM_SLOTS,)),
            ("caves", (CAVE_SLOTS + P + 1,)),
        )
        self.offsets: dict[str, int] = {}
        at = 0
        for name, shape in self.fields:
            self.offsets[name] = at
            at += prod(shape)
        self.size = at
        o = self.offsets
        self.at = tuple(o[name] for name, _ in self.fields)  # offsets, in field order
        #: zeros to clear a field with (as long as the widest cleared at once)
        self.zero_tail = array("f", bytes(4 * self.size))
        self.species_index = {name: i for i, name in enumerate(self.species)}
        self.host_index = {name: i for i, name in enumerate(self.hosts)}
        # By card number: the species indexes the card shows (a split card's two halves),
        # and by (card, side) the species of that half.
        card_species: list[tuple[int, ...]] = []
        half_species: dict[tuple[int, str], int] = {}
        for cid, card in enumerate(game.cards):
            idx: list[int] = []
            if card is not None:
                if card.species is not None:
                    idx.append(self.species_index[card.species.name])
                for side, half in card.halves.items():
                    k = self.species_index[half.species.name]
                    idx.append(k)
                    half_species[(cid, side)] = k
            card_species.append(tuple(idx))
        self.card_species = tuple(card_species)
        self.half_species = half_species
        self.zeros = bytes(4 * self.size)
        self._zero_row = bytes(4 * (s + 7))
        self._zero_trees = bytes(4 * TREE_ROWS * (8 + h))
        self._hostset = frozenset(self.hosts)
        self._templates: dict[tuple[str | None, str], array[float]] = {}
        self._rows: dict[int, tuple[Forest, int, array[float]]] = {}
        self._trees: dict[int, tuple[Forest, int, array[float]]] = {}
        self._down: dict[int, tuple[Forest, int, frozenset[int]]] = {}
        self.pending_blocks: dict[tuple[int, int, Any], array[float]] = {}

    def fields_of(self, obs: Array) -> dict[str, Array]:
        """Named views (no copies) of an observation of this layout, in each field's shape."""
        o = self.offsets
        return {name: obs[o[name]:o[name] + prod(shape)].reshape(shape)
                for name, shape in self.fields}

    # -------------------------------------------------------------- cached rows

    def pending_block(self, me: int, n: int,
                      pend: tuple[str, int, int, str, int, int, int, str, str] | None,
                      ) -> array[float]:
        """The fields ``decision`` to ``pending_tag`` for seat ``me`` of ``n`` when ``pend``
        is the decision at hand (None: none): kept by (n, me, pend), since a game meets
        few."""
        dec_at, decider_at, psp_at, pd, tag_at, qu = self.at[13:19]
        obs = array("f", bytes(4 * (qu - dec_at)))
        if pend is None:
            obs[DECISION_SLOTS - 1] = 1.0
        else:
            kind, player, card, side, tree, need, paid, step, species = pend
            obs[_DECISION.get(kind, DECISION_SLOTS - 2)] = 1.0
            obs[decider_at - dec_at + (player - me) % n] = 1.0
            sp = self.species_index.get(species) if step else None
            card_species = self.card_species
            if sp is None and card:
                sp = self.half_species.get((card, side)) if side else None
                if sp is None and card < len(card_species) and card_species[card]:
                    sp = card_species[card][0]
            if sp is not None:
                obs[psp_at - dec_at + sp] = 1.0
            p = pd - dec_at
            if side:
                obs[p + _SIDE[side]] = 1.0
            if need < 0:
                obs[p + 5] = 1.0
            else:
                obs[p + 4] = need / 5.0
            if step:
                obs[p + 6 + _STEP.get(step, len(STEPS))] = 1.0
            obs[p + 10] = paid / 5.0
            obs[p + 11] = (tree + 1) / 20.0
            if kind == D_FREE and species:
                obs[tag_at - dec_at + _TAG.get(species, TAG_SLOTS - 1)] = 1.0
        if len(self.pending_blocks) > 4096:
            self.pending_blocks.clear()
        self.pending_blocks[(n, me, pend)] = obs
        return obs

    def face_down(self, forest: Forest) -> frozenset[int]:
        """The cards of ``forest``'s face-down hosts (kept while its version stays)."""
        key = id(forest)
        hit = self._down.get(key)
        if hit is not None and hit[0] is forest and hit[1] == forest.version:
            return hit[2]
        down = frozenset(t.card for t in forest.trees if t.species is None and t.card)
        if len(self._down) > 256:
            self._down.clear()
        self._down[key] = (forest, forest.version, down)
        return down

    def forest_row(self, forest: Forest) -> array[float]:
        """The ``forest`` row of one forest (kept while its ``version`` stays)."""
        key = id(forest)
        hit = self._rows.get(key)
        if hit is not None and hit[0] is forest and hit[1] == forest.version:
            return hit[2]
        s = len(self.species)
        row = array("f", self._zero_row)
        idx = self.species_index
        hostset = self._hostset
        shown = placed = 0  # cards showing a species; hosts among them
        for name, k in forest.species_counts.items():
            row[idx[name]] = k / 8.0
            shown += k
            if name in hostset:
                placed += k
        hosts = len(forest.trees)
        free = forest.free_slots
        row[s] = hosts / 20.0
        row[s + 1] = (hosts - placed) / 10.0  # face-down hosts show no species
        row[s + 2] = (shown - placed) / 40.0
        row[s + 3] = len(free["top"]) / 20.0
        row[s + 4] = len(free["bottom"]) / 20.0
        row[s + 5] = len(free["left"]) / 20.0
        row[s + 6] = len(free["right"]) / 20.0
        if len(self._rows) > 256:
            self._rows.clear()
        self._rows[key] = (forest, forest.version, row)
        return row

    def _host_template(self, name: str | None, kind: str) -> array[float]:
        """A host's ``own_trees`` row with nothing on it."""
        width = 8 + len(self.hosts)
        row = array("f", bytes(4 * width))
        row[0] = 1.0
        if name is None:
            row[1] = 1.0
        else:
            k = self.host_index.get(name)
            if k is not None:
                row[8 + k] = 1.0
        if kind == "shrub":
            row[2] = 1.0
        elif "moor" in kind:
            row[3] = 1.0
        self._templates[(name, kind)] = row
        return row

    def tree_rows(self, forest: Forest) -> array[float]:
        """The ``own_trees`` block of the observer's own forest (kept while its version stays)."""
        key = id(forest)
        hit = self._trees.get(key)
        if hit is not None and hit[0] is forest and hit[1] == forest.version:
            return hit[2]
        width = 8 + len(self.hosts)
        block = array("f", self._zero_trees)
        templates = self._templates
        at = 0
        for host in forest.trees[:TREE_ROWS]:
            sp = host.species
            name = None if sp is None else sp.name
            kind = host.kind
            row = templates.get((name, kind))
            if row is None:
                row = self._host_template(name, kind)
            block[at:at + width] = row
            slots = host.slots
            top, bottom, left, right = (slots["top"], slots["bottom"], slots["left"],
                                        slots["right"])
            if top:
                block[at + 4] = len(top) / 3.0
            if bottom:
                block[at + 5] = len(bottom) / 3.0
            if left:
                block[at + 6] = len(left) / 3.0
            if right:
                block[at + 7] = len(right) / 3.0
            at += width
        if len(self._trees) > 256:
            self._trees.clear()
        self._trees[key] = (forest, forest.version, block)
        return block


_LAYOUTS: dict[str, Layout] = {}


def layout(game: GameDef) -> Layout:
    """The compact layout of ``game`` (built once per game id)."""
    out = _LAYOUTS.get(game.id)
    if out is None:
        out = _LAYOUTS[game.id] = Layout(game)
    return out


class _Written:
    """What an encoder last wrote for one seat: the buffer and the inputs of every field
    as they were then (hands, clearing and discard pile as lists, forests with their
    versions, the cards known in each hand, the seats' sizes, the table, the pending
    decision, ...), so a call rewrites only the fields whose inputs changed."""

    __slots__ = ("active", "buf", "caves", "chosen", "clearing", "cur", "discard",
                 "forests", "hand", "known", "mole", "pend", "queue", "sizes", "table",
                 "trees")

    def __init__(self, lay: Layout) -> None:
        self.buf = array("f", lay.zeros)
        self.hand: list[int] = []
        self.clearing: list[int] = []
        self.discard: list[int] = []
        self.forests: list[tuple[Forest | None, int]] = [(None, -1)] * P
        self.known: list[frozenset[int]] = [frozenset()] * P
        self.trees: tuple[Forest | None, int] = (None, -1)
        self.sizes: tuple[Sequence[int], Sequence[int]] | None = None
        self.table: Sequence[float] = ()
        self.cur = -1  # the index of the ``current`` one-hot written
        self.pend: tuple[Any, ...] | None = ()  # () : nothing written yet
        self.mole: list[int] = []
        self.chosen: tuple[int, str] | None = None
        self.queue: list[str] = []
        self.active: dict[str, int] = {}
        self.caves: tuple[tuple[int, ...], int, tuple[int, ...]] = ((), -1, ())


def _cards(buf: array[float], at: int, old: list[int], new: Sequence[int]) -> list[int]:
    """Rewrite a card plane that held ``old`` to hold ``new`` (when they differ)."""
    for c in old:
        buf[at + c] = 0.0
    for c in new:
        buf[at + c] = 1.0
    return list(new)


def _encode(rec: _Written, lay: Layout, me: int, n: int, hand: Sequence[int],
            clearing: Sequence[int], hand_sizes: Sequence[int], cave_sizes: Sequence[int],
            known: Sequence[Iterable[int]], forests: Sequence[Forest], table: Sequence[float],
            current: int, pend: tuple[str, int, int, str, int, int, int, str, str] | None,
            decisions: Sequence[Any], queue: Sequence[tuple[str, int, str, str]],
            active: Mapping[str, int], discard: Sequence[int], more: tuple[Sequence[int], int],
            *, chosen: tuple[int, str] | None) -> array[float]:
    """The one encoder both entry points call (their arguments are what the seat sees),
    writing into ``rec.buf`` (an ``array('f')``: Python writes into it without numpy's cost
    per call). Every field is rewritten only where its inputs changed since ``rec`` last
    saw them (a forest: another object or version; a fresh ``rec`` holds zeros and
    nothing seen, so it writes them all)."""
    obs = rec.buf
    (hand_at, clearing_at, discard_at, f_at, k_at, tr, mole_at, chosen_at, chosen_side_at,
     seat_at, tb, cur_at, np_at, dec_at, decider_at, psp_at, pd, tag_at, qu, ac,
     cv) = lay.at
    if hand != rec.hand:
        rec.hand = _cards(obs, hand_at, rec.hand, hand)
    if clearing != rec.clearing:
        rec.clearing = _cards(obs, clearing_at, rec.clearing, clearing)
    if discard != rec.discard:
        rec.discard = _cards(obs, discard_at, rec.discard, discard)
    s = len(lay.species)
    width = s + 7
    seen_forests = rec.forests
    for r in range(n):
        f = forests[(me + r) % n]
        last = seen_forests[r]
        if last[0] is not f or last[1] != f.version:
            a = f_at + r * width
            obs[a:a + width] = lay.forest_row(f)
            seen_forests[r] = (f, f.version)
    if n > 1:
        card_species = lay.card_species
        seen_known = rec.known
        for r in range(1, n):
            cards = known[(me + r) % n]
            if cards != seen_known[r]:
                base = k_at + r * s
                obs[base:base + s] = lay.zero_tail[:s]
                for c in cards:
                    for k in card_species[c]:
                        obs[base + k] += 0.25
                seen_known[r] = frozenset(cards)
    own = forests[me]
    if rec.trees[0] is not own or rec.trees[1] != own.version:
        rows = lay.tree_rows(own)
        obs[tr:tr + len(rows)] = rows
        rec.trees = (own, own.version)
    sizes = rec.sizes
    if sizes is None or sizes[0] != hand_sizes or sizes[1] != cave_sizes:
        for r in range(n):
            seat = (me + r) % n
            b = seat_at + 3 * r
            obs[b] = 1.0
            obs[b + 1] = hand_sizes[seat] / 10.0
            obs[b + 2] = cave_sizes[seat] / 20.0
        rec.sizes = (hand_sizes, cave_sizes)
        obs[np_at + n - 1] = 1.0  # the same for every call with this rec
    if table != rec.table:
        obs[tb:tb + 8] = array("f", table)
        rec.table = table
    c = cur_at + (current - me) % n
    if c != rec.cur:
        if rec.cur >= 0:
            obs[rec.cur] = 0.0
        obs[c] = 1.0
        rec.cur = c
    if pend != rec.pend:
        key = (n, me, pend)
        block = lay.pending_blocks.get(key)
        if block is None:
            block = lay.pending_block(me, n, pend)
        obs[dec_at:qu] = block
        rec.pend = pend
    mole: list[int] = []
    for dec in reversed(decisions):
        if dec.kind == D_MOLE:
            if dec.pool is not None and dec.player == me:
                pool = dec.pool
                mole = [c for c in hand if c in pool]
            break
    if mole != rec.mole:
        rec.mole = _cards(obs, mole_at, rec.mole, mole)
    if queue or rec.queue:
        kinds = [q[0] for q in queue]
        if kinds != rec.queue:
            obs[qu:qu + len(STEPS) + 1] = lay.zero_tail[:len(STEPS) + 1]
            for q in kinds:
                obs[qu + _STEP.get(q, len(STEPS))] += 0.25
            rec.queue = kinds
    if active != rec.active:
        obs[ac:ac + MUSHROOM_SLOTS] = lay.zero_tail[:MUSHROOM_SLOTS]
        for name, k in active.items():
            if k:
                obs[ac + _MUSHROOM.get(name, MUSHROOM_SLOTS - 1)] += k / 3.0
        rec.active = dict(active)
    offer, setup = more
    if offer or setup >= 0 or rec.caves[1] >= 0 or rec.caves[0]:
        numbers = tuple(forests[(me + r) % n].cave_number for r in range(n)) \
            if setup >= 0 else ()
        caves = (tuple(offer), setup, numbers)
        if caves != rec.caves:
            obs[cv:cv + CAVE_SLOTS + P + 1] = lay.zero_tail[:CAVE_SLOTS + P + 1]
            for x in offer:
                if 0 <= x < CAVE_SLOTS:
                    obs[cv + x] = 1.0
            if setup >= 0:
                for r in range(n):
                    obs[cv + CAVE_SLOTS + r] = numbers[r] / 16.0
                obs[cv + CAVE_SLOTS + P] = (setup + 1) / 10.0
            rec.caves = caves
    if chosen != rec.chosen:
        last_chosen = rec.chosen
        if last_chosen is not None:
            obs[chosen_at + last_chosen[0]] = 0.0
            obs[chosen_side_at + _SIDE[last_chosen[1]]] = 0.0
        if chosen is not None:
            obs[chosen_at + chosen[0]] = 1.0
            obs[chosen_side_at + _SIDE[chosen[1]]] = 1.0
        rec.chosen = chosen
    return obs


def _out(buf: array[float], out: Array | None) -> Array:
    """``buf`` as numpy (no copy), or copied into ``out``."""
    arr: Array = np.frombuffer(buf, np.float32)
    if out is None:
        return arr
    out[:] = arr
    return out


def _state_args(state: GameState, player: int) -> tuple[Any, ...]:
    """The encoder's arguments from a state, for seat ``player``: what it sees."""
    n = state.num_players
    if not 0 <= player < n:
        raise ValueError(f"no seat {player} in {article(f'{n}-player game')}")
    stack = state.stack
    pend = None
    if stack:
        top = stack[-1]
        step = top.step
        if step is not None:
            card, side, species, stepkind = step[1], step[2], step[3], step[0]
        else:
            card, side, species, stepkind = top.card, top.side, top.tag, ""
        if card and top.player != player:
            down = layout(state.game).face_down
            for q, f in enumerate(state.forests):  # a face-down host is hidden (make_view)
                if q != player and card in down(f):
                    card = 0
                    break
        pend = (top.kind, top.player, card, side, top.tree, top.need, len(top.paid),
                stepkind, species)
    table = (len(state.deck) / 100.0, len(state.box) / 100.0, len(state.winter) / 3.0,
             state.turn / 60.0, float(state.extra_turns), 1.0 if state.over else 0.0,
             len(stack) / 4.0, len(state.queue) / 4.0)
    if state.game.state_class is None:
        discard: Sequence[int] = ()
        caves: tuple[Sequence[int], int] = _NO_CAVES
    else:
        more: dict[str, Any] = state._view_more()
        discard = more.get("discard", ())
        caves = (more.get("cave_offer", ()), more.get("setup", -1))
    return (player, n, state.hands[player], state.clearing, list(map(len, state.hands)),
            list(map(len, state.caves)), state.known, state.forests, table, state.current,
            pend, stack, state.queue, state.active[state.current], discard, caves)


_NO_CAVES: tuple[Sequence[int], int] = ((), -1)


def encode_state(state: GameState, player: int, out: Array | None = None,
                 chosen: tuple[int, str] | None = None) -> Array:
    """The compact observation of seat ``player`` of ``state`` (into ``out`` if given),
    read from the state: only what that seat sees (module contract)."""
    lay = layout(state.game)
    args = _state_args(state, player)
    return _out(_encode(_Written(lay), lay, *args, chosen=chosen), out)


class Encoder:
    """Compact observations of one game's states, faster over a game: what it wrote for
    each seat is kept, and a field whose inputs did not change (a hand, the clearing, a
    forest of the same object and ``version``) is not written again. ``state(s, p)`` equals
    :func:`encode_state` (a new array each call)."""

    def __init__(self, game: GameDef) -> None:
        self.lay = layout(game)
        # seat -> (players, what was written, a numpy view of its buffer)
        self._written: dict[int, tuple[int, _Written, Array]] = {}

    def state(self, state: GameState, player: int,
              chosen: tuple[int, str] | None = None) -> Array:
        """The compact observation of seat ``player`` (a copy, the caller's to keep)."""
        lay = self.lay
        if state.game.id != lay.game_id:
            raise ValueError(f"this encoder is for {lay.game_id}, not {state.game.id}")
        args = _state_args(state, player)
        n = state.num_players
        held = self._written.get(player)
        if held is None or held[0] != n:
            rec = _Written(lay)
            held = self._written[player] = (n, rec, np.frombuffer(rec.buf, np.float32))
        _encode(held[1], lay, *args, chosen=chosen)
        return held[2].copy()


def encode_view(view: PlayerView, out: Array | None = None,
                chosen: tuple[int, str] | None = None) -> Array:
    """The compact observation of a seat's ``view`` (into ``out`` if given)."""
    lay = layout(view.game)
    me, n = view.player, view.num_players
    if not 0 <= me < n:
        raise ValueError("an observation is of a seat's view, not a spectator's")
    pv = view.pending
    pend = None
    if pv is not None:
        paid = len(view.decisions[-1].paid) if view.decisions else 0
        pend = (pv.kind, pv.player, pv.card, pv.side, pv.tree, pv.need, paid, pv.step,
                pv.species)
    table = (view.deck_size / 100.0, view.box_size / 100.0, len(view.winter) / 3.0,
             view.turn / 60.0, float(view.extra_turns), 1.0 if view.over else 0.0,
             len(view.decisions) / 4.0, len(view.queue) / 4.0)
    return _out(_encode(_Written(lay), lay, me, n, view.hand, view.clearing, view.hand_sizes,
                   view.cave_sizes, view.known_hands, view.forests, table, view.current,
                   pend, view.decisions, view.queue, view.active, view.discard,
                   (view.cave_offer, view.setup), chosen=chosen), out)
