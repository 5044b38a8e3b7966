"""The scorer's fast paths give the results of the reference scorer, table for table.

``tests/data/scoring_fingerprints.json`` holds, for every registered game, a sha256 of the
full results (``totals``; every forest's total, lines and every card's where, species,
points and why) of seeded tables: end tables of random games (2 to 5 players), generated
tables dealt from the catalog, and for the base game end tables of greedy self-play. The
file was written once from the scorer before its fast paths (``PYTHONPATH=<that tree's
src> python tests/test_scoring_fast_paths.py --write``); these tests rebuild the same
tables and check today's scorer against it, and that ``totals`` equals the totals of
``score_table`` on every table. The entries of the games with Woodland Edge were written
again when the cards' ``species`` became the printed name (the Woodland Edge Squeakers
are "Squeaker", not "Edge Squeaker"), after checking that the results differed in nothing
else. The entries of the games with Exploration were added when their ids were registered
(issue 39), from the scorer of that day (its Exploration rules came after the fast paths):
for them this is a guard against change, their points are checked by hand in
``tests/test_exploration_scoring.py`` and ``tests/test_forest_json_v3.py``.
"""

from __future__ import annotations

import hashlib
import json
import pickle
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from forest_shuffle.bots.registry import make_bot
from forest_shuffle.cards import Catalog, Dweller, Forest, Host
from forest_shuffle.cards.forest import host_of_card
from forest_shuffle.engine import GameState
from forest_shuffle.formats.records import random_game
from forest_shuffle.games import game_ids, make_game
from forest_shuffle.scoring import score_table, totals

DATA = Path(__file__).parent / "data" / "scoring_fingerprints.json"
RANDOM_GAMES = 120  # random-play end tables per game
GENERATED = 150  # generated tables per game
GREEDY_GAMES = 4  # greedy self-play end tables (base game only: a game takes a second)


def generated_table(catalog: Catalog, rng: random.Random, players: int) -> list[Forest]:
    """A table of random legal forests dealt from one shuffled deck of ``catalog``: hosts
    (trees, shrubs, moors; some cards as saplings), dwellers wherever they are accepted
    (stacks included), caves of 0 to 12 cards."""
    deck = [c for c in catalog.cards if c is not None and c.kind != "winter"]
    rng.shuffle(deck)
    hosts = [c for c in deck if c.is_host]
    splits = [c for c in deck if c.kind == "split"]
    forests: list[Forest] = []
    for _ in range(players):
        forest = Forest(cave=rng.randint(0, 12))
        for _ in range(rng.randint(1, 14)):
            if (rng.random() < 0.15 or not hosts) and splits:
                forest.trees.append(host_of_card(catalog, splits.pop().id, sapling=True))
            elif hosts:
                forest.trees.append(host_of_card(catalog, hosts.pop().id))
        target = rng.randint(0, 30)
        placed = 0
        while placed < target and splits:
            card = splits.pop()
            side = rng.choice(sorted(card.halves))
            half = card.halves[side]
            spots = [t for t in forest.trees if t.accepts(half.species, side)]
            if not spots:
                continue
            rng.choice(spots).slots[side].append(Dweller.of_card(card, side))
            placed += 1
        forests.append(forest)
    return forests


def greedy_table(seed: int, players: int) -> list[Forest]:
    """The end table of a base game played by greedy bots from ``seed``."""
    state = GameState.new(players, seed)
    bots = [make_bot("greedy", seed * 10 + i) for i in range(players)]
    while not state.over:
        seat = state.to_move
        assert seat is not None
        state.apply(bots[seat].choose(state.view(seat)))
    return state.forests


def tables(game: str) -> list[tuple[str, list[Forest]]]:
    """The named, seeded tables of ``game`` that the fingerprints cover."""
    gdef = make_game(game)
    counts = gdef.players
    out: list[tuple[str, list[Forest]]] = []
    for seed in range(RANDOM_GAMES):
        n = counts[seed % len(counts)]
        out.append((f"random game {seed} ({n} players)",
                    random_game(n, seed, game=game).forests))
    rng = random.Random(f"scoring {game}")
    for i in range(GENERATED):
        n = counts[i % len(counts)]
        out.append((f"generated {i} ({n} players)", generated_table(gdef.catalog, rng, n)))
    if game == "base":
        for seed in range(GREEDY_GAMES):
            n = 2 + seed % 2
            out.append((f"greedy game {seed} ({n} players)", greedy_table(seed, n)))
    return out


def results(game: str, forests: Sequence[Forest]) -> Any:
    """Everything the scorer says about a table, as JSON-able data."""
    gdef = make_game(game)
    return {"totals": gdef.totals(forests),
            "sheets": [[s.total, sorted(s.lines.items()),
                        [[c.where, c.species, c.points, c.why] for c in s.cards]]
                       for s in gdef.score_table(forests)]}


def fingerprint(data: Any) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:24]


def fingerprints(game: str) -> dict[str, str]:
    return {name: fingerprint(results(game, t)) for name, t in tables(game)}


def _stored() -> dict[str, dict[str, str]]:
    data: dict[str, dict[str, str]] = json.loads(DATA.read_text())
    return data


@pytest.mark.parametrize("game", game_ids())
def test_results_match_the_reference_scorer(game: str) -> None:
    want = _stored()[game]
    got = fingerprints(game)
    assert list(got) == list(want)
    wrong = [name for name in got if got[name] != want[name]]
    assert not wrong, f"{len(wrong)} tables differ, first {wrong[:5]}"


@pytest.mark.parametrize("game", game_ids())
def test_totals_equal_the_explained_totals(game: str) -> None:
    gdef = make_game(game)
    for name, t in tables(game):
        sheets = gdef.score_table(t)
        assert gdef.totals(t) == [s.total for s in sheets], name
        for s in sheets:
            assert sum(s.lines.values()) == s.total, name
            assert sum(c.points for c in s.cards) == s.total, name


def test_reasons_read_late_are_those_of_scoring_time() -> None:
    forests = random_game(2, 7).forests
    want = [s.cards for s in make_game("base").score_table(forests)]
    sheets = make_game("base").score_table(forests)
    forests[0].trees.insert(0, forests[1].trees.pop())  # the table changes before the read
    assert [s.cards for s in sheets] == want


def test_a_score_pickles_with_its_cards() -> None:
    sheets = make_game("base").score_table(random_game(3, 8).forests)
    back = pickle.loads(pickle.dumps(sheets))
    assert back == sheets and [s.cards for s in back] == [s.cards for s in sheets]


def test_plans_made_during_the_count_score_at_once() -> None:
    """A catalog's species get their plans while the first table is being counted (the tag
    and counts-as lists the plans share grow mid-pass): the first totals equal the next and
    the explained ones, and a table mixing the species of two copies of a catalog (two sets
    of plans, compiled one after the other) counts the cards of both for a tag."""
    rng = random.Random(14)
    for game in game_ids():
        if make_game(game).scorer != "core":
            continue
        fresh = pickle.loads(pickle.dumps(make_game(game).catalog))  # species without plans
        made = [generated_table(fresh, rng, players) for players in (2, 3, 5)]
        first = [totals(t) for t in made]
        assert first == [totals(t) for t in made], game
        assert first == [[s.total for s in score_table(t)] for t in made], game
    one = pickle.loads(pickle.dumps(make_game("base").catalog))
    two = pickle.loads(pickle.dumps(make_game("base").catalog))
    goshawk = Host(one.species["Birch"], slots={"top": [Dweller(one.species["Goshawk"])],
                                                "bottom": [], "left": [], "right": []})
    owl = Host(two.species["Birch"], slots={"top": [Dweller(two.species["Tawny Owl"])],
                                            "bottom": [], "left": [], "right": []})
    assert totals([Forest([goshawk])]) == [1 + 3]  # Birch 1, Goshawk 3 a bird (itself)
    assert totals([Forest([goshawk, owl])]) == [1 + 1 + 2 * 3 + 5]  # and a Tawny Owl: 5


def test_every_game_is_covered() -> None:
    assert sorted(_stored()) == sorted(game_ids())


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python tests/test_scoring_fast_paths.py --write")
    DATA.write_text(json.dumps({g: fingerprints(g) for g in game_ids()}, indent=1) + "\n")
    print(f"wrote {DATA}")
