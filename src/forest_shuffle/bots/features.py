"""Features of a position as one player sees it, for the learned evaluation.

Contract: :func:`view_features` (from a :class:`~forest_shuffle.engine.view.PlayerView`) and
:func:`state_features` (from a full :class:`~forest_shuffle.engine.state.GameState` and a
seat, for the search's cut-offs) return the same :data:`NUM_FEATURES` floats for the same
position and seat, and read only what that seat may see: its own hand, the public table
(forests, clearing, deck size, winter cards out, hand and cave sizes) and the game. No
other hand, cave content, deck order or box card enters, so changing cards hidden from the
seat changes nothing. Every feature is scaled to roughly [0, 1] (documented in
:data:`FEATURE_NAMES`, in order):

- the player count, one-hot (2 to 5 players);
- the fraction of the deck left (against the cards dealt into it at setup), the winter
  cards out (over the number that ends the game), the clearing's size / 10;
- for the player (``me_*``) and for the best rival (``riv_*``, the rival with the highest
  current total, the lowest seat after the player on ties): the total now by the game's
  scorer on the visible forest (``GameDef.totals``) / 100, hand size / hand limit, cave
  size / 20, trees / 10, empty slots on trees / 20, dwellers / 30;
- for the player only: the hand's keep value (greedy's value of each card, the best
  hand-limit of them summed) / 20, its best card's keep value / 7, the hand cards whose
  cost the rest of the hand can pay / 10, the best clearing card's keep value / 7;
- the margin now to the best rival / 100, the mean rival total / 100 and the second-best
  rival's total / 100 (0 with one rival);
- the search's own cut-off judgement (``mcts`` with its default ``hv=2``), as far as the
  seat sees it: ``me_base`` its value for the player (the total, ``HAND_WEIGHT`` times the
  best hand-limit keep values, ``SLOT`` times the fraction of the deck left per empty slot
  of every host) / 100; ``riv_base`` the same for the best rival by it, the hidden hand
  counted as ``RIVAL_CARD`` points a card up to the hand limit, / 100; ``base_margin``
  their difference / 100 and ``base_reward`` its logistic over ``SCALE`` points (the
  search's reward when the rival's hand is worth the flat value);
- what the cards the seat has not seen are worth to each forest (the pool: the game's deck
  cards but those in the seat's hand, the clearing and every forest, face-down hosts
  (saplings, universal moors) left out as their faces are hidden): ``me_pool`` the mean
  keep value of a pool card to the player's forest / 7, ``me_pool_top`` the mean of the
  best quarter of them / 7, ``riv_pool`` the mean keep value of a pool card to the best
  rival's forest / 7, ``riv_clearing`` the best clearing card's keep value to the best
  rival / 7 (what a draw is worth to each, and what the clearing offers the rival). They
  cost about three times the rest together, so a network that reads only the first
  features (``upto``) does not have them computed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from forest_shuffle.bots.greedy import Situation, _ctx, deck_start, hand_value, keep_values
from forest_shuffle.cards.forest import Forest
from forest_shuffle.engine.game import GameDef
from forest_shuffle.engine.state import GameState
from forest_shuffle.engine.view import PlayerView


def logistic(x: float) -> float:
    """1 / (1 + e^-x), ``x`` clipped to [-60, 60]: the search's squashing of a score
    difference (over its scale) or a logit into a reward in (0, 1)."""
    return 1.0 / (1.0 + math.exp(max(-60.0, min(60.0, -x))))


_SIDE = ("total", "hand", "cave", "trees", "free", "dwellers")

# The search's cut-off evaluation (``bots.mcts``, ``hv=2``; the same values, which a test
# checks: importing them would be circular, mcts imports the network).
#: Weight of greedy's keep value of a hand card.
HAND_WEIGHT = 0.6
#: Points an empty slot of a host is worth at the start, times the fraction of the deck left.
SLOT = 0.648
#: The score difference over which the reward is the logistic.
SCALE = 15.0
#: What a hidden hand card of a rival is counted as: ``HAND_WEIGHT`` times the mean keep
#: value of a hand card (2.3 in greedy self-play, 2 to 4 players).
RIVAL_CARD = 1.4

#: The name of every feature, in the order of the vector.
FEATURE_NAMES: tuple[str, ...] = (
    "players2", "players3", "players4", "players5", "deck_left", "winter_out", "clearing",
    *(f"me_{x}" for x in _SIDE),
    "me_hand_value", "me_best_card", "me_affordable", "me_best_clearing",
    *(f"riv_{x}" for x in _SIDE),
    "margin", "rival_mean", "rival_second",
    "me_base", "riv_base", "base_margin", "base_reward",
    "me_pool", "me_pool_top", "riv_pool", "riv_clearing",
)
#: Length of a feature vector.
NUM_FEATURES = len(FEATURE_NAMES)
_BASE = FEATURE_NAMES.index("me_base")
_POOL = FEATURE_NAMES.index("me_pool")


def _forest_facts(f: Forest) -> tuple[int, int, int, int]:
    """Trees (saplings included, shrubs not), empty slots of trees, dwellers, empty slots
    of every host (shrubs too, as the search's evaluation counts them)."""
    trees = free = dwellers = empty = 0
    for h in f.trees:
        k = 0
        for st in h.slots.values():
            if st:
                dwellers += len(st)
            else:
                k += 1
        empty += k
        if h.is_tree:
            trees += 1
            free += k
    return trees, free, dwellers, empty


def _free_slots(f: Forest) -> int:
    """Empty slots of every host."""
    return sum(1 for h in f.trees for st in h.slots.values() if not st)


def unseen_cards(game: GameDef, hand: Sequence[int], clearing: Sequence[int],
                 forests: Sequence[Forest]) -> list[int]:
    """The pool of a seat: the game's deck cards but those in its hand, the clearing and
    every forest (a face-down host, a sapling or a universal moor, hides its face and so
    counts as unseen), in deck order."""
    seen = set(hand)
    seen.update(clearing)
    for f in forests:
        for h in f.trees:
            if h.card is not None and h.species is not None:  # not a face-down card
                seen.add(h.card)
            for st in h.slots.values():
                seen.update(d.card for d in st if d.card is not None)
    return [cid for cid in game.deck_ids if cid not in seen]


def features(game: GameDef, me: int, hand: Sequence[int], forests: Sequence[Forest],
             clearing: Sequence[int], deck_size: int, winter_out: int,
             hand_sizes: Sequence[int], cave_sizes: Sequence[int],
             upto: int = NUM_FEATURES, totals: Sequence[int] | None = None,
             pool: Sequence[int] | None = None) -> list[float]:
    """The feature vector of seat ``me`` from what it sees (see the module contract); with
    ``upto`` at most ``_POOL`` (a network that reads only the first features), the pool's
    features, the costly ones, are left at 0. ``totals``: ``game.totals(forests)`` and
    ``pool``: :func:`unseen_cards` of the seat, when the caller has them already (they are
    computed otherwise)."""
    n = len(forests)
    out = [0.0] * NUM_FEATURES
    if 2 <= n <= 5:
        out[n - 2] = 1.0
    out[4] = min(1.0, deck_size / deck_start(game, n))
    out[5] = winter_out / game.winter_to_end
    out[6] = len(clearing) / 10.0
    tot = [float(t) for t in (game.totals(forests) if totals is None else totals)]
    rivals = rival_order(tot, me)
    limit = game.hand_limit

    empty = [0] * n

    def side(at: int, p: int) -> int:
        out[at] = tot[p] / 100.0
        at += 1
        trees, free, dwellers, empty[p] = _forest_facts(forests[p])
        out[at] = hand_sizes[p] / limit
        out[at + 1] = cave_sizes[p] / 20.0
        out[at + 2] = trees / 10.0
        out[at + 3] = free / 20.0
        out[at + 4] = dwellers / 30.0
        return at + 5

    at = side(7, me)
    s = Situation(game, me, hand, forests, clearing, deck_size, "", 0, "", 0, (), "", ())
    c = _ctx(s)
    vals = sorted((hand_value(cid, c) for cid in hand), reverse=True)
    out[at] = sum(vals[:limit]) / 20.0
    out[at + 1] = (vals[0] if vals else 0.0) / 7.0
    cards = game.cards
    spare = len(hand) - 1
    affordable = 0
    for cid in hand:
        card = cards[cid]
        if card is None:
            continue
        cost = (card.species.cost if card.species is not None
                else min(h.species.cost for h in card.halves.values()))
        affordable += cost <= spare
    out[at + 2] = affordable / 10.0
    out[at + 3] = max((hand_value(cid, c) for cid in clearing), default=0.0) / 7.0
    at += 4
    if rivals:
        at = side(at, rivals[0])
        out[at] = (tot[me] - tot[rivals[0]]) / 100.0
        out[at + 1] = sum(tot[i] for i in rivals) / len(rivals) / 100.0
        out[at + 2] = tot[rivals[1]] / 100.0 if len(rivals) > 1 else 0.0
    at = _BASE
    early = out[4] * SLOT
    mine = tot[me] + HAND_WEIGHT * sum(vals[:limit]) + early * empty[me]
    best = 0.0
    if rivals:
        first = rivals[0]
        best = -1e18
        for i in rivals:
            free = empty[i] if i == first else _free_slots(forests[i])
            best = max(best, tot[i] + early * free + RIVAL_CARD * min(hand_sizes[i], limit))
    diff = mine - best
    out[at] = mine / 100.0
    out[at + 1] = best / 100.0
    out[at + 2] = diff / 100.0
    out[at + 3] = logistic(diff / SCALE)
    if upto <= _POOL:
        return out
    if pool is None:
        pool = unseen_cards(game, hand, clearing, forests)
    if pool:
        mine_pool = sorted(keep_values(pool, c), reverse=True)
        top = max(1, len(mine_pool) // 4)
        out[_POOL] = sum(mine_pool) / len(mine_pool) / 7.0
        out[_POOL + 1] = sum(mine_pool[:top]) / top / 7.0
    if rivals:
        rc = _ctx(Situation(game, rivals[0], (), forests, clearing, deck_size, "", 0, "", 0,
                            (), "", ()))
        if pool:
            out[_POOL + 2] = sum(keep_values(pool, rc)) / len(pool) / 7.0
        out[_POOL + 3] = max((hand_value(cid, rc) for cid in clearing), default=0.0) / 7.0
    return out


def rival_order(totals: Sequence[float], me: int) -> list[int]:
    """The seats other than ``me``, best total first (ties: the next seat after ``me``
    first): ``[0]`` is the "best rival" of the ``riv_`` features."""
    n = len(totals)
    return sorted((i for i in range(n) if i != me), key=lambda i: (-totals[i], (i - me) % n))


_SPECIES: dict[str, tuple[str, ...]] = {}
_SPECIES_AT: dict[str, dict[str, int]] = {}


def species_names(game: GameDef) -> tuple[str, ...]:
    """Every species of the game's deck cards (both halves of a double card), sorted: the
    order of each block of :func:`species_features` (read from the catalog, once a game)."""
    names = _SPECIES.get(game.id)
    if names is None:
        found: set[str] = set()
        for cid in game.deck_ids:
            card = game.cards[cid]
            if card is None:
                continue
            if card.species is not None:
                found.add(card.species.name)
            else:
                found.update(h.species.name for h in card.halves.values())
        names = _SPECIES[game.id] = tuple(sorted(found))
        _SPECIES_AT[game.id] = {name: i for i, name in enumerate(names)}
    return names


#: The blocks of :func:`species_features`, in order: the seat's forest, the best rival's,
#: the seat's hand, the clearing, the cards the seat has not seen (:func:`unseen_cards`).
#: A network reads the first blocks (the shipped 2-player one the first four).
SPECIES_BLOCKS: tuple[str, ...] = ("sp_me", "sp_riv", "sp_hand", "sp_clearing", "sp_unseen")
_UNSEEN = SPECIES_BLOCKS.index("sp_unseen")


def species_feature_names(game: GameDef,
                          blocks: int = len(SPECIES_BLOCKS)) -> tuple[str, ...]:
    """The names of :func:`species_features`' inputs (``sp_me:Beech``, ...), in order, for
    the first ``blocks`` blocks."""
    return tuple(f"{block}:{name}" for block in SPECIES_BLOCKS[:blocks]
                 for name in species_names(game))


def wide_feature_names(game: GameDef, blocks: int = len(SPECIES_BLOCKS)) -> tuple[str, ...]:
    """What a network that sees the species of ``game`` reads: :data:`FEATURE_NAMES`, then
    the first ``blocks`` blocks of :func:`species_feature_names`."""
    return FEATURE_NAMES + species_feature_names(game, blocks)


def species_blocks(game: GameDef, width: int) -> int:
    """How many species blocks a network of ``width`` inputs that sees the species of
    ``game`` reads (the width is :func:`wide_feature_names`' length); ValueError when no
    number of blocks gives that width."""
    k = len(species_names(game))
    blocks, rest = divmod(width - NUM_FEATURES, k)
    if rest or not 1 <= blocks <= len(SPECIES_BLOCKS):
        raise ValueError(f"a network that sees the species of {game.id!r} reads "
                         f"{NUM_FEATURES} features and 1 to {len(SPECIES_BLOCKS)} blocks of "
                         f"{k}, not {width} features")
    return blocks


def species_features(state: GameState, p: int, totals: Sequence[int] | None = None,
                     blocks: int = len(SPECIES_BLOCKS),
                     pool: Sequence[int] | None = None) -> list[float]:
    """Card-level inputs for seat ``p``, the first ``blocks`` of :data:`SPECIES_BLOCKS`,
    each ``len(species_names(game))`` long: how many cards of each species are in ``p``'s
    forest, in the best rival's (as for the ``riv_`` features; zeros alone at the table), in
    ``p``'s hand, in the clearing, and among the cards ``p`` has not seen (each half of a
    double card counts once), each over 3. Reads only what ``p`` sees (a face-down host
    counts for nothing). Not among :data:`FEATURE_NAMES`: a network trained on them for one
    game (``benchmarks/species_inputs.py``) reads them after the usual features
    (:class:`~forest_shuffle.bots.value.ValueNet`'s ``species_game``). ``totals`` as in
    :func:`features`, and ``pool`` too (the unseen cards, for the last block)."""
    game = state.game
    k = len(species_names(game))
    at = _SPECIES_AT[game.id]
    out = [0.0] * (len(SPECIES_BLOCKS) * k)
    rivals = rival_order(game.totals(state.forests) if totals is None else totals, p)

    def forest(f: Forest, base: int) -> None:
        for h in f.trees:
            if h.species is not None and h.species.name in at:
                out[base + at[h.species.name]] += 1.0
            for st in h.slots.values():
                for d in st:
                    if d.species.name in at:
                        out[base + at[d.species.name]] += 1.0

    def cards(ids: Sequence[int], base: int) -> None:
        for cid in ids:
            card = game.cards[cid]
            if card is None:
                continue
            halves = ([card.species] if card.species is not None
                      else [h.species for h in card.halves.values()])
            for sp in halves:
                if sp.name in at:
                    out[base + at[sp.name]] += 1.0

    forest(state.forests[p], 0)
    if rivals:
        forest(state.forests[rivals[0]], k)
    cards(state.hands[p], 2 * k)
    cards(state.clearing, 3 * k)
    if blocks > _UNSEEN:  # the costly block, only when read
        if pool is None:
            pool = unseen_cards(game, state.hands[p], state.clearing, state.forests)
        cards(pool, _UNSEEN * k)
    return [v / 3.0 for v in out[:blocks * k]]


def view_features(view: PlayerView) -> list[float]:
    """The features of the view's player (:func:`features`)."""
    return features(view.game, view.player, view.hand, view.forests, view.clearing,
                    view.deck_size, len(view.winter), view.hand_sizes, view.cave_sizes)


def state_features(state: GameState, p: int, upto: int = NUM_FEATURES,
                   totals: Sequence[int] | None = None,
                   pool: Sequence[int] | None = None) -> list[float]:
    """The features of seat ``p`` in a full state, reading only what ``p`` sees (equal to
    ``view_features(state.view(p))``, without building the view; ``upto``, ``totals`` and
    ``pool`` as in :func:`features`)."""
    return features(state.game, p, state.hands[p], state.forests, state.clearing,
                    len(state.deck), len(state.winter), [len(h) for h in state.hands],
                    [len(cv) for cv in state.caves], upto, totals, pool)


def wide_features(state: GameState, p: int, blocks: int = len(SPECIES_BLOCKS)) -> list[float]:
    """:func:`state_features` followed by the first ``blocks`` blocks of
    :func:`species_features` (what a network that sees the species reads), the table scored
    once for both and the unseen cards found once."""
    game = state.game
    totals = game.totals(state.forests)
    pool = unseen_cards(game, state.hands[p], state.clearing, state.forests)
    return (state_features(state, p, NUM_FEATURES, totals, pool)
            + species_features(state, p, totals, blocks, pool))
