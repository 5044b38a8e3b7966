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

Languages (docs/i18n.md, "The server's words"): the functions that take ``lang`` (``en``,
``fr``, ``de``, ``zh``) say their sentences in it through the ``server`` catalog, card names
as printed in that language's edition (:func:`~forest_shuffle.cards.names.printed_name`);
English is the source text, unchanged (the terminal's own echoes, hints, skipped steps,
turn summaries and the solo automa's lines are English for now). :func:`refusal_words`
says an engine refusal in a language by its rule (``engine/refusals.py``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from forest_shuffle.cards.forest import Forest
from forest_shuffle.cards.model import Card, Catalog, Effect, Species
from forest_shuffle.cards.names import printed_name as edition_name
from forest_shuffle.cards.words import article
from forest_shuffle.cards.words import count as cards_word
from forest_shuffle.engine.actions import (
    CAVE,
    CHOOSE,
    DISCARD,
    DONE,
    DRAW,
    KEEP,
    MOOR,
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
from forest_shuffle.engine.picks import HAND, PickShape
from forest_shuffle.engine.view import PendingView, PlayerView
from forest_shuffle.i18n import Words, words
from forest_shuffle.scoring import core as scoring
from forest_shuffle.text import cardtext


class SoloResult(Protocol):
    """What the solo result words read (``games.dartmoor_solo.SoloResult``: words sit
    below the games, so they name its shape, not the class)."""

    @property
    def challenge(self) -> int: ...
    @property
    def title(self) -> str: ...
    @property
    def have(self) -> int: ...
    @property
    def need(self) -> int: ...
    @property
    def score(self) -> int: ...
    @property
    def medal(self) -> str: ...
    @property
    def thresholds(self) -> Mapping[str, int]: ...
    @property
    def goal_met(self) -> bool: ...
    def reached(self, medal: str) -> bool: ...


def N_(message: str) -> str:
    """Marks a message for the ``server`` catalog where it is written (said later)."""
    return message


def server_words(lang: str) -> Words:
    """The ``server`` catalog in ``lang`` (English: the source text)."""
    return words("server", lang)


def name_in(name: str, catalog: Catalog, lang: str) -> str:
    """A species key (or a tag) as a person of ``lang`` reads it: the name printed in that
    edition (English: :func:`printed_name`); any other word as it is."""
    sp = catalog.species.get(name)
    if sp is None:
        return name
    return sp.printed if lang == "en" else edition_name(sp, lang)


def _a_card(w: Words, name: str, catalog: Catalog, card: bool) -> str:
    """``"a Tree Frog"`` / ``"a Tree Frog card"`` (``card``) in English (its article from
    :mod:`cards.words`); in another language its catalog's ``"a {name} card"`` with the
    name as printed in its edition (a language has its own articles and genders)."""
    if w.lang == "en":
        shown = printed_name(name, catalog)
        return article(f"{shown} card" if card else shown)
    return w.pgettext("one card of a species", "a {name} card",
                      name=name_in(name, catalog, w.lang))


def card_of(cid: int, catalog: Catalog) -> Card:
    """The card with that id in ``catalog`` (the game's: a view's ``game.catalog``; every
    function here that names cards takes it)."""
    return catalog.card(cid)


def label(cid: int, catalog: Catalog, lang: str = "en") -> str:
    """``"Oak"`` or ``"European Hare/Barbastelle Bat"``; a moor played face down is
    "universal moor". Names as printed in the ``lang`` edition."""
    card = card_of(cid, catalog)
    if card.species is not None:
        return _printed(card.species, lang)
    return "/".join(_printed(h.species, lang) for h in card.halves.values())


def _printed(sp: Species, lang: str) -> str:
    """A species' name as printed in the ``lang`` edition."""
    return sp.printed if lang == "en" else edition_name(sp, lang)


def card_ref(w: Words, cid: int, catalog: Catalog, ids: bool = True) -> str:
    """``"card 12 (Oak)"`` in ``w``'s language; without ``ids`` only the name (the log's
    words for people)."""
    name = label(cid, catalog, w.lang)
    return w.pgettext("card by its number", "card {id} ({name})", id=cid, name=name) \
        if ids else name


def _name_ref(w: Words, name: str, cid: int, ids: bool) -> str:
    """``"Oak (card 12)"`` in ``w``'s language (only the name without ``ids``)."""
    return w.pgettext("card by its name", "{name} (card {id})", name=name, id=cid) \
        if ids else name


def symbols_of(cid: int, catalog: Catalog) -> list[str]:
    """The tree symbols printed on a card, in half order."""
    card = card_of(cid, catalog)
    if card.species is not None:
        return [card.symbol]
    return [h.symbol for h in card.halves.values()]


def species_of(cid: int, side: str, catalog: Catalog) -> Species:
    """The species of a tree card, or of one half of a split card."""
    card = card_of(cid, catalog)
    if side:
        return card.halves[side].species
    assert card.species is not None
    return card.species


def tree_name(forest: Forest, tree: int, lang: str = "en") -> str:
    """``"tree 2 (Birch)"``, in ``lang``."""
    w = server_words(lang)
    if 0 <= tree < len(forest.trees):
        host = forest.trees[tree]
        name = _printed(host.species, lang) if host.species is not None else host_word(
            w, host.name)
        return w.gettext("tree {n} ({name})", n=tree + 1, name=name)
    return w.gettext("tree {n}", n=tree + 1)


def step_effect(pend: PendingView, catalog: Catalog) -> Effect | None:
    """The effect, bonus or mushroom draw offered by an option decision."""
    sp = catalog.species.get(pend.species)
    if sp is None:
        return None
    if pend.step == "mushroom":
        return sp.permanent
    return sp.effect if pend.step == "effect" else sp.bonus


def step_words(pend: PendingView, catalog: Catalog, lang: str = "en") -> str:
    """``"the bonus of Oak (Take another turn)"`` (the effect's words are card text:
    English for now), in ``lang``."""
    w = server_words(lang)
    params = {"name": name_in(pend.species, catalog, lang),
              "effect": cardtext.describe_effect(step_effect(pend, catalog))}
    if pend.step == "mushroom":
        return w.gettext("the draw of {name} ({effect})", **params)
    if pend.step == "effect":
        return w.gettext("the effect of {name} ({effect})", **params)
    if pend.step == "bonus":
        return w.gettext("the bonus of {name} ({effect})", **params)
    return f"the {pend.step} of {params['name']} ({params['effect']})"


def use_step_words(pend: PendingView, catalog: Catalog, lang: str = "en") -> str:
    """The option's question: ``"Use the bonus of Oak (Take another turn)?"`` (the
    effect's words are card text, the ``cards`` domain's in ``lang``)."""
    w = server_words(lang)
    params = {"name": name_in(pend.species, catalog, lang),
              "effect": cardtext.describe_effect(step_effect(pend, catalog), lang)}
    if pend.step == "mushroom":
        return w.gettext("Use the draw of {name} ({effect})?", **params)
    if pend.step == "effect":
        return w.gettext("Use the effect of {name} ({effect})?", **params)
    if pend.step == "bonus":
        return w.gettext("Use the bonus of {name} ({effect})?", **params)
    return f"Use {step_words(pend, catalog)}?"


def bonus_symbol(pend: PendingView, catalog: Catalog) -> str:
    """The tree symbol every payment card must show for the bonus of the card paid for."""
    card = card_of(pend.card, catalog)
    return symbols_of(pend.card, catalog)[0] if not pend.side else card.halves[pend.side].symbol


def bonus_alive(pend: PendingView, catalog: Catalog) -> bool:
    """Is the bonus of the card being paid for still possible?"""
    sym = bonus_symbol(pend, catalog)
    return all(sym in card_of(c, catalog).symbols for c in pend.paid)


def action_words(action: Action, view: PlayerView, lang: str = "en") -> str:
    """Readable words for one legal action of ``view``'s player (the action menu's line),
    in ``lang``."""
    w = server_words(lang)
    pend = view.pending
    forest = view.forests[view.player]
    cat = view.game.catalog
    kind = action.kind
    card = card_ref(w, action.card, cat) if action.card else ""
    if kind == KEEP:
        return w.gettext("keep this hand")
    if kind == MULLIGAN:
        return w.gettext("mulligan: box this hand and draw 6 new cards")
    if kind == DRAW:
        return w.ngettext("draw from the deck ({n} left)", "draw from the deck ({n} left)",
                          view.deck_size)
    if kind == TAKE:
        return w.gettext("take {card} from the clearing",
                         card=_name_ref(w, label(action.card, cat, lang), action.card, True))
    if kind == PLAY:
        sp = species_of(action.card, action.side, cat)
        free = pend is not None and pend.kind == "free"
        name = _printed(sp, lang)
        if not action.side:
            if free:
                return w.gettext("play {name} (card {id}), for free", name=name, id=action.card)
            return w.gettext("play {name} (card {id}), cost {cost}", name=name, id=action.card,
                             cost=sp.cost)
        params = {"name": name, "id": action.card, "tree": tree_name(forest, action.tree, lang)}
        side = side_word(w, action.side)
        if free:
            return w.gettext("play {name} ({side} half of card {id}) at {tree}, for free",
                             side=side, **params)
        return w.gettext("play {name} ({side} half of card {id}) at {tree}, cost {cost}",
                         side=side, cost=sp.cost, **params)
    if kind == SAPLING:
        return w.gettext("play {card} as a sapling", card=card)
    if kind == PAY:
        facts = pay_facts(view)
        if facts is not None and action.card in facts.keeps_bonus:
            symbol = facts.symbol if lang == "en" else name_in(facts.symbol, cat, lang)
            return w.gettext("pay with {card} - keeps the {symbol} bonus", card=card,
                             symbol=symbol)
        return w.gettext("pay with {card}", card=card)
    if pend is not None and pend.kind == "winter reprieve" and kind in (YES, NO):
        if kind == YES:
            return w.gettext("yes: shuffle the winter card back into the deck ({tree}, once "
                             "per game)", tree=label(pend.card, cat, lang))
        return w.gettext("no: the game ends")
    if kind == YES:
        return (w.gettext("yes: {step}", step=step_words(pend, cat, lang))
                if pend is not None else w.gettext("yes"))
    if kind == NO:
        return w.gettext("no, skip it")
    if kind == CAVE:
        return w.gettext("put {card} under your cave", card=card)
    if kind == CHOOSE:
        return w.gettext("take {cave}", cave=cave_name(action.card, cat, lang))
    if kind == MOOR:
        return w.gettext("put {card} face down as a universal moor", card=card)
    if kind == DISCARD:
        return w.gettext("put {card} into the clearing", card=card)
    if kind == DONE:
        return w.gettext("done")
    return str(action)


def host_word(w: Words, kind: str) -> str:
    """A kind of host (tree, shrub, moor, sapling, universal moor) in ``w``'s language
    (context ``host``); any other word as it is."""
    if kind == "tree":
        return w.pgettext("host", "tree")
    if kind == "shrub":
        return w.pgettext("host", "shrub")
    if kind == "moor":
        return w.pgettext("host", "moor")
    if kind == "sapling":
        return w.pgettext("host", "sapling")
    if kind == "universal moor":
        return w.pgettext("host", "universal moor")
    return kind


def side_word(w: Words, side: str) -> str:
    """A half of a split card (or a moor's slot) in ``w``'s language (context ``side``)."""
    if side == "left":
        return w.pgettext("side", "left")
    if side == "right":
        return w.pgettext("side", "right")
    if side == "top":
        return w.pgettext("side", "top")
    if side == "bottom":
        return w.pgettext("side", "bottom")
    return side


def species_named(name: str, catalog: Catalog) -> Species | None:
    """The species of that name (its key) in ``catalog``, or None."""
    return catalog.species.get(name)


def printed_name(name: str, catalog: Catalog) -> str:
    """What a person reads for a species key (``"Edge Squeaker"`` -> ``"Squeaker"``); any
    other word (a tag) as it is."""
    sp = catalog.species.get(name)
    return name if sp is None else sp.printed


def ask_words(view: PlayerView, lang: str = "en") -> str:
    """What the pending decision of ``view``'s player asks, as one sentence that starts with
    a capital (and never with a name, so a front end may put the player's name before it:
    :func:`pending_words`), in ``lang``."""
    w = server_words(lang)
    cat = view.game.catalog
    pend = view.pending
    if pend is None:
        return w.gettext("The game is over.")
    kind = pend.kind
    if kind == "mulligan":
        return w.gettext("Your opening hand has no tree: keep it, or take a mulligan (6 new "
                         "cards)?")
    if kind == "turn":
        if not view.game.options.get("saplings", True):
            if view.extra_turns:
                return w.gettext("An extra turn: draw 2 cards (deck or clearing) or play a card "
                         "(paying its cost).")
            return w.gettext("Draw 2 cards (deck or clearing) or play a card (paying its cost).")
        if view.extra_turns:
            return w.gettext("An extra turn: draw 2 cards (deck or clearing), play a card "
                             "(paying its cost), or play a sapling.")
        return w.gettext("Draw 2 cards (deck or clearing), play a card (paying its cost), or "
                         "play a sapling.")
    if kind == "draw":
        return w.gettext("Take your second card, from the deck or the clearing.")
    if kind == "pay":
        sp = species_of(pend.card, pend.side, cat)
        params = {"name": name_in(sp.name, cat, lang), "card": pend.card}
        if pend.paid:
            return w.ngettext("Pay for {name} (card {card}) with {n} more card of your hand "
                              "(paid: {paid}).",
                              "Pay for {name} (card {card}) with {n} more cards of your hand "
                              "(paid: {paid}).", pend.need,
                              paid=", ".join(str(c) for c in pend.paid), **params)
        return w.ngettext("Pay for {name} (card {card}) with {n} more card of your hand.",
                          "Pay for {name} (card {card}) with {n} more cards of your hand.",
                          pend.need, **params)
    if kind == "option":
        return use_step_words(pend, cat, lang)
    if kind == "free":
        what = (_a_card(w, pend.species, cat, False) if pend.species
                else w.gettext("a card"))
        if pend.need < 0:
            return w.gettext("Place {card} from your hand for free (any number), or done.",
                             card=what)
        return w.ngettext("Place {card} from your hand for free ({n} left), or done.",
                          "Place {card} from your hand for free ({n} left), or done.",
                          pend.need, card=what)
    if kind == "raccoon":
        # the view's pending holds no cave cards (they are face down); the count is
        # public, in the decision on the stack
        top = view.decisions[-1] if view.decisions else None
        put = len(top.paid) if top is not None and top.kind == kind else len(pend.paid)
        return w.gettext("Put hand cards under your cave (Raccoon), then draw as many; {n} put so "
                 "far. Done to stop.", n=put)
    if kind == "mole":
        return w.gettext("Play further cards (Mole), paying their costs, or done.")
    if kind == "take":
        what = (_a_card(w, pend.species, cat, True) if pend.species else w.gettext("a card"))
        if pend.need > 1:
            return w.ngettext("Take {card} from the clearing into your hand ({n} to take).",
                              "Take {card} from the clearing into your hand ({n} to take).",
                              pend.need, card=what)
        return w.gettext("Take {card} from the clearing into your hand.", card=what)
    if kind == "clearing cave":
        return w.ngettext("Choose {n} more clearing card to put under your cave.",
                          "Choose {n} more clearing cards to put under your cave.", pend.need)
    if kind == "saplings":
        return w.gettext("Play hand cards as saplings for free, one at a time, or done.")
    if kind == "cave draft":
        offer: Sequence[int] = getattr(view, "cave_offer", ())
        if len(offer) == 1:  # the last to choose: no choice, the cave the others left
            return w.gettext("Take your cave, the one the others left: {cave}.",
                     cave=cave_name(offer[0], cat))
        caves = "; ".join(cave_name(n, cat) for n in offer)
        if not caves:
            return w.gettext("Choose your cave.")
        return w.gettext("Choose your cave: {caves}.", caves=caves)
    if kind == "universal moor":
        if pend.need > 1:
            return w.ngettext("Put a hand card face down into your forest as a universal moor "
                              "({n} to put).",
                              "Put a hand card face down into your forest as a universal moor "
                              "({n} to put).", pend.need)
        return w.gettext("Put a hand card face down into your forest as a universal moor.")
    if kind == "discard":
        return w.ngettext("Put {n} card from your hand face up into the clearing.",
                          "Put {n} cards from your hand face up into the clearing.",
                          pend.need)
    if kind == "draw or take":
        return w.gettext("Draw the top card of the deck, or take a card from the clearing.")
    decl = view.game.kinds.get(kind)  # a kind with no words here: its declaration's
    return (w.gettext("Choose: {what}.", what=decl.expected) if decl is not None
            else w.gettext("Decide: {kind}.", kind=kind))


#: What a game is, for the lobby, by how its definition differs from the base game's.
BASE_WORDS = ("Grow a forest of trees and the animals, plants and mushrooms that live at "
              "them.")


def game_words(game: GameDef) -> str:
    """What the lobby says of a game when it is chosen: how many seats, what the game is,
    and for the base game's expansions which cards they shuffle into its deck; a game with
    its own catalog (Dartmoor) says it is a game of its own and names what differs (its
    caves, moors, discard pile), from the definition alone."""
    low, high = game.players[0], game.players[-1]
    seats = f"{low} to {high} seats, each a person or a bot."
    modules = tuple(game.options.get("modules", ()))
    if "base" not in game.catalog.modules:
        own = ["its own deck"]
        if game.catalog.caves:
            own.append("a cave each, chosen in turn from those dealt")
        if any(sp.kind == "moor" for sp in game.catalog.species.values()):
            own.append("moors to grow beside the trees")
        if game.options.get("clearing_to") == "discard":
            own.append("a discard pile instead of the box")
        if not game.options.get("saplings", True):
            own.append("no saplings")
        return (f"{seats} {game.title} is a game of its own: {names_words(own)}. "
                f"{BASE_WORDS}")
    if not modules:
        return f"{seats} {BASE_WORDS}"
    names = [m.replace("_", " ").title() for m in modules]
    verb = "shuffles its" if len(names) == 1 else "shuffle their"
    return f"{seats} {BASE_WORDS} {names_words(names)} {verb} cards into the base deck."


def _title_part(w: Words, part: str) -> str:
    """A part of a game's title (``games/``) in ``w``'s language (context ``game title``):
    an edition's own name where it has one (Mischwald, Forêt Mixte); else as it is."""
    if part == "Forest Shuffle":
        return w.pgettext("game title", "Forest Shuffle")
    if part == "Alpine":
        return w.pgettext("game title", "Alpine")
    if part == "Woodland Edge":
        return w.pgettext("game title", "Woodland Edge")
    if part == "Forest Shuffle: Dartmoor":
        return w.pgettext("game title", "Forest Shuffle: Dartmoor")
    return part


def game_title(game: GameDef, lang: str = "en") -> str:
    """A game's title in ``lang``: each part of ``"Forest Shuffle + Alpine"`` as that
    edition names it; English: the game's own title."""
    if lang == "en":
        return game.title
    w = server_words(lang)
    return " + ".join(_title_part(w, part) for part in game.title.split(" + "))


def cave_name(number: int, catalog: Catalog, lang: str = "en") -> str:
    """``"cave 3 (draw 3 cards, then put 3 hand cards into the clearing)"``: a Dartmoor cave
    with its start effect or end points in words (just ``"cave 3"`` when it has neither;
    the cave's text is card text, English for now); an Exploration cave by its name:
    ``"cave 2, Collectors' Cave (2 points per card)"``. In ``lang``."""
    w = server_words(lang)
    named = catalog.named_caves
    if 0 < number <= len(named):
        cave = named[number - 1]
        what = cave.text.rstrip(".")
        if what and cave.provisional:
            what = w.gettext("{text}; a provisional reading", text=what)
        if what:
            return w.gettext("cave {n}, {name} ({text})", n=number, name=cave.name, text=what)
        return w.gettext("cave {n}, {name}", n=number, name=cave.name)
    for cave in catalog.caves:
        if cave.number == number:
            what = cave.text.rstrip(".")
            if cave.provisional:
                what = w.gettext("{text}; a provisional reading", text=what)
            if what:
                return w.gettext("cave {n} ({text})", n=number, text=what)
    return w.gettext("cave {n}", n=number)


@dataclass(frozen=True, slots=True)
class PayFacts:
    """A pay decision as its player sees it: the bonus at stake, how many cards that keep it
    are needed and held, and which cards keep it.

    The bonus rule (the engine's ``_finish_play``): a card's bonus is earned when every card
    paid for it shows the tree symbol of the half paid for. So it is still possible when
    every card paid so far shows the symbol and the cards that may still pay hold at least
    ``need`` more that show it; then each of those keeps it (any ``need`` of them complete
    it), and no card keeps it otherwise."""

    card: int  # the card being paid for
    side: str  # its half ("" for a tree)
    need: int  # cards still to pay
    paid: tuple[int, ...]
    symbol: str  # the tree symbol every payment card must show for the bonus
    bonus: str | None  # the bonus in words; None if the card has none
    bonus_possible: bool  # it has a bonus, every card paid shows the symbol, enough are held
    payable: tuple[int, ...]  # the hand cards that may be part of this payment, ascending
    keeps_bonus: tuple[int, ...]  # the payable cards that show the symbol (if possible)
    words: str  # the bonus in one sentence for the payer (see bonus_words)
    matching: tuple[int, ...] = ()  # the payable cards that show the symbol (possible or not)
    #: The sentence once a card that does not show the symbol is chosen for this payment
    #: (a front end that keeps the choice until the payment is complete shows it then).
    lost_words: str = ""


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


def symbol_cards_word(n: int, symbol: str, more: bool = False) -> str:
    """``"2 Douglas Fir cards"``, ``"1 more Oak card"``: cards that show a tree symbol."""
    return cards_word(n, f"{'more ' if more else ''}{symbol} card")


def bonus_words(name: str, bonus: str | None, symbol: str, alive: bool, need: int,
                have: int, more: bool, lang: str = "en") -> tuple[str, str]:
    """The bonus at stake in a payment, one sentence, and the sentence once a card without
    the symbol is chosen: ``name`` is the species paid for, ``bonus`` its bonus in words
    (None: it has none), ``alive`` whether every card paid so far shows ``symbol``, ``need``
    the cards still to pay, ``have`` the cards that may pay and show the symbol, ``more``
    whether some are paid already. ``"Bonus (Take another turn) if every card paid shows
    Douglas Fir: you need 2 Douglas Fir cards, you have 1, so it is lost."``. Said in
    ``lang`` (``name`` and ``symbol`` already in its edition's names)."""
    w = server_words(lang)
    if bonus is None:
        none = w.gettext("{name} has no bonus.", name=name)
        return none, none
    lost = w.gettext("No bonus ({bonus}) this time: not every card paid shows {symbol}.",
             bonus=bonus, symbol=symbol)
    if not alive:
        return lost, lost
    params = {"bonus": bonus, "symbol": symbol, "have": have}
    if have < need:
        if more:
            gone = w.ngettext("Bonus ({bonus}) if every card paid shows {symbol}: you need {n} "
                              "more {symbol} card, you have {have}, so it is lost.",
                              "Bonus ({bonus}) if every card paid shows {symbol}: you need {n} "
                              "more {symbol} cards, you have {have}, so it is lost.",
                              need, **params)
        else:
            gone = w.ngettext("Bonus ({bonus}) if every card paid shows {symbol}: you need {n} "
                              "{symbol} card, you have {have}, so it is lost.",
                              "Bonus ({bonus}) if every card paid shows {symbol}: you need {n} "
                              "{symbol} cards, you have {have}, so it is lost.",
                              need, **params)
        return gone, gone
    if more:
        alive_words = w.ngettext("Bonus ({bonus}) if every card paid shows {symbol}: you need "
                                 "{n} more {symbol} card, you have {have}, so it is still "
                                 "possible.",
                                 "Bonus ({bonus}) if every card paid shows {symbol}: you need "
                                 "{n} more {symbol} cards, you have {have}, so it is still "
                                 "possible.", need, **params)
    else:
        alive_words = w.ngettext("Bonus ({bonus}) if every card paid shows {symbol}: you need "
                                 "{n} {symbol} card, you have {have}, so it is still "
                                 "possible.",
                                 "Bonus ({bonus}) if every card paid shows {symbol}: you need "
                                 "{n} {symbol} cards, you have {have}, so it is still "
                                 "possible.", need, **params)
    return alive_words, lost


def pay_facts(view: PlayerView, lang: str = "en") -> PayFacts | None:
    """The facts of ``view``'s player's pay decision; None unless it is one (see
    :class:`PayFacts` for the rule); its words in ``lang``."""
    pend = view.pending
    if pend is None or pend.kind != "pay" or not view.legal_actions:
        return None
    cat = view.game.catalog
    sp = species_of(pend.card, pend.side, cat)
    sym = bonus_symbol(pend, cat)
    alive = bonus_alive(pend, cat)
    payable = payable_cards(view)
    matching = tuple(c for c in payable if sym in card_of(c, cat).symbols)
    possible = sp.bonus is not None and alive and len(matching) >= pend.need
    keeps = matching if possible else ()
    bonus = cardtext.describe_effect(sp.bonus, lang) if sp.bonus is not None else None
    words, lost = bonus_words(name_in(sp.name, cat, lang), bonus, name_in(sym, cat, lang),
                              alive, pend.need, len(matching), bool(pend.paid), lang)
    return PayFacts(pend.card, pend.side, pend.need, tuple(pend.paid), sym, bonus, possible,
                    payable, keeps, words, matching, lost)


def detail_words(view: PlayerView, lang: str = "en") -> str | None:
    """A second line for the pending decision of ``view``'s player, if it has one: during a
    payment the bonus at stake (:attr:`PayFacts.words`), for an effect, bonus or mushroom
    draw offered its full rules text (card text, the ``cards`` domain's). In ``lang``."""
    pend = view.pending
    if pend is None or not view.legal_actions:
        return None
    if pend.kind == "pay":
        facts = pay_facts(view, lang)
        return None if facts is None else facts.words
    if pend.kind == "option":
        sp = species_named(pend.species, view.game.catalog)
        part = "permanent" if pend.step == "mushroom" else pend.step
        text = cardtext.full_text(sp, part, lang) if sp is not None and part else ""
        return text or None
    return None


def pending_words(view: PlayerView, name: str, lang: str = "en") -> str:
    """What the pending decision asks, addressed to ``name``; during a payment with the
    bonus at stake too (the terminal's prompt line). In ``lang`` (German keeps the capital
    a whole sentence takes after a colon)."""
    ask = ask_words(view, lang)
    if view.pending is None:
        return ask
    text = f"{name}: {ask if lang == 'de' else ask[:1].lower() + ask[1:]}"
    facts = pay_facts(view, lang)
    return f"{text} {facts.words}" if facts is not None else text


def public_words(action: Action, pend: PendingView | None, forest: Forest,
                 catalog: Catalog, lang: str = "en", ids: bool = True) -> str:
    """What everyone sees of an action (hidden cards stay hidden); cards are looked up in
    ``catalog`` (the game's). In ``lang``; without ``ids`` no card number is said (the
    log's words for people in a language other than English)."""
    w = server_words(lang)
    kind = action.kind
    cid = action.card
    if kind == KEEP:
        return w.gettext("keeps the opening hand")
    if kind == MULLIGAN:
        return w.gettext("takes a mulligan (6 new cards)")
    if kind == DRAW:
        return w.gettext("draws a card from the deck")
    if kind == TAKE:
        return w.gettext("takes {card} from the clearing",
                         card=_name_ref(w, label(cid, catalog, lang), cid, ids))
    if kind == PLAY:
        sp = species_of(cid, action.side, catalog)
        free = pend is not None and pend.kind == "free"
        card = _name_ref(w, _printed(sp, lang), cid, ids)
        if not action.side:
            return (w.gettext("plays {card} for free", card=card) if free
                    else w.gettext("plays {card}", card=card))
        params = {"card": card, "tree": tree_name(forest, action.tree, lang)}
        side = side_word(w, action.side)
        if free:
            return w.gettext("plays {card} {side} of {tree} for free", side=side, **params)
        return w.gettext("plays {card} {side} of {tree}", side=side, **params)
    if kind == SAPLING:
        return w.gettext("plays a sapling")
    if kind == PAY:
        return w.gettext("pays with {card}", card=card_ref(w, cid, catalog, ids))
    if kind in (YES, NO) and pend is not None and pend.kind == "option":
        step = step_words(pend, catalog, lang)
        return (w.gettext("uses {step}", step=step) if kind == YES
                else w.gettext("skips {step}", step=step))
    if kind in (YES, NO) and pend is not None and pend.kind == "winter reprieve":
        tree = label(pend.card, catalog, lang)
        if kind == YES:
            return w.gettext("shuffles the winter card back into the deck ({tree}, once per "
                             "game)", tree=tree)
        return w.gettext("lets the winter card end the game")
    if kind == CAVE:
        if pend is not None and pend.kind == "clearing cave":  # a clearing card: seen by all
            return w.gettext("puts {card} from the clearing under the cave",
                             card=_name_ref(w, label(cid, catalog, lang), cid, ids))
        return w.gettext("puts a card under the cave")
    if kind == CHOOSE:
        named = catalog.named_caves  # Exploration's caves by name
        if 0 < cid <= len(named):
            return w.gettext("takes the {cave}", cave=named[cid - 1].name)
        return w.gettext("takes cave {n}", n=cid)
    if kind == MOOR:
        return w.gettext("puts a hand card face down as a universal moor")
    if kind == DISCARD:
        return w.gettext("puts {card} into the clearing",
                         card=_name_ref(w, label(cid, catalog, lang), cid, ids))
    if kind == DONE:
        return w.gettext("is done")
    return str(action)


def actor_words(name: str, action: str, lang: str = "en") -> str:
    """A log line of an action: ``"Ann plays Oak (card 12)."`` from the actor's ``name``
    and :func:`public_words` (or :func:`own_words`), in ``lang``."""
    return server_words(lang).gettext("{name} {action}.", name=name, action=action)


def own_words(action: Action, public: str, new: Sequence[int],
              catalog: Catalog, lang: str = "en", ids: bool = True) -> str | None:
    """The actor's own copy of its action line, when it saw more than everyone (the card of
    its sapling or put under its cave, the cards it got): ``public`` is
    :func:`public_words` (in the same ``lang`` and ``ids``), ``new`` the cards that came
    into its hand (not by a take, which everyone saw). None when the actor saw nothing
    more."""
    w = server_words(lang)
    private: str | None = None
    card = card_ref(w, action.card, catalog, ids) if action.card else ""
    if action.kind == SAPLING:
        private = w.gettext("plays {card} as a sapling", card=card)
    elif action.kind == CAVE:
        private = w.gettext("puts {card} under the cave", card=card)
    elif action.kind == MOOR:
        private = w.gettext("puts {card} face down as a universal moor", card=card)
    if new and action.kind != TAKE:
        got = w.pgettext("list", ", ").join(card_ref(w, c, catalog, ids) for c in new)
        private = w.gettext("{action}, gets {cards}", action=private or public, cards=got)
    return private


def new_cards_words(new: Sequence[int], catalog: Catalog, lang: str = "en") -> str:
    """The cards that came into a player's hand, for that player: ``"New in your hand:
    card 12 (Oak), card 40 (Red Fox)."``; in ``lang``."""
    w = server_words(lang)
    return w.gettext("New in your hand: {cards}.", cards=w.pgettext("list", ", ").join(
        card_ref(w, c, catalog) for c in new))


# ---------------------------------------------------------------------------- table events


class Table(Protocol):
    """The public table facts the event words read: a view or a game state."""

    @property
    def winter(self) -> Sequence[int]: ...

    @property
    def clearing(self) -> Sequence[int]: ...


#: The clearing held its limit: every card in it went to the box.
CLEARING_EMPTIED = N_("The clearing was full: its cards went to the box.")
#: The same in a game with a discard pile (Dartmoor).
CLEARING_DISCARDED = N_("The clearing was full: its cards went to the discard pile.")
#: The end of the game (before the winners).
GAME_OVER = N_("The last winter card is out: the game is over.")


def winter_words(revealed: int, to_end: int, lang: str = "en") -> str:
    """``"A winter card is revealed (2/3)."``: ``revealed`` of the ``to_end`` that end the
    game are out; in ``lang``."""
    return server_words(lang).gettext("A winter card is revealed ({revealed}/{to_end}).",
                              revealed=revealed, to_end=to_end)


def offered_op(pend: PendingView | None, catalog: Catalog) -> str:
    """The op of the effect or bonus that ``pend`` offers ("" for any other decision)."""
    if pend is None or not pend.card or pend.step not in ("effect", "bonus"):
        return ""
    card = card_of(pend.card, catalog)
    sp = card.species
    if sp is None:
        half = card.halves.get(pend.side)
        if half is None:
            return ""
        sp = half.species
    eff = sp.effect if pend.step == "effect" else sp.bonus
    return eff.op if eff is not None else ""


def clearing_emptied(action: Action, pend: PendingView | None, before: Table,
                     after: Table, catalog: Catalog) -> bool:
    """Did ``action`` empty a full clearing into the box (not by taking its last card, and
    not by an effect that puts the clearing under its player's cave, as the Brown Bear's)?"""
    to_cave = action.kind == YES and offered_op(pend, catalog) == "clearing_to_cave"
    return bool(before.clearing) and not after.clearing and action.kind != TAKE and not to_cave


def event_words(action: Action, pend: PendingView | None, before: Table, after: Table,
                to_end: int, catalog: Catalog, lang: str = "en") -> list[str]:
    """The table events everyone sees that ``action`` caused, in order, one sentence each:
    a winter card revealed, the clearing emptied. ``pend`` is the decision the action
    answered (the actor's view of it), ``before``/``after`` the table around it and
    ``to_end`` the number of winter cards that end the game. The end itself is
    :func:`end_words`. In ``lang``."""
    w = server_words(lang)
    out: list[str] = []
    if len(after.winter) > len(before.winter):
        out.append(winter_words(len(after.winter), to_end, lang))
    if clearing_emptied(action, pend, before, after, catalog):
        discarded = len(getattr(after, "discard", ())) > len(getattr(before, "discard", ()))
        out.append(w(CLEARING_DISCARDED if discarded else CLEARING_EMPTIED))
    return out


def names_words(names: Sequence[str], lang: str = "en") -> str:
    """``"Ann"``, ``"Ann and Bob"``, ``"Ann, Bob and Cy"`` (joined as ``lang`` joins a
    list: "Ann et Bob", "Ann und Bob", "Ann和Bob")."""
    if len(names) <= 1:
        return "".join(names)
    w = server_words(lang)
    return w.gettext("{first} and {last}", first=w.pgettext("list", ", ").join(names[:-1]),
             last=names[-1])


def winners_words(names: Sequence[str], totals: Sequence[int], lang: str = "en") -> str:
    """``"Winner: Ann with 52 points."``, or ``"Tie: Ann and Bob share the victory with 48
    points."`` (``totals`` by seat), in ``lang``."""
    w = server_words(lang)
    won = scoring.winners(totals)
    if not won:
        return w.gettext("No winner.")
    best = totals[won[0]]
    if len(won) == 1:
        return w.ngettext("Winner: {name} with {n} points.", "Winner: {name} with {n} points.",
                          best, name=names[won[0]])
    return w.ngettext("Tie: {names} share the victory with {n} points.",
                      "Tie: {names} share the victory with {n} points.", best,
                      names=names_words([names[i] for i in won], lang))


def end_words(names: Sequence[str], totals: Sequence[int], lang: str = "en") -> list[str]:
    """The end of the game, one sentence each: it is over, and who won; in ``lang``."""
    return [server_words(lang)(GAME_OVER), winners_words(names, totals, lang)]


def opening_words(names: Sequence[str], lang: str = "en") -> str:
    """``"A game of 3: Ann, Bob, Cy."``, in ``lang``."""
    w = server_words(lang)
    return w.ngettext("A game of {n}: {names}.", "A game of {n}: {names}.", len(names),
                      names=w.pgettext("list", ", ").join(names))


def turn_words(turn: int, name: str, lang: str = "en") -> str:
    """``"Turn 4: Ann."``: the log's line when a turn begins. ``turn`` is the table's count
    (every player's turns and extra turns counted, ``GameState.turn``), the one count the
    log, the page's status bar and the terminal say. In ``lang``."""
    return server_words(lang).gettext("{label}.", label=turn_label(turn, name, lang))


def turn_label(turn: int, name: str, lang: str = "en") -> str:
    """``"Turn 4: Ann"``, ``"Turn 4: you"`` (the status bar: the table's turn count and
    whose turn it is, as the log says it); ``"Opening hands"`` before the first turn; an
    empty ``name`` (the game is over) leaves it out: ``"Turn 4"``. In ``lang``."""
    w = server_words(lang)
    if turn <= 0:
        return w.gettext("Opening hands")
    if not name:
        return w.gettext("Turn {turn}", turn=turn)
    return w.gettext("Turn {turn}: {name}", turn=turn, name=name)


# ---------------------------------------------------------------------------- the terminal's
# own words: the actor's echo, addressed reasons, skipped steps, payments, hints

#: Third-person verbs of :func:`public_words` and :func:`own_words` and their "you" form.
_YOU_VERBS: dict[str, str] = {
    "keeps": "keep", "takes": "take", "draws": "draw", "plays": "play", "pays": "pay",
    "uses": "use", "skips": "skip", "puts": "put", "is": "are", "gets": "get",
}


def _to_you(words: str) -> str:
    """``"plays Oak, gets card 3"`` addressed to its actor: ``"play Oak, get card 3"``."""
    verb, space, rest = words.partition(" ")
    return f"{_YOU_VERBS.get(verb, verb)}{space}{rest.replace(', gets ', ', get ')}"


def you_words(action: Action, pend: PendingView | None, forest: Forest,
              catalog: Catalog) -> str:
    """The actor's echo of its own action, addressed to it, without a full stop: ``"You
    play Oak (card 12)"``, ``"You play card 34 (Oak) as a sapling"`` (the actor saw its
    own sapling and cave cards). ``pend`` is the decision the action answered, ``forest``
    the actor's forest before it."""
    public = public_words(action, pend, forest, catalog)
    return "You " + _to_you(own_words(action, public, (), catalog) or public)


def pay_more_words(public: str) -> str:
    """A payment added to the actor's echo of its play: ``"pays with card 41 (Oak)"`` as
    ``"pay with card 41 (Oak)"``."""
    return _to_you(public)


def reason_words(reason: str, player: int) -> str:
    """An engine reason (:attr:`IllegalActionError.reason`) addressed to ``player``
    (0-based), who tried the action: ``"card 72 is not in player 1's hand"`` becomes
    ``"card 72 is not in your hand"``."""
    me = f"player {player + 1}"
    return (reason.replace(f"{me}'s hand", "your hand").replace(f"{me} must", "you must")
            .replace(f"{me} holds", "you hold"))


#: The engine's refusals that name the player who tried the action, addressed to it.
_TO_YOU: dict[str, str] = {
    "card {card} is not in player {player}'s hand": N_("card {card} is not in your hand"),
    "player {player} holds {limit} cards and may not draw (the hand limit is {limit})":
        N_("you hold {limit} cards and may not draw (the hand limit is {limit})"),
    "player {player} must choose: {expected}; {rule}":
        N_("you must choose: {expected}; {rule}"),
}


def refusal_words(reason: str, catalog: Catalog, lang: str = "en",
                  player: int | None = None) -> str:
    """An engine reason (:attr:`IllegalActionError.reason`, a
    :class:`~forest_shuffle.engine.refusals.Refusal`) in ``lang``, by its rule: the
    ``server`` catalog's message, its values in that language too (a species as printed in
    its edition, a host or a tag, the words of a decision kind). ``player`` (0-based, who
    tried it): addressed to it, as :func:`reason_words`. English: the reason itself, byte
    for byte (addressed by :func:`reason_words`); a reason with no rule stays English."""
    if lang == "en":
        return reason if player is None else reason_words(reason, player)
    rule = getattr(reason, "rule", None)
    if rule is None:
        return reason
    params: dict[str, object] = dict(getattr(reason, "params", {}))
    if player is not None and params.get("player") == player + 1 and rule in _TO_YOU:
        rule = _TO_YOU[rule]
    w = server_words(lang)
    printed = {sp.printed: sp for sp in catalog.species.values()}
    said = {key: _value_words(value, catalog, printed, w, player)
            for key, value in params.items()}
    return w.gettext(rule, **said)


def _value_words(value: object, catalog: Catalog, printed: Mapping[str, Species], w: Words,
                 player: int | None) -> object:
    """A refusal's placeholder value in ``w``'s language: a nested refusal by its rule, a
    word with its English article by its bare word, a species by its printed name, a
    message of the catalog (a kind's words, a side) by its translation; numbers as they are."""
    if not isinstance(value, str):
        return value
    if hasattr(value, "rule"):
        return refusal_words(value, catalog, w.lang, player)
    word = getattr(value, "word", value)
    sp = catalog.species.get(word) or printed.get(word)
    if sp is not None:
        return _printed(sp, w.lang)
    if word in ("left", "right", "top", "bottom"):
        return side_word(w, word)
    host = host_word(w, word)
    return host if host != word or w.lang == "en" else w.gettext(word)


def extra_turn_words(name: str, you: bool) -> str:
    """``"You take an extra turn."`` or ``"Ann takes an extra turn."``."""
    return "You take an extra turn." if you else f"{name} takes an extra turn."


#: Why a step could change nothing, by the op of its effect (the engine skips such a
#: step unasked).
_SKIP_WHY: dict[str, str] = {
    "free_play": "nothing in your hand can be placed",
    "free_play_any": "nothing in your hand can be placed",
    "free_play_each": "nothing in your hand can be placed",
    "play_any_number_paying": "nothing in your hand can be played and paid for",
    "saplings_any": "your hand is empty",
    "hand_to_cave_redraw": "your hand is empty",
    "clearing_to_cave": "the clearing has no card for it",
    "clearing_removed": "the clearing is empty",
    "clearing_to_hand": "the clearing has no card for it, or your hand is full",
    "take_from_clearing": "the clearing is empty, or your hand is full",
    "extra_turn": "your forest has no card it needs",
}


def skipped_words(step: str, species: str, catalog: Catalog) -> str:
    """A step the engine skipped for the actor because it could change nothing: ``"The
    bonus of Oak (...) is skipped: nothing in your hand can be placed."``. ``step`` is
    ``effect``, ``bonus`` or ``mushroom``."""
    pend = PendingView("option", 0, step=step, species=species)
    eff = step_effect(pend, catalog)
    op = eff.op if eff is not None else ""
    why = ("your hand is full or there is nothing to draw" if op.startswith("draw")
           else _SKIP_WHY.get(op, "it could change nothing now"))
    text = step_words(pend, catalog)
    return f"{text[:1].upper()}{text[1:]} is skipped: {why}."


def pay_how_words(need: int, payable: Sequence[int]) -> str:
    """How to answer a payment in the terminal: any order, one card at a time or all on
    one line (``payable``: the cards that may be part of it)."""
    example = " ".join(str(c) for c in sorted(payable)[:max(1, need)])
    one = sorted(payable)[0] if payable else 0
    if need <= 1:
        return f"Choose the card by its number in the list or write pay {one}."
    return (f"Choose the {need} cards in any order: one at a time (a number of the list, or "
            f"pay {one}) or all on one line (pay {example}); undo takes back the last one "
            "chosen.")


def chosen_words(chosen: Sequence[int], catalog: Catalog) -> str:
    """The cards chosen so far for a payment, not yet paid: ``"Chosen so far: card 41
    (Oak)."``."""
    return ("Chosen so far: " + ", ".join(f"card {c} ({label(c, catalog)})" for c in chosen)
            + ".")


#: What the cards of a choice of a set are for, and the start of its confirmation, by the
#: kind of the actions that take them (``engine/picks.py``).
PICK_PURPOSE: dict[str, tuple[str, str]] = {
    PAY: ("to pay with", "Pay with"),
    CAVE: ("to put under your cave", "Put under your cave:"),
    DISCARD: ("to put face up into the clearing", "Put into the clearing:"),
}


def pick_words(shape: PickShape, lang: str = "en") -> str:
    """How to make a choice of a set, one sentence: how many cards and where from, what
    they are for, any order, and that a pick can be taken back until the choice is
    confirmed (``"Pick up to 5 cards of your hand to put under your cave, in any order
    (then you draw as many); ..."``), in ``lang`` (a choice no whole sentence is written
    for, English)."""
    said = _pick_sentence(shape, server_words(lang))
    if said is not None:
        return said
    where = "of your hand" if shape.source == HAND else "of the clearing"
    purpose = PICK_PURPOSE.get(shape.verb, (f"({shape.verb})", ""))[0]
    if shape.least == shape.most:
        many = cards_word(shape.most, "card")
    elif shape.least == 0:
        many = f"up to {cards_word(shape.most, 'card')}"
    else:
        many = f"{shape.least} to {cards_word(shape.most, 'card')}"
    then = " (then you draw as many)" if shape.kind == "raccoon" else ""
    return (f"Pick {many} {where} {purpose}, in any order{then}; a pick can be taken back "
            "until you confirm.")


def _pick_sentence(shape: PickShape, w: Words) -> str | None:
    """:func:`pick_words` as one whole message of the ``server`` catalog for the choices
    the games ask (a payment, the Raccoon's cave, clearing cards for the cave, Dartmoor's
    discards), each for exactly ``n``, up to ``n`` and ``least`` to ``n`` cards; None for
    another one."""
    n, least = shape.most, shape.least
    exact, upto = least == n, least == 0
    if shape.verb == PAY and shape.source == HAND:
        if exact:
            return w.ngettext("Pick {n} card of your hand to pay with, in any order; a pick "
                              "can be taken back until you confirm.",
                              "Pick {n} cards of your hand to pay with, in any order; a pick "
                              "can be taken back until you confirm.", n)
        if upto:
            return w.ngettext("Pick up to {n} card of your hand to pay with, in any order; a "
                              "pick can be taken back until you confirm.",
                              "Pick up to {n} cards of your hand to pay with, in any order; "
                              "a pick can be taken back until you confirm.", n)
        return w.ngettext("Pick {least} to {n} card of your hand to pay with, in any order; a "
                          "pick can be taken back until you confirm.",
                          "Pick {least} to {n} cards of your hand to pay with, in any order; "
                          "a pick can be taken back until you confirm.", n, least=least)
    if shape.verb == CAVE and shape.source == HAND and shape.kind == "raccoon":
        if exact:
            return w.ngettext("Pick {n} card of your hand to put under your cave, in any order "
                              "(then you draw as many); a pick can be taken back until you "
                              "confirm.",
                              "Pick {n} cards of your hand to put under your cave, in any "
                              "order (then you draw as many); a pick can be taken back until "
                              "you confirm.", n)
        if upto:
            return w.ngettext("Pick up to {n} card of your hand to put under your cave, in any "
                              "order (then you draw as many); a pick can be taken back until "
                              "you confirm.",
                              "Pick up to {n} cards of your hand to put under your cave, in "
                              "any order (then you draw as many); a pick can be taken back "
                              "until you confirm.", n)
        return w.ngettext("Pick {least} to {n} card of your hand to put under your cave, in "
                          "any order (then you draw as many); a pick can be taken back until "
                          "you confirm.",
                          "Pick {least} to {n} cards of your hand to put under your cave, in "
                          "any order (then you draw as many); a pick can be taken back until "
                          "you confirm.", n, least=least)
    if shape.verb == CAVE and shape.source != HAND and shape.kind != "raccoon":
        if exact:
            return w.ngettext("Pick {n} card of the clearing to put under your cave, in any "
                              "order; a pick can be taken back until you confirm.",
                              "Pick {n} cards of the clearing to put under your cave, in any "
                              "order; a pick can be taken back until you confirm.", n)
        if upto:
            return w.ngettext("Pick up to {n} card of the clearing to put under your cave, in "
                              "any order; a pick can be taken back until you confirm.",
                              "Pick up to {n} cards of the clearing to put under your cave, "
                              "in any order; a pick can be taken back until you confirm.", n)
        return w.ngettext("Pick {least} to {n} card of the clearing to put under your cave, in "
                          "any order; a pick can be taken back until you confirm.",
                          "Pick {least} to {n} cards of the clearing to put under your cave, "
                          "in any order; a pick can be taken back until you confirm.", n,
                          least=least)
    if shape.verb == DISCARD and shape.source == HAND:
        if exact:
            return w.ngettext("Pick {n} card of your hand to put face up into the clearing, in "
                              "any order; a pick can be taken back until you confirm.",
                              "Pick {n} cards of your hand to put face up into the clearing, "
                              "in any order; a pick can be taken back until you confirm.", n)
        if upto:
            return w.ngettext("Pick up to {n} card of your hand to put face up into the "
                              "clearing, in any order; a pick can be taken back until you "
                              "confirm.",
                              "Pick up to {n} cards of your hand to put face up into the "
                              "clearing, in any order; a pick can be taken back until you "
                              "confirm.", n)
        return w.ngettext("Pick {least} to {n} card of your hand to put face up into the "
                          "clearing, in any order; a pick can be taken back until you confirm.",
                          "Pick {least} to {n} cards of your hand to put face up into the "
                          "clearing, in any order; a pick can be taken back until you confirm.",
                          n, least=least)
    return None


def pick_how_words(shape: PickShape, chosen: Sequence[int]) -> str:
    """How to answer a choice of several cards in the terminal: numbers of the list or the
    action word with several ids, in any order; undo; done to confirm."""
    left = [c for c in shape.cards if c not in chosen]
    example = " ".join(str(c) for c in left[:max(1, min(2, shape.most))]) or "41"
    confirm = pick_confirm_words(shape)[min(len(chosen), shape.most)]
    n = len(chosen)
    ready = (f"done confirms ({confirm})" if shape.least <= n <= shape.most
             else f"done confirms with {cards_word(shape.least, 'card')} chosen")
    return (f"Choose in any order: a number of the list, or {shape.verb} {example} on one "
            f"line; undo takes back the last card chosen (undo ID that card); {ready}.")


def pick_confirm_words(shape: PickShape, lang: str = "en") -> list[str]:
    """The confirmation of a choice of a set for each number of cards picked (item n: n
    cards): ``"Put under your cave: 2 cards"``, ``"Put no card under your cave"``; in
    ``lang`` (another verb than pay, cave and discard: English)."""
    w = server_words(lang)
    start = PICK_PURPOSE.get(shape.verb, ("", shape.verb.capitalize() + ":"))[1]
    out = []
    for n in range(shape.most + 1):
        if n == 0 and shape.ends_with_done:
            out.append(w.gettext("Done: no card"))
        elif shape.verb == PAY:
            out.append(w.gettext("Pay with no card") if n == 0 else
                       w.ngettext("Pay with {n} card", "Pay with {n} cards", n))
        elif shape.verb == CAVE:
            out.append(w.gettext("Put under your cave: no card") if n == 0 else
                       w.ngettext("Put under your cave: {n} card",
                                  "Put under your cave: {n} cards", n))
        elif shape.verb == DISCARD:
            out.append(w.gettext("Put into the clearing: no card") if n == 0 else
                       w.ngettext("Put into the clearing: {n} card",
                                  "Put into the clearing: {n} cards", n))
        elif n == 0:
            out.append(f"{start} no card")
        else:
            out.append(f"{start} {cards_word(n, 'card')}")
    return out


def card_heading(card_id: int, catalog: Catalog) -> str:
    """The one-line summary of a card for players, without the printed code: ``"Card 81:
    Red Deer (left, Linden) | Brown Bear (right, Beech)"``."""
    summary = cardtext.card_summary(card_id, catalog)
    return f"Card {card_id}: {summary.partition(': ')[2]}"


def points_words(points: float) -> str:
    """``"about 4 points"``, ``"about 1 point"``, ``"less than a point"``."""
    n = round(abs(points))
    if n == 0:
        return "less than a point"
    return f"about {cards_word(n, 'point')}"


def hint_words(action: str | None, payment: Sequence[int], bonus: str | None,
               bonus_kept: bool | None, lead: float | None, margin: float | None,
               runner_up: str | None, samples: int, catalog: Catalog) -> str:
    """The coach's advice in words: the action (:func:`action_words`), the cards it
    would pay with, whether that keeps the bonus (``bonus``: its words, None if the card
    has none; ``bonus_kept``: None when no payment), and the search's reason: ``lead``
    the points it expects to stand ahead of the best rival (negative: behind), ``margin``
    the points it expects over ``runner_up`` (the next best action), over ``samples``
    sampled playouts (0: the only legal choice; ``lead`` None with samples: too few to
    compare moves, the search's quick pick). ``action``
    None: the advice is the payment at hand."""
    cards = names_words([f"card {c} ({label(c, catalog)})" for c in payment])
    if action is None:
        text = f"Hint: pay with {cards}."
    else:
        text = f"Hint: {action}" + (f", paying with {cards}" if payment else "") + "."
    if bonus is not None and bonus_kept is not None:
        text += (f" That keeps the bonus ({bonus})." if bonus_kept
                 else f" That gives up the bonus ({bonus}).")
    if lead is not None and samples:
        where = "ahead of" if lead >= 0 else "behind"
        text += (f" The search ({cards_word(samples, 'sampled playout')}) expects it to "
                 f"leave you {points_words(lead)} {where} the best rival")
        if margin is not None and runner_up is not None:
            text += f", {points_words(margin)} better than the next best: {runner_up}"
        text += "."
    elif not samples:
        text += " It is the only choice."
    else:
        text += " (The search had too little time to compare moves: this is its quick pick.)"
    return text


#: What ``hint`` answers in a game whose seats agreed to play without help.
NO_HINTS = "Hints are off in this game (the seats agreed to play without help)."


def type_words(number: int | None, payment: Sequence[int] = ()) -> str:
    """What to type to follow a hint in the terminal: ``"Type 7."`` (the action's number),
    ``"Type 7, then pay 3 149."`` (a play and its payment), ``"Type pay 3 149."`` (a
    payment of several cards at hand, ``number`` None)."""
    pay = f"pay {' '.join(str(c) for c in payment)}" if payment else ""
    if number is None:
        return f"Type {pay}." if pay else ""
    return f"Type {number}, then {pay}." if pay else f"Type {number}."


def saved_words(path: str) -> str:
    """``"Game saved to game.json; resume it with: forest-shuffle play --resume
    game.json"``."""
    return f"Game saved to {path}; resume it with: forest-shuffle play --resume {path}"


# ---------------------------------------------------------------------------- the others'
# turns in short (the page sums them up when the viewer's turn begins)


def revealed_cards(clearing_before: Sequence[int], actor_hand_before: Sequence[int],
                   clearing_after: Sequence[int]) -> list[int]:
    """The cards that came into the clearing from the deck during an action (the card a
    tree turns over): neither in the clearing before nor from the actor's hand (its payment,
    which its own line names). The one rule for the terminal and the server."""
    came = set(clearing_before) | set(actor_hand_before)
    return [c for c in clearing_after if c not in came]


def revealed_words(cards: Sequence[int], catalog: Catalog, lang: str = "en",
                   ids: bool = True) -> str:
    """A table event everyone sees: cards that came from the deck into the clearing (the
    card a tree turns over): ``"The top card of the deck goes into the clearing: card 88
    (Hedgehog)."``; in ``lang`` (without ``ids``: no card number)."""
    w = server_words(lang)
    named = names_words([card_ref(w, c, catalog, ids) for c in cards], lang)
    if len(cards) == 1:
        return w.gettext("The top card of the deck goes into the clearing: {cards}.",
                         cards=named)
    return w.gettext("Cards of the deck go into the clearing: {cards}.", cards=named)


def brief_words(action: Action, pend: PendingView | None, forest: Forest,
                catalog: Catalog) -> str | None:
    """What everyone saw of an action in short and in the past, for a summary of a turn
    (``"played Wolf left of tree 3"``, ``"took Hedgehog from the clearing"``); None for an
    action not worth a summary's words (a payment card, a skipped option, done). No card
    id and no hidden card."""
    kind = action.kind
    if kind == DRAW:
        return "drew a card"
    if kind == TAKE:
        return f"took {label(action.card, catalog)} from the clearing"
    if kind == PLAY:
        sp = species_of(action.card, action.side, catalog)
        free = " for free" if pend is not None and pend.kind == "free" else ""
        if not action.side:
            return f"played {sp.printed}{free}"
        return f"played {sp.printed} {action.side} of {tree_name(forest, action.tree)}{free}"
    if kind == SAPLING:
        return "played a sapling"
    if kind == YES and pend is not None and pend.kind == "option":
        return f"used {step_words(pend, catalog)}"
    if kind == CAVE:
        if pend is not None and pend.kind == "clearing cave":
            return f"put {label(action.card, catalog)} from the clearing under the cave"
        return "put a card under the cave"
    if kind == CHOOSE:
        named = catalog.named_caves  # Exploration's caves by name
        if 0 < action.card <= len(named):
            return f"took the {named[action.card - 1].name}"
        return f"took cave {action.card}"
    if kind == MOOR:
        return "put a hand card face down as a universal moor"
    if kind == DISCARD:
        return f"put {label(action.card, catalog)} into the clearing"
    if kind == MULLIGAN:
        return "took a mulligan"
    return None


_FROM_CLEARING = " from the clearing"


def turn_summary(name: str, briefs: Sequence[str]) -> str | None:
    """One sentence for what a player did while the viewer waited, from its actions'
    :func:`brief_words` in order (repeated draws counted): ``"Bot 2 played Wolf left of
    tree 3 and took Hedgehog from the clearing."``; None if it did nothing worth saying."""
    merged: list[str] = []
    draws = 0
    taken: list[str] = []  # cards taken from the clearing one after the other

    def flush() -> None:
        nonlocal draws
        if draws:
            merged.append("drew a card" if draws == 1 else f"drew {cards_word(draws)}")
            draws = 0
        if taken:
            merged.append(f"took {names_words(taken)} from the clearing")
            taken.clear()

    for brief in briefs:
        if brief == "drew a card":
            if taken:
                flush()
            draws += 1
        elif brief.startswith("took ") and brief.endswith(_FROM_CLEARING):
            if draws:
                flush()
            taken.append(brief[len("took "):-len(_FROM_CLEARING)])
        else:
            flush()
            merged.append(brief)
    flush()
    if not merged:
        return None
    return f"{name} {names_words(merged)}."


# ---------------------------------------------------------------------------- Dartmoor solo

#: The automa's name in words (solo.json names her too: ``setup.automa_name``).
ANNA = "Anna"


def automa_name(options: Mapping[str, Any]) -> str:
    """The automa's name in a solo game of these game options (``GameDef.options``: the
    solo data's name), :data:`ANNA` without one."""
    return str(options.get("automa", ANNA))


class SoloTable(Table, Protocol):
    """The public table of a solo game: a view or a solo game state."""

    @property
    def discard(self) -> Sequence[int]: ...


@dataclass(frozen=True, slots=True)
class BeforeAnna:
    """The public table between the player's part of an action and Anna's turn."""

    clearing: tuple[int, ...]
    winter: tuple[int, ...]
    discard: tuple[int, ...]


def anna_turn(before: Mapping[str, Any], after: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """Anna's turn taken between two solo facts (a view's ``solo``, or a solo state's
    ``to_dict()["solo"]``): ``after["anna_last"]``, or None when she took none (or the
    game is no solo game: empty facts)."""
    if not before or not after or after["anna_turns"] <= before["anna_turns"]:
        return None
    last: Mapping[str, Any] | None = after["anna_last"]
    return last


def before_anna(before: SoloTable, after: SoloTable, last: Mapping[str, Any]) -> BeforeAnna:
    """The table as the player's part of an action left it, from the tables ``before`` and
    ``after`` the action and Anna's turn ``last`` inside it (:func:`anna_turn`): the cards
    she removed put back at their end of the clearing and taken off the discard pile, her
    added cards taken off its right end, the winter card she may have revealed not yet
    out. A clearing she filled went to the discard pile after her turn: it is the pile's
    newest cards (after those she removed); the player's part did not empty the clearing
    then (she adds at most a few cards). The one copy of this rule: the server's log and
    the terminal both read it, so the player's events are told from this table and the
    rest in her line (:func:`anna_lines`)."""
    added, removed = list(last["added"]), list(last["removed"])
    discard = list(after.discard)
    if last["cleared"]:
        old = set(before.discard)
        new = [c for c in discard if c not in old]
        if removed and removed[-1] in new:
            new = new[new.index(removed[-1]) + 1:]
        kept = new  # her clearing after her removal
    else:
        kept = list(after.clearing)
        if removed:
            discard = discard[:len(discard) - len(removed)]
    full = removed + kept if last["side"] == "left" else kept + removed
    gone = set(added)
    return BeforeAnna(tuple(c for c in full if c not in gone), tuple(before.winter),
                      tuple(discard))


def anna_lines(before: Table, after: Table, last: Mapping[str, Any], catalog: Catalog,
               name: str, to_end: int) -> list[str]:
    """Anna's turn ``last`` inside the action from ``before`` to ``after`` in words: her
    line (:func:`anna_words`), then the winter card she revealed (``to_end``: the winter
    cards that end the game)."""
    out = [anna_words(last, catalog, name)]
    if len(after.winter) > len(before.winter):
        out.append(winter_words(len(after.winter), to_end))
    return out


def anna_words(last: Mapping[str, Any], catalog: Catalog,
               name: str = ANNA) -> str:
    """Anna's turn in one sentence, from a view's ``solo["anna_last"]``: what she added to
    the clearing, removed from it (and from which end), how many deck cards she burnt, and
    the clearing going to the discard pile after her turn."""
    parts: list[str] = []
    added = [label(c, catalog) for c in last["added"]]
    removed = [label(c, catalog) for c in last["removed"]]
    side = last["side"]
    if added:
        parts.append(f"added {names_words(added)} to the right end of the clearing")
    if removed:
        parts.append(f"removed {names_words(removed)} from its {side} end to the discard pile")
    elif side:
        parts.append(f"found nothing to remove at the clearing's {side} end")
    if last["burnt"]:
        parts.append(f"burnt {cards_word(last['burnt'])} from the top of the deck, face down")
    words = f"{name} {names_words(parts) if parts else 'did nothing'}."
    if last["cleared"]:
        words += " " + CLEARING_DISCARDED
    return words


def anna_status_words(solo: Mapping[str, Any], name: str = ANNA) -> str:
    """``"Anna has 12 automa cards left (8 shown since the last shuffle)."``"""
    left = solo["automa_left"]
    shown = len(solo["automa_shown"])
    words = f"{name} has {cards_word(left, 'automa card')} left"
    if solo["cycles"]:
        words += f" ({shown} shown since the last shuffle)"
    return words + "."


def medal_words(thresholds: Mapping[str, int]) -> str:
    """``"bronze 200, silver 250, gold 300 points"``."""
    return ", ".join(f"{m} {p}" for m, p in thresholds.items()) + " points"


def challenge_words(number: int, title: str, thresholds: Mapping[str, int],
                    medal: str = "") -> str:
    """The challenge and its medals in one sentence (``medal``: the one played for)."""
    words = f"Solo challenge {number}: {title}; medals at {medal_words(thresholds)}"
    if medal:
        words += f"; you play for {medal} ({thresholds[medal]} points)"
    return words + "."


def solo_result_words(result: SoloResult, medal: str = "") -> list[str]:
    """The end of a solo game, one sentence each: the goal (progress, met or not), the
    score, the medal reached, and whether ``medal`` (the one played for) is won."""
    met = "met" if result.goal_met else "not met"
    out = [f"Goal of challenge {result.challenge}, {result.title}: {result.have} of "
           f"{result.need}, {met}.", f"Score: {result.score} points."]
    if result.medal:
        out.append(f"Medal: {result.medal}.")
    elif not result.goal_met:
        out.append("No medal: the goal is not met.")
    else:
        low = next(iter(result.thresholds))
        out.append(f"No medal: {low} needs {result.thresholds[low]} points.")
    if medal:
        out.append(f"You won the {medal} medal." if result.reached(medal)
                   else f"You did not win the {medal} medal.")
    return out
