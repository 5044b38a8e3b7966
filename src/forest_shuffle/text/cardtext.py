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
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from forest_shuffle.cards.model import Card, Catalog, Cave, Effect, Species, normalize_name
from forest_shuffle.cards.names import name_table, printed_name
from forest_shuffle.cards.ops import op_words
from forest_shuffle.cards.words import article, plural
from forest_shuffle.i18n import Words, words

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


#: Each tag's noun in the ``cards`` catalog (context ``tag``), singular and plural; a tag of
#: no entry is said in English in every language (``tests/test_card_words.py`` fails on it).
_TAG_NOUNS: Mapping[str, Callable[[Words, int], str]] = {
    "alps": lambda w, n: w.npgettext("tag", "Alps card", "Alps cards", n),
    "amphibian": lambda w, n: w.npgettext("tag", "amphibian", "amphibians", n),
    "bat": lambda w, n: w.npgettext("tag", "bat", "bats", n),
    "bird": lambda w, n: w.npgettext("tag", "bird", "birds", n),
    "butterfly": lambda w, n: w.npgettext("tag", "butterfly", "butterflies", n),
    "cloven-hoofed animal": lambda w, n: w.npgettext(
        "tag", "cloven-hoofed animal", "cloven-hoofed animals", n),
    "deer": lambda w, n: w.npgettext("tag", "deer", "deer", n),
    "dragonfly": lambda w, n: w.npgettext("tag", "dragonfly", "dragonflies", n),
    "insect": lambda w, n: w.npgettext("tag", "insect", "insects", n),
    "moor": lambda w, n: w.npgettext("tag", "moor", "moors", n),
    "mouse": lambda w, n: w.npgettext("tag", "mouse", "mice", n),
    "mushroom": lambda w, n: w.npgettext("tag", "mushroom", "mushrooms", n),
    "pawed animal": lambda w, n: w.npgettext("tag", "pawed animal", "pawed animals", n),
    "plant": lambda w, n: w.npgettext("tag", "plant", "plants", n),
    "shrub": lambda w, n: w.npgettext("tag", "shrub", "shrubs", n),
    "tree": lambda w, n: w.npgettext("tag", "tree", "trees", n),
    "woodland edge": lambda w, n: w.npgettext("tag", "Woodland Edge card",
                                              "Woodland Edge cards", n),
}

#: A slot's side in the ``cards`` catalog (context ``side``).
_SIDE_WORDS: Mapping[str, Callable[[Words], str]] = {
    "top": lambda w: w.pgettext("side", "top"),
    "bottom": lambda w: w.pgettext("side", "bottom"),
    "left": lambda w: w.pgettext("side", "left"),
    "right": lambda w: w.pgettext("side", "right"),
}


def _key_name(key: str, lang: str) -> str:
    """A species key (a tree symbol) as printed in ``lang``'s edition (the key where the
    names file has none)."""
    for module in name_table().facts.values():
        entry = module.get(key)
        if entry is not None and lang in entry:
            return entry[lang].name
    return key


class CardSay:
    """The words of cards in one language (the ``cards`` message domain, docs/i18n.md): what
    an op's ``words`` and the points' phrases are given (:class:`~forest_shuffle.cards.ops.Say`).
    English is the source text, with English grammar from :mod:`forest_shuffle.cards.words`
    (articles, plurals), so its phrases stay exactly as they were; another language has a
    whole message per phrase, its tag nouns and its edition's species names."""

    def __init__(self, lang: str = "en") -> None:
        self._w = words("cards", lang)
        self.lang = self._w.lang

    def __call__(self, tag: str, n: int = 1, /) -> str:
        """A tag as a noun for ``n`` things: ``bird``, ``bats``, ``Alps card``."""
        noun = _TAG_NOUNS.get(tag)
        if self.lang == "en" or noun is None:
            return plural(_SYMBOL_TAGS.get(tag, tag), n)
        return noun(self._w, n)

    def a(self, tag: str, /) -> str:
        """One of a tag: ``a bird`` (English article), ``1 oiseau``."""
        if self.lang == "en":
            return article(self(tag, 1))
        return self._w.pgettext("one of a tag", "a {tag}", tag=self(tag, 1))

    def name(self, key: str, n: int = 1, /) -> str:
        """A species (or tree symbol) by key: English the key for ``n`` things (its plural),
        another language the name printed in its edition."""
        if self.lang == "en":
            return plural(key, n)
        return _key_name(key, self.lang)

    def printed(self, species: Species, n: int = 1) -> str:
        """A species as printed: English for ``n`` things, else its edition's name."""
        if self.lang == "en":
            return plural(species.printed, n)
        return printed_name(species, self.lang)

    def either(self, items: Sequence[str], /) -> str:
        """``a``, ``a or b``, ``a, b or c`` in the language."""
        items = list(items)
        if len(items) < 2:
            return "".join(items)
        if self.lang == "en":
            first = ", ".join(items[:-1])
        else:
            first = self._w.pgettext("list", ", ").join(items[:-1])
        return self._w.gettext("{first} or {last}", first=first, last=items[-1])

    def side(self, side: str, /) -> str:
        """A slot's side: ``top``, ``left`` ..."""
        said = _SIDE_WORDS.get(side)
        return side if self.lang == "en" or said is None else said(self._w)

    def gettext(self, message: str, /, **params: object) -> str:
        """A message of the ``cards`` catalog."""
        return self._w.gettext(message, **params)

    def ngettext(self, singular: str, plural: str, n: int, /, **params: object) -> str:
        """A message for ``n`` things."""
        return self._w.ngettext(singular, plural, n, **params)

    def pgettext(self, context: str, message: str, /, **params: object) -> str:
        """A message in a context."""
        return self._w.pgettext(context, message, **params)


_SAYS: dict[str, CardSay] = {}


def card_say(lang: str = "en") -> CardSay:
    """The :class:`CardSay` of ``lang`` (one per language; a ``ValueError`` names an unknown
    language)."""
    found = _SAYS.get(lang)
    if found is None:
        found = _SAYS[lang] = CardSay(lang)
    return found


def tag_word(tag: str, n: int = 1, lang: str = "en") -> str:
    """A tag as a noun: ``bird``, ``bats``, ``Alps card`` (a symbol tag names cards)."""
    return card_say(lang)(tag, n)


def symbol_word(symbol: str | None, lang: str = "en") -> str | None:
    """A tree symbol (its tree species' key) as printed in ``lang``'s edition: the badge."""
    if symbol is None or lang == "en":
        return symbol
    return _key_name(symbol, lang)


def describe_effect(effect: Effect | None, lang: str = "en") -> str:
    """A short sentence for an effect, bonus or permanent effect; ``""`` for none (the
    words its op's declaration gives, :func:`~forest_shuffle.cards.ops.op_words`), in
    ``lang``."""
    if effect is None:
        return ""
    return op_words(effect, card_say(lang))


def _table_words(w: CardSay, table: Mapping[str, Any]) -> str:
    keys = list(table)
    return w.gettext("{values} for {counts}", values="/".join(str(table[k]) for k in keys),
                     counts="/".join(keys))


def _or(w: CardSay, items: list[str]) -> str:
    return " or ".join(items) if w.lang == "en" else w.either(items)


def describe_points(species: Species, lang: str = "en") -> str:
    """A short phrase for how a species scores, e.g. ``"3 per bird (itself included)"``, in
    ``lang``."""
    w = card_say(lang)
    said = _points_words(species, w)
    if species.points.get("includes_self") and species.points.rule in _ITSELF:
        return w.gettext("{text} (itself included)", text=said)
    return said


#: The rules whose phrase says "(itself included)" when their data asks.
_ITSELF = frozenset({"per_tag", "per_tags", "per_own_tree_symbol", "per_bottom_card",
                     "per_tree_symbols"})


def _points_words(species: Species, w: CardSay) -> str:
    p = species.points
    rule = p.rule
    each = p.get("points_each")
    per = p.get("points_per")
    if rule == "none":
        return "0"
    if rule == "flat":
        return w.gettext("{points} each", points=each)
    if rule == "per_tag":
        return w.gettext("{points} per {tag}", points=per, tag=w(str(p.get("tag"))))
    if rule == "per_tags":
        return w.gettext("{points} per {tag}", points=per,
                         tag=_or(w, [w(str(t)) for t in p.get("tags", [])]))
    if rule == "per_species":
        return _counting_too(species, w, w.gettext(
            "{points} per {species}", points=per, species=w.name(str(p.get("species")))))
    if rule == "majority":
        return w.gettext("{points} each, {most} each with the most {species}", points=each,
                         most=p.get("points_each_if_most"), species=w.printed(species, 2))
    if rule == "threshold_own_species":
        return w.gettext("{points} each with {min}+ {species}", points=each,
                         min=p.get("min_count"), species=w.printed(species, 2))
    if rule == "all_tree_species":
        return w.gettext("{points} each with all {need} tree species", points=each,
                         need=p.get("species_needed"))
    if rule == "per_card_in_own_slots":
        return w.gettext("{points} per card in its slots", points=p.get("points_per_card"))
    if rule == "set_table":
        return w.gettext("set: {table}", table=_table_words(w, p.get("table", {})))
    if rule == "butterfly_sets":
        return w.gettext("sets of different butterflies: {table}",
                         table=_table_words(w, p.get("table", {})))
    if rule == "bat_variety":
        return w.gettext("{points} each with {min}+ bat species", points=each,
                         min=p.get("min_distinct_bat_species"))
    if rule == "per_fully_occupied_tree":
        return w.gettext("{points} per fully occupied tree", points=per)
    if rule == "bat_opposite":
        return w.gettext("{points} with a bat in the opposite slot", points=each)
    if rule == "requires_species":
        return _counting_too(species, w, w.gettext(
            "{points} each with {min}+ {species}", points=each, min=p.get("min_count"),
            species=w.name(str(p.get("species")))))
    if rule == "on_tree_species":
        tree = str(p.get("tree"))
        if w.lang == "en":
            return f"{each} if atop {article(tree)}"
        return w.gettext("{points} if atop {a_tree}", points=each, a_tree=w.name(tree))
    if rule == "paired_in_slot":
        return w.gettext("{points} each when sharing a slot", points=each)
    if rule == "most_trees":
        return w.gettext("{points} each with the most trees", points=each)
    if rule == "min_trees":
        return w.gettext("{points} each with {min}+ trees", points=each, min=p.get("min_trees"))
    if rule == "per_own_tree_symbol":
        return w.gettext("{points} per card with its tree symbol", points=per)
    if rule == "per_bottom_card":
        return w.gettext("{points} per card below a tree", points=per)
    if rule == "per_distinct_species":
        tag = str(p.get("tag"))
        return w.gettext("{points} per different {tag} species", points=per,
                         tag=tag if w.lang == "en" else w(tag))
    if rule == "distinct_species_table":
        tag = str(p.get("tag"))
        return w.gettext("by different {tag} species: {table}",
                         tag=tag if w.lang == "en" else w(tag),
                         table=_table_words(w, p.get("table", {})))
    if rule == "per_tree_symbols":
        symbols = _or(w, [w.name(str(x)) for x in p.get("symbols", [])])
        return w.gettext("{points} per card with the {symbols} symbol", points=per,
                         symbols=symbols)
    if rule == "per_cave_card":
        return w.gettext("{points} per card in your cave", points=per)
    if rule == "on_host_kind":
        where = {"top": "atop", "bottom": "below"}.get(
            species.positions[0], "at") if len(species.positions) == 1 else "at"
        a_host = w.a(str(p.get("host")))
        if where == "atop":
            return w.gettext("{points} if atop {a_host}", points=each, a_host=a_host)
        if where == "below":
            return w.gettext("{points} if below {a_host}", points=each, a_host=a_host)
        return w.gettext("{points} if at {a_host}", points=each, a_host=a_host)
    if rule == "alone_on_host":
        return w.gettext("{points} if the only card at its tree or shrub", points=each)
    if rule == "per_sapling_and_tree_symbols":  # Exploration's
        symbols = _or(w, [w.name(str(x)) for x in p.get("symbols", [])])
        return w.gettext("{points} per sapling and per card with the {symbols} symbol",
                         points=per, symbols=symbols)
    if rule == "tree_count_table":  # Exploration's: the lowest count of each band
        table = {f"{low}+": pts for low, pts in p.get("table", {}).items()}
        return w.gettext("by trees in the forest: {table}", table=_table_words(w, table))
    return _dartmoor_points(species, w)


def _dartmoor_points(species: Species, w: CardSay) -> str:
    """Words for the scoring rules Dartmoor added (the fallback names an unknown rule)."""
    p = species.points
    rule = p.rule
    each = p.get("points_each")
    if rule == "per_tag_and_symbol":
        return w.gettext("{points} per {tag} and per card with the {symbol} symbol",
                         points=p.get("points_per"), tag=w(str(p.get("tag"))),
                         symbol=w.name(str(p.get("symbol"))))
    if rule == "fully_occupied_self":
        return w.gettext("{points} if fully occupied", points=each)
    if rule == "host_fully_occupied":
        return w.gettext("{points} if its tree or shrub is fully occupied", points=each)
    if rule == "moor_majority":
        return w.gettext("{points} each, {most} each with the most moors (ties count; solo: "
                         "{solo}+ moors)", points=each, most=p.get("points_each_if_most"),
                         solo=p.get("solo_min_moors"))
    if rule == "tag_threshold":
        return w.gettext("{points} each, {met} each with {min}+ {tags}", points=each,
                         met=p.get("points_each_if_met"), min=p.get("min_count"),
                         tags=w(str(p.get("tag")), 2))
    if rule == "variety_sets":
        return w.gettext("sets of different {tags}: {table}", tags=w(str(p.get("tag")), 2),
                         table=_table_words(w, p.get("table", {})))
    if rule == "double_below":
        if p.get("tag"):
            return w.gettext("0; {tags} below it score double", tags=w(str(p.get("tag")), 2))
        return w.gettext("0; cards below it score double")
    if rule == "cave_bonus":
        return w.gettext("{points} more at the end", points=p.get("points"))
    return rule.replace("_", " ")


def cave_words(cave: Cave) -> str:
    """One line for a Dartmoor cave: its number, what it does, and a provisional mark."""
    mark = " (provisional reading)" if cave.provisional else ""
    return f"Cave {cave.number}: {cave.text}{mark}"


def _counting_too(species: Species, w: CardSay, said: str) -> str:
    """``said`` and `` (Mountain Hares included)``: the species that count as the one a rule
    names."""
    if not species.targets_printed:
        return said
    if w.lang == "en":
        also = ", ".join(plural(n) for n in species.targets_printed)
    else:
        also = w.pgettext("list", ", ").join(
            _key_name(n, w.lang) for n in species.targets_printed)
    return w.gettext("{text} ({species} included)", text=said, species=also)


def part_effect(species: Species, part: str) -> Effect | None:
    """The structured effect of ``part`` (``effect``, ``bonus`` or ``permanent``)."""
    if part == "effect":
        return species.effect
    if part == "bonus":
        return species.bonus
    if part == "permanent":
        return species.permanent
    raise ValueError(f"no effect part {part!r}")


def short_text(species: Species, part: str, lang: str = "en") -> str:
    """The short phrase of one part (see :data:`PARTS`) in ``lang``; ``""`` if the species
    has none."""
    if part == "points":
        return describe_points(species, lang)
    return describe_effect(part_effect(species, part), lang)


def full_text(species: Species, part: str, lang: str = "en") -> str:
    """The full rules text of one part: in English from ``Species.text``, else the short
    phrase; in another language the short phrase (``Species.text`` is English prose of the
    data, docs/i18n.md)."""
    text = species.text.get(part) if lang == "en" else None
    if text:
        return text
    return short_text(species, part, lang)


def where_it_goes(species: Species) -> str:
    """Where a species is placed: ``tree``, ``shrub``, ``left/right``, ``top`` or
    ``bottom``."""
    return "/".join(species.positions)


def tags_text(species: Species, lang: str = "en") -> str:
    """The tags of a species in alphabetical order (of the English keys), as ``"butterfly,
    insect"``; in another language each tag's noun in its catalog."""
    if lang == "en":
        return ", ".join(sorted(species.tags))
    w = card_say(lang)
    return w.pgettext("list", ", ").join(w(t) for t in sorted(species.tags))


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


def part_label(part: str, lang: str = "en") -> str:
    """The label of a rules part (:data:`PARTS`) in ``lang``: ``Effect``, ``Bonus``."""
    w = card_say(lang)
    label = PARTS[part]
    return label if w.lang == "en" else _PART_LABELS[part](w)


#: Each part's label in the ``cards`` catalog (context ``part``).
_PART_LABELS: Mapping[str, Callable[[CardSay], str]] = {
    "effect": lambda w: w.pgettext("part", "Effect"),
    "bonus": lambda w: w.pgettext("part", "Bonus"),
    "permanent": lambda w: w.pgettext("part", "Permanent effect"),
    "points": lambda w: w.pgettext("part", "Points"),
}


#: Where :func:`lookup_words` puts the tree symbol (a face styles it).
SYMBOL_MARK = "\x00"


def lookup_words(species: Species, lang: str = "en") -> str:
    """A card look-up's line of one species in ``lang``: ``cost 2 · bird · goes top · symbol
    `` and :data:`SYMBOL_MARK` where the face puts the tree symbol."""
    return card_say(lang).gettext("cost {cost} · {tags} · goes {where} · symbol {symbol}",
                                  cost=species.cost, tags=tags_text(species, lang),
                                  where=where_it_goes(species), symbol=SYMBOL_MARK)


def species_facts(species: Species, catalog: Catalog,
                  lang: str = "en") -> list[tuple[str, str]]:
    """Labelled facts about a species, in display order, for detail views, in ``lang``
    (its labels, tags and rules; its kind, where it goes and the expansion's name are the
    data's English words)."""
    w = card_say(lang)
    if species.is_host:
        copies = w.gettext("{n} {kind} cards", n=species.count, kind=species.kind)
    else:
        copies = w.gettext("{n} card halves", n=species.count)
    facts = [
        (w.pgettext("fact", "Kind"), species.kind),
        (w.pgettext("fact", "Cost"), str(species.cost)),
        (w.pgettext("fact", "Tags"), tags_text(species, lang)),
        (w.pgettext("fact", "Goes"), where_it_goes(species)),
        (w.pgettext("fact", "In the deck"), copies),
    ]
    for part in PARTS:
        text = full_text(species, part, lang)
        if text:
            facts.append((part_label(part, lang), text))
    if len(species.counts_as) > 1:
        also = species.counts_as[1:]
        facts.append((w.pgettext("fact", "Counts as"),
                      ", ".join(printed_of(n, catalog) if lang == "en" else _key_name(n, lang)
                                for n in also)))
    if species.module != "base":
        facts.append((w.pgettext("fact", "Expansion"),
                      species.module.replace("_", " ").title()))
    if species.provisional:
        facts.append((w.pgettext("fact", "Provisional"), species.provisional))
    ids = [str(c.id) for c in cards_showing(species, catalog)]
    facts.append((w.pgettext("fact", "Card ids"), ", ".join(ids)))
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
