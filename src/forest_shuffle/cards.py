"""The card database: species and physical cards of the base game, loaded from package data.

Contract: :data:`CATALOG` is built once at import from ``data/species.json`` and
``data/cards.json``. Every field is validated; a broken data file raises
:class:`CardDataError` whose message names the species or card at fault.
Card ids follow ``cards-base.json``: 1-66 trees, 67-69 winter, 70-113 left/right,
114-161 top/bottom.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

SIDES: tuple[str, ...] = ("top", "bottom", "left", "right")
OPPOSITE: Mapping[str, str] = {"top": "bottom", "bottom": "top", "left": "right", "right": "left"}
TREE_SPECIES: tuple[str, ...] = (
    "Linden", "Oak", "Silver Fir", "Birch", "Beech", "Sycamore", "Douglas Fir", "Horse Chestnut",
)
TAGS: frozenset[str] = frozenset({
    "tree", "bird", "bat", "pawed animal", "cloven-hoofed animal", "deer", "insect",
    "butterfly", "amphibian", "plant", "mushroom",
})

#: The closed vocabulary of effects, bonuses and permanent effects: op -> required params.
EFFECT_OPS: Mapping[str, tuple[str, ...]] = {
    "draw": ("n",),
    "draw_per_species": ("species",),
    "draw_per_tag": ("tag",),
    "extra_turn": (),
    "draw_and_extra_turn": ("n",),
    "free_play": ("tag", "count"),
    "free_play_any": ("tag",),
    "clearing_to_cave": (),
    "hand_to_cave_redraw": (),
    "play_any_number_paying": (),
    "draw_on_play": ("trigger", "n"),
    "slot_sharing": ("max_per_slot",),
    "tree_count_modifier": ("plus",),
}
#: The triggers of ``draw_on_play`` permanent effects (the four mushrooms).
TRIGGERS: frozenset[str] = frozenset({
    "tree card played", "pawed animal played", "card placed below a tree",
    "card placed atop a tree",
})
#: The closed vocabulary of scoring rules: rule -> required params.
POINT_RULES: Mapping[str, tuple[str, ...]] = {
    "none": (),
    "flat": ("points_each",),
    "per_tag": ("points_per", "tag"),
    "per_tags": ("points_per", "tags"),
    "per_species": ("points_per", "species"),
    "majority": ("points_each", "points_each_if_most"),
    "threshold_own_species": ("points_each", "min_count"),
    "all_tree_species": ("points_each", "species_needed"),
    "per_card_in_own_slots": ("points_per_card",),
    "set_table": ("table",),
    "butterfly_sets": ("table",),
    "bat_variety": ("points_each", "min_distinct_bat_species"),
    "per_fully_occupied_tree": ("points_per",),
    "bat_opposite": ("points_each",),
    "requires_species": ("points_each", "species", "min_count"),
    "on_tree_species": ("points_each", "tree"),
    "paired_in_slot": ("points_each",),
    "most_trees": ("points_each",),
    "min_trees": ("points_each", "min_trees"),
    "per_own_tree_symbol": ("points_per",),
    "per_bottom_card": ("points_per",),
}


class CardDataError(ValueError):
    """A card data file is broken; the message names the species or card."""


@dataclass(frozen=True, slots=True)
class Effect:
    """One effect, bonus or permanent effect in the closed vocabulary of :data:`EFFECT_OPS`."""

    op: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def get(self, key: str, default: Any = None) -> Any:
        return self.params.get(key, default)


@dataclass(frozen=True, slots=True)
class Points:
    """A scoring rule in the closed vocabulary of :data:`POINT_RULES`."""

    rule: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def get(self, key: str, default: Any = None) -> Any:
        return self.params.get(key, default)


@dataclass(frozen=True, slots=True)
class Species:
    """A tree or dweller species: cost, tags, where it goes, effects and scoring."""

    name: str
    kind: str  # "tree" or "dweller"
    count: int  # copies (trees) or card halves (dwellers) in the deck
    cost: int
    tags: frozenset[str]
    positions: tuple[str, ...]  # ("tree",) or a subset of SIDES
    effect: Effect | None
    bonus: Effect | None
    permanent: Effect | None
    points: Points
    text: Mapping[str, str]

    @property
    def is_tree(self) -> bool:
        return self.kind == "tree"

    def has_tag(self, tag: str) -> bool:
        return tag in self.tags


@dataclass(frozen=True, slots=True)
class Half:
    """One half of a split card: the species shown and the tree symbol printed on it."""

    species: Species
    symbol: str


@dataclass(frozen=True, slots=True)
class Card:
    """One physical deck card. Trees have ``species``; split cards have two ``halves``."""

    id: int
    kind: str  # "tree", "winter" or "split"
    species: Species | None = None
    halves: Mapping[str, Half] = field(default_factory=dict)
    symbols: frozenset[str] = frozenset()

    @property
    def is_tree(self) -> bool:
        return self.kind == "tree"

    @property
    def is_winter(self) -> bool:
        return self.kind == "winter"

    @property
    def axis(self) -> str:
        """``"lr"`` for left/right cards, ``"tb"`` for top/bottom cards, else ``""``."""
        if "left" in self.halves:
            return "lr"
        if "top" in self.halves:
            return "tb"
        return ""

    def label(self) -> str:
        """A short readable name: ``"Oak"``, ``"Winter"``, ``"European Hare / Wolf"``."""
        if self.species is not None:
            return self.species.name
        if self.is_winter:
            return "Winter"
        return " / ".join(h.species.name for h in self.halves.values())


_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "`": "'", "\u00b4": "'"})


def normalize_name(name: str) -> str:
    """Fold a name for matching: case, spacing and the kind of apostrophe do not matter."""
    return re.sub(r"[\s_\-]+", "", name.translate(_APOSTROPHES).casefold())


@dataclass(frozen=True, slots=True)
class Catalog:
    """All species and cards of one game. ``cards[id]`` is the card with that id."""

    species: Mapping[str, Species]
    cards: tuple[Card | None, ...]
    by_folded_name: Mapping[str, Species]

    @property
    def deck_ids(self) -> tuple[int, ...]:
        return tuple(c.id for c in self.cards if c is not None)

    def card(self, card_id: int) -> Card:
        """The card with that id; :class:`KeyError` naming the id if there is none."""
        if 0 < card_id < len(self.cards):
            c = self.cards[card_id]
            if c is not None:
                return c
        raise KeyError(f"no card with id {card_id}")

    def lookup(self, name: str) -> Species | None:
        """The species with that name (case, spacing and apostrophes ignored), or None."""
        return self.by_folded_name.get(normalize_name(name))


def _effect(raw: Any, where: str) -> Effect | None:
    if raw is None:
        return None
    if not isinstance(raw, dict) or "op" not in raw:
        raise CardDataError(f"{where}: must be null or an object with an 'op'")
    op = raw["op"]
    if op not in EFFECT_OPS:
        raise CardDataError(f"{where}: unknown op {op!r}")
    params = {k: v for k, v in raw.items() if k != "op"}
    for need in EFFECT_OPS[op]:
        if need not in params:
            raise CardDataError(f"{where}: op {op!r} needs {need!r}")
    if "tag" in params and params["tag"] not in TAGS:
        raise CardDataError(f"{where}: unknown tag {params['tag']!r}")
    if op == "draw_on_play" and params["trigger"] not in TRIGGERS:
        raise CardDataError(f"{where}: unknown trigger {params['trigger']!r}")
    return Effect(op, params)


def _points(raw: Any, where: str) -> Points:
    if not isinstance(raw, dict) or "rule" not in raw:
        raise CardDataError(f"{where}: must be an object with a 'rule'")
    rule = raw["rule"]
    if rule not in POINT_RULES:
        raise CardDataError(f"{where}: unknown rule {rule!r}")
    params = {k: v for k, v in raw.items() if k != "rule"}
    for need in POINT_RULES[rule]:
        if need not in params:
            raise CardDataError(f"{where}: rule {rule!r} needs {need!r}")
    return Points(rule, params)


def _species(raw: Any) -> Species:
    name = raw.get("name") if isinstance(raw, dict) else None
    if not isinstance(name, str) or not name:
        raise CardDataError(f"species entry without a name: {raw!r:.80}")
    where = f"species {name!r}"
    kind = raw.get("kind")
    if kind not in ("tree", "dweller"):
        raise CardDataError(f"{where}: kind must be 'tree' or 'dweller'")
    for key in ("count", "cost"):
        if not isinstance(raw.get(key), int) or raw[key] < 0:
            raise CardDataError(f"{where}: {key} must be a non-negative integer")
    tags = raw.get("tags")
    if not isinstance(tags, list) or not set(tags) <= TAGS:
        raise CardDataError(f"{where}: tags must be a list of {sorted(TAGS)}")
    positions = raw.get("positions")
    allowed = ("tree",) if kind == "tree" else SIDES
    if not isinstance(positions, list) or not positions or not set(positions) <= set(allowed):
        raise CardDataError(f"{where}: positions must be a non-empty list of {allowed}")
    text = raw.get("text", {})
    if not isinstance(text, dict) or "points" not in text:
        raise CardDataError(f"{where}: text must hold at least 'points'")
    return Species(
        name=name,
        kind=kind,
        count=raw["count"],
        cost=raw["cost"],
        tags=frozenset(tags),
        positions=tuple(positions),
        effect=_effect(raw.get("effect"), f"{where} effect"),
        bonus=_effect(raw.get("bonus"), f"{where} bonus"),
        permanent=_effect(raw.get("permanent"), f"{where} permanent effect"),
        points=_points(raw.get("points"), f"{where} points"),
        text=dict(text),
    )


def _card(raw: Any, species: Mapping[str, Species]) -> Card:
    cid = raw.get("id") if isinstance(raw, dict) else None
    if not isinstance(cid, int) or cid <= 0:
        raise CardDataError(f"card entry without a positive integer id: {raw!r:.80}")
    where = f"card {cid}"
    kind = raw.get("kind")
    if kind == "winter":
        return Card(cid, "winter")
    if kind == "tree":
        sp = species.get(raw.get("species", ""))
        if sp is None or not sp.is_tree:
            raise CardDataError(f"{where}: unknown tree species {raw.get('species')!r}")
        return Card(cid, "tree", species=sp, symbols=frozenset({sp.name}))
    if kind != "split":
        raise CardDataError(f"{where}: kind must be 'tree', 'winter' or 'split'")
    sides = [s for s in SIDES if s in raw]
    if sorted(sides) not in (["left", "right"], ["bottom", "top"]):
        raise CardDataError(f"{where}: a split card has left+right or top+bottom halves")
    halves: dict[str, Half] = {}
    for side in sides:
        entry = raw[side]
        if not (isinstance(entry, list) and len(entry) == 2):
            raise CardDataError(f"{where}: {side} half must be [species, tree symbol]")
        sp = species.get(entry[0])
        if sp is None or sp.is_tree:
            raise CardDataError(f"{where}: unknown dweller species {entry[0]!r} on {side}")
        if side not in sp.positions:
            raise CardDataError(f"{where}: {sp.name} cannot be on the {side} half")
        if entry[1] not in TREE_SPECIES:
            raise CardDataError(f"{where}: unknown tree symbol {entry[1]!r} on {side}")
        halves[side] = Half(sp, entry[1])
    return Card(cid, "split", halves=halves, symbols=frozenset(h.symbol for h in halves.values()))


def build_catalog(species_doc: Any, cards_doc: Any) -> Catalog:
    """Validate two parsed data documents and build a :class:`Catalog` from them."""
    raw_species = species_doc.get("species") if isinstance(species_doc, dict) else None
    raw_cards = cards_doc.get("cards") if isinstance(cards_doc, dict) else None
    if not isinstance(raw_species, list) or not isinstance(raw_cards, list):
        raise CardDataError("card data: expected objects with 'species' and 'cards' lists")
    species: dict[str, Species] = {}
    for raw in raw_species:
        sp = _species(raw)
        if sp.name in species:
            raise CardDataError(f"species {sp.name!r}: listed twice")
        species[sp.name] = sp
    for sp in species.values():
        for eff in (sp.effect, sp.bonus, sp.permanent):
            if eff is not None and "species" in eff.params and eff.params["species"] not in species:
                raise CardDataError(f"species {sp.name!r}: names unknown species "
                                    f"{eff.params['species']!r}")
        ref = sp.points.get("species")
        if ref is not None and ref not in species:
            raise CardDataError(f"species {sp.name!r}: points name unknown species {ref!r}")
    cards: list[Card] = [_card(raw, species) for raw in raw_cards]
    by_id: dict[int, Card] = {}
    for c in cards:
        if c.id in by_id:
            raise CardDataError(f"card {c.id}: id used twice")
        by_id[c.id] = c
    top = max(by_id) if by_id else 0
    missing = [i for i in range(1, top + 1) if i not in by_id]
    if missing:
        raise CardDataError(f"card {missing[0]}: missing (ids must run from 1 without gaps)")
    seen: dict[str, int] = dict.fromkeys(species, 0)
    for c in cards:
        if c.species is not None:
            seen[c.species.name] += 1
        for h in c.halves.values():
            seen[h.species.name] += 1
    for name, n in seen.items():
        if n != species[name].count:
            raise CardDataError(f"species {name!r}: count says {species[name].count}, "
                                f"the cards hold {n}")
    table: list[Card | None] = [None] * (top + 1)
    for c in cards:
        table[c.id] = c
    return Catalog(
        species=species,
        cards=tuple(table),
        by_folded_name={normalize_name(n): s for n, s in species.items()},
    )


def load_catalog(game: str = "base") -> Catalog:
    """Load and validate the packaged card data of ``game``."""
    if game != "base":
        raise CardDataError(f"no card data for game {game!r}")
    pkg = resources.files("forest_shuffle") / "data"
    species_doc = json.loads((pkg / "species.json").read_text(encoding="utf-8"))
    cards_doc = json.loads((pkg / "cards.json").read_text(encoding="utf-8"))
    return build_catalog(species_doc, cards_doc)


CATALOG: Catalog = load_catalog()
