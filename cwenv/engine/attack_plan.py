"""Planning an attack without resolving it (A01–A05, C01–C05, H10, H11, K01–K05).

:func:`plan_attack` is pure: the attack's Probenwert, the defence it meets, cover and area,
computed from the state without rolling or changing anything. Agents, the odds preview and
:class:`cwenv.engine.attack.AttackFrame` all use it, so what a menu shows is what resolves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from cwenv.battlemap.los import cells_in_radius, has_line_of_sight
from cwenv.engine.checks import check_parts
from cwenv.engine.cover import Cover, cover_against
from cwenv.engine.parts import (
    AIM,
    COVER_SOURCES,
    DISARMED,
    MANEUVER_SOURCES,
    PRONE_TARGET,
    RANGE,
    Parts,
    hack_source,
    weapon_source,
)
from cwenv.engine.plan_core import plan_from_core
from cwenv.engine.tables.maneuvers import MANEUVERS
from cwenv.model.specs import UNARMED
from cwenv.model.types import AttackMode, CheckValue, CoverLevel, Maneuver, WeaponKind
from cwenv.rules.options import AreaCover, MeleeDefence

if TYPE_CHECKING:
    from cwenv.engine.fighter import FighterState
    from cwenv.engine.view import CombatView


__all__ = ["AttackMode", "AttackPlan", "area_targets", "defence_values", "plan_attack"]


PRONE_TARGET_MALUS = 2
"""R06: an attack on a niedergeworfen target without cover gets −2 (ranged; in melee too
under X23's ``niederwerfen_vs_melee``)."""


def attack_is_ranged(attacker: FighterState, mode: AttackMode, index: int) -> bool:
    """Ranged weapons and hacks meet cover (C02, C03); melee does not."""
    if mode is AttackMode.HACK:
        return True
    if mode is AttackMode.MANEUVER:
        return False
    return attacker.weapons[index].kind is WeaponKind.RANGED


def area_radius(attacker: FighterState, mode: AttackMode, index: int) -> int:
    if mode is AttackMode.HACK:
        return attacker.spec.hacks[index].area_radius
    if mode in (AttackMode.WEAPON, AttackMode.BLOCKADE):
        return attacker.weapons[index].area_radius
    return 0


def area_targets(c: CombatView, centre: int, radius: int, durchdringung: bool) -> tuple[int, ...]:
    """Fighters an area attack reaches: inside the radius, not behind full massive cover
    from the centre unless the effect has Durchdringung (C01, C03)."""
    out = []
    for cell in cells_in_radius(c.bm, centre, radius):
        idx = c.occupant.get(cell)
        if idx is None or c.fighters[idx].dead:
            continue
        if durchdringung or cell == centre or has_line_of_sight(c.bm, c.opaque, centre, cell):
            out.append(idx)
    return tuple(out)


def defence_values(
    c: CombatView, mode: AttackMode, attacker: FighterState, index: int
) -> tuple[CheckValue, ...]:
    """A03, X21: weapons → Ausweichen (melee also Kampfkunst under X21), hacks → Firewall,
    Kampfmanöver → Kampfkunst (X22)."""
    if mode is AttackMode.HACK:
        return (CheckValue.FIREWALL,)
    if mode is AttackMode.MANEUVER:
        return (CheckValue.KAMPFKUNST,)
    w = attacker.weapons[index]
    if (
        w.kind is WeaponKind.MELEE
        and c.options.melee_defence is MeleeDefence.AUSWEICHEN_OR_KAMPFKUNST
    ):
        return (CheckValue.AUSWEICHEN, CheckValue.KAMPFKUNST)
    return (CheckValue.AUSWEICHEN,)


class AttackPlan(NamedTuple):
    """What an attack will roll against, worked out before the roll (A01)."""

    parts: Parts
    cover: Cover
    ranged: bool
    targets: tuple[int, ...]
    aim_qs: int
    no_cover_probenwert: int
    own_parts: int = 1  # leading parts from the attacker itself (skill, conditions, gear)

    @property
    def probenwert(self) -> int:
        return sum(v for _, v in self.parts)


def plan_attack(
    c: CombatView, a: FighterState, t: FighterState, mode: AttackMode, index: int
) -> AttackPlan:
    """The attack value's parts (A01): skill and conditions, the weapon's modifier, range,
    cover (C01–C04, R06), Zielen (H11, X03), a disarmed NSC's −2 (K01), manoeuvre
    difficulty (K01, K03). Announced help (P08) is no part: its helpers roll with the check
    (:mod:`cwenv.engine.helping`). Pure: it changes nothing, so menus and agents can show
    the exact odds of an attack before it is made. The native core answers for a combat
    under the native engine (src/attack_plan.cpp, the same plan: tests/test_native_plan.py);
    else :func:`reference_plan`."""
    plan = plan_from_core(c, a, t, mode, index)
    return plan if plan is not None else reference_plan(c, a, t, mode, index)


def reference_plan(
    c: CombatView, a: FighterState, t: FighterState, mode: AttackMode, index: int
) -> AttackPlan:
    """:func:`plan_attack` as the readable statement of the rules."""
    ranged = attack_is_ranged(a, mode, index)
    radius = area_radius(a, mode, index)
    if mode is AttackMode.HACK:
        skill = CheckValue.HACKING
        hack = a.spec.hacks[index]
    else:
        weapon = UNARMED if mode is AttackMode.MANEUVER else a.weapons[index]
        skill = CheckValue(weapon.skill.value)
    # A Blockadeangriff is a reaction (R04): Eingeschränkt's −2 applies (Z03).
    parts = check_parts(c, a, skill, attack=True, reaction=mode is AttackMode.BLOCKADE)
    own = len(parts)
    targets: tuple[int, ...] = (t.idx,)
    if radius:
        ignores = mode is AttackMode.HACK or c.options.area_cover is AreaCover.ALL_AREA_ATTACKS
        durch = hack.durchdringung if mode is AttackMode.HACK else weapon.durchdringung
        targets = area_targets(c, t.pos, radius, durch)
        cover = cover_against(c, a, t, ranged=True, area=ignores)
    else:
        cover = cover_against(c, a, t, ranged=ranged)
    if mode is AttackMode.WEAPON or mode is AttackMode.BLOCKADE:
        if weapon.attack_modifier:
            parts.append((weapon_source(index, weapon.name), weapon.attack_modifier))
        rm = weapon.range_modifier(c.bm.distance(a.pos, t.pos)) if ranged else 0
        if rm:
            parts.append((RANGE, rm))
    elif mode is AttackMode.HACK:
        if hack.modifier:
            parts.append((hack_source(index, hack.name), hack.modifier))
    else:
        rule = MANEUVERS[Maneuver(index)]  # K01, K03: the manoeuvre's difficulty
        if rule.modifier:
            parts.append((MANEUVER_SOURCES[rule.maneuver], rule.modifier))
    cover_penalty = cover.level.penalty
    if cover_penalty:
        parts.append((COVER_SOURCES[cover.level, cover.living], cover_penalty))
    if (
        t.prone_bonus
        and cover.level is CoverLevel.NONE
        and (ranged or c.options.niederwerfen_vs_melee)
    ):
        parts.append((PRONE_TARGET, -PRONE_TARGET_MALUS))  # R06 without cover
    aim_qs = 0
    if ranged and mode is AttackMode.WEAPON and a.aim_target == t.idx and a.aim_stacks:
        opts = c.options
        parts.append((AIM, opts.zielen_bonus * a.aim_stacks))  # H11, X03
        aim_qs = opts.zielen_qs_bonus * a.aim_stacks
    if a.disarmed:
        parts.append((DISARMED, -c.options.entwaffnen_nsc_penalty))
    probenwert = sum(v for _, v in parts)
    return AttackPlan(
        tuple(parts),
        cover,
        ranged,
        targets,
        aim_qs,
        probenwert - (cover_penalty if cover.living else 0),
        own,
    )
