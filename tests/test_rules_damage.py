"""Damage, dying and death (A06, D01–D09, X05, X08, X28, X29, X32, X34) with scripted dice.

Setup used throughout: the attacker (Reflexe 12, 3 initiative dice) acts first against an
adjacent target (Reflexe 10, 2 dice); every initiative die shows 1.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from cwenv.engine import events as ev
from cwenv.engine.actions import ActionKind, DecisionKind
from cwenv.engine.state import Combat
from cwenv.model.specs import WeaponSpec
from cwenv.model.types import ArmourMode, Condition, Side, WeaponKind
from cwenv.rules.options import DeathThreshold, NscAtZero, Rounding
from tests.helpers import events_of, fighter, find, init_dice, lines, make_game, scripted

BLADE = WeaponSpec("Klinge", WeaponKind.MELEE, bonus=1)


def strike(
    attack: tuple[int, int],
    damage: list[int],
    *,
    weapon: WeaponSpec = BLADE,
    target: dict[str, Any] | None = None,
    attacker: dict[str, Any] | None = None,
    tail: list[int] | None = None,
    **options: Any,
) -> Combat:
    """The attacker hits the undefended target once; returns the combat afterwards."""
    a = {"kampfkunst": 16, "reflexe": 12, "weapons": (weapon,), **(attacker or {})}
    t = {"lp": 30, **(target or {})}
    game = make_game(
        [(fighter("Angreifer", **a), (1, 1)), (fighter("Ziel", Side.GEGNER, **t), (2, 1))],
        **options,
    )
    c = scripted(game, [*init_dice(game), *attack, *damage, *(tail or [])])
    c.apply(find(c, ActionKind.ATTACK, target=1, arg=0))
    if c.decision is not None and c.decision.kind is DecisionKind.DEFEND:
        c.apply(find(c, ActionKind.NO_DEFENCE))
    return c


def last_damage(c: Combat) -> ev.DamageRolled:
    return events_of(c, ev.DamageRolled)[-1]


@pytest.mark.parametrize(
    ("mode", "armour", "rounding", "per_roll"),
    [
        (ArmourMode.NORMAL, 3, Rounding.DOWN, 3),  # A06
        (ArmourMode.BRECHEND, 5, Rounding.DOWN, 2),  # D01, X08: half armour rounded down
        (ArmourMode.BRECHEND, 5, Rounding.UP, 3),  # X08 alternative
        (ArmourMode.DIREKT, 5, Rounding.DOWN, 0),  # D02
    ],
)
def test_d01_d02_armour_per_roll(
    mode: ArmourMode, armour: int, rounding: Rounding, per_roll: int
) -> None:
    """A06/D01/D02: armour is subtracted from each damage roll, halved or ignored by type."""
    weapon = replace(BLADE, armour_mode=mode)
    c = strike(
        (3, 4),
        [7, 5],
        weapon=weapon,
        target={"ruestung": armour},
        brechend_armour_rounding=rounding,
    )
    d = last_damage(c)
    assert d.armour == per_roll
    assert d.total == (7 + 1 - per_roll) + (5 + 1 - per_roll)
    assert c.fighters[1].lp == 30 - d.total


def test_x08_armour_never_heals() -> None:
    """X08: a roll below the armour counts 0, it does not subtract from other rolls."""
    c = strike((3, 4), [1, 9], target={"ruestung": 6})
    assert last_damage(c).total == 0 + (9 + 1 - 6)


@pytest.mark.parametrize(
    ("trait", "expected"),
    [("resistances", 10 // 2), ("vulnerabilities", 10 * 3 // 2), ("immunities", 0)],
)
def test_d04_resistance_vulnerability_immunity(trait: str, expected: int) -> None:
    """D04, X32: half (rounded down), ×1.5 (rounded down), none — per attack after armour."""
    weapon = replace(BLADE, forms=frozenset({"feuer"}))
    c = strike((3, 4), [4, 4], weapon=weapon, target={trait: frozenset({"feuer"})})
    assert last_damage(c).subtotal == 10
    assert last_damage(c).total == expected
    assert c.fighters[1].lp == 30 - expected


def test_d06_angeschlagen_when_crossing_half() -> None:
    """D06, X28: falling to half LP or below makes the fighter angeschlagen."""
    c = strike((3, 4), [9, 5], target={"lp": 30})  # 10 + 6 = 16 → 14 LP
    assert c.fighters[1].lp == 14
    assert c.fighters[1].has(Condition.ANGESCHLAGEN)


def test_d06_not_angeschlagen_above_half() -> None:
    c = strike((3, 4), [5, 5], target={"lp": 30})  # 12 → 18 LP
    assert not c.fighters[1].has(Condition.ANGESCHLAGEN)


def test_d07_kampfunfaehig_and_sterbend_at_zero() -> None:
    """D07: at 0 LP or less: kampfunfähig (down, no reactions) and sterbend."""
    c = strike((3, 4), [9, 9], target={"lp": 20})  # 20 damage → 0 LP
    t = c.fighters[1]
    assert t.lp == 0 and t.down and not t.dead
    assert t.has(Condition.STERBEND)
    assert c.is_terminal() and c.outcome is not None and c.outcome.winner is Side.RUNNER


@pytest.mark.parametrize(
    ("threshold", "lp_after", "dead"),
    [
        (DeathThreshold.AT_OR_BELOW, -10, True),  # X05 (text): Unbeugsamkeit 10 dies at −10
        (DeathThreshold.BELOW, -10, False),
        (DeathThreshold.BELOW, -11, True),
    ],
)
def test_d07_death_threshold(threshold: DeathThreshold, lp_after: int, dead: bool) -> None:
    """D07/X05: a single attack reaching −Unbeugsamkeit kills at once."""
    rolls = 20 - lp_after - 3  # from 20 LP with three W10+1 (QS 3)
    dice = [min(rolls - 18, 10), 9, 9]
    c = strike((5, 6), dice, target={"lp": 20}, death_threshold=threshold)
    t = c.fighters[1]
    assert t.lp == lp_after
    assert t.dead is dead


def test_x11_nsc_dies_at_zero_under_dead_option() -> None:
    """X11 alternative: NSCs simply drop dead at 0 LP."""
    c = strike((3, 4), [9, 9], target={"lp": 20}, nsc_at_zero=NscAtZero.DEAD)
    assert c.fighters[1].dead


def test_d05_x34_non_lethal_stops_at_zero_unconscious() -> None:
    """D05, X34: non-lethal damage takes a fighter to 0 LP, unconscious, not dying."""
    taser = WeaponSpec("Taser", WeaponKind.MELEE, bonus=5, non_lethal=True)
    c = strike((3, 4), [9, 9], weapon=taser, target={"lp": 10})
    t = c.fighters[1]
    assert t.lp == 0 and t.down
    assert not t.has(Condition.STERBEND)


@pytest.mark.parametrize(
    ("dice", "expect"),
    [
        ((3, 3), "stabilised"),  # D08: Volltreffer → stabilises
        ((4, 5), "survives"),  # success
        ((6, 5, 4), "loses"),  # failure → loses 1W10 (4)
        ((9, 9), "dies"),  # Patzer → dies
    ],
)
def test_d08_dying_check_at_round_end(dice: tuple[int, ...], expect: str) -> None:
    """D08: at the end of every round a sterbend fighter rolls Unbeugsamkeit (10)."""
    game = make_game(
        [
            (fighter("Angreifer", kampfkunst=16, reflexe=12, weapons=(BLADE,)), (1, 1)),
            (fighter("Ziel", Side.GEGNER, lp=22), (2, 1)),
            (fighter("Zweiter", Side.GEGNER, lp=30), (8, 4)),  # keeps the fight going
        ]
    )
    # attack 5+6 = 11 → QS 3; damage 10 + 10 + 7 = 27 → 22 − 27 = −5
    c = scripted(game, init_dice(game) + [5, 6, 9, 9, 6, *dice] + [1] * 12)
    c.apply(find(c, ActionKind.ATTACK, target=1, arg=0))
    c.apply(find(c, ActionKind.NO_DEFENCE))
    t = c.fighters[1]
    assert t.lp == 22 - 27 and t.has(Condition.STERBEND), lines(c)
    while c.round == 1:
        c.apply(find(c, ActionKind.END_TURN))
    if expect == "stabilised":
        assert not t.has(Condition.STERBEND) and t.stabilised and not t.dead
    elif expect == "survives":
        assert t.has(Condition.STERBEND) and t.lp == -5
    elif expect == "loses":
        assert t.lp == -9 and not t.dead
    else:
        assert t.dead


def test_d08_dying_loss_can_kill() -> None:
    """D08 + D07: losing 1W10 while dying kills once LP reach −Unbeugsamkeit."""
    game = make_game(
        [
            (fighter("Angreifer", kampfkunst=16, reflexe=12, weapons=(BLADE,)), (1, 1)),
            (fighter("Ziel", Side.GEGNER, lp=22), (2, 1)),
            (fighter("Zweiter", Side.GEGNER, lp=30), (8, 4)),
        ]
    )
    c = scripted(game, init_dice(game) + [5, 6, 9, 9, 6, 6, 5, 7] + [1] * 12)
    c.apply(find(c, ActionKind.ATTACK, target=1, arg=0))
    c.apply(find(c, ActionKind.NO_DEFENCE))
    while c.round == 1:
        c.apply(find(c, ActionKind.END_TURN))
    assert c.fighters[1].dead  # −5 − 7 = −12 ≤ −10


def test_z06_x29_damage_while_dying_adds_1w10_direct() -> None:
    """Z06, X29: sterbend again → 1W10 direct damage on top of the hit."""
    game = make_game(
        [
            (fighter("Angreifer", kampfkunst=16, reflexe=12, weapons=(BLADE,)), (1, 1)),
            (fighter("Ziel", Side.GEGNER, lp=20), (2, 1)),
            (fighter("Zweiter", Side.GEGNER, lp=30), (8, 4)),
        ]
    )
    dice = init_dice(game) + [
        3,
        4,
        9,
        9,  # first hit, QS 2: 10 + 10 → 0 LP
        2,
        3,
        1,
        3,
    ]  # second hit QS 1: 1 + 1 = 2, then Z06's W10 = 3
    c = scripted(game, dice + [1] * 20)
    c.apply(find(c, ActionKind.ATTACK, target=1, arg=0))
    c.apply(find(c, ActionKind.NO_DEFENCE))
    assert c.fighters[1].lp == 0
    # second attack on the downed target in the next step (Angreifer acts again at step 5)
    while not any(a.kind is ActionKind.ATTACK and a.target == 1 for a in c.legal_actions()):
        c.apply(find(c, ActionKind.END_TURN))
    assert c.round == 1
    c.apply(find(c, ActionKind.ATTACK, target=1, arg=0))
    lps = events_of(c, ev.LPChanged)
    # QS 1 hit: 1 + 1 = 2 damage plus the Z06 die (3) → 0 − 5
    assert lps[-1].before == 0 and lps[-1].after == -5, lines(c)[-8:]
