"""Per-decision tables for scoring cells: what one attack from a cell is worth and what
standing there costs, with everything that does not depend on the cell computed once.

A doctrine scores up to ``max_cells`` cells per movement decision, each against every
enemy and weapon. Per (enemy, weapon) the Probenwert before range and cover, the defence
and the weights are the same for every cell; per cell and enemy the distance and the
line's terrain cover are the same for every weapon. :class:`ShotTable` and
:class:`ThreatTable` keep those apart, so a cell costs one distance and one cover lookup
per enemy and one dictionary lookup per weapon. The figures are exactly those of
:func:`agents.estimates.weapon_estimate` with ``src`` (A01, C01–C04, R06, H11, X03, P08; the
same helpers ``shot_base``, ``shot_modifier`` and ``aim_kept``) and
of the doctrine's exposure (C01, C02, A01–A06); ``tests/test_golden_digests.py`` holds
the doctrines' games byte for byte.

Under the native engine both tables hand their per-decision numbers to
``agents._cells`` (agents/native/cells.cpp), which walks the cells in C++ and asks back
here only for odds it has not met yet; this module's loops stay the reference, and
``tests/test_native_cells.py`` holds the two equal on every cell of seeded fights.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING, Any

from agents.estimates import (
    aim_kept,
    board_estimate,
    defence_value,
    estimate,
    shot_base,
    shot_modifier,
    weapon_profile,
)
from cwenv.battlemap import los
from cwenv.battlemap.los import sight_line, terrain_cover
from cwenv.model.types import AttackMode, CheckValue, CoverLevel, WeaponKind

if TYPE_CHECKING:
    from agents.board import Board
    from cwenv.battlemap.grid import BattleMap
    from cwenv.engine.fighter import FighterState
    from cwenv.model.specs import WeaponSpec


def _load() -> ModuleType | None:
    try:
        from agents import _cells
    except ImportError:  # no C++ compiler at install: the loops below do it all
        return None
    return _cells


_built = _load()

_use_native = True


def use_native(on: bool) -> None:
    """Score cells in C++ when the native engine runs (the default), or here (tests and
    benchmarks compare the two in one process)."""
    global _use_native
    _use_native = on


def native_cells() -> ModuleType | None:
    """``agents._cells`` when it is built, switched on and the native engine runs; else
    None (the reference engine runs the reference loops)."""
    if _built is None or not _use_native or los.engine() != "native":
        return None
    return _built


def _native_map(native: ModuleType, bm: BattleMap) -> Any:
    """The module's twin of ``bm``'s lines of fire, one per map (kept as the core's is)."""
    kept = bm.edge_cache.get(native.Map)
    if kept is None:
        kept = bm.edge_cache[native.Map] = native.Map(bm.width, bm.height, bytes(bm.terrain))
    return kept


def _bands(w: WeaponSpec) -> list[tuple[int, int]]:
    """``w.range_modifier`` as (max_m, modifier) bands: a melee weapon's one band is its reach."""
    if w.kind is WeaponKind.MELEE:
        return [(w.reach, 0)]
    return [(band.max_m, band.modifier) for band in w.ranges]


class _Shot:
    """One usable single-target weapon of mine against one enemy."""

    __slots__ = ("aim_pw", "aim_qs", "dpw", "pw", "ranged", "weapon", "weight", "wi")

    def __init__(self, board: Board, t: FighterState, wi: int, weight: float) -> None:
        me = board.me
        self.wi = wi
        self.weapon = me.weapons[wi]
        self.ranged = self.weapon.kind is WeaponKind.RANGED
        self.pw = shot_base(board, me, t, wi)  # before range, cover and Zielen
        self.dpw = defence_value(board, t, AttackMode.WEAPON, me, wi)
        self.weight = weight
        # X03: Zielen on this target counts only for a shot from where I stand
        self.aim_pw, self.aim_qs = aim_kept(board, me, t) if self.ranged else (0, 0)


class _Target:
    __slots__ = ("fighter", "shots", "values", "x", "y")

    def __init__(self, board: Board, t: FighterState) -> None:
        self.fighter = t
        self.x = board.bm.xs[t.pos]
        self.y = board.bm.ys[t.pos]
        self.shots: list[_Shot] = []
        self.values: dict[tuple[int, int, int], float] = {}


class ShotTable:
    """The best single attack of ``board.me`` from any cell (the doctrines' ``attack_from``).

    ``weight(t, w)`` is the doctrine's target and weapon preference for a shot."""

    __slots__ = ("best_from", "board", "ko", "targets")

    def __init__(
        self, board: Board, ko: float, weight: Callable[[FighterState, WeaponSpec], float]
    ) -> None:
        self.board = board
        self.ko = ko
        self.targets: list[_Target] = []
        for t in board.enemies:
            row = _Target(board, t)
            for wi, w in board.single_target_weapons(board.me):
                row.shots.append(_Shot(board, t, wi, weight(t, w)))
            self.targets.append(row)
        native = native_cells()
        self.best_from: Callable[[int], float] = self._best_from
        if native is not None:
            rows = [
                (
                    row.fighter.pos,
                    row.fighter.prone,
                    bool(row.fighter.prone_bonus),
                    [(s.ranged, s.pw, s.aim_pw, s.aim_qs, _bands(s.weapon)) for s in row.shots],
                )
                for row in self.targets
            ]
            table = native.Shots(
                _native_map(native, board.bm), board.opaque, board.me.pos, rows, self._value
            )
            self.best_from = table.best_from

    def _value(self, r: int, k: int, pw: int, aim_qs: int) -> float:
        """The weighted worth of shot ``k`` on target row ``r`` at ``pw`` (the native
        table's question, as ``_best_from`` computes it)."""
        row = self.targets[r]
        s = row.shots[k]
        est = board_estimate(self.board, self.board.me, row.fighter, s.wi, pw, s.dpw, aim_qs)
        return est.value(self.ko) * s.weight

    def _best_from(self, cell: int) -> float:
        """Best expected worth (damage plus knock-out bonus, weighted) of one attack from
        ``cell``; 0 when no enemy can be attacked from there."""
        board = self.board
        bm = board.bm
        opaque = board.opaque
        lines, size = bm.line_cache, bm.size  # terrain_cover, inlined: once per cell and enemy
        me = board.me
        here = cell == me.pos
        cx, cy = bm.xs[cell], bm.ys[cell]
        best = 0.0
        for row in self.targets:
            t = row.fighter
            dx, dy = abs(cx - row.x), abs(cy - row.y)
            dist = dx if dx > dy else dy
            cover: CoverLevel | None = None
            for s in row.shots:
                rm = s.weapon.range_modifier(dist)
                if rm is None:
                    continue
                if cover is None:  # one line of fire per target, for all its weapons
                    line = lines.get(cell * size + t.pos) or sight_line(bm, cell, t.pos)
                    cover = CoverLevel.FULL if line.blocked(opaque) else line.cover
                    if cover is CoverLevel.HALF and t.prone:
                        cover = CoverLevel.THREE_QUARTER  # R06, as Board.terrain_cover_at
                if cover is CoverLevel.FULL:
                    break  # no sight: neither a shot nor a blow
                aim_qs = 0
                pw = s.pw
                if s.ranged:
                    pw += shot_modifier(rm, cover, t.prone_bonus)
                    if here:
                        pw += s.aim_pw
                        aim_qs = s.aim_qs
                key = (s.wi, pw, aim_qs)
                v = row.values.get(key)
                if v is None:
                    est = board_estimate(board, me, t, s.wi, pw, s.dpw, aim_qs)
                    v = row.values[key] = est.value(self.ko) * s.weight
                if v > best:
                    best = v
        return best


class _Threat:
    __slots__ = ("fighter", "incoming", "melee", "reach", "weapon", "wi", "x", "y")

    def __init__(self, board: Board, e: FighterState) -> None:
        self.fighter = e
        self.x = board.bm.xs[e.pos]
        self.y = board.bm.ys[e.pos]
        wi = e.drawn
        ranged = wi >= 0 and e.weapons[wi].kind is WeaponKind.RANGED and e.weapon_usable(wi)
        self.wi = wi if ranged else -1
        self.weapon = e.weapons[wi] if ranged else None
        self.reach = max(e.melee_reach, 1)
        self.melee: float | None = None  # its best blow, computed when a cell is in reach
        self.incoming: dict[int, float] = {}


class ThreatTable:
    """The expected damage I would take on a cell (the doctrines' ``exposure``).

    One attack by each enemy: a ranged foe with its drawn gun at that range and terrain
    cover (C01, C02; half as much when it must close in first), a melee foe when the cell
    is within its reach; exact odds against my defence (A01–A06)."""

    __slots__ = ("board", "exposure", "threats")

    def __init__(self, board: Board) -> None:
        self.board = board
        self.threats = [_Threat(board, e) for e in board.enemies]
        native = native_cells()
        self.exposure: Callable[[int], float] = self._exposure
        if native is not None:
            rows = [
                (
                    th.fighter.pos,
                    th.weapon is not None,
                    _bands(th.weapon) if th.weapon is not None else [],
                    th.reach,
                )
                for th in self.threats
            ]
            table = native.Threats(
                _native_map(native, board.bm), board.opaque, rows, self._incoming, self._melee
            )
            self.exposure = table.exposure

    def _incoming(self, i: int, modifier: int) -> float:
        th = self.threats[i]
        return incoming(self.board, th.fighter, th.wi, modifier)

    def _melee(self, i: int) -> float:
        return melee_incoming(self.board, self.threats[i].fighter)

    def _exposure(self, cell: int) -> float:
        board = self.board
        bm = board.bm
        opaque = board.opaque
        cx, cy = bm.xs[cell], bm.ys[cell]
        total = 0.0
        for th in self.threats:
            dx, dy = abs(cx - th.x), abs(cy - th.y)
            dist = dx if dx > dy else dy
            w = th.weapon
            if w is not None:
                level = terrain_cover(bm, opaque, th.fighter.pos, cell)  # C01, C02
                if level is CoverLevel.FULL:
                    continue
                rm = w.range_modifier(dist)
                share = 1.0
                if rm is None:  # it must close in first
                    rm, share = w.ranges[-1].modifier, 0.5
                modifier = rm + level.penalty
                hit = th.incoming.get(modifier)
                if hit is None:
                    hit = th.incoming[modifier] = incoming(board, th.fighter, th.wi, modifier)
                total += share * hit
            elif dist <= th.reach:
                if th.melee is None:
                    th.melee = melee_incoming(board, th.fighter)
                total += th.melee
        return total


def incoming(board: Board, e: FighterState, wi: int, modifier: int) -> float:
    """Expected damage of one attack by ``e`` on me with weapon ``wi`` at ``modifier``."""
    key = ("in", e.idx, wi, modifier)
    hit = board.cache.get(key)
    if hit is None:
        me = board.me
        w = e.weapons[wi]
        pw = board.check_value(e, CheckValue(w.skill.value), attack=True) + w.attack_modifier
        dpw = defence_value(board, me, AttackMode.WEAPON, e, wi)
        est = estimate(board.options, pw + modifier, dpw, weapon_profile(board, e, me, w))
        hit = est.damage
        board.cache[key] = hit
    return hit


def melee_incoming(board: Board, e: FighterState) -> float:
    """Expected damage of one blow of ``e``'s best usable melee weapon on me."""
    key = ("melee", e.idx)
    hit = board.cache.get(key)
    if hit is None:
        hit = 0.0
        for wi, w in enumerate(e.weapons):
            if w.kind is WeaponKind.MELEE and e.weapon_usable(wi):
                hit = max(hit, incoming(board, e, wi, 0))
        board.cache[key] = hit
    return hit
