"""The book's worked examples, replayed through the engine with scripted dice (issue #2).

Dice are consumed in this order: at the start of each round every fighter (roster order)
rolls its initiative dice (I02: Grundwert ÷ 5 rounded up); a check takes two W10; damage one
W10 per QS; the Volltreffer/Patzer tables two W10.
"""

from __future__ import annotations

from cwenv.engine import events as ev
from cwenv.engine.actions import ActionKind
from cwenv.engine.roundflow import initiative_dice, initiative_steps
from cwenv.model.specs import CyberwareSpec, WeaponSpec
from cwenv.model.types import Side, WeaponKind
from cwenv.rules.options import DEFAULT_OPTIONS
from cwenv.rules.probe import contest, resolve_probe
from tests.helpers import fighter, find, make_game, scripted

W10_PLUS_1 = WeaponSpec("Klinge", WeaponKind.MELEE, bonus=1)


def test_p01_johnny_climbs_the_tree() -> None:
    """P01: Infiltration 13 + 2 = 15, dice 5 and 6 → 11 ≤ 15 → success."""
    r = resolve_probe(13 + 2, 5, 6, DEFAULT_OPTIONS)
    assert r.success and r.total == 11 and r.qs == 3


def test_p07_sneaking_past_the_guard() -> None:
    """P07: guard rolls 11 on Wahrnehmung 11, runner 8 on Infiltration 13 → guard wins, QS 1."""
    runner = resolve_probe(13, 3, 5, DEFAULT_OPTIONS)
    guard = resolve_probe(11, 5, 6, DEFAULT_OPTIONS)
    outcome = contest(runner, guard, DEFAULT_OPTIONS)
    assert outcome.winner == 1 and outcome.qs == 1


def test_a06_johnny_hits_the_guard_for_ten() -> None:
    """A06: QS 2, W10+1, rolls 7 and 5, armour 2 → 7+1−2 + 5+1−2 = 10 damage."""
    game = make_game(
        [
            (fighter("Johnny", kampfkunst=14, reflexe=12, weapons=(W10_PLUS_1,)), (1, 1)),
            (fighter("Wache", Side.GEGNER, ruestung=2, lp=30), (2, 1)),
        ]
    )
    dice = [
        1,
        1,
        1,  # Johnny: Grundwert 12 → 3W10 → initiative 15
        1,
        1,  # Wache: Grundwert 10 → 2W10 → initiative 12
        3,
        4,  # attack roll 7 → success, QS 2
        7,
        5,
    ]  # damage dice
    c = scripted(game, dice)
    c.apply(find(c, ActionKind.ATTACK, target=1, arg=0))
    c.apply(find(c, ActionKind.NO_DEFENCE))
    damage = [e for e in c.events if isinstance(e, ev.DamageRolled)]
    assert damage[-1].rolls == (7, 5) and damage[-1].armour == 2 and damage[-1].total == 10
    assert c.fighters[1].lp == 20


def test_i02_raptor_booster_initiative() -> None:
    """I02: Reflexe 13 + Raptor-Booster 6 = 19 → 4W10 + 19."""
    raptor = CyberwareSpec("Raptor-Booster", initiative_bonus=6)
    spec = fighter("Kira", reflexe=13, cyberware=(raptor,))
    assert spec.initiative_grundwert == 19
    assert initiative_dice(19) == 4
    game = make_game([(spec, (0, 0)), (fighter("Wache", Side.GEGNER), (5, 0))])
    c = scripted(game, [1, 2, 3, 4, 1, 1] + [5] * 50)
    rolled = [e for e in c.events if isinstance(e, ev.InitiativeRolled)]
    assert rolled[0].dice == (1, 2, 3, 4) and rolled[0].initiative == 19 + 10


def test_i03_initiative_steps() -> None:
    """I03: 26 → 26/16/6, 12 → 12/2, 9 → 9."""
    assert initiative_steps(26) == (26, 16, 6)
    assert initiative_steps(12) == (12, 2)
    assert initiative_steps(9) == (9,)
