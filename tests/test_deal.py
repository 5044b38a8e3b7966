"""The deal: keyed shuffles from secret seeds, legacy deals of old saves and records."""

from __future__ import annotations

import hashlib
import itertools
import random
import re
from collections import Counter

import pytest

from forest_shuffle.engine import setup as deal
from forest_shuffle.engine.state import GameState
from forest_shuffle.formats.records import check_record, record_of, replay


def opening(state: GameState) -> list[list[int]]:
    return [sorted(h) for h in state.hands]


def test_same_seed_same_deal_and_any_bit_matters() -> None:
    seed = 0x1234_5678_9ABC_DEF0_1122_3344_5566_7788
    a, b = GameState.new(3, seed), GameState.new(3, seed)
    assert a.to_dict() == b.to_dict()
    for bit in (0, 1, 31, 32, 63, 64, 100, 127, 200, 255):
        other = GameState.new(3, seed ^ (1 << bit))
        assert (other.deck, other.box) != (a.deck, a.box), bit


def test_the_keyed_deal_never_changes() -> None:
    # A known answer: records of keyed games replay only while this holds.
    s = deal.KeyedShuffler(2026)
    x = list(range(10))
    s.shuffle(x)
    assert x == KNOWN_2026
    state = GameState.new(2, 7)
    assert state.deal == deal.KEYED and state.hands[0] == KNOWN_HAND_7


KNOWN_2026 = [1, 5, 8, 0, 6, 9, 4, 3, 7, 2]
KNOWN_HAND_7 = [65, 41, 81, 39, 52, 25]


def test_the_keyed_stream_is_documented_blake2b() -> None:
    # docs/architecture.md: word k is bytes 8k.. of BLAKE2b-512(counter, key=seed as 32
    # big-endian bytes, person "fs-deal-keyed-1"); Fisher-Yates from the last item.
    key = (2026).to_bytes(32, "big")
    block = hashlib.blake2b((0).to_bytes(8, "big"), key=key, person=b"fs-deal-keyed-1",
                            digest_size=64).digest()
    first = int.from_bytes(block[:8], "big")
    limit = 2**64 - 2**64 % 10
    assert first < limit  # no rejection for this seed
    # The first swap fixes the last item: later swaps only touch the items before it.
    assert KNOWN_2026[9] == first % 10


def test_legacy_deal_is_pythons_random() -> None:
    state = GameState.new(4, 303, deal=deal.LEGACY)
    others = [c for c in range(1, 162) if c not in state.winter]
    rng = random.Random(303)
    assert isinstance(deal.shuffler(303, deal.LEGACY), random.Random)
    assert state.deal == deal.LEGACY and len(others) == 161
    x = list(range(20))
    y = x[:]
    rng.shuffle(x)
    deal.shuffler(303, deal.LEGACY).shuffle(y)
    assert x == y


def test_keyed_shuffle_is_uniform() -> None:
    # All 24 orders of 4 items, 24,000 shuffles: each order within 25 % of 1,000.
    counts: Counter[tuple[int, ...]] = Counter()
    for seed in range(24_000):
        x = [0, 1, 2, 3]
        deal.KeyedShuffler(seed).shuffle(x)
        counts[tuple(x)] += 1
    assert set(counts) == set(itertools.permutations(range(4)))
    assert all(750 < n < 1250 for n in counts.values()), counts


def test_below_is_unbiased_and_bounded() -> None:
    s = deal.KeyedShuffler(5)
    draws = Counter(s.below(3) for _ in range(30_000))
    assert set(draws) == {0, 1, 2} and all(9_400 < n < 10_600 for n in draws.values())
    assert s.below(1) == 0
    with pytest.raises(ValueError):
        s.below(0)


@pytest.mark.parametrize("seed, scheme, message", [
    (-1, deal.KEYED, "from 0 to 2**256 - 1"),
    (2**256, deal.KEYED, "from 0 to 2**256 - 1"),
    (True, deal.KEYED, "an integer"),
    ("7", deal.KEYED, "an integer"),
    (7, "mt", "unknown deal scheme"),
])
def test_bad_seeds_are_refused(seed: object, scheme: str, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        deal.check_seed(seed, scheme)
    with pytest.raises(ValueError, match=re.escape(message)):
        GameState.new(2, seed, deal=scheme)  # type: ignore[arg-type]


def test_new_seeds_have_128_secret_bits() -> None:
    seeds = [deal.new_seed() for _ in range(64)]
    assert len(set(seeds)) == 64
    assert all(0 <= s < 2**128 for s in seeds)
    # Each is below 2**64 with probability 2**-64: a seed space an attacker could search.
    assert all(s >= 2**64 for s in seeds)
    # Every bit position takes both values across the sample (fails with odds ~2**-57).
    for bit in range(128):
        assert len({(s >> bit) & 1 for s in seeds}) == 2, bit


def test_derived_seeds_are_one_way_and_distinct() -> None:
    seed = deal.new_seed()
    subs = {deal.derive(seed, f"bot {i}") for i in range(5)}
    assert len(subs) == 5 and all(0 <= s < 2**63 for s in subs)
    assert deal.derive(seed, "bot 1") == deal.derive(seed, "bot 1")
    assert deal.derive(seed + 1, "bot 1") != deal.derive(seed, "bot 1")
    # Not an affine function of the seed, as seed * 10 + seat was.
    assert deal.derive(seed, "bot 1") not in {(seed * 10 + 1) % (2**63 - 1), seed}


def test_saves_keep_the_scheme_and_old_saves_are_legacy() -> None:
    seed = 2**127 + 99
    state = GameState.new(2, seed)
    state.apply(state.legal_actions()[0])
    data = state.to_dict()
    assert data["deal"] == deal.KEYED and data["seed"] == seed
    assert GameState.from_dict(data).to_dict() == data
    old = GameState.new(2, 99, deal=deal.LEGACY).to_dict()
    del old["deal"]  # a save made before the scheme existed
    assert GameState.from_dict(old).deal == deal.LEGACY


def test_records_keep_the_scheme_and_old_records_replay_legacy() -> None:
    rng = random.Random(1)
    for scheme, seed in ((deal.KEYED, 2**100 + 3), (deal.LEGACY, 3)):
        state = GameState.new(3, seed, deal=scheme)
        while not state.over:
            state.apply(rng.choice(state.legal_actions()))
        rec = record_of(state)
        assert rec["deal"] == scheme
        assert replay(rec).ok
        if scheme == deal.LEGACY:
            del rec["deal"]
            check_record(rec)
            assert replay(rec).ok
        else:
            rec["deal"] = deal.LEGACY  # the same seed dealt the other way: another game
            assert not replay(rec).ok
