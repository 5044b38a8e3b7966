"""The ``cards`` sub-command: browse the species and physical cards of a game.

Contract: ``cards [NAME] [--game ID] [--json] [--lang L]`` lists every species of the game ID
(default ``base``), or shows one card id or the species printed with a name (every one: the
base and the Woodland Edge Squeakers are both "Squeaker"; a key such as ``Edge Squeaker``
finds its species too; so does its name in German, French or Chinese); with ``--json`` the
physical cards (all of them: the deck's, then a game's caves, as records of kind ``cave``;
or those of NAME). ``--lang`` (``en``, ``de``, ``fr``, ``zh``) lists the names as printed in
that language's edition (``docs/card-names.md``; a name no source gives stays English,
marked); in ``--json`` the keys and values stay as they are and each species gets a
``name`` field in that language. Species are shown by their printed
names (where two share one, with their module). A species whose reading is not confirmed is
marked ``provisional`` and its note shown; a card of a provisional deck (Dartmoor) carries
``*`` and says which of its facts are assumed. An unknown name or game is one line on
standard error and exit status 2.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from forest_shuffle.cards.model import Card, Catalog, Cave, Species
from forest_shuffle.cards.names import (
    LANGS,
    UnknownLanguageError,
    cave_name,
    check_lang,
    name_fact,
    printed_name,
    species_named,
)
from forest_shuffle.cards.words import plural
from forest_shuffle.cli.commands.options import GameOption, game_from_option
from forest_shuffle.games import BASE_ID, GameDef, game_ids, make_game
from forest_shuffle.terminal.dartmoor import MARK, assumed_words, mark
from forest_shuffle.text import cardtext


def symbol_text(symbol: str) -> Text:
    """A tree symbol name in its colour."""
    return Text(symbol, style=cardtext.SYMBOL_STYLES.get(symbol, ""))


#: Console width from which the species table gets one column per rules part.
WIDE_TABLE_MIN_WIDTH = 150


def _rules_cell(sp: Species, lang: str = "en") -> Text:
    out = Text()
    for part in cardtext.PARTS:
        words = cardtext.short_text(sp, part, lang)
        if words:
            if out:
                out.append("\n")
            out.append(f"{cardtext.part_label(part, lang)}: ", style="bold")
            out.append(words)
    return out


#: The word that marks a species whose reading is not confirmed.
PROVISIONAL = "provisional"


def _name_cell(sp: Species, catalog: Catalog, lang: str = "en") -> Text:
    """The printed name in ``lang``; where species of the game share it, which one (dim);
    in another language than English the English name (dim), and a name no source gives
    in that language marked."""
    name = Text(printed_name(sp, lang))
    if lang != "en":
        fact = name_fact(sp, lang)
        if fact.fallback:
            name.append(f" (no {lang} name known)", style="yellow not bold")
        elif fact.name != sp.printed:
            name.append(f" · {sp.printed}", style="dim not bold")
    if len(catalog.named(sp.printed)) > 1:
        name.append(f" ({_module_word(sp.module)})", style="dim not bold")
    if sp.provisional:
        name.append(f" ({PROVISIONAL})", style="yellow not bold")
    return name


def _module_word(module: str) -> str:
    return "base game" if module == BASE_ID else module.replace("_", " ").title()


def _kinds_caption(rows: list[Species]) -> str:
    counts: dict[str, int] = {}
    for sp in rows:
        counts[sp.kind] = counts.get(sp.kind, 0) + 1
    return ", ".join(f"{n} {plural(kind, n)}" for kind, n in counts.items())


def species_table(game: GameDef, *, wide: bool = True, lang: str = "en") -> Table:
    """A table with one row per species of ``game``: hosts first, then dwellers by where
    they go (groups and species in the order of the data); provisional species are marked
    and their notes listed under it.

    ``wide`` gives effect, bonus, permanent effect and points their own columns; otherwise
    they share one labelled column and the tags go under the name, to fit 80 columns.
    ``lang`` is the language of the names (:data:`~forest_shuffle.cards.names.LANGS`), the
    tags and the rules' phrases (the ``cards`` domain).
    """
    catalog = game.catalog
    groups: dict[tuple[str, ...], int] = {}
    for sp in catalog.species.values():
        groups.setdefault(sp.positions, len(groups))
    rows = sorted(catalog.species.values(), key=lambda sp: (not sp.is_host, groups[sp.positions]))
    hosts = "tree cards" if all(sp.is_tree for sp in rows if sp.is_host) else "host cards"
    notes = [f"{sp.printed}: {sp.provisional}" for sp in rows if sp.provisional]
    caption = (f"{_kinds_caption(rows)}; {len(catalog.deck_ids)} deck cards. Copies: "
               f"{hosts}, or card halves for dwellers.")
    if notes:
        caption += f"\n{PROVISIONAL.capitalize()}: " + "\n".join(notes)
    if catalog.provisional_deck:
        caption += f"\n{catalog.provisional_deck}"
    table = Table(
        title=f"{game.title}: {len(rows)} species",
        caption=caption,
    )
    table.add_column("Name", style="bold", no_wrap=wide)
    table.add_column("Cost", justify="right")
    if wide:
        table.add_column("Tags")
    table.add_column("Goes")
    if wide:
        for label in cardtext.PARTS.values():
            table.add_column(label.replace(" effect", ""))
    else:
        table.add_column("Rules", ratio=1)
    table.add_column("Copies", justify="right")
    for i, sp in enumerate(rows):
        last_of_group = i + 1 == len(rows) or rows[i + 1].positions != sp.positions
        cells: list[str | Text]
        if wide:
            cells = [_name_cell(sp, catalog, lang), str(sp.cost), cardtext.tags_text(sp, lang),
                     cardtext.where_it_goes(sp)]
            cells += [cardtext.short_text(sp, part, lang) or "-" for part in cardtext.PARTS]
        else:
            name = _name_cell(sp, catalog, lang)
            name.append(f"\n{cardtext.tags_text(sp, lang)}", style="dim not bold")
            cells = [name, str(sp.cost), cardtext.where_it_goes(sp), _rules_cell(sp, lang)]
        table.add_row(*cells, str(sp.count), end_section=last_of_group)
    return table


def _half_cell(card: Card, side: str) -> Text:
    half = card.halves[side]
    out = Text(f"{half.species.printed} ({side}, ")
    out.append_text(symbol_text(half.symbol))
    out.append(")")
    return out


def cards_table(species: Species, catalog: Catalog) -> Table:
    """The physical cards showing ``species``: id, its half and what is on the other half."""
    table = Table(title=f"Cards showing {_title(species, catalog)}")
    table.add_column("Id", justify="right")
    table.add_column("Code")
    table.add_column("This half" if not species.is_host else "Card")
    table.add_column("Tree symbol")
    table.add_column("Other half")
    for card in cardtext.cards_showing(species, catalog):
        cid = f"{card.id}{mark(card.id, catalog)}"
        if card.species is not None:
            table.add_row(cid, cardtext.card_code(card, catalog), f"{card.kind} card",
                          symbol_text(card.symbol), "-")
            continue
        mine = next(s for s, h in card.halves.items() if h.species is species)
        other = next(s for s in card.halves if s != mine)
        table.add_row(cid, cardtext.card_code(card, catalog), mine,
                      symbol_text(card.halves[mine].symbol), _half_cell(card, other))
    if any(c.assumed for c in cardtext.cards_showing(species, catalog)):
        table.caption = (f"{MARK} provisional card: its pairing, sides or tree symbols are "
                         "assumed (cards ID says which)")
    return table


def _title(species: Species, catalog: Catalog) -> str:
    """The printed name, and where species of the game share it, of which module."""
    if len(catalog.named(species.printed)) < 2:
        return species.printed
    return f"{species.printed} ({_module_word(species.module)})"


def species_details(species: Species, catalog: Catalog, lang: str = "en") -> Table:
    """A two-column grid of everything known about one species (its tags and rules in
    ``lang``)."""
    grid = Table(title=_title(species, catalog), show_header=False, title_style="bold")
    grid.add_column("Field", style="bold")
    grid.add_column("Value")
    for label, value in cardtext.species_facts(species, catalog, lang):
        grid.add_row(label, value)
    return grid


def _symbol_tally(species: Species, catalog: Catalog) -> Text:
    counts: dict[str, int] = {}
    for card in cardtext.cards_showing(species, catalog):
        symbols = ([card.symbol] if card.species is not None
                   else [h.symbol for h in card.halves.values() if h.species is species])
        for sym in symbols:
            counts[sym] = counts.get(sym, 0) + 1
    out = Text("Tree symbols on its cards: ")
    for i, (sym, n) in enumerate(sorted(counts.items())):
        if i:
            out.append(", ")
        out.append_text(symbol_text(sym))
        out.append(f" x{n}")
    return out


def show_species(console: Console, species: Species, catalog: Catalog,
                 lang: str = "en") -> None:
    """Print the details (in ``lang``) and the physical cards of one species."""
    console.print(species_details(species, catalog, lang))
    console.print(_symbol_tally(species, catalog))
    console.print(cards_table(species, catalog))


def show_card(console: Console, card: Card, catalog: Catalog, lang: str = "en") -> None:
    """Print one physical card, then the details of each species on it."""
    console.print(Text(cardtext.card_summary(card.id, catalog), style="bold"))
    if card.assumed:
        console.print(Text(f"{MARK} {PROVISIONAL} card: assumed {assumed_words(card)}.",
                           style="yellow"))
        if catalog.provisional_deck:
            console.print(Text(catalog.provisional_deck, style="dim"))
    if card.is_winter:
        console.print(cardtext.WINTER_TEXT)
        return
    shown = [card.species] if card.species is not None else [
        h.species for h in card.halves.values()]
    for sp in shown:
        if sp is not None:
            console.print()
            show_species(console, sp, catalog, lang)


def resolve(query: str, catalog: Catalog) -> tuple[Species, ...] | Card:
    """A card id number gives that card; anything else is matched as a printed species
    name (every species printed with it: more than one where species share it), in
    English (a unique part is enough) or whole in German, French or Chinese."""
    text = query.strip().lstrip("#")
    if text.isascii() and text.isdigit() and len(text) <= 6:  # "²" is a digit to Python
        try:
            return catalog.card(int(text))
        except KeyError:
            ids = catalog.deck_ids
            raise cardtext.NoSuchCard(
                f"no card with id {int(text)} (ids run {min(ids)}-{max(ids)})") from None
    try:
        return cardtext.match_printed(query, catalog)
    except cardtext.NoSuchCard:
        found = species_named(catalog, query)
        if found:
            return found
        raise


def cave_record(cave: Cave) -> dict[str, Any]:
    """A JSON-ready dict of a Dartmoor cave: ``kind`` ``cave``, its ``number`` (a cave is no
    deck card, so it has no ``id``), ``code`` (``C3``), what it does in words (``text``) and,
    for a reading not confirmed, its ``provisional`` note."""
    record: dict[str, Any] = {"kind": "cave", "number": cave.number,
                              "code": f"C{cave.number}", "text": cave.text}
    if cave.provisional:
        record["provisional"] = cave.provisional
    return record


def records(target: tuple[Species, ...] | Species | Card | None,
            catalog: Catalog, lang: str | None = None) -> list[dict[str, Any]]:
    """JSON records of all cards (a game with caves lists its caves after the deck's
    cards), of one card, or of the cards showing the species (by id); with ``lang`` each
    host card and each half also has ``name``, its species' name in that language (a
    cave the cave card's)."""
    if target is None:
        chosen = [c for c in catalog.cards if c is not None]
    elif isinstance(target, Card):
        chosen = [target]
    else:
        shown = (target,) if isinstance(target, Species) else target
        chosen = sorted({c.id: c for sp in shown
                         for c in cardtext.cards_showing(sp, catalog)}.values(),
                        key=lambda c: c.id)
    out = [cardtext.card_record(c, catalog) for c in chosen]
    for record, card in zip(out, chosen, strict=True):  # a provisional deck's facts
        if card.printed:
            record["printed"] = card.printed
        if card.assumed:
            record["assumed"] = list(card.assumed)
        if lang is not None:
            _add_names(record, card, lang)
    if target is None:
        caves = [cave_record(cave) for cave in catalog.caves]
        if lang is not None:
            for record in caves:
                record["name"] = cave_name(lang, catalog.modules[0])
        out += caves
    return out


def _add_names(record: dict[str, Any], card: Card, lang: str) -> None:
    """Give a card record its species' names in ``lang`` (the keys stay as they are)."""
    if card.species is not None:
        record["name"] = printed_name(card.species, lang)
    for side, half in card.halves.items():
        record[side]["name"] = printed_name(half.species, lang)


def _elsewhere(query: str, game: GameDef) -> str:
    """`` (in the game base+alpine: --game base+alpine)`` when the smallest other game that
    knows ``query`` (a species name or card id) is not ``game``; ``""`` otherwise."""
    for gid in game_ids():
        other = make_game(gid)
        if other.id == game.id or set(game.catalog.modules) >= set(other.catalog.modules):
            continue
        try:
            resolve(query, other.catalog)
        except cardtext.NoSuchCard:
            continue
        return f" (it is in the game {other.id}: --game {other.id})"
    return ""


def cards_command(
    name: Annotated[str | None, typer.Argument(
        help="A species name (case, spaces and apostrophes ignored; a unique part is enough) "
             "or a card id.", show_default=False)] = None,
    as_json: Annotated[bool, typer.Option(
        "--json", help="Print the physical cards as JSON (all, or those showing NAME).")] = False,
    game: GameOption = BASE_ID,
    lang: Annotated[str | None, typer.Option(
        "--lang", metavar="L",
        help=f"The names as printed in that language's edition: {', '.join(LANGS)}.",
        show_default=False)] = None,
) -> None:
    """Browse the cards: all species, or the full details of one species or card id."""
    gdef = game_from_option(game)
    catalog = gdef.catalog
    if lang is not None:
        try:
            lang = check_lang(lang)
        except UnknownLanguageError as exc:
            typer.echo(str(exc), err=True)
            raise typer.Exit(2) from None
    target: tuple[Species, ...] | Card | None = None
    if name is not None:
        try:
            target = resolve(name, catalog)
        except cardtext.NoSuchCard as exc:
            typer.echo(f"{exc}{_elsewhere(name, gdef)}", err=True)
            raise typer.Exit(2) from None
    if as_json:
        typer.echo(json.dumps(records(target, catalog, lang), indent=2, ensure_ascii=False))
        return
    console = Console()
    if target is None:
        console.print(species_table(gdef, wide=console.width >= WIDE_TABLE_MIN_WIDTH,
                                    lang=lang or "en"))
    elif isinstance(target, Card):
        show_card(console, target, catalog, lang or "en")
    else:
        for i, sp in enumerate(target):
            if i:
                console.print()
            show_species(console, sp, catalog, lang or "en")


def register(app: typer.Typer) -> None:
    """Add the ``cards`` sub-command to ``app``."""
    app.command("cards")(cards_command)
