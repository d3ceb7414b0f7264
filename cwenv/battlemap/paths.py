"""The movement search (B01–B06, R04): the cells a fighter can reach and its routes there.

A fighter's reachable cells are found by a shortest-path search over metres. Free movement
(B01, B02's free jump, B06's absorbed drop) and Schwierige Bewegung (H07: climbing B03,
swimming B04, long jumps B02, deep drops B06) are searched separately: the first is part of
any turn, the second is a Handlung with one check, so its path may use one kind of
difficult step.

Among equally long paths the search prefers the one that passes through fewer enemy melee
reaches (R04 Blockadeangriff); a fighter who wants another route moves in shorter legs.

Every step costs at least one metre, so the search runs layer by layer over metres (Dial's
algorithm): when a layer is processed, every cell in it already has its final cost and its
fewest provocations. The steps themselves, computed once per map and profile, come from
:mod:`cwenv.battlemap.steps`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from cwenv.battlemap import los
from cwenv.battlemap.blockade import Threat
from cwenv.battlemap.grid import BattleMap
from cwenv.battlemap.paths_core import native_routes
from cwenv.battlemap.steps import (
    DIFFICULT_KINDS,
    KINDS,
    MoveProfile,
    StepKind,
    diagonal_surcharge,
    edge_table,
    free_edges,
    free_table,
    terrain_edges,
)

if TYPE_CHECKING:
    from cwenv._core import Routes


@dataclass(frozen=True, slots=True)
class Route:
    """A way to ``dest``: its ``cells`` after the start, cost in metres, and the kind of
    difficult step it uses (NORMAL for free movement). ``drop`` is the deepest drop taken;
    ``first_hard`` the index in ``cells`` of the first cell reached by a difficult step;
    ``parity`` that of the diagonal metres taken by its end (X49); ``spent`` the metres of
    Bewegung spent on reaching each of ``cells`` (X48 jumps, B03 climbs, X49 included), so a
    move cut short is told in the metres it walked."""

    dest: int
    cells: tuple[int, ...]
    metres: int
    kind: StepKind
    provocations: int
    drop: int = 0
    first_hard: int = -1
    parity: int = 0
    spent: tuple[int, ...] = ()


class Reach:
    """The result of a movement search: destinations and their routes (built on demand).

    Its tables (metres, provocations, predecessor) are dicts keyed by search state for the
    difficult search, and the free search's flat lists indexed by cell.
    """

    __slots__ = (
        "_best",
        "_drop",
        "_mult",
        "_par",
        "_pred",
        "_prov",
        "_start_par",
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
        parity: bool = False,
        start_parity: int = 0,
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
        # With alternating diagonals (X49) each state also carries the parity of the
        # diagonal steps taken: (cell * kinds + kind) * 2 + parity.
        self._mult = KINDS if difficult or parity else 1
        self._par = 2 if parity else 1
        self._start_par = start_parity

    def __contains__(self, cell: object) -> bool:
        return cell in self.dest_set

    def __len__(self) -> int:
        return len(self.dests)

    def _key(self, cell: int) -> int:
        if not self.difficult and self._par == 1:
            return cell
        best_key = -1
        best = self._best  # a dict here: only the plain free search keys a list by cell
        kinds = DIFFICULT_KINDS if self.difficult else (StepKind.NORMAL,)
        for kind in kinds:
            for parity in range(self._par):
                key = (cell * self._mult + kind) * self._par + parity
                if key in best and (
                    best_key < 0
                    or (best[key], self._prov[key]) < (best[best_key], self._prov[best_key])
                ):
                    best_key = key
        return best_key

    def route(self, cell: int) -> Route:
        """The chosen route to ``cell``; KeyError when it is not reachable."""
        if cell not in self.dest_set:
            raise KeyError(cell)
        key = self._key(cell)
        path = [cell]
        best = self._best
        spent = [best[key]]
        first_hard_from_end = -1
        k = key
        mult, par = self._mult, self._par
        start_key = self.start * mult * par + self._start_par
        while k != start_key:
            before = self._pred[k]
            if (before // par) % mult == 0 and (k // par) % mult != 0:
                first_hard_from_end = len(path) - 1
            k = before
            if k != start_key:
                path.append(k // (mult * par))
                spent.append(best[k])
        path.reverse()
        spent.reverse()
        first_hard = len(path) - 1 - first_hard_from_end if first_hard_from_end >= 0 else -1
        return Route(
            dest=cell,
            cells=tuple(path),
            metres=self._best[key],
            kind=StepKind((key // par) % mult),
            provocations=self._prov[key],
            drop=self._drop.get(key, 0),
            first_hard=first_hard,
            parity=key % par,
            spent=tuple(spent),
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
    threat: Threat | None = None,
    difficult: bool = False,
    parity: int = 0,
) -> Reach:
    """Cells reachable from ``start`` within ``budget`` metres.

    ``blocked`` marks cells no one may enter (walls, cover objects, closed doors, standing
    enemies). ``occupied`` cells may be passed through when in ``passable_occupied``
    (allies, the fallen) but never ended in. ``threat`` says which steps move past an
    enemy within its melee reach (R04, X43: :mod:`cwenv.battlemap.blockade`). With
    ``difficult`` the search returns the routes that use exactly one kind of difficult step
    (a Schwierige Bewegung, H07); otherwise only free movement. ``parity``: the diagonal
    metres taken earlier in the turn, odd or even (X49, alternating diagonals).

    Where the native core is built (:mod:`cwenv.battlemap.los` chooses the engine), the
    core searches, bit for bit as below (tests/test_native_paths.py).
    """
    core = los._core
    if core is not None:
        search = (bm, profile, blocked, start, budget, occupied, passable_occupied, threat)
        return NativeReach(start, native_routes(core, *search, difficult, parity), difficult)
    masks = threat.masks if threat is not None else None
    stuck = occupied - passable_occupied
    if stuck:
        blocked = blocked[:]
        for cell in stuck:
            blocked[cell] = 1
    if not difficult and not profile.alternate:
        return _reach_free(bm, blocked, start, budget, profile, occupied, threat)
    # The general search: difficult routes, and (X49) free ones with alternating diagonals,
    # whose states also carry the parity of the diagonal metres taken.
    par = 2 if profile.alternate else 1
    table = edge_table(bm, profile)
    start_key = start * KINDS * par + (parity % par)
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
            state, parity = divmod(key, par)
            cell, kind = divmod(state, KINDS)
            edges = table[cell]
            if edges is None:
                edges = terrain_edges(bm, cell, profile)
            p0 = prov[key]
            here = masks[cell] if masks else 0
            for to, cost, step_kind, dropped in edges:
                after = parity
                if par == 2:
                    extra, after = diagonal_surcharge(bm, cell, to, step_kind, parity, profile)
                    cost += extra
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
                    new_key = (to * KINDS + step_kind) * par + after
                else:
                    new_key = (to * KINDS + kind) * par + after
                np = p0 + threat.count(cell, to) if here and threat else p0
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
        cell, kind = divmod(key // par, KINDS)
        if cell == start or cell in occupied or bool(kind) != difficult:
            continue
        dests.add(cell)
    return Reach(start, best, prov, pred, drop, sorted(dests), difficult, par == 2, start_key % par)


def _reach_free(
    bm: BattleMap,
    blocked: bytearray,
    start: int,
    budget: int,
    profile: MoveProfile,
    occupied: frozenset[int],
    threat: Threat | None,
) -> Reach:
    """The free-movement search: the common case, kept lean (no step kinds, no drops).

    State lives in flat lists indexed by cell, which is markedly faster than dicts here.
    One-metre steps, nearly every step, take a fast lane: their cost is the same for all
    of them, and without an enemy's reach near the cell no provocation can arise (R04).
    """
    table = free_table(bm, profile)
    masks = threat.masks if threat is not None else None
    count = threat.count if threat is not None else None
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
                edges = table[cell] = free_edges(bm, cell, profile)
            ones, jumps = edges
            p0 = prov[cell]
            here = masks[cell] if masks else 0
            if step > budget:
                pass
            elif here and count:
                for to in ones:
                    if blocked[to]:
                        continue
                    b = best[to]
                    if step > b:
                        continue
                    np = p0 + count(cell, to)
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
                np = p0 + count(cell, to) if here and count else p0
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


class NativeReach(Reach):
    """A :class:`Reach` whose tables live in the native core (``cwenv._core.Routes``)."""

    __slots__ = ("_found",)

    def __init__(self, start: int, found: Routes, difficult: bool) -> None:
        self.start = start
        self.dests = found.dests
        self.dest_set = frozenset(self.dests)
        self.difficult = difficult
        self._found = found

    def route(self, cell: int) -> Route:
        """The chosen route to ``cell``, as the reference chooses it; KeyError when it is
        not reachable."""
        if cell not in self.dest_set:
            raise KeyError(cell)
        cells, metres, kind, provocations, drop, first_hard, parity, spent = self._found.route(cell)
        return Route(
            cell, cells, metres, StepKind(kind), provocations, drop, first_hard, parity, spent
        )


NO_REACH = Reach(-1, {}, {}, {}, {}, [], False)
"""An empty search result (no movement left)."""
