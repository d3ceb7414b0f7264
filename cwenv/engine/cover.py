"""Cover between an attacker and a target: terrain, prone, and living cover (C01–C05, R06).

One function, :func:`cover_against`, is used by the legality check (is a direct attack
possible at all?) and by the attack itself (which modifier applies?), so the two never
disagree.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from cwenv.battlemap.los import line_cells, terrain_cover
from cwenv.model.types import CoverLevel, Side
from cwenv.rules.options import LivingCoverStacking

if TYPE_CHECKING:
    from cwenv.engine.fighter import FighterState
    from cwenv.engine.view import CombatView


class Cover(NamedTuple):
    """The cover that applies: its level, whether living cover set it, and who gives it."""

    level: CoverLevel
    living: bool
    coverer: int  # fighter index of the living cover, or −1
    terrain: CoverLevel


NO_COVER = Cover(CoverLevel.NONE, False, -1, CoverLevel.NONE)


def living_cover(
    c: CombatView, attacker: FighterState, target: FighterState
) -> tuple[CoverLevel, int]:
    """C04: the best cover a creature in the line of fire gives the target.

    A comrade of the attacker gives half, an enemy of the attacker three-quarter, a neutral
    ``living_cover_neutral`` (X25); a creature smaller than the target gives none, a larger
    one a category more. Creatures on the floor do not count unless X25 says so.
    """
    occupant = c.occupant
    if not occupant:
        return CoverLevel.NONE, -1
    best = CoverLevel.NONE
    who = -1
    prone_counts = c.options.living_cover_prone_counts
    tsize = target.spec.size
    for cell in line_cells(c.bm, attacker.pos, target.pos):
        idx = occupant.get(cell)
        if idx is None:
            continue
        g = c.fighters[idx]
        if g.dead or (not prone_counts and (g.down or g.prone)):
            continue
        if g.side is attacker.side:
            level = CoverLevel.HALF
        elif g.side is Side.NEUTRAL or attacker.side is Side.NEUTRAL:
            level = c.options.living_cover_neutral
        else:
            level = CoverLevel.THREE_QUARTER
        if g.spec.size < tsize:
            continue
        if g.spec.size > tsize:
            level = level.stronger()
        if level >= best:  # ties: the creature nearer the target covers
            best = level
            who = idx
    return best, who


def cover_against(
    c: CombatView, attacker: FighterState, target: FighterState, *, ranged: bool, area: bool = False
) -> Cover:
    """The cover ``target`` has against ``attacker`` (C01–C04, R06, X23, X25, X26).

    Melee attacks ignore cover (C02) unless living cover in melee is switched on (X25).
    Area attacks ignore half and three-quarter cover (C03, X26) but not full cover.
    """
    if not ranged:
        if not c.options.living_cover_melee:
            return NO_COVER
        level, who = living_cover(c, attacker, target)
        return Cover(level, level > CoverLevel.NONE, who, CoverLevel.NONE)
    tc = terrain_cover(c.bm, c.opaque, attacker.pos, target.pos)
    if area:
        tc = _prone(c, target, tc)
        return Cover(CoverLevel.FULL if tc is CoverLevel.FULL else CoverLevel.NONE, False, -1, tc)
    if tc is CoverLevel.FULL:
        return Cover(tc, False, -1, tc)
    lc, who = living_cover(c, attacker, target)
    if lc is CoverLevel.NONE:
        return Cover(_prone(c, target, tc), False, -1, tc)
    if (
        c.options.living_cover_stacking is LivingCoverStacking.STRONGER_BY_ONE
        and tc > CoverLevel.NONE
    ):
        return Cover(_prone(c, target, max(tc, lc).stronger()), True, who, tc)
    if lc > tc:
        return Cover(_prone(c, target, lc), True, who, tc)
    return Cover(_prone(c, target, tc), False, -1, tc)


def _prone(c: CombatView, target: FighterState, level: CoverLevel) -> CoverLevel:
    """R06: lying prone in half cover counts as three-quarter (X23: three-quarter may become
    full). Applies to whatever cover the target has, terrain or living."""
    if not target.prone:
        return level
    if level is CoverLevel.HALF:
        return CoverLevel.THREE_QUARTER
    if level is CoverLevel.THREE_QUARTER and c.options.prone_three_quarter_to_full:
        return CoverLevel.FULL
    return level
