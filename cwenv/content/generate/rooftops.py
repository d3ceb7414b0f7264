"""Rooftop maps: flat roofs at different heights over alleys and a street (B02–B06).

Roofs are raised rectangles (3–12 m) in columns, split by alleys 1–4 m wide: up to half
Bewegung a gap is a free jump (B02), wider ones need a jump check. A street at ground
level runs along one edge and joins every alley. Each roof gets a fire escape: a strip of
climbable ledges (``H``) beside it, rising 2 m a step (one step costs 4 m of movement,
B03, so a fighter with Bewegung 6 climbs it a step per Handlung); roofs of about the same
height are sometimes joined by a plank across the alley. Stepping off a roof is a fall
(B05, B06). Roofs carry air-conditioning units and chimneys as cover; the street carries
parked cars.
"""

from __future__ import annotations

import itertools
import random

from cwenv.content.generate.canvas import (
    FIRE,
    FLOOR,
    HALF,
    LEDGE,
    THREE_QUARTER,
    WALL,
    Canvas,
)

Roof = tuple[int, int, int, int, int]  # x0, y0, x1, y1 (inclusive), height in metres
LADDER_STEP = 2
MIN_ROOF_HEIGHT, MAX_ROOF_HEIGHT = 3, 12


def _heights(rng: random.Random, n: int) -> list[int]:
    """Roof heights as a walk: neighbours mostly within 1 m (jumpable both ways)."""
    out = [rng.randint(4, 9)]
    for _ in range(n - 1):
        step = rng.choice((-1, 0, 0, 1)) if rng.random() < 0.8 else rng.choice((-4, -3, 3, 4))
        out.append(max(MIN_ROOF_HEIGHT, min(MAX_ROOF_HEIGHT, out[-1] + step)))
    return out


def _ladder_levels(height: int) -> list[int]:
    """The elevations of a fire escape's ledges up to a roof of ``height`` metres: each
    2 m above the last, the top one within 1 m of the roof (stepped onto, B02)."""
    levels = [LADDER_STEP]
    while levels[-1] < height - 1:
        levels.append(min(height, levels[-1] + LADDER_STEP))
    return levels


def _ladder(c: Canvas, rng: random.Random, roof: Roof) -> bool:
    """A fire escape up one side of ``roof``, in the ground-level strip beside it."""
    x0, y0, x1, y1, height = roof
    levels = _ladder_levels(height)
    n = len(levels)
    options: list[list[tuple[int, int]]] = []
    for y in (y0 - 1, y1 + 1):  # along the north and south sides, either direction
        for start in range(x0, x1 - n + 2):
            run = [(start + k, y) for k in range(n)]
            options.append([(start - 1, y), *run])
            options.append([(start + n, y), *reversed(run)])
    for x in (x0 - 1, x1 + 1):  # along the west and east sides
        for start in range(y0, y1 - n + 2):
            run = [(x, start + k) for k in range(n)]
            options.append([(x, start - 1), *run])
            options.append([(x, start + n), *reversed(run)])
    rng.shuffle(options)
    for cells in options:
        if all(c.inside(x, y) and c.get(x, y) == FLOOR and c.elev[y][x] == 0 for x, y in cells):
            for (x, y), level in zip(cells[1:], levels, strict=True):
                c.set(x, y, LEDGE)
                c.elev[y][x] = level
            return True
    return False


def _plank(c: Canvas, rng: random.Random, a: Roof, b: Roof) -> None:
    """A plank over the alley between two roofs side by side (x) of about one height."""
    if abs(a[4] - b[4]) > 1:
        return
    lo, hi = max(a[1], b[1]), min(a[3], b[3])
    if lo > hi:
        return
    y = rng.randint(lo, hi)
    for x in range(a[2] + 1, b[0]):
        if c.get(x, y) != FLOOR or c.elev[y][x] != 0:
            return
    for x in range(a[2] + 1, b[0]):
        c.elev[y][x] = min(a[4], b[4])


def _furnish(c: Canvas, rng: random.Random, roof: Roof) -> None:
    x0, y0, x1, y1, _ = roof
    area = (x1 - x0 + 1) * (y1 - y0 + 1)
    c.scatter(
        rng,
        (x0, y0, x1, y1),
        area // rng.randint(8, 14),
        shapes=((1, 1), (2, 1), (1, 2), (2, 2)),
        chars=(THREE_QUARTER, THREE_QUARTER, HALF, WALL),
    )


def build_rooftops(rng: random.Random, width: int, height: int) -> Canvas:
    """A rooftop map of ``width`` × ``height`` cells with a street along one edge."""
    c = Canvas(width, height)
    street = rng.randint(2, 3) if height >= 10 else 2
    south = rng.random() < 0.5  # the street along the south edge, else the north edge
    top, bottom = (0, height - street - 1) if south else (street, height - 1)
    # Columns of roofs and the alleys between them.
    columns: list[tuple[int, int]] = []
    x = rng.randint(0, 1)
    while x < width:
        wide = rng.randint(4, 9)
        end = min(width - 1, x + wide - 1)
        if width - 1 - end < 4:
            end = width - 1 if width - x >= 4 else end
        if end - x + 1 < 3:
            break
        columns.append((x, end))
        x = end + 1 + rng.choice((1, 2, 2, 3, 3, 4))
    roofs: list[Roof] = []
    heights = _heights(rng, 2 * len(columns))
    for i, (cx0, cx1) in enumerate(columns):
        rows = bottom - top + 1
        if rows >= 11 and rng.random() < 0.5:  # an alley across: two roofs in the column
            cut = rng.randint(top + 4, bottom - 5)
            gap = rng.randint(1, 3)
            parts = [(top, cut), (cut + gap + 1, bottom)]
        else:
            parts = [(top, bottom)]
        for k, (ry0, ry1) in enumerate(parts):
            roofs.append((cx0, ry0, cx1, ry1, heights[2 * i + k]))
    for x0, y0, x1, y1, h in roofs:
        c.raise_to(x0, y0, x1, y1, h)
    for a, b in itertools.pairwise(roofs):
        if b[0] > a[2] + 1 and rng.random() < 0.35:
            _plank(c, rng, a, b)
    for roof in roofs:
        for _ in range(1 if rng.random() < 0.7 else 2):
            _ladder(c, rng, roof)
    for roof in roofs:
        _furnish(c, rng, roof)
    y0, y1 = (height - street, height - 1) if south else (0, street - 1)
    c.scatter(rng, (0, y0, width - 1, y1), width // 8, ((3, 1), (2, 1), (1, 1)), (HALF,))
    if rng.random() < 0.25:  # a burning bin in an alley (D03)
        c.scatter(rng, (0, 0, width - 1, height - 1), 1, ((1, 1),), (FIRE,))
    return c
