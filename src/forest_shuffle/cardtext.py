"""Human-readable words for cards: effects, bonuses, points, placement, card summaries.

Shared by the ``cards`` command, the terminal game and the web page. Short phrases are
built from the structured data (:class:`~forest_shuffle.cards.Effect`,
:class:`~forest_shuffle.cards.Points`); long phrases come from ``Species.text`` and fall
back to the short ones.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from typing import Any

from forest_shuffle.cards import CATALOG, Card, Catalog, Effect, Species, normalize_name

#: Colour of each printed tree symbol (from the reference card facts).
#: Rich styles for the printed tree symbols (terminal and command line).
SYMBOL_STYLES: Mapping[str, str] = {
    "Beech": "green4",
    "Birch": "green1",
    "Douglas Fir": "grey62",
    "Horse Chestnut": "dark_orange",
    "Linden": "yellow",
    "Oak": "orange4",
    "Silver Fir": "blue",
    "Sycamore": "red",
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

_TRIGGERS: Mapping[str, str] = {
    "tree card played": "you play a tree card",
    "pawed animal played": "you play a pawed animal",
    "card placed below a tree": "you place a card below a tree",
    "card placed atop a tree": "you place a card atop a tree",
}

_KIND_NAMES: Mapping[str, str] = {
    "tree": "tree",
    "winter": "winter",
    "lr": "split_left_right",
    "tb": "split_top_bottom",
}


def plural(word: str, n: int = 2) -> str:
    """English plural of a species or tag name (``Beech`` -> ``Beeches``) unless ``n == 1``."""
    if n == 1 or word.endswith(("Deer", "deer")):
        return word
    if word.endswith("y") and not word.endswith(("ay", "ey", "oy")):
        return word[:-1] + "ies"
    if word.endswith(("ch", "sh", "s", "x")):
        return word + "es"
    return word + "s"


def cards_word(n: int) -> str:
    """``"1 card"`` or ``"n cards"``."""
    return f"{n} card" if n == 1 else f"{n} cards"


def describe_effect(effect: Effect | None) -> str:
    """A short sentence for an effect, bonus or permanent effect; ``""`` for none."""
    if effect is None:
        return ""
    op = effect.op
    if op == "draw":
        return f"Draw {cards_word(int(effect.get('n', 1)))}"
    if op == "draw_per_species":
        return f"Draw 1 card per {effect.get('species')} in your forest"
    if op == "draw_per_tag":
        return f"Draw 1 card per {effect.get('tag')} in your forest"
    if op == "extra_turn":
        return "Take another turn"
    if op == "draw_and_extra_turn":
        return f"Draw {cards_word(int(effect.get('n', 1)))} and take another turn"
    if op == "free_play":
        n = int(effect.get("count", 1))
        return f"Place {n} {plural(str(effect.get('tag')), n)} from your hand for free"
    if op == "free_play_any":
        return f"Place any number of {plural(str(effect.get('tag')))} from your hand for free"
    if op == "clearing_to_cave":
        return "Put every card in the clearing under your cave"
    if op == "hand_to_cave_redraw":
        return "Put any number of hand cards under your cave, then draw as many"
    if op == "play_any_number_paying":
        return "Play any number of further cards from your hand, paying their costs"
    if op == "draw_on_play":
        trigger = str(effect.get("trigger"))
        when = _TRIGGERS.get(trigger, trigger)
        return f"Whenever {when}, draw {cards_word(int(effect.get('n', 1)))}"
    if op == "slot_sharing":
        most = effect.get("max_per_slot")
        if most is None:
            return "Any number of this species may share one slot"
        return f"Up to {most} of this species may share one slot"
    if op == "tree_count_modifier":
        return f"Counts as +{effect.get('plus', 1)} tree of the species it sits at"
    return op.replace("_", " ").capitalize()


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
        return f"{p.get('points_per')} per {p.get('tag')}{itself}"
    if rule == "per_tags":
        return f"{p.get('points_per')} per {' or '.join(p.get('tags', []))}{itself}"
    if rule == "per_species":
        return f"{p.get('points_per')} per {p.get('species')}"
    if rule == "majority":
        return (f"{p.get('points_each')} each, {p.get('points_each_if_most')} each "
                f"with the most {plural(species.name)}")
    if rule == "threshold_own_species":
        return f"{p.get('points_each')} each with {p.get('min_count')}+ {plural(species.name)}"
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
        return f"{p.get('points_each')} each with {p.get('min_count')}+ {p.get('species')}"
    if rule == "on_tree_species":
        return f"{p.get('points_each')} if atop {_article(str(p.get('tree')))}"
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
    return rule.replace("_", " ")


def _article(noun: str) -> str:
    return f"an {noun}" if noun[:1].lower() in "aeiou" else f"a {noun}"


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
    """Where a species is placed: ``tree``, ``left/right``, ``top`` or ``bottom``."""
    return "/".join(species.positions)


def tags_text(species: Species) -> str:
    """The tags of a species in alphabetical order, as ``"butterfly, insect"``."""
    return ", ".join(sorted(species.tags))


def card_code(card: Card) -> str:
    """The reference's readable alias of a card id: ``T01``, ``W1``, ``LR12`` or ``TB48``."""
    if card.is_tree:
        return f"T{card.id:02d}"
    if card.is_winter:
        return f"W{card.id - 66}"
    if card.axis == "lr":
        return f"LR{card.id - 69:02d}"
    return f"TB{card.id - 113:02d}"


def card_kind(card: Card) -> str:
    """The reference kind: ``tree``, ``winter``, ``split_left_right`` or ``split_top_bottom``."""
    if card.is_tree:
        return "tree"
    if card.is_winter:
        return "winter"
    return _KIND_NAMES[card.axis]


def card_summary(card_id: int, catalog: Catalog = CATALOG) -> str:
    """One line for a card: ``"#81 LR12: Red Deer (left, Linden) | Brown Bear (right, Beech)"``."""
    card = catalog.card(card_id)
    head = f"#{card.id} {card_code(card)}"
    if card.species is not None:
        return f"{head}: {card.species.name} (tree card, cost {card.species.cost})"
    if card.is_winter:
        return f"{head}: Winter card"
    halves = " | ".join(f"{h.species.name} ({side}, {h.symbol})" for side, h in card.halves.items())
    return f"{head}: {halves}"


def cards_showing(species: Species, catalog: Catalog = CATALOG) -> list[Card]:
    """The physical cards that show ``species`` (as tree or on a half), by id."""
    found: list[Card] = []
    for card in catalog.cards:
        if card is None:
            continue
        if card.species is species or any(h.species is species for h in card.halves.values()):
            found.append(card)
    return found


def card_record(card: Card) -> dict[str, Any]:
    """A JSON-ready dict shaped like the ``cards`` entries of ``cards-base.json``, plus extras."""
    record: dict[str, Any] = {"id": card.id, "code": card_code(card), "kind": card_kind(card)}
    if card.species is not None:
        sp = card.species
        record.update(tree=sp.name, tree_symbol=sp.name, cost=sp.cost, tags=sorted(sp.tags))
        record.update(_rules_record(sp))
    for side, half in card.halves.items():
        record[side] = {
            "species": half.species.name,
            "tree_symbol": half.symbol,
            "cost": half.species.cost,
            "tags": sorted(half.species.tags),
            **_rules_record(half.species),
        }
    return record


def _rules_record(species: Species) -> dict[str, str]:
    return {part: full_text(species, part) for part in PARTS if short_text(species, part)}


def species_facts(species: Species, catalog: Catalog = CATALOG) -> list[tuple[str, str]]:
    """Labelled facts about a species, in display order, for detail views."""
    copies = (f"{species.count} tree cards" if species.is_tree
              else f"{species.count} card halves")
    facts = [
        ("Kind", "tree" if species.is_tree else "dweller"),
        ("Cost", str(species.cost)),
        ("Tags", tags_text(species)),
        ("Goes", where_it_goes(species)),
        ("In the deck", copies),
    ]
    for part, label in PARTS.items():
        text = full_text(species, part)
        if text:
            facts.append((label, text))
    ids = [str(c.id) for c in cards_showing(species, catalog)]
    facts.append(("Card ids", ", ".join(ids)))
    return facts


class NoSuchCard(LookupError):
    """A card name or id matched nothing, or more than one species; ``str()`` is one line."""


def match_species(query: str, catalog: Catalog = CATALOG) -> Species:
    """The species named by ``query``: exact folded name, else a unique prefix or substring.

    Apostrophes may be left out (``bechsteins bat``). Raises :class:`NoSuchCard` with a
    one-line message, with difflib suggestions.
    """
    folded = normalize_name(query)
    loose = folded.replace("'", "")
    if not loose:
        raise NoSuchCard(f"no card named {query!r}: give a species name or a card id")
    exact = catalog.by_folded_name.get(folded)
    if exact is not None:
        return exact
    names = catalog.by_folded_name
    for test in (str.__eq__, str.startswith, str.__contains__):
        hits = [sp for key, sp in names.items() if test(key.replace("'", ""), loose)]
        if len(hits) == 1:
            return hits[0]
        if len(hits) > 1:
            listed = ", ".join(sp.name for sp in hits)
            raise NoSuchCard(f"{query!r} matches several cards: {listed}")
    close = difflib.get_close_matches(folded, list(names), n=3, cutoff=0.6)
    if close:
        guesses = " or ".join(names[c].name for c in close)
        raise NoSuchCard(f"no card named {query!r}, did you mean {guesses}?")
    raise NoSuchCard(f"no card named {query!r}")
