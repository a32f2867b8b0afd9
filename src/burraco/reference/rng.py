"""The portable random generator of the deal contract (docs/game.md "Deal").

* SplitMix64 (Steele, Lea, Flood 2014) turns a 64-bit seed into a stream of 64-bit outputs; four of
  them seed xoshiro256** (Blackman, Vigna 2018), the generator used for the shuffle.
* :meth:`Xoshiro256StarStar.bounded` gives an integer in ``[0, n)`` by Lemire's multiply-shift with
  rejection, and :func:`shuffle` is Fisher-Yates from the end.

Everything is written out in plain Python integers masked to 64 bits, so that the C++ core and this
module produce the same deal from the same seed on every platform.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import TypeVar

__all__ = ["MASK64", "SplitMix64", "Xoshiro256StarStar", "check_seed", "shuffle"]

MASK64 = (1 << 64) - 1

_T = TypeVar("_T")


def check_seed(seed: object) -> int:
    """``seed`` if it is an int in ``[0, 2**64)``; otherwise ValueError (InvalidNotationError)."""
    from .._errors import InvalidNotationError

    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MASK64:
        raise InvalidNotationError(f"{seed!r} is not a seed: expected an int in [0, 2**64)")
    return int(seed)


class SplitMix64:
    """SplitMix64: a 64-bit state advanced by the golden-ratio increment, then mixed."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next(self) -> int:
        """The next 64-bit output."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)


def _rotate_left(value: int, count: int) -> int:
    return ((value << count) | (value >> (64 - count))) & MASK64


class Xoshiro256StarStar:
    """xoshiro256**, seeded by four successive SplitMix64 outputs from a 64-bit seed."""

    __slots__ = ("s",)

    def __init__(self, seed: int) -> None:
        seeder = SplitMix64(seed)
        self.s = [seeder.next() for _ in range(4)]

    def next(self) -> int:
        """The next 64-bit output."""
        s = self.s
        result = (_rotate_left((s[1] * 5) & MASK64, 7) * 9) & MASK64
        t = (s[1] << 17) & MASK64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = _rotate_left(s[3], 45)
        return result

    def bounded(self, n: int) -> int:
        """An integer in ``[0, n)`` by Lemire's multiply-shift method with rejection (n >= 1)."""
        m = self.next() * n
        low = m & MASK64
        if low < n:
            threshold = ((1 << 64) - n) % n
            while low < threshold:
                m = self.next() * n
                low = m & MASK64
        return m >> 64

    def unit_float(self) -> float:
        """A float in ``[0, 1)`` from the top 53 bits of the next output (docs/game.md, cut)."""
        return (self.next() >> 11) * 2.0 ** -53


def shuffle(items: MutableSequence[_T], generator: Xoshiro256StarStar) -> None:
    """Fisher-Yates from the end, in place: for i = len-1 .. 1, swap items[i] with items[bounded(i+1)]."""
    for i in range(len(items) - 1, 0, -1):
        j = generator.bounded(i + 1)
        items[i], items[j] = items[j], items[i]
