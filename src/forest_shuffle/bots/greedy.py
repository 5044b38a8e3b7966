"""The greedy bot: a one-step heuristic that knows the cards of whatever game it plays.

Contract: :class:`GreedyBot` chooses from a :class:`~forest_shuffle.engine.view.PlayerView` only.
Each decision is scored by hand-written estimates: the exact change of the own score
(minus the best rival's change) from the game's scorer (``GameDef.totals``) on the forest
with the card placed, what the card enables (host slots, set progress, draws, extra turns,
free plays, the cave), the bonus when a matching payment is affordable, and the value of the
cards paid (the least useful ones, matching symbols when the bonus is worth it). The same
policy runs on a full :class:`~forest_shuffle.engine.state.GameState` (:func:`greedy_action`), for
search rollouts; ``exact=False`` skips the scorer for speed. Deterministic: ties are broken
by the order of the legal actions, so the seed does not matter.

No species is known by name: every estimate is derived from the card data of the game the
view or state carries (``game``, a :class:`~forest_shuffle.engine.game.GameDef`), from each
species' points rule and params, its effect, bonus and permanent ops, its tags and its slot
sharing, so an expansion species is valued like a base species of the same rule. What is
fixed about a game (cards, hand limit, deck size at the start, the butterflies and bats,
how often a permanent draw fires) is compiled once per definition (:func:`tables_of`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from forest_shuffle.bots.base import Bot, Budget
from forest_shuffle.cards.forest import SAPLING as SAPLING_KIND
from forest_shuffle.cards.forest import SHRUB, Dweller, Forest, Host, host_of_card
from forest_shuffle.cards.model import SIDES, Card, Effect, Species
from forest_shuffle.cards.ops import EFFECT_OPS
from forest_shuffle.engine.actions import (
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
)
from forest_shuffle.engine.game import GameDef
from forest_shuffle.engine.state import GameState
from forest_shuffle.engine.view import PlayerView

#: Value of one unknown card drawn from the deck, in points.
CARD = 2.2
#: Value of an extra turn, in points.
TURN = 4.5
#: Value of a permanent draw (a mushroom, a shrub's draw) placed at the start of the game,
#: when at least ``TRIGGER_REF`` of the cards played fire it (every base mushroom does);
#: one that fires less often is worth proportionally less.
PERMANENT = 4.0
TRIGGER_REF = 0.15
#: Value at the start of the game of a host permanent that lets cards share a slot.
SHARED_SLOTS = 1.5


# ---------------------------------------------------------------------- per-game tables


@dataclass(frozen=True, slots=True)
class Rule:
    """A species' points rule, permanent effect and slot sharing compiled for the heuristic
    (the params of :data:`~forest_shuffle.cards.model.POINT_RULES` pulled out into fields)."""

    rule: str
    host: bool  # a tree or a shrub
    tree: bool
    a: float  # points_each / points_per / points_per_card
    #: the rule's second number: points_each_if_most, min_count, species_needed,
    #: min_trees or min_distinct_bat_species
    b: int
    key: str  # the tag, species, tree or host kind the rule names
    keys: tuple[str, ...]  # the tags of per_tags, the symbols of per_tree_symbols
    table: tuple[float, ...]  # a set table: table[n] for n cards (the last holds beyond)
    includes_self: bool
    counts_self: bool  # the species counts for the species its rule names (counts_as)
    #: what the permanent effect is worth placed at the start of the game (0: none)
    permanent: float
    draws: bool  # the permanent effect is a draw on later plays
    stacks: bool  # stacks with its own kind in a slot (slot_sharing, own or counted as)


def _table(raw: object) -> tuple[float, ...]:
    """A points table (``{"1": 0, "2": 3, "7+": 49}``) as the best value for each n."""
    if not isinstance(raw, dict) or not raw:
        return (0.0,)
    pairs = [(int(str(k).rstrip("+")), float(v)) for k, v in raw.items()]
    top = max(m for m, _ in pairs)
    out = []
    best = 0.0
    for n in range(top + 1):
        for m, v in pairs:
            if m == n:
                best = max(best, v)
        out.append(best)
    return tuple(out)


def _at(table: tuple[float, ...], n: int) -> float:
    return table[n] if n < len(table) else table[-1]


def _rule(sp: Species, permanents: Mapping[str, float]) -> Rule:
    pts = sp.points
    g = pts.params.get
    a = float(g("points_each", g("points_per", g("points_per_card", 0))))
    b = g("points_each_if_most", g("min_count", g("species_needed", g(
        "min_trees", g("min_distinct_bat_species", 0)))))
    key = str(g("tag", g("species", g("tree", g("host", "")))))
    perm = sp.permanent
    value = 0.0
    if perm is not None and perm.op == "draw_on_play":
        value = permanents.get(sp.name, PERMANENT)
    elif perm is not None and perm.op == "host_slot_sharing":
        value = SHARED_SLOTS
    return Rule(
        rule=pts.rule, host=sp.is_host, tree=sp.is_tree, a=a, b=int(b), key=key,
        keys=tuple(g("tags", g("symbols", ()))), table=_table(g("table")),
        includes_self=bool(g("includes_self", False)),
        counts_self=bool(pts.rule == "per_species" and key in sp.counts_as),
        permanent=value, draws=perm is not None and perm.op == "draw_on_play",
        stacks=bool(sp.share or sp.share_as),
    )


@dataclass(frozen=True, slots=True)
class Tables:
    """What the heuristic needs to know about one game, compiled once per definition."""

    game: GameDef
    cards: tuple[Card | None, ...]
    hand_limit: int
    #: Cards in play at setup per player count (the deck without the winter cards, minus
    #: those boxed): the fraction of the deck left is measured against it.
    deck_start: Mapping[int, float]
    #: Every species of the game -> its compiled rule.
    rules: Mapping[Species, Rule]
    species: Mapping[str, Species]
    butterflies: tuple[str, ...]  # species scored by butterfly_sets
    bats: tuple[str, ...]  # species scored by bat_variety
    #: Species with a draw_on_play permanent -> its value at the start of the game.
    permanents: Mapping[str, float]
    #: Card id -> the tags on the card (host species' or both halves'), for clearing ops.
    card_tags: tuple[frozenset[str], ...]
    #: Species name -> every species name that counts as it (itself included).
    aliases: Mapping[str, tuple[str, ...]]
    #: Species with a host_slot_sharing permanent -> (the side it opens, the tag).
    host_sharers: Mapping[str, tuple[str, str]]
    #: Species scored per cave card -> points per cave card.
    cave_scorers: Mapping[str, float]
    #: Whether some host species has a tag besides "tree" (counted like dwellers' tags).
    host_tags: bool
    #: Whether the game has shrubs (hosts that are no trees).
    shrubs: bool
    #: Species name -> the tags a card of it counts for in a slot (none for a host).
    dweller_tags: Mapping[str, tuple[str, ...]]
    #: Species name -> the tags besides "tree" a host of it counts for (none for a dweller).
    host_extra_tags: Mapping[str, tuple[str, ...]]


_TABLES: dict[str, Tables] = {}


def _card_tag_set(card: Card | None) -> frozenset[str]:
    return frozenset() if card is None else card.tags


def _trigger_rate(game: GameDef, trigger: str, tag: str) -> float:
    """The share of the deck's cards that fire a trigger when played (a split card counts
    half for each half that fires)."""
    total = 0.0
    for cid in game.deck_ids:
        card = game.cards[cid]
        if card is None:
            continue
        sp = card.species
        if sp is not None:
            if (trigger == "tree card played" and sp.is_tree
                    or trigger == "pawed animal played" and "pawed animal" in sp.tags
                    or trigger == "tag played" and tag in sp.tags):
                total += 1.0
            continue
        for side, half in card.halves.items():
            t = half.species.tags
            if (trigger == "pawed animal played" and "pawed animal" in t
                    or trigger == "card placed atop a tree" and side == "top"
                    or trigger == "card placed below a tree" and side == "bottom"
                    or trigger == "tag played" and tag in t):
                total += 0.5
    return total / max(1, len(game.deck_ids))


def _build_tables(game: GameDef) -> Tables:
    species = game.catalog.species
    permanents = {
        trg.name: PERMANENT * min(1.0, _trigger_rate(game, trg.trigger, trg.tag) / TRIGGER_REF)
        for trg in game.triggers
    }
    sharers = {sp.name: (sp.permanent.params["side"], sp.permanent.params["tag"])
               for sp in species.values()
               if sp.permanent is not None and sp.permanent.op == "host_slot_sharing"}
    n_ids = len(game.deck_ids)
    return Tables(
        game=game,
        cards=game.cards,
        hand_limit=game.hand_limit,
        deck_start={n: float(max(1, n_ids - removed))
                    for n, removed in game.removed_at_setup.items()},
        rules={sp: _rule(sp, permanents) for sp in species.values()},
        species=species,
        butterflies=tuple(n for n, sp in species.items() if sp.points.rule == "butterfly_sets"),
        bats=tuple(n for n, sp in species.items() if sp.points.rule == "bat_variety"),
        permanents=permanents,
        card_tags=tuple(_card_tag_set(c) for c in game.cards),
        aliases=game.catalog.aliases,
        host_sharers=sharers,
        cave_scorers={n: float(sp.points.params["points_per"]) for n, sp in species.items()
                      if sp.points.rule == "per_cave_card"},
        host_tags=any(sp.is_host and sp.tags - {"tree"} for sp in species.values()),
        shrubs=any(sp.is_host and not sp.is_tree for sp in species.values()),
        dweller_tags={n: () if sp.is_host else tuple(sorted(sp.tags))
                      for n, sp in species.items()},
        host_extra_tags={n: tuple(sorted(sp.tags - {"tree"})) if sp.is_host else ()
                         for n, sp in species.items()},
    )


def tables_of(game: GameDef) -> Tables:
    """The heuristic's tables of a game (built on first use, then shared)."""
    t = _TABLES.get(game.id)
    if t is None or t.game is not game:
        t = _TABLES[game.id] = _build_tables(game)
    return t


def deck_start(game: GameDef, num_players: int) -> float:
    """Cards in play at the start of a ``num_players`` game of ``game`` (for the fraction of
    the deck left)."""
    t = tables_of(game)
    return t.deck_start.get(num_players) or float(len(game.deck_ids))


@dataclass(slots=True)
class Situation:
    """What the heuristic reads: one player's hand, the table and the pending decision,
    in the game ``game``."""

    game: GameDef
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
    return Situation(view.game, view.player, view.hand, view.forests, view.clearing,
                     view.deck_size, pend.kind, pend.card, pend.side, pend.need, pend.paid,
                     pend.species, view.legal_actions)


def situation_of_state(state: GameState) -> Situation:
    """The situation of the player to move in a full state (for rollouts)."""
    pend = state.stack[-1]
    p = pend.player
    species = pend.step[3] if pend.step is not None else pend.tag
    return Situation(state.game, p, state.hands[p], state.forests, state.clearing,
                     len(state.deck), pend.kind, pend.card, pend.side, pend.need, pend.paid,
                     species, state.legal_actions())


# ---------------------------------------------------------------------- forest facts


@dataclass(slots=True)
class _Ctx:
    """Facts about the own forest gathered once per decision."""

    t: Tables
    counts: dict[str, int]  # visible cards by species (hosts and dwellers)
    tags: dict[str, int]  # visible cards by tag (hosts and dwellers; "tree" not kept)
    dtags: dict[str, int]  # dwellers by tag (what draw_per_tag counts)
    trees: int  # trees and saplings (shrubs are no trees)
    tree_species: int
    free: dict[str, int]  # empty slots by side
    nfree: int  # empty slots in all
    bottom: int
    full: int
    most_trees: bool
    hand: int
    late: float  # 0 at the start of the game, 1 when the deck is exhausted
    clearing: Sequence[int]
    shrubs: int
    saplings: int
    empty_hosts: int  # hosts with no dweller
    shares: frozenset[tuple[str, str]]  # (side, tag) a host permanent lets share its slot
    cave: int
    cave_points: float  # points one more cave card is worth here
    forest: Forest
    #: tree symbol -> visible cards showing it (:meth:`symbol_counts`, on first use)
    symbols: dict[str, int] | None = None

    def symbol_counts(self) -> dict[str, int]:
        """Visible cards by the tree symbol they show (hosts and dwellers)."""
        sym = self.symbols
        if sym is None:
            sym = self.symbols = _symbol_counts(self.forest)
        return sym

    #: What another turn is worth (an op's value reads it).
    turn_value: ClassVar[float] = TURN

    def draw_value(self) -> float:
        """What one card drawn now is worth (less late in the game)."""
        return CARD * (1.0 - 0.5 * self.late)

    def hand_fits(self, hand: Sequence[int], what: str) -> int:
        """Cards of ``hand`` that answer a free play of ``what``."""
        return _hand_fits(self.t.cards, hand, what)

    def n_tag(self, tag: str) -> int:
        """Visible cards with ``tag`` (trees and saplings for ``"tree"``)."""
        return self.trees if tag == "tree" else self.tags.get(tag, 0)

    def n_species(self, name: str) -> int:
        """Visible cards of species ``name`` or counting as it."""
        counts = self.counts
        return sum(counts.get(n, 0) for n in self.t.aliases.get(name, (name,)))

    def distinct(self, tag: str) -> int:
        """Different species with ``tag`` in the forest."""
        species = self.t.species
        return sum(1 for n in self.counts if tag in species[n].tags)

    def hosts_of_kind(self, kind: str) -> int:
        """Hosts of a kind: ``tree`` (tree cards), ``sapling`` or ``shrub``."""
        if kind == SHRUB:
            return self.shrubs
        if kind == SAPLING_KIND:
            return self.saplings
        return self.trees - self.saplings


def _symbol_counts(forest: Forest) -> dict[str, int]:
    symbols: dict[str, int] = {}
    for h in forest.trees:
        sym = h.symbol
        if sym:
            symbols[sym] = symbols.get(sym, 0) + 1
        for stack in h.slots.values():
            for d in stack:
                if d.symbol:
                    symbols[d.symbol] = symbols.get(d.symbol, 0) + 1
    return symbols


def _ctx(s: Situation) -> _Ctx:
    """The facts of the own forest, from its indexes (``species_counts``, ``free_slots``)
    and one pass over its hosts (not their dwellers); the same facts as
    :func:`_ctx_rescan`."""
    t = tables_of(s.game)
    forest = s.forests[s.player]
    counts = forest.species_counts.copy()
    fs = forest.free_slots
    free = {side: len(fs[side]) for side in SIDES}
    bottom = full = trees = empty = shrubs = saplings = 0
    tree_species: set[str] = set()
    for h in forest.trees:
        hs = h.species
        slots = h.slots
        is_tree = h.kind != SHRUB
        if is_tree:
            trees += 1
            if hs is None:
                saplings += 1
            else:
                tree_species.add(hs.name)
        else:
            shrubs += 1
        top, bot, left, right = slots["top"], slots["bottom"], slots["left"], slots["right"]
        bottom += len(bot)
        if top and bot and left and right:
            if is_tree:
                full += 1
        elif not (top or bot or left or right):
            empty += 1
    dweller_tags = t.dweller_tags
    tags: dict[str, int] = {}
    for n, k in counts.items():
        for tag in dweller_tags[n]:
            tags[tag] = tags.get(tag, 0) + k
    all_tags = tags
    if t.host_tags:
        all_tags = dict(tags)
        host_extra = t.host_extra_tags
        for n, k in counts.items():
            for tag in host_extra[n]:
                all_tags[tag] = all_tags.get(tag, 0) + k
    return _finish(s, t, forest, counts, all_tags, tags, trees, len(tree_species), free,
                   bottom, full, shrubs, saplings, empty, None)


def _finish(s: Situation, t: Tables, forest: Forest, counts: dict[str, int],
            all_tags: dict[str, int], tags: dict[str, int], trees: int, tree_species: int,
            free: dict[str, int], bottom: int, full: int, shrubs: int, saplings: int,
            empty: int, symbols: dict[str, int] | None) -> _Ctx:
    """The context from the forest's facts plus what the rest of the table gives."""
    shares: frozenset[tuple[str, str]] = frozenset()
    if t.host_sharers:
        shares = frozenset(v for n, v in t.host_sharers.items() if n in counts)
    cave_points = 1.0
    if t.cave_scorers:
        cave_points += sum(pp * counts.get(n, 0) for n, pp in t.cave_scorers.items())
    if t.shrubs:  # the most trees: shrubs are no trees
        most = all(sum(1 for h in f.trees if h.kind != SHRUB) <= trees for f in s.forests)
    else:
        ntrees = len(forest.trees)
        most = all(len(f.trees) <= ntrees for f in s.forests)
    start = t.deck_start.get(len(s.forests)) or float(len(s.game.deck_ids))
    late = 1.0 - min(1.0, s.deck_size / start)
    return _Ctx(t, counts, all_tags, tags, trees, tree_species, free, sum(free.values()),
                bottom, full, most, len(s.hand), late, s.clearing, shrubs, saplings,
                empty, shares, forest.cave, cave_points, forest, symbols)


def _ctx_rescan(s: Situation) -> _Ctx:
    """:func:`_ctx` by a full rescan of the forest (hosts and every dweller): the
    reference the fast context is tested against."""
    t = tables_of(s.game)
    forest = s.forests[s.player]
    counts: dict[str, int] = {}
    tags: dict[str, int] = {}
    symbols: dict[str, int] = {}
    host_tags: dict[str, int] | None = {} if t.host_tags else None
    free = dict.fromkeys(SIDES, 0)
    bottom = full = trees = empty = shrubs = saplings = 0
    tree_species: set[str] = set()
    for h in forest.trees:
        hs = h.species
        is_tree = h.kind != SHRUB
        if is_tree:
            trees += 1
            if hs is None:
                saplings += 1
        else:
            shrubs += 1
        if hs is not None:
            n = hs.name
            counts[n] = counts.get(n, 0) + 1
            if is_tree:
                tree_species.add(n)
            if host_tags is not None:
                for tag in hs.tags:
                    if tag != "tree":
                        host_tags[tag] = host_tags.get(tag, 0) + 1
        sym = h.symbol
        if sym:
            symbols[sym] = symbols.get(sym, 0) + 1
        occupied = 0
        for side in SIDES:
            stack = h.slots[side]
            if not stack:
                free[side] += 1
                continue
            occupied += 1
            for d in stack:
                sp = d.species
                n = sp.name
                counts[n] = counts.get(n, 0) + 1
                for tag in sp.tags:
                    tags[tag] = tags.get(tag, 0) + 1
                if d.symbol:
                    symbols[d.symbol] = symbols.get(d.symbol, 0) + 1
            if side == "bottom":
                bottom += len(stack)
        if occupied == 4:
            if is_tree:
                full += 1
        elif occupied == 0:
            empty += 1
    all_tags = tags
    if host_tags:
        all_tags = dict(tags)
        for tag, k in host_tags.items():
            all_tags[tag] = all_tags.get(tag, 0) + k
    return _finish(s, t, forest, counts, all_tags, tags, trees, len(tree_species), free,
                   bottom, full, shrubs, saplings, empty, symbols)


# ---------------------------------------------------------------------- estimates


def permanent_value(r: Rule, c: _Ctx) -> float:
    """What a species' permanent effect is worth placed now (a draw on later plays, a
    host slot that others may share)."""
    return r.permanent * (1.0 - c.late) if r.permanent else 0.0


def _slots_value(c: _Ctx) -> float:
    """Four new empty slots (a host), by how many the forest already has."""
    return (2.0 + 0.7 * max(0, 8 - c.nfree)) * (1.0 - 0.6 * c.late)


def _host_potential(sp: Species, r: Rule, c: _Ctx) -> float:
    rule = r.rule
    a = r.a
    have = c.counts.get(sp.name, 0)
    if rule == "majority":
        base = (a + r.b) / 2.0
    elif rule == "all_tree_species":
        base = a if c.tree_species >= r.b - 1 and have == 0 else 1.0
    elif rule == "per_card_in_own_slots":
        base = 2.0 * a
    elif rule == "threshold_own_species":
        base = a if have >= r.b - 1 else a * (have + 2) / (r.b + 1)
    elif rule == "per_tag":
        base = a * (1.0 + 0.8 * c.n_tag(r.key))
    elif rule == "set_table":
        base = _at(r.table, have + 1) - _at(r.table, have)
    else:
        base = a
    if r.tree and have == 0:
        base += 0.8  # a new tree species (all_tree_species rules)
    if r.permanent:
        base += r.permanent * (1.0 - c.late)
    return base + _slots_value(c)


def _host_future(sp: Species, c: _Ctx) -> float:
    """What a host played now brings later beyond its immediate score and slots."""
    r = c.t.rules[sp]
    rule = r.rule
    v = permanent_value(r, c)
    if rule == "threshold_own_species":
        have = c.counts.get(sp.name, 0)
        if have < r.b - 1:
            v += 1.0 + have
    elif rule == "set_table":
        v += 1.0
    return v


def potential(sp: Species, c: _Ctx) -> float:
    """Rough points a species half (or host) brings when played into this forest, beyond
    its immediate score (future set progress, slots) plus its immediate score where the
    exact scorer is not used."""
    r = c.t.rules[sp]
    if r.host:
        return _host_potential(sp, r, c)
    rule = r.rule
    a = r.a
    if rule == "flat":
        return a
    have = c.counts.get(sp.name, 0)
    if rule == "none":
        if r.draws:
            return r.permanent * (1.0 - c.late)
        return 1.0
    if rule == "per_tag":
        n = c.n_tag(r.key)
        if r.includes_self:
            n += 1
        return a * n + a * 1.5 * (1.0 - c.late)
    if rule == "per_tags":
        return a * sum(c.n_tag(tag) for tag in r.keys) + 2.0
    if rule == "per_species":
        n = c.n_species(r.key) + (1 if r.counts_self else 0)
        return a * n + 1.0
    if rule == "requires_species":
        return a if c.n_species(r.key) >= r.b else 3.0
    if rule == "butterfly_sets":
        if have == 0:
            return 4.0
        counts = c.counts
        return 1.5 + 0.3 * sum(1 for k in c.t.butterflies if counts.get(k, 0))
    if rule == "bat_variety":
        need = r.b
        kinds = sum(1 for k in c.t.bats if c.counts.get(k, 0))
        if kinds >= need or (kinds == need - 1 and have == 0):
            return a + (a * (need - 1) if kinds == need - 1 else 0.0)
        return 3.0 if have == 0 else 1.0
    if rule == "set_table":
        now = _at(r.table, have)
        nxt = _at(r.table, have + 1)
        return max(nxt - now, 4.0 if have == 0 else 0.0)
    if rule == "per_fully_occupied_tree":
        return a * c.full + 2.0
    if rule == "paired_in_slot":
        return 0.6 * a
    if rule == "min_trees":
        return a if c.trees >= r.b - 3 else 2.0 * (1.0 - c.late)
    if rule == "all_tree_species":
        return a if c.tree_species >= r.b - 2 else 1.0
    if rule == "on_tree_species":
        return a if c.counts.get(r.key, 0) else 1.0
    if rule == "bat_opposite":
        return 0.4 * a if c.tags.get("bat", 0) else 0.2 * a
    if rule == "per_own_tree_symbol":
        return a * 2.5
    if rule == "per_bottom_card":
        return a * (c.bottom + 1) + 2.0 * (1.0 - c.late)
    if rule == "most_trees":
        return a if c.most_trees else 3.0
    early = 1.0 - c.late
    if rule == "per_distinct_species":
        n = c.distinct(r.key) + (1 if r.key in sp.tags and have == 0 else 0)
        return a * n + a * early
    if rule == "distinct_species_table":
        d = c.distinct(r.key)
        d2 = d + 1 if r.key in sp.tags and have == 0 else d
        return (have + 1) * _at(r.table, d2) - have * _at(r.table, d) + 1.5 * early
    if rule == "per_tree_symbols":
        symbols = c.symbol_counts()
        n = sum(symbols.get(sym, 0) for sym in r.keys)
        return a * n + a * 1.5 * early
    if rule == "per_cave_card":
        return a * (c.cave + 3.0 * early)
    if rule == "on_host_kind":
        return a if c.hosts_of_kind(r.key) else 1.0
    if rule == "alone_on_host":
        return a - 1.5 * early if c.empty_hosts else 1.0
    return a


def _fits(sp: Species, what: str) -> bool:
    """Does ``sp`` answer a free play of ``what`` (a tag, or a species it counts as)?"""
    return what in sp.tags or what in sp.counts_as


def _hand_fits(cards: tuple[Card | None, ...], hand: Sequence[int], what: str) -> int:
    """Hand cards with a half (or a host) that answers a free play of ``what``."""
    n = 0
    for cid in hand:
        card = cards[cid]
        if card is None:
            continue
        if card.species is not None:
            if _fits(card.species, what):
                n += 1
        elif any(_fits(h.species, what) for h in card.halves.values()):
            n += 1
    return n


def effect_value(eff: Effect | None, c: _Ctx, hand: Sequence[int], room: int) -> float:
    """Points an effect or bonus is worth now; ``room`` is the free hand space after it
    (the ``value`` its op's declaration gives, :mod:`forest_shuffle.cards.ops`; 0 for an op
    with none)."""
    if eff is None:
        return 0.0
    value = EFFECT_OPS[eff.op].value
    if value is None:
        return 0.0
    return value(eff, c, hand, max(room, 0))


def _half_value(side: str, sp: Species, c: _Ctx, pot: float) -> float:
    """The keep value of a double card's ``side`` half of species ``sp`` whose
    :func:`potential` is ``pot``: less without a free slot on that side to play it into
    (before bounding)."""
    shares = c.shares
    slot = (c.free[side] > 0 or c.t.rules[sp].stacks
            or bool(shares) and any((side, tag) in shares for tag in sp.tags))
    return pot * (1.0 if slot else 0.6) - 0.5 * sp.cost * CARD * 0.8


def _single_value(sp: Species, pot: float) -> float:
    """The keep value of a single card of species ``sp`` whose :func:`potential` is
    ``pot`` (before bounding)."""
    return pot - 0.8 * sp.cost * CARD * 0.5


def _bounded(v: float) -> float:
    """A keep value brought into [1, 6.5]."""
    return max(1.0, min(v, 12.0)) * 0.5 + 0.5


def hand_value(cid: int, c: _Ctx) -> float:
    """How much a card is worth keeping in hand (to play later or pay with)."""
    card = c.t.cards[cid]
    assert card is not None
    sp = card.species
    if sp is not None:
        return _bounded(_single_value(sp, potential(sp, c)))
    v = 0.0
    for side, half in card.halves.items():
        v = max(v, _half_value(side, half.species, c, potential(half.species, c)))
    return _bounded(v)


def keep_values(cids: Iterable[int], c: _Ctx) -> list[float]:
    """:func:`hand_value` of each card, the same numbers, each species' :func:`potential`
    found once: for many cards at once (the cards a seat has not seen)."""
    cards = c.t.cards
    pots: dict[str, float] = {}
    singles: dict[str, float] = {}  # the value of a single card, by its species
    out = []
    for cid in cids:
        card = cards[cid]
        assert card is not None
        sp = card.species
        if sp is not None:
            v = singles.get(sp.name)
            if v is None:
                v = singles[sp.name] = _bounded(_single_value(sp, potential(sp, c)))
            out.append(v)
            continue
        v = 0.0
        for side, half in card.halves.items():
            hs = half.species
            pot = pots.get(hs.name)
            if pot is None:
                pot = pots[hs.name] = potential(hs, c)
            v = max(v, _half_value(side, hs, c, pot))
        out.append(_bounded(v))
    return out


# ---------------------------------------------------------------------- the policy


class _Eval:
    """Scores a situation's actions; ``exact`` uses the scorer for the immediate change."""

    def __init__(self, s: Situation, exact: bool) -> None:
        self.s = s
        self.exact = exact
        self.t = tables_of(s.game)
        # The context and the keep values are made on first use (a forced or trivial
        # decision needs neither); a what-if restores the forest, so they come out the same.
        self._c: _Ctx | None = None
        self._hv: dict[int, float] | None = None
        self.base: list[int] | None = None
        self.totals = s.game.totals_fn()
        self._pv: dict[tuple[str, int, str], float] = {}

    @property
    def c(self) -> _Ctx:
        c = self._c
        if c is None:
            c = self._c = _ctx(self.s)
        return c

    @property
    def hv(self) -> dict[int, float]:
        hv = self._hv
        if hv is None:
            c = self.c
            hv = self._hv = {cid: hand_value(cid, c) for cid in self.s.hand}
        return hv

    def card(self, cid: int) -> Card:
        c = self.t.cards[cid]
        assert c is not None
        return c

    # -- immediate score change

    def _delta(self, place: Host | tuple[int, str, Dweller]) -> float:
        s = self.s
        forests = s.forests
        totals = self.totals
        if self.base is None:
            self.base = totals(forests)
        forest = forests[s.player]
        # What if: placed and taken back through the forest's own methods, so its indexes
        # stay true for the scorer and after.
        if isinstance(place, Host):
            forest.add_host(place)
            try:
                new = totals(forests)
            finally:
                forest.remove_last_host()
        else:
            tree, side, d = place
            forest.add_dweller(tree, side, d)
            try:
                new = totals(forests)
            finally:
                forest.remove_top_dweller(tree, side)
        base = self.base
        p = s.player
        mine = new[p] - base[p]
        others = [i for i in range(len(base)) if i != p]
        if not others:
            return float(mine)
        rival_new = max(new[i] for i in others)
        rival_old = max(base[i] for i in others)
        return float(mine - (rival_new - rival_old))

    def _host(self, cid: int, sapling: bool = False) -> Host:
        return host_of_card(self.s.game.catalog, cid, sapling)

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
        if bonus > 0 and symbol:
            match = [x for x in cands if symbol in self.card(x).symbols]
            if len(match) >= cost:
                m = match[:cost]
                mv = sum(hv.get(x, 1.0) for x in m) - bonus
                if mv < best[0]:
                    best = (mv, m)
        return best

    # -- one play

    def _sapling_value(self, cid: int) -> float:
        d = self._delta(self._host(cid, True)) if self.exact else 0.0
        return d + _slots_value(self.c)

    def _blocked(self, sp: Species, tree: int) -> float:
        """Slots a dweller that scores only alone at its host takes from later plays."""
        if sp.points.rule != "alone_on_host":
            return 0.0
        host = self.s.forests[self.s.player].trees[tree]
        if any(host.slots[side] for side in SIDES):
            return 0.0
        return 1.5 * (1.0 - self.c.late)

    def play_value(self, a: Action, pool: Sequence[int] | None = None) -> float:
        if self.exact or pool is not None:
            return self._play_value(a, pool)
        # The fast variant does not look at the host or slot: one value per card and side.
        key = (a.kind, a.card, a.side)
        memo = self._pv
        v = memo.get(key)
        if v is None:
            v = memo[key] = self._play_value(a, None)
        return v

    def _play_value(self, a: Action, pool: Sequence[int] | None) -> float:
        s, c = self.s, self.c
        card = self.card(a.card)
        if a.kind == SAPLING:
            return self._sapling_value(a.card) - self.hv.get(a.card, 1.0) * 0.6
        if a.side:
            half = card.halves[a.side]
            sp = half.species
            symbol = half.symbol
            if self.exact:
                imm = self._delta((a.tree, a.side, Dweller(sp, symbol, a.card)))
                fut = max(0.0, potential(sp, c) - imm) * 0.4 if imm < 1 else 0.0
                val = imm + fut - self._blocked(sp, a.tree)
            else:
                val = potential(sp, c)
        else:
            host_sp = card.species
            assert host_sp is not None
            sp = host_sp
            symbol = card.symbol
            if self.exact:
                imm = self._delta(self._host(a.card))
                val = imm + _slots_value(c) + _host_future(sp, c)
            else:
                val = potential(sp, c)
        cost = sp.cost
        room = self.t.hand_limit - (c.hand - 1 - cost)
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
        if kind == "take":
            return self._best_take()
        if kind == "clearing cave":
            return self._clearing_cave()
        if kind == "saplings":
            return self._free_saplings()
        if kind == "cave draft":
            return self._cave_choice()
        if kind in ("universal moor", "discard"):
            return min(legal, key=lambda a: self.hv.get(a.card, 1.0))
        if kind == "draw or take":
            return self._draw_second()
        return legal[0]

    def _cave_choice(self) -> Action:
        """The cave whose start effect or end points are worth most, from the cave data:
        a card drawn is worth :data:`CARD`, a card under the cave or a point 1 (a named
        cave, Exploration's: its points per card, as if a card went under it)."""
        catalog = self.s.game.catalog
        caves = catalog.caves or catalog.named_caves
        best, best_v = self.s.legal[0], -1e18
        for a in self.s.legal:
            cave = caves[a.card - 1]
            v = 0.0
            eff = cave.effect
            if eff is not None:
                n = int(eff.params.get("n", 1))
                if eff.op == "draw":
                    v = CARD * n
                elif eff.op == "draw_then_discard":
                    v = CARD * (n - int(eff.params["discard"])) + 1.0
                elif eff.op == "deck_to_cave":
                    v = float(n)
                else:
                    v = 2.0 * n
            if cave.points is not None:
                v += float(cave.points.params.get("points", 0))
                v += float(cave.points.params.get("points_per", 0))
            if v > best_v:
                best, best_v = a, v
        return best

    def _draw_value(self) -> float:
        c = self.c
        n = min(2, self.t.hand_limit - c.hand)
        crowd = 1.0 if c.hand <= 5 else max(0.2, 1.0 - 0.15 * (c.hand - 5))
        return CARD * n * crowd

    def _take_value(self, cid: int) -> float:
        v = self.hv.get(cid)
        return hand_value(cid, self.c) if v is None else v

    def turn_values(self) -> list[tuple[float, Action]]:
        """Every legal turn action with its estimated value."""
        s = self.s
        draw_v = self._draw_value()
        second = CARD
        near_full = self.t.hand_limit - 2
        out: list[tuple[float, Action]] = []
        for a in s.legal:
            if a.kind == DRAW:
                v = draw_v
            elif a.kind == TAKE:
                v = self._take_value(a.card) * 1.6 + (second if self.c.hand <= near_full
                                                      else 0.0)
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
        best: Action = self.s.game.a_draw
        best_v = CARD
        for a in self.s.legal:
            if a.kind == TAKE:
                v = self._take_value(a.card) * 1.6
                if v > best_v:
                    best_v, best = v, a
        return best if best in self.s.legal else self.s.legal[0]

    def _pay(self) -> Action:
        s = self.s
        card = self.card(s.card)
        if s.side:
            half = card.halves[s.side]
            sp, symbol = half.species, half.symbol
        else:
            assert card.species is not None
            sp, symbol = card.species, card.symbol
        pays = [a.card for a in s.legal if a.kind == PAY]
        matched = bool(symbol) and all(symbol in self.card(x).symbols for x in s.paid)
        bonus = 0.0
        if matched and sp.bonus is not None:
            room = self.t.hand_limit - (self.c.hand - s.need)
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
        card = self.card(a.card)
        if not a.side:  # a host answering the free play (a tree or shrub with the tag)
            sp = card.species
            assert sp is not None
            if self.exact:
                v = self._delta(self._host(a.card)) + _slots_value(self.c) + _host_future(
                    sp, self.c)
            else:
                v = potential(sp, self.c)
            return v + 1.0
        half = card.halves[a.side]
        if self.exact:
            v = self._delta((a.tree, a.side, Dweller(half.species, half.symbol, a.card)))
            v -= self._blocked(half.species, a.tree)
        else:
            v = potential(half.species, self.c)
        return v + 1.0  # a free card is a card not paid for

    def _raccoon(self) -> Action:
        keep_above = CARD + 1.0
        for a in self.s.legal:
            if a.kind == CAVE and self.hv.get(a.card, 1.0) < keep_above:
                return a
        return Action(DONE)

    def _best_take(self) -> Action:
        """Take the clearing card most worth keeping (an effect's take)."""
        best = self.s.legal[0]
        best_v = -1e18
        for a in self.s.legal:
            if a.kind == TAKE:
                v = self._take_value(a.card)
                if v > best_v:
                    best_v, best = v, a
        return best

    def _clearing_cave(self) -> Action:
        """Every cave card scores the same: put away the one a rival would want most
        (the one most worth keeping, by the own forest's measure)."""
        best = self.s.legal[0]
        best_v = -1e18
        for a in self.s.legal:
            if a.kind == CAVE:
                v = self._take_value(a.card)
                if v > best_v:
                    best_v, best = v, a
        return best

    def _free_saplings(self) -> Action:
        """Free saplings: play the card that gains most as a sapling over its keep value,
        while one gains anything."""
        best: Action | None = None
        best_v = 0.0
        for a in self.s.legal:
            if a.kind != SAPLING:
                continue
            v = self._sapling_value(a.card) - self.hv.get(a.card, 1.0)
            if v > best_v:
                best_v, best = v, a
        if best is None:
            return Action(DONE) if Action(DONE) in self.s.legal else self.s.legal[0]
        return best


#: The policy's estimates of one decision, for a player that adds its own (the solo
#: player, :mod:`forest_shuffle.bots.solo`, adds its goal): ``Evaluator(situation,
#: exact)``, ``.choose()``, ``.ranked(k)``; a subclass overrides ``play_value``,
#: ``_free_value``, ``_take_value``, ``hv`` or ``c``.
Evaluator = _Eval


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


def card_key(cid: int, cards: Sequence[Card | None]) -> tuple[object, ...]:
    """What tells a card apart in play: its species (tree) or its halves and symbols;
    copies of the same card have the same key."""
    card = cards[cid]
    assert card is not None
    if card.species is not None:
        return (card.species.name,)
    return tuple((side, h.species.name, h.symbol) for side, h in sorted(card.halves.items()))


#: The two families of turn actions: taking cards and playing one.
DRAWS = frozenset({DRAW, TAKE})
PLAYS = frozenset({PLAY, SAPLING})


def diverse_candidates(view: PlayerView, width: int, cover: bool = True) -> list[Action]:
    """At most ``width`` root candidates in greedy's order, one per distinct move: the same
    card (or an identical copy) played on the same side of another tree, or taken, counts
    once (its best placement by greedy's ranking), so the candidates are really different
    moves, not the same card on ``width`` trees. With ``cover`` (and ``width`` >= 2), when
    both drawing and playing are legal and the candidates hold only one of the two, the
    last candidate gives way to the best-ranked move of the other family, so the race
    always weighs a draw against a play."""
    ranked = ranked_view_actions(view, len(view.legal_actions))
    return distinct_moves(ranked, view.game.cards, width, cover)


def distinct_moves(ranked: Sequence[Action], cards: Sequence[Card | None], width: int,
                   cover: bool = True) -> list[Action]:
    """At most ``width`` of ``ranked`` (best first), one per distinct move, with a draw and
    a play covered (:func:`diverse_candidates`, whose rule this is, for any ranking)."""
    seen: set[tuple[object, ...]] = set()
    out: list[Action] = []
    for a in ranked:
        key: tuple[object, ...] = ((a.kind, a.side, card_key(a.card, cards)) if a.card
                                   else (a,))
        if key in seen:
            continue
        seen.add(key)
        out.append(a)
        if len(out) >= width:
            break
    if cover and len(out) >= 2:
        for family in (DRAWS, PLAYS):
            if any(a.kind in family for a in out):
                continue
            best = next((a for a in ranked if a.kind in family), None)
            if best is not None:
                out[-1] = best
    return out


#: How many of greedy's distinct moves an exploring greedy (``explore``) picks among.
EXPLORE_WIDTH = 6


class GreedyBot(Bot):
    """One-step heuristic player (well under 10 ms a decision). With ``explore`` > 0, at
    that share of the turn decisions it plays one of greedy's :data:`EXPLORE_WIDTH` best
    distinct moves (:func:`diverse_candidates`) drawn from its own generator instead (for
    self-play data that shows what such deviations lead to; off by default)."""

    name = "greedy"

    def __init__(self, seed: int = 0, exact: int = 1, explore: float = 0.0) -> None:
        super().__init__(seed)
        self.exact = bool(exact)
        self.explore = float(explore)

    def choose(self, view: PlayerView, budget: Budget | None = None) -> Action:
        legal = view.legal_actions
        if not legal:
            raise ValueError(f"player {view.player + 1} has no decision to make")
        if len(legal) == 1:
            return legal[0]
        if (self.explore > 0.0 and view.pending is not None and view.pending.kind == "turn"
                and self.rng.random() < self.explore):
            # A deviation of the kind the search weighs: any of greedy's distinct moves.
            cands = diverse_candidates(view, EXPLORE_WIDTH)
            return cands[self.rng.randrange(len(cands))]
        a = greedy_view_action(view, self.exact)
        return a if a in legal else legal[0]


def hand_values(state: GameState, p: int) -> list[float]:
    """Greedy's keep value (:func:`hand_value`) of each card in player ``p``'s hand, read
    from a full state (for the search's cut-off evaluation)."""
    hand = state.hands[p]
    s = Situation(state.game, p, hand, state.forests, state.clearing, len(state.deck), "",
                  0, "", 0, (), "", ())
    c = _ctx(s)
    return [hand_value(cid, c) for cid in hand]
