"""Actions, decisions, cards and table events in plain words, for every front end (no rich,
no I/O).

Contract: pure functions of cards, actions and views (or states, for the public table
facts of :class:`Table`). This module is the one copy of these words: the terminal styles
them, the web server sends them (in its log and payload), and neither writes its own.

- :func:`public_words` says only what every player sees of an action (a sapling's card, a
  deck draw and cards put under a cave stay hidden); :func:`own_words` is the actor's copy
  when it saw more.
- :func:`action_words`, :func:`ask_words`, :func:`detail_words`, :func:`pay_facts` and
  :func:`pending_words` are for the deciding player.
- :func:`event_words`, :func:`end_words`, :func:`opening_words` and :func:`turn_words` are
  the table events everyone sees (a winter card, the clearing emptied, the end, the winners).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from forest_shuffle.cards.forest import Forest
from forest_shuffle.cards.model import Card, Catalog, Effect, Species
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
from forest_shuffle.engine.view import PendingView, PlayerView
from forest_shuffle.scoring import core as scoring
from forest_shuffle.text import cardtext


def _words_catalog() -> Catalog:
    """The catalog these words look cards up in (every card of the base family)."""
    from forest_shuffle.engine.game import game_by_id

    return game_by_id("base+alpine+woodland_edge").catalog


def card_of(cid: int) -> Card:
    """The catalog card with that id."""
    return _words_catalog().card(cid)


def label(cid: int) -> str:
    """``"Oak"`` or ``"European Hare/Barbastelle Bat"``."""
    card = card_of(cid)
    if card.species is not None:
        return card.species.name
    return "/".join(h.species.name for h in card.halves.values())


def symbols_of(cid: int) -> list[str]:
    """The tree symbols printed on a card, in half order."""
    card = card_of(cid)
    if card.species is not None:
        return [card.symbol]
    return [h.symbol for h in card.halves.values()]


def species_of(cid: int, side: str) -> Species:
    """The species of a tree card, or of one half of a split card."""
    card = card_of(cid)
    if side:
        return card.halves[side].species
    assert card.species is not None
    return card.species


def tree_name(forest: Forest, tree: int) -> str:
    """``"tree 2 (Birch)"``."""
    if 0 <= tree < len(forest.trees):
        return f"tree {tree + 1} ({forest.trees[tree].name})"
    return f"tree {tree + 1}"


def step_effect(pend: PendingView) -> Effect | None:
    """The effect, bonus or mushroom draw offered by an option decision."""
    sp = _words_catalog().species.get(pend.species)
    if sp is None:
        return None
    if pend.step == "mushroom":
        return sp.permanent
    return sp.effect if pend.step == "effect" else sp.bonus


def step_words(pend: PendingView) -> str:
    """``"the bonus of Oak (Take another turn)"``."""
    what = "the draw of" if pend.step == "mushroom" else f"the {pend.step} of"
    return f"{what} {pend.species} ({cardtext.describe_effect(step_effect(pend))})"


def bonus_symbol(pend: PendingView) -> str:
    """The tree symbol every payment card must show for the bonus of the card paid for."""
    return symbols_of(pend.card)[0] if not pend.side else card_of(pend.card).halves[
        pend.side].symbol


def bonus_alive(pend: PendingView) -> bool:
    """Is the bonus of the card being paid for still possible?"""
    sym = bonus_symbol(pend)
    return all(sym in card_of(c).symbols for c in pend.paid)


def action_words(action: Action, view: PlayerView) -> str:
    """Readable words for one legal action of ``view``'s player."""
    pend = view.pending
    forest = view.forests[view.player]
    kind = action.kind
    if kind == KEEP:
        return "keep this hand"
    if kind == MULLIGAN:
        return "mulligan: box this hand and draw 6 new cards"
    if kind == DRAW:
        return f"draw from the deck ({view.deck_size} left)"
    if kind == TAKE:
        return f"take {label(action.card)} (card {action.card}) from the clearing"
    if kind == PLAY:
        sp = species_of(action.card, action.side)
        free = pend is not None and pend.kind == "free"
        cost = "for free" if free else f"cost {sp.cost}"
        if not action.side:
            return f"play {sp.name} (card {action.card}), {cost}"
        return (f"play {sp.name} ({action.side} half of card {action.card}) at "
                f"{tree_name(forest, action.tree)}, {cost}")
    if kind == SAPLING:
        return f"play card {action.card} ({label(action.card)}) as a sapling"
    if kind == PAY:
        words = f"pay with card {action.card} ({label(action.card)})"
        if pend is not None and pend.kind == "pay" and bonus_alive(pend):
            sym = bonus_symbol(pend)
            sp = species_of(pend.card, pend.side)
            if sp.bonus is not None and sym in card_of(action.card).symbols:
                words += f" - keeps the {sym} bonus"
        return words
    if kind == YES:
        return f"yes: {step_words(pend)}" if pend is not None else "yes"
    if kind == NO:
        return "no, skip it"
    if kind == CAVE:
        return f"put card {action.card} ({label(action.card)}) under your cave"
    if kind == DONE:
        return "done"
    return str(action)


def species_named(name: str) -> Species | None:
    """The catalog species of that name, or None."""
    return _words_catalog().species.get(name)


def cards_word(n: int, word: str = "card") -> str:
    """``"1 card"``, ``"3 cards"``."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def ask_words(view: PlayerView) -> str:
    """What the pending decision of ``view``'s player asks, as one sentence that starts with
    a capital (and never with a name, so a front end may put the player's name before it:
    :func:`pending_words`)."""
    pend = view.pending
    if pend is None:
        return "The game is over."
    kind = pend.kind
    if kind == "mulligan":
        return "Your opening hand has no tree: keep it, or take a mulligan (6 new cards)?"
    if kind == "turn":
        head = "An extra turn: draw" if view.extra_turns else "Draw"
        return (f"{head} 2 cards (deck or clearing), play a card (paying its cost), or play "
                "a sapling.")
    if kind == "draw":
        return "Take your second card, from the deck or the clearing."
    if kind == "pay":
        sp = species_of(pend.card, pend.side)
        paid = ", ".join(str(c) for c in pend.paid)
        text = (f"Pay for {sp.name} (card {pend.card}) with "
                f"{cards_word(pend.need, 'more card')} of your hand")
        return text + (f" (paid: {paid})." if paid else ".")
    if kind == "option":
        return f"Use {step_words(pend)}?"
    if kind == "free":
        left = "any number" if pend.need < 0 else f"{pend.need} left"
        what = f"a {pend.species}" if pend.species else "a card"
        return f"Place {what} from your hand for free ({left}), or done."
    if kind == "raccoon":
        return (f"Put hand cards under your cave (Raccoon), then draw as many; "
                f"{len(pend.paid)} put so far. Done to stop.")
    if kind == "mole":
        return "Play further cards (Mole), paying their costs, or done."
    if kind == "take":
        what = f"a {pend.species} card" if pend.species else "a card"
        many = f" ({pend.need} to take)" if pend.need > 1 else ""
        return f"Take {what} from the clearing into your hand{many}."
    if kind == "clearing cave":
        return (f"Choose {cards_word(pend.need, 'more clearing card')} to put under your "
                "cave.")
    if kind == "saplings":
        return "Play hand cards as saplings for free, one at a time, or done."
    return f"Decide: {kind}."


@dataclass(frozen=True, slots=True)
class PayFacts:
    """A pay decision as its player sees it: the bonus at stake and which cards keep it."""

    card: int  # the card being paid for
    side: str  # its half ("" for a tree)
    need: int  # cards still to pay
    paid: tuple[int, ...]
    symbol: str  # the tree symbol every payment card must show for the bonus
    bonus: str | None  # the bonus in words; None if the card has none
    bonus_possible: bool  # it has a bonus and every card paid so far shows the symbol
    payable: tuple[int, ...]  # the hand cards that may be part of this payment, ascending
    keeps_bonus: tuple[int, ...]  # the payable cards that show the symbol (if possible)
    words: str  # the bonus in one sentence for the payer (see bonus_words)


def payable_cards(view: PlayerView) -> tuple[int, ...]:
    """During ``view``'s player's pay decision, the hand cards that may be part of the
    payment, ascending: any ``need`` of them can be paid (the engine takes payments in
    ascending order, so it offers only the ones that may come next; the cards above the
    lowest of those follow). A Mole's payment takes only the cards of its pool."""
    pend = view.pending
    if pend is None or pend.kind != "pay":
        return ()
    legal = {a.card for a in view.legal_actions if a.kind == PAY}
    if not legal:
        return ()
    low = min(legal)
    top = view.decisions[-1] if view.decisions else None
    pool = top.pool if top is not None and top.kind == "pay" else None
    return tuple(sorted(c for c in view.hand
                        if c in legal or (c > low and (pool is None or c in pool))))


def pay_facts(view: PlayerView) -> PayFacts | None:
    """The facts of ``view``'s player's pay decision; None unless it is one."""
    pend = view.pending
    if pend is None or pend.kind != "pay" or not view.legal_actions:
        return None
    sp = species_of(pend.card, pend.side)
    sym = bonus_symbol(pend)
    possible = sp.bonus is not None and bonus_alive(pend)
    payable = payable_cards(view)
    keeps = tuple(c for c in payable if sym in card_of(c).symbols) if possible else ()
    bonus = cardtext.describe_effect(sp.bonus) if sp.bonus is not None else None
    if bonus is None:
        words = f"{sp.name} has no bonus."
    elif not possible:
        words = f"No bonus ({bonus}) this time: not every card paid shows {sym}."
    elif not keeps:
        words = (f"Bonus ({bonus}) if every card paid shows {sym}: lost, no card you may "
                 f"pay with shows {sym}.")
    else:
        words = f"Bonus ({bonus}) if every card paid shows {sym}: still possible."
    return PayFacts(pend.card, pend.side, pend.need, tuple(pend.paid), sym, bonus, possible,
                    payable, keeps, words)


def detail_words(view: PlayerView) -> str | None:
    """A second line for the pending decision of ``view``'s player, if it has one: during a
    payment the bonus at stake (:attr:`PayFacts.words`), for an effect, bonus or mushroom
    draw offered its full rules text."""
    pend = view.pending
    if pend is None or not view.legal_actions:
        return None
    if pend.kind == "pay":
        facts = pay_facts(view)
        return None if facts is None else facts.words
    if pend.kind == "option":
        sp = species_named(pend.species)
        part = "permanent" if pend.step == "mushroom" else pend.step
        text = cardtext.full_text(sp, part) if sp is not None and part else ""
        return text or None
    return None


def pending_words(view: PlayerView, name: str) -> str:
    """What the pending decision asks, addressed to ``name``; during a payment with the
    bonus at stake too (the terminal's prompt line)."""
    ask = ask_words(view)
    if view.pending is None:
        return ask
    text = f"{name}: {ask[:1].lower()}{ask[1:]}"
    facts = pay_facts(view)
    return f"{text} {facts.words}" if facts is not None else text


def public_words(action: Action, pend: PendingView | None, forest: Forest) -> str:
    """What everyone sees of an action (hidden cards stay hidden)."""
    kind = action.kind
    if kind == KEEP:
        return "keeps the opening hand"
    if kind == MULLIGAN:
        return "takes a mulligan (6 new cards)"
    if kind == DRAW:
        return "draws a card from the deck"
    if kind == TAKE:
        return f"takes {label(action.card)} (card {action.card}) from the clearing"
    if kind == PLAY:
        sp = species_of(action.card, action.side)
        free = " for free" if pend is not None and pend.kind == "free" else ""
        if not action.side:
            return f"plays {sp.name} (card {action.card}){free}"
        return (f"plays {sp.name} (card {action.card}) {action.side} of "
                f"{tree_name(forest, action.tree)}{free}")
    if kind == SAPLING:
        return "plays a sapling"
    if kind == PAY:
        return f"pays with card {action.card} ({label(action.card)})"
    if kind in (YES, NO) and pend is not None and pend.kind == "option":
        verb = "uses" if kind == YES else "skips"
        return f"{verb} {step_words(pend)}"
    if kind == CAVE:
        if pend is not None and pend.kind == "clearing cave":  # a clearing card: seen by all
            return (f"puts {label(action.card)} (card {action.card}) from the clearing under "
                    "the cave")
        return "puts a card under the cave"
    if kind == DONE:
        return "is done"
    return str(action)


def own_words(action: Action, public: str, new: Sequence[int]) -> str | None:
    """The actor's own copy of its action line, when it saw more than everyone (the card of
    its sapling or put under its cave, the cards it got): ``public`` is
    :func:`public_words`, ``new`` the cards that came into its hand (not by a take, which
    everyone saw). None when the actor saw nothing more."""
    private: str | None = None
    if action.kind == SAPLING:
        private = f"plays card {action.card} ({label(action.card)}) as a sapling"
    elif action.kind == CAVE:
        private = f"puts card {action.card} ({label(action.card)}) under the cave"
    if new and action.kind != TAKE:
        got = ", ".join(f"card {c} ({label(c)})" for c in new)
        private = f"{private or public}, gets {got}"
    return private


def new_cards_words(new: Sequence[int]) -> str:
    """The cards that came into a player's hand, for that player: ``"New in your hand:
    card 12 (Oak), card 40 (Red Fox)."``."""
    return "New in your hand: " + ", ".join(f"card {c} ({label(c)})" for c in new) + "."


# ---------------------------------------------------------------------------- table events


class Table(Protocol):
    """The public table facts the event words read: a view or a game state."""

    @property
    def winter(self) -> Sequence[int]: ...

    @property
    def clearing(self) -> Sequence[int]: ...


#: The clearing held its limit: every card in it went to the box.
CLEARING_EMPTIED = "The clearing was full: its cards went to the box."
#: The end of the game (before the winners).
GAME_OVER = "The last winter card is out: the game is over."


def winter_words(revealed: int, to_end: int) -> str:
    """``"A winter card is revealed (2/3)."``: ``revealed`` of the ``to_end`` that end the
    game are out."""
    return f"A winter card is revealed ({revealed}/{to_end})."


def clearing_emptied(action: Action, pend: PendingView | None, before: Table,
                     after: Table) -> bool:
    """Did ``action`` empty a full clearing into the box (not by taking its last card, and
    not by the Brown Bear, whose cards go to its player's cave)?"""
    bear = action.kind == YES and pend is not None and pend.species == "Brown Bear"
    return bool(before.clearing) and not after.clearing and action.kind != TAKE and not bear


def event_words(action: Action, pend: PendingView | None, before: Table, after: Table,
                to_end: int) -> list[str]:
    """The table events everyone sees that ``action`` caused, in order, one sentence each:
    a winter card revealed, the clearing emptied. ``pend`` is the decision the action
    answered (the actor's view of it), ``before``/``after`` the table around it and
    ``to_end`` the number of winter cards that end the game. The end itself is
    :func:`end_words`."""
    out: list[str] = []
    if len(after.winter) > len(before.winter):
        out.append(winter_words(len(after.winter), to_end))
    if clearing_emptied(action, pend, before, after):
        out.append(CLEARING_EMPTIED)
    return out


def names_words(names: Sequence[str]) -> str:
    """``"Ann"``, ``"Ann and Bob"``, ``"Ann, Bob and Cy"``."""
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def winners_words(names: Sequence[str], totals: Sequence[int]) -> str:
    """``"Winner: Ann with 52 points."``, or ``"Tie: Ann and Bob share the victory with 48
    points."`` (``totals`` by seat)."""
    won = scoring.winners(totals)
    if not won:
        return "No winner."
    best = totals[won[0]]
    if len(won) == 1:
        return f"Winner: {names[won[0]]} with {best} points."
    return f"Tie: {names_words([names[w] for w in won])} share the victory with {best} points."


def end_words(names: Sequence[str], totals: Sequence[int]) -> list[str]:
    """The end of the game, one sentence each: it is over, and who won."""
    return [GAME_OVER, winners_words(names, totals)]


def opening_words(names: Sequence[str]) -> str:
    """``"A game of 3: Ann, Bob, Cy."``."""
    return f"A game of {len(names)}: {', '.join(names)}."


def turn_words(turn: int, name: str) -> str:
    """``"Turn 4: Ann."``."""
    return f"Turn {turn}: {name}."
