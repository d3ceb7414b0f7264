"""What a hit does once it lands (A05–A07, H10, K01–K05, Z08): the frames it starts.

:func:`hit_effects` is the end of :class:`~cwenv.engine.attack.AttackFrame`'s hit: the
damage of a weapon or hack (with a Volltreffer's extra dice), a manoeuvre's effect from its
table entry, and the conditions and Zehrend a hit or the Volltreffer table inflicts.
"""

from __future__ import annotations

from enum import IntEnum
from typing import TYPE_CHECKING, Any

from cwenv.engine.conditions import gain_condition
from cwenv.engine.damage import DamageFrame, SequenceFrame, gain_zehrend
from cwenv.engine.frames import DONE, Frame, Return
from cwenv.engine.tables.maneuvers import MANEUVERS
from cwenv.model.specs import UNARMED, WeaponSpec
from cwenv.model.types import ArmourMode, AttackMode, Condition, Maneuver
from cwenv.rules.options import CritExtraDie, DisarmedDamage, ManeuverCrit

if TYPE_CHECKING:
    from cwenv.engine.actions import Decision
    from cwenv.engine.fighter import FighterState
    from cwenv.engine.state import Combat
    from cwenv.rules.options import RuleOptions


def crit_rows(opts: RuleOptions, mode: AttackMode) -> ManeuverCrit:
    """A07, X33: which Volltreffer rows act — all for an attack that deals damage, a
    damage-free Kampfmanöver's by ``maneuver_volltreffer_rows``."""
    if mode is AttackMode.MANEUVER and not opts.maneuver_damage:
        return opts.maneuver_volltreffer_rows
    return ManeuverCrit.ALL_ROWS


def damage_bonus(weapon: WeaponSpec, opts: RuleOptions) -> int:
    """A06, X12: the flat bonus on a weapon's damage dice; the unarmed strike's is the rule
    option ``unarmed_bonus``, not its weapon data."""
    return opts.unarmed_bonus if weapon is UNARMED else weapon.bonus


def disarmed_malus(opts: RuleOptions, a: FighterState, dice: int) -> int:
    """K01, X22: a disarmed NSC's −2 on damage — weapon, unarmed and hack alike — on the
    total or for each of the ``dice`` (``entwaffnen_damage``)."""
    if not a.disarmed:
        return 0
    per = dice if opts.entwaffnen_damage is DisarmedDamage.PER_DIE else 1
    return -opts.entwaffnen_nsc_penalty * per


def hit_effects(
    c: Combat,
    a: FighterState,
    t: FighterState,
    mode: AttackMode,
    index: int,
    qs: int,
    extra: int,
    direct: bool,
    crit_cond: Condition | None,
    crit_zehrend: str | None,
) -> Frame:
    """What a hit of QS ``qs`` does to ``t``: a manoeuvre's effect (K01–K05), the damage
    (A06) with a Volltreffer's ``extra`` dice (``direct``: a Zerschmetterter Leib, X33), a
    hack's condition and Zehrend (H10), the table's condition and Zehrend (A07, Z08)."""
    frames: list[Frame] = []
    opts = c.options
    deals_damage = True
    if mode is AttackMode.MANEUVER:
        frames.extend(MANEUVERS[Maneuver(index)].effect(c, a, t))  # K01–K05
        deals_damage = opts.maneuver_damage
        weapon = UNARMED
    if mode is AttackMode.HACK:
        h = a.spec.hacks[index]
        if h.deals_damage and qs + extra > 0:
            all_direct = direct and opts.zerschmettert_all_direct
            armour = ArmourMode.DIREKT if all_direct else h.armour_mode
            frames.append(
                DamageFrame(
                    t.idx,
                    a.idx,
                    qs + extra,
                    h.bonus,
                    armour,
                    h.forms,
                    False,
                    h.name,
                    bare=extra if opts.crit_extra_die is CritExtraDie.BARE_DIE else 0,
                    direct_tail=extra if direct and not all_direct else 0,
                    flat=disarmed_malus(opts, a, qs + extra),
                )
            )
        if h.condition is not None:
            gain_condition(c, t, h.condition)
        if h.zehrend:
            z = gain_zehrend(c, t, h.zehrend)
            if z is not None:
                frames.append(z)
    elif deals_damage:
        if mode is not AttackMode.MANEUVER:
            weapon = a.weapons[index]
        bonus = damage_bonus(weapon, opts)
        all_direct = direct and opts.zerschmettert_all_direct  # X33
        armour = ArmourMode.DIREKT if all_direct else weapon.armour_mode
        bare = extra if opts.crit_extra_die is CritExtraDie.BARE_DIE else 0
        flat = disarmed_malus(opts, a, qs + extra)
        frames.append(
            DamageFrame(
                t.idx,
                a.idx,
                qs + extra,
                bonus,
                armour,
                weapon.forms,
                weapon.non_lethal,
                weapon.name,
                bare=bare,
                direct_tail=extra if direct and not all_direct else 0,
                flat=flat,
            )
        )
        if weapon.zehrend:
            frames.append(ZehrendLater(t.idx, weapon.zehrend))
    if crit_cond is not None:
        gain_condition(c, t, crit_cond)
    if crit_zehrend is not None:
        frames.append(ZehrendLater(t.idx, crit_zehrend))
    return SequenceFrame(tuple(frames))


class ZehrendStage(IntEnum):
    """Where a :class:`ZehrendLater` stands."""

    START = 0
    FINISHED = 1


_START, _FINISHED = ZehrendStage


class ZehrendLater(Frame):
    """Start a Zehrend after the hit's damage (Z08), dealing 1W10 if already suffering it."""

    __slots__ = ("fighter", "kind")

    def __init__(self, fighter: int, kind: str) -> None:
        super().__init__()
        self.fighter = fighter
        self.kind = kind

    def step(self, c: Combat, value: Any) -> Decision | Frame | Return:
        if self.stage != _START:
            return DONE
        self.stage = _FINISHED
        frame = gain_zehrend(c, c.fighters[self.fighter], self.kind)
        return frame if frame is not None else DONE
