"""Actions, decisions and cards in plain words, for every front end (no rich, no I/O).

Contract: pure functions of cards, actions and views. :func:`public_words` says only what
every player sees of an action (a sapling's card, a deck draw and cards put under a cave
stay hidden); :func:`action_words` and :func:`pending_words` are for the deciding player.
"""

from __future__ import annotations

from . import cardtext
from .actions import (
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
from .cards import CATALOG, Card, Effect, Species
from .forest import Forest
from .view import PendingView, PlayerView


def card_of(cid: int) -> Card:
    """The catalog card with that id."""
    return CATALOG.card(cid)


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
        return [card.species.name]
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
    sp = CATALOG.species.get(pend.species)
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


def pending_words(view: PlayerView, name: str) -> str:
    """What the pending decision asks, addressed to ``name``."""
    pend = view.pending
    if pend is None:
        return "The game is over."
    kind = pend.kind
    if kind == "mulligan":
        return f"{name}: your opening hand has no tree. Keep it, or mulligan?"
    if kind == "turn":
        extra = " (an extra turn)" if view.extra_turns else ""
        return (f"{name}, your turn{extra}: draw 2 cards (deck or clearing), play a card "
                "(paying its cost), or play a sapling.")
    if kind == "draw":
        return f"{name}: take your second card, from the deck or the clearing."
    if kind == "pay":
        sp = species_of(pend.card, pend.side)
        paid = ", ".join(str(c) for c in pend.paid)
        text = f"{name}: paying for {sp.name} (card {pend.card}), need {pend.need} more"
        text += f" (paid: {paid})." if paid else "."
        if sp.bonus is not None:
            sym = bonus_symbol(pend)
            state = "still possible" if bonus_alive(pend) else "lost"
            text += (f" Bonus ({cardtext.describe_effect(sp.bonus)}) if every card paid "
                     f"shows {sym}: {state}.")
        return text
    if kind == "option":
        return f"{name}: use {step_words(pend)}?"
    if kind == "free":
        left = "any number" if pend.need < 0 else f"{pend.need} left"
        return f"{name}: place a {pend.species} from your hand for free ({left}), or done."
    if kind == "raccoon":
        return (f"{name} (Raccoon): put hand cards under your cave, then draw as many; "
                f"{len(pend.paid)} put so far. Done to stop.")
    if kind == "mole":
        return f"{name} (Mole): play further cards, paying their costs, or done."
    return f"{name}: {kind}"


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
        return "puts a card under the cave"
    if kind == DONE:
        return "is done"
    return str(action)
