"""Movement on the grid (B01–B06, R04): step costs, jumps, climbs, swims, drops and paths.

A fighter's reachable cells are found by Dijkstra over metres. Free movement (B01, B02's
free jump, B06's absorbed drop) and Schwierige Bewegung (H07: climbing B03, swimming B04,
long jumps B02, deep drops B06) are searched separately: the first is part of any turn,
the second is a Handlung with one check, so its path may use one kind of difficult step.

Among equally long paths the search prefers the one that passes through fewer enemy melee
reaches (R04 Blockadeangriff); a fighter who wants another route moves in shorter legs.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum

from cwenv.battlemap.grid import BattleMap, Terrain


class StepKind(IntEnum):
    NORMAL = 0
    CLIMB = 1  # B03
    SWIM = 2  # B04
    JUMP = 3  # B02 beyond the free distance
    DROP = 4  # B06 deeper than the absorbed height


DIFFICULT_KINDS = (StepKind.CLIMB, StepKind.SWIM, StepKind.JUMP, StepKind.DROP)

_PROVOKE_WEIGHT = 64  # a metre always outweighs any number of provocations


@dataclass(frozen=True, slots=True)
class MoveProfile:
    """What decides a fighter's step costs.

    ``free_jump`` and ``free_drop`` are half Bewegung (min. 1 m) (B02, B06); ``slow_cost``
    is the metres one metre of climbing or swimming costs (2: half speed, B03, B04).
    """

    free_jump: int
    free_drop: int
    slow_cost: int = 2
    max_jump: int = 12


@dataclass(frozen=True, slots=True)
class Route:
    """A way to ``dest``: its ``cells`` after the start, cost in metres, and the kind of
    difficult step it uses (NORMAL for free movement). ``drop`` is the deepest drop taken,
    ``over`` the gap cells jumped over (for narration and failed jumps)."""

    dest: int
    cells: tuple[int, ...]
    metres: int
    kind: StepKind
    provocations: int
    drop: int = 0
    first_hard: int = -1  # index in ``cells`` of the first cell reached by a difficult step


def _edges(
    bm: BattleMap, blocked: bytearray, a: int, profile: MoveProfile
) -> list[tuple[int, int, StepKind, int]]:
    """(to, metres, kind, drop) for every step out of ``a``; terrain only."""
    terrain, elev, xs, ys, w = bm.terrain, bm.elevation, bm.xs, bm.ys, bm.width
    out: list[tuple[int, int, StepKind, int]] = []
    ea = elev[a]
    in_water = terrain[a] is Terrain.WATER
    ax, ay = xs[a], ys[a]
    for n in bm.neighbours[a]:
        if blocked[n]:
            continue
        nx, ny = xs[n], ys[n]
        if nx != ax and ny != ay and blocked[ay * w + nx] and blocked[ny * w + ax]:
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
        else:
            out.append((n, 1, StepKind.DROP, -dh))
    # Jumps over gaps (B02): a straight line over cells more than 1 m below the take-off.
    for n in bm.neighbours[a]:
        if elev[n] >= ea - 1 or terrain[n] is Terrain.WALL:
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
            if elev[c] < ea - 1:
                gap += 1
                continue
            if not blocked[c] and -profile.free_drop <= elev[c] - ea <= 1:
                kind = StepKind.NORMAL if gap <= profile.free_jump else StepKind.JUMP
                out.append((c, gap + 1, kind, 0))
            break
    return out


def reachable(
    bm: BattleMap,
    blocked: bytearray,
    start: int,
    budget: int,
    profile: MoveProfile,
    *,
    passable_occupied: frozenset[int] = frozenset(),
    occupied: frozenset[int] = frozenset(),
    threat: Sequence[int] | None = None,
    difficult: bool = False,
) -> dict[int, Route]:
    """Cells reachable from ``start`` within ``budget`` metres.

    ``blocked`` marks cells no one may enter (walls, cover objects, closed doors, conscious
    enemies). ``occupied`` cells may be passed through when in ``passable_occupied``
    (allies, the fallen) but never ended in. ``threat[c]`` is a bitmask of enemies whose
    melee reach covers cell ``c``; a step between two cells threatened by the same enemy
    provokes it (R04). With ``difficult`` the search returns the routes that use exactly one
    kind of difficult step (a Schwierige Bewegung, H07); otherwise only free movement.
    """
    # State: (cell, kind used) with kind 0 for free movement only.
    best: dict[tuple[int, int], int] = {(start, 0): 0}
    prev: dict[tuple[int, int], tuple[int, int]] = {}
    drops: dict[tuple[int, int], int] = {(start, 0): 0}
    heap: list[tuple[int, int, int]] = [(0, start, 0)]
    edge_cache: dict[int, list[tuple[int, int, StepKind, int]]] = {}
    while heap:
        cost, cell, kind = heapq.heappop(heap)
        if best.get((cell, kind), -1) != cost:
            continue
        metres = cost // _PROVOKE_WEIGHT
        edges = edge_cache.get(cell)
        if edges is None:
            edges = _edges(bm, blocked, cell, profile)
            edge_cache[cell] = edges
        for to, step, step_kind, drop in edges:
            if metres + step > budget:
                continue
            if to in occupied and to not in passable_occupied:
                continue
            new_kind = kind
            if step_kind is not StepKind.NORMAL:
                if not difficult or (kind and kind != step_kind):
                    continue
                new_kind = int(step_kind)
            provoke = 0
            if threat is not None:
                both = threat[cell] & threat[to]
                while both:
                    provoke += 1
                    both &= both - 1
            new_cost = cost + step * _PROVOKE_WEIGHT + provoke
            key = (to, new_kind)
            if new_cost < best.get(key, 1 << 60):
                best[key] = new_cost
                prev[key] = (cell, kind)
                drops[key] = max(drops[(cell, kind)], drop)
                heapq.heappush(heap, (new_cost, to, new_kind))
    routes: dict[int, Route] = {}
    for (cell, kind), cost in best.items():
        if cell == start or cell in occupied:
            continue
        if difficult != bool(kind):
            continue
        current = routes.get(cell)
        if current is not None and current.metres * _PROVOKE_WEIGHT + current.provocations <= cost:
            continue
        path = [cell]
        key = (cell, kind)
        hard_from_end = -1
        while key in prev:
            before = prev[key]
            if before[1] == 0 and key[1] != 0:
                hard_from_end = len(path) - 1
            key = before
            if key[0] != start or key[1] != 0:
                path.append(key[0])
        path.reverse()
        first_hard = len(path) - 1 - hard_from_end if hard_from_end >= 0 else -1
        routes[cell] = Route(
            dest=cell,
            cells=tuple(path),
            metres=cost // _PROVOKE_WEIGHT,
            kind=StepKind(kind),
            provocations=cost % _PROVOKE_WEIGHT,
            drop=drops[(cell, kind)],
            first_hard=first_hard,
        )
    return routes
