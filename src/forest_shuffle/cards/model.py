"""The card model: species and physical cards, loaded from package data module by module.

Contract: :func:`load_catalog` reads the data modules of a game
(``data/<module>/species.json`` and ``cards.json``: ``base``, ``alpine``, ``woodland_edge``,
``exploration`` (with its named caves, ``caves.json``); ``dartmoor``, a game of its own that
merges with no other module, adds ``deck.json`` and ``caves.json``), validates every field
and merges them into one :class:`Catalog`; a broken data file raises :class:`CardDataError`
whose message names the species or card at fault. Catalogs are built once per module set
and shared. No catalog is a module global: a game definition (:mod:`forest_shuffle.games`)
carries its own. Card ids follow the references: base 1-66 trees, 67-69 winter, 70-113
left/right, 114-161 top/bottom; Alpine 162-197; Woodland Edge 198-233; Exploration 234-248
(``spec/forest-json.md``). Dartmoor's ids are its own (its catalog is separate): the
printed-number blocks, see :mod:`forest_shuffle.cards.dartmoor_deck`.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Final

from forest_shuffle.cards.ops import EFFECT_OPS as _REGISTERED_OPS
from forest_shuffle.cards.ops import OpDecl
from forest_shuffle.cards.words import learn_plural

SIDES: Final[tuple[str, ...]] = ("top", "bottom", "left", "right")
OPPOSITE: Mapping[str, str] = {"top": "bottom", "bottom": "top", "left": "right", "right": "left"}
#: The kinds of species that are hosts (cards with slots played into a forest): trees and
#: shrubs (four slots), Dartmoor's moors (two top, two bottom).
HOST_KINDS: frozenset[str] = frozenset({"tree", "shrub", "moor"})
#: Type symbols. Dartmoor adds ``dragonfly`` (its species also carry ``insect``), ``mouse``
#: (also ``pawed animal``) and the habitat symbol ``moor`` (moors; a universal moor counts
#: as one); its reptiles carry ``amphibian``.
TAGS: frozenset[str] = frozenset({
    "tree", "bird", "bat", "pawed animal", "cloven-hoofed animal", "deer", "insect",
    "butterfly", "amphibian", "plant", "mushroom", "alps", "woodland edge", "shrub",
    "dragonfly", "mouse", "moor",
})
#: The host kinds a species' ``placement.hosts`` may name (``moor`` covers a universal moor).
PLACEMENT_HOSTS: frozenset[str] = frozenset({"tree", "shrub", "moor"})
#: What the ``assumed`` list of a card in a provisional deck may name (facts not known).
ASSUMED: frozenset[str] = frozenset({
    "pairing", "sides", "bottom half", "symbol", "top symbol", "bottom symbol", "left symbol",
    "right symbol",
})

#: The longest short name a species may have (``short_name``: the forest grid's column).
SHORT_NAME_MAX = 15

#: The closed vocabulary of effects, bonuses and permanent effects: every op registered
#: (:mod:`forest_shuffle.cards.ops`: op -> its declaration, whose ``needs`` are the
#: required params). The base family's ops are declared in ``engine/effects.py``,
#: Dartmoor's in ``games/dartmoor_state.py``.
EFFECT_OPS: Mapping[str, OpDecl] = _REGISTERED_OPS
#: The triggers of ``draw_on_play`` permanent effects (mushrooms, shrubs), in the order a
#: placement fires them; ``tag played`` takes a ``tag`` param.
TRIGGERS: tuple[str, ...] = (
    "tree card played", "pawed animal played", "card placed atop a tree",
    "card placed below a tree", "tag played", "moor placed",
)
#: When a ``draw_on_play`` permanent starts to act (its optional ``from`` param):
#: ``next turn`` (the default: the owner's next turn, as the base game's mushrooms and
#: Dartmoor's moors) or ``now`` (at once, the turn its card is placed: Dartmoor's shrubs,
#: "for the rest of the game from now on").
NEXT_TURN: Final = "next turn"
NOW: Final = "now"
PERMANENT_FROM: tuple[str, ...] = (NEXT_TURN, NOW)
#: The vocabulary of point rules: rule -> required params. Filled by the scorers'
#: declarations (:func:`declare_point_rule`, called by ``scoring``'s ``point_rule``, where
#: each rule is declared once with its plan and words); read by the data loader. Optional
#: flags: ``includes_self``, ``saplings_count``, ``vcb_counts`` and ``trees_only`` (a rule
#: that reads a card's host, ``per_bottom_card`` and ``bat_opposite``, counts only hosts
#: that are trees: trees and saplings, not shrubs or moors).
POINT_RULES: dict[str, tuple[str, ...]] = {}
#: Further checks of a rule's params (each: "" if fine, else the problem), by rule.
POINT_CHECKS: dict[str, tuple[Callable[[Mapping[str, Any]], str], ...]] = {}


def declare_point_rule(rule: str, needs: tuple[str, ...],
                       check: Callable[[Mapping[str, Any]], str] | None = None) -> None:
    """Make ``rule`` known to the data loader with the params it needs and a further
    check. Two scorers may declare one name (the base family's and Dartmoor's ``flat``)
    if they need the same params; ValueError otherwise."""
    have = POINT_RULES.get(rule)
    if have is not None and have != needs:
        raise ValueError(f"point rule {rule!r} is declared with params {list(have)}, "
                         f"not {list(needs)}")
    POINT_RULES[rule] = needs
    if check is not None and check not in POINT_CHECKS.get(rule, ()):
        POINT_CHECKS[rule] = POINT_CHECKS.get(rule, ()) + (check,)
#: The point rules a named cave (Exploration's) may use: its ``points`` replace the
#: base game's 1 point per cave card.
NAMED_CAVE_RULES: frozenset[str] = frozenset({"per_cave_card", "cave_cards_and_tag",
                                              "empty_cave"})


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


@dataclass(frozen=True, slots=True, eq=False)
class Species:
    """A host (tree, shrub) or dweller species: cost, tags, where it goes, effects, scoring.

    Species compare and hash by identity: each catalog holds one object per species.
    ``counts_as`` holds the names this species also counts as (itself first: a Mountain
    Hare counts as a European Hare); ``module`` is the data module it comes from;
    ``provisional`` says, for people, what about it is an unconfirmed reading ("" if none).
    ``plural`` is the name for several. ``plan`` stays None: a plan belongs to the scorer of
    a game's definition, never to a species (which several definitions may share)."""

    name: str
    kind: str  # "tree", "shrub", "moor" or "dweller"
    count: int  # copies (hosts) or card halves (dwellers) in the deck
    cost: int
    tags: frozenset[str]
    positions: tuple[str, ...]  # ("tree",), ("shrub",) or a subset of SIDES
    effect: Effect | None
    bonus: Effect | None
    permanent: Effect | None
    points: Points
    text: Mapping[str, str]
    counts_as: tuple[str, ...] = ()
    module: str = "base"
    provisional: str = ""
    plural: str = ""
    #: The name where space is short (the forest grid; the data's ``short_name``, at most
    #: :data:`SHORT_NAME_MAX` characters, unique in its catalog; the name when not given;
    #: "" only for a species built by hand).
    short_name: str = ""
    #: The name printed on the card where it is not ``name`` (the data's ``printed_name``;
    #: "" when it is the name): :attr:`printed` is what every face shows and every reader
    #: accepts. ``name`` is the project's key of the species, unique in a catalog; the two
    #: differ only where species of one catalog share a printed name (the Woodland Edge
    #: copies of the Squeaker, key ``"Edge Squeaker"``, are printed "Squeaker").
    printed_name: str = ""
    #: Placement rules of the data's ``placement`` (Dartmoor): the host kinds it may go to
    #: (empty: any; ``moor`` covers a universal moor), a tag a card in the slot must show
    #: for it to go there (it then shares that slot; "": none) and the most copies of it
    #: at one host (-1: any).
    hosts: frozenset[str] = frozenset()
    onto_tag: str = ""
    max_per_host: int = -1
    #: Slot stacking, compiled from the data when the catalog is built: ``share`` names the
    #: group this species stacks with (its own slot_sharing), ``share_as`` the group it may
    #: join through ``counts_as`` (a rules switch decides), ``share_max`` the stack size
    #: (-1: any), ``stacks`` whether it can ever share a slot in its catalog (with a host
    #: permanent such as the Stinging Nettle's included); ``host_shared``: a host permanent
    #: of its catalog may let it share a slot by one of its tags, ``host_joined``: one may let
    #: it join an occupied slot by its name.
    share: str = ""
    share_as: str = ""
    share_max: int = 0
    stacks: bool = False
    host_shared: bool = False
    host_joined: bool = False
    #: Compiled by the loader: the names that count for this species' points ``species``
    #: param (that species and those counting as it), and the one tree symbol every deck
    #: copy of this dweller shows ("" if they differ).
    targets: tuple[str, ...] = ()
    #: The printed names, for people, of the species counting as that param's species
    #: other than those printed as it is (a Mountain Hare for the European Hare; none for
    #: the Squeaker, whose Woodland Edge copies are printed "Squeaker" too).
    targets_printed: tuple[str, ...] = ()
    deck_symbol: str = ""
    #: A tree's printed tree symbol where it is not the tree's name (the data's ``symbol``:
    #: Exploration's Moor Birch shows the Birch, its Palm Tree the new Golden Palm); "":
    #: its name. :attr:`tree_symbol` is the one to read.
    symbol: str = ""
    plan: Any = field(default=None, repr=False, init=False, compare=False)

    @property
    def printed(self) -> str:
        """The name printed on the card, for people (``name`` when none is given)."""
        return self.printed_name or self.name

    @property
    def is_tree(self) -> bool:
        return self.kind == "tree"

    @property
    def tree_symbol(self) -> str:
        """The tree symbol a tree of this species shows (its name unless the data says)."""
        return self.symbol or self.name

    @property
    def is_host(self) -> bool:
        """A tree or a shrub: a card with four slots of its own."""
        return self.kind in HOST_KINDS

    def has_tag(self, tag: str) -> bool:
        return tag in self.tags

    def goes_to(self, host_kind: str) -> bool:
        """May this species be placed at a host of that kind (``universal moor`` counts as
        ``moor``)? Only the data's ``placement.hosts`` restricts it."""
        if not self.hosts:
            return True
        return ("moor" if host_kind == "universal moor" else host_kind) in self.hosts


@dataclass(frozen=True, slots=True)
class Cave:
    """One of Dartmoor's numbered caves: its start ``effect`` (resolved before the first
    turn; None: none), its end ``points`` (rule ``cave_bonus``; None: none), words, and
    what about it is a reading (``provisional``). Exploration's caves are named (``name``)
    and their ``points`` use one of :data:`NAMED_CAVE_RULES`."""

    number: int
    effect: Effect | None
    points: Points | None
    text: str
    provisional: str = ""
    #: A named cave's name (Exploration's: ``"Bat Cave"``); "" for a numbered one.
    name: str = ""


@dataclass(frozen=True, slots=True)
class Half:
    """One half of a split card: the species shown and the tree symbol printed on it."""

    species: Species
    symbol: str


@dataclass(frozen=True, slots=True)
class Card:
    """One physical deck card. Hosts (trees, shrubs) have ``species``; split cards have two
    ``halves``. ``symbols`` are the tree symbols printed on it (a tree shows its own
    species, a shrub or moor the symbol printed on it). ``assumed`` lists the facts of a
    card of a provisional deck that are not known (see :data:`ASSUMED`; empty: as printed),
    ``printed`` its printed number where known (``"D095"``), ``provisional`` what about it
    only one source gives."""

    id: int
    kind: str  # "tree", "shrub", "moor", "winter" or "split"
    species: Species | None = None
    halves: Mapping[str, Half] = field(default_factory=dict)
    symbols: frozenset[str] = frozenset()
    module: str = "base"
    assumed: tuple[str, ...] = ()
    printed: str = ""
    #: What about this card is a reading of a single source, for people ("" if none:
    #: Exploration's pairings and half symbols that only one source gives).
    provisional: str = ""

    @property
    def tags(self) -> frozenset[str]:
        """The type symbols printed on the card: its host species' or both halves'."""
        if self.species is not None:
            return self.species.tags
        out: frozenset[str] = frozenset()
        for h in self.halves.values():
            out = out | h.species.tags
        return out

    @property
    def is_tree(self) -> bool:
        return self.kind == "tree"

    @property
    def is_host(self) -> bool:
        """A tree, shrub or moor card (played as a host; any card can also be a sapling, or in
        Dartmoor a universal moor)."""
        return self.kind == "tree" or self.kind == "shrub" or self.kind == "moor"

    @property
    def symbol(self) -> str:
        """The one tree symbol of a host card ("" for split and winter cards)."""
        return next(iter(self.symbols)) if self.species is not None and self.symbols else ""

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
        """A short readable name with the printed names: ``"Oak"``, ``"Winter"``,
        ``"European Hare / Wolf"``."""
        if self.species is not None:
            return self.species.printed
        if self.is_winter:
            return "Winter"
        return " / ".join(h.species.printed for h in self.halves.values())


_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "`": "'", "\u00b4": "'"})


def normalize_name(name: str) -> str:
    """Fold a name for matching: case, spacing and the kind of apostrophe do not matter."""
    return re.sub(r"[\s_\-]+", "", name.translate(_APOSTROPHES).casefold())


@dataclass(frozen=True, slots=True)
class Catalog:
    """All species and cards of one game. ``cards[id]`` is the card with that id (None for
    an id not in this game). ``modules`` are the data modules merged, ``tree_symbols`` the
    tree symbols a card can show (the tree species' own and those a module adds),
    ``aliases[name]`` every species name that counts as ``name`` (itself included)."""

    species: Mapping[str, Species]
    cards: tuple[Card | None, ...]
    by_folded_name: Mapping[str, Species]
    #: Folded printed name -> the species printed with it, in catalog order (more than one
    #: only where species share a printed name).
    by_printed: Mapping[str, tuple[Species, ...]] = field(default_factory=dict)
    modules: tuple[str, ...] = ("base",)
    tree_symbols: tuple[str, ...] = ()
    aliases: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: Dartmoor: the numbered caves; the symbols a species' copies are known to show
    #: together although each card's is not (the five Roe Deer); the deck's provisional
    #: note ("" for a deck as printed).
    caves: tuple[Cave, ...] = ()
    #: Exploration: its five named caves, which replace the base caves (empty otherwise).
    named_caves: tuple[Cave, ...] = ()
    known_symbols: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    provisional_deck: str = ""

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

    def named(self, name: str) -> tuple[Species, ...]:
        """The species a person may mean by ``name`` (case, spacing and apostrophes
        ignored): every species printed with that name, in catalog order, else the one
        whose key it is (a key that is no printed name, such as ``"Edge Squeaker"``, is
        still read), else none."""
        folded = normalize_name(name)
        shared = self.by_printed.get(folded)
        if shared:
            return shared
        sp = self.by_folded_name.get(folded)
        return (sp,) if sp is not None else ()


def _effect(raw: Any, where: str) -> Effect | None:
    if raw is None:
        return None
    if not isinstance(raw, dict) or "op" not in raw:
        raise CardDataError(f"{where}: must be null or an object with an 'op'")
    op = raw["op"]
    decl = EFFECT_OPS.get(op) if isinstance(op, str) else None
    if decl is None:
        raise CardDataError(f"{where}: unknown op {op!r}")
    params = {k: v for k, v in raw.items() if k != "op"}
    for need in decl.needs:
        if need not in params:
            raise CardDataError(f"{where}: op {op!r} needs {need!r}")
    tags = [params["tag"]] if "tag" in params else []
    tags += list(params.get("tags", ())) + ([params["requires_tag"]]
                                            if "requires_tag" in params else [])
    for tag in tags:
        if tag not in TAGS:
            raise CardDataError(f"{where}: unknown tag {tag!r}")
    problem = decl.check(params) if decl.check is not None else ""
    if problem:
        raise CardDataError(f"{where}: {problem}")
    for key in ("n", "count", "discard"):
        if key in params and (isinstance(params[key], bool) or not isinstance(params[key], int)
                              or params[key] < 0):
            raise CardDataError(f"{where}: {key} must be a non-negative integer")
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
    if not isinstance(params.get("trees_only", False), bool):
        raise CardDataError(f"{where}: trees_only must be true or false")
    for check in POINT_CHECKS.get(rule, ()):
        problem = check(params)
        if problem:
            raise CardDataError(f"{where}: {problem}")
    return Points(rule, params)


def _species(raw: Any, module: str) -> Species:
    name = raw.get("name") if isinstance(raw, dict) else None
    if not isinstance(name, str) or not name:
        raise CardDataError(f"species entry without a name: {raw!r:.80}")
    where = f"species {name!r}"
    kind = raw.get("kind")
    if kind not in ("tree", "shrub", "moor", "dweller"):
        raise CardDataError(f"{where}: kind must be 'tree', 'shrub', 'moor' or 'dweller'")
    for key in ("count", "cost"):
        if not isinstance(raw.get(key), int) or raw[key] < 0:
            raise CardDataError(f"{where}: {key} must be a non-negative integer")
    tags = raw.get("tags")
    if not isinstance(tags, list) or not set(tags) <= TAGS:
        raise CardDataError(f"{where}: tags must be a list of {sorted(TAGS)}")
    positions = raw.get("positions")
    allowed = (kind,) if kind in HOST_KINDS else SIDES
    if not isinstance(positions, list) or not positions or not set(positions) <= set(allowed):
        raise CardDataError(f"{where}: positions must be a non-empty list of {allowed}")
    text = raw.get("text", {})
    if not isinstance(text, dict) or "points" not in text:
        raise CardDataError(f"{where}: text must hold at least 'points'")
    counts_as = raw.get("counts_as", [])
    if not isinstance(counts_as, list) or not all(isinstance(n, str) for n in counts_as):
        raise CardDataError(f"{where}: counts_as must be a list of species names")
    for key in ("provisional", "plural"):
        if not isinstance(raw.get(key, ""), str):
            raise CardDataError(f"{where}: {key} must be a string")
    printed_name = raw.get("printed_name", name)
    if not (isinstance(printed_name, str) and printed_name
            and printed_name == printed_name.strip()):
        raise CardDataError(f"{where}: printed_name must be a trimmed non-empty string")
    short_name = raw.get("short_name", name)  # the limit holds for a short name given
    if "short_name" in raw and not (isinstance(short_name, str) and short_name
                                    and short_name == short_name.strip()
                                    and len(short_name) <= SHORT_NAME_MAX):
        raise CardDataError(f"{where}: short_name must be a trimmed string of 1 to "
                            f"{SHORT_NAME_MAX} characters")
    hosts, onto, most = _placement(raw.get("placement"), where)
    symbol = raw.get("symbol", "")
    if symbol and (kind != "tree" or not isinstance(symbol, str)):
        raise CardDataError(f"{where}: only a tree has a 'symbol' (a tree symbol's name)")
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
        counts_as=(name, *counts_as),
        module=module,
        provisional=raw.get("provisional", ""),
        plural=raw.get("plural", ""),
        short_name=short_name,
        printed_name="" if printed_name == name else printed_name,
        hosts=hosts,
        onto_tag=onto,
        max_per_host=most,
        symbol="" if symbol == name else symbol,
    )


def _placement(raw: Any, where: str) -> tuple[frozenset[str], str, int]:
    """``placement``: ``{"hosts": [...], "onto_tag": tag, "max_per_host": n}``, each optional."""
    if raw is None:
        return frozenset(), "", -1
    if not isinstance(raw, dict) or not set(raw) <= {"hosts", "onto_tag", "max_per_host"}:
        raise CardDataError(f"{where}: placement must be an object with hosts, onto_tag, "
                            "max_per_host")
    hosts = raw.get("hosts", [])
    if not isinstance(hosts, list) or not set(hosts) <= PLACEMENT_HOSTS:
        raise CardDataError(f"{where}: placement hosts must be a list of "
                            f"{sorted(PLACEMENT_HOSTS)}")
    onto = raw.get("onto_tag", "")
    if onto and onto not in TAGS:
        raise CardDataError(f"{where}: placement onto_tag {onto!r} is no tag")
    most = raw.get("max_per_host", -1)
    if isinstance(most, bool) or not isinstance(most, int) or most == 0 or most < -1:
        raise CardDataError(f"{where}: placement max_per_host must be a positive integer")
    return frozenset(hosts), str(onto), most


def _assumed(raw: Any, where: str) -> tuple[str, ...]:
    got = raw.get("assumed", [])
    if not isinstance(got, list) or not set(got) <= ASSUMED:
        raise CardDataError(f"{where}: assumed must be a list of {sorted(ASSUMED)}")
    printed = raw.get("printed", "")
    if not isinstance(printed, str):
        raise CardDataError(f"{where}: printed must be a string")
    return tuple(got)


def _card(raw: Any, species: Mapping[str, Species], symbols: frozenset[str], module: str) -> Card:
    cid = raw.get("id") if isinstance(raw, dict) else None
    if not isinstance(cid, int) or cid <= 0:
        raise CardDataError(f"card entry without a positive integer id: {raw!r:.80}")
    where = f"card {cid}"
    kind = raw.get("kind")
    if kind == "winter":
        return Card(cid, "winter", module=module)
    assumed = _assumed(raw, where)
    printed = raw.get("printed", "")
    if kind in HOST_KINDS:
        sp = species.get(raw.get("species", ""))
        if sp is None or sp.kind != kind:
            raise CardDataError(f"{where}: unknown {kind} species {raw.get('species')!r}")
        symbol = raw.get("symbol", sp.name) if kind != "tree" else sp.tree_symbol
        if symbol not in symbols:
            raise CardDataError(f"{where}: unknown tree symbol {symbol!r}")
        return Card(cid, kind, species=sp, symbols=frozenset({symbol}), module=module,
                    assumed=assumed, printed=printed, provisional=_card_note(raw, where))
    if kind != "split":
        raise CardDataError(f"{where}: kind must be 'tree', 'shrub', 'moor', 'winter' or "
                            "'split'")
    sides = [s for s in SIDES if s in raw]
    if sorted(sides) not in (["left", "right"], ["bottom", "top"]):
        raise CardDataError(f"{where}: a split card has left+right or top+bottom halves")
    halves: dict[str, Half] = {}
    for side in sides:
        entry = raw[side]
        if not (isinstance(entry, list) and len(entry) == 2):
            raise CardDataError(f"{where}: {side} half must be [species, tree symbol]")
        sp = species.get(entry[0])
        if sp is None or sp.is_host:
            raise CardDataError(f"{where}: unknown dweller species {entry[0]!r} on {side}")
        if side not in sp.positions:
            raise CardDataError(f"{where}: {sp.name} cannot be on the {side} half")
        if entry[1] not in symbols:
            raise CardDataError(f"{where}: unknown tree symbol {entry[1]!r} on {side}")
        halves[side] = Half(sp, entry[1])
    return Card(cid, "split", halves=halves, symbols=frozenset(h.symbol for h in halves.values()),
                module=module, assumed=assumed, printed=printed,
                provisional=_card_note(raw, where))


def _card_note(raw: Any, where: str) -> str:
    """A card's ``provisional`` note ("" when none)."""
    note = raw.get("provisional", "")
    if not isinstance(note, str):
        raise CardDataError(f"{where}: provisional must be a string")
    return note


def _docs(doc: Any, key: str) -> tuple[str, list[Any]]:
    """The module name and the ``key`` list of one data document."""
    raw = doc.get(key) if isinstance(doc, dict) else None
    if not isinstance(raw, list):
        raise CardDataError("card data: expected objects with 'species' and 'cards' lists")
    module = doc.get("module", "base")
    if not isinstance(module, str):
        raise CardDataError("card data: 'module' must be a string")
    return module, raw


def build_catalog(species_doc: Any, cards_doc: Any, *more: tuple[Any, Any],
                  caves_doc: Any = None, known_symbols: Any = None,
                  provisional_deck: str = "", named_caves_doc: Any = None) -> Catalog:
    """Validate parsed data documents (a species and a cards document per module, the base
    module first) and merge them into one :class:`Catalog`. Dartmoor also gives its caves
    document, the symbols some species' copies are known to show together (checked
    against the cards) and the note of a provisional deck; Exploration its named caves.

    A species document may also hold ``tree_symbols`` (tree symbols no tree species of
    the catalog shows, printed on halves: Exploration's Bamboo) and ``more_copies``
    (``[{"name", "from", "count"}]``: more cards of a species another module defines;
    :func:`load_catalog` brings the definition when that module is not merged)."""
    pairs = [(species_doc, cards_doc), *more]
    species: dict[str, Species] = {}
    modules: list[str] = []
    added: dict[str, int] = {}
    for sdoc, _cdoc in pairs:
        for name, n in _more_copies(sdoc):
            added[name] = added.get(name, 0) + n
    for sdoc, _cdoc in pairs:
        module, raw_species = _docs(sdoc, "species")
        modules.append(module)
        for raw in raw_species:
            extra = added.get(str(raw.get("name")), 0) if isinstance(raw, dict) else 0
            if extra and isinstance(raw.get("count"), int):  # cards another module adds
                raw = {**raw, "count": raw["count"] + extra}
            sp = _species(raw, module)
            if sp.name in species:
                raise CardDataError(f"species {sp.name!r}: listed twice")
            species[sp.name] = sp
    for name in added:
        if name not in species:
            raise CardDataError(f"species {name!r}: more copies of a species no module "
                                "of the game defines")
    _check_short_names(species)
    for sp in species.values():
        for eff in (sp.effect, sp.bonus, sp.permanent):
            if eff is not None and "species" in eff.params and eff.params["species"] not in species:
                raise CardDataError(f"species {sp.name!r}: names unknown species "
                                    f"{eff.params['species']!r}")
        ref = sp.points.get("species")
        if ref is not None and ref not in species:
            raise CardDataError(f"species {sp.name!r}: points name unknown species {ref!r}")
        for other in sp.counts_as[1:]:
            if other not in species:
                raise CardDataError(f"species {sp.name!r}: counts as unknown species {other!r}")
    symbol_list = list(dict.fromkeys(
        [sp.tree_symbol for sp in species.values() if sp.is_tree]
        + [x for sdoc, _c in pairs for x in _extra_symbols(sdoc)]))
    symbols = frozenset(symbol_list)
    by_id: dict[int, Card] = {}
    for sdoc, cdoc in pairs:
        module = _docs(sdoc, "species")[0]
        if _docs(cdoc, "cards")[0] != module:
            raise CardDataError(f"card data: the cards of module {module!r} name another module")
        for raw in _docs(cdoc, "cards")[1]:
            c = _card(raw, species, symbols, module)
            if c.id in by_id:
                raise CardDataError(f"card {c.id}: id used twice")
            by_id[c.id] = c
    top = max(by_id) if by_id else 0
    if modules == ["base"]:
        missing = [i for i in range(1, top + 1) if i not in by_id]
        if missing:
            raise CardDataError(f"card {missing[0]}: missing (ids must run from 1 without gaps)")
    seen: dict[str, int] = dict.fromkeys(species, 0)
    for c in by_id.values():
        if c.species is not None:
            seen[c.species.name] += 1
        for h in c.halves.values():
            seen[h.species.name] += 1
    for name, n in seen.items():
        if n != species[name].count:
            raise CardDataError(f"species {name!r}: count says {species[name].count}, "
                                f"the cards hold {n}")
    table: list[Card | None] = [None] * (top + 1)
    for c in by_id.values():
        table[c.id] = c
    _compile_sharing(species)
    aliases: dict[str, list[str]] = {n: [] for n in species}
    for sp in species.values():
        for target in sp.counts_as:
            aliases[target].append(sp.name)
    seen_symbols: dict[str, set[str]] = {}
    shown: dict[str, list[str]] = {}
    for c in by_id.values():
        for side, h in c.halves.items():
            shown.setdefault(h.species.name, []).append(h.symbol)
            # a symbol a provisional deck assumed tells nothing about the species
            mark = "" if f"{side} symbol" in c.assumed else h.symbol
            seen_symbols.setdefault(h.species.name, set()).add(mark)
    known: dict[str, tuple[str, ...]] = {}
    for name, syms in (known_symbols or {}).items():
        if name not in species or not isinstance(syms, list) or not set(syms) <= symbols:
            raise CardDataError(f"known symbols of {name!r}: a species and a list of symbols")
        if sorted(syms) != sorted(shown.get(name, [])):
            raise CardDataError(f"species {name!r}: its cards show {sorted(shown.get(name, []))}"
                                f", the known symbols are {sorted(syms)}")
        known[name] = tuple(syms)
    for sp in species.values():
        ref = sp.points.get("species")
        object.__setattr__(sp, "targets", tuple(aliases[ref]) if ref is not None else ())
        if ref is not None:
            object.__setattr__(sp, "targets_printed", tuple(dict.fromkeys(
                species[n].printed for n in aliases[ref]
                if species[n].printed != species[ref].printed)))
        syms = seen_symbols.get(sp.name, set())
        object.__setattr__(sp, "deck_symbol", next(iter(syms)) if len(syms) == 1 else "")
        if sp.name in known:
            object.__setattr__(sp, "deck_symbol", "")
        learn_plural(sp.name, sp.plural)
    return Catalog(
        species=species,
        cards=tuple(table),
        by_folded_name={normalize_name(n): s for n, s in species.items()},
        by_printed=_by_printed(species),
        modules=tuple(modules),
        tree_symbols=tuple(symbol_list),
        aliases={n: tuple(v) for n, v in aliases.items()},
        caves=_caves(caves_doc) if caves_doc is not None else (),
        named_caves=_named_caves(named_caves_doc) if named_caves_doc is not None else (),
        known_symbols=known,
        provisional_deck=provisional_deck,
    )


def _more_copies(doc: Any) -> list[tuple[str, int]]:
    """The ``more_copies`` entries of a species document: (species, cards added)."""
    raw = doc.get("more_copies", []) if isinstance(doc, dict) else []
    out: list[tuple[str, int]] = []
    for entry in raw if isinstance(raw, list) else [None]:
        ok = isinstance(entry, dict) and set(entry) == {"name", "from", "count"}
        n = entry.get("count") if ok and isinstance(entry, dict) else None
        if not ok or not isinstance(n, int) or isinstance(n, bool) or n <= 0:
            raise CardDataError(f"more_copies: expected {{name, from, count > 0}}, got "
                                f"{entry!r:.80}")
        assert isinstance(entry, dict)
        out.append((str(entry["name"]), n))
    return out


def _extra_symbols(doc: Any) -> list[str]:
    """The ``tree_symbols`` a species document adds (symbols of no tree species)."""
    raw = doc.get("tree_symbols", []) if isinstance(doc, dict) else []
    if not isinstance(raw, list) or not all(isinstance(x, str) and x for x in raw):
        raise CardDataError("tree_symbols: expected a list of names")
    return list(raw)


def _by_printed(species: Mapping[str, Species]) -> dict[str, tuple[Species, ...]]:
    """Folded printed name -> the species printed with it, in catalog order."""
    out: dict[str, list[Species]] = {}
    for sp in species.values():
        out.setdefault(normalize_name(sp.printed), []).append(sp)
    return {k: tuple(v) for k, v in out.items()}


def _check_short_names(species: Mapping[str, Species]) -> None:
    """No two species of a catalog share a short name, and none is another's name (case,
    spacing and apostrophes ignored), unless both are printed with one name, and then
    their short names are the same; a printed name that is another species' key is that
    species' printed name too."""
    owner: dict[str, str] = {normalize_name(n): n for n in species}
    printed = {n: normalize_name(sp.printed) for n, sp in species.items()}
    for sp in species.values():
        mine = normalize_name(sp.printed)
        other = owner.get(mine)
        if other is not None and other != sp.name and printed[other] != mine:
            raise CardDataError(f"species {sp.name!r}: printed name {sp.printed!r} is the "
                                f"name of {other!r}, printed otherwise")
    short_of: dict[str, Species] = {}
    for sp in species.values():
        key = normalize_name(sp.short_name)
        other = owner.setdefault(key, sp.name)
        if other != sp.name and printed[other] != printed[sp.name]:
            raise CardDataError(f"species {sp.name!r}: short name {sp.short_name!r} is "
                                f"also {other!r}'s")
        alike = short_of.setdefault(printed[sp.name], sp)
        if alike.short_name != sp.short_name:  # the page keeps one short name a name
            raise CardDataError(f"species {sp.name!r}: short name {sp.short_name!r}, but "
                                f"{alike.name!r}, printed alike, has {alike.short_name!r}")


def _caves(doc: Any) -> tuple[Cave, ...]:
    """The numbered caves of a caves document (numbers 1..n, each once)."""
    raw = doc.get("caves") if isinstance(doc, dict) else None
    if not isinstance(raw, list):
        raise CardDataError("cave data: expected an object with a 'caves' list")
    out: list[Cave] = []
    for i, entry in enumerate(raw, start=1):
        where = f"cave {i}"
        if not isinstance(entry, dict) or entry.get("number") != i:
            raise CardDataError(f"{where}: caves must be numbered 1, 2, ... in order")
        points = entry.get("points")
        pts = _points(points, f"{where} points") if points is not None else None
        if pts is not None and pts.rule != "cave_bonus":
            raise CardDataError(f"{where}: a cave's points use the rule 'cave_bonus'")
        text = entry.get("text")
        if not isinstance(text, str) or not text:
            raise CardDataError(f"{where}: text must be a non-empty string")
        note = entry.get("provisional", "")
        if not isinstance(note, str):
            raise CardDataError(f"{where}: provisional must be a string")
        out.append(Cave(i, _effect(entry.get("effect"), f"{where} effect"), pts, text, note))
    return tuple(out)


def _named_caves(doc: Any) -> tuple[Cave, ...]:
    """The named caves of a caves document (Exploration's): each a name, words, points by
    one of :data:`NAMED_CAVE_RULES`, an optional effect and ``provisional`` note."""
    raw = doc.get("caves") if isinstance(doc, dict) else None
    if not isinstance(raw, list) or not raw:
        raise CardDataError("cave data: expected an object with a 'caves' list")
    out: list[Cave] = []
    names: set[str] = set()
    for i, entry in enumerate(raw, start=1):
        name = entry.get("name") if isinstance(entry, dict) else None
        if not isinstance(name, str) or not name or normalize_name(name) in names:
            raise CardDataError(f"cave {i}: a named cave needs a name of its own")
        assert isinstance(entry, dict)
        names.add(normalize_name(name))
        where = f"cave {name!r}"
        pts = _points(entry.get("points"), f"{where} points")
        if pts.rule not in NAMED_CAVE_RULES:
            raise CardDataError(f"{where}: a named cave's points use one of "
                                f"{sorted(NAMED_CAVE_RULES)}")
        text = entry.get("text")
        note = entry.get("provisional", "")
        if not isinstance(text, str) or not text or not isinstance(note, str):
            raise CardDataError(f"{where}: text must be a non-empty string, provisional a "
                                "string")
        out.append(Cave(i, _effect(entry.get("effect"), f"{where} effect"), pts, text, note,
                        name=name))
    return tuple(out)


def _sharing_of(sp: Species) -> tuple[str, int]:
    perm = sp.permanent
    if perm is not None and perm.op == "slot_sharing":
        top = perm.params["max_per_slot"]
        return sp.name, -1 if top is None else int(top)
    return "", 0


def _compile_sharing(species: Mapping[str, Species]) -> None:
    """Set the slot-stacking fields of every species (the loader's one mutation of the
    frozen species it has just built)."""
    host_tags = {sp.permanent.params["tag"] for sp in species.values()
                 if sp.permanent is not None and sp.permanent.op == "host_slot_sharing"}
    joiners = {sp.permanent.params["species"] for sp in species.values()
               if sp.permanent is not None and sp.permanent.op == "host_species_sharing"}
    for sp in species.values():
        share, top = _sharing_of(sp)
        share_as = ""
        for other in sp.counts_as[1:]:
            group, other_top = _sharing_of(species[other])
            if group and not share:
                share_as, top = group, other_top
        object.__setattr__(sp, "share", share)
        object.__setattr__(sp, "share_as", share_as)
        object.__setattr__(sp, "share_max", top)
        object.__setattr__(sp, "stacks", bool(share or share_as or sp.tags & host_tags
                                              or sp.name in joiners or sp.onto_tag))
        object.__setattr__(sp, "host_shared", bool(sp.tags & host_tags))
        object.__setattr__(sp, "host_joined", sp.name in joiners)


#: The data modules that exist, in the order they merge ("base" first); ``dartmoor`` is a
#: game of its own and merges with none of them.
MODULES: tuple[str, ...] = ("base", "alpine", "woodland_edge", "exploration", "dartmoor")
#: The modules that stand alone.
STANDALONE: frozenset[str] = frozenset({"dartmoor"})


def _read(module: str, name: str) -> Any:
    pkg = resources.files("forest_shuffle.cards") / "data" / module
    return json.loads((pkg / name).read_text(encoding="utf-8"))


@functools.cache
def load_catalog(modules: tuple[str, ...] = ("base",)) -> Catalog:
    """The validated, merged card data of these modules (built once per module set)."""
    for m in modules:
        if m not in MODULES:
            raise CardDataError(f"no card data module {m!r} (known: {', '.join(MODULES)})")
    alone = STANDALONE & set(modules)
    if alone and len(modules) > 1:
        raise CardDataError(f"the {sorted(alone)[0]} module is a game of its own and merges "
                            "with no other module")
    if modules == ("dartmoor",):
        return _load_dartmoor()
    docs = [(_with_definitions(_read(m, "species.json"), modules), _read(m, "cards.json"))
            for m in modules]
    caves = [m for m in modules if m in NAMED_CAVES]
    return build_catalog(docs[0][0], docs[0][1], *docs[1:],
                         named_caves_doc=_read(caves[-1], "caves.json") if caves else None)


#: The modules whose folder holds named caves (``caves.json``) that replace the base caves.
NAMED_CAVES: frozenset[str] = frozenset({"exploration"})


def _with_definitions(doc: Any, modules: tuple[str, ...]) -> Any:
    """``doc`` with each ``more_copies`` entry whose defining module the game lacks turned
    into that module's species entry with the copies added (Exploration's Water Vole in
    a game without Woodland Edge): one definition of a species, read from its module."""
    if not isinstance(doc, dict) or "more_copies" not in doc:
        return doc
    keep: list[Any] = []
    defined: list[Any] = []
    for entry in doc["more_copies"] if isinstance(doc["more_copies"], list) else []:
        source = entry.get("from") if isinstance(entry, dict) else None
        if source in modules or source not in MODULES or source in STANDALONE:
            keep.append(entry)
            continue
        assert isinstance(entry, dict)
        found = [raw for raw in _read(str(source), "species.json").get("species", [])
                 if isinstance(raw, dict) and raw.get("name") == entry.get("name")]
        if len(found) != 1:
            raise CardDataError(f"more_copies: module {source!r} defines no species "
                                f"{entry.get('name')!r}")
        defined.append({**found[0], "count": entry.get("count")})
    return {**doc, "species": list(doc.get("species", [])) + defined, "more_copies": keep}


def _load_dartmoor() -> Catalog:
    """Dartmoor's catalog: species, the known cards, the provisional deck file and caves."""
    cards_doc = _read("dartmoor", "cards.json")
    deck = _read("dartmoor", "deck.json")
    if not isinstance(deck, dict) or not isinstance(deck.get("cards"), list):
        raise CardDataError("deck.json: expected an object with a 'cards' list")
    if deck.get("module") != "dartmoor" or not isinstance(cards_doc, dict):
        raise CardDataError("deck.json: must be the dartmoor module's")
    note = deck.get("provisional", "")
    if not isinstance(note, str):
        raise CardDataError("deck.json: provisional must be a string")
    merged = {**cards_doc, "cards": list(cards_doc.get("cards", [])) + deck["cards"]}
    return build_catalog(_read("dartmoor", "species.json"), merged,
                         caves_doc=_read("dartmoor", "caves.json"),
                         known_symbols=deck.get("known_symbols", {}), provisional_deck=note)
