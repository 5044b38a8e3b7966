"""Dartmoor in the terminal: moors drawn sideways, universal moors, caves, the discard pile
and the marks of the provisional deck.

Contract: pure drawing helpers for :mod:`forest_shuffle.terminal.line` (no input, no game
state): each takes what a :class:`~forest_shuffle.engine.view.PlayerView` shows and returns
rich text. A moor is a card lying sideways: two slots above it, two below, none at its
sides; the slots a side fills are the model's (:meth:`Host.slots_used`), so the drawing
shows the cards of a side and one ``·`` per free slot. A universal moor lies face down: its
owner's view holds its card id (drawn with the card), everyone else's none. A card of a
provisional deck whose facts are partly assumed (:attr:`Card.assumed`) carries
:data:`MARK`, and the screen says once what the mark means.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.table import Table
from rich.text import Text

from forest_shuffle.cards.forest import Forest, Host
from forest_shuffle.cards.model import Card, Catalog
from forest_shuffle.engine.view import PlayerView
from forest_shuffle.terminal.words import N_, _, ngettext
from forest_shuffle.text import cardtext
from forest_shuffle.text.narration import label

#: The mark of a card whose facts are partly assumed (a provisional deck).
MARK = "*"
#: The sides of a moor that have slots (a moor lies sideways: two slots above, two below).
MOOR_SIDES: tuple[str, ...] = ("top", "bottom")
ARROWS: dict[str, str] = {"top": "↑", "bottom": "↓"}
#: The facts a provisional card may assume (:data:`forest_shuffle.cards.model.ASSUMED`) in
#: words.
ASSUMED_WORDS: dict[str, str] = {
    "pairing": N_("which two species share the card"),
    "sides": N_("which half is the left one"),
    "bottom half": N_("the species of the bottom half"),
    "symbol": N_("its tree symbol"),
    "top symbol": N_("the top half's tree symbol"),
    "bottom symbol": N_("the bottom half's tree symbol"),
    "left symbol": N_("the left half's tree symbol"),
    "right symbol": N_("the right half's tree symbol"),
}


def is_dartmoor(view: PlayerView) -> bool:
    """A game with Dartmoor's table (caves, a discard pile): its views carry a setup step."""
    return view.setup >= 0


def mark(cid: int, catalog: Catalog) -> str:
    """:data:`MARK` for a card with assumed facts, else ``""`` (also for an unknown id)."""
    try:
        return MARK if catalog.card(cid).assumed else ""
    except KeyError:
        return ""


def marked(cid: int, catalog: Catalog) -> str:
    """A card id with its mark: ``"98*"`` or ``"12"``."""
    return f"{cid}{mark(cid, catalog)}"


def assumed_words(card: Card) -> str:
    """What a provisional card assumes, in words (``""`` for a card as printed)."""
    return ", ".join(_(ASSUMED_WORDS[a]) if a in ASSUMED_WORDS else a for a in card.assumed)


def mark_note(cards: Iterable[int], catalog: Catalog) -> Text | None:
    """The one line that explains :data:`MARK` when any of ``cards`` carries it."""
    if not any(mark(c, catalog) for c in cards):
        return None
    return Text(_("{mark} a card of the provisional deck: some of its facts (its pairing, "
                  "sides or tree symbols) are assumed; card ID says which.", mark=MARK),
                style="dim")


def short_label(cid: int, catalog: Catalog) -> str:
    """A card by the short names of its species: ``"Pheasant/Black Rabbit"``."""
    card = catalog.card(cid)
    shown = [card.species] if card.species is not None else [
        h.species for h in card.halves.values()]
    return "/".join(sp.short_name or sp.printed for sp in shown) if shown else label(cid, catalog)


def moor_host_text(site: Host, catalog: Catalog) -> Text:
    """A moor in the forest: its name in the colour of its tree symbol with ``(moor)``; a
    universal moor face down, its card first for the owner (whose view holds the id)."""
    if site.species is None:
        if site.card is None:
            return Text("face down (universal moor)", style="italic")
        out = Text(f"{marked(site.card, catalog)} {short_label(site.card, catalog)}",
                   style="italic")
        return out.append(", face down (universal moor)", style="dim italic")
    name = site.species.short_name or site.species.printed
    out = Text(name, style=cardtext.SYMBOL_STYLES.get(site.symbol, ""))
    return out.append(" (moor)", style="dim italic")


def moor_side_text(site: Host, side: str) -> Text:
    """The cards on one side of a moor, then one ``·`` per free slot (the model counts the
    slots the cards fill: dragonflies above Water Soldiers share one)."""
    out = Text(ARROWS[side], style="dim")
    names = [d.species.short_name or d.species.printed for d in site.slots[side]]
    out.append(" + ".join(names))
    free = max(site.capacity(side) - site.slots_used(side), 0)
    if free:
        out.append((" " if names else "") + " ".join("·" * free), style="dim")
    return out


class MoorsTable:
    """The moors of a forest as a renderable that fits the console's width: the typed
    numbers are never cut, the slot and card columns share what is left."""

    def __init__(self, rows: list[tuple[int, Host]], catalog: Catalog) -> None:
        self.rows = rows
        self.catalog = catalog

    def __rich_console__(self, console: Console,
                         options: ConsoleOptions) -> RenderResult:
        number = len(str(max(i for i, _t in self.rows) + 1))
        cells = [(Text(str(i + 1)), moor_side_text(site, "top"),
                  Text("▭ ", style="dim").append_text(moor_host_text(site, self.catalog)),
                  moor_side_text(site, "bottom")) for i, site in self.rows]
        room = max(options.max_width - number - 8, 24)  # 8: the padding of four columns
        # the slots take what they need up to 30% of the room each, the card the rest
        top, bottom = (min(max(c[k].cell_len for c in cells), room * 3 // 10) for k in (1, 3))
        table = Table(box=None, padding=(0, 1), show_header=False)
        table.add_column("#", justify="right", style="dim", no_wrap=True, width=number)
        table.add_column("above (2 slots)", no_wrap=True, max_width=top, overflow="ellipsis")
        table.add_column("moor", no_wrap=True, max_width=min(60, room - top - bottom),
                         overflow="ellipsis")
        table.add_column("below (2 slots)", no_wrap=True, max_width=bottom,
                         overflow="ellipsis")
        for row in cells:
            table.add_row(*row)
        yield table


def moors_table(forest: Forest, catalog: Catalog) -> RenderableType | None:
    """The moors of a forest, one row each with the number the actions use: the card lying
    sideways between its two top and two bottom slots. None without moors."""
    rows = [(i, t) for i, t in enumerate(forest.trees) if t.is_moor]
    if not rows:
        return None
    head = Text("  " + _("moors (lying sideways: 2 slots above, 2 below, none at the sides):"),
                style="dim")
    return Group(head, MoorsTable(rows, catalog))


def moors_words(forest: Forest) -> str:
    """``", 2 moors (1 universal)"`` or ``""``."""
    moors = [t for t in forest.trees if t.is_moor]
    if not moors:
        return ""
    universal = sum(1 for t in moors if t.species is None)
    if universal:
        return ", " + ngettext("{n} moor ({universal} universal)",
                               "{n} moors ({universal} universal)", len(moors),
                               universal=universal)
    return ", " + ngettext("{n} moor", "{n} moors", len(moors))


def cave_line(number: int, catalog: Catalog) -> Text:
    """``cave 3: Before the game: ...`` with ``(provisional reading)`` for a reading; an
    Exploration cave by its name: ``Collectors' Cave: 2 points per cave card.``."""
    named = catalog.named_caves
    if 0 < number <= len(named):
        cave = named[number - 1]
        out = Text(cave.name, style="bold")
        out.append(_(": {text}", text=cave.text))
        if cave.provisional:
            out.append(" " + _("(provisional reading)"), style="yellow")
        return out
    for cave in catalog.caves:
        if cave.number == number:
            out = Text(_("cave {n}", n=number), style="bold")
            out.append(_(": {text}", text=cave.text))  # after the bold "cave 3"
            if cave.provisional:
                out.append(" " + _("(provisional reading)"), style="yellow")
            return out
    return Text(_("cave {n}", n=number), style="bold")


def caves_block(view: PlayerView, names: Sequence[str]) -> RenderableType:
    """The caves at the table: each player's cave (numbered, or Exploration's by name, what
    it does, provisional ones marked) and, during the draft, the caves still offered
    (Exploration's each on a line of its own with its rule)."""
    cat = view.game.catalog
    lines: list[RenderableType] = []
    for i, f in enumerate(view.forests):
        if f.cave_number:
            line = Text(f"  {names[i]}: ", style="dim")
            lines.append(line.append_text(cave_line(f.cave_number, cat)))
    if view.cave_offer and cat.named_caves:  # each offered cave by name, with its rule
        lines.append(Text("  " + _("offered:"), style="dim"))
        lines.extend(Text("    ").append_text(cave_line(n, cat)) for n in view.cave_offer)
    elif view.cave_offer:
        offered = Text("  " + _("offered:") + " ", style="dim")
        offered.append(", ".join(_("cave {n}", n=n) for n in view.cave_offer))
        lines.append(offered)
    if not lines:
        return Text(_("Caves: none chosen yet"), style="bold")
    return Group(Text(_("Caves:"), style="bold"), *lines)


def all_caves(catalog: Catalog) -> RenderableType:
    """Every cave of the game with what it does (the ``caves`` command)."""
    return Group(Text(_("The caves:"), style="bold"),
                 *(Text("  ").append_text(cave_line(c.number, catalog)) for c in catalog.caves))


def discard_text(view: PlayerView) -> Text:
    """The discard pile, public: how many cards and the top one (the last cleared)."""
    cat = view.game.catalog
    out = Text(_("Discard pile:") + " ", style="bold")
    if not view.discard:
        return out.append(_("empty"), style="dim")
    top = view.discard[-1]
    out.append(ngettext("{n} card, top: {card}", "{n} cards, top: {card}", len(view.discard),
                        card=f"{marked(top, cat)} {label(top, cat)}"))
    return out


def pile_text(view: PlayerView) -> Text:
    """Every card of the discard pile, top first (the ``pile`` command)."""
    cat = view.game.catalog
    if not view.discard:
        return Text(_("The discard pile is empty."))
    cards = " · ".join(f"{marked(c, cat)} {label(c, cat)}" for c in reversed(view.discard))
    return Text(_("Discard pile, top first ({n}): {cards}", n=len(view.discard), cards=cards))
