"""Per-decision tables for scoring cells: what one attack from a cell is worth and what
standing there costs, with everything that does not depend on the cell computed once.

A doctrine scores up to ``max_cells`` cells per movement decision, each against every
enemy and weapon. Per (enemy, weapon) the Probenwert before range and cover, the defence
and the weights are the same for every cell; per cell and enemy the distance and the
line's terrain cover are the same for every weapon. :class:`ShotTable` and
:class:`ThreatTable` keep those apart, so a cell costs one distance and one cover lookup
per enemy and one dictionary lookup per weapon. The figures are exactly those of
:func:`agents.odds.weapon_estimate` with ``src`` (A01, C01–C04, R06, H11, X03, P08) and
of the doctrine's exposure (C01, C02, A01–A06); ``tests/test_golden_digests.py`` holds
the doctrines' games byte for byte.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from agents.odds import board_estimate, defence_value, estimate, weapon_profile
from cwenv.battlemap.los import sight_line
from cwenv.engine.attack_plan import AttackMode
from cwenv.model.types import CheckValue, CoverLevel, WeaponKind

if TYPE_CHECKING:
    from agents.board import Board
    from cwenv.engine.fighter import FighterState
    from cwenv.model.specs import WeaponSpec

_FULL = CoverLevel.FULL
_NONE = CoverLevel.NONE
_HALF = CoverLevel.HALF
_THREE_QUARTER = CoverLevel.THREE_QUARTER
_PENALTY = tuple(level.penalty for level in CoverLevel)
"""C01's attack modifier per cover level, as a tuple (the enum property costs a call)."""
PRONE_MALUS = 2
"""R06: a prone target without cover is harder to hit from afar (−2 on the attack)."""


class _Shot:
    """One usable single-target weapon of mine against one enemy."""

    __slots__ = ("aim_pw", "aim_qs", "dpw", "pw", "ranged", "weapon", "weight", "wi")

    def __init__(
        self, wi: int, weapon: WeaponSpec, pw: int, dpw: int | None, weight: float
    ) -> None:
        self.wi = wi
        self.weapon = weapon
        self.ranged = weapon.kind is WeaponKind.RANGED
        self.pw = pw  # the Probenwert before range and cover
        self.dpw = dpw
        self.weight = weight
        self.aim_pw = 0  # X03: Zielen on this target, kept only where I stand
        self.aim_qs = 0


class _Target:
    __slots__ = ("fighter", "pos", "prone", "prone_bonus", "shots", "values", "x", "y")

    def __init__(self, board: Board, t: FighterState) -> None:
        self.fighter = t
        self.pos = t.pos
        self.x = board.bm.xs[t.pos]
        self.y = board.bm.ys[t.pos]
        self.prone = t.prone
        self.prone_bonus = t.prone_bonus
        self.shots: list[_Shot] = []
        self.values: dict[tuple[int, int, int], float] = {}


class ShotTable:
    """The best single attack of ``board.me`` from any cell (the doctrines' ``attack_from``).

    ``weight(t, w)`` is the doctrine's target and weapon preference for a shot."""

    __slots__ = ("board", "ko", "targets")

    def __init__(
        self, board: Board, ko: float, weight: Callable[[FighterState, WeaponSpec], float]
    ) -> None:
        self.board = board
        self.ko = ko
        me = board.me
        opts = board.options
        weapons = board.single_target_weapons(me)
        self.targets: list[_Target] = []
        for t in board.enemies:
            row = _Target(board, t)
            for wi, w in weapons:
                pw = board.check_value(me, CheckValue(w.skill.value), attack=True)
                pw += w.attack_modifier
                if w.kind is not WeaponKind.RANGED and t.prone_bonus and opts.niederwerfen_vs_melee:
                    pw -= PRONE_MALUS
                if me.disarmed:
                    pw -= opts.entwaffnen_nsc_penalty
                pw += me.help_bonus
                dpw = defence_value(board, t, AttackMode.WEAPON, me, wi)
                shot = _Shot(wi, w, pw, dpw, weight(t, w))
                if shot.ranged and me.aim_target == t.idx and me.aim_stacks:
                    shot.aim_pw = opts.zielen_bonus * me.aim_stacks
                    shot.aim_qs = opts.zielen_qs_bonus * me.aim_stacks
                row.shots.append(shot)
            self.targets.append(row)

    def best_from(self, cell: int) -> float:
        """Best expected worth (damage plus knock-out bonus, weighted) of one attack from
        ``cell``; 0 when no enemy can be attacked from there."""
        board = self.board
        bm = board.bm
        opaque = board.opaque
        me = board.me
        here = cell == me.pos
        cx, cy = bm.xs[cell], bm.ys[cell]
        size = bm.size
        cache = bm.line_cache
        best = 0.0
        for row in self.targets:
            dx, dy = abs(cx - row.x), abs(cy - row.y)
            dist = dx if dx > dy else dy
            cover: CoverLevel | None = None
            for s in row.shots:
                rm = s.weapon.range_modifier(dist)
                if rm is None:
                    continue
                if cover is None:
                    line = cache.get(cell * size + row.pos)
                    if line is None:
                        line = sight_line(bm, cell, row.pos)
                    cover = _FULL if line.blocked(opaque) else line.cover
                    if row.prone and cover is _HALF:
                        cover = _THREE_QUARTER  # R06
                if cover is _FULL:
                    break  # no sight: neither a shot nor a blow
                aim_qs = 0
                pw = s.pw
                if s.ranged:
                    pw += rm + _PENALTY[cover]
                    if row.prone_bonus and cover is _NONE:
                        pw -= PRONE_MALUS
                    if here:
                        pw += s.aim_pw
                        aim_qs = s.aim_qs
                key = (s.wi, pw, aim_qs)
                v = row.values.get(key)
                if v is None:
                    est = board_estimate(board, me, row.fighter, s.wi, pw, s.dpw, aim_qs)
                    v = row.values[key] = est.value(self.ko) * s.weight
                if v > best:
                    best = v
        return best


class _Threat:
    __slots__ = ("fighter", "incoming", "melee", "pos", "reach", "weapon", "wi", "x", "y")

    def __init__(self, board: Board, e: FighterState) -> None:
        self.fighter = e
        self.pos = e.pos
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

    __slots__ = ("board", "threats")

    def __init__(self, board: Board) -> None:
        self.board = board
        self.threats = [_Threat(board, e) for e in board.enemies]

    def exposure(self, cell: int) -> float:
        board = self.board
        bm = board.bm
        opaque = board.opaque
        size = bm.size
        cache = bm.line_cache
        cx, cy = bm.xs[cell], bm.ys[cell]
        total = 0.0
        for th in self.threats:
            dx, dy = abs(cx - th.x), abs(cy - th.y)
            dist = dx if dx > dy else dy
            w = th.weapon
            if w is not None:
                line = cache.get(th.pos * size + cell)
                if line is None:
                    line = sight_line(bm, th.pos, cell)
                if line.blocked(opaque):
                    continue
                level = line.cover
                rm = w.range_modifier(dist)
                share = 1.0
                if rm is None:  # it must close in first
                    rm, share = w.ranges[-1].modifier, 0.5
                modifier = rm + _PENALTY[level]
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
