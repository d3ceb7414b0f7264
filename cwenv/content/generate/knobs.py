"""The knobs of the scenario generator: what a caller may fix, and their allowed values.

Every knob left out (``None``) is drawn from the seed. A bad knob is a
:class:`GeneratorKnobError` naming the knob and every allowed value, never a traceback.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

SIZES = ("small", "medium", "large")
FAMILIES = ("rooms", "streets", "rooftops")
VICTORIES = ("eliminate", "survive", "protect_vip", "reach_exit")
MIN_PLAYERS, MAX_PLAYERS = 1, 6

# Map sides (width, height ranges) per size class. Large stays inside the env layout's
# 64-cell limit (cwenv.envs.capacity.MAX_MAP_SIDE).
SIZE_DIMS: dict[str, tuple[tuple[int, int], tuple[int, int]]] = {
    "small": ((10, 16), (8, 12)),
    "medium": ((16, 28), (12, 20)),
    "large": ((28, 48), (18, 32)),
}


class GeneratorKnobError(ValueError):
    """A knob of ``generate`` (or of ``cwenv scenarios generate``) has no allowed value."""


@dataclass(frozen=True)
class Knobs:
    """What a generated scenario must be; ``None`` lets the seed decide."""

    size: str | None = None
    family: str | None = None
    players: int | None = None
    runners: int | None = None
    gegner: int | None = None
    victory: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


KNOB_NAMES = tuple(f.name for f in fields(Knobs))


def _choice(name: str, value: Any, allowed: tuple[str, ...]) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or value not in allowed:
        raise GeneratorKnobError(f"{name}: {value!r} is not allowed; allowed: {', '.join(allowed)}")
    return value


def _count(name: str, value: Any) -> int | None:
    if value is None:
        return None
    # bool is an int in Python; True players is a mistake, not one player.
    if isinstance(value, bool) or not isinstance(value, int):
        raise GeneratorKnobError(
            f"{name}: {value!r} is not a whole number; allowed: {MIN_PLAYERS}..{MAX_PLAYERS}"
        )
    if not MIN_PLAYERS <= value <= MAX_PLAYERS:
        raise GeneratorKnobError(
            f"{name}: {value} fighters per side is not allowed; allowed: "
            f"{MIN_PLAYERS}..{MAX_PLAYERS}"
        )
    return value


MAX_SEED = 2**64 - 1  # the seed is part of the scenario's name, which has 60 characters


def check_seed(seed: Any) -> int:
    """The seed, if it is a whole number 0..MAX_SEED (``random.Random`` treats -5 like 5,
    so negative seeds would silently repeat positive ones)."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise GeneratorKnobError(
            f"seed: {seed!r} is not allowed; allowed: a whole number 0..{MAX_SEED}"
        )
    return seed


def make_knobs(**knobs: Any) -> Knobs:
    """Check keyword knobs; unknown names and bad values are :class:`GeneratorKnobError`."""
    unknown = [k for k in knobs if k not in KNOB_NAMES]
    if unknown:
        raise GeneratorKnobError(
            f"unknown knob {unknown[0]!r}; allowed knobs: {', '.join(KNOB_NAMES)}"
        )
    players = _count("players", knobs.get("players"))
    runners = _count("runners", knobs.get("runners"))
    gegner = _count("gegner", knobs.get("gegner"))
    if players is not None:
        for name, value in (("runners", runners), ("gegner", gegner)):
            if value is not None and value != players:
                raise GeneratorKnobError(
                    f"{name}: {value} contradicts players: {players}; give players (both "
                    "sides) or runners and gegner"
                )
        runners = gegner = players
    return Knobs(
        size=_choice("size", knobs.get("size"), SIZES),
        family=_choice("family", knobs.get("family"), FAMILIES),
        players=players,
        runners=runners,
        gegner=gegner,
        victory=_choice("victory", knobs.get("victory"), VICTORIES),
    )
