"""Terminal play: people against bots, or several people hot-seat, drawn with rich.

Contract: :class:`Terminal` owns all input and output; the engine stays pure. It reads lines
through a ``read_line`` callable (raising :class:`EOFError` at the end of input) and writes
to a rich :class:`~rich.console.Console`, so tests can drive a whole game with a script.
A human's screen is drawn from that player's :class:`~forest_shuffle.engine.view.PlayerView` only;
any game of the family is played (``game=``: ``base``, ``base+alpine``...): its limits come
from the view's game, its cards from that game's catalog, shrubs are drawn as hosts in the
forest table and its decisions (take from the clearing, clearing cards to the cave,
saplings) are typed or chosen by number as the others. A bot
(:func:`~forest_shuffle.bots.make_bot`: ``easy``, ``medium``, ``hard`` or any bot
specification) chooses from its own view only. Its own words (help, frames, menus, refusals)
are the ``terminal`` catalog's, in :func:`forest_shuffle.terminal.words.language`; the
game's sentences come from :mod:`forest_shuffle.text` as they are.
"""

from __future__ import annotations

import shlex
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Protocol

from rich.columns import Columns
from rich.console import Console, Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from forest_shuffle.bots import Bot, make_bot
from forest_shuffle.cards.forest import Forest, Host
from forest_shuffle.cards.model import SIDES, Catalog, Species
from forest_shuffle.engine.actions import (
    CAVE,
    CHOOSE,
    DISCARD,
    DONE,
    MOOR,
    PAY,
    PLAY,
    SAPLING,
    TAKE,
    Action,
    ActionParseError,
    IllegalActionError,
)
from forest_shuffle.engine.check import printable
from forest_shuffle.engine.options import Rules
from forest_shuffle.engine.picks import PickShape, pick_actions, pick_problem, pick_shape
from forest_shuffle.engine.setup import derive, new_seed
from forest_shuffle.engine.state import GameState
from forest_shuffle.engine.view import PendingView, PlayerView, make_spectator_view
from forest_shuffle.games import BASE_ID, GameDef, make_game
from forest_shuffle.scoring import core as scoring
from forest_shuffle.terminal import dartmoor as moorland
from forest_shuffle.terminal.coach import HINT_BOT, Coach
from forest_shuffle.terminal.fit import Fitted
from forest_shuffle.terminal.payment import payable_cards, payment_order
from forest_shuffle.terminal.saves import SeatRecord, TerminalSave, write_save
from forest_shuffle.terminal.words import N_, _, language, ngettext
from forest_shuffle.text import cardtext
from forest_shuffle.text.narration import (
    NO_HINTS,
    action_words,
    actor_words,
    anna_lines,
    anna_turn,
    automa_name,
    before_anna,
    bonus_alive,
    card_heading,
    card_of,
    chosen_words,
    end_words,
    event_words,
    extra_turn_words,
    label,
    names_words,
    new_cards_words,
    pay_how_words,
    pay_more_words,
    pending_words,
    pick_how_words,
    public_words,
    refusal_words,
    revealed_cards,
    revealed_words,
    saved_words,
    skipped_words,
    species_of,
    turn_label,
    type_words,
    you_words,
)

ReadLine = Callable[[], str]

#: Short tag words for the hand list.
SHORT_TAGS: dict[str, str] = {
    "pawed animal": "pawed",
    "cloven-hoofed animal": "hoofed",
}
#: Tags implied by another tag, left out of the hand list (a deer is cloven-hoofed).
IMPLIED_TAGS: dict[str, str] = {"cloven-hoofed animal": "deer", "insect": "butterfly"}
#: Shorter tree symbol names for the hand list.
SHORT_SYMBOLS: dict[str, str] = {"Horse Chestnut": "Chestnut", "Douglas Fir": "Douglas"}
#: Above this many legal actions, plays at several trees share one line.
GROUP_ABOVE = 12
#: How many recent events a screen shows.
LOG_LINES = 6
#: Where a host card of the hand goes (the hand list's last column), by the card's kind.
NEW_HOST: dict[str, str] = {"tree": N_("new tree"), "shrub": N_("new shrub"),
                            "moor": N_("new moor")}
#: The head of a line of several actions of one kind in the list (translated where shown).
GROUP_HEADS: dict[str, str] = {
    TAKE: N_("take from the clearing:"), SAPLING: N_("as a sapling:"), PAY: N_("pay with:"),
    CAVE: N_("under the cave:"), CHOOSE: N_("take the cave:"),
    MOOR: N_("face down as a universal moor:"), DISCARD: N_("into the clearing:"),
}
#: The lines of the score pad in words (a game's ``pad_lines`` name them).
PAD_WORDS: dict[str, str] = {"trees": N_("Trees"), "top_bottom": N_("Top/bottom"),
                             "left_right": N_("Left/right"), "cave": N_("Cave")}
#: Tags that say what a host is (shown as its kind, not among its tags).
HOST_TAGS: frozenset[str] = frozenset({"tree", "shrub", "moor"})

#: An example of each action kind in text form (the help lists a game's own kinds; the
#: words in brackets are translated where the help is shown, the commands are not).
ACTION_EXAMPLES: dict[str, str] = {
    "draw": "draw", "take": "take 57", "play": "play 12 | play 71 left 3",
    "sapling": "sapling 34", "pay": "pay 40", "yes": "yes", "no": "no", "cave": "cave 40",
    "done": "done", "keep": "keep", "mulligan": "mulligan",
    "choose": N_("choose 3 (a cave)"), "moor": N_("moor 57 (face down as a universal moor)"),
    "discard": "discard 40",
}


def help_words(kinds: tuple[str, ...], caves: bool) -> str:
    """The terminal's help, in its language, for a game whose decisions ask for actions of
    ``kinds`` (``GameDef.action_kinds``: only those are shown); ``caves``: it has numbered
    caves and a discard pile (Dartmoor), whose commands it names. The commands themselves
    are the same words in every language."""
    examples = " | ".join(_(ACTION_EXAMPLES[k]) for k in kinds if k in ACTION_EXAMPLES)
    numbered = (_("(trees, shrubs and moors are numbered from 1, cards by their ids)")
                if caves else _("(trees and shrubs are numbered from 1, cards by their ids)"))
    text = _(
        "Enter the number of an action, or an action in text form:\n"
        "  {examples}\n"
        "  {numbered}\n"
        "A payment takes its cards in any order, one at a time or all on one line (pay 41 63 "
        "116);\n"
        "  undo takes back the last card chosen before the payment is whole, then the play\n"
        "  itself. So does any choice of several cards (cave 41 63, discard 12 40 57),\n"
        "  confirmed with done.\n"
        "Other commands: hand (your hand), card ID (full card text), board (redraw the "
        "screen),\n"
        "  score (the score pad as the forests stand now),\n"
        "  hint (what the hard bot would do, and why), help, quit (asks first; save to "
        "resume\n"
        "  later with play --resume FILE). Ctrl-C asks too.",
        examples=examples, numbered=numbered)
    if caves:
        text += "\n" + _("  caves (what every cave does), pile (the whole discard pile, top "
                         "first).")
    return text


#: Entries that ask whether to leave the game.
QUIT_WORDS: frozenset[str] = frozenset({"quit", "exit", "q"})
#: The file a save goes to unless the player names another (-2, -3... if it exists).
SAVE_NAME = "forest-shuffle-save.json"
#: A step of the engine's queue: kind (effect, bonus, mushroom), card, side, species.
Step = tuple[str, int, str, str]


# ---------------------------------------------------------------------------- words


def symbol_text(symbol: str) -> Text:
    """A tree symbol in its colour."""
    return Text(symbol, style=cardtext.SYMBOL_STYLES.get(symbol, ""))


ARROWS: dict[str, str] = {"top": "↑", "bottom": "↓", "left": "←", "right": "→"}


def short(sp: Species) -> str:
    """A shorter species name for the forest grid: the data's ``short_name`` (the full
    names are in the hand and ``card ID``)."""
    return sp.short_name or sp.printed


def _half_text(sp: Species, symbol: str, side: str = "") -> Text:
    """One half of a hand card (or a whole host card): cost, name, tags and tree symbol;
    a host shows its kind (``tree``, ``shrub``) and any other tag (``alps``), a tree no
    symbol (it is its own name)."""
    out = Text()
    if side:
        out.append(ARROWS[side], style="dim")
    out.append(f"{sp.cost}", style="cyan")
    out.append(f" {sp.printed}", style="bold")
    shown = [t for t in sorted(sp.tags) if IMPLIED_TAGS.get(t) not in sp.tags]
    if sp.is_host:
        shown = [sp.kind] + [t for t in shown if t not in HOST_TAGS]
    tags = ",".join(SHORT_TAGS.get(t, t) for t in shown)
    if tags != "tree":
        out.append(f" {tags}", style="dim")
    if not sp.is_tree:
        out.append(" ")
        out.append(SHORT_SYMBOLS.get(symbol, symbol), style=cardtext.SYMBOL_STYLES.get(symbol, ""))
    return out


def where_words(cid: int, forest: Forest, catalog: Catalog) -> str:
    """At which trees of ``forest`` each half of a hand card fits now (cost aside)."""
    card = card_of(cid, catalog)
    if card.is_host:
        new = NEW_HOST.get(card.kind)
        return _(new) if new else f"new {card.kind}"
    parts: list[str] = []
    for side, half in card.halves.items():
        fits = [i + 1 for i, t in enumerate(forest.trees) if t.accepts(half.species, side)]
        parts.append(ARROWS[side] + _numbers(fits, len(forest.trees)))
    return " ".join(parts)


def _numbers(ns: Sequence[int], total: int) -> str:
    """``"all"``, ``"-"``, runs like ``"1-3,5"`` or ``"not 4,6"``."""
    if not ns:
        return "-"
    if len(ns) == total > 1:
        return "all"
    if total > 4 and len(ns) > total / 2:
        return "not " + _runs([n for n in range(1, total + 1) if n not in ns])
    return _runs(ns)


def _runs(ns: Sequence[int]) -> str:
    runs: list[str] = []
    start = prev = ns[0]
    for n in [*ns[1:], -1]:
        if n != prev + 1:
            runs.append(str(start) if start == prev else f"{start}-{prev}")
            start = n
        prev = n
    return ",".join(runs)


def hand_table(hand: Sequence[int], forest: Forest, title: str, catalog: Catalog) -> Group:
    """The hand, one card a row: id, each half's cost, name, tags and tree symbol, and at
    which trees each half fits."""
    ids = [moorland.marked(c, catalog) for c in hand]
    id_width = max([3, *map(len, ids)])
    rows: list[tuple[str, Text, Text, Text]] = []
    for cid in sorted(hand, key=lambda c: (not card_of(c, catalog).is_host, c)):
        card = card_of(cid, catalog)
        if card.species is not None:
            halves = [_half_text(card.species, card.symbol), Text()]
        else:
            halves = [_half_text(h.species, h.symbol, s) for s, h in card.halves.items()]
        rows.append((moorland.marked(cid, catalog), halves[0], halves[1],
                     Text(where_words(cid, forest, catalog), style="green")))

    def build(width: int) -> Table:
        # the halves give way to the typed ids and the fits (8: the columns' padding)
        half = min(46, max(10, (width - id_width - 12 - 8) // 2))
        table = Table(box=None, padding=(0, 1), show_header=False)
        table.add_column("id", justify="right", style="bold magenta", no_wrap=True,
                         width=id_width)
        table.add_column("cost name tags symbol", no_wrap=True, overflow="ellipsis",
                         max_width=half)
        table.add_column("", no_wrap=True, overflow="ellipsis", max_width=half)
        table.add_column("fits at tree", min_width=12)
        for row in rows:
            table.add_row(*row)
        if not rows:
            table.add_row("", Text(_("(empty)"), style="dim"), "", "")
        return table

    head = Text(title, style="bold")
    head.append(" · " + _("cost, name, tags, tree symbol · fits at trees"), style="dim")
    return Group(head, Fitted(build))


def host_text(site: Host) -> Text:
    """A host in the forest table: a tree's name in its symbol's colour, a shrub's name in
    the colour of the tree symbol printed on it with ``(shrub)``, a sapling face down."""
    if site.species is None:
        return Text("sapling", style="dim italic")
    if site.is_tree:
        return symbol_text(site.name)
    out = Text(short(site.species), style=cardtext.SYMBOL_STYLES.get(site.symbol, ""))
    return out.append(" " + _("(shrub)"), style="dim italic")


def hosts_words(forest: Forest) -> str:
    """``"3 trees"``, ``"2 trees, 1 shrub"``, ``"1 tree, 2 moors (1 universal)"`` (a
    sapling counts as a tree)."""
    trees = sum(1 for t in forest.trees if t.is_tree)
    shrubs = sum(1 for t in forest.trees if not t.is_tree and not t.is_moor)
    words = ngettext("{n} tree", "{n} trees", trees, n=trees)
    if shrubs:
        words += ", " + ngettext("{n} shrub", "{n} shrubs", shrubs, n=shrubs)
    return words + moorland.moors_words(forest)


def _slot_text(site: Host, side: str) -> Text:
    stack = site.slots[side]
    if not stack:
        return Text(f"{ARROWS[side]}·", style="dim")
    names = [short(d.species) for d in stack]
    out = Text(ARROWS[side], style="dim")
    if len(set(names)) == 1 and len(names) > 1:
        return out.append(f"{names[0]} ×{len(names)}")
    return out.append(" + ".join(names))


def forest_table(forest: Forest, title: str, catalog: Catalog) -> RenderableType:
    """A forest: one row per tree with dwellers and its four slots (hares stacked, toads
    paired), then one line naming the trees without dwellers; Dartmoor's moors after them
    (:func:`~forest_shuffle.terminal.dartmoor.moors_table`, with ``catalog`` the game's)."""
    moors = moorland.moors_table(forest, catalog)
    if moors is None:
        return _trees_table(forest, title)
    if all(t.is_moor for t in forest.trees):
        return Group(Text(title, style="bold"), moors)
    return Group(_trees_table(forest, title), moors)


def _trees_table(forest: Forest, title: str) -> RenderableType:
    """The trees, saplings and shrubs of a forest (see :func:`forest_table`)."""
    hosts = [i for i, t in enumerate(forest.trees) if not t.is_moor]
    bare = [i for i in hosts if not forest.trees[i].dwellers()]
    rest = Text("  " + _("no dwellers at:") + " " if len(bare) < len(hosts) else "  ",
                style="dim")
    for i in bare:
        if i != bare[0]:
            rest.append(" · ", style="dim")
        rest.append(f"{i + 1} ")
        rest.append_text(host_text(forest.trees[i]))
    if len(bare) == len(hosts):
        return Group(Text(title, style="bold"), rest)
    table = Table(box=None, padding=(0, 1), show_header=False)
    table.add_column("#", justify="right", style="dim", no_wrap=True,
                     min_width=len(str(len(forest.trees))))  # never cut: numbers are typed
    table.add_column("host", no_wrap=True, max_width=20, overflow="ellipsis")
    for side in SIDES:
        table.add_column(f"{ARROWS[side]}{side}", no_wrap=True, max_width=17,
                         overflow="ellipsis")
    for i in hosts:
        if i in bare:
            continue
        site = forest.trees[i]
        table.add_row(str(i + 1), host_text(site), *(_slot_text(site, s) for s in SIDES))
    head = Text(title, style="bold")  # not the table's title: a title wider than the
    return Group(head, table, rest) if bare else Group(head, table)  # table would wrap


def card_details(cid: int, catalog: Catalog) -> Group:
    """The full text of one card of ``catalog`` (the game's; KeyError for an id not in
    it): every species on it with cost, tags, place and rules."""
    card = catalog.card(cid)
    parts: list[RenderableType] = [Text(card_heading(cid, catalog), style="bold")]
    if card.is_winter:
        parts.append(Text(_("A winter card: the game ends when the third one is drawn.")))
        return Group(*parts)
    shown = ([("", card.symbol, card.species)] if card.species is not None else
             [(s, h.symbol, h.species) for s, h in card.halves.items()])
    for side, symbol, sp in shown:
        head = Text()
        if side:
            head.append(f"{side}: ", style="dim")
        head.append(sp.printed, style="bold")
        lang = language()
        before, _mark, after = cardtext.lookup_words(sp, lang).partition(cardtext.SYMBOL_MARK)
        head.append("  " + before)
        styled = symbol_text(symbol)
        if lang != "en":
            styled = Text(cardtext.symbol_word(symbol, lang) or "", style=styled.style)
        head.append_text(styled)
        head.append(after)
        parts.append(head)
        for part in cardtext.PARTS:
            text = cardtext.full_text(sp, part, lang)
            if text:
                parts.append(Text.assemble(
                    ("  " + cardtext.part_label(part, lang) + ": ", "cyan"), text))
        if sp.provisional:
            parts.append(Text.assemble(("  " + _("provisional reading:") + " ", "yellow"),
                                       sp.provisional))
    if card.assumed:
        parts.append(Text.assemble(
            (f"{moorland.MARK} provisional card", "yellow"),
            f": assumed {moorland.assumed_words(card)}"
            f"{f' (printed {card.printed})' if card.printed else ''}."))
        if catalog.provisional_deck:
            parts.append(Text(f"  {catalog.provisional_deck}", style="dim"))
    elif card.printed:
        parts.append(Text(_("As printed (card {card}).", card=card.printed), style="dim"))
    return Group(*parts)


ActionGroup = tuple[tuple[str, int, str], list[Action]]


def _action_groups(view: PlayerView) -> list[ActionGroup]:
    """The legal actions in the groups a long list shows, in the order shown: the plays of
    one card half share a group, every other kind one group, in the order the engine lists
    them, and all the plays of card halves stand together where the first one was."""
    groups: dict[tuple[str, int, str], list[Action]] = {}
    for a in view.legal_actions:
        groups.setdefault((a.kind, a.card if a.kind == PLAY else 0, a.side), []).append(a)
    halves = [(k, v) for k, v in groups.items() if k[0] == PLAY and k[2]]
    out: list[ActionGroup] = []
    for key, items in groups.items():
        if key[0] == PLAY and key[2]:
            if halves and key == halves[0][0]:
                out.extend(halves)
            continue
        out.append((key, items))
    return out


def shown_actions(view: PlayerView) -> tuple[Action, ...]:
    """The legal actions in the order :func:`numbered_actions` numbers them: entry ``n`` is
    item ``n - 1`` (the numbers read 1, 2, 3... down the screen)."""
    if len(view.legal_actions) <= GROUP_ABOVE:
        return view.legal_actions
    return tuple(a for _key, items in _action_groups(view) for a in items)


def numbered_actions(view: PlayerView) -> RenderableType:
    """The legal actions, numbered from 1 in the order shown (:func:`shown_actions`). When
    there are many, the plays of one card half share an entry (``1)t2`` plays it at tree 2)
    and short entries share lines."""
    actions = view.legal_actions
    if len(actions) <= GROUP_ABOVE:
        out = Text()
        for i, a in enumerate(actions, start=1):
            out.append(f"{i:>3}) ", style="bold yellow")
            out.append(action_words(a, view, language()) + "\n")
        out.rstrip()
        return out
    free = view.pending is not None and view.pending.kind == "free"
    lines: list[RenderableType] = []
    halves: list[Text] = []
    at = -1  # where the plays of card halves go among the lines
    i = 0
    for (kind, cid, side), items in _action_groups(view):
        line = Text("  ")
        if kind == PLAY and side:
            sp = species_of(cid, side, view.game.catalog)
            entry = Text(f"{sp.printed} {ARROWS[side]}{cid} ({'free' if free else sp.cost}):")
            for a in items:
                i += 1
                entry.append(f" {i})", style="bold yellow")
                entry.append(f"t{a.tree + 1}")
            halves.append(entry)
            at = len(lines) if at < 0 else at
            continue
        if len(items) == 1:
            i += 1
            line.append(f"{i})", style="bold yellow")
            line.append(" " + action_words(items[0], view, language()))
        else:
            head = GROUP_HEADS.get(kind)
            line.append(_(head) if head else f"{kind}:")
            for a in items:
                i += 1
                line.append(f" {i})", style="bold yellow")
                line.append(f" {a.card}" if kind in (SAPLING, CHOOSE)
                            else f" {a.card} {label(a.card, view.game.catalog)}")
        lines.append(line)
    if halves:
        frame = (_("play a card half (card id, cost) at tree or moor tN:")
                 if any(t.is_moor for t in view.forests[view.player].trees)
                 else _("play a card half (card id, cost) at tree tN:"))
        lines[at:at] = [Text("  " + frame, style="dim"),
                        Padding(Columns(halves, padding=(0, 2)), (0, 0, 0, 2))]
    return Group(*lines)


def skipped_steps(before: PlayerView, action: Action, after: PlayerView) -> list[Step]:
    """The actor's mushroom draws, effects and bonuses that the engine skipped unasked
    (it skips a step that could change nothing) when ``action`` was applied between the
    actor's views ``before`` and ``after``: the steps that were queued, or that the play
    ``action`` completed yields (its effect; its bonus when the payment kept it, by the
    words' own :func:`~forest_shuffle.text.narration.bonus_alive`), and that are neither
    still waiting nor offered afterwards. Steps of a play through the Mole wait in its
    frame until it is done."""
    pend = before.pending
    if after.over or pend is None:
        return []
    top = before.decisions[-1] if before.decisions else None
    expected: list[Step] = list(before.queue)
    completed: tuple[int, str, tuple[int, ...]] | None = None
    via = ""
    if action.kind == PAY and pend.kind == "pay" and pend.need == 1 and top is not None:
        completed, via = (pend.card, pend.side, (*pend.paid, action.card)), top.via
    elif (action.kind == PLAY and pend.kind in ("turn", "mole")
          and species_of(action.card, action.side, before.game.catalog).cost == 0):
        completed, via = (action.card, action.side, ()), pend.kind
    if completed is not None and via == "turn":
        card, side, paid = completed
        sp = species_of(card, side, before.game.catalog)
        if sp.effect is not None:
            expected.append(("effect", card, side, sp.name))
        if sp.bonus is not None and bonus_alive(PendingView("pay", pend.player, card, side,
                                                            paid=paid), before.game.catalog):
            expected.append(("bonus", card, side, sp.name))
    if action.kind == DONE and pend.kind == "mole" and top is not None:
        expected.extend(top.steps)
    present: Counter[Step] = Counter(after.queue)
    for d in after.decisions:
        if d.kind == "option" and d.step is not None:
            present[d.step] += 1
        elif d.kind == "mole":
            present.update(d.steps)
    skipped: list[Step] = []
    for step in expected:
        if present[step]:
            present[step] -= 1
        else:
            skipped.append(step)
    return skipped


class PadSheet(Protocol):
    """What the score pad reads of a forest's score (either scorer's)."""

    @property
    def lines(self) -> Mapping[str, int]: ...

    @property
    def total(self) -> int: ...


def pad_table(title: str, names: Sequence[str], pad_lines: Sequence[str],
              sheets: Sequence[PadSheet]) -> Table:
    """The score pad: one row per line of the game's pad (``pad_lines``) and the totals,
    one column per player, the figures the scorer gave (``sheets``, by seat)."""
    pad = Table(title=title, title_justify="left", title_style="bold")
    pad.add_column("")
    for name in names:
        pad.add_column(name, justify="right")
    for line in pad_lines:
        word = _(PAD_WORDS[line]) if line in PAD_WORDS else line.replace("_", "/").capitalize()
        pad.add_row(word,
                    *(str(s.lines.get(line, 0)) for s in sheets))
    pad.add_row(Text(_("Total"), style="bold"),
                *(Text(str(s.total), style="bold") for s in sheets))
    return pad


# ---------------------------------------------------------------------------- players


class QuitGame(Exception):
    """The player chose to leave the game (after being asked); ``saved``: after saving it
    (the save's line said all)."""

    def __init__(self, saved: bool = False) -> None:
        super().__init__("saved" if saved else "left")
        self.saved = saved


@dataclass
class Seat:
    """One seat at the table: its name, its bot and the bot's specification (None for a
    person), and the lines that person has still to read."""

    name: str
    bot: Bot | None = None
    log: list[str] = field(default_factory=list)
    spec: str | None = None


# ---------------------------------------------------------------------------- the front end


class Terminal:
    """A game of Forest Shuffle in a terminal: humans take the first seats, bots the rest.

    ``hints``: whether ``hint`` asks the coach (``hint_bot``, a search bot specification)
    what it would do; off for seats that agreed to play without help. ``resume``: go on
    with a saved game (:mod:`.saves`) instead of dealing a new one; ``save_path`` is then
    the file it came from (offered again when saving)."""

    def __init__(self, players: int = 2, bots: int | None = None, seed: int | None = None, *,
                 console: Console | None = None, read_line: ReadLine | None = None,
                 rules: Rules | None = None, level: str = "easy",
                 game: GameDef | str = BASE_ID, hints: bool = True,
                 hint_bot: str = HINT_BOT, resume: TerminalSave | None = None,
                 save_path: Path | None = None) -> None:
        self.console = console or Console(highlight=False)
        self.read_line: ReadLine = read_line or input
        self.hints = hints
        self.hint_bot = hint_bot
        self.save_path = save_path
        self.seats: list[Seat] = []
        if resume is not None:
            self.state = resume.state
            self.game = resume.state.game
            self.seed = resume.state.seed
            self.seed_chosen = resume.seed_chosen
            self.hints = resume.hints
            self.hint_bot = resume.hint_bot
            made = len(resume.state.history)
            for i, record in enumerate(resume.seats):
                bot = (None if record.bot is None else
                       make_bot(record.bot, derive(self.seed, f"bot {i} from {made}")))
                self.seats.append(Seat(record.name, bot, spec=record.bot))
        else:
            gdef = make_game(game) if isinstance(game, str) else game
            if bots is None:
                bots = players - 1
            if players not in gdef.players:
                raise ValueError(f"{gdef.title} is for {gdef.players[0]} to "
                                 f"{gdef.players[-1]} players, not {players}")
            if not 0 <= bots <= players:
                raise ValueError(f"--bots must be from 0 to {players}, not {bots}")
            # A deal nobody chose is secret: its seed is shown only once the game is over.
            self.seed_chosen = seed is not None
            self.seed = new_seed() if seed is None else seed
            self.game = gdef
            self.state = GameState.new(players, self.seed, rules, game=gdef)
            humans = players - bots
            for i in range(players):
                if i < humans:
                    self.seats.append(Seat(_("You") if humans == 1 else
                                           _("Player {n}", n=i + 1)))
                else:
                    self.seats.append(Seat(_("Player {n} (bot)", n=i + 1),
                                           make_bot(level, derive(self.seed, f"bot {i}")),
                                           spec=level))
        self.humans = sum(1 for s in self.seats if s.bot is None)
        self.coach = Coach(self.hint_bot, derive(self.seed, "coach"))
        self._last_human: int | None = None
        #: The payment cards chosen but not yet paid, and the position they belong to.
        self._chosen: list[int] = []
        self._chosen_at = -1
        #: A play not yet paid for: the history length after it, the game and everyone's
        #: lines before it (``undo`` goes back to them).
        self._play_back: tuple[int, GameState, list[list[str]]] | None = None

    # ------------------------------------------------------------ i/o helpers

    def say(self, text: str, style: str = "") -> None:
        """Print one line of plain text (no markup)."""
        self.console.print(Text(text, style=style))

    def ask(self, prompt: str) -> str:
        """Show a prompt and read one line; EOFError at the end of input, KeyboardInterrupt
        for Ctrl-C."""
        self.console.print(Text(prompt, style="bold"), end="")
        return self.read_line()

    def seat_name(self, p: int, viewer: int | None = None) -> str:
        return _("You") if viewer == p and self.humans == 1 else self.seats[p].name

    # ------------------------------------------------------------ the game loop

    def run(self) -> list[int] | None:
        """Play to the end and show the scores; the winners, or None if the game was left."""
        said = dict(title=self.game.title, n=self.state.num_players, seed=self.seed)
        resumed = bool(self.state.history)
        if self.seed_chosen:
            hello = (_("{title}: {n} players, seed {seed} (resumed). Type help for help.",
                       **said) if resumed else
                     _("{title}: {n} players, seed {seed}. Type help for help.", **said))
        else:
            hello = (_("{title}: {n} players (resumed). Type help for help.", **said)
                     if resumed else _("{title}: {n} players. Type help for help.", **said))
        self.say(hello, style="bold green")
        try:
            while not self.state.over:
                p = self.state.to_move
                assert p is not None
                seat = self.seats[p]
                if seat.bot is not None:
                    try:
                        action = seat.bot.choose(self.state.view(p))
                    except KeyboardInterrupt:  # the bot's thinking changed nothing
                        self._leave(None, interrupted=True)
                        continue
                    self._apply(p, action)
                else:
                    self._human(p)
        except QuitGame as left:
            if not left.saved:
                self.say(_("Game abandoned."), style="bold red")
            return None
        except EOFError:
            self.say("\n" + _("End of input: game abandoned."), style="bold red")
            return None
        return self.show_end()

    def _leave(self, p: int | None, interrupted: bool = False) -> None:
        """Ask whether to leave (after quit or Ctrl-C): save and quit, quit, or go back.
        QuitGame to leave; returns to go on. Ctrl-C at the question quits unsaved."""
        if interrupted:
            self.say("")
        while True:
            try:
                answer = self.ask("Leave the game? s = save and leave, q = leave without "
                                  "saving, Enter = back to the game: ").strip().lower()
            except KeyboardInterrupt:
                self.say("")
                raise QuitGame from None
            if answer in ("q", "quit", "y", "yes", "leave"):
                raise QuitGame
            if answer in ("s", "save"):
                if self._save():
                    raise QuitGame(saved=True)
                continue
            if answer in ("", "n", "no", "b", "back"):
                self.say(_("Back to the game."), style="dim")
                if p is not None:
                    self.say(pending_words(self._shown_view(self.state.view(p)),
                                           self.seat_name(p, p), language()),
                             style="bold cyan")
                return
            self.say(_("Answer s, q or press Enter."), style="yellow")

    def _default_save_path(self) -> Path:
        if self.save_path is not None:
            return self.save_path
        for n in range(1, 1000):
            path = Path(SAVE_NAME if n == 1 else SAVE_NAME.replace(".json", f"-{n}.json"))
            if not path.exists():
                return path
        return Path(SAVE_NAME)

    def _save(self) -> bool:
        """Ask for a file and save the game into it; False (after one line) if not saved."""
        default = self._default_save_path()
        try:
            answer = self.ask(_("Save to [{file}]: ", file=default)).strip()
        except KeyboardInterrupt:
            self.say("")
            return False
        path = Path(answer) if answer else default
        if path.exists() and path != self.save_path:
            self.say(_("{file} exists: give another name.", file=printable(str(path))[:200]),
                     style="yellow")
            return False
        save = TerminalSave(self.state,
                            tuple(SeatRecord(s.name, s.spec) for s in self.seats),
                            self.seed_chosen, self.hints, self.hint_bot)
        try:
            write_save(path, save)
        except OSError as exc:
            self.say(_("Cannot save to {file}: {reason}.", file=printable(str(path))[:200],
                       reason=exc.strerror or type(exc).__name__), style="yellow")
            return False
        self.save_path = path
        self.say(saved_words(shlex.quote(str(path))), style="bold green")
        return True

    def _apply(self, p: int, action: Action) -> None:
        """Apply an action and tell every human about it (IllegalActionError passes)."""
        before = self.state.view(p)
        self.state.apply(action)
        after = self.state.view(p)
        cat = self.game.catalog
        lang = language()
        if lang != "en":
            self._tell_in(lang, p, action, before, after)
        public = public_words(action, before.pending, before.forests[p], cat)
        for h in range(self.humans if lang == "en" else 0):
            log = self.seats[h].log
            if h == p:
                if action.kind == PAY and log and log[-1].startswith("You play"):
                    log[-1] = f"{log[-1][:-1]}, {pay_more_words(public)}."
                elif action.kind == PAY and log and log[-1].startswith("You pay with "):
                    log[-1] = f"{log[-1][:-1]} and {pay_more_words(public)[9:]}."
                else:
                    log.append(you_words(action, before.pending, before.forests[p], cat) + ".")
                continue
            if (action.kind == PAY and log and log[-1].startswith(f"{self.seat_name(p)} plays")
                    and log[-1].endswith(".")):
                log[-1] = f"{log[-1][:-1]}, {public}."
            else:
                log.append(f"{self.seat_name(p)} {public}.")
        if p < self.humans:
            new = sorted(set(after.hand) - set(before.hand))
            if new and action.kind not in (TAKE,):
                self.seats[p].log.append(new_cards_words(new, cat, lang))
            for kind, _cid, _side, species in skipped_steps(before, action, after):
                self.seats[p].log.append(skipped_words(kind, species, cat))
        to_end = self.state.game.winter_to_end
        anna = anna_turn(before.solo, after.solo)  # a solo game: the automa played after
        # the player's events from the table before Anna's turn (hers are told in her line)
        mid = after if anna is None else before_anna(before, after, anna)
        # cards from the deck into the clearing (the card a tree turns over)
        revealed = revealed_cards(before.clearing, before.hand, mid.clearing)
        if revealed:
            self._tell_all(revealed_words(revealed, cat, lang))
        for text in event_words(action, before.pending, before, mid, to_end, catalog=cat,
                                lang=language()):
            self._tell_all(text)
        if anna is not None:
            for text in anna_lines(before, after, anna, cat,
                                   automa_name(self.state.game.options), to_end):
                self._tell_all(text)
        if (not after.over and anna is None and after.turn > before.turn
                and (before.turn > 0 or before.setup < 0)  # not the end of Dartmoor's draft
                and after.current == before.current):
            for h in range(self.humans):
                self.seats[h].log.append(extra_turn_words(self.seat_name(p), h == p))

    def _tell_in(self, lang: str, p: int, action: Action, before: PlayerView,
                 after: PlayerView) -> None:
        """Tell every human of ``p``'s action in ``lang`` (not English): the actor its
        action as its menu said it, the others what everyone sees (each line whole: no
        payment joined to its play, a sentence built in English)."""
        cat = self.game.catalog
        public = public_words(action, before.pending, before.forests[p], cat, lang)
        for h in range(self.humans):
            if h == p:
                self.seats[h].log.append(_("You: {action}.",
                                           action=action_words(action, before, lang)))
            else:
                self.seats[h].log.append(actor_words(self.seat_name(p), public, lang))

    def _tell_all(self, text: str) -> None:
        for h in range(self.humans):
            self.seats[h].log.append(text)

    def _human(self, p: int) -> None:
        """One decision of a human: hand over if needed, draw the screen, read until legal."""
        if self.humans > 1 and self._last_human is not None and self._last_human != p:
            if self.console.is_terminal:
                self.console.clear()
            while True:
                try:
                    answer = self.ask(_("Pass to {name}, press Enter ",
                                        name=self.seats[p].name))
                except KeyboardInterrupt:
                    self._leave(None, interrupted=True)
                    continue
                if answer.strip().lower() not in QUIT_WORDS:
                    break
                self._leave(None)
            if self.console.is_terminal:
                self.console.clear()
        self._last_human = p
        self.draw_screen(self.state.view(p))
        while True:
            try:
                line = self.ask(f"{self.seat_name(p, p)} > ").strip()
            except KeyboardInterrupt:
                self._leave(p, interrupted=True)
                continue
            if self._command(line, p):
                return

    # ------------------------------------------------------------ payments chosen as a set

    def _paying(self, p: int) -> bool:
        """Is ``p``'s decision a payment? (Forgets cards chosen for an earlier one.)"""
        if self._chosen_at != len(self.state.history):
            self._chosen = []
            self._chosen_at = len(self.state.history)
        pend = self.state.pending
        return pend is not None and pend.kind == "pay" and pend.player == p

    def _choice(self, p: int) -> PickShape | None:
        """``p``'s decision that takes several cards as one choice (not a payment, which
        has its own way), or None. (Forgets cards chosen for an earlier one.)"""
        if self._chosen_at != len(self.state.history):
            self._chosen = []
            self._chosen_at = len(self.state.history)
        pend = self.state.pending
        if pend is None or pend.kind == "pay" or pend.player != p or self.state.over:
            return None
        return pick_shape(self.state.view(p))

    def _shown_view(self, view: PlayerView) -> PlayerView:
        """The view as the player's words show it: during a payment, as if the cards
        chosen so far were paid, with the cards that may still join it as the choices
        (in any order; the engine's own order is found when the payment is made); during
        another choice of several cards, the cards not chosen yet, and done once the
        choice is whole (it confirms)."""
        pend = view.pending
        shape = self._choice(view.player) if pend is not None else None
        if shape is not None:
            chosen = self._chosen
            left = ([Action(shape.verb, c) for c in shape.cards if c not in chosen]
                    if len(chosen) < shape.most else [])
            ends = [Action(DONE)] if shape.least <= len(chosen) <= shape.most else []
            return replace(view, legal_actions=tuple(left + ends))
        if pend is None or pend.kind != "pay" or not self._paying(view.player):
            return view
        chosen = self._chosen
        payable = payable_cards(self.state, view.player, chosen)
        decisions = list(view.decisions)
        if decisions:
            top = decisions[-1].copy()
            top.paid = [*top.paid, *chosen]
            top.need -= len(chosen)
            decisions[-1] = top
        return replace(
            view, hand=tuple(c for c in view.hand if c not in chosen),
            pending=replace(pend, paid=(*pend.paid, *chosen), need=pend.need - len(chosen)),
            legal_actions=tuple(Action(PAY, c) for c in payable),
            decisions=tuple(decisions))

    def _pay(self, p: int, cards: list[int]) -> bool:
        """Add ``cards`` to the payment being chosen; pay once it is whole. True once
        paid; False (after one line) for cards that cannot join it."""
        pend = self.state.pending
        assert pend is not None
        hand = self.state.hands[p]
        chosen = [*self._chosen]
        for c in cards:
            if c not in hand:
                self.say(_("Not allowed: card {card} is not in your hand.", card=c),
                         style="yellow")
                return False
            if c in chosen:
                self.say(_("Card {card} is chosen already.", card=c), style="yellow")
                return False
            chosen.append(c)
        if len(chosen) > pend.need:
            self.say(ngettext("This payment takes {n} card, not {chosen} (with those chosen "
                              "already).", "This payment takes {n} cards, not {chosen} (with "
                              "those chosen already).", pend.need, n=pend.need,
                              chosen=len(chosen)) if self._chosen else
                     ngettext("This payment takes {n} card, not {chosen}.",
                              "This payment takes {n} cards, not {chosen}.", pend.need,
                              n=pend.need, chosen=len(chosen)), style="yellow")
            return False
        order = payment_order(self.state, p, chosen)
        if order is None:
            reason = self._pay_reason(p, chosen)
            self.say(_("Not allowed: {reason}.", reason=reason), style="yellow")
            return False
        if len(chosen) < pend.need:
            self._chosen = chosen
            view = self._shown_view(self.state.view(p))
            self.say(chosen_words(chosen, self.game.catalog), style="italic")
            self.say(pending_words(view, self.seat_name(p, p), language()), style="bold cyan")
            self.console.print(numbered_actions(view))
            return False
        self._chosen = []
        for c in order:
            self._apply(p, Action(PAY, c))
        return True

    def _pick(self, p: int, shape: PickShape, cards: list[int]) -> bool:
        """Add ``cards`` to the choice being made (nothing is sent); False always (after
        one line and the choices left, or one line why not)."""
        chosen = [*self._chosen]
        for c in cards:
            if c in chosen:
                self.say(_("Card {card} is chosen already (undo {card} takes it back).",
                           card=c), style="yellow")
                return False
            chosen.append(c)
        problem = pick_problem(shape, chosen) if len(chosen) > shape.most else ""
        bad = [c for c in cards if c not in shape.cards]
        if bad:
            problem = pick_problem(shape, bad)
        if problem:
            self.say(_("Not allowed: {reason}.", reason=problem), style="yellow")
            return False
        self._chosen = chosen
        self._show_choice(p)
        return False

    def _confirm(self, p: int, shape: PickShape) -> bool:
        """Send the choice being made (the engine's order); True once applied."""
        problem = pick_problem(shape, self._chosen)
        if problem:
            self.say(_("Not yet: {reason}.", reason=problem), style="yellow")
            return False
        actions = pick_actions(shape, self._chosen)
        self._chosen = []
        for action in actions:
            self._apply(p, action)
        return True

    def _show_choice(self, p: int) -> None:
        """The cards chosen so far, the question and the choices left."""
        view = self._shown_view(self.state.view(p))
        if self._chosen:
            self.say(chosen_words(self._chosen, self.game.catalog), style="italic")
        self.say(pending_words(view, self.seat_name(p, p), language()), style="bold cyan")
        shape = self._choice(p)
        if shape is not None:
            self.say(pick_how_words(shape, self._chosen), style="cyan")
        self.console.print(numbered_actions(view))

    def _pay_reason(self, p: int, chosen: list[int]) -> str:
        """Why no payment holds all of ``chosen``, in the engine's words when it has some
        for one card alone (a Mole pays only with cards of its pool)."""
        for c in chosen:
            if payment_order(self.state, p, [c]) is None:
                try:
                    self.state.clone().apply(Action(PAY, c))
                except IllegalActionError as exc:
                    if "ascending" not in exc.reason:
                        return refusal_words(exc.reason, self.game.catalog, language(), p)
                return _("card {card} cannot be part of this payment", card=c)
        shown = names_words([str(c) for c in chosen], language())
        return _("cards {cards} cannot all be part of this payment", cards=shown)

    # ------------------------------------------------------------ entries

    def _command(self, line: str, p: int) -> bool:
        """Handle one entry of player ``p``; True once an action was applied."""
        word = line.lower()
        paying = self._paying(p)
        shape = self._choice(p)
        view = self._shown_view(self.state.view(p))
        actions = shown_actions(view)
        if not word:
            self.say(_("Enter a number from the list, an action, or help."), style="yellow")
            return False
        if word in QUIT_WORDS:
            self._leave(p)
            return False
        if word in ("help", "h", "?"):
            self.say(help_words(self.game.action_kinds, bool(self.game.catalog.caves)))
            return False
        if word == "hand":
            self.console.print(hand_table(view.hand, view.forests[view.player], _("Your hand"),
                                           view.game.catalog))
            return False
        if word in ("board", "screen", "look"):
            self.draw_screen(self.state.view(p))
            return False
        if word in ("hint", "suggest"):
            self._hint(p)
            return False
        if word == "caves" and self.game.catalog.caves:
            self.console.print(moorland.all_caves(self.game.catalog))
            return False
        if word == "pile" and moorland.is_dartmoor(view):
            self.console.print(moorland.pile_text(view))
            return False
        if word in ("score", "scores", "pad"):
            self._score(p)
            return False
        if word == "undo" or word.startswith("undo "):
            if not self._chosen:
                if word == "undo" and self._take_back_play(p):
                    return False
                self.say(_("Nothing to undo: only a play not yet paid for and cards chosen but "
                           "not yet sent (a payment, a choice of several cards) can be taken "
                           "back."), style="yellow")
                return False
            which = word[5:].strip().lstrip("#")
            if which and not (which.isascii() and which.isdigit() and int(which) in
                              self._chosen):
                self.say(_("Card {card} is not chosen: chosen so far {cards}.", card=which,
                           cards=", ".join(str(c) for c in self._chosen)), style="yellow")
                return False
            back = int(which) if which else self._chosen[-1]
            self._chosen.remove(back)
            if shape is not None and shape.source == "clearing":
                self.say(_("Card {card} stays in the clearing: not chosen any more.",
                           card=back), style="italic")
            else:
                self.say(_("Card {card} is back in your hand.", card=back), style="italic")
            if shape is not None:
                self._show_choice(p)
                return False
            view = self._shown_view(self.state.view(p))
            self.say(pending_words(view, self.seat_name(p, p), language()), style="bold cyan")
            self.console.print(numbered_actions(view))
            return False
        if shape is not None and word in ("done", "confirm", "ok"):
            return self._confirm(p, shape)
        if word.split()[0] == "card":
            self._show_card(word.split()[1:])
            return False
        words = word.split()
        if shape is not None and words[0] == shape.verb and len(words) > 1:
            numbers = [w.lstrip("#") for w in words[1:]]
            if not all(n.isascii() and n.isdigit() and len(n) <= 6 for n in numbers):
                self.say(_("Not understood: write {verb} and card numbers, e.g. {example}.",
                           verb=shape.verb, example=" ".join(
                               [shape.verb, *(str(c) for c in shape.cards[:2])])),
                         style="yellow")
                return False
            return self._pick(p, shape, [int(n) for n in numbers])
        if paying and words[0] == "pay" and len(words) > 2:
            numbers = [w.lstrip("#") for w in words[1:]]
            if not all(n.isascii() and n.isdigit() and len(n) <= 6 for n in numbers):
                self.say(_("Not understood: write {verb} and card numbers, e.g. {example}.",
                           verb="pay", example="pay 41 63"), style="yellow")
                return False
            return self._pay(p, [int(n) for n in numbers])
        if word.isascii() and word.isdigit() and len(word) <= 6:  # "²" is a digit too
            n = int(word)
            if not 1 <= n <= len(actions):
                self.say(_("No action {n}: choose 1 to {most}.", n=n, most=len(actions)),
                         style="yellow")
                return False
            action = actions[n - 1]
        else:
            try:
                action = Action.parse(word)
            except ActionParseError as exc:
                why = str(exc)
                if why.startswith("unknown action"):
                    why = _("'{word}' is neither an action nor a command",
                            word=word.split()[0])
                self.say(_("Not understood: {why} (type help).", why=why), style="yellow")
                return False
        if paying and action.kind == PAY:
            return self._pay(p, [action.card])
        if shape is not None and action.kind == shape.verb:
            return self._pick(p, shape, [action.card])
        if shape is not None and action.kind == DONE:
            return self._confirm(p, shape)
        before = (self.state.clone(), [list(s.log) for s in self.seats])
        try:
            self._apply(p, action)
        except IllegalActionError as exc:
            self.say(_("Not allowed: {reason}.", reason=refusal_words(
                exc.reason, self.game.catalog, language(), p)),
                     style="yellow")
            return False
        self._play_back = None
        if action.kind == PLAY and self._paying(p):  # a play waiting for its payment
            self._play_back = (len(self.state.history), *before)
        return True

    def _take_back_play(self, p: int) -> bool:
        """Take back ``p``'s play whose payment has not begun (no card of it paid): the
        game and everyone's lines as they were before it; False if there is none. The play
        told nothing hidden (no card was drawn or turned), so going back hides nothing."""
        back = self._play_back
        if back is None or back[0] != len(self.state.history) or not self._paying(p):
            return False
        played = self.state.history[-1]
        self.state, logs = back[1], back[2]
        for seat, log in zip(self.seats, logs, strict=True):
            seat.log[:] = log
        self._play_back = None
        self.say(_("Taken back: {action}.", action=action_words(played, self.state.view(p),
                                                                 language())),
                 style="italic")
        self.draw_screen(self.state.view(p))
        return True

    def _score(self, p: int) -> None:
        """Print the score pad as the forests stand now: the scorer on the public table
        (face-down saplings and caves by their size, as the page's players panel), the
        same for every seat."""
        table = make_spectator_view(self.state)
        sheets = self.game.score_table(table.forests)
        names = [self.seat_name(i, p) for i in range(self.state.num_players)]
        self.console.print(pad_table(_("Score now"), names,
                                     self.game.pad_lines, sheets))

    def _hint(self, p: int) -> None:
        """Print what the coach would do in ``p``'s place, with its reason."""
        if not self.hints:
            self.say(NO_HINTS, style="yellow")
            return
        self.say(_("Thinking..."), style="dim")
        try:
            hint = self.coach.hint(self.state, p)
        except KeyboardInterrupt:
            self.say(_("Hint stopped."), style="yellow")
            return
        self.say(hint.words, style="bold magenta")
        self.say(self._hint_entry(p, hint.action, hint.payment), style="bold magenta")

    def _hint_entry(self, p: int, action: Action, payment: tuple[int, ...]) -> str:
        """What ``p`` types to follow the coach: the number of ``action`` among the shown
        choices, then the rest of a play's payment; a payment of several cards on one line
        (``undo`` first when cards chosen so far are not in it)."""
        view = self._shown_view(self.state.view(p))
        if self._paying(p):
            rest = [c for c in payment if c not in self._chosen]
            if any(c not in payment for c in self._chosen):
                return _("Type undo until no card is chosen, then pay {cards}.",
                         cards=" ".join(str(c) for c in payment))
            if len(rest) == 1 and Action(PAY, rest[0]) in view.legal_actions:
                return type_words(shown_actions(view).index(Action(PAY, rest[0])) + 1)
            return type_words(None, rest)
        shown = shown_actions(view)
        number = shown.index(action) + 1 if action in shown else None
        paid = payment if action.kind == PLAY else ()
        return type_words(number, paid) or _("Type {action}.", action=action)

    def _show_card(self, args: list[str]) -> None:
        digits = args[0].lstrip("#") if len(args) == 1 else ""
        if not (digits.isascii() and digits.isdigit() and len(digits) <= 6):
            self.say(_("Write card ID, e.g. card 12."), style="yellow")
            return
        try:
            self.console.print(card_details(int(digits), self.game.catalog))
        except KeyError:
            ids = [c.id for c in self.game.cards if c is not None]
            self.say(_("No card {card} in {title}: ids run {ids}.", card=digits,
                       title=self.game.title, ids=_runs(ids).replace(",", ", ")),
                     style="yellow")

    # ------------------------------------------------------------ the screen

    def draw_screen(self, view: PlayerView) -> None:
        """The screen of the human whose decision it is, from their view only."""
        if self.console.is_terminal and self.humans == 1:
            self.console.clear()
        self.console.print(self.screen(view))
        self.seats[view.player].log.clear()

    def screen(self, view: PlayerView) -> Group:
        """Everything ``view``'s player may see, compactly, with the numbered actions."""
        me = view.player
        parts: list[RenderableType] = []
        head = Text()
        if view.game.id != BASE_ID:
            head.append(f"{view.game.title} · ", style="green")
        # the table's turn count as the narration says it (before the first turn: 0)
        head.append(turn_label(view.turn, "", language()) if view.turn > 0
                    else _("Turn {n}", n=view.turn), style="bold")
        if self.seed_chosen:
            head.append(" · " + _("seed {seed}", seed=self.seed), style="dim")
        head.append(" · " + _("deck {n} · winter {winter}/{end}", n=view.deck_size,
                              winter=len(view.winter), end=view.game.winter_to_end))
        if view.extra_turns:
            head.append(" · " + ngettext("{n} extra turn to come", "{n} extra turns to come",
                                         view.extra_turns))
        for i in range(view.num_players):
            if i == me:
                continue
            head.append(" · ")
            head.append(self.seat_name(i, me), style="bold")
            head.append(" " + _("hand {n}", n=view.hand_sizes[i]))
            seen = view.known_hands[i]
            if seen:
                head.append(f" (seen: {', '.join(label(c, view.game.catalog) for c in seen)})")
        parts.append(head)
        cat = view.game.catalog
        dartmoor = moorland.is_dartmoor(view)
        if dartmoor or cat.named_caves:
            parts.append(moorland.caves_block(
                view, [self.seat_name(i, me) for i in range(view.num_players)]))
        for i in range(view.num_players):
            if i != me:
                parts.append(self._forest(view, i))
        clearing = Text(_("Clearing ({n}/{limit}): ", n=len(view.clearing),
                          limit=view.game.clearing_limit), style="bold")
        if view.clearing:
            clearing.append(" · ".join(f"{moorland.marked(c, cat)} {label(c, cat)}"
                                       for c in view.clearing))
        else:
            clearing.append(_("empty"), style="dim")
        parts.append(clearing)
        if dartmoor and not cat.named_caves:  # Exploration drafts caves, has no discard pile
            parts.append(moorland.discard_text(view))
        parts.append(self._forest(view, me))
        log = self.seats[me].log
        if log:
            shown = log[-LOG_LINES:]
            if len(log) > LOG_LINES:
                shown = [f"... {len(log) - LOG_LINES} earlier events", *shown]
            parts.append(Text("\n".join(shown), style="italic"))
        owner = (_("Your hand · {name}", name=self.seats[me].name) if self.humans > 1
                 else _("Your hand"))
        parts.append(hand_table(view.hand, view.forests[me],
                                f"{owner} ({len(view.hand)}/{view.game.hand_limit})",
                                view.game.catalog))
        on_screen = [*view.hand, *view.clearing, *view.discard[-1:],
                 *(t.card for t in view.forests[me].trees if t.card is not None)]
        note = moorland.mark_note(on_screen, cat)
        if note is not None:
            parts.append(note)
        asked = self._shown_view(view)
        if asked is not view and self._chosen:  # a payment or choice: what is chosen so far
            parts.append(Text(chosen_words(self._chosen, view.game.catalog), style="italic"))
        parts.append(Text(pending_words(asked, self.seat_name(me, me), language()),
                          style="bold cyan"))
        shape = self._choice(me) if not view.over else None
        if shape is not None:  # how to make a choice of several cards
            parts.append(Text(pick_how_words(shape, self._chosen), style="cyan"))
        elif asked is not view:  # how to choose a payment
            parts.append(Text(pay_how_words(asked.pending.need if asked.pending else 0,
                                            [a.card for a in asked.legal_actions]),
                              style="cyan"))
        parts.append(numbered_actions(asked))
        return Group(*parts)

    def _forest(self, view: PlayerView, i: int) -> RenderableType:
        forest = view.forests[i]
        me = view.player
        if i != me:
            title = f"{self.seat_name(i, me)}'s forest"
        elif self.humans > 1:
            title = _("{name}'s forest (yours)", name=self.seats[i].name)
        else:
            title = _("Your forest")
        named = view.game.catalog.named_caves
        if 0 < forest.cave_number <= len(named):  # Exploration's caves by name
            title += " · " + _("{cave} ({under} under it)",
                               cave=named[forest.cave_number - 1].name,
                               under=view.cave_sizes[i])
        elif forest.cave_number:
            title += " · " + _("cave {n} ({under} under it)", n=forest.cave_number,
                               under=view.cave_sizes[i])
        else:
            title += " · " + _("cave {n}", n=view.cave_sizes[i])
        if not forest.trees:
            return Text(f"{title} · " + _("no trees yet"), style="bold")
        return forest_table(forest, f"{title} · {hosts_words(forest)}", view.game.catalog)

    # ------------------------------------------------------------ the end

    def show_end(self) -> list[int]:
        """Show the last events, the score pad, every card's points and the winners."""
        view = self.state.view(0)
        for h in range(self.humans):
            log = self.seats[h].log
            if log:
                self.say(_("Last events for {name}:", name=self.seats[h].name)
                         if self.humans > 1 else _("Last events:"), style="bold")
                for line in log[-LOG_LINES:]:
                    self.say(line, style="italic")
                log.clear()
        sheets = view.game.score_table(view.forests)
        names = [self.seats[i].name for i in range(view.num_players)]
        over, winner_line = end_words(names, [s.total for s in sheets], language())
        self.say(over, style="bold green")
        pad = pad_table(_("Score pad"), names, self.game.pad_lines, sheets)
        for i, sheet in enumerate(sheets):
            table = Table(title=f"{names[i]}: {sheet.total} points", title_justify="left",
                          box=None, padding=(0, 1), show_header=False, title_style="bold")
            table.add_column("where", style="dim", no_wrap=True)
            table.add_column("species", no_wrap=True)
            table.add_column("points", justify="right", style="bold")
            table.add_column("why", ratio=1)
            for cp in sheet.cards:
                table.add_row(cp.where, cp.species, str(cp.points), cp.why)
            self.console.print(table)
        self.console.print(pad)
        self.say(_("Seed of this deal: {seed} (play it again with --seed {seed}).",
                   seed=self.seed), style="dim")
        self.say(winner_line, style="bold green")
        return scoring.winners([s.total for s in sheets])
