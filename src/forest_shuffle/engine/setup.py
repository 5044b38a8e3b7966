"""How a game's deal is drawn from its seed: the shuffles of setup, and nothing else.

Contract:

- :func:`shuffler` ``(seed, scheme)`` returns an object whose ``shuffle(list)`` permutes a
  list in place, the same way for the same seed and scheme, on every machine and Python.
- :data:`KEYED` (the scheme of every new game): a Fisher-Yates shuffle whose random numbers
  come from BLAKE2b keyed with the seed (a 256-bit key; counter mode, a personalisation
  string that names the scheme), unbiased by rejection. Without the seed, the deal is as
  unpredictable as BLAKE2b's output; with a seed of 128 secret bits (:func:`new_seed`), a
  search that tries fewer than 2**64 seeds finds the deal with probability below 2**-64.
- :data:`LEGACY` (``random.Random(seed).shuffle``): how games were dealt before; saves and
  records without a scheme use it, so they replay exactly as they were played.
- :func:`derive` gives independent sub-seeds of a seed (bots' own randomness), from which the
  seed itself cannot be worked back.

Pure: no I/O and no global random state (:func:`new_seed` reads the system's secure source,
which is the one place a secret is made).
"""

from __future__ import annotations

import hashlib
import random
import secrets
import struct
from typing import Any, Final, Protocol

KEYED: Final = "keyed"
LEGACY: Final = "legacy"
SCHEMES: Final = (KEYED, LEGACY)
#: Seeds of the keyed scheme are 0 <= seed < 2**SEED_BITS (the BLAKE2b key).
SEED_BITS: Final = 256
#: Bits of secret in a seed drawn by :func:`new_seed`.
SECRET_BITS: Final = 128

_PERSON: Final = b"fs-deal-keyed-1"  # at most 16 bytes; names the scheme and its version
_WORDS: Final = struct.Struct(">8Q")  # a 64-byte block as eight big-endian words
_TWO64: Final = 2**64
_N_LIMITS: Final = 1024
#: below(n) accepts a word under _LIMITS[n] (the largest multiple of n up to 2**64).
#: Words and limits are typed Any in the shuffle: they are beyond the small integers that
#: compiled code keeps unboxed, and as Any they go straight to Python's comparison and
#: remainder instead of being converted for each operation (the same values).
_LIMITS: Final[tuple[Any, ...]] = tuple(_TWO64 - _TWO64 % n if n else 0 for n in range(_N_LIMITS))
#: The counter of the first blocks as the 8 big-endian bytes hashed (a deal uses ~25).
_COUNTERS: Final[tuple[bytes, ...]] = tuple(c.to_bytes(8, "big") for c in range(64))


class Shuffler(Protocol):
    """Anything that shuffles a list in place."""

    def shuffle(self, x: list[int]) -> None: ...


class KeyedShuffler:
    """Fisher-Yates with random words from BLAKE2b(counter) keyed with the seed."""

    __slots__ = ("_key", "_keyed", "_counter", "_buf", "_pos")

    def __init__(self, seed: int) -> None:
        check_seed(seed, KEYED)
        self._key = seed.to_bytes(SEED_BITS // 8, "big")
        # BLAKE2b with the key block already taken in: a copy of it, fed the counter, gives
        # the keyed hash of the counter (one compression fewer than keying every block).
        self._keyed = hashlib.blake2b(key=self._key, person=_PERSON, digest_size=64)
        self._counter = 0
        self._buf: tuple[Any, ...] = ()  # the words of the last block (Any: see _LIMITS)
        self._pos = 0

    def _block(self, counter: int) -> tuple[Any, ...]:
        """The eight big-endian 64-bit words of BLAKE2b(counter), keyed with the seed."""
        h = self._keyed.copy()
        h.update(_COUNTERS[counter] if counter < 64 else counter.to_bytes(8, "big"))
        words: tuple[Any, ...] = _WORDS.unpack(h.digest())
        return words

    def _word(self) -> int:
        if self._pos >= len(self._buf):
            self._buf = self._block(self._counter)
            self._counter += 1
            self._pos = 0
        w: int = self._buf[self._pos]
        self._pos += 1
        return w

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)`` (rejection: no modulo bias)."""
        if not 0 < n <= 2**64:
            raise ValueError(f"cannot draw below {n}")
        limit = 2**64 - (2**64 % n)
        while True:
            w = self._word()
            if w < limit:
                return w % n

    def shuffle(self, x: list[int]) -> None:
        # below() and _word() written out (every deal runs this): the same numbers.
        buf, pos, counter = self._buf, self._pos, self._counter
        size = len(buf)  # 8 once a block is drawn
        limits = _LIMITS
        items: list[Any] = x  # compiled: the items are moved without unboxing them
        for i in range(len(x) - 1, 0, -1):
            n = i + 1
            limit: Any = limits[n] if n < _N_LIMITS else _TWO64 - _TWO64 % n
            while True:
                if pos >= size:
                    buf = self._block(counter)
                    size = len(buf)
                    counter += 1
                    pos = 0
                w: Any = buf[pos]
                pos += 1
                if w < limit:
                    break
            j: int = w % n
            a = items[i]
            items[i] = items[j]
            items[j] = a
        self._buf, self._pos, self._counter = buf, pos, counter


def check_seed(seed: object, scheme: str) -> int:
    """``seed`` if it is a seed of ``scheme``; ValueError naming the problem otherwise."""
    if scheme not in SCHEMES:
        raise ValueError(f"unknown deal scheme {scheme!r} (known: {', '.join(SCHEMES)})")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError("a seed is an integer")
    if scheme == KEYED and not 0 <= seed < 2**SEED_BITS:
        raise ValueError(f"a seed is from 0 to 2**{SEED_BITS} - 1")
    return seed


def shuffler(seed: int, scheme: str = KEYED) -> Shuffler:
    """The shuffler of ``seed`` under ``scheme``; ValueError for a bad seed or scheme."""
    check_seed(seed, scheme)
    if scheme == LEGACY:
        return random.Random(seed)
    return KeyedShuffler(seed)


def new_seed() -> int:
    """A fresh secret seed: :data:`SECRET_BITS` bits from the operating system's CSPRNG."""
    return secrets.randbits(SECRET_BITS)


def derive(seed: int, label: str, bits: int = 63) -> int:
    """A sub-seed of ``seed`` for ``label`` (e.g. ``"bot 2"``): one-way, so what is learnt of
    a sub-seed (say by watching a bot) tells nothing of the seed or of other labels."""
    key = (seed % 2**SEED_BITS).to_bytes(SEED_BITS // 8, "big")
    digest = hashlib.blake2b(label.encode(), key=key, person=b"fs-derive-1",
                             digest_size=16).digest()
    return int.from_bytes(digest, "big") % (1 << bits)
