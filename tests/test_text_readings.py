"""Readings the German text decides against an earlier implementation (mutation review)."""

from __future__ import annotations

from cwenv.engine import events as ev
from cwenv.engine.actions import ActionKind, DecisionKind
from cwenv.engine.conditions import gain_condition
from cwenv.engine.parts import labelled
from cwenv.model.specs import WeaponSpec
from cwenv.model.types import Condition, Side, WeaponKind
from tests.helpers import events_of, fighter, find, init_dice, make_game, scripted
from tests.test_rules_damage import BLADE

TASER = WeaponSpec("Taser", WeaponKind.MELEE, bonus=5, non_lethal=True)


def test_d05_d07_further_damage_after_a_non_lethal_knockout_makes_sterbend() -> None:
    """D05 'keine Unbeugsamkeits-Würfe …, solange kein weiterer Schaden folgt';
    D07 'fällt bei 0 oder weniger Lebenspunkten … und erhält den Zustand «sterbend»'."""
    game = make_game(
        [
            (fighter("A", kampfkunst=16, reflexe=12, weapons=(TASER,)), (1, 1)),
            (fighter("B", kampfkunst=16, weapons=(BLADE,)), (3, 1)),
            (fighter("Ziel", Side.GEGNER, lp=10), (2, 1)),
            (fighter("Zweiter", Side.GEGNER), (9, 4)),
        ]
    )
    c = scripted(game, init_dice(game) + [3, 4, 9, 9, 3, 4, 1, 1] + [5] * 40)
    c.apply(find(c, ActionKind.ATTACK, target=2, arg=0))  # taser: 0 LP, bewusstlos
    c.apply(find(c, ActionKind.NO_DEFENCE)) if c.decision.kind is DecisionKind.DEFEND else None
    while c.current_fighter() != 1:
        c.apply(find(c, ActionKind.END_TURN))
    c.apply(find(c, ActionKind.ATTACK, target=2, arg=0))  # blade: 4 lethal damage
    t = c.fighters[2]
    assert t.lp == -4
    assert t.has(Condition.STERBEND)  # FAILS on current code


def test_z03_eingeschraenkt_minus_two_on_sturz_abfangen() -> None:
    """Z03 '–2 auf alle Reaktionen'; 'Sturz abfangen' is a Reaktionshandlung (R05)."""
    game = make_game(
        [
            (fighter("Schläger", Side.GEGNER, reflexe=12, kampfkunst=16), (1, 0)),
            (fighter("Kira", infiltration=12), (2, 0)),
        ],
        rows=["......", "......"],
        elevation=["666000", "666000"],
    )
    c = scripted(game, init_dice(game) + [3, 4, 2, 3, 4] + [5] * 40)
    gain_condition(c, c.fighters[1], Condition.EINGESCHRAENKT)
    c.refresh_legal()
    c.apply(find(c, ActionKind.MANEUVER, target=1, arg=4))
    c.apply(find(c, ActionKind.NO_DEFENCE))
    c.apply(find(c, ActionKind.CATCH_FALL))
    assert ("eingeschränkt", -2) in labelled(events_of(c, ev.CheckRolled)[-1].parts)  # FAILS
