"""Deterministic seeds: every game's dice seed and every side's agent generator.

Seeds are derived by hashing, never drawn from a global generator, so game ``i`` of a run
with seed ``S`` is the same game on every machine, in every process and in every order.
``cwenv simulate`` game ``i`` and tournament game ``i`` of a pairing use the same dice seed
``game_seed(S, i)`` (common random numbers across pairings, sides and scenarios).
"""

from __future__ import annotations

import hashlib
import random

_MASK63 = (1 << 63) - 1  # fits SQLite's signed 64-bit INTEGER


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from the ``repr`` of ``parts`` (ints and strings only, for stability)."""
    for part in parts:
        if not isinstance(part, int | str):
            raise TypeError(f"seed parts must be int or str, got {type(part).__name__}")
    text = "\x1f".join(f"{type(p).__name__}:{p}" for p in parts)
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") & _MASK63


def game_seed(seed: int, index: int) -> int:
    """The dice seed of game ``index`` of a run started with ``seed``."""
    return derive_seed("game", seed, index)


def side_rngs(game_seed_: int, sides: tuple[int, ...] = (0, 1, 2)) -> dict[int, random.Random]:
    """One private generator per side (keyed by ``int(Side)``), derived from the game seed."""
    return {side: random.Random(derive_seed("agent", game_seed_, side)) for side in sides}
