"""Steps on the grid (B01–B04, B06): what one step out of a cell costs and what kind it is.

A step is a walk to a neighbour (B01), a climb up or down (B03, X62), a swim (B04), a jump
over a gap (B02) or a drop (B06). Terrain steps depend only on the map and the fighter's
jump and drop distances (its :class:`MoveProfile`), so they are computed once per map and
profile, kept in the map's ``edge_cache`` and shared by all combats; fighters and doors are
checked by the search (:mod:`cwenv.battlemap.paths`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from cwenv.battlemap.grid import BattleMap, Terrain
from cwenv.invariants import InvariantError


class StepKind(IntEnum):
    NORMAL = 0
    CLIMB = 1  # B03
    SWIM = 2  # B04
    JUMP = 3  # B02 beyond the free distance
    DROP = 4  # B06 deeper than the absorbed height


DIFFICULT_KINDS = (StepKind.CLIMB, StepKind.SWIM, StepKind.JUMP, StepKind.DROP)
KINDS = len(StepKind)
"""Step kinds: a search state is ``cell * KINDS + kind``."""


@dataclass(frozen=True, slots=True)
class MoveProfile:
    """What decides a fighter's step costs.

    ``free_jump`` and ``free_drop`` are half Bewegung (min. 1 m) (B02, B06); ``slow_cost``
    is the metres one metre of climbing or swimming costs (2: half speed, B03, B04).
    ``hurdles`` (X48): low walls and crates (``=``) and steps up onto a cell that is no
    climbable ledge are hurdles to jump (B02); without it they bar the way.
    ``climb_down`` (B03, X62): from a climbable ledge (``H``) a step down at least this
    deep (and deeper than ``free_drop``) is climbed down its face, not dropped; 0: never.
    ``climb_down_max`` (X40 ``climb_over_actions`` false): a face deeper than this is
    dropped, as no one action's movement climbs it down; 0: no limit.
    """

    free_jump: int
    free_drop: int
    slow_cost: int = 2
    max_jump: int = 12
    hurdles: bool = False
    alternate: bool = False  # X49: every second diagonal metre costs 2 (1-2-1)
    climb_down: int = 0
    climb_down_max: int = 0


Edge = tuple[int, int, int, int]  # (to, metres, StepKind, drop)


def _terrain_edges(bm: BattleMap, a: int, profile: MoveProfile) -> tuple[Edge, ...]:
    """Every step out of ``a`` that terrain allows (fighters and doors are checked later)."""
    terrain, elev, xs, ys, w = bm.terrain, bm.elevation, bm.xs, bm.ys, bm.width
    out: list[Edge] = []
    hops: list[Edge] = []  # B02 jumps up: listed after the one-metre steps (free_edges)
    ea = elev[a]
    in_water = terrain[a] is Terrain.WATER
    # B03, X62: a climbable ledge is climbed onto from any lower neighbour, so its faces
    # are climbed down to them too: each climb down is the way back of a climb up.
    climb_down = profile.climb_down if terrain[a] is Terrain.CLIMB else 0
    ax, ay = xs[a], ys[a]

    def wall(cell: int) -> bool:
        t = terrain[cell]
        return not t.standable and t is not Terrain.DOOR_CLOSED

    for n in bm.neighbours[a]:
        if wall(n):
            continue
        nx, ny = xs[n], ys[n]
        if nx != ax and ny != ay and wall(ay * w + nx) and wall(ny * w + ax):
            continue  # no squeezing diagonally between two obstacles
        dh = elev[n] - ea
        if in_water or terrain[n] is Terrain.WATER:
            if dh <= 1:
                out.append((n, profile.slow_cost, StepKind.SWIM, 0))
            continue
        if -profile.free_drop <= dh <= 1:
            out.append((n, 1, StepKind.NORMAL, 0))
        elif dh > 1:
            if terrain[n] is Terrain.CLIMB:
                out.append((n, profile.slow_cost * dh, StepKind.CLIMB, 0))
            elif profile.hurdles and dh <= profile.max_jump:
                # B02, X48: a step up is a hurdle jumped as high as it is, free up to half
                # Bewegung, higher with Infiltration. A climbable ledge is climbed (B03).
                kind = StepKind.NORMAL if dh <= profile.free_jump else StepKind.JUMP
                hops.append((n, dh, kind, 0))
        elif climb_down and climb_down <= -dh and not 0 < profile.climb_down_max < -dh:
            out.append((n, profile.slow_cost * -dh, StepKind.CLIMB, 0))
        else:
            out.append((n, 1, StepKind.DROP, -dh))
    out.extend(hops)
    # Jumps over gaps and hurdles (B02): a straight line over cells more than 1 m below
    # the take-off, and (X48) over low walls and crates no higher than it.
    for n in bm.neighbours[a]:
        if not _spanned(bm, n, ea, profile.hurdles) or terrain[n] is Terrain.WALL:
            continue
        dx, dy = xs[n] - ax, ys[n] - ay
        gap = 1
        x, y = xs[n], ys[n]
        while gap <= profile.max_jump:
            x += dx
            y += dy
            if not (0 <= x < bm.width and 0 <= y < bm.height):
                break
            c = y * w + x
            if terrain[c] is Terrain.WALL or terrain[c] is Terrain.DOOR_CLOSED:
                break
            if _spanned(bm, c, ea, profile.hurdles):
                gap += 1
                continue
            if terrain[c].standable and -profile.free_drop <= elev[c] - ea <= 1:
                kind = StepKind.NORMAL if gap <= profile.free_jump else StepKind.JUMP
                out.append((c, gap + 1, kind, 0))
            break
    return tuple(out)


def _spanned(bm: BattleMap, cell: int, take_off: int, hurdles: bool) -> bool:
    """Whether a jump from ``take_off`` metres crosses ``cell`` (B02): a gap more than 1 m
    below it, or (X48) a low wall or crate whose top (1 m above its ground) is no higher
    than a step taken in stride."""
    elev = bm.elevation[cell]
    if elev < take_off - 1:
        return True
    return hurdles and bm.terrain[cell] is Terrain.COVER_HALF and elev <= take_off


def terrain_edges(bm: BattleMap, a: int, profile: MoveProfile) -> tuple[Edge, ...]:
    """Every step out of ``a`` that terrain allows (cached per map and profile)."""
    table = edge_table(bm, profile)
    edges = table[a]
    if edges is None:
        edges = table[a] = _terrain_edges(bm, a, profile)
    return edges


def edge_table(bm: BattleMap, profile: MoveProfile) -> list[tuple[Edge, ...] | None]:
    """The map's per-cell step lists for ``profile`` (None: not computed yet)."""
    tables = bm.edge_cache
    table = tables.get(profile)
    if table is None:
        table = [None] * bm.size
        tables[profile] = table
    return table  # type: ignore[return-value]


FreeEdges = tuple[tuple[int, ...], tuple[tuple[int, int], ...]]
"""Free steps out of a cell: the one-metre steps (to), then the free jumps (to, metres)."""


def free_table(bm: BattleMap, profile: MoveProfile) -> list[FreeEdges | None]:
    """The map's per-cell free steps for ``profile`` (None: not computed yet)."""
    key = ("free", profile)
    table = bm.edge_cache.get(key)
    if table is None:
        table = [None] * bm.size
        bm.edge_cache[key] = table
    return table  # type: ignore[return-value]


def free_edges(bm: BattleMap, cell: int, profile: MoveProfile) -> FreeEdges:
    """The free steps out of ``cell`` (B01, B02's free jump, B06's absorbed drop)."""
    edges = [(to, cost) for to, cost, kind, _ in _terrain_edges(bm, cell, profile) if not kind]
    # _terrain_edges lists the one-metre steps before the jumps (two metres or more), so
    # relaxing the two groups in turn keeps the search's order and its tie-breaks.
    ones = tuple(to for to, cost in edges if cost == 1)
    if any(cost == 1 for _, cost in edges[len(ones) :]):
        raise InvariantError(f"cell {cell}: a one-metre step listed after a jump")
    return ones, tuple(edges[len(ones) :])


def diagonal_surcharge(
    bm: BattleMap, a: int, b: int, kind: int, parity: int, profile: MoveProfile
) -> tuple[int, int]:
    """X49 ``diagonals_alternate``: the metres the step a→b costs beyond its cells, and the
    parity of diagonal metres after it. Every second diagonal metre costs 2 (1-2-1), counted
    over the whole move; a diagonal jump spans its cells so; a climb is vertical and a swim
    metre costs ``slow_cost`` times as much."""
    dx = bm.xs[b] - bm.xs[a]
    dy = bm.ys[b] - bm.ys[a]
    if not dx or not dy or kind == StepKind.CLIMB:
        return 0, parity
    n = abs(dx)
    extra = (n + parity) // 2
    if kind == StepKind.SWIM:
        extra *= profile.slow_cost
    return extra, (parity + n) % 2


def has_difficult_terrain(bm: BattleMap, hurdles: bool = True) -> bool:
    """Whether any Schwierige Bewegung is possible on this map (water, ledges, drops, and
    with ``hurdles`` (X48) low walls and crates)."""
    cached = bm.edge_cache.get("difficult")
    if cached is None:
        terrain, elev = bm.terrain, bm.elevation
        cached = any(t is Terrain.WATER or t is Terrain.CLIMB for t in terrain) or any(
            abs(elev[a] - elev[b]) > 1 for a in range(bm.size) for b in bm.neighbours[a]
        )
        bm.edge_cache["difficult"] = cached
    return bool(cached) or (hurdles and Terrain.COVER_HALF in bm.terrain)
