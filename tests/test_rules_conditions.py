"""Conditions and their chains (Z01–Z08, H12, R01, X04, X19, X20, X24, X39)."""

from __future__ import annotations

from typing import Any

import pytest

from cwenv.engine import events as ev
from cwenv.engine.actions import ActionKind, DecisionKind
from cwenv.engine.conditions import gain_condition
from cwenv.engine.damage import gain_zehrend
from cwenv.engine.parts import labelled
from cwenv.engine.state import Combat
from cwenv.model.specs import HackSpec, WeaponSpec
from cwenv.model.types import Condition, Side, WeaponKind
from tests.helpers import PISTOL, events_of, fighter, find, init_dice, lines, make_game, scripted

BLADE = WeaponSpec("Klinge", WeaponKind.MELEE, bonus=1)
ZAP = HackSpec("Synapsenbrand", range_m=20)


def duel(
    dice: list[int],
    *,
    runner: dict[str, Any] | None = None,
    enemy: dict[str, Any] | None = None,
    **options: Any,
) -> Combat:
    """Runner (Reflexe 12, acts first) at (1,1) next to an enemy (Reflexe 10) at (2,1)."""
    r = {
        "kampfkunst": 14,
        "fernkampf": 14,
        "hacking": 14,
        "reflexe": 12,
        "weapons": (BLADE, PISTOL),
        "hacks": (ZAP,),
        **(runner or {}),
    }
    e = {"lp": 40, **(enemy or {})}
    game = make_game(
        [(fighter("Kira", **r), (1, 1)), (fighter("Wache", Side.GEGNER, **e), (2, 1))], **options
    )
    return scripted(game, init_dice(game) + dice + [5] * 60)


def stay_up(c: Combat) -> None:
    """Answer the target's Niederwerfen prompt (R06) with 'stay up'."""
    if c.decision is not None and c.decision.kind is DecisionKind.NIEDERWERFEN:
        c.apply(find(c, ActionKind.STAY_UP))


def last_check(c: Combat) -> ev.CheckRolled:
    return events_of(c, ev.CheckRolled)[-1]


@pytest.mark.parametrize(
    ("first", "second", "result"),
    [
        (Condition.ANGESCHLAGEN, Condition.ANGESCHLAGEN, Condition.BENOMMEN),  # Z01
        (Condition.BENOMMEN, Condition.BENOMMEN, Condition.VERWIRRT),  # Z02
        (Condition.EINGESCHRAENKT, Condition.EINGESCHRAENKT, Condition.BENOMMEN),  # Z03
        (Condition.ENTMUTIGT, Condition.ENTMUTIGT, Condition.BENOMMEN),  # Z04
        (Condition.NIEDERGEWORFEN, Condition.NIEDERGEWORFEN, Condition.EINGESCHRAENKT),  # Z05
        (Condition.VERWIRRT, Condition.VERWIRRT, Condition.BENOMMEN),  # Z07
    ],
)
def test_z_again_gives_the_substitute(
    first: Condition, second: Condition, result: Condition
) -> None:
    """Z01–Z07: suffering a held condition gives the named one instead; the first stays."""
    c = duel([])
    f = c.fighters[1]
    gain_condition(c, f, first)
    gain_condition(c, f, second)
    assert f.has(first) and f.has(result)
    assert events_of(c, ev.ConditionGained)[-1].instead_of == second.label


def test_x19_one_substitution_step() -> None:
    """X19: if the substitute is already held too, nothing further happens."""
    c = duel([])
    f = c.fighters[1]
    for cond in (Condition.ANGESCHLAGEN, Condition.BENOMMEN):
        gain_condition(c, f, cond)
    gain_condition(c, f, Condition.ANGESCHLAGEN)  # → benommen, already held → stop
    assert not f.has(Condition.VERWIRRT)


def test_z01_angeschlagen_penalises_physical_not_mental() -> None:
    """Z01, X04, X39: −2 on körperliche checks (the attack), none on Hacking."""
    c = duel([3, 4, 1, 1])
    gain_condition(c, c.fighters[0], Condition.ANGESCHLAGEN)
    c.refresh_legal()
    c.apply(find(c, ActionKind.ATTACK, target=1, arg=0))
    assert ("angeschlagen", -2) in labelled(last_check(c).parts)
    c2 = duel([3, 4, 1, 1])
    gain_condition(c2, c2.fighters[0], Condition.ANGESCHLAGEN)
    c2.refresh_legal()
    c2.apply(find(c2, ActionKind.HACK, target=1, arg=0))
    stay_up(c2)
    assert ("angeschlagen", -2) not in labelled(last_check(c2).parts)


def test_z07_verwirrt_penalises_hacking_not_fernkampf() -> None:
    """Z07: −2 on geistige and Hacking actions; a gunshot is körperlich."""
    c = duel([3, 4, 1, 1])
    gain_condition(c, c.fighters[0], Condition.VERWIRRT)
    c.refresh_legal()
    c.apply(find(c, ActionKind.HACK, target=1, arg=0))
    stay_up(c)
    assert ("verwirrt", -2) in labelled(last_check(c).parts)
    c2 = duel([3, 4, 1, 1], runner={"weapons": (PISTOL,)})
    gain_condition(c2, c2.fighters[0], Condition.VERWIRRT)
    c2.refresh_legal()
    c2.apply(find(c2, ActionKind.ATTACK, target=1, arg=0))
    stay_up(c2)
    assert ("verwirrt", -2) not in labelled(last_check(c2).parts)


def test_z04_entmutigt_minus_two_on_attacks_and_no_mumm() -> None:
    """Z04, M11: −2 on attacks; no Mumm may be spent (no PRE_CHECK prompt)."""
    c = duel([3, 4, 1, 1], runner={"mumm": 3, "mumm_max": 3})
    gain_condition(c, c.fighters[0], Condition.ENTMUTIGT)
    c.refresh_legal()
    c.apply(find(c, ActionKind.ATTACK, target=1, arg=0))
    assert c.decision is None or c.decision.kind is not DecisionKind.PRE_CHECK
    assert ("entmutigt", -2) in labelled(events_of(c, ev.CheckRolled)[0].parts)


def test_z05_niedergeworfen_minus_two_on_defence_and_aufstehen() -> None:
    """Z05: −2 on defences; Aufstehen (H02) ends it and costs the Handlung."""
    c = duel([3, 4, 4, 4])  # Kira attacks (7); the Wache defends (8)
    gain_condition(c, c.fighters[1], Condition.NIEDERGEWORFEN)
    c.refresh_legal()
    c.apply(find(c, ActionKind.ATTACK, target=1, arg=0))
    c.apply(find(c, ActionKind.DEFEND))
    assert ("niedergeworfen", -2) in labelled(last_check(c).parts)
    c2 = duel([])
    gain_condition(c2, c2.fighters[0], Condition.NIEDERGEWORFEN)
    c2.refresh_legal()
    assert not any(a.kind is ActionKind.MOVE for a in c2.legal_actions())  # X40: no crawling
    c2.apply(find(c2, ActionKind.AUFSTEHEN))
    assert not c2.fighters[0].has(Condition.NIEDERGEWORFEN)
    assert any(a.kind is ActionKind.MOVE for a in c2.legal_actions())
    assert not any(a.kind is ActionKind.ATTACK for a in c2.legal_actions())


def test_z03_eingeschraenkt_halves_movement_and_reactions() -> None:
    """Z03: Bewegung halved; −2 on reactions (the defence)."""
    c = duel([3, 4, 4, 4])
    full = {a.cell for a in c.legal_actions() if a.kind is ActionKind.MOVE}
    c2 = duel([3, 4, 4, 4])
    gain_condition(c2, c2.fighters[0], Condition.EINGESCHRAENKT)
    c2.refresh_legal()
    half = {a.cell for a in c2.legal_actions() if a.kind is ActionKind.MOVE}
    bm = c2.bm
    assert max(bm.distance(c2.fighters[0].pos, x) for x in full) == 6
    assert max(bm.distance(c2.fighters[0].pos, x) for x in half) == 3
    gain_condition(c, c.fighters[1], Condition.EINGESCHRAENKT)
    c.refresh_legal()
    c.apply(find(c, ActionKind.ATTACK, target=1, arg=0))
    c.apply(find(c, ActionKind.DEFEND))
    assert ("eingeschränkt", -2) in labelled(last_check(c).parts)


def test_z02_benommen_must_roll_mumm_probe_and_gets_no_reactions() -> None:
    """Z02, R01: benommen at the start of a round → no reactions; on its turn the only
    choice is the Mumm-Probe (X02: Unbeugsamkeit); success ends it."""
    game = make_game(
        [
            (fighter("Kira", reflexe=12, weapons=(BLADE,)), (1, 1)),
            (fighter("Wache", Side.GEGNER), (8, 1)),
        ]
    )
    c = scripted(game, init_dice(game) + [5] * 30)
    gain_condition(c, c.fighters[1], Condition.BENOMMEN)
    c.refresh_legal()
    c.apply(find(c, ActionKind.END_TURN))
    # The Wache's turn: the forced Mumm-Probe ran without a decision (5+5 = 10 ≤ 10).
    probe = [e for e in events_of(c, ev.CheckRolled) if "Mumm-Probe" in e.purpose]
    assert probe and labelled(probe[0].parts)[0] == ("Unbeugsamkeit", 10)
    assert not c.fighters[1].has(Condition.BENOMMEN)
    assert not any(e for e in events_of(c, ev.Moved) if e.fighter == 1)
    c3 = scripted(game, [5] * 40)
    gain_condition(c3, c3.fighters[1], Condition.BENOMMEN)
    c3.refresh_legal()
    while c3.round < 2:
        c3.apply(c3.legal_actions()[-1])
    # Round 2 started with the Wache no longer benommen (5+5 succeeded) → reactions again.
    assert c3.fighters[1].reactions == (10 + 10) // 4


def test_r01_benommen_at_round_start_gets_no_reactions() -> None:
    game = make_game(
        [(fighter("Kira", reflexe=12), (1, 1)), (fighter("Wache", Side.GEGNER), (8, 1))]
    )
    c = scripted(game, [1] * 5 + [9, 9, 9, 9] + [5] * 40)  # both Mumm-Probes fail
    gain_condition(c, c.fighters[1], Condition.BENOMMEN)
    c.refresh_legal()
    while c.round < 2:
        c.apply(c.legal_actions()[-1])
    assert c.fighters[1].has(Condition.BENOMMEN) and c.fighters[1].reactions == 0


@pytest.mark.parametrize(
    ("cond", "skill"),
    [
        (Condition.ANGESCHLAGEN, "Unbeugsamkeit"),  # Z01
        (Condition.EINGESCHRAENKT, "Unbeugsamkeit"),  # Z03, X20
        (Condition.ENTMUTIGT, "Unbeugsamkeit"),  # Z04
        (Condition.VERWIRRT, "Wahrnehmung"),  # Z07
    ],
)
def test_h12_shake_off_with_action_and_check(cond: Condition, skill: str) -> None:
    """H12: a Handlung and a check end the condition on success."""
    c = duel([2, 2])
    gain_condition(c, c.fighters[0], cond)
    c.refresh_legal()
    c.apply(find(c, ActionKind.SHAKE, arg=int(cond)))
    assert labelled(last_check(c).parts)[0][0] == skill
    assert not c.fighters[0].has(cond)
    assert not any(a.kind is ActionKind.ATTACK for a in c.legal_actions())


def test_z08_zehrend_end_of_round_damage_then_check() -> None:
    """Z08, X20, X31: 1W10 at the end of the round (armour applies), then the free check
    (Blutung → Technik); success ends it."""
    game = make_game(
        [(fighter("Kira", reflexe=12, ruestung=2), (1, 1)), (fighter("Wache", Side.GEGNER), (8, 1))]
    )
    c = scripted(game, init_dice(game) + [7, 3, 4] + [5] * 40)
    assert gain_zehrend(c, c.fighters[0], "Blutung") is None
    while c.round == 1:
        c.apply(find(c, ActionKind.END_TURN))
    f = c.fighters[0]
    assert f.lp == 30 - (7 - 2), lines(c)
    check = next(e for e in events_of(c, ev.CheckRolled) if "Zehrend" in e.purpose)
    assert labelled(check.parts)[0][0] == "Technik" and check.success
    assert f.zehrend == ()


def test_z08_same_zehrend_again_deals_1w10_at_once() -> None:
    c = duel([6])
    f = c.fighters[1]
    gain_zehrend(c, f, "Feuer")
    frame = gain_zehrend(c, f, "Feuer")
    assert frame is not None  # a DamageFrame of 1W10 (fire: brechend, X20)
    assert f.zehrend == ("Feuer",)
