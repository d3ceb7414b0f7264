"""Movement on the grid (B01–B06, R04): step costs, jumps, climbs, swims, drops and paths.

A fighter's reachable cells are found by a shortest-path search over metres. Free movement
(B01, B02's free jump, B06's absorbed drop) and Schwierige Bewegung (H07: climbing B03,
swimming B04, long jumps B02, deep drops B06) are searched separately: the first is part of
any turn, the second is a Handlung with one check, so its path may use one kind of
difficult step.

Among equally long paths the search prefers the one that passes through fewer enemy melee
reaches (R04 Blockadeangriff); a fighter who wants another route moves in shorter legs.

Every step costs at least one metre, so the search runs layer by layer over metres (Dial's
algorithm): when a layer is processed, every cell in it already has its final cost and its
fewest provocations. Terrain steps depend only on the map and the fighter's jump/drop
distances, so they are computed once per map and profile and shared by all combats.
"""

from __future__ import annotations

from collections.abc import Sequence
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
_KINDS = len(StepKind)


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
    difficult step it uses (NORMAL for free movement). ``drop`` is the deepest drop taken;
    ``first_hard`` the index in ``cells`` of the first cell reached by a difficult step."""

    dest: int
    cells: tuple[int, ...]
    metres: int
    kind: StepKind
    provocations: int
    drop: int = 0
    first_hard: int = -1


Edge = tuple[int, int, int, int]  # (to, metres, StepKind, drop)


def _terrain_edges(bm: BattleMap, a: int, profile: MoveProfile) -> tuple[Edge, ...]:
    """Every step out of ``a`` that terrain allows (fighters and doors are checked later)."""
    terrain, elev, xs, ys, w = bm.terrain, bm.elevation, bm.xs, bm.ys, bm.width
    out: list[Edge] = []
    ea = elev[a]
    in_water = terrain[a] is Terrain.WATER
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
            if terrain[c].standable and -profile.free_drop <= elev[c] - ea <= 1:
                kind = StepKind.NORMAL if gap <= profile.free_jump else StepKind.JUMP
                out.append((c, gap + 1, kind, 0))
            break
    return tuple(out)


def terrain_edges(bm: BattleMap, a: int, profile: MoveProfile) -> tuple[Edge, ...]:
    """Every step out of ``a`` that terrain allows (cached per map and profile)."""
    table = _edge_table(bm, profile)
    edges = table[a]
    if edges is None:
        edges = table[a] = _terrain_edges(bm, a, profile)
    return edges


def _edge_table(bm: BattleMap, profile: MoveProfile) -> list[tuple[Edge, ...] | None]:
    tables = bm.edge_cache
    table = tables.get(profile)
    if table is None:
        table = [None] * bm.size
        tables[profile] = table
    return table  # type: ignore[return-value]


class Reach:
    """The result of a movement search: destinations and their routes (built on demand).

    Its tables (metres, provocations, predecessor) are dicts keyed by search state for the
    difficult search, and the free search's flat lists indexed by cell.
    """

    __slots__ = (
        "_best",
        "_drop",
        "_mult",
        "_pred",
        "_prov",
        "dest_set",
        "dests",
        "difficult",
        "start",
    )

    def __init__(
        self,
        start: int,
        best: dict[int, int] | list[int],
        prov: dict[int, int] | list[int],
        pred: dict[int, int] | list[int],
        drop: dict[int, int],
        dests: list[int],
        difficult: bool,
    ) -> None:
        self.start = start
        self._best = best
        self._prov = prov
        self._pred = pred
        self._drop = drop
        self.dests = dests
        self.dest_set = frozenset(dests)
        self.difficult = difficult
        # Search states are cell * kinds + kind; the free search keys states by cell alone.
        self._mult = _KINDS if difficult else 1

    def __contains__(self, cell: object) -> bool:
        return cell in self.dest_set

    def __len__(self) -> int:
        return len(self.dests)

    def _key(self, cell: int) -> int:
        if not self.difficult:
            return cell
        best_key = -1
        for kind in DIFFICULT_KINDS:
            key = cell * _KINDS + kind
            if key in self._best and (
                best_key < 0
                or (self._best[key], self._prov[key]) < (self._best[best_key], self._prov[best_key])
            ):
                best_key = key
        return best_key

    def route(self, cell: int) -> Route:
        """The chosen route to ``cell``; KeyError when it is not reachable."""
        if cell not in self.dest_set:
            raise KeyError(cell)
        key = self._key(cell)
        path = [cell]
        first_hard_from_end = -1
        k = key
        mult = self._mult
        start_key = self.start * mult
        while k != start_key:
            before = self._pred[k]
            if before % mult == 0 and k % mult != 0:
                first_hard_from_end = len(path) - 1
            k = before
            if k != start_key:
                path.append(k // mult)
        path.reverse()
        first_hard = len(path) - 1 - first_hard_from_end if first_hard_from_end >= 0 else -1
        return Route(
            dest=cell,
            cells=tuple(path),
            metres=self._best[key],
            kind=StepKind(key % self._mult),
            provocations=self._prov[key],
            drop=self._drop.get(key, 0),
            first_hard=first_hard,
        )


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
) -> Reach:
    """Cells reachable from ``start`` within ``budget`` metres.

    ``blocked`` marks cells no one may enter (walls, cover objects, closed doors, standing
    enemies). ``occupied`` cells may be passed through when in ``passable_occupied``
    (allies, the fallen) but never ended in. ``threat[c]`` is a bit set of enemies whose
    melee reach covers cell ``c``; a step between two cells threatened by the same enemy
    provokes it (R04). With ``difficult`` the search returns the routes that use exactly one
    kind of difficult step (a Schwierige Bewegung, H07); otherwise only free movement.
    """
    threats: Sequence[int] = threat if threat is not None else ()
    stuck = occupied - passable_occupied
    if stuck:
        blocked = blocked[:]
        for cell in stuck:
            blocked[cell] = 1
    if not difficult:
        return _reach_free(bm, blocked, start, budget, profile, occupied, threats)
    table = _edge_table(bm, profile)
    start_key = start * _KINDS
    best = {start_key: 0}
    prov = {start_key: 0}
    pred: dict[int, int] = {}
    drop: dict[int, int] = {}
    buckets: list[list[int]] = [[] for _ in range(budget + 1)]
    buckets[0].append(start_key)
    for metres in range(budget + 1):
        for key in buckets[metres]:
            if best[key] != metres:
                continue
            cell, kind = divmod(key, _KINDS)
            edges = table[cell]
            if edges is None:
                edges = _terrain_edges(bm, cell, profile)
                table[cell] = edges
            p0 = prov[key]
            here = threats[cell] if threats else 0
            for to, cost, step_kind, dropped in edges:
                nm = metres + cost
                if nm > budget:
                    # B04 '(min. 1 Meter)': a fighter too slow for half speed still swims 1 m.
                    if not (metres == 0 and step_kind == StepKind.SWIM and budget >= 1):
                        continue
                    nm = budget
                if blocked[to]:
                    continue
                if step_kind:
                    if not difficult or (kind and kind != step_kind):
                        continue
                    new_key = to * _KINDS + step_kind
                else:
                    new_key = to * _KINDS + kind
                np = p0 + (here & threats[to]).bit_count() if here else p0
                b = best.get(new_key)
                if b is None or nm < b:
                    best[new_key] = nm
                    prov[new_key] = np
                    pred[new_key] = key
                    d = drop.get(key, 0)
                    if dropped > d:
                        d = dropped
                    if d:
                        drop[new_key] = d
                    buckets[nm].append(new_key)
                elif nm == b and np < prov[new_key]:
                    prov[new_key] = np
                    pred[new_key] = key
    dests: set[int] = set()
    for key in best:
        cell, kind = divmod(key, _KINDS)
        if cell == start or cell in occupied or bool(kind) != difficult:
            continue
        dests.add(cell)
    return Reach(start, best, prov, pred, drop, sorted(dests), difficult)


FreeEdges = tuple[tuple[int, ...], tuple[tuple[int, int], ...]]
"""Free steps out of a cell: the one-metre steps (to), then the free jumps (to, metres)."""


def _free_table(bm: BattleMap, profile: MoveProfile) -> list[FreeEdges | None]:
    key = ("free", profile)
    table = bm.edge_cache.get(key)
    if table is None:
        table = [None] * bm.size
        bm.edge_cache[key] = table
    return table  # type: ignore[return-value]


def _free_edges(bm: BattleMap, cell: int, profile: MoveProfile) -> FreeEdges:
    edges = [(to, cost) for to, cost, kind, _ in _terrain_edges(bm, cell, profile) if not kind]
    # _terrain_edges lists the one-metre steps before the jumps (two metres or more), so
    # relaxing the two groups in turn keeps the search's order and its tie-breaks.
    ones = tuple(to for to, cost in edges if cost == 1)
    if any(cost == 1 for _, cost in edges[len(ones) :]):
        raise InvariantError(f"cell {cell}: a one-metre step listed after a jump")
    return ones, tuple(edges[len(ones) :])


def _reach_free(
    bm: BattleMap,
    blocked: bytearray,
    start: int,
    budget: int,
    profile: MoveProfile,
    occupied: frozenset[int],
    threats: Sequence[int],
) -> Reach:
    """The free-movement search: the common case, kept lean (no step kinds, no drops).

    State lives in flat lists indexed by cell, which is markedly faster than dicts here.
    One-metre steps, nearly every step, take a fast lane: their cost is the same for all
    of them, and without an enemy's reach at the cell no provocation can arise (R04).
    """
    table = _free_table(bm, profile)
    unseen = budget + 1
    best = [unseen] * bm.size
    prov = [0] * bm.size
    pred = [-1] * bm.size
    best[start] = 0
    reached = [start]
    buckets: list[list[int]] = [[] for _ in range(budget + 1)]
    buckets[0].append(start)
    for metres in range(budget + 1):
        step = metres + 1
        for cell in buckets[metres]:
            if best[cell] != metres:
                continue
            edges = table[cell]
            if edges is None:
                edges = table[cell] = _free_edges(bm, cell, profile)
            ones, jumps = edges
            p0 = prov[cell]
            here = threats[cell] if threats else 0
            if step > budget:
                pass
            elif here:
                for to in ones:
                    if blocked[to]:
                        continue
                    b = best[to]
                    if step > b:
                        continue
                    np = p0 + (here & threats[to]).bit_count()
                    if step < b:
                        if b == unseen:
                            reached.append(to)
                        best[to] = step
                        prov[to] = np
                        pred[to] = cell
                        buckets[step].append(to)
                    elif np < prov[to]:
                        prov[to] = np
                        pred[to] = cell
            else:  # no enemy reaches this cell: a step from it provokes no one
                for to in ones:
                    if blocked[to]:
                        continue
                    b = best[to]
                    if step < b:
                        if b == unseen:
                            reached.append(to)
                        best[to] = step
                        prov[to] = p0
                        pred[to] = cell
                        buckets[step].append(to)
                    elif step == b and p0 < prov[to]:
                        prov[to] = p0
                        pred[to] = cell
            for to, cost in jumps:
                nm = metres + cost
                if nm > budget or blocked[to]:
                    continue
                b = best[to]
                if nm > b:
                    continue
                np = p0 + (here & threats[to]).bit_count() if here else p0
                if nm < b:
                    if b == unseen:
                        reached.append(to)
                    best[to] = nm
                    prov[to] = np
                    pred[to] = cell
                    buckets[nm].append(to)
                elif np < prov[to]:
                    prov[to] = np
                    pred[to] = cell
    dests = sorted(cell for cell in reached if cell != start and cell not in occupied)
    # The flat lists serve as the Reach's tables as they are (indexed by cell).
    return Reach(start, best, prov, pred, {}, dests, False)


def has_difficult_terrain(bm: BattleMap) -> bool:
    """Whether any Schwierige Bewegung is possible on this map (water, ledges, drops)."""
    cached = bm.edge_cache.get("difficult")
    if cached is None:
        terrain, elev = bm.terrain, bm.elevation
        cached = any(t is Terrain.WATER or t is Terrain.CLIMB for t in terrain) or any(
            abs(elev[a] - elev[b]) > 1 for a in range(bm.size) for b in bm.neighbours[a]
        )
        bm.edge_cache["difficult"] = cached
    return bool(cached)


NO_REACH = Reach(-1, {}, {}, {}, {}, [], False)
"""An empty search result (no movement left)."""
