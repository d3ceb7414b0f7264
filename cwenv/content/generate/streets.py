"""Street maps: city blocks between streets and alleys, cars and crates as cover.

The map is cut into bands along both axes: streets (3–5 m), alleys (1–2 m) and blocks
between them. A block is a building (walls with windows as three-quarter cover and a
door onto the street, sometimes a closed one), a solid block, a parking lot full of cars
or an open yard. Streets get parked cars and barricades at their kerbs (never across the
whole street), lamp posts, burning oil barrels and now and then a canal to swim through.
"""

from __future__ import annotations

import random

from cwenv.content.generate.canvas import (
    DOOR_CLOSED,
    DOOR_OPEN,
    FIRE,
    FLOOR,
    HALF,
    THREE_QUARTER,
    WALL,
    WATER,
    Canvas,
)

Band = tuple[int, int, bool]  # first cell, last cell (inclusive), is it a block
CARS = ((3, 2), (2, 3), (2, 1), (1, 2))


def _bands(rng: random.Random, length: int) -> list[Band]:
    """Alternating streets and blocks covering ``0 .. length - 1``."""
    out: list[Band] = []
    pos = 0
    street = rng.random() < 0.5
    while pos < length:
        size = rng.choice((1, 2, 3, 3, 4, 4, 5)) if street else rng.randint(4, 9)
        end = min(length - 1, pos + size - 1)
        if length - 1 - end < 3:  # no sliver at the far edge
            end = length - 1
        out.append((pos, end, not street))
        pos = end + 1
        street = not street
    return out


def _building(c: Canvas, rng: random.Random, x0: int, y0: int, x1: int, y1: int) -> None:
    c.outline(x0, y0, x1, y1)
    inner = (x0 + 1, y0 + 1, x1 - 1, y1 - 1)
    c.fill(*inner, FLOOR)  # a canal drawn before stays outside
    # Doors: one to three, each in the middle stretch of a side (never a corner).
    sides = [
        [(x, y0) for x in range(x0 + 1, x1)],
        [(x, y1) for x in range(x0 + 1, x1)],
        [(x0, y) for y in range(y0 + 1, y1)],
        [(x1, y) for y in range(y0 + 1, y1)],
    ]
    rng.shuffle(sides)
    for side in sides[: rng.randint(1, 3)]:
        x, y = rng.choice(side)
        c.set(x, y, DOOR_CLOSED if rng.random() < 0.4 else DOOR_OPEN)
    # Windows: three-quarter cover to shoot through (C02).
    for side in sides:
        for x, y in side:
            if c.get(x, y) == WALL and rng.random() < 0.15:
                c.set(x, y, THREE_QUARTER)
    area = (inner[2] - inner[0] + 1) * (inner[3] - inner[1] + 1)
    c.scatter(rng, inner, area // 10, ((2, 1), (1, 2), (1, 1)), (HALF, HALF, THREE_QUARTER))


def _block(c: Canvas, rng: random.Random, x0: int, y0: int, x1: int, y1: int) -> None:
    w, h = x1 - x0 + 1, y1 - y0 + 1
    roll = rng.random()
    if w >= 4 and h >= 4 and roll < 0.5:
        _building(c, rng, x0, y0, x1, y1)
    elif roll < 0.65:
        c.fill(x0, y0, x1, y1, WALL)  # a block without a way in
    elif roll < 0.85:
        c.scatter(rng, (x0, y0, x1, y1), max(1, w * h // 8), CARS, (HALF,))  # parking lot
    else:  # a yard: crates, a pillar, maybe a fountain
        if w >= 5 and h >= 5 and rng.random() < 0.4:
            c.scatter(rng, (x0 + 1, y0 + 1, x1 - 1, y1 - 1), 1, ((2, 2), (3, 2)), (WATER,))
        shapes = ((1, 1), (2, 1))
        c.scatter(rng, (x0, y0, x1, y1), max(1, w * h // 12), shapes, (HALF, THREE_QUARTER))


def _street(c: Canvas, rng: random.Random, lo: int, hi: int, vertical: bool) -> None:
    """Kerbside cover on a street running the whole map; the middle lane stays free."""
    width = hi - lo + 1
    if width < 3:
        return
    length = c.height if vertical else c.width
    for _ in range(length // rng.randint(3, 6)):
        pos = rng.randint(0, length - 1)
        kerb = lo if rng.random() < 0.5 else hi
        deep = 1 if width < 5 else rng.randint(1, 2)
        along = rng.randint(1, 3)
        first = kerb if kerb == lo else kerb - deep + 1
        ch = HALF if rng.random() < 0.8 else THREE_QUARTER
        if vertical:
            x, y, w, h = first, pos, deep, along
        else:
            x, y, w, h = pos, first, along, deep
        if c.can_place(x, y, w, h):
            c.fill(x, y, x + w - 1, y + h - 1, ch)
    if rng.random() < 0.25:  # a burning oil barrel in the street (D03)
        pos = rng.randint(0, length - 1)
        mid = (lo + hi) // 2
        x, y = (mid, pos) if vertical else (pos, mid)
        if c.can_place(x, y, 1, 1):
            c.set(x, y, FIRE)


def _canal(c: Canvas, rng: random.Random) -> None:
    """A canal across the map with a bridge or two: water to swim (B04) or to cross dry.
    Drawn first: blocks built on it later keep their walls and dry floors."""
    vertical = rng.random() < 0.5
    length = c.height if vertical else c.width
    across = c.width if vertical else c.height
    at = rng.randint(across // 4, across - across // 4 - 2)
    wide = rng.randint(1, 2)
    bridges = {rng.randint(0, length - 2) for _ in range(rng.randint(1, 2))}
    for pos in range(length):
        if any(b <= pos <= b + 1 for b in bridges):
            continue
        for k in range(at, at + wide):
            x, y = (k, pos) if vertical else (pos, k)
            if c.get(x, y) == FLOOR:
                c.set(x, y, WATER)


def build_streets(rng: random.Random, width: int, height: int) -> Canvas:
    """An outdoor street map of ``width`` × ``height`` cells (open to the map's edge)."""
    c = Canvas(width, height)
    if rng.random() < 0.15:
        _canal(c, rng)
    cols, rows = _bands(rng, width), _bands(rng, height)
    for bx0, bx1, xblock in cols:
        for by0, by1, yblock in rows:
            if xblock and yblock:
                _block(c, rng, bx0, by0, bx1, by1)
    for lo, hi, block in cols:
        if not block:
            _street(c, rng, lo, hi, vertical=True)
    for lo, hi, block in rows:
        if not block:
            _street(c, rng, lo, hi, vertical=False)
    return c
