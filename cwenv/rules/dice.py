"""Dice sources. Every random draw of a combat flows from one of these.

All randomness in Corporate Wars is made of W10s (P01, I02, A06, A07, C05's 50 % as a W10
of 1–5), so a dice source only has to give W10s. Three sources share one small protocol:

* :class:`SeededDice` — one seeded ``random.Random`` per combat (fast, cloneable);
* :class:`ScriptedDice` — a given list (tests, replaying a real table's rolls); it raises
  :class:`DiceExhaustedError` when the list runs out;
* :class:`CallbackDice` — asks a function for every roll (table-dice mode at a real table).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Protocol


class DiceExhaustedError(RuntimeError):
    """A scripted dice list ran out: the script is shorter than the fight needs."""


class InvalidDieError(ValueError):
    """A scripted or typed die is not a W10 result (1–10)."""


class Dice(Protocol):
    def d10(self) -> int:
        """One W10: an int from 1 to 10."""

    def clone(self) -> Dice:
        """An independent copy that will produce the same future rolls."""


class SeededDice:
    """W10s from a private ``random.Random``; never touches the global generator."""

    __slots__ = ("_random", "seed")

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self._random = random.Random(seed)

    def d10(self) -> int:
        return int(self._random.random() * 10.0) + 1

    def clone(self) -> SeededDice:
        twin = SeededDice.__new__(SeededDice)
        twin.seed = self.seed
        # __new__ skips seeding from os.urandom, which setstate would overwrite anyway.
        twin._random = random.Random.__new__(random.Random)
        twin._random.setstate(self._random.getstate())
        return twin

    def reseed(self, seed: int) -> None:
        """Start a fresh stream (search agents sample futures from a clone this way)."""
        self.seed = seed
        self._random.seed(seed)


class ScriptedDice:
    """W10s from a fixed list, in order."""

    __slots__ = ("_pos", "_rolls")

    def __init__(self, rolls: Iterable[int]) -> None:
        values = tuple(rolls)
        for i, value in enumerate(values):
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 10:
                raise InvalidDieError(f"scripted die #{i + 1} is {value!r}; a W10 is 1–10")
        self._rolls = values
        self._pos = 0

    def d10(self) -> int:
        if self._pos >= len(self._rolls):
            raise DiceExhaustedError(
                f"scripted dice exhausted after {len(self._rolls)} rolls; the fight needs more"
            )
        value = self._rolls[self._pos]
        self._pos += 1
        return value

    @property
    def used(self) -> int:
        return self._pos

    @property
    def remaining(self) -> int:
        return len(self._rolls) - self._pos

    def clone(self) -> ScriptedDice:
        twin = ScriptedDice.__new__(ScriptedDice)
        twin._rolls = self._rolls
        twin._pos = self._pos
        return twin


class CallbackDice:
    """Asks ``ask`` for every W10 (table-dice mode); ``ask`` returns the typed value."""

    __slots__ = ("_ask", "log")

    def __init__(self, ask: Callable[[], int]) -> None:
        self._ask = ask
        self.log: list[int] = []

    def d10(self) -> int:
        value = self._ask()
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 10:
            raise InvalidDieError(f"typed die {value!r} is not a W10 result (1–10)")
        self.log.append(value)
        return value

    def clone(self) -> ScriptedDice:
        """A clone cannot ask the table; it replays nothing and fails on the first roll."""
        return ScriptedDice(())
