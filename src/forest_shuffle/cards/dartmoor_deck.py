"""The provisional physical deck of Forest Shuffle: Dartmoor, and the method that filled it.

Contract: only 17 split cards (plus the top half of an 18th) of Dartmoor's 101 are known
(``docs/dartmoor.md``); no split card's printed tree symbols are known. The deck the game
uses is the data file ``data/dartmoor/deck.json`` (shrubs, split cards, moors) beside
``cards.json`` (trees and winter cards); :func:`load_catalog` checks it when it loads. This
module holds the facts the file was built from (:data:`KNOWN_SPLITS`, :data:`ROE_DEER`)
and the documented, deterministic method (:func:`build_deck`, method
:data:`METHOD`) that filled in everything unknown. A person holding the real cards edits
the data file only (and drops the ``method`` key): no code changes, and the loader checks
the corrected file the same way. ``python -m forest_shuffle.cards.dartmoor_deck`` prints
the method's output (``--write`` rewrites the two data files).

The method, in short: ids follow the printed-number blocks seen on the cards (trees and
shrubs 1-44, left/right 45-89, top/bottom 90-145, moors 146-172, winter 178-180), known
cards at their printed number; the remaining halves of each species (copies minus those on
known cards) are listed in species order and paired by a fixed stride; tree symbols: the
five Roe Deer get the five known symbols, the first Common Lizard and Nuthatch half Crab
Apple, and every other half, shrub and moor the least-used symbol so far (ties in
:data:`SYMBOLS` order).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from importlib import resources
from typing import Any

#: The name of the method; the data file carries it while it is the method's output.
METHOD = "dartmoor provisional deck 1"
#: The six tree symbols, in the order ties are broken.
SYMBOLS: tuple[str, ...] = ("Ash", "Black Alder", "Crab Apple", "Goat Willow", "Moor Birch",
                            "Sessile Oak")
#: The symbols of the five Roe Deer halves (the appendix: all different; one scoring app
#: names these five), in the order they are given to the Roe Deer halves by id.
ROE_DEER: tuple[str, ...] = ("Ash", "Crab Apple", "Sessile Oak", "Moor Birch", "Black Alder")
#: Species of which the rulebook's bonus example shows a Crab Apple card.
CRAB_APPLE_SEEN: tuple[str, ...] = ("Common Lizard", "Nuthatch")
#: Split cards read from the appendix pictures: printed number -> (first, second) half.
#: Top/bottom cards list top first; on left/right cards the side is unknown (the first is
#: put on the left). D138's bottom is the likelier of two candidates (Blue Ground Beetle,
#: Adder's Tongue).
KNOWN_SPLITS: Mapping[int, tuple[str, str, str]] = {
    95: ("tb", "Small Red Damselfly", "Bog Asphodel"),
    98: ("tb", "Keeled Skimmer", "Meadowsweet"),
    101: ("tb", "Emerald Damselfly", "Adder's Tongue"),
    102: ("tb", "Small Red Damselfly", "Royal Fern"),
    106: ("tb", "Beautiful Demoiselle", "Water Soldiers"),
    113: ("tb", "Southern Damselfly", "Grass Snake"),
    115: ("tb", "Beautiful Demoiselle", "Royal Fern"),
    121: ("tb", "Keeled Skimmer", "Heather"),
    122: ("tb", "Emerald Damselfly", "Blueberry"),
    130: ("tb", "Small Red Damselfly", "Grass Snake"),
    138: ("tb", "Keeled Skimmer", "Blue Ground Beetle"),
    54: ("lr", "Dartmoor Black Rabbit", "Capercaillie"),
    55: ("lr", "Dartmoor Black Rabbit", "Serotine Bat"),
    60: ("lr", "Serotine Bat", "Roe Deer"),
    61: ("lr", "Lake Fly", "Dartmoor Badger"),
    63: ("lr", "Dartmoor Black Rabbit", "Field Vole"),
    66: ("lr", "Gnat", "Dartmoor Black Rabbit"),
    67: ("lr", "Roe Deer", "Dartmoor Black Rabbit"),
}
#: A known tree card: printed D005 is a Moor Birch.
KNOWN_TREES: Mapping[int, str] = {5: "Moor Birch"}
#: The id blocks (first, last) of the printed numbering (a hypothesis that fits every
#: printed number seen).
BLOCKS: Mapping[str, tuple[int, int]] = {
    "tree": (1, 36), "shrub": (37, 44), "lr": (45, 89), "tb": (90, 145), "moor": (146, 172),
    "winter": (178, 180),
}
#: The strides that pair the remaining halves (coprime to the number of cards to fill).
TB_STRIDE = 7
LR_STRIDE = 5


def _species_doc() -> list[dict[str, Any]]:
    pkg = resources.files("forest_shuffle.cards") / "data" / "dartmoor"
    doc = json.loads((pkg / "species.json").read_text(encoding="utf-8"))
    return list(doc["species"])


def _free_ids(block: str, taken: Sequence[int]) -> list[int]:
    first, last = BLOCKS[block]
    return [i for i in range(first, last + 1) if i not in taken]


def _remaining(species: Sequence[Mapping[str, Any]], positions: tuple[str, ...],
               used: Mapping[str, int]) -> list[str]:
    out: list[str] = []
    for sp in species:
        if sp["kind"] == "dweller" and tuple(sp["positions"]) == positions:
            out += [sp["name"]] * (int(sp["count"]) - used.get(sp["name"], 0))
    return out


def _pair_lr(halves: list[str], stride: int) -> list[tuple[str, str]]:
    """Left = the first half of the list, right = the second half taken by ``stride``; a
    card that would show one species twice swaps its right half with the next card's
    where that fixes both."""
    n = len(halves) // 2
    left = halves[:n]
    right = [halves[n + (i * stride) % n] for i in range(n)]
    for i in range(n):
        if left[i] != right[i]:
            continue
        for j in list(range(i + 1, n)) + list(range(i)):
            if left[i] != right[j] and left[j] != right[i]:
                right[i], right[j] = right[j], right[i]
                break
    return list(zip(left, right, strict=True))


def build_deck(species: Sequence[Mapping[str, Any]] | None = None) -> tuple[list[dict[str, Any]],
                                                                            list[dict[str, Any]]]:
    """The method's output: (the ``cards`` of ``cards.json``, the ``cards`` of
    ``deck.json``), from the species data (read from the package when None)."""
    species = _species_doc() if species is None else species
    by_kind: dict[str, list[Mapping[str, Any]]] = {}
    for sp in species:
        by_kind.setdefault(str(sp["kind"]), []).append(sp)
    # Trees: D005 is a Moor Birch; the others fill the block in species order.
    trees: dict[int, str] = dict(KNOWN_TREES)
    queue = [sp["name"] for sp in by_kind["tree"]
             for _ in range(int(sp["count"]) - list(KNOWN_TREES.values()).count(sp["name"]))]
    for cid, name in zip(_free_ids("tree", list(trees)), queue, strict=True):
        trees[cid] = name
    fixed = [{"id": cid, "kind": "tree", "species": trees[cid]} for cid in sorted(trees)]
    fixed += [{"id": cid, "kind": "winter"} for cid in range(BLOCKS["winter"][0],
                                                             BLOCKS["winter"][1] + 1)]
    # Split cards: known ones at their printed numbers, the rest paired by stride.
    used: dict[str, int] = {}
    splits: dict[int, dict[str, Any]] = {}
    for cid, (axis, a, b) in KNOWN_SPLITS.items():
        used[a] = used.get(a, 0) + 1
        used[b] = used.get(b, 0) + 1
        sides = ("top", "bottom") if axis == "tb" else ("left", "right")
        assumed = [f"{sides[0]} symbol", f"{sides[1]} symbol"]
        if axis == "lr":
            assumed.insert(0, "sides")
        if cid == 138:
            assumed.insert(0, "bottom half")
        splits[cid] = {"id": cid, "kind": "split", "printed": f"D{cid:03d}",
                       sides[0]: [a, ""], sides[1]: [b, ""], "assumed": assumed}
    tops = _remaining(species, ("top",), used)
    bottoms = _remaining(species, ("bottom",), used)
    tb_ids = _free_ids("tb", [c for c, k in KNOWN_SPLITS.items() if k[0] == "tb"])
    n = len(tb_ids)
    if not len(tops) == len(bottoms) == n:
        raise ValueError(f"top/bottom halves do not fill the block: {len(tops)}, "
                         f"{len(bottoms)}, {n}")
    for i, cid in enumerate(tb_ids):
        splits[cid] = {"id": cid, "kind": "split", "top": [tops[i], ""],
                       "bottom": [bottoms[(i * TB_STRIDE) % n], ""],
                       "assumed": ["pairing", "top symbol", "bottom symbol"]}
    lr_halves = _remaining(species, ("left", "right"), used)
    lr_ids = _free_ids("lr", [c for c, k in KNOWN_SPLITS.items() if k[0] == "lr"])
    pairs = _pair_lr(lr_halves, LR_STRIDE)
    if len(pairs) != len(lr_ids) or len(lr_halves) % 2:
        raise ValueError("left/right halves do not fill the block")
    for cid, (a, b) in zip(lr_ids, pairs, strict=True):
        splits[cid] = {"id": cid, "kind": "split", "left": [a, ""], "right": [b, ""],
                       "assumed": ["pairing", "sides", "left symbol", "right symbol"]}
    hosts: list[dict[str, Any]] = []
    shrub_ids = _free_ids("shrub", [])
    shrubs = [sp["name"] for sp in by_kind["shrub"] for _ in range(int(sp["count"]))]
    for cid, name in zip(shrub_ids, shrubs, strict=True):
        hosts.append({"id": cid, "kind": "shrub", "species": name, "symbol": "",
                      "assumed": ["symbol"]})
    moors = [sp["name"] for sp in by_kind["moor"] for _ in range(int(sp["count"]))]
    for cid, name in zip(_free_ids("moor", []), moors, strict=True):
        hosts.append({"id": cid, "kind": "moor", "species": name, "symbol": "",
                      "assumed": ["symbol"]})
    deck = hosts[:len(shrubs)] + [splits[c] for c in sorted(splits)] + hosts[len(shrubs):]
    _assign_symbols(deck)
    return fixed, deck


def _halves(card: Mapping[str, Any]) -> list[list[str]]:
    return [card[s] for s in ("top", "bottom", "left", "right") if s in card]


def _assign_symbols(deck: list[dict[str, Any]]) -> None:
    """Fill every empty symbol: Roe Deer, then the Crab Apple cards of the rulebook
    example, then the least-used symbol so far, in id order (ties in SYMBOLS order)."""
    used = dict.fromkeys(SYMBOLS, 0)
    roe = iter(ROE_DEER)
    seen: set[str] = set()
    for card in deck:
        for half in _halves(card):
            if half[0] == "Roe Deer":
                half[1] = next(roe)
            elif half[0] in CRAB_APPLE_SEEN and half[0] not in seen:
                half[1] = "Crab Apple"
                seen.add(half[0])
            else:
                continue
            used[half[1]] += 1
    for card in deck:
        slots: list[list[str] | None] = (list(_halves(card)) if card["kind"] == "split"
                                         else [None])
        for slot in slots:
            if slot is not None and slot[1]:
                continue
            best = min(SYMBOLS, key=lambda s: (used[s], SYMBOLS.index(s)))
            used[best] += 1
            if slot is None:
                card["symbol"] = best
            else:
                slot[1] = best


def documents() -> tuple[dict[str, Any], dict[str, Any]]:
    """The two data documents the method writes: ``cards.json`` and ``deck.json``."""
    fixed, deck = build_deck()
    head = {"format": "forest-shuffle card data 1", "game": "dartmoor", "module": "dartmoor"}
    cards_doc = {**head, "cards": fixed}
    deck_doc = {**head, "method": METHOD, "provisional": (
        "Provisional deck: 17 split cards (and D138's top half) are known by their pairing, "
        "no split card's tree symbols are known; the rest was filled by the method in "
        "docs/dartmoor.md. Correct this file from the real cards and remove 'method'."),
        "known_symbols": {"Roe Deer": list(ROE_DEER)}, "cards": deck}
    return cards_doc, deck_doc


def _dump(doc: Mapping[str, Any]) -> str:
    """The file text: one card a line."""
    lines = [json.dumps({k: v for k, v in doc.items() if k != "cards"}, ensure_ascii=False)[:-1]
             + ', "cards": [']
    cards = [json.dumps(c, ensure_ascii=False) for c in doc["cards"]]
    return "\n".join(lines + [",\n".join(cards), "]}"]) + "\n"


def main(argv: Sequence[str]) -> int:
    """Print the method's ``deck.json`` (``--write``: rewrite both data files)."""
    cards_doc, deck_doc = documents()
    if "--write" in argv:
        pkg = resources.files("forest_shuffle.cards") / "data" / "dartmoor"
        for name, doc in (("cards.json", cards_doc), ("deck.json", deck_doc)):
            with resources.as_file(pkg / name) as path:
                path.write_text(_dump(doc), encoding="utf-8")
        return 0
    sys.stdout.write(_dump(deck_doc))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main(sys.argv[1:]))
