"""The native movement search's Python side (docs/native.md): handing a map's steps to the
core once per map and MoveProfile, and one search's arguments with every call.

The steps stay Python's (:mod:`cwenv.battlemap.steps`, X48 hurdles and X49's diagonal
surcharge included): the core receives them as a flat table, so a change to a step rule
reaches both engines at once; only the search (:mod:`cwenv.battlemap.paths`) is native.
"""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING

from cwenv.battlemap.blockade import Threat
from cwenv.battlemap.grid import BattleMap
from cwenv.battlemap.steps import MoveProfile, diagonal_surcharge, free_edges, terrain_edges
from cwenv.rules.readings import BlockadeGeometry

if TYPE_CHECKING:
    from cwenv._core import Moves, Routes

GEOMETRIES = {g: i for i, g in enumerate(BlockadeGeometry)}
"""X43's readings as the core numbers them (src/paths.hpp Geometry, the enum's order)."""


def native_moves(core: ModuleType, bm: BattleMap, profile: MoveProfile) -> Moves:
    """The core's step table of ``bm`` for ``profile``: steps.py's steps of every cell in
    its order, eight ints a step (to, metres, kind, drop; X49's surcharge and parity after
    the step from even and from odd parity). Cached on the map, shared by all combats."""
    offsets = [0]
    flat: list[int] = []
    for a in range(bm.size):
        if not profile.alternate:
            free_edges(bm, a, profile)  # its invariant: the free search's order is the table's
        for to, metres, kind, dropped in terrain_edges(bm, a, profile):
            flat += (to, metres, kind, dropped)
            if profile.alternate:
                even = diagonal_surcharge(bm, a, to, kind, 0, profile)
                odd = diagonal_surcharge(bm, a, to, kind, 1, profile)
                flat += (even[0], odd[0], even[1], odd[1])
            else:
                flat += (0, 0, 0, 1)
        offsets.append(len(flat) // 8)
    moves: Moves = core.Moves(bm.width, bm.height, offsets, flat, profile.alternate)
    bm.edge_cache[core.Moves, profile] = moves
    return moves


def native_routes(
    core: ModuleType,
    bm: BattleMap,
    profile: MoveProfile,
    blocked: bytearray,
    start: int,
    budget: int,
    occupied: frozenset[int],
    passable: frozenset[int],
    threat: Threat | None,
    difficult: bool,
    parity: int,
) -> Routes:
    """paths.py ``reachable``'s search, in the core, on the table of ``bm`` and ``profile``."""
    moves = bm.edge_cache.get((core.Moves, profile))
    if not isinstance(moves, core.Moves):
        moves = native_moves(core, bm, profile)
    guards = None
    geometry = 0
    if threat is not None:
        guards = [(g.x, g.y, g.reach) for g in threat.guards.values()]
        geometry = GEOMETRIES[threat.geometry]
    routes: Routes = moves.search(
        blocked, start, budget, occupied, passable, guards, geometry, difficult, parity
    )
    return routes
