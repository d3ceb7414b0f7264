"""The doctrines' walking field as first written: one multi-source Dijkstra search over the
map (``agents.board.walk_field`` as of a5eb0a0), for ``tests/test_walk_field.py`` to
compare the cached single-target fields with (issue #16)."""

from __future__ import annotations

import heapq

from agents.board import FAR
from cwenv.battlemap.grid import BattleMap, Terrain

_STEP_COST = {Terrain.DOOR_CLOSED: 2, Terrain.WATER: 3, Terrain.FIRE: 3}


def plain_walk_field(bm: BattleMap, targets: tuple[int, ...], opaque: bytearray) -> list[int]:
    """Steps from every cell to the nearest of ``targets`` over standable cells and closed
    doors, round walls and cover objects; doors, water and fire cost extra (B01–B06 only
    roughly: a guide for moving toward the enemy, not the movement rules)."""
    terrain, elev = bm.terrain, bm.elevation
    passable = [t.standable or t is Terrain.DOOR_CLOSED for t in terrain]
    dist = [FAR] * bm.size
    queue: list[tuple[int, int]] = []
    for t in targets:
        dist[t] = 0
        queue.append((0, t))
    heapq.heapify(queue)
    while queue:
        d, cell = heapq.heappop(queue)
        if d > dist[cell]:
            continue
        for n in bm.neighbours[cell]:
            # walking n -> cell: a climb of more than 1 m needs a climbable cell
            if not passable[n] or (elev[cell] - elev[n] > 1 and terrain[cell] is not Terrain.CLIMB):
                continue
            nd = d + _STEP_COST.get(terrain[n], 1)
            if terrain[n] is Terrain.DOOR_CLOSED and not opaque[n]:
                nd = d + 1  # an opened door
            if nd < dist[n]:
                dist[n] = nd
                heapq.heappush(queue, (nd, n))
    return dist
