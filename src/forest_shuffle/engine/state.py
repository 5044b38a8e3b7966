"""The rules engine: one game of Forest Shuffle as a state with a single contract.

Contract (in the manner of OpenSpiel's game state):

- :meth:`GameState.new` deals a game from a seed; same seed and same actions, same game.
- :attr:`GameState.to_move` is the player whose decision it is (None once the game is over),
  :attr:`GameState.decision` names the kind of decision.
- :meth:`GameState.legal_actions` lists the legal :class:`~forest_shuffle.engine.actions.Action`s.
- :meth:`GameState.apply` applies one; an illegal action raises
  :class:`~forest_shuffle.engine.actions.IllegalActionError` naming the reason and changes nothing.
- :attr:`GameState.over`, :meth:`GameState.scores`, :meth:`GameState.clone`,
  :meth:`GameState.view` (what one player may see), :meth:`GameState.to_dict` /
  :meth:`GameState.from_dict` (full save and load, round-trips exactly).

Multi-step choices are a stack of pending decisions: payment card by card, each optional
effect, bonus or mushroom draw as yes/no, free plays, the Mole and the Raccoon. The engine
does no I/O and holds no global random state: the seed is only used to shuffle at setup
(:mod:`forest_shuffle.engine.setup`: a keyed shuffle for new games, Python's for old saves).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from operator import indexOf
from typing import Any, ClassVar, Final

from forest_shuffle.cards.forest import (
    HOST_HAS_MOST,
    NO_SIDE_SLOTS,
    NOT_ONTO_TAG,
    NOT_THIS_HOST,
    NOT_THIS_SIDE,
    SHRUB,
    SLOTS_FULL,
    Dweller,
    Forest,
    Host,
    empty_slots,
)
from forest_shuffle.cards.forest import SAPLING as K_SAPLING
from forest_shuffle.cards.model import SIDES, Card, Effect, Species
from forest_shuffle.engine.actions import (
    CAVE,
    DONE,
    DRAW,
    PAY,
    PLAY,
    SAPLING,
    TAKE,
    YES,
    Action,
    IllegalActionError,
    shape_problem,
)
from forest_shuffle.engine.game import GameDef, game_by_id
from forest_shuffle.engine.options import Rules
from forest_shuffle.engine.refusals import N_, Noun, Refusal
from forest_shuffle.engine.setup import KEYED, LEGACY, check_seed, shuffler

FORMAT: Final = "forest-shuffle state 1"

# Decision kinds (the ``kind`` of a pending decision).
D_MULLIGAN: Final = "mulligan"  # keep or mulligan the opening hand
D_TURN: Final = "turn"  # start of a turn: draw, take, play or sapling
D_DRAW: Final = "draw"  # the second card of a draw action
D_PAY: Final = "pay"  # choose the next payment card
D_OPTION: Final = "option"  # use an optional effect, bonus or mushroom draw (yes/no)
D_FREE: Final = "free"  # free play of a card with a tag (or done)
D_RACCOON: Final = "raccoon"  # put hand cards under the cave (or done)
D_MOLE: Final = "mole"  # play another card through the Mole (or done)
D_TAKE: Final = "take"  # take a card from the clearing into the hand (an effect)
D_CLEARING_CAVE: Final = "clearing cave"  # choose clearing cards to put in the cave (an effect)
D_SAPLINGS: Final = "saplings"  # play hand cards as saplings for free (or done)

# Where a play comes from: decides payment, effects and bonus.
VIA_TURN: Final = "turn"
VIA_MOLE: Final = "mole"
VIA_FREE: Final = "free"

# Step kinds in the resolution queue.
S_EFFECT: Final = "effect"
S_BONUS: Final = "bonus"
S_MUSHROOM: Final = "mushroom"

#: Action texts parsed once (actions are immutable values): loading a saved game parses
#: hundreds of history entries drawn from a few thousand distinct texts.
_parse_action = functools.lru_cache(maxsize=8192)(Action.parse)




@dataclass(slots=True, init=False)
class Pending:
    """One pending decision. Fields beyond ``kind`` and ``player`` depend on the kind.

    - pay: ``card``/``side``/``tree``/``via`` name the play being paid for, ``need`` the
      cards still to pay, ``paid`` those paid so far, ``pool`` the cards that may pay
      (None: the whole hand).
    - option: ``step`` is the effect, bonus or mushroom draw offered.
    - free: ``tag`` (a tag or species the card must answer; "": any card) and ``need``
      (free plays left; -1 for any number).
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

    def __init__(self, kind: str, player: int, card: int = 0, side: str = "", tree: int = -1,
                 via: str = "", need: int = 0, paid: list[int] | None = None,
                 pool: frozenset[int] | None = None,
                 step: tuple[str, int, str, str] | None = None, tag: str = "",
                 steps: list[tuple[str, int, str, str]] | None = None) -> None:
        # Written out (not the dataclass's): a new decision is made every turn.
        self.kind = kind
        self.player = player
        self.card = card
        self.side = side
        self.tree = tree
        self.via = via
        self.need = need
        self.paid = [] if paid is None else paid
        self.pool = pool
        self.step = step
        self.tag = tag
        self.steps = [] if steps is None else steps

    def renew(self, kind: str, player: int,
              step: tuple[str, int, str, str] | None = None) -> Pending:
        """This record made into ``Pending(kind, player, step=step)``, every other field at
        its default; a list that is not empty is replaced (one read off the old record
        keeps its cards). For a finished record that nothing else holds."""
        self.kind = kind
        self.player = player
        self.card = 0
        self.side = ""
        self.tree = -1
        self.via = ""
        self.need = 0
        if self.paid:
            self.paid = []
        self.pool = None
        self.step = step
        self.tag = ""
        if self.steps:
            self.steps = []
        return self

    def copy(self) -> Pending:
        return Pending(self.kind, self.player, self.card, self.side, self.tree, self.via,
                       self.need, self.paid[:], self.pool, self.step, self.tag, self.steps[:])

    def __reduce__(self) -> tuple[type[Pending], tuple[Any, ...]]:
        """Pickle through ``__init__`` (compiled, a class with a written ``__init__`` cannot
        be made empty and filled in)."""
        return Pending, (self.kind, self.player, self.card, self.side, self.tree, self.via,
                         self.need, self.paid, self.pool, self.step, self.tag, self.steps)

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


#: When each action kind is asked for (the rule a refusal of a kind names).
_KIND_RULES: Final[dict[str, str]] = {
    "keep": N_("mulligans are only at the start"),
    "mulligan": N_("mulligans are only at the start"),
    DRAW: N_("draw: only as a turn's action or effect"),
    TAKE: N_("take: only as a turn's action or effect"),
    PLAY: N_("play: on a turn, a free play or the Mole"),
    SAPLING: N_("sapling: only on a turn or by an effect"),
    PAY: N_("pay: only for a card being paid for"),
    YES: N_("yes/no answer only an offered effect"),
    "no": N_("yes/no answer only an offered effect"),
    CAVE: N_("cave: only when an effect asks for it"),
    DONE: N_("done ends only an effect's choices"),
    "choose": N_("choose is Dartmoor's cave draft"),
    "moor": N_("moor is Dartmoor's (universal moors)"),
    "discard": N_("discard is Dartmoor's"),
}


def _species_of(card: Card, side: str) -> Species:
    if side:
        return card.halves[side].species
    assert card.species is not None
    return card.species


def _fits(sp: Species, what: str) -> bool:
    """Does ``sp`` answer a free play of ``what`` (a tag, or a species it counts as)?"""
    return what in sp.tags or what in sp.counts_as


def bottom_pile_size(game: GameDef, num_players: int) -> int:
    """The non-winter cards of the bottom pile at setup (a third of the deck left after
    boxing): all winter cards but the last lie among them, the last on top of them."""
    return (len(game.deck_ids) - game.removed_at_setup[num_players]) // 3


def deal_deck(game: GameDef, num_players: int, rng: Any) -> tuple[list[int], list[int]]:
    """The setup plan of a game: shuffle every non-winter card with ``rng`` (a shuffler
    of :mod:`forest_shuffle.engine.setup`), box the number the game removes for that many players,
    and build the deck (top = last) from three piles: the two upper ones, and the bottom
    one shuffled with all but one winter card, the last winter card on top of it. Returns
    ``(box, deck)``. The search bot's sampling of unseen cards builds on this too."""
    winter = list(game.winter_ids)
    others = list(game.deck_ids)
    rng.shuffle(others)
    removed = game.removed_at_setup[num_players]
    box = others[:removed]
    rest = others[removed:]
    third = bottom_pile_size(game, num_players)
    top_piles = rest[: len(rest) - third]
    bottom = rest[len(rest) - third:] + winter[:-1]
    rng.shuffle(bottom)
    bottom.append(winter[-1])  # the last winter card lies on top of that pile
    # deck[-1] is the top: the winter pile lies at the bottom, the other two on it.
    return box, bottom + top_piles


class GameState:
    """The full state of one game. See the module docstring for the contract."""

    __slots__ = (
        "game", "num_players", "seed", "deal", "rules", "first_player", "deck", "box", "clearing",
        "winter", "hands", "forests", "caves", "known", "box_seen", "caves_seen", "current", "turn",
        "extra_turns", "over", "stack", "queue", "active", "history", "_legal",
    )

    game: GameDef  # what is fixed about the game: catalog, limits, setup, tables
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
    #: Cards every player saw go from the clearing into the box, and under each seat's cave
    #: (public: no cave gives a card back; the box only by an effect that returns cards seen
    #: there to the deck, Exploration's Red Panda). Tuples, replaced when they change.
    box_seen: tuple[int, ...]
    caves_seen: tuple[tuple[int, ...], ...]
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
    def new(num_players: int, seed: object, rules: Rules | None = None,
            first_player: int = 0, deal: str = KEYED,
            game: GameDef | str = "base") -> GameState:
        """Set up a game of ``game`` (a definition or its id; the base game by default):
        box the unseen cards, build the deck with winter in the last third, deal the
        opening hands and offer mulligans. ``deal`` names how the seed shuffles
        (:mod:`forest_shuffle.engine.setup`; new games use the keyed scheme). ValueError on a bad
        player count, seed, scheme or game id."""
        g = game_by_id(game) if isinstance(game, str) else game
        if num_players not in g.players:
            raise ValueError(f"{g.title} is for {g.players[0]} to {g.players[-1]} players, "
                             f"not {num_players}")
        if not 0 <= first_player < num_players:
            raise ValueError(f"first player must be a seat from 0 to {num_players - 1}")
        checked_seed = check_seed(seed, deal)  # seed: object, so a bool is refused (mypyc)
        rng = shuffler(checked_seed, deal)
        cls: type[GameState] = g.state_class or GameState
        box, deck = deal_deck(g, num_players, rng)
        s = cls.build(
            g, num_players, checked_seed, deal, rules or Rules(), first_player, deck, box, [], [],
            [[] for _ in range(num_players)], [Forest() for _ in range(num_players)],
            [[] for _ in range(num_players)], [set() for _ in range(num_players)], (),
            ((),) * num_players, first_player, 0, 0, False, [], [],
            [dict.fromkeys(g.mushrooms, 0) for _ in range(num_players)], [], None)
        for i in range(num_players):
            p = (first_player + i) % num_players
            for _ in range(g.opening_hand):
                s._draw_into_hand(p)
        s._after_deal(rng)
        return s

    @classmethod
    def build(cls, game: GameDef, num_players: int, seed: int, deal: str, rules: Rules,
              first_player: int, deck: list[int], box: list[int], clearing: list[int],
              winter: list[int], hands: list[list[int]], forests: list[Forest],
              caves: list[list[int]], known: list[set[int]], box_seen: tuple[int, ...],
              caves_seen: tuple[tuple[int, ...], ...], current: int, turn: int,
              extra_turns: int, over: bool, stack: list[Pending],
              queue: list[tuple[str, int, str, str]], active: list[dict[str, int]],
              history: list[Action], more: dict[str, Any] | None) -> GameState:
        """The one constructor of a state's fields (:meth:`new`, :meth:`clone`,
        :meth:`from_dict` and the search bot's sampling call it): a state of this class
        holding the values given, taken as they are (not copied); then
        :meth:`_init_more` sets what a game's state class adds, from ``more`` (None: the
        values a new game starts with). Checks nothing: a caller that reads outside input
        checks it (:meth:`from_dict`)."""
        s = cls.__new__(cls)
        s.game = game
        s.num_players = num_players
        s.seed = seed
        s.deal = deal
        s.rules = rules
        s.first_player = first_player
        s.deck = deck
        s.box = box
        s.clearing = clearing
        s.winter = winter
        s.hands = hands
        s.forests = forests
        s.caves = caves
        s.known = known
        s.box_seen = box_seen
        s.caves_seen = caves_seen
        s.current = current
        s.turn = turn
        s.extra_turns = extra_turns
        s.over = over
        s.stack = stack
        s.queue = queue
        s.active = active
        s.history = history
        s._legal = None
        s._init_more(more)
        return s

    def _init_more(self, more: dict[str, Any] | None) -> None:
        """Set the fields a game's state class adds (the one place it sets them all):
        from ``more`` (its field -> value, taken as given: :meth:`_more_copy`, a save, a
        view), or the values a new game starts with when None. Base game: none."""

    def _more_copy(self) -> dict[str, Any] | None:
        """The fields a game's state class adds, copied for :meth:`clone` (the values
        :meth:`_init_more` takes); base game: None."""
        return None

    def _after_deal(self, rng: Any) -> None:
        """What follows the opening hands (a game's state class may differ): mulligans."""
        self._offer_mulligans(0)

    def _offer_mulligans(self, start: int) -> None:
        """Push the next mulligan decision (seat order from the first player) or begin."""
        for i in range(start, self.num_players):
            p = (self.first_player + i) % self.num_players
            if not any(self.game.cards[c].is_tree for c in self.hands[p]):
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
        winter_cards = self.game.winter_cards
        while deck:
            cid = deck.pop()
            if cid not in winter_cards:
                return cid
            self.winter.append(cid)
            if len(self.winter) >= self.game.winter_to_end:
                if self._winter_held():
                    continue
                self._end_game()
                return None
        return None

    def _winter_held(self) -> bool:
        """Whether the winter card that would end the game is held instead (laid on the
        winter pile, the draw goes on): never in the base game; a game whose cards can put
        it back says so (Exploration's O Christmas Tree)."""
        return False

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
        limit = self.game.hand_limit
        for _ in range(n):
            if len(hand) >= limit or self.over:
                return
            self._draw_into_hand(p)

    def _remove_from_hand(self, p: int, cid: int, hidden: bool = False) -> None:
        """Take ``cid`` out of p's hand. ``hidden``: it goes face down (a sapling, a cave,
        a universal moor), so the others cannot tell which card left: the cards they saw p
        take are no longer known to be in the hand (keeping the rest would tell them)."""
        self.hands[p].remove(cid)
        if hidden:
            self.known[p].clear()
        else:
            self.known[p].discard(cid)

    def _end_game(self) -> None:
        self.over = True
        self.stack.clear()
        self.queue.clear()
        self._legal = None

    # ------------------------------------------------------------ turn flow

    def _begin_turn(self, p: int, record: Pending | None = None) -> None:
        """Begin p's turn. ``record``: a finished decision's record (off the stack, held by
        nothing else), made into the turn's instead of a new one."""
        self.current = p
        self.turn += 1
        counts = self.active[p]
        if counts:
            # The forest counts its cards by species (Forest.species_counts): a card of a
            # species with a draw_on_play permanent can only sit where that permanent
            # counts (a host, or a side in the species' positions: make_def). Skipped when
            # these counts were copied from this forest into this dict and no change since
            # could have changed them (Forest.pversion).
            forest = self.forests[p]
            if forest.synced != forest.pversion or forest.synced_to is not counts:
                have = forest.species_counts
                fire = False
                for name in counts:
                    k = counts[name] = have.get(name, 0)
                    if k:
                        fire = True
                forest.synced = forest.pversion
                forest.synced_to = counts
                forest.synced_any = fire
        pend = Pending(D_TURN, p) if record is None else record.renew(D_TURN, p)
        if self.stack:  # pragma: no cover - a turn begins on an empty stack
            self.stack.append(pend)
            return
        # A new list made for one item: CPython pops such a list to empty and pushes one
        # item again without reallocating (one grown by append reallocates at both, and
        # nearly every action pops the turn's one decision and pushes the next).
        self.stack = [pend]

    def _step_effect(self, step: tuple[str, int, str, str]) -> Effect:
        kind, _cid, _side, name = step
        sp = self.game.catalog.species[name]
        eff = sp.permanent if kind == S_MUSHROOM else sp.effect if kind == S_EFFECT else sp.bonus
        assert eff is not None
        return eff

    def _clear_full_clearing(self) -> None:
        """A full clearing at the end of a turn goes out of the game (Dartmoor's to its
        discard pile)."""
        self._clearing_to_box()

    def _clearing_to_box(self) -> None:
        """The whole clearing into the box, seen by all (:attr:`box_seen`)."""
        self.box.extend(self.clearing)
        self.box_seen += tuple(self.clearing)
        self.clearing.clear()

    def _clearing_to_cave(self, p: int, cards: list[int]) -> None:
        """``cards``, just taken out of the clearing, under ``p``'s cave, seen by all
        (:attr:`caves_seen`)."""
        self._to_cave(p, cards)
        seen = list(self.caves_seen)
        seen[p] += tuple(cards)
        self.caves_seen = tuple(seen)

    def _end_turn(self, record: Pending | None = None) -> None:
        """End the turn and begin the next (``record``: as :meth:`_begin_turn`'s)."""
        if len(self.clearing) >= self.game.clearing_limit:
            self._clear_full_clearing()
        if self.extra_turns > 0:
            self.extra_turns -= 1
            self._begin_turn(self.current, record)
            return
        self._between_turns()
        if not self.over:
            self._begin_turn((self.current + 1) % self.num_players, record)

    def _between_turns(self) -> None:
        """What happens after a turn and its extra turns, before the next player's turn
        (the full clearing already cleared); it may end the game. Nothing here; a game's
        state class may add a step (the solo game: Anna's turn)."""

    def _advance(self, record: Pending | None = None) -> None:
        """Resolve queued steps until a decision is needed or the turn ends. ``record``: a
        finished decision's record (off the stack, held by nothing else), made into the
        next decision's (an option or the next turn) instead of a new one."""
        while not self.over and not self.stack:
            if not self.queue:
                self._end_turn(record)
                return
            step = self.queue.pop(0)
            if self._step_possible(step):
                if record is None:
                    self.stack.append(Pending(D_OPTION, self.current, 0, "", -1, "", 0, None,
                                              None, step))
                    return
                self.stack.append(record.renew(D_OPTION, self.current, step))
                return

    def _step_possible(self, step: tuple[str, int, str, str]) -> bool:
        """False for a step that could change nothing (it is then skipped unasked): its
        op's ``possible`` from the definition's table (``GameDef.ops``)."""
        eff = self._step_effect(step)
        return self.game.ops[eff.op].possible(self, eff)

    def _legal_after_take(self, pend: Pending) -> bool:
        """Is there still a clearing card the take decision may choose?"""
        if not pend.tag:
            return bool(self.clearing)
        cards = self.game.cards
        return any(pend.tag in cards[c].tags for c in self.clearing)

    def _skip_unplayable_free(self, p: int) -> None:
        """Drop the free plays waiting on the stack (the later ones of a free_play_each)
        that no hand card can answer now: like a free play effect, they are skipped
        unasked."""
        stack = self.stack
        while (stack and stack[-1].kind == D_FREE
               and not self._placements(p, stack[-1].tag or None, None)):
            stack.pop()

    def _count_tag(self, p: int, tag: str) -> int:
        """Cards in p's forest whose visible species has ``tag`` (hosts included)."""
        n = 0
        for t in self.forests[p].trees:
            if t.species is not None and tag in t.species.tags:
                n += 1
            for side in SIDES:
                n += sum(1 for d in t.slots[side] if tag in d.species.tags)
        return n

    def _to_cave(self, p: int, cards: list[int]) -> None:
        self.caves[p].extend(cards)
        self.forests[p].cave = len(self.caves[p])

    def _apply_step(self, step: tuple[str, int, str, str]) -> None:
        """Apply a queued step for the current player: its op's ``apply`` from the
        definition's table (``GameDef.ops``; the ops are declared in ``engine/effects.py``
        and by game modules)."""
        eff = self._step_effect(step)
        self.game.ops[eff.op].apply(self, eff)

    # ------------------------------------------------------------ placing cards

    def _placements(self, p: int, tag: str | None, pool: frozenset[int] | None,
                    max_cost: int = 99) -> list[Action]:
        """Play actions for hand cards (in ``pool`` if given) whose played half or host
        answers ``tag`` (a tag or a species it counts as; any if None) and costs at most
        ``max_cost``."""
        out: list[Action] = []
        self._add_placements(out, p, tag, pool, max_cost)
        return out

    def _add_placements(self, out: list[Action], p: int, tag: str | None,
                        pool: frozenset[int] | None, max_cost: int) -> None:
        """Append :meth:`_placements` ``(p, tag, pool, max_cost)`` to ``out`` (a turn's
        legal actions are built in one list). A state class with its own
        :meth:`_placements` overrides this too."""
        g = self.game
        cards: tuple[Card, ...] = g.cards  # typed: compiled code reads fields natively
        plays = g.half_plays
        a_tree = g.a_tree
        forest = self.forests[p]
        trees = forest.trees
        n_trees = len(trees)
        free = forest.free_slots
        joins = self.rules.counts_as_joins_stack
        for cid in self.hands[p]:
            if pool is not None and cid not in pool:
                continue
            sp = cards[cid].species
            if sp is not None:
                if sp.cost <= max_cost and (tag is None or tag in sp.tags or tag in sp.counts_as):
                    out.append(a_tree[cid])
                continue
            if not n_trees:
                continue
            for side, hs, acts, cost, stacks in plays[cid]:
                if cost > max_cost or (tag is not None and tag not in hs.tags
                                       and tag not in hs.counts_as):
                    continue
                if len(acts) < n_trees:  # more trees than interned with the definition
                    acts = g.half_actions(cid, side, n_trees)
                # Plain loops with append: cheaper than a comprehension or a map for the
                # few actions of one half.
                if stacks:
                    for i, t in enumerate(trees):
                        if t.accepts(hs, side, joins):
                            out.append(acts[i])
                else:  # the hosts whose slot on that side is empty, in order
                    for i in free[side]:
                        out.append(acts[i])

    def _place(self, p: int, cid: int, side: str, tree: int, via: str, sapling: bool,
               bonus: bool) -> list[tuple[str, int, str, str]]:
        """Put a card into p's forest; return its permanent draws (mushrooms...), effect
        and bonus steps in order. A tree (or sapling, by the rules setting) turns a deck
        card into the clearing; a shrub does not. "Atop/below a tree" draws fire only at a
        host that is a tree (a tree or a sapling, not a shrub)."""
        g = self.game
        card: Card = g.cards[cid]
        forest = self.forests[p]
        rules = self.rules
        steps: list[tuple[str, int, str, str]] = []
        counts = self.active[p]
        fire = False  # any(counts.values())
        if via != VIA_FREE or rules.free_plays_trigger_mushrooms:
            if forest.synced_to is counts:  # copied by _begin_turn, which noted it
                fire = forest.synced_any
            else:  # as a loop (compiled, any() is looked up)
                for k in counts.values():
                    if k:
                        fire = True
                        break
        if sapling or not side:
            if sapling:
                forest.add_host(Host(None, cid, empty_slots(), K_SAPLING, ""))
                sp = None
            else:
                sp = card.species
                forest.add_host(Host(sp, cid, empty_slots(), card.kind, g.host_symbol[cid]))
            if sapling and rules.sapling_reveals_card or not sapling and card.kind != SHRUB:
                top = self._draw_from_deck()
                if top is None:
                    return []
                self.clearing.append(top)
            if fire:
                for trg in g.triggers:
                    k = counts[trg.name]
                    if not k:
                        continue
                    t = trg.trigger
                    if (t == "tree card played" and (sp is not None and sp.is_tree or sapling
                                                     and rules.sapling_triggers_chanterelle)
                            or sp is not None and (t == "tag played" and trg.tag in sp.tags
                                                   or t == "pawed animal played"
                                                   and "pawed animal" in sp.tags)):
                        steps.extend([(S_MUSHROOM, cid, "", trg.name)] * k)
            if sp is None:
                return steps
        else:
            dweller = g.dwellers[cid][side]
            sp = dweller.species
            forest.add_dweller(tree, side, dweller)
            if fire:
                tags = sp.tags
                for trg in g.triggers:
                    k = counts[trg.name]
                    if not k:
                        continue
                    t = trg.trigger
                    if (t == "pawed animal played" and "pawed animal" in tags
                            or t == "card placed atop a tree" and side == "top"
                            and forest.trees[tree].is_tree
                            or t == "card placed below a tree" and side == "bottom"
                            and forest.trees[tree].is_tree
                            or t == "tag played" and trg.tag in tags):
                        steps.extend([(S_MUSHROOM, cid, side, trg.name)] * k)
        if g.mushrooms_now and sp.name in g.mushrooms_now:
            self._permanent_now(p, sp.name)
        if via != VIA_FREE:
            if sp.effect is not None:
                steps.append((S_EFFECT, cid, side, sp.name))
            if bonus and sp.bonus is not None:
                steps.append((S_BONUS, cid, side, sp.name))
        return steps

    def _permanent_now(self, p: int, name: str) -> None:
        """A card of ``name``, whose permanent acts from its placement on
        (:attr:`GameDef.mushrooms_now`), was just placed in p's forest (after the draws it
        fires itself): one more copy active for the rest of the turn. The next turn counts
        the forest again."""
        counts = self.active[p]
        counts[name] += 1
        forest = self.forests[p]
        if forest.synced_to is counts:
            forest.synced_any = True

    def _mole_plays(self, p: int, pool: frozenset[int]) -> list[Action]:
        """Cards from ``pool`` that can be played and paid for from ``pool``."""
        hand_pool = [c for c in self.hands[p] if c in pool]
        out = self._placements(p, None, pool, max_cost=len(hand_pool) - 1)
        if self.rules.mole_plays_saplings:
            out.extend(self.game.a_sapling[c] for c in hand_pool)
        return out

    # ------------------------------------------------------------ legal actions

    def legal_actions(self) -> list[Action]:
        """Every legal action for the player to move (empty once the game is over)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal

    def _compute_legal(self) -> list[Action]:
        """The legal actions of the decision at hand: its kind's ``legal`` from the
        definition's table (``GameDef.kinds``; the kinds are declared in
        ``engine/decisions.py`` and by game modules)."""
        if self.over or not self.stack:
            return []
        pend = self.stack[-1]
        return self.game.kinds[pend.kind].legal(self, pend)

    # ------------------------------------------------------------ apply

    def apply(self, action: object) -> None:
        """Apply a legal action. An illegal one raises IllegalActionError and changes
        nothing. (``object``: a compiled build checks an ``Action`` argument's type.)"""
        legal = self.legal_actions()
        try:
            chosen = legal[indexOf(legal, action)]
        except ValueError:
            raise IllegalActionError(action, self._why_illegal(action)) from None
        self.apply_legal(chosen)

    def apply_legal(self, action: Action) -> None:
        """:meth:`apply` without the check, for an action taken from this state's
        :meth:`legal_actions` (a rollout's): the same result for such an action; any other
        is not detected and may leave the state broken."""
        self._legal = None
        self.history.append(action)
        pend = self.stack.pop()
        # The kind's apply (GameDef.kinds); True: the turn goes on with pend as the
        # finished record (nothing holds it but this call).
        if (self.game.kinds[pend.kind].apply(self, pend, action) and not self.over
                and not self.stack):
            self._advance(pend)

    def _after_mole_play(self, mole: Pending) -> None:
        """After a card played through the Mole: offer the next one, or finish."""
        if self.over:
            return
        if not self._mole_plays(mole.player, mole.pool or frozenset()):
            self.stack.pop()
            self.queue[0:0] = mole.steps

    def _do_draw(self, pend: Pending, action: Action) -> None:
        p = pend.player
        hand = self.hands[p]
        if action.kind == TAKE:
            cid: int | None = action.card
            self.clearing.remove(action.card)
            hand.append(action.card)
            self.known[p].add(action.card)
        else:
            cid = self._draw_from_deck()
            if cid is None:
                return
            hand.append(cid)
        if pend.kind == D_TURN and len(hand) < self.game.hand_limit:
            # The turn's record (off the stack, every other field at its default: a turn
            # is pushed as Pending(D_TURN, p) or renewed so) becomes the second card's, as
            # a payment's record is pushed back with one card less to pay.
            pend.kind = D_DRAW
            self.stack.append(pend)

    def _start_play(self, p: int, action: Action, via: str, pool: frozenset[int] | None,
                    record: Pending | None = None) -> None:
        """Take the played card from p's hand and pay for it: a payment record (or, when
        ``record`` is given, that record, no longer used, made into one) on the stack, or
        at once :meth:`_finish_play` for a card that costs nothing."""
        cid = action.card
        card: Card = self.game.cards[cid]
        self._remove_from_hand(p, cid)
        side = action.side
        if side:
            cost = card.halves[side].species.cost
        else:
            assert card.species is not None
            cost = card.species.cost
        if record is None:
            pend = Pending(D_PAY, p, cid, action.side, action.tree, via, cost, None, pool)
        else:
            # The turn's record (off the stack, p's) becomes the payment's, every field as
            # the Pending(D_PAY, ...) above sets it.
            pend = record
            pend.kind = D_PAY
            pend.card = cid
            pend.side = action.side
            pend.tree = action.tree
            pend.via = via
            pend.need = cost
            pend.pool = pool
            pend.step = None
            pend.tag = ""
            pend.paid = []  # a new list: one read off the turn's record stays empty
            if pend.steps:
                pend.steps = []
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
        g = self.game
        cards: tuple[Card, ...] = g.cards
        side = pend.side
        symbol = cards[pend.card].halves[side].symbol if side else g.host_symbol[pend.card]
        bonus = True  # every paid card shows the played card's tree symbol
        for c in pend.paid:
            if symbol not in cards[c].symbols:
                bonus = False
                break
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
        """A one-line reason why ``action`` is not legal now, naming the rule that forbids
        it (the decision at hand and what answers it, a card's place, a slot's rule, the
        cost, the hand limit...)."""
        if not isinstance(action, Action):
            return "not an Action"
        shape = shape_problem(action)
        if shape:
            return shape
        if self.over:
            return Refusal("the game is over")
        pend = self.stack[-1]
        own = self.game.kinds[pend.kind].refuse(self, pend, action)
        if own:  # the decision kind's own reason
            return own
        p = pend.player
        hand = self.hands[p]
        kinds = {a.kind for a in self.legal_actions()}
        if action.kind not in kinds:
            # The kind fits the decision but no such action is legal now: say why.
            limit = self.game.hand_limit
            if action.kind in (DRAW, TAKE) and pend.kind == D_TURN and len(hand) >= limit:
                return Refusal("player {player} holds {limit} cards and may not draw (the "
                               "hand limit is {limit})", player=p + 1, limit=limit)
            if action.kind == TAKE and pend.kind in (D_TURN, D_DRAW, D_TAKE):
                return self._why_not_taken(action.card, pend)
            if (action.kind == PLAY and pend.kind in (D_TURN, D_FREE, D_MOLE)
                    or action.kind == SAPLING and pend.kind == D_MOLE):
                if action.card not in hand:
                    return Refusal("card {card} is not in player {player}'s hand",
                                   card=action.card, player=p + 1)
                return self._why_not_placeable(p, action, pend)
            return self._wrong_kind(p, self._expected(pend), action.kind)
        if action.kind in (PLAY, SAPLING, PAY, CAVE) and action.card not in hand:
            return Refusal("card {card} is not in player {player}'s hand", card=action.card,
                           player=p + 1)
        if action.kind == TAKE:
            return self._why_not_taken(action.card, pend)
        if action.kind == PAY:
            if pend.pool is not None and action.card not in pend.pool:
                return Refusal("card {card} was not in hand when the Mole was played",
                               card=action.card)
            return Refusal("pay cards in ascending order of their numbers")
        if action.kind == CAVE:
            return Refusal("put cards under the cave in ascending order of their numbers")
        if action.kind in (PLAY, SAPLING):
            return self._why_not_placeable(p, action, pend)
        return f"'{action}' is not among the legal actions now"  # pragma: no cover

    def _why_not_taken(self, card: int, pend: Pending) -> str:
        """Why ``card`` may not be taken from the clearing now."""
        if card in self.clearing and pend.kind == D_TAKE and pend.tag:
            return Refusal("card {card} is not {what} (this effect takes only {what})",
                           card=card, what=Noun(pend.tag))
        return Refusal("card {card} is not in the clearing", card=card)

    def _expected(self, pend: Pending) -> str:
        """What the decision ``pend`` asks for, in words (its kind's declaration)."""
        decl = self.game.kinds[pend.kind]
        return decl.expected if decl.ask is None else decl.ask(self, pend)

    def _kind_rule(self, kind: str) -> str:
        """When this game asks for an action of ``kind``: the rule a refusal of the kind
        names (a game's state class may say otherwise)."""
        return _KIND_RULES[kind]

    def _wrong_kind(self, p: int, expected: str, kind: str) -> str:
        """The refusal of an action of a kind the decision at hand does not ask for: what it
        asks, and when that kind is asked for (:meth:`_kind_rule`)."""
        return Refusal("player {player} must choose: {expected}; {rule}", player=p + 1,
                       expected=expected, rule=self._kind_rule(kind))

    def _why_not_placeable(self, p: int, action: Action, pend: Pending) -> str:
        """Why a play (or the Mole's sapling) of a card ``p`` may play from where it is
        (the hand, the clearing for a free play from it) is not legal now."""
        card = self.game.cards[action.card]
        if action.kind == SAPLING:
            if pend.pool is not None and action.card not in pend.pool:
                return Refusal("card {card} was not in hand when the Mole was played",
                               card=card.id)
            return Refusal("the Mole plays cards by their printed cost, not as saplings")
        if card.is_host:
            if action.side:
                return Refusal("card {card} is {kind}: write 'play {card}' ({kind} takes no "
                               "slot)", card=card.id, kind=Noun(card.kind))
        else:
            if not action.side:
                sides = "/".join(card.halves)
                return Refusal("card {card} is a split card: name a half ({sides}) and a tree",
                               card=card.id, sides=sides)
            if action.side not in card.halves:
                return Refusal("card {card} has no {side} half ({sides})", card=card.id,
                               side=action.side, sides="/".join(card.halves))
            trees = self.forests[p].trees
            if not 0 <= action.tree < len(trees):
                return Refusal("there is no tree {tree} in the forest ({trees}): a half goes "
                               "into a slot of {hosts} of the forest", tree=action.tree + 1,
                               trees=len(trees), hosts=self._host_words())
            sp = card.halves[action.side].species
            host = trees[action.tree]
            why = host.refusal(sp, action.side, self.rules.counts_as_joins_stack)
            if why:
                return self._refusal_words(why, sp, action.side, action.tree, host)
        sp = _species_of(card, action.side)
        if pend.kind == D_FREE and not self._answers(sp, pend.tag):
            what = " or ".join(self._tag_words(tag) for tag in pend.tag.split("|"))
            return Refusal("{name} is not {what} (this free play places only {what})",
                           name=sp.printed, what=Noun(what))
        if pend.kind == D_MOLE and pend.pool is not None and action.card not in pend.pool:
            return Refusal("card {card} was not in hand when the Mole was played", card=card.id)
        if pend.kind == D_FREE:  # pragma: no cover - a free play it answers is legal
            return Refusal("{name} cannot be placed by this free play", name=sp.printed)
        return Refusal("{name} costs {cost} and there are not enough other cards to pay",
                       name=sp.printed, cost=sp.cost)

    def _tag_words(self, tag: str) -> str:
        """A free play's tag as a person reads it: a species key by its printed name."""
        named = self.game.catalog.species.get(tag)
        return tag if named is None else named.printed

    @staticmethod
    def _answers(sp: Species, tag: str) -> bool:
        """Does ``sp`` answer a free play of ``tag`` (``a|b``: any of them)?"""
        return any(_fits(sp, t) for t in tag.split("|"))

    def _host_words(self) -> str:
        """The hosts of this game's forests with their article, in words (a game's state
        class may differ)."""
        return Noun(N_("tree, sapling or shrub"))

    def _refusal_words(self, why: str, sp: Species, side: str, tree: int, host: Host) -> str:
        """A host's :meth:`~forest_shuffle.cards.forest.Host.refusal` of ``sp`` on ``side``
        in words that name the rule."""
        where = Refusal("tree {n} ({host})", n=tree + 1, host=host.name)
        name = sp.name
        if why == NOT_THIS_HOST:
            kinds = " or ".join(k for k in ("tree", "shrub", "moor") if k in sp.hosts)
            return Refusal("{name} goes only to {kinds}, and {where} is {kind}", name=name,
                           kinds=Noun(kinds), where=where, kind=Noun(host.kind))
        if why == NO_SIDE_SLOTS:
            return Refusal("{where} is a moor: a moor has no left or right slots, only two "
                           "top and two bottom ones", where=where)
        if why == NOT_THIS_SIDE:
            return Refusal("{name} is not placed on the {side} of a host", name=name, side=side)
        if why == NOT_ONTO_TAG:
            return Refusal("{name} goes only onto {tag}, sharing its slot, and the {side} slot "
                           "of {where} holds none", name=name, tag=Noun(sp.onto_tag),
                           side=side, where=where)
        if why == HOST_HAS_MOST:
            return Refusal("{where} already has {name} (at most {n} at one tree or shrub)",
                           where=where, name=name, n=sp.max_per_host)
        if why == SLOTS_FULL:
            return Refusal("both {side} slots of {where} are taken", side=side, where=where)
        top = host.slots[side][-1].species.name if host.slots[side] else ""
        return Refusal("the {side} slot of {where} is taken by {top}, which {name} may not "
                       "share", side=side, where=where, top=top, name=name)

    # ------------------------------------------------------------ results

    def scores(self) -> list[int]:
        """Each player's total by the game's scorer (:attr:`GameDef.scorer`)."""
        return self.game.totals(self.forests)

    def winners(self) -> list[int]:
        """Every player with the top total (a tie shares the victory)."""
        sc = self.scores()
        best = max(sc)
        return [i for i, v in enumerate(sc) if v == best]

    # ------------------------------------------------------------ copies

    def clone(self) -> GameState:
        """An independent copy: applying actions to it leaves this state unchanged."""
        return self.build(
            self.game, self.num_players, self.seed, self.deal, self.rules, self.first_player,
            self.deck[:], self.box[:], self.clearing[:], self.winter[:],
            [h[:] for h in self.hands], [f.copy() for f in self.forests],
            [c[:] for c in self.caves], [set(k) for k in self.known], self.box_seen,
            self.caves_seen, self.current, self.turn, self.extra_turns, self.over,
            [p.copy() for p in self.stack], self.queue[:], [dict(a) for a in self.active],
            self.history[:], self._more_copy())

    def __deepcopy__(self, memo: dict[int, Any]) -> GameState:
        """``copy.deepcopy`` is :meth:`clone` (the game definition and rules are shared, not
        copied: they never change)."""
        s = memo[id(self)] = self.clone()
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
            "game": self.game.id,
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
            **self._seen_out(),
            "current": self.current,
            "turn": self.turn,
            "extra_turns": self.extra_turns,
            "over": self.over,
            "stack": [p.to_dict() for p in self.stack],
            "queue": [list(q) for q in self.queue],
            "active": [dict(a) for a in self.active],
            "history": [str(a) for a in self.history],
        }

    def _seen_out(self) -> dict[str, Any]:
        """``box_seen`` and ``caves_seen`` for a save, each written only when it holds a
        card (a save without them: nothing seen going out of sight)."""
        out: dict[str, Any] = {}
        if self.box_seen:
            out["box_seen"] = list(self.box_seen)
        if any(self.caves_seen):
            out["caves_seen"] = [list(c) for c in self.caves_seen]
        return out

    @staticmethod
    def from_dict(data: Any) -> GameState:  # Any: anything is refused with a message
        """Restore a state saved by :meth:`to_dict`.
        :class:`~forest_shuffle.engine.check.BrokenSaveError` (a ValueError, one line naming
        the first problem) if it is not one a game can reach: the shape and every card are
        checked before the state is built, the whole state after (:mod:`.state_check`)."""
        from forest_shuffle.engine.actions import ActionParseError
        from forest_shuffle.engine.check import BrokenSaveError, check_save, check_state, printable

        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise BrokenSaveError(f"not a saved game (expected format {FORMAT!r})")
        check_save(data)
        try:
            # Saves from before game definitions name none: they are base games.
            g = game_by_id(data.get("game", "base"))
            cls: type[GameState] = g.state_class or GameState
            cards = g.cards
            num_players = int(data["num_players"])
            seed = int(data["seed"])
            # Saves from before the keyed deal have no scheme: they were dealt the old way.
            deal = data.get("deal", LEGACY)
            check_seed(seed, deal)
            forests: list[Forest] = []
            for f in data["forests"]:
                trees = []
                for t in f["trees"]:
                    card = cards[t["card"]]
                    if t["sapling"] or card.species is None:
                        site = Host(None, card.id, kind=K_SAPLING)
                    else:
                        site = Host(card.species, card.id, kind=card.kind, symbol=card.symbol)
                    for side in SIDES:
                        site.slots[side] = [Dweller.of_card(cards[c], side)
                                            for c in t["slots"][side]]
                    trees.append(site)
                forests.append(Forest(trees))
            caves = [list(c) for c in data["caves"]]
            for f, cave in zip(forests, caves, strict=True):
                f.cave = len(cave)
            history: list[Action] = []
            for k, text in enumerate(data["history"]):
                try:
                    history.append(_parse_action(text))
                except ActionParseError as bad:  # one name per exception type (mypyc)
                    raise BrokenSaveError(f"broken saved game: history[{k}] "
                                          f"{printable(repr(text[:40]))}: {bad}") from None
            s = cls.build(
                g, num_players, seed, deal, Rules.from_dict(data["rules"]),
                int(data["first_player"]), list(data["deck"]), list(data["box"]),
                list(data["clearing"]), list(data["winter"]), [list(h) for h in data["hands"]],
                forests, caves, [set(k) for k in data["known"]],
                # Saves from before these lists hold none: nothing is known to be out of sight.
                tuple(data.get("box_seen", ())),
                tuple(tuple(c) for c in data.get("caves_seen", [[]] * num_players)),
                int(data["current"]), int(data["turn"]), int(data["extra_turns"]),
                bool(data["over"]), [Pending.from_dict(p) for p in data["stack"]],
                [(q[0], q[1], q[2], q[3]) for q in data["queue"]],
                [{m: int(a[m]) for m in g.mushrooms} for a in data["active"]], history, None)
            s._load_more(data)
        except BrokenSaveError:
            raise
        except (KeyError, TypeError, IndexError, AssertionError, ValueError) as exc:
            why = printable(str(exc).split("\n")[0][:200]) or type(exc).__name__
            raise BrokenSaveError(f"broken saved game: {why}") from None
        check_state(s)
        return s

    # ------------------------------------------------------------ hooks of game classes

    def _load_more(self, data: dict[str, Any]) -> None:
        """Restore what a game's state class adds to a save (its fields through
        :meth:`_init_more`; the base game: nothing)."""

    def _more_places(self) -> list[tuple[int, str]]:
        """Cards in places a game's state class adds, as (card, place) (base: none)."""
        return []

    def _load_view(self, view: PlayerView) -> None:
        """Set what a game's state class adds from the public fields of a view (a sampled
        state of the search bot; its fields through :meth:`_init_more`; base: nothing)."""

    def _view_more(self) -> dict[str, Any]:
        """The public fields of :class:`PlayerView` a game's state class fills (base: none)."""
        return {}

    def _check_more(self) -> None:
        """Checks of what a game's state class adds (base: none); BrokenSaveError."""

    def _end_held(self) -> bool:
        """True when the decision at hand holds the game's end open (a game's state class:
        Exploration's winter reprieve, asked with the card that ends the game revealed):
        :func:`~forest_shuffle.engine.check.check_state` then checks the decisions below
        it as a game that goes on, and :meth:`_check_more` checks that one. Base: False."""
        return False

    #: The decision kinds of a game's setup (turn 0).
    SETUP_KINDS: frozenset[str] = frozenset({D_MULLIGAN})
    #: Decisions that take several cards one action at a time, in ascending order of ids
    #: (``engine/picks.py`` shows each as one choice of a set): decision kind -> (action
    #: kind, where the cards are: "hand" or "clearing", whether exactly ``need`` are taken;
    #: otherwise any number, ended by ``done``). Filled from the kinds' declarations
    #: (``KindDecl.pick``, ``engine/decisions.py``); ``engine/picks.py`` reads the
    #: definition's table. (A ClassVar: read from the class, which a view names.)
    PICK_KINDS: ClassVar[dict[str, tuple[str, str, bool]]] = {}

    # ------------------------------------------------------------ views

    def view(self, player: int) -> PlayerView:
        """What ``player`` may see: never another hand (beyond cards seen taken from the
        clearing), the deck order, the box or the cards under a cave."""
        from forest_shuffle.engine.view import make_view

        return make_view(self, player)


from forest_shuffle.engine.view import PlayerView  # noqa: E402  (PlayerView refers back to this module)
