"""Human-readable words for cards: effects, bonuses, points, placement, card summaries.

Shared by the ``cards`` command, the terminal game and the web page. Short phrases are
built from the structured data (:class:`~forest_shuffle.cards.model.Effect`,
:class:`~forest_shuffle.cards.model.Points`) for every op of
:data:`~forest_shuffle.cards.model.EFFECT_OPS` (the words its declaration gives) and rule of
:data:`~forest_shuffle.cards.model.POINT_RULES`;
long phrases come from ``Species.text`` and fall back to the short ones. There is no default
catalog: what needs the cards of a game (summaries, card codes, cards showing a species,
name matching) takes that game's catalog.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from typing import Any

from forest_shuffle.cards.model import Card, Catalog, Cave, Effect, Species, normalize_name
from forest_shuffle.cards.ops import op_words
from forest_shuffle.cards.words import article, plural

#: Rich styles for the printed tree symbols (terminal and command line): the base colours
#: from the reference card facts; the two Alpine trees' styles are our choice (the
#: reference names no colour for them).
SYMBOL_STYLES: Mapping[str, str] = {
    "Beech": "green4",
    "Birch": "green1",
    "Douglas Fir": "grey62",
    "Horse Chestnut": "dark_orange",
    "Linden": "yellow",
    "Oak": "orange4",
    "Silver Fir": "blue",
    "Sycamore": "red",
    "European Larch": "gold3",
    "Stone Pine": "dark_olive_green3",
}

TREE_SYMBOL_COLOURS: Mapping[str, str] = {
    "Beech": "dark green",
    "Birch": "light green",
    "Douglas Fir": "grey",
    "Horse Chestnut": "orange",
    "Linden": "yellow",
    "Oak": "brown",
    "Silver Fir": "blue",
    "Sycamore": "red",
}

#: What a winter card does.
WINTER_TEXT = ("Winter card: laid beside the clearing and replaced when drawn; "
               "the game ends at once when the third winter card appears.")

#: The parts of a species that carry rules text, in display order, with their labels.
PARTS: Mapping[str, str] = {
    "effect": "Effect",
    "bonus": "Bonus",
    "permanent": "Permanent effect",
    "points": "Points",
}

_KIND_NAMES: Mapping[str, str] = {
    "tree": "tree",
    "shrub": "shrub",
    "moor": "moor",
    "winter": "winter",
    "lr": "split_left_right",
    "tb": "split_top_bottom",
}

#: Tags that are symbols of an expansion rather than kinds of card, in words.
_SYMBOL_TAGS: Mapping[str, str] = {"alps": "Alps card", "woodland edge": "Woodland Edge card"}

#: The first letters of the card codes of the expansion modules (the base game's codes are
#: the reference's: T01, W1, LR01, TB01).
_MODULE_CODES: Mapping[str, str] = {"alpine": "A", "woodland_edge": "E", "dartmoor": "D"}


def tag_word(tag: str, n: int = 1) -> str:
    """A tag as a noun: ``bird``, ``bats``, ``Alps card`` (a symbol tag names cards)."""
    word = _SYMBOL_TAGS.get(tag, tag)
    return plural(word, n)


def describe_effect(effect: Effect | None) -> str:
    """A short sentence for an effect, bonus or permanent effect; ``""`` for none (the
    words its op's declaration gives, :func:`~forest_shuffle.cards.ops.op_words`)."""
    if effect is None:
        return ""
    return op_words(effect, tag_word)


def _table_words(table: Mapping[str, Any]) -> str:
    keys = list(table)
    return f"{'/'.join(str(table[k]) for k in keys)} for {'/'.join(keys)}"


def describe_points(species: Species) -> str:
    """A short phrase for how a species scores, e.g. ``"3 per bird (itself included)"``."""
    p = species.points
    rule = p.rule
    itself = " (itself included)" if p.get("includes_self") else ""
    if rule == "none":
        return "0"
    if rule == "flat":
        return f"{p.get('points_each')} each"
    if rule == "per_tag":
        return f"{p.get('points_per')} per {tag_word(str(p.get('tag')))}{itself}"
    if rule == "per_tags":
        words = " or ".join(tag_word(str(t)) for t in p.get("tags", []))
        return f"{p.get('points_per')} per {words}{itself}"
    if rule == "per_species":
        return f"{p.get('points_per')} per {p.get('species')}{_counting_too(species)}"
    if rule == "majority":
        return (f"{p.get('points_each')} each, {p.get('points_each_if_most')} each "
                f"with the most {plural(species.printed)}")
    if rule == "threshold_own_species":
        return f"{p.get('points_each')} each with {p.get('min_count')}+ {plural(species.printed)}"
    if rule == "all_tree_species":
        return f"{p.get('points_each')} each with all {p.get('species_needed')} tree species"
    if rule == "per_card_in_own_slots":
        return f"{p.get('points_per_card')} per card in its slots"
    if rule == "set_table":
        return f"set: {_table_words(p.get('table', {}))}"
    if rule == "butterfly_sets":
        return f"sets of different butterflies: {_table_words(p.get('table', {}))}"
    if rule == "bat_variety":
        return f"{p.get('points_each')} each with {p.get('min_distinct_bat_species')}+ bat species"
    if rule == "per_fully_occupied_tree":
        return f"{p.get('points_per')} per fully occupied tree"
    if rule == "bat_opposite":
        return f"{p.get('points_each')} with a bat in the opposite slot"
    if rule == "requires_species":
        return (f"{p.get('points_each')} each with {p.get('min_count')}+ {p.get('species')}"
                f"{_counting_too(species)}")
    if rule == "on_tree_species":
        return f"{p.get('points_each')} if atop {article(str(p.get('tree')))}"
    if rule == "paired_in_slot":
        return f"{p.get('points_each')} each when sharing a slot"
    if rule == "most_trees":
        return f"{p.get('points_each')} each with the most trees"
    if rule == "min_trees":
        return f"{p.get('points_each')} each with {p.get('min_trees')}+ trees"
    if rule == "per_own_tree_symbol":
        return f"{p.get('points_per')} per card with its tree symbol{itself}"
    if rule == "per_bottom_card":
        return f"{p.get('points_per')} per card below a tree{itself}"
    if rule == "per_distinct_species":
        return f"{p.get('points_per')} per different {p.get('tag')} species"
    if rule == "distinct_species_table":
        return (f"by different {p.get('tag')} species: "
                f"{_table_words(p.get('table', {}))}")
    if rule == "per_tree_symbols":
        symbols = " or ".join(str(x) for x in p.get("symbols", []))
        return f"{p.get('points_per')} per card with the {symbols} symbol{itself}"
    if rule == "per_cave_card":
        return f"{p.get('points_per')} per card in your cave"
    if rule == "on_host_kind":
        where = {"top": "atop", "bottom": "below"}.get(
            species.positions[0], "at") if len(species.positions) == 1 else "at"
        return f"{p.get('points_each')} if {where} {article(str(p.get('host')))}"
    if rule == "alone_on_host":
        return f"{p.get('points_each')} if the only card at its tree or shrub"
    return _dartmoor_points(species)


def _dartmoor_points(species: Species) -> str:
    """Words for the scoring rules Dartmoor added (the fallback names an unknown rule)."""
    p = species.points
    rule = p.rule
    if rule == "per_tag_and_symbol":
        return (f"{p.get('points_per')} per {tag_word(str(p.get('tag')))} and per card with "
                f"the {p.get('symbol')} symbol")
    if rule == "fully_occupied_self":
        return f"{p.get('points_each')} if fully occupied"
    if rule == "host_fully_occupied":
        return f"{p.get('points_each')} if its tree or shrub is fully occupied"
    if rule == "moor_majority":
        return (f"{p.get('points_each')} each, {p.get('points_each_if_most')} each with the most "
                f"moors (ties count; solo: {p.get('solo_min_moors')}+ moors)")
    if rule == "tag_threshold":
        return (f"{p.get('points_each')} each, {p.get('points_each_if_met')} each with "
                f"{p.get('min_count')}+ {tag_word(str(p.get('tag')), 2)}")
    if rule == "variety_sets":
        return (f"sets of different {tag_word(str(p.get('tag')), 2)}: "
                f"{_table_words(p.get('table', {}))}")
    if rule == "double_below":
        what = tag_word(str(p.get("tag")), 2) if p.get("tag") else "cards"
        return f"0; {what} below it score double"
    if rule == "cave_bonus":
        return f"{p.get('points')} more at the end"
    return rule.replace("_", " ")


def cave_words(cave: Cave) -> str:
    """One line for a Dartmoor cave: its number, what it does, and a provisional mark."""
    mark = " (provisional reading)" if cave.provisional else ""
    return f"Cave {cave.number}: {cave.text}{mark}"


def _counting_too(species: Species) -> str:
    """`` (Mountain Hares included)``: the species that count as the one a rule names."""
    also = [plural(n) for n in species.targets_printed]
    return f" ({', '.join(also)} included)" if also else ""


def part_effect(species: Species, part: str) -> Effect | None:
    """The structured effect of ``part`` (``effect``, ``bonus`` or ``permanent``)."""
    if part == "effect":
        return species.effect
    if part == "bonus":
        return species.bonus
    if part == "permanent":
        return species.permanent
    raise ValueError(f"no effect part {part!r}")


def short_text(species: Species, part: str) -> str:
    """The short phrase of one part (see :data:`PARTS`); ``""`` if the species has none."""
    if part == "points":
        return describe_points(species)
    return describe_effect(part_effect(species, part))


def full_text(species: Species, part: str) -> str:
    """The full rules text of one part, from ``Species.text``, else the short phrase."""
    text = species.text.get(part)
    if text:
        return text
    return short_text(species, part)


def where_it_goes(species: Species) -> str:
    """Where a species is placed: ``tree``, ``shrub``, ``left/right``, ``top`` or
    ``bottom``."""
    return "/".join(species.positions)


def tags_text(species: Species) -> str:
    """The tags of a species in alphabetical order, as ``"butterfly, insect"``."""
    return ", ".join(sorted(species.tags))


def _kind_code(card: Card) -> str:
    if card.is_host:
        return card.kind[0].upper()
    if card.is_winter:
        return "W"
    return card.axis.upper()


def card_code(card: Card, catalog: Catalog) -> str:
    """A readable alias of a card id. Base cards have the reference's: ``T01``, ``W1``,
    ``LR12`` or ``TB48``; an expansion card has its module's letter, its kind (``T`` tree,
    ``S`` shrub, ``LR``, ``TB``) and its number among that module's cards of that kind:
    ``AT01`` (the first Alpine tree), ``ES12``, ``ELR01``."""
    code = _kind_code(card)
    if card.module == "base" or card.module not in _MODULE_CODES:
        first = {"T": 1, "W": 67, "LR": 70, "TB": 114}.get(code, 1)
        width = 1 if code == "W" else 2
        return f"{code}{card.id - first + 1:0{width}d}"
    n = sum(1 for c in catalog.cards[:card.id]
            if c is not None and c.module == card.module and _kind_code(c) == code)
    return f"{_MODULE_CODES[card.module]}{code}{n + 1:02d}"


def card_kind(card: Card) -> str:
    """The reference kind: ``tree``, ``shrub``, ``winter``, ``split_left_right`` or
    ``split_top_bottom``; Dartmoor's ``moor``."""
    if card.is_host or card.is_winter:
        return _KIND_NAMES[card.kind]
    return _KIND_NAMES[card.axis]


def card_summary(card_id: int, catalog: Catalog) -> str:
    """One line for a card: ``"#81 LR12: Red Deer (left, Linden) | Brown Bear (right, Beech)"``."""
    card = catalog.card(card_id)
    head = f"#{card.id} {card_code(card, catalog)}"
    if card.species is not None:
        shown = "" if card.is_tree else f", {card.symbol}"
        return (f"{head}: {card.species.printed} ({card.kind} card{shown}, "
                f"cost {card.species.cost})")
    if card.is_winter:
        return f"{head}: Winter card"
    halves = " | ".join(f"{h.species.printed} ({side}, {h.symbol})"
                       for side, h in card.halves.items())
    return f"{head}: {halves}"


def cards_showing(species: Species, catalog: Catalog) -> list[Card]:
    """The physical cards that show ``species`` (as tree or on a half), by id."""
    found: list[Card] = []
    for card in catalog.cards:
        if card is None:
            continue
        if card.species is species or any(h.species is species for h in card.halves.values()):
            found.append(card)
    return found


def card_record(card: Card, catalog: Catalog) -> dict[str, Any]:
    """A JSON-ready dict shaped like the ``cards`` entries of ``cards-base.json``, plus extras
    (a shrub card has ``shrub`` where a tree card has ``tree``; an expansion card its
    ``module``; a species whose reading is not confirmed its ``provisional`` note)."""
    record: dict[str, Any] = {"id": card.id, "code": card_code(card, catalog),
                              "kind": card_kind(card)}
    if card.module != "base":
        record["module"] = card.module
    if card.species is not None:
        sp = card.species
        record[card.kind] = sp.printed
        record.update(tree_symbol=card.symbol, cost=sp.cost, tags=sorted(sp.tags))
        record.update(_rules_record(sp))
    for side, half in card.halves.items():
        record[side] = {
            "species": half.species.printed,
            "tree_symbol": half.symbol,
            "cost": half.species.cost,
            "tags": sorted(half.species.tags),
            **_rules_record(half.species),
        }
    return record


def _rules_record(species: Species) -> dict[str, str]:
    out = {part: full_text(species, part) for part in PARTS if short_text(species, part)}
    if species.provisional:
        out["provisional"] = species.provisional
    return out


def species_facts(species: Species, catalog: Catalog) -> list[tuple[str, str]]:
    """Labelled facts about a species, in display order, for detail views."""
    copies = (f"{species.count} {species.kind} cards" if species.is_host
              else f"{species.count} card halves")
    facts = [
        ("Kind", species.kind),
        ("Cost", str(species.cost)),
        ("Tags", tags_text(species)),
        ("Goes", where_it_goes(species)),
        ("In the deck", copies),
    ]
    for part, label in PARTS.items():
        text = full_text(species, part)
        if text:
            facts.append((label, text))
    if len(species.counts_as) > 1:
        also = species.counts_as[1:]
        facts.append(("Counts as", ", ".join(printed_of(n, catalog) for n in also)))
    if species.module != "base":
        facts.append(("Expansion", species.module.replace("_", " ").title()))
    if species.provisional:
        facts.append(("Provisional", species.provisional))
    ids = [str(c.id) for c in cards_showing(species, catalog)]
    facts.append(("Card ids", ", ".join(ids)))
    return facts


class NoSuchCard(LookupError):
    """A card name or id matched nothing, or more than one species; ``str()`` is one line."""


def printed_of(name: str, catalog: Catalog) -> str:
    """The printed name of the species whose key is ``name`` (``name`` if none is)."""
    sp = catalog.species.get(name)
    return name if sp is None else sp.printed


_TREE_WORD = normalize_name("tree")


def match_species(query: str, catalog: Catalog) -> Species:
    """The species named by ``query`` (the first of :func:`match_printed`)."""
    return match_printed(query, catalog)[0]


def match_printed(query: str, catalog: Catalog) -> tuple[Species, ...]:
    """The species named by ``query``: every species printed with one name (several only
    where species share a printed name, in catalog order), matched by the exact folded
    printed name or key (a tree also with "tree" after it), else by a unique prefix or
    substring of a printed name.

    Apostrophes may be left out (``bechsteins bat``). Raises :class:`NoSuchCard` with a
    one-line message, with difflib suggestions.
    """
    folded = normalize_name(query)
    loose = folded.replace("'", "")
    if not loose:
        raise NoSuchCard(f"no card named {query!r}: give a species name or a card id")
    exact = catalog.named(folded)
    if not exact and folded.endswith(_TREE_WORD):  # "Linden Tree", as the appendix has it
        exact = tuple(sp for sp in catalog.named(folded[:-len(_TREE_WORD)]) if sp.is_tree)
    if exact:
        return exact
    names = catalog.by_printed
    for test in (str.__eq__, str.startswith, str.__contains__):
        hits = [found for key, found in names.items() if test(key.replace("'", ""), loose)]
        if len(hits) == 1:
            return hits[0]
        if len(hits) > 1:
            listed = ", ".join(found[0].printed for found in hits)
            raise NoSuchCard(f"{query!r} matches several cards: {listed}")
    close = difflib.get_close_matches(folded, list(names), n=3, cutoff=0.6)
    if close:
        guesses = " or ".join(names[c][0].printed for c in close)
        raise NoSuchCard(f"no card named {query!r}, did you mean {guesses}?")
    raise NoSuchCard(f"no card named {query!r}")
