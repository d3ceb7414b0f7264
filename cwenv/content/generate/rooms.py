"""Indoor maps: rooms split off by walls, joined by doors, sometimes along a corridor.

The floor is split like a binary space partition; then doors are cut through the walls,
first one per pair of parts until every part joins every other (a spanning tree, so no
room is ever sealed), then a few more for loops, so there are always two ways round.
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

Rect = tuple[int, int, int, int]  # inclusive x0, y0, x1, y1 of floor
MIN_ROOM = 3


def _split(c: Canvas, rng: random.Random, r: Rect, max_side: int, out: list[Rect]) -> None:
    x0, y0, x1, y1 = r
    w, h = x1 - x0 + 1, y1 - y0 + 1
    can_v = w >= 2 * MIN_ROOM + 1
    can_h = h >= 2 * MIN_ROOM + 1
    if not (can_v or can_h) or (max(w, h) <= max_side and rng.random() < 0.7):
        out.append(r)
        return
    vertical = can_v and (not can_h or w > h or (w == h and rng.random() < 0.5))
    if vertical:
        x = rng.randint(x0 + MIN_ROOM, x1 - MIN_ROOM)
        c.fill(x, y0, x, y1, WALL)
        _split(c, rng, (x0, y0, x - 1, y1), max_side, out)
        _split(c, rng, (x + 1, y0, x1, y1), max_side, out)
    else:
        y = rng.randint(y0 + MIN_ROOM, y1 - MIN_ROOM)
        c.fill(x0, y, x1, y, WALL)
        _split(c, rng, (x0, y0, x1, y - 1), max_side, out)
        _split(c, rng, (x0, y + 1, x1, y1), max_side, out)


def _labels(c: Canvas) -> list[list[int]]:
    """Each non-wall cell's region number (4-neighbour flood fill), -1 for walls."""
    lab = [[-1] * c.width for _ in range(c.height)]
    n = 0
    for x, y in c.cells():
        if c.get(x, y) == WALL or lab[y][x] >= 0:
            continue
        stack = [(x, y)]
        lab[y][x] = n
        while stack:
            px, py = stack.pop()
            for qx, qy in ((px + 1, py), (px - 1, py), (px, py + 1), (px, py - 1)):
                if c.inside(qx, qy) and lab[qy][qx] < 0 and c.get(qx, qy) != WALL:
                    lab[qy][qx] = n
                    stack.append((qx, qy))
        n += 1
    return lab


def _door_char(rng: random.Random) -> str:
    roll = rng.random()
    return DOOR_CLOSED if roll < 0.45 else DOOR_OPEN if roll < 0.75 else FLOOR


def _cut_doors(c: Canvas, rng: random.Random, extra: int) -> None:
    lab = _labels(c)
    candidates: list[tuple[int, int, int, int]] = []  # x, y, region a, region b
    for y in range(1, c.height - 1):
        for x in range(1, c.width - 1):
            if c.get(x, y) != WALL:
                continue
            for (ax, ay), (bx, by), (sx, sy), (tx, ty) in (
                ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)),
                ((x, y - 1), (x, y + 1), (x - 1, y), (x + 1, y)),
            ):
                a, b = lab[ay][ax], lab[by][bx]
                # A door in a straight wall: floor on both faces, wall on both flanks.
                if a >= 0 and b >= 0 and a != b and c.get(sx, sy) == c.get(tx, ty) == WALL:
                    candidates.append((x, y, a, b))
    rng.shuffle(candidates)
    parent = list(range(max((max(row) for row in lab), default=-1) + 1))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def near_door(x: int, y: int) -> bool:
        return any(
            c.get(x + dx, y + dy) != WALL and lab[y + dy][x + dx] < 0
            for dx in (-1, 0, 1)
            for dy in (-1, 0, 1)
            if c.inside(x + dx, y + dy)
        )

    spare = []
    for x, y, a, b in candidates:
        ra, rb = find(a), find(b)
        if ra == rb:
            spare.append((x, y))
            continue
        parent[ra] = rb
        c.set(x, y, _door_char(rng))
    for x, y in spare:
        if extra <= 0:
            break
        if not near_door(x, y):
            c.set(x, y, _door_char(rng))
            extra -= 1


def _furnish(c: Canvas, rng: random.Random, room: Rect) -> None:
    x0, y0, x1, y1 = room
    area = (x1 - x0 + 1) * (y1 - y0 + 1)
    if min(x1 - x0, y1 - y0) < 2:
        return  # a corridor or a closet stays clear
    count = area // rng.randint(9, 16)
    c.scatter(
        rng,
        room,
        count,
        shapes=((2, 1), (1, 2), (1, 1), (2, 2), (3, 1), (1, 3)),
        chars=(HALF, HALF, HALF, THREE_QUARTER),
    )


def build_rooms(rng: random.Random, width: int, height: int) -> Canvas:
    """An indoor map of ``width`` × ``height`` cells, walled all round."""
    c = Canvas(width, height)
    c.outline(0, 0, width - 1, height - 1)
    max_side = rng.randint(5, 9)
    rooms: list[Rect] = []
    inner: Rect = (1, 1, width - 2, height - 2)
    wide = rng.randint(1, 2)
    along = max(width, height)
    # Room rows above and below the corridor: MIN_ROOM each, plus its two walls.
    lo, hi = MIN_ROOM + 1, min(width, height) - wide - 3 - MIN_ROOM
    if lo <= hi and along >= 12 and rng.random() < 0.45:
        at = rng.randint(lo, hi)
        if width >= height:
            c.fill(1, at, width - 2, at, WALL)
            c.fill(1, at + wide + 1, width - 2, at + wide + 1, WALL)
            halves = [(1, 1, width - 2, at - 1), (1, at + wide + 2, width - 2, height - 2)]
        else:
            c.fill(at, 1, at, height - 2, WALL)
            c.fill(at + wide + 1, 1, at + wide + 1, height - 2, WALL)
            halves = [(1, 1, at - 1, height - 2), (at + wide + 2, 1, width - 2, height - 2)]
        for half in halves:
            _split(c, rng, half, max_side, rooms)
    else:
        _split(c, rng, inner, max_side, rooms)
    _cut_doors(c, rng, extra=max(1, len(rooms) // 3))
    for room in rooms:
        _furnish(c, rng, room)
    big = [r for r in rooms if min(r[2] - r[0], r[3] - r[1]) >= 3]
    if big and rng.random() < 0.15:  # a flooded room (swimming, B04)
        x0, y0, x1, y1 = rng.choice(big)
        c.scatter(rng, (x0 + 1, y0 + 1, x1 - 1, y1 - 1), 1, ((2, 2), (3, 2), (2, 3)), (WATER,))
    if rooms and rng.random() < 0.2:  # burning debris (D03)
        for _ in range(rng.randint(1, 3)):
            c.scatter(rng, rng.choice(rooms), 1, ((1, 1),), (FIRE,))
    return c
