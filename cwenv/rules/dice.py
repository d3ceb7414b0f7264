"""Dice sources. Every random draw of a combat flows from one of these.

All randomness in Corporate Wars is made of W10s (P01, I02, A06, A07, C05's 50 % as a W10
of 1–5), so a dice source only has to give W10s. Four sources share one small protocol:

* :class:`SeededDice` — one seeded PCG32 stream per combat (:mod:`cwenv.rules.stream`,
  docs/dice.md: the same W10s as the native core for the same seed; cloneable);
* :class:`MersenneDice` — the stream of every seeded combat before issue #16 (Python's
  ``random.Random``), kept so that a game recorded then replays exactly;
* :class:`ScriptedDice` — a given list (tests, replaying a real table's rolls); it raises
  :class:`DiceExhaustedError` when the list runs out;
* :class:`CallbackDice` — asks a function for every roll (table-dice mode at a real table).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import ClassVar, Protocol

from cwenv.rules.stream import (
    STREAM as STREAM,  # re-exported: records name it
    Pcg32,
    seed_state,
)


class DiceExhaustedError(RuntimeError):
    """A scripted dice list ran out: the script is shorter than the fight needs."""


class InvalidDieError(ValueError):
    """A scripted or typed die is not a W10 result (1–10)."""


class Dice(Protocol):
    def d10(self) -> int:
        """One W10: an int from 1 to 10."""

    def clone(self) -> Dice:
        """An independent copy that will produce the same future rolls."""


class UnknownStreamError(ValueError):
    """A record names a dice stream this cwenv does not know."""


LEGACY_STREAM = "mt19937"
"""The stream of records written before they named one (before issue #16)."""


class SeededDice(Pcg32):
    """W10s from the documented PCG32 stream of ``seed``; never touches a global generator.

    ``SeededDice(None)`` seeds from 64 bits of the operating system's randomness."""

    __slots__ = ("seed",)
    stream: ClassVar[str] = STREAM

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        super().__init__(secrets.randbits(64) if seed is None else seed)

    def clone(self) -> SeededDice:
        twin = SeededDice.__new__(SeededDice)
        twin.seed, twin.state, twin.inc = self.seed, self.state, self.inc
        return twin

    def reseed(self, seed: int) -> None:
        """Start a fresh stream (search agents sample futures from a clone this way)."""
        self.srandom(*seed_state(seed))
        self.seed = seed


class MersenneDice:
    """The dice before issue #16: ``int(random() * 10) + 1`` of a ``random.Random(seed)``.

    Only for replaying what was recorded under it (:func:`seeded_dice`)."""

    __slots__ = ("_random", "seed")
    stream: ClassVar[str] = LEGACY_STREAM

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self._random = random.Random(seed)

    def d10(self) -> int:
        return int(self._random.random() * 10.0) + 1

    def clone(self) -> MersenneDice:
        twin = MersenneDice.__new__(MersenneDice)
        twin.seed = self.seed
        # __new__ skips seeding from os.urandom, which setstate would overwrite anyway.
        twin._random = random.Random.__new__(random.Random)
        twin._random.setstate(self._random.getstate())
        return twin

    def reseed(self, seed: int) -> None:
        self.seed = seed
        self._random.seed(seed)


STREAMS: dict[str, type[SeededDice] | type[MersenneDice]] = {
    STREAM: SeededDice,
    LEGACY_STREAM: MersenneDice,
}


def seeded_dice(seed: int | None, stream: str = STREAM) -> SeededDice | MersenneDice:
    """The dice of ``seed`` under the named stream (a record's ``stream`` field)."""
    kind = STREAMS.get(stream)
    if kind is None:
        raise UnknownStreamError(
            f"dice stream {stream!r} is unknown; this cwenv knows {', '.join(STREAMS)}"
        )
    return kind(seed)


_STREAM: ContextVar[str] = ContextVar("dice_stream", default=STREAM)


def seeded(seed: int | None) -> SeededDice | MersenneDice:
    """The dice a combat gets from ``Game.new_combat(seed)``: the current stream's."""
    return seeded_dice(seed, _STREAM.get())


@contextmanager
def dice_stream(stream: str) -> Iterator[None]:
    """Combats started inside draw from ``stream``: a replay of a record made under the
    legacy stream plays it again exactly (the runner, the service and the play loaders
    read the record's ``stream`` and replay inside this)."""
    seeded_dice(0, stream)  # an unknown name fails here, before anything is played
    token = _STREAM.set(stream)
    try:
        yield
    finally:
        _STREAM.reset(token)


def reseeded(dice: Dice, seed: int) -> SeededDice | MersenneDice:
    """A fresh stream of ``seed`` of the same kind as ``dice`` (search agents sample
    futures so; a game replayed under the legacy stream keeps it in its lookahead too).
    Table and scripted dice cannot be asked from a copy, so they get the current stream."""
    return MersenneDice(seed) if isinstance(dice, MersenneDice) else SeededDice(seed)


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
