"""Observation arrays for learning: built from one :class:`~forest_shuffle.engine.view.PlayerView`.

Contract: :func:`encode` turns a player's view into one flat ``float32`` array of
:data:`OBS_SIZE` values laid out as :data:`FIELDS` (name, shape) in order; it reads
nothing but the view, so it can hold nothing that player may not see. The layout is the
same for every registered game and player count (seats are padded to :data:`MAX_PLAYERS`),
and both adapters (PettingZoo and OpenSpiel) use it. :func:`fields` gives named,
reshaped views of such an array; :func:`action_mask` the ``int8`` mask of a list of legal
actions over :data:`~forest_shuffle.rl.actions.NUM_ACTIONS` ids.

Seats are *relative*: row 0 is the observing player, row ``r`` the player ``r`` seats
after it (``(player + r) % num_players``); rows beyond the player count are zero. Card
planes have one value per card id ``0..CARD_SLOTS-1`` (card 0 is never dealt). Values are
raw counts or 0/1 flags, never scaled. Fields:

================  ==================  ==================================================
field             shape               values
================  ==================  ==================================================
hand              (C,)                1 for each card in the own hand
own_cave          (C,)                1 for each card under the own cave
clearing          (C,)                1 for each card in the clearing
winter            (C,)                1 for each winter card revealed
known_hands       (P, C)              row r: cards everyone saw seat r take from the
                                      clearing and still in its hand (row 0 is zero)
hosts             (P, C)              row r: the host cards of seat r's forest that the
                                      observer sees (trees, shrubs, own saplings)
dwellers          (P, 4, C)           [r, s]: cards played as a half on side s (top,
                                      bottom, left, right) in seat r's forest
trees             (P, T, 8)           [r, t]: host t of seat r: present, face down (a
                                      sapling or universal moor), shrub, moor, and the
                                      number of cards on its top, bottom, left, right
seats             (P, 6)              row r: seat present, hand size, cave size, hosts,
                                      saplings, dwellers
table             (8,)                deck size, box size, winter cards revealed, turn,
                                      extra turns, game over, decisions on the stack,
                                      steps queued
current           (P,)                one-hot: whose turn it is (relative seat)
num_players       (P,)                one-hot at index num_players - 1
decision          (DECISION_SLOTS,)   one-hot: the pending decision's kind, in
                                      :data:`DECISIONS` order; the last but one: another
                                      kind, the last: none
decider           (P,)                one-hot: who decides it (relative seat)
pending_card      (C,)                the card being paid for, or whose effect, bonus or
                                      mushroom draw is offered (0 when hidden)
pending_side      (4,)                one-hot: that card's side (a half), top..right
pending_tree      (T,)                one-hot: the tree that half goes to
pending_need      (2,)                cards still to pay / plays left; 1 if any number
pending_paid      (C,)                cards paid so far (pay), put under the cave so far
                                      (own Raccoon), or chosen from the clearing
pending_step      (4,)                one-hot: effect, bonus, mushroom (an option),
                                      another step
pending_tag       (TAG_SLOTS,)        one-hot: the tag (or species) a free play asks for,
                                      in :data:`TAGS` order; the last slot: another one
mole_pool         (C,)                the cards the own Mole may still play or pay with
queue             (4,)                effects, bonuses, mushroom draws and other steps
                                      queued this turn
active            (MUSHROOM_SLOTS,)   the current player's mushrooms acting this turn, by
                                      species in :data:`MUSHROOMS` order; last: others
discard           (C,)                Dartmoor: 1 for each card in the discard pile
cave_offer        (CAVE_SLOTS,)       Dartmoor: the cave numbers still offered in the draft
cave_numbers      (P,)                Dartmoor: the cave number seat r drafted (0: none)
setup             (1,)                Dartmoor: the draft's step plus 1 (0 in games
                                      without a draft)
================  ==================  ==================================================

(``C`` = CARD_SLOTS = 512, ``P`` = MAX_PLAYERS = 5, ``T`` = TREE_CAP = 200.)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from math import prod

import numpy as np
import numpy.typing as npt

from forest_shuffle.cards.model import SIDES
from forest_shuffle.engine.actions import Action
from forest_shuffle.engine.kinds import DECISION_KINDS
from forest_shuffle.engine.state import (
    D_FREE,
    D_MOLE,
    S_BONUS,
    S_EFFECT,
    S_MUSHROOM,
)
from forest_shuffle.engine.view import PlayerView
from forest_shuffle.rl.actions import (
    CARD_SLOTS,
    NUM_ACTIONS,
    TREE_CAP,
    ActionEncodingError,
    action_to_id,
)

#: Seats in the layout (the largest player count of any registered game).
MAX_PLAYERS = 5
#: Decision kinds in one-hot order (``decision``): each kind's slot is its declaration's
#: ``obs`` (``engine/kinds.py``; stable ids, never renumbered), a kind with none takes the
#: "another kind" slot.
DECISIONS: tuple[str, ...] = tuple(sorted((k for k, d in DECISION_KINDS.items() if d.obs >= 0),
                                          key=lambda k: DECISION_KINDS[k].obs))
#: Slots of ``decision``: DECISIONS, room for more, then "another kind" and "none".
DECISION_SLOTS = 24
STEPS: tuple[str, ...] = (S_EFFECT, S_BONUS, S_MUSHROOM)
#: Cave numbers in ``cave_offer`` (Dartmoor's caves are numbered from 1).
CAVE_SLOTS = 16
#: Tags (and the one species) a free play asks for, in one-hot order (``pending_tag``).
TAGS: tuple[str, ...] = (
    "alps", "amphibian", "bat", "bird", "butterfly", "cloven-hoofed animal", "deer",
    "insect", "mushroom", "pawed animal", "plant", "shrub", "tree", "woodland edge",
    "Squeaker",
)
TAG_SLOTS = 32
#: Species with a permanent draw (mushrooms and shrubs), in ``active`` order.
MUSHROOMS: tuple[str, ...] = (
    "Black Trumpet", "Blackthorn", "Chanterelle", "Common Hazel", "Elderberry",
    "Fly Agaric", "Parasol Mushroom", "Penny Bun",
)
MUSHROOM_SLOTS = 16

C, P, T = CARD_SLOTS, MAX_PLAYERS, TREE_CAP
#: The fields of an observation, in order: (name, shape).
FIELDS: tuple[tuple[str, tuple[int, ...]], ...] = (
    ("hand", (C,)),
    ("own_cave", (C,)),
    ("clearing", (C,)),
    ("winter", (C,)),
    ("known_hands", (P, C)),
    ("hosts", (P, C)),
    ("dwellers", (P, len(SIDES), C)),
    ("trees", (P, T, 8)),
    ("seats", (P, 6)),
    ("table", (8,)),
    ("current", (P,)),
    ("num_players", (P,)),
    ("decision", (DECISION_SLOTS,)),
    ("decider", (P,)),
    ("pending_card", (C,)),
    ("pending_side", (len(SIDES),)),
    ("pending_tree", (T,)),
    ("pending_need", (2,)),
    ("pending_paid", (C,)),
    ("pending_step", (len(STEPS) + 1,)),
    ("pending_tag", (TAG_SLOTS,)),
    ("mole_pool", (C,)),
    ("queue", (len(STEPS) + 1,)),
    ("active", (MUSHROOM_SLOTS,)),
    ("discard", (C,)),
    ("cave_offer", (CAVE_SLOTS,)),
    ("cave_numbers", (P,)),
    ("setup", (1,)),
)

OFFSETS: dict[str, int] = {}
_at = 0
for _name, _shape in FIELDS:
    OFFSETS[_name] = _at
    _at += prod(_shape)
#: Values in one observation.
OBS_SIZE = _at
del _at

_DECISION = {k: i for i, k in enumerate(DECISIONS)}
_STEP = {k: i for i, k in enumerate(STEPS)}
_TAG = {k: i for i, k in enumerate(TAGS)}
_MUSHROOM = {k: i for i, k in enumerate(MUSHROOMS)}
_SIDE = {s: i for i, s in enumerate(SIDES)}

Array = npt.NDArray[np.float32]


def fields(obs: Array) -> dict[str, Array]:
    """Named views (no copies) of an observation array, each in its field's shape."""
    return {name: obs[OFFSETS[name]:OFFSETS[name] + prod(shape)].reshape(shape)
            for name, shape in FIELDS}


def _mark(obs: Array, offset: int, cards: Iterable[int | None]) -> None:
    for c in cards:
        if c:  # None or 0: unknown
            obs[offset + c] = 1.0


def encode(view: PlayerView, out: Array | None = None) -> Array:
    """The observation of ``view`` (a seat's view, ``player`` >= 0), written into ``out``
    (zeroed first) or a new array."""
    obs = np.zeros(OBS_SIZE, np.float32) if out is None else out
    if out is not None:
        obs.fill(0.0)
    me = view.player
    n = view.num_players
    if not 0 <= me < n:
        raise ValueError("an observation is of a seat's view, not a spectator's")
    o = OFFSETS
    ones: list[int] = []  # indices set to 1, written at once
    for name, cards in (("hand", view.hand), ("own_cave", view.own_cave),
                        ("clearing", view.clearing), ("winter", view.winter)):
        at = o[name]
        ones.extend(at + c for c in cards if c)
    n_sides = len(SIDES)
    hosts_at, trees_at, dw_at, known_at = o["hosts"], o["trees"], o["dwellers"], o["known_hands"]
    for r in range(n):
        seat = (me + r) % n
        if r:
            at = known_at + r * C
            ones.extend(at + c for c in view.known_hands[seat] if c)
        hosts = saplings = dwellers = 0
        for t, host in enumerate(view.forests[seat].trees):
            hosts += 1
            sapling = host.species is None
            if sapling:
                saplings += 1
            if host.card:
                ones.append(hosts_at + r * C + host.card)
            row = trees_at + (r * T + t) * 8
            obs[row] = 1.0
            if sapling:
                obs[row + 1] = 1.0
            kind = host.kind
            if kind == "shrub":
                obs[row + 2] = 1.0
            elif "moor" in kind:
                obs[row + 3] = 1.0
            for s, side in enumerate(SIDES):
                stack = host.slots[side]
                if not stack:
                    continue
                dwellers += len(stack)
                obs[row + 4 + s] = len(stack)
                base = dw_at + (r * n_sides + s) * C
                ones.extend(base + d.card for d in stack if d.card)
        seats = o["seats"] + r * 6
        obs[seats:seats + 6] = (1.0, view.hand_sizes[seat], view.cave_sizes[seat], hosts,
                                saplings, dwellers)
    obs[ones] = 1.0
    tb = o["table"]
    obs[tb:tb + 8] = (view.deck_size, view.box_size, len(view.winter), view.turn,
                      view.extra_turns, 1.0 if view.over else 0.0, len(view.decisions),
                      len(view.queue))
    obs[o["current"] + (view.current - me) % n] = 1.0
    obs[o["num_players"] + n - 1] = 1.0
    pend = view.pending
    if pend is None:
        obs[o["decision"] + DECISION_SLOTS - 1] = 1.0
    else:
        obs[o["decision"] + _DECISION.get(pend.kind, DECISION_SLOTS - 2)] = 1.0
        obs[o["decider"] + (pend.player - me) % n] = 1.0
        if 0 < pend.card < C:
            obs[o["pending_card"] + pend.card] = 1.0
        if pend.side:
            obs[o["pending_side"] + _SIDE[pend.side]] = 1.0
        if 0 <= pend.tree < T:
            obs[o["pending_tree"] + pend.tree] = 1.0
        if pend.need < 0:
            obs[o["pending_need"] + 1] = 1.0
        else:
            obs[o["pending_need"]] = pend.need
        if pend.step:
            obs[o["pending_step"] + _STEP.get(pend.step, len(STEPS))] = 1.0
        if pend.kind == D_FREE and pend.species:
            obs[o["pending_tag"] + _TAG.get(pend.species, TAG_SLOTS - 1)] = 1.0
    if view.decisions:
        top = view.decisions[-1]
        decl = view.game.kinds.get(top.kind)
        if decl is not None and decl.obs_paid:
            _mark(obs, o["pending_paid"], top.paid)
        for dec in reversed(view.decisions):
            if dec.kind == D_MOLE:
                if dec.pool is not None and dec.player == me:
                    hand = set(view.hand)
                    _mark(obs, o["mole_pool"], (c for c in dec.pool if c in hand))
                break
    qu = o["queue"]
    for kind, _card, _side, _name in view.queue:
        obs[qu + _STEP.get(kind, len(STEPS))] += 1.0
    ac = o["active"]
    for name, k in view.active.items():
        if k:
            obs[ac + _MUSHROOM.get(name, MUSHROOM_SLOTS - 1)] += k
    # Dartmoor's table (absent from the views of other games)
    _mark(obs, o["discard"], getattr(view, "discard", ()))
    offer = o["cave_offer"]
    for number in getattr(view, "cave_offer", ()):
        if 0 <= number < CAVE_SLOTS:
            obs[offer + number] = 1.0
    for r in range(n):
        obs[o["cave_numbers"] + r] = getattr(view.forests[(me + r) % n], "cave_number", 0)
    obs[o["setup"]] = getattr(view, "setup", -1) + 1
    return obs


def action_mask(actions: Sequence[Action]) -> npt.NDArray[np.int8]:
    """``int8`` of length NUM_ACTIONS: 1 at the id of each action that has one."""
    mask = np.zeros(NUM_ACTIONS, np.int8)
    for a in actions:
        try:
            mask[action_to_id(a)] = 1
        except ActionEncodingError:
            continue  # a half beyond the tree cap (rl.actions): never the only choice
    return mask


def view_text(view: PlayerView) -> str:
    """The view as one canonical line (the legal actions left out): equal for two views
    exactly when they show the same. Used as OpenSpiel's observation string. Every field of
    the view is written (``repr`` of its value; a forest as its hosts' kind, card and slot
    cards, plus cave counts), so a field added to PlayerView is written too."""
    parts = []
    for f in dataclasses.fields(view):
        name = f.name
        if name == "legal_actions":
            continue
        value = getattr(view, name)
        if name == "forests":
            value = tuple((tuple((t.kind, t.card, t.species is None,
                                  tuple(tuple(d.card for d in t.slots[side]) for side in SIDES))
                                 for t in forest.trees), forest.cave,
                           getattr(forest, "cave_number", 0))
                          for forest in value)
        elif name == "game":
            value = value.id
        elif name == "active":
            value = sorted(value.items())
        parts.append(f"{name}={value!r}")
    return "; ".join(parts)
