"""Encoding 2's attack previews under the native engine (issue #16, src/previews2.cpp).

The core works out each candidate's Probenwert — cover (C01–C04, R06) via its own
``cover_against``, the range modifier, the prone target's −2, Zielen (H11, X03), a
disarmed NSC's −2 (K01) — and writes the eight odds columns of
:meth:`cwenv.envs.candidates.CandidateEncoder._previews`. What reads the check and
condition tables stays here and is handed over: per game and (actor, kind, arg) the
check, the weapon's, hack's or manoeuvre's modifier and the kind of attack; per decision
the attacker's own parts (:func:`cwenv.engine.checks.check_parts`), the target's best
defence where it may defend (A03, M05) and its armour after the weapon's mode (D01, D02);
the exact odds come from :func:`cwenv.engine.preview._chances`, which the core asks once
per (Probenwert, defence) and keeps.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from cwenv.engine.actions import Action, ActionKind
from cwenv.engine.attack_plan import area_radius, attack_is_ranged, defence_values
from cwenv.engine.checks import check_parts
from cwenv.engine.conditions import reaction_choices
from cwenv.engine.damage import armour_after_mode
from cwenv.engine.hits import damage_bonus
from cwenv.engine.preview import _MODES, _chances
from cwenv.engine.tables.maneuvers import MANEUVERS
from cwenv.model.specs import UNARMED
from cwenv.model.types import ArmourMode, AttackMode, CheckValue, Maneuver
from cwenv.rules.options import AreaCover

if TYPE_CHECKING:
    import numpy as np

    from cwenv._core import Encoder2
    from cwenv.engine.state import Combat


class Static(NamedTuple):
    """What an (actor, kind, arg) attack is, from the stat block and the options alone."""

    skill: CheckValue
    reaction: bool  # a Blockadeangriff is a reaction (R04, Z03)
    modifier: int  # the weapon's, hack's or manoeuvre's (A01, H10, K01, K03)
    ranged: bool
    area: bool
    ignores: bool  # an area attack ignoring half and three-quarter cover (C03, X26)
    band_weapon: int  # the slot whose range modifier applies, −1 for none
    aim_mode: bool  # AttackMode.WEAPON: Zielen counts (H11)
    defences: tuple[CheckValue, ...]  # A03, X21, X22
    free_defence: bool  # a manoeuvre's defence costs no reaction
    damage: bool  # a weapon attack: its damage is estimated (A06)
    bonus: int  # X12
    armour_mode: ArmourMode


def static_of(c: Combat, a: Action) -> Static:
    """plan_attack's and preview_attack's parts that read no fighter state."""
    mode = _MODES[a.kind]
    f = c.fighters[a.actor]
    index = a.arg
    opts = c.options
    weapon = UNARMED
    if mode is AttackMode.HACK:
        skill = CheckValue.HACKING
        modifier = f.spec.hacks[index].modifier
    else:
        weapon = UNARMED if mode is AttackMode.MANEUVER else f.weapons[index]
        skill = CheckValue(weapon.skill.value)
        if mode is AttackMode.MANEUVER:
            modifier = MANEUVERS[Maneuver(index)].modifier
        else:
            modifier = weapon.attack_modifier
    ranged = attack_is_ranged(f, mode, index)
    damage = a.kind in (ActionKind.ATTACK, ActionKind.BLOCKADE_ATTACK)
    return Static(
        skill=skill,
        reaction=mode is AttackMode.BLOCKADE,
        modifier=modifier,
        ranged=ranged,
        area=area_radius(f, mode, index) > 0,
        ignores=mode is AttackMode.HACK or opts.area_cover is AreaCover.ALL_AREA_ATTACKS,
        band_weapon=index if ranged and mode in (AttackMode.WEAPON, AttackMode.BLOCKADE) else -1,
        aim_mode=mode is AttackMode.WEAPON,
        defences=defence_values(c, mode, f, index),
        free_defence=mode is AttackMode.MANEUVER and opts.maneuver_reaction_cost == 0,
        damage=damage,
        bonus=damage_bonus(weapon, opts) if damage else 0,
        armour_mode=weapon.armour_mode if damage else ArmourMode.NORMAL,
    )


class NativePreviews:
    """One game's previews through its ``_core.Encoder2`` (the static parts cached)."""

    def __init__(self) -> None:
        self._static: dict[tuple[int, int, int], Static] = {}
        self.answered = 0  # candidates the core previewed (the tests check it)

    def fill(
        self, enc: Encoder2, c: Combat, legal: Sequence[Action], feats: np.ndarray, odds: list[int]
    ) -> bool:
        """Write the odds columns of the candidates ``odds`` into ``feats``; False where
        the core cannot (nothing written)."""
        opts = c.options
        own: dict[tuple[int, CheckValue, bool], int] = {}
        defended: dict[tuple[int, tuple[CheckValue, ...], bool], int | None] = {}
        armour: dict[tuple[int, ArmourMode], int] = {}
        inputs: list[int] = []
        for i in odds:
            a = legal[i]
            key = (a.actor, int(a.kind), a.arg)
            s = self._static.get(key)
            if s is None:
                s = self._static[key] = static_of(c, a)
            f, t = c.fighters[a.actor], c.fighters[a.target]
            mine = own.get((a.actor, s.skill, s.reaction))
            if mine is None:
                parts = check_parts(c, f, s.skill, attack=True, reaction=s.reaction)
                mine = own[(a.actor, s.skill, s.reaction)] = sum(v for _, v in parts)
            dkey = (a.target, s.defences, s.free_defence)
            if dkey in defended:
                best = defended[dkey]
            else:
                best = None
                if reaction_choices(c, t) or (s.free_defence and t.standing):
                    best = max(
                        sum(v for _, v in check_parts(c, t, value, reaction=True, defence=True))
                        for value in s.defences
                    )
                defended[dkey] = best
            worn = 0
            if s.damage:
                akey = (a.target, s.armour_mode)
                got = armour.get(akey)
                if got is None:
                    base = t.spec.armour + t.armour_bonus
                    got = armour[akey] = armour_after_mode(c, base, s.armour_mode)
                worn = got
            inputs += (
                i, a.actor, a.target, mine + s.modifier, s.ranged, s.area, s.ignores,
                s.band_weapon, s.aim_mode, best is not None, best or 0, s.damage, s.bonus,
                worn, t.prone_bonus,
            )  # fmt: skip
        rules = (
            opts.niederwerfen_vs_melee, opts.zielen_bonus, opts.zielen_qs_bonus,
            opts.entwaffnen_nsc_penalty, opts.armour_floor_zero,
        )  # fmt: skip

        def chances(probenwert: int, defence: int | None) -> tuple[float, float, float]:
            return _chances(probenwert, defence, opts)

        done = enc.previews(c, inputs, rules, chances, feats)
        self.answered += len(odds) if done else 0
        return done
