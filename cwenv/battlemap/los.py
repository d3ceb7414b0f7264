"""Line of fire, line of sight and directional cover (C01, C02, C04).

The line of fire runs from the centre of the attacker's cell to the centre of the
target's cell. It is traced as a *supercover* line: every cell the segment passes through,
where a pass exactly through a corner touches both side cells (a "corner pair"). Sight is
blocked when a step's cells are all opaque, so a shot may graze one wall corner but not
squeeze between two.

Terrain cover is directional (C02): a cover object protects the target only when it lies
on the line of fire within one metre of the target, so a crate east of a fighter covers
against fire from the east and not from the west.
"""

from __future__ import annotations

from cwenv.battlemap.grid import BattleMap, Terrain
from cwenv.model.types import CoverLevel

Steps = tuple[tuple[int, ...], ...]


def line_steps(bm: BattleMap, a: int, b: int) -> Steps:
    """The cells strictly between ``a`` and ``b`` as steps of one cell or a corner pair."""
    key = a * bm.size + b
    cache = bm.line_cache
    hit = cache.get(key)
    if hit is not None:
        return hit
    steps = _supercover(bm.width, bm.xs[a], bm.ys[a], bm.xs[b], bm.ys[b])
    cache[key] = steps
    return steps


def _supercover(w: int, x0: int, y0: int, x1: int, y1: int) -> Steps:
    dx, dy = abs(x1 - x0), abs(y1 - y0)
    sx = 1 if x1 > x0 else -1
    sy = 1 if y1 > y0 else -1
    x, y = x0, y0
    out: list[tuple[int, ...]] = []
    if dx >= dy:
        ddx, ddy = 2 * dx, 2 * dy
        error = errorprev = dx
        for _ in range(dx):
            x += sx
            error += ddy
            if error > ddx:
                y += sy
                error -= ddx
                if error + errorprev < ddx:
                    out.append(((y - sy) * w + x,))
                elif error + errorprev > ddx:
                    out.append((y * w + x - sx,))
                else:
                    out.append(((y - sy) * w + x, y * w + x - sx))
            out.append((y * w + x,))
            errorprev = error
    else:
        ddx, ddy = 2 * dx, 2 * dy
        error = errorprev = dy
        for _ in range(dy):
            y += sy
            error += ddx
            if error > ddy:
                x += sx
                error -= ddy
                if error + errorprev < ddy:
                    out.append((y * w + x - sx,))
                elif error + errorprev > ddy:
                    out.append(((y - sy) * w + x,))
                else:
                    out.append((y * w + x - sx, (y - sy) * w + x))
            out.append((y * w + x,))
            errorprev = error
    if out:
        out.pop()  # the target's own cell
    return tuple(out)


def has_line_of_sight(bm: BattleMap, opaque: bytearray, a: int, b: int) -> bool:
    """True when no step of the line between ``a`` and ``b`` is wholly opaque."""
    for step in line_steps(bm, a, b):
        if len(step) == 1:
            if opaque[step[0]]:
                return False
        elif opaque[step[0]] and opaque[step[1]]:
            return False
    return True


def terrain_cover(bm: BattleMap, opaque: bytearray, a: int, b: int) -> CoverLevel:
    """Cover the target at ``b`` has from terrain against an attack from ``a`` (C01, C02).

    FULL when sight is blocked; otherwise the best cover object on the line of fire within
    one metre of the target.
    """
    best = CoverLevel.NONE
    terrain = bm.terrain
    bx, by = bm.xs[b], bm.ys[b]
    xs, ys = bm.xs, bm.ys
    for step in line_steps(bm, a, b):
        if len(step) == 1:
            if opaque[step[0]]:
                return CoverLevel.FULL
        elif opaque[step[0]] and opaque[step[1]]:
            return CoverLevel.FULL
        for c in step:
            t = terrain[c]
            if (t is Terrain.COVER_HALF or t is Terrain.COVER_THREE_QUARTER) and (
                abs(xs[c] - bx) <= 1 and abs(ys[c] - by) <= 1
            ):
                level = CoverLevel.HALF if t is Terrain.COVER_HALF else CoverLevel.THREE_QUARTER
                if level > best:
                    best = level
    return best


def cells_in_radius(bm: BattleMap, centre: int, radius: int) -> list[int]:
    """All cells within ``radius`` metres (Chebyshev) of ``centre``, in index order."""
    cx, cy = bm.xs[centre], bm.ys[centre]
    out = []
    for y in range(max(0, cy - radius), min(bm.height, cy + radius + 1)):
        for x in range(max(0, cx - radius), min(bm.width, cx + radius + 1)):
            out.append(y * bm.width + x)
    return out
