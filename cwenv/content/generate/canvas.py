"""A mutable character grid with an elevation layer: what the map families draw on.

Characters are the default legend of :mod:`cwenv.battlemap.grid` (``.`` floor, ``#``
wall, ``=`` half cover, ``%`` three-quarter cover, ``~`` water, ``H`` ledge, ``+``/``/``
doors, ``*`` fire); the generated map needs no legend of its own.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from cwenv.battlemap.grid import BattleMap

FLOOR, WALL, HALF, THREE_QUARTER = ".", "#", "=", "%"
WATER, LEDGE, DOOR_CLOSED, DOOR_OPEN, FIRE = "~", "H", "+", "/", "*"
COVER = (HALF, THREE_QUARTER)
DOORS = (DOOR_CLOSED, DOOR_OPEN)
# Cells an object may not touch: it would block a door or a ledge, or merge with other
# objects into a wall that cuts the map.
_KEEP_CLEAR = (DOOR_CLOSED, DOOR_OPEN, LEDGE, HALF, THREE_QUARTER, WATER, FIRE)
_BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz"

Shape = tuple[int, int]  # width, height of an object


class Canvas:
    """``width`` × ``height`` cells, all floor at elevation 0 to begin with."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.chars = [[FLOOR] * width for _ in range(height)]
        self.elev = [[0] * width for _ in range(height)]

    def inside(self, x: int, y: int) -> bool:
        return 0 <= x < self.width and 0 <= y < self.height

    def get(self, x: int, y: int) -> str:
        return self.chars[y][x]

    def set(self, x: int, y: int, ch: str) -> None:
        self.chars[y][x] = ch

    def fill(self, x0: int, y0: int, x1: int, y1: int, ch: str) -> None:
        """Set every cell of the inclusive rectangle (clipped to the map)."""
        for y in range(max(0, y0), min(self.height - 1, y1) + 1):
            for x in range(max(0, x0), min(self.width - 1, x1) + 1):
                self.chars[y][x] = ch

    def raise_to(self, x0: int, y0: int, x1: int, y1: int, metres: int) -> None:
        """Set the elevation of the inclusive rectangle."""
        for y in range(max(0, y0), min(self.height - 1, y1) + 1):
            for x in range(max(0, x0), min(self.width - 1, x1) + 1):
                self.elev[y][x] = metres

    def outline(self, x0: int, y0: int, x1: int, y1: int, ch: str = WALL) -> None:
        for x in range(x0, x1 + 1):
            self.set(x, y0, ch)
            self.set(x, y1, ch)
        for y in range(y0, y1 + 1):
            self.set(x0, y, ch)
            self.set(x1, y, ch)

    def cells(self) -> Iterator[tuple[int, int]]:
        for y in range(self.height):
            for x in range(self.width):
                yield x, y

    def ring(self, x0: int, y0: int, x1: int, y1: int) -> Iterator[tuple[int, int]]:
        """The cells around the inclusive rectangle (8-neighbourhood), inside the map."""
        for y in range(y0 - 1, y1 + 2):
            for x in range(x0 - 1, x1 + 2):
                if (x0 <= x <= x1 and y0 <= y <= y1) or not self.inside(x, y):
                    continue
                yield x, y

    def can_place(self, x0: int, y0: int, w: int, h: int) -> bool:
        """Whether an object fits at ``(x0, y0)``: on level floor, touching no door,
        ledge or other object."""
        x1, y1 = x0 + w - 1, y0 + h - 1
        if not (self.inside(x0, y0) and self.inside(x1, y1)):
            return False
        level = self.elev[y0][x0]
        for y in range(y0, y1 + 1):
            for x in range(x0, x1 + 1):
                if self.chars[y][x] != FLOOR or self.elev[y][x] != level:
                    return False
        return all(self.chars[y][x] not in _KEEP_CLEAR for x, y in self.ring(x0, y0, x1, y1))

    def scatter(
        self,
        rng: random.Random,
        area: tuple[int, int, int, int],
        count: int,
        shapes: Sequence[Shape],
        chars: Sequence[str],
        tries: int = 12,
    ) -> int:
        """Drop up to ``count`` objects of random shape and character into ``area``
        (inclusive x0, y0, x1, y1); returns how many fit."""
        x0, y0, x1, y1 = area
        placed = 0
        for _ in range(count):
            w, h = rng.choice(shapes)
            ch = rng.choice(chars)
            for _ in range(tries):
                if x1 - w + 1 < x0 or y1 - h + 1 < y0:
                    break
                x, y = rng.randint(x0, x1 - w + 1), rng.randint(y0, y1 - h + 1)
                if self.can_place(x, y, w, h):
                    self.fill(x, y, x + w - 1, y + h - 1, ch)
                    placed += 1
                    break
        return placed

    def rows(self) -> list[str]:
        return ["".join(row) for row in self.chars]

    def has_heights(self) -> bool:
        return any(any(row) for row in self.elev)

    def elevation_rows(self) -> list[str]:
        return ["".join(_BASE36[min(v, 35)] for v in row) for row in self.elev]

    def battlemap(self) -> BattleMap:
        """The grid as the engine's map (for the reachability checks)."""
        elevation = self.elevation_rows() if self.has_heights() else None
        return BattleMap.from_rows(self.rows(), elevation_rows=elevation)
