"""Line of fire, line of sight and directional cover (C01, C02, C04).

The line of fire runs from the centre of the attacker's cell to the centre of the
target's cell. It is traced as a *supercover* line: every cell the segment passes through,
where a pass exactly through a corner touches both side cells (a "corner pair"). Sight is
blocked when a step's cells are all opaque, so a shot may graze one wall corner but not
squeeze between two.

Terrain cover is directional (C02): a cover object protects the target only when it lies
on the line of fire within one metre of the target, so a crate east of a fighter covers
against fire from the east and not from the west.

This module is also the reference of the native core (``cwenv._core``, docs/native.md):
where the core is built, :func:`has_line_of_sight`, :func:`terrain_cover` and the steps
of :func:`sight_line` are answered by it, bit for bit the same (tests/test_native_los.py);
``CWENV_ENGINE=python`` keeps everything here.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING

from cwenv.battlemap.grid import BattleMap, Terrain
from cwenv.model.types import CoverLevel

if TYPE_CHECKING:
    from cwenv._core import Lines as _CoreLines

Steps = tuple[tuple[int, ...], ...]
ENGINES = ("native", "python")
_LEVELS = tuple(CoverLevel)  # an int from the core to its CoverLevel, without a call


class EngineChoiceError(ValueError):
    """``CWENV_ENGINE`` names no engine, or asks for the native one where none is built."""


def _load_core(choice: str, *, asked: bool) -> ModuleType | None:
    if choice not in ENGINES:
        raise EngineChoiceError(f"CWENV_ENGINE={choice!r}: choose one of {', '.join(ENGINES)}")
    if choice == "python":
        return None
    try:
        from cwenv import _core
    except ImportError as exc:
        if asked:
            raise EngineChoiceError(
                "the native engine was asked for, but its core is not built (docs/native.md)"
            ) from exc
        warnings.warn(
            "cwenv: the native core is not built (no C++ compiler at install?); using the "
            "Python reference engine. Set CWENV_ENGINE=python to silence this.",
            RuntimeWarning,
            stacklevel=2,
        )
        return None
    return _core


_core = _load_core(os.environ.get("CWENV_ENGINE") or "native", asked="CWENV_ENGINE" in os.environ)


def engine() -> str:
    """The engine that answers lines of fire now: ``"native"`` or ``"python"``."""
    return "python" if _core is None else "native"


def use_engine(choice: str) -> None:
    """Switch engines in this process (benchmarks and the conformance tests compare the
    two in one run); ``CWENV_ENGINE`` sets the default at import."""
    global _core
    _core = _load_core(choice, asked=True)


def _native_lines(core: ModuleType, bm: BattleMap) -> _CoreLines:
    """The core's twin of ``bm``. The map is frozen and owned elsewhere, so its per-map
    cache holds the twin, keyed by the core's class: every combat on the map shares one.
    Callers look it up inline first (a function call costs more than the query)."""
    lines: _CoreLines = core.Lines(bm.width, bm.height, bytes(bm.terrain))
    bm.edge_cache[core.Lines] = lines
    return lines


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
        if _core is None:
            steps = _supercover(bm.width, bm.xs[a], bm.ys[a], bm.xs[b], bm.ys[b])
        else:
            steps = _core.supercover(bm.width, a, b)
        hit = bm.line_cache[key] = _compile(bm, b, steps)
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


def line_cells(bm: BattleMap, a: int, b: int) -> Sequence[int]:
    """The cells between ``a`` and ``b`` in order from ``a``, both of a corner pair
    (``SightLine.cells``; C04's living cover walks them). The native core computes them
    per call instead of caching a compiled line per pair on the map: that cache grows with
    every pair of cells a fight meets (up to 35 MB on feuergefecht's map, 144 MB on
    kreuzung; benchmarks/NOTES.md, the memory section)."""
    if _core is not None:
        lines = bm.edge_cache.get(_core.Lines)
        if not isinstance(lines, _core.Lines):
            lines = _native_lines(_core, bm)
        return lines.cells(a, b)
    return sight_line(bm, a, b).cells


def has_line_of_sight(bm: BattleMap, opaque: bytearray, a: int, b: int) -> bool:
    """True when no step of the line between ``a`` and ``b`` is wholly opaque."""
    if _core is not None:
        lines = bm.edge_cache.get(_core.Lines)
        if not isinstance(lines, _core.Lines):
            lines = _native_lines(_core, bm)
        return not lines.blocked(opaque, a, b)
    return not sight_line(bm, a, b).blocked(opaque)


def terrain_cover(bm: BattleMap, opaque: bytearray, a: int, b: int) -> CoverLevel:
    """Cover the target at ``b`` has from terrain against an attack from ``a`` (C01, C02).

    FULL when sight is blocked; otherwise the best cover object on the line of fire within
    one metre of the target.
    """
    if _core is not None:
        lines = bm.edge_cache.get(_core.Lines)
        if not isinstance(lines, _core.Lines):
            lines = _native_lines(_core, bm)
        return _LEVELS[lines.terrain_cover(opaque, a, b)]
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
