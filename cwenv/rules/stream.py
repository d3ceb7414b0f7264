"""The one random stream of both engines: PCG32, seeded from any int, W10s without bias.

The reference engine (this module) and the native core (``src/stream.hpp``, bound as
``cwenv._core.Pcg32``) implement exactly this, so a seeded combat draws the same W10s in
either (issue #16). docs/dice.md states it for a third engine; in short:

**Generator.** PCG32 as in O'Neill's ``pcg_basic.c`` (XSH-RR, 64-bit state, 32-bit
output): ``state' = state * 6364136223846793005 + inc (mod 2**64)``; the output of the old
state is ``rotr32(((state >> 18) ^ state) >> 27 (mod 2**32), state >> 59)``. ``inc`` is odd.
``pcg32_srandom(initstate, initseq)``: ``state = 0; inc = (initseq << 1) | 1 (mod 2**64)``;
step; ``state += initstate``; step.

**Seeding** (:func:`seed_words`, :func:`seed_state`). A seed is an int (bool and every other
type are refused: :class:`SeedError`). Its zigzag ``z = 2*s`` for ``s >= 0``, ``-2*s - 1``
for ``s < 0`` (every int its own non-negative number) is cut into 64-bit words, least
significant first, at least one word. They are folded by SplitMix64's finaliser
``mix``: ``acc = 0``; per word ``acc = mix((acc ^ w) + GOLDEN)``; then
``pcg32_srandom(mix(acc + GOLDEN), mix(acc + 2*GOLDEN))`` with ``GOLDEN =
0x9E3779B97F4A7C15`` (all mod 2**64). A seed of one word (every int64) gets its own state.

**W10** (:meth:`Pcg32.bounded`, :meth:`Pcg32.d10`). ``pcg32_boundedrand_r(rng, 10) + 1``:
draw ``r`` until ``r >= 2**32 mod 10`` (= 6), then ``r % 10 + 1``. The accepted
``2**32 - 6`` outputs split evenly into ten residues, so every face has probability
exactly 1/10 (Mersenne Twister's ``int(random() * 10) + 1``, before, was off by ~1e-16).
"""

from __future__ import annotations

from collections.abc import Iterator

MASK64 = (1 << 64) - 1
MASK32 = (1 << 32) - 1
MULTIPLIER = 6364136223846793005  # O'Neill's pcg_basic.c, Knuth's MMIX LCG multiplier
GOLDEN = 0x9E3779B97F4A7C15  # SplitMix64's increment (2**64 / golden ratio)
STREAM = "pcg32-w10"  # the name saved games and databases record for this stream
W10_REJECT = (1 << 32) % 10  # = 6; outputs below it would favour faces 1..6


class SeedError(ValueError):
    """A dice seed that is not an int (bool, float, str …)."""


def mix64(z: int) -> int:
    """SplitMix64's finaliser (Steele, Lea, Flood 2014): a bijection of 64-bit words."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def seed_words(seed: int) -> tuple[int, ...]:
    """The seed's zigzag as 64-bit words, least significant first (at least one)."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise SeedError(f"a dice seed is an int, not {type(seed).__name__} {seed!r}")
    z = 2 * seed if seed >= 0 else -2 * seed - 1
    words = []
    while True:
        words.append(z & MASK64)
        z >>= 64
        if not z:
            return tuple(words)


def seed_state(seed: int) -> tuple[int, int]:
    """``(initstate, initseq)`` for :meth:`Pcg32.srandom` from any int seed."""
    acc = 0
    for word in seed_words(seed):
        acc = mix64(((acc ^ word) + GOLDEN) & MASK64)
    return mix64((acc + GOLDEN) & MASK64), mix64((acc + 2 * GOLDEN) & MASK64)


class Pcg32:
    """PCG32 (XSH-RR 64/32); the whole state is two ints, so a copy is two assignments."""

    __slots__ = ("inc", "state")

    def __init__(self, seed: int) -> None:
        self.srandom(*seed_state(seed))

    @classmethod
    def from_srandom(cls, initstate: int, initseq: int) -> Pcg32:
        """O'Neill's ``pcg32_srandom_r(initstate, initseq)`` (the known-answer vectors)."""
        rng = cls.__new__(cls)
        rng.srandom(initstate, initseq)
        return rng

    @classmethod
    def from_state(cls, state: int, inc: int) -> Pcg32:
        """A stream in the given state (``inc`` odd), as a clone or a saved game keeps it."""
        if not 0 <= state <= MASK64 or not 0 <= inc <= MASK64 or not inc & 1:
            raise ValueError(f"PCG32 state {state} / inc {inc}: 64-bit words, inc odd")
        rng = cls.__new__(cls)
        rng.state, rng.inc = state, inc
        return rng

    def srandom(self, initstate: int, initseq: int) -> None:
        self.state = 0
        self.inc = ((initseq << 1) | 1) & MASK64
        self.next_u32()
        self.state = (self.state + initstate) & MASK64
        self.next_u32()

    def next_u32(self) -> int:
        old = self.state
        self.state = (old * MULTIPLIER + self.inc) & MASK64
        xorshifted = (((old >> 18) ^ old) >> 27) & MASK32
        rot = old >> 59
        return ((xorshifted >> rot) | (xorshifted << (-rot & 31))) & MASK32

    def bounded(self, bound: int) -> int:
        """``pcg32_boundedrand_r``: uniform in ``0..bound-1`` by rejecting the low remainder."""
        if not 1 <= bound <= MASK32:
            raise ValueError(f"bound {bound} is not in 1..2**32-1")
        threshold = (1 << 32) % bound
        while True:
            r = self.next_u32()
            if r >= threshold:
                return r % bound

    def d10(self) -> int:
        """One W10, ``bounded(10) + 1``. The step is written out, with literal constants
        (MULTIPLIER, MASK64, MASK32, the rejection bound 6), because the engine draws every
        die through it: so it takes ~0.6 µs instead of ~0.9 µs through ``bounded``."""
        old = self.state
        self.state = (old * 6364136223846793005 + self.inc) & 0xFFFFFFFFFFFFFFFF
        xorshifted = (((old >> 18) ^ old) >> 27) & 0xFFFFFFFF
        rot = old >> 59
        # rotr32; for rot == 0 the left part is shifted out by the mask
        r = ((xorshifted >> rot) | (xorshifted << (32 - rot))) & 0xFFFFFFFF
        if r >= 6:  # W10_REJECT: 6 of 2**32 outputs redrawn
            return r % 10 + 1
        return self.d10()

    def d10s(self, n: int) -> Iterator[int]:
        """The next ``n`` W10s."""
        return (self.d10() for _ in range(n))
