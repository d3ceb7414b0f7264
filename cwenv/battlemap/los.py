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

from dataclasses import dataclass

from cwenv.battlemap.grid import BattleMap, Terrain
from cwenv.model.types import CoverLevel

Steps = tuple[tuple[int, ...], ...]


@dataclass(frozen=True, slots=True)
class SightLine:
    """One line of fire, compiled once per map: its steps, and what of it is static.

    Only opacity changes during a fight (doors), so the terrain cover a line offers when
    nothing blocks it is computed here once.
    """

    steps: Steps
    cells: tuple[int, ...]  # every cell of the steps, in order
    singles: tuple[int, ...]  # one-cell steps: sight is blocked when one is opaque
    pairs: tuple[tuple[int, int], ...]  # corner pairs: blocked when both are opaque
    cover: CoverLevel  # the best cover object within one metre of the target (C02)

    def blocked(self, opaque: bytearray) -> bool:
        for cell in self.singles:
            if opaque[cell]:
                return True
        for first, second in self.pairs:  # noqa: SIM110  (a loop beats any() here)
            if opaque[first] and opaque[second]:
                return True
        return False


def sight_line(bm: BattleMap, a: int, b: int) -> SightLine:
    """The compiled line from ``a`` to ``b`` (cached on the map, shared by all combats)."""
    key = a * bm.size + b
    hit = bm.line_cache.get(key)
    if hit is None:
        hit = _compile(bm, b, _supercover(bm.width, bm.xs[a], bm.ys[a], bm.xs[b], bm.ys[b]))
        bm.line_cache[key] = hit
    return hit


def _compile(bm: BattleMap, b: int, steps: Steps) -> SightLine:
    terrain, xs, ys = bm.terrain, bm.xs, bm.ys
    bx, by = xs[b], ys[b]
    best = CoverLevel.NONE
    for step in steps:
        for c in step:
            t = terrain[c]
            if (t is Terrain.COVER_HALF or t is Terrain.COVER_THREE_QUARTER) and (
                abs(xs[c] - bx) <= 1 and abs(ys[c] - by) <= 1
            ):
                level = CoverLevel.HALF if t is Terrain.COVER_HALF else CoverLevel.THREE_QUARTER
                if level > best:
                    best = level
    return SightLine(
        steps=steps,
        cells=tuple(c for step in steps for c in step),
        singles=tuple(step[0] for step in steps if len(step) == 1),
        pairs=tuple((step[0], step[1]) for step in steps if len(step) == 2),
        cover=best,
    )


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
    return not sight_line(bm, a, b).blocked(opaque)


def terrain_cover(bm: BattleMap, opaque: bytearray, a: int, b: int) -> CoverLevel:
    """Cover the target at ``b`` has from terrain against an attack from ``a`` (C01, C02).

    FULL when sight is blocked; otherwise the best cover object on the line of fire within
    one metre of the target.
    """
    line = sight_line(bm, a, b)
    return CoverLevel.FULL if line.blocked(opaque) else line.cover


def cells_in_radius(bm: BattleMap, centre: int, radius: int) -> list[int]:
    """All cells within ``radius`` metres (Chebyshev) of ``centre``, in index order."""
    cx, cy = bm.xs[centre], bm.ys[centre]
    out = []
    for y in range(max(0, cy - radius), min(bm.height, cy + radius + 1)):
        for x in range(max(0, cx - radius), min(bm.width, cx + radius + 1)):
            out.append(y * bm.width + x)
    return out
