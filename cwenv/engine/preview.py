"""Exact odds of an action before it is taken: what menus show and agents weigh.

Nothing here changes the combat: the attack value comes from :func:`plan_attack`, the
defence from the target's own check parts, and the probabilities from the exact
enumeration in :mod:`cwenv.rules.odds` (A01–A05, P01–P06).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from cwenv.engine.actions import Action, ActionKind
from cwenv.engine.attack_plan import defence_values, plan_attack
from cwenv.engine.checks import check_parts
from cwenv.engine.conditions import reaction_choices
from cwenv.engine.damage import armour_after_mode
from cwenv.engine.hits import damage_bonus
from cwenv.engine.parts import Parts
from cwenv.model.types import AttackMode, CoverLevel
from cwenv.rules.odds import attack_odds, probe_odds
from cwenv.rules.options import RuleOptions

if TYPE_CHECKING:
    from cwenv.engine.state import Combat

_MODES = {
    ActionKind.ATTACK: AttackMode.WEAPON,
    ActionKind.MANEUVER: AttackMode.MANEUVER,
    ActionKind.HACK: AttackMode.HACK,
    ActionKind.BLOCKADE_ATTACK: AttackMode.BLOCKADE,
}


@dataclass(frozen=True, slots=True)
class AttackPreview:
    """The attack value and the chances of an attack action.

    ``success`` is the chance the attack roll succeeds; ``hit`` the chance it also gets
    through the target's best defence, assuming the target defends whenever it can.
    """

    probenwert: int
    parts: Parts
    success: float
    hit: float
    expected_qs: float
    cover: CoverLevel
    defence: int | None


def preview_attack(c: Combat, action: Action) -> AttackPreview | None:
    """Odds of an ATTACK, MANEUVER, HACK or BLOCKADE_ATTACK action; None for others."""
    mode = _MODES.get(action.kind)
    if mode is None:
        return None
    a = c.fighters[action.actor]
    t = c.fighters[action.target]
    plan = plan_attack(c, a, t, mode, action.arg)
    options = c.options
    defence: int | None = None
    free_defence = mode is AttackMode.MANEUVER and options.maneuver_reaction_cost == 0
    if reaction_choices(c, t) or (free_defence and t.standing):
        values = []
        for value in defence_values(c, mode, a, action.arg):
            parts = check_parts(c, t, value, reaction=True, defence=True)
            values.append(sum(v for _, v in parts))
        defence = max(values)
    probenwert = plan.probenwert
    success, hit, expected_qs = _chances(probenwert, defence, options)
    return AttackPreview(
        probenwert=probenwert,
        parts=plan.parts,
        success=success,
        hit=hit,
        expected_qs=expected_qs + (plan.aim_qs * hit),
        cover=plan.cover.level,
        defence=defence,
    )


_Chances = dict[tuple[int, int | None], tuple[float, float, float]]
_CHANCES: dict[int, tuple[RuleOptions, _Chances]] = {}
"""Per rule options object (by identity; the entry keeps it alive, so no other object can
take its id): the float chances of each (attack, defence) pair met so far."""


def _chances(
    probenwert: int, defence: int | None, options: RuleOptions
) -> tuple[float, float, float]:
    """(success, hit, expected QS) of an attack as floats, from the exact odds (A01–A05).

    Looked up per options object first: hashing a RuleOptions (a deep dataclass) for the
    odds' own caches costs more than the whole lookup, and a menu, the advisor and every
    encoding 2 decision ask for the same few pairs again and again."""
    entry = _CHANCES.get(id(options))
    if entry is None or entry[0] is not options:
        if len(_CHANCES) >= 64:  # options objects of games long gone
            _CHANCES.clear()
        entry = _CHANCES[id(options)] = (options, {})
    table = entry[1]
    found = table.get((probenwert, defence))
    if found is None:
        odds = attack_odds(probenwert, defence, options)
        success = float(probe_odds(probenwert, options).success)
        found = table[(probenwert, defence)] = (success, float(odds.hit), float(odds.expected_qs))
    return found


def mean_damage_per_qs(c: Combat, action: Action) -> float:
    """The mean LP one QS of a weapon attack (``action.weapon`` on ``action.target``)
    deals: W10 + the weapon's bonus (X12) − the target's armour per roll after the weapon's
    armour mode (A06, D01, D02), at least 0 per die when the armour floor is on, at least
    0 overall. Resistances, a Volltreffer's bare dice and Zehrend are left out: an
    estimate, which the advisor shows with ≈ and encoding 2 feeds its candidates."""
    f, t = c.fighters[action.actor], c.fighters[action.target]
    w = f.weapons[action.weapon]
    armour = armour_after_mode(c, t.spec.armour + t.armour_bonus, w.armour_mode)
    bonus = damage_bonus(w, c.options)  # X12: the Faust's is the rule option
    rolls = [r + bonus - armour for r in range(1, 11)]
    if c.options.armour_floor_zero:
        rolls = [max(v, 0) for v in rolls]
    return max(sum(rolls) / 10, 0.0)
