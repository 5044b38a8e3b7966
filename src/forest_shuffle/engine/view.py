"""A player's view of a game: everything that player may see and nothing else.

Contract: :func:`make_view` (and :func:`make_spectator_view`, the view of someone who is
not at the table) is the one place where hidden information is filtered. A
:class:`PlayerView` holds the player's own hand and cave cards, the public table (clearing,
winter cards, forests with other players' saplings face down, counts) and, for the other
players, only the hand cards everyone saw them take from the clearing, and the cards
everyone saw go from the clearing into the box or a cave. It never holds the seed, the deck
order, the rest of the box or another player's other hand cards.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from forest_shuffle.cards.forest import Forest
from forest_shuffle.cards.model import SIDES
from forest_shuffle.cards.words import article
from forest_shuffle.engine.actions import Action
from forest_shuffle.engine.game import GameDef, game_by_id
from forest_shuffle.engine.options import Rules

if TYPE_CHECKING:
    from forest_shuffle.engine.state import GameState, Pending


@dataclass(frozen=True, slots=True)
class PendingView:
    """The public part of the pending decision."""

    kind: str
    player: int
    card: int = 0  # the card being paid for (pay) or whose step is offered (option)
    side: str = ""
    tree: int = -1
    need: int = 0  # cards still to pay / free plays left (-1: any number)
    paid: tuple[int, ...] = ()  # cards paid so far (public: they go to the clearing)
    step: str = ""  # "effect", "bonus" or "mushroom" for an option
    species: str = ""  # whose effect/bonus/mushroom is offered, or the free-play tag


@dataclass(frozen=True, slots=True)
class PlayerView:
    """What one player sees. ``legal_actions`` is empty unless it is that player's turn."""

    player: int
    num_players: int
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    known_hands: tuple[tuple[int, ...], ...]  # per player: hand cards all have seen
    own_cave: tuple[int, ...]
    cave_sizes: tuple[int, ...]
    deck_size: int
    box_size: int
    clearing: tuple[int, ...]
    winter: tuple[int, ...]
    forests: tuple[Forest, ...]
    current: int
    turn: int
    extra_turns: int
    over: bool
    pending: PendingView | None
    legal_actions: tuple[Action, ...]
    #: The rule switches of this game.
    rules: Rules = field(default_factory=Rules)
    #: The whole stack of pending decisions, bottom first, as this player may see it (a
    #: Mole's pool and Raccoon's cave cards of another player are hidden).
    decisions: tuple[Pending, ...] = ()
    #: The mushroom draws, effects and bonuses still to resolve this turn, in order.
    queue: tuple[tuple[str, int, str, str], ...] = ()
    #: The current player's mushrooms that act this turn (placed before it began).
    active: Mapping[str, int] = field(default_factory=dict)
    #: The game this is a view of (its catalog, limits and tables).
    game: GameDef = field(default_factory=lambda: game_by_id("base"))
    #: Dartmoor: the discard pile (public: every card in it lay face up in the clearing),
    #: the caves still offered in the cave draft (numbers), and the setup step (the draft's
    #: progress; 2 x players once the first turn began; -1 in games without a draft).
    discard: tuple[int, ...] = ()
    cave_offer: tuple[int, ...] = ()
    setup: int = -1
    #: The cards everyone saw go from the clearing into the box, and under each seat's cave
    #: (:attr:`GameState.box_seen`, :attr:`GameState.caves_seen`): public, and never back.
    box_seen: tuple[int, ...] = ()
    caves_seen: tuple[tuple[int, ...], ...] = ()
    #: A solo game: the public facts of the automa (the challenge, how many of Anna's
    #: cards are left, those shown since the last shuffle, her last turn); empty otherwise.
    solo: Mapping[str, Any] = field(default_factory=dict)
    #: Exploration: the cards whose winter reprieve was used, once per use (public: everyone
    #: saw the winter card go back), so a sampled world never grants one twice.
    reprieves: tuple[int, ...] = ()

    @property
    def my_turn(self) -> bool:
        return bool(self.legal_actions)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data (used by front ends and by tests of what a view carries)."""
        return {
            "game": self.game.id,
            "player": self.player,
            "num_players": self.num_players,
            "hand": list(self.hand),
            "hand_sizes": list(self.hand_sizes),
            "known_hands": [list(k) for k in self.known_hands],
            "own_cave": list(self.own_cave),
            "cave_sizes": list(self.cave_sizes),
            "deck_size": self.deck_size,
            "box_size": self.box_size,
            "clearing": list(self.clearing),
            "winter": list(self.winter),
            "forests": [
                [{"card": t.card, "sapling": t.is_sapling,
                  "slots": {s: [d.card for d in t.slots[s]] for s in SIDES}} for t in f.trees]
                for f in self.forests
            ],
            "current": self.current,
            "turn": self.turn,
            "extra_turns": self.extra_turns,
            "over": self.over,
            "pending": None if self.pending is None else {
                "kind": self.pending.kind, "player": self.pending.player,
                "card": self.pending.card, "side": self.pending.side,
                "tree": self.pending.tree, "need": self.pending.need,
                "paid": list(self.pending.paid), "step": self.pending.step,
                "species": self.pending.species,
            },
            "legal_actions": [str(a) for a in self.legal_actions],
            "rules": self.rules.to_dict(),
            "decisions": [d.to_dict() for d in self.decisions],
            "queue": [list(q) for q in self.queue],
            "active": dict(self.active),
            "box_seen": list(self.box_seen),
            "caves_seen": [list(c) for c in self.caves_seen],
            **self._more(),
        }

    def _more(self) -> dict[str, Any]:
        """The fields a game with its own state class adds (Dartmoor; nothing for base)."""
        if self.game.state_class is None:
            return {}
        return {"discard": list(self.discard), "cave_offer": list(self.cave_offer),
                "setup": self.setup, "cave_numbers": [f.cave_number for f in self.forests],
                "universal_moors": [[j for j, t in enumerate(f.trees) if t.is_moor
                                     and t.species is None] for f in self.forests],
                **({"solo": dict(self.solo)} if self.solo else {}),
                **({"reprieves": list(self.reprieves)} if self.reprieves else {})}


def _public_forest(forest: Forest) -> Forest:
    """A copy of another player's forest: saplings lie face down, so their card is hidden."""
    out = forest.copy()
    for site in out.trees:
        if site.species is None:
            site.card = None
    return out


def _public_decision(pend: Pending, player: int, secret: set[int]) -> Pending:
    """A copy of a pending decision with what ``player`` may not see taken out: another
    player's Mole pool and Raccoon cave cards, and face-down sapling ids (as 0)."""
    out = pend.copy()
    if pend.player != player:
        if out.pool is not None:
            out.pool = frozenset()
        if out.kind == "raccoon":
            out.paid = [0] * len(out.paid)
    if secret:
        if out.card in secret:
            out.card = 0
        if out.step is not None and out.step[1] in secret:
            out.step = (out.step[0], 0, out.step[2], out.step[3])
        out.steps = [(k, 0 if c in secret else c, sd, n) for k, c, sd, n in out.steps]
    return out


def make_view(state: GameState, player: int) -> PlayerView:
    """The view of ``player`` (0-based) of ``state``."""
    if not 0 <= player < state.num_players:
        game = article(f"{state.num_players}-player game")
        raise ValueError(f"no player {player + 1} in {game}")
    return _make(state, player)


def make_spectator_view(state: GameState) -> PlayerView:
    """What someone who is no player sees: the public table only. Same fields as a player's
    view with ``player`` -1, no hand, no cave cards, every sapling face down, no legal
    actions; ``known_hands`` holds only the cards everyone saw taken from the clearing."""
    return _make(state, -1)


def _make(state: GameState, player: int) -> PlayerView:
    """The view of seat ``player``, or of a spectator for -1."""
    me = 0 <= player < state.num_players
    # Face-down hosts of others: saplings, and Dartmoor's universal moors.
    secret = {t.card for i, f in enumerate(state.forests) if i != player
              for t in f.trees if t.species is None and t.card is not None}
    pend = state.pending
    pview: PendingView | None = None
    if pend is not None:
        step = pend.step
        card = step[1] if step is not None else pend.card
        if card in secret:
            card = 0  # a Chanterelle draw offered for a face-down sapling
        pview = PendingView(
            kind=pend.kind, player=pend.player,
            card=card,
            side=step[2] if step is not None else pend.side,
            tree=pend.tree, need=pend.need,
            paid=tuple(pend.paid) if pend.kind == "pay" else (),
            step=step[0] if step is not None else "",
            species=step[3] if step is not None else pend.tag,
        )
    known = tuple(
        tuple(sorted(state.hands[i])) if i == player else tuple(sorted(state.known[i]))
        for i in range(state.num_players)
    )
    return PlayerView(
        player=player,
        num_players=state.num_players,
        hand=tuple(state.hands[player]) if me else (),
        hand_sizes=tuple(len(h) for h in state.hands),
        known_hands=known,
        own_cave=tuple(state.caves[player]) if me else (),
        cave_sizes=tuple(len(c) for c in state.caves),
        deck_size=len(state.deck),
        box_size=len(state.box),
        clearing=tuple(state.clearing),
        winter=tuple(state.winter),
        forests=tuple(f.copy() if i == player else _public_forest(f)
                      for i, f in enumerate(state.forests)),
        current=state.current,
        turn=state.turn,
        extra_turns=state.extra_turns,
        over=state.over,
        pending=pview,
        legal_actions=tuple(state.legal_actions()) if me and state.to_move == player else (),
        rules=state.rules,
        decisions=tuple(_public_decision(d, player, secret) for d in state.stack),
        queue=tuple((k, 0 if c in secret else c, sd, n) for k, c, sd, n in state.queue),
        active=dict(state.active[state.current]),
        game=state.game,
        box_seen=state.box_seen,
        caves_seen=state.caves_seen,
        **_more_of(state),
    )


def _more_of(state: GameState) -> dict[str, Any]:
    """The public fields a game's state class adds (Dartmoor's discard pile, cave draft)."""
    if state.game.state_class is None:
        return {}
    more: dict[str, Any] = state._view_more()
    return more
