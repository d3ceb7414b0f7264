"""Tests proposed by the mutation run: each kills a mutant that survived the fast suite."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from cwenv.engine import events as ev
from cwenv.engine.actions import ActionKind, DecisionKind
from cwenv.engine.conditions import gain_condition
from cwenv.engine.damage import gain_zehrend, heal
from cwenv.engine.parts import labelled
from cwenv.engine.state import Combat
from cwenv.model.types import CheckValue, Condition, Side
from cwenv.rules.options import DropAbsorbed, InitiativeSystem
from tests.helpers import events_of, fighter, find, init_dice, lines, make_game, scripted
from tests.test_rules_conditions import duel, last_check, stay_up
from tests.test_rules_damage import BLADE, last_damage, strike


# -- D04 / X32 ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("trait", "expected"),
    [("resistances", 11 // 2), ("vulnerabilities", 11 * 3 // 2)],  # 5 and 16, not 6 and 17
)
def test_d04_x32_odd_damage_rounds_down(trait: str, expected: int) -> None:
    """D04, X32: 'nur halben Schaden' / '1.5-fachen Schaden', rounded down (default)."""
    weapon = replace(BLADE, forms=frozenset({"feuer"}))
    c = strike((3, 4), [4, 5], weapon=weapon, target={trait: frozenset({"feuer"})})
    assert last_damage(c).subtotal == (4 + 1) + (5 + 1)
    assert last_damage(c).total == expected
    assert c.fighters[1].lp == 30 - expected


# -- D06 / X28 ------------------------------------------------------------------------------
def test_d06_exactly_half_lp_is_angeschlagen() -> None:
    """D06: 'sobald er auf die Hälfte seiner Lebenspunkte oder weniger fällt': 30 → 15."""
    c = strike((3, 4), [7, 6], target={"lp": 30})  # (7+1) + (6+1) = 15
    assert c.fighters[1].lp == 15
    assert c.fighters[1].has(Condition.ANGESCHLAGEN)


def test_d06_x28_a_hit_at_exactly_half_is_no_new_crossing() -> None:
    """X28 (crossing): a fighter already at exactly half LP (angeschlagen) that is hit again
    does not suffer «angeschlagen» again, so does not become «benommen» (Z01)."""
    game = make_game(
        [
            (fighter("Angreifer", kampfkunst=16, reflexe=12, weapons=(BLADE,)), (1, 1)),
            (fighter("Ziel", Side.GEGNER, lp=30), (2, 1)),
        ]
    )
    c = scripted(game, [*init_dice(game), 3, 4, 1, 1] + [5] * 20)
    t = c.fighters[1]
    t.lp = 15
    gain_condition(c, t, Condition.ANGESCHLAGEN)
    c.refresh_legal()
    c.apply(find(c, ActionKind.ATTACK, target=1, arg=0))
    if c.decision is not None and c.decision.kind is DecisionKind.DEFEND:
        c.apply(find(c, ActionKind.NO_DEFENCE))
    assert t.lp == 15 - 4
    assert t.has(Condition.ANGESCHLAGEN) and not t.has(Condition.BENOMMEN), lines(c)[-4:]


# -- D07 ------------------------------------------------------------------------------------
def test_d07_kampfunfaehig_runner_cannot_defend_even_with_mumm() -> None:
    """D07: «kampfunfähig» means no reactions, so an attack on the fallen is undefended —
    M05's extra reaction (Mumm) does not help either."""
    game = make_game(
        [
            (fighter("Schläger", Side.GEGNER, kampfkunst=16, reflexe=12, weapons=(BLADE,)), (1, 1)),
            (fighter("Kira", lp=20, mumm=3, mumm_max=3), (2, 1)),
            (fighter("Jax"), (8, 4)),  # keeps the fight going
        ]
    )
    c = scripted(game, [*init_dice(game), 3, 4, 1, 1] + [5] * 20)
    kira = c.fighters[1]
    kira.lp, kira.down, kira.reactions = -3, True, 0
    kira.conditions |= 1 << Condition.STERBEND
    c.refresh_legal()
    c.apply(find(c, ActionKind.ATTACK, target=1, arg=0))
    assert c.decision is None or c.decision.kind is not DecisionKind.DEFEND, lines(c)[-3:]
    assert not any(e for e in events_of(c, ev.ReactionUsed) if e.fighter == 1)


# -- D08 ------------------------------------------------------------------------------------
def test_d08_dying_check_is_on_unbeugsamkeit() -> None:
    """D08: 'muss der Spieler am Ende jeder Kampfrunde auf Unbeugsamkeit würfeln':
    Unbeugsamkeit 14, Reflexe 10; the roll 13 succeeds only on Unbeugsamkeit."""
    game = make_game(
        [
            (fighter("Angreifer", kampfkunst=16, reflexe=12, weapons=(BLADE,)), (1, 1)),
            (fighter("Ziel", Side.GEGNER, lp=22, unbeugsamkeit=14), (2, 1)),
            (fighter("Zweiter", Side.GEGNER, lp=30), (8, 4)),
        ]
    )
    c = scripted(game, init_dice(game) + [5, 6, 9, 9, 6, 7, 6] + [1] * 12)
    c.apply(find(c, ActionKind.ATTACK, target=1, arg=0))
    c.apply(find(c, ActionKind.NO_DEFENCE))
    t = c.fighters[1]
    assert t.lp == -5 and t.has(Condition.STERBEND)
    while c.round == 1:
        c.apply(find(c, ActionKind.END_TURN))
    dying = next(e for e in events_of(c, ev.CheckRolled) if e.purpose == "Sterben")
    assert labelled(dying.parts)[0] == ("Unbeugsamkeit", 14) and dying.success
    assert t.lp == -5 and not t.dead


def test_d08_healing_above_zero_does_not_end_sterbend() -> None:
    """D08: 'Das Heilen von Lebenspunkten auch über 0 hinaus, hebt den Zustand «sterbend»
    nicht auf': still sterbend, still kampfunfähig."""
    game = make_game([(fighter("Kira"), (1, 1)), (fighter("Wache", Side.GEGNER), (8, 1))])
    c = scripted(game, [5] * 20)
    kira = c.fighters[0]
    kira.lp, kira.down = -3, True
    kira.conditions |= 1 << Condition.STERBEND
    heal(c, kira, 10, "Heilung")
    assert kira.lp == 7
    assert kira.has(Condition.STERBEND) and kira.down and not kira.standing


# -- D09 ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("dice", "stabilised", "lp"),
    [
        ((6, 5), True, -3),  # 11 ≤ Technik 12 (> Unbeugsamkeit 10): success
        ((2, 3), True, -3),  # 5: QS 1 is enough
        ((7, 6), False, -3),  # 13: failure, nothing else happens
        ((9, 9, 2, 3), False, -3 - 2 - 3),  # Patzer: 1W10 direkt (2), + Z06's 1W10 (3, X29)
    ],
)
def test_d09_stabilise_on_technik_success_and_patzer(
    dice: tuple[int, ...], stabilised: bool, lp: int
) -> None:
    """D09: 'Dazu ist eine Probe auf Technik nötig. Bei Erfolg überlebt der Runner, bleibt
    aber bewusstlos. Bei einem Patzer erleidet er 1W10 Schaden' (X35: the patient, direkt)."""
    game = make_game(
        [
            (fighter("Kira", reflexe=12, technik=12), (1, 1)),
            (fighter("Jax", lp=20, ruestung=3), (2, 1)),
            (fighter("Wache", Side.GEGNER), (9, 4)),
        ]
    )
    c = scripted(game, init_dice(game) + list(dice) + [5] * 40)
    jax = c.fighters[1]
    jax.lp, jax.down = -3, True
    jax.conditions |= 1 << Condition.STERBEND
    c.refresh_legal()
    c.apply(find(c, ActionKind.STABILISE, target=1))
    check = [e for e in events_of(c, ev.CheckRolled) if "stabilisieren" in e.purpose][-1]
    assert labelled(check.parts)[0] == ("Technik", 12)
    assert jax.has(Condition.STERBEND) is not stabilised
    assert jax.stabilised is stabilised and jax.down
    assert jax.lp == lp, lines(c)[-4:]


# -- Z01 ------------------------------------------------------------------------------------
def test_z01_angeschlagen_also_penalises_the_defence() -> None:
    """Z01: '–2 auf alle körperlichen Aktionen und Reaktionen': Ausweichen is körperlich."""
    c = duel([3, 4, 4, 4])
    gain_condition(c, c.fighters[1], Condition.ANGESCHLAGEN)
    c.refresh_legal()
    c.apply(find(c, ActionKind.ATTACK, target=1, arg=0))
    c.apply(find(c, ActionKind.DEFEND))
    assert labelled(last_check(c).parts)[0][0] == "Ausweichen"
    assert ("angeschlagen", -2) in labelled(last_check(c).parts)


# -- Z03 / X40 ------------------------------------------------------------------------------
def test_z03_x40_halved_bewegung_rounds_down() -> None:
    """Z03 'wird deine Bewegung halbiert', X40: Bewegung 5 → 2 m (rounded down)."""
    c = duel([], runner={"bewegung": 5})
    gain_condition(c, c.fighters[0], Condition.EINGESCHRAENKT)
    c.refresh_legal()
    reach = {a.cell for a in c.legal_actions() if a.kind is ActionKind.MOVE}
    assert max(c.bm.distance(c.fighters[0].pos, x) for x in reach) == 2


def test_z03_b02_eingeschraenkt_halves_the_free_jump_too() -> None:
    """Z03 + B02: the free jump is half the (halved) Bewegung: 6 → 3 → 1 m, so the 2 m gap
    needs a Schwierige Bewegung."""
    from tests.test_rules_movement import cells, on_roof

    c = on_roof([], bewegung=6)
    gain_condition(c, c.fighters[0], Condition.EINGESCHRAENKT)
    c.refresh_legal()
    assert (5, 0) not in cells(c, ActionKind.MOVE)
    assert (5, 0) in cells(c, ActionKind.SCHWIERIG)


# -- Z04 ------------------------------------------------------------------------------------
def test_z04_entmutigt_does_not_penalise_the_defence() -> None:
    """Z04: '–2 auf alle Angriffe' — not on defences."""
    c = duel([3, 4, 4, 4])
    gain_condition(c, c.fighters[1], Condition.ENTMUTIGT)
    c.refresh_legal()
    c.apply(find(c, ActionKind.ATTACK, target=1, arg=0))
    c.apply(find(c, ActionKind.DEFEND))
    assert ("entmutigt", -2) not in labelled(last_check(c).parts)


# -- Z07 ------------------------------------------------------------------------------------
def test_z07_verwirrt_penalises_the_firewall_defence() -> None:
    """Z07: '–2 auf alle geistigen und Hacking-Aktionen und Reaktionen': Hackingabwehr."""
    c = duel([3, 4, 4, 4])
    gain_condition(c, c.fighters[1], Condition.VERWIRRT)
    c.refresh_legal()
    c.apply(find(c, ActionKind.HACK, target=1, arg=0))
    stay_up(c)
    c.apply(find(c, ActionKind.DEFEND, arg=int(CheckValue.FIREWALL)))
    assert labelled(last_check(c).parts)[0] == ("Firewall", 10)
    assert ("verwirrt", -2) in labelled(last_check(c).parts)


# -- Z08 ------------------------------------------------------------------------------------
def test_z08_x20_fire_zehrend_is_brechend() -> None:
    """Z08 'Rüstungen … wirken normal', D01 'Brechender Schaden … z.B. Feuer' (X20):
    1W10 = 7 against Rüstung 4 halved to 2 → 5."""
    game = make_game(
        [(fighter("Kira", reflexe=12, ruestung=4), (1, 1)), (fighter("Wache", Side.GEGNER), (8, 1))]
    )
    c = scripted(game, init_dice(game) + [7, 9, 9] + [5] * 40)  # 18: the Reflexe check fails
    gain_zehrend(c, c.fighters[0], "Feuer")
    while c.round == 1:
        c.apply(find(c, ActionKind.END_TURN))
    d = events_of(c, ev.DamageRolled)[0]
    assert d.armour == 2 and d.total == 5
    assert c.fighters[0].lp == 30 - 5


def test_z08_any_successful_check_ends_zehrend() -> None:
    """Z08: 'bei Erfolg endet der anhaltende Schaden' — QS 1 is enough (roll 5)."""
    game = make_game(
        [(fighter("Kira", reflexe=12), (1, 1)), (fighter("Wache", Side.GEGNER), (8, 1))]
    )
    c = scripted(game, init_dice(game) + [7, 2, 3] + [5] * 40)
    gain_zehrend(c, c.fighters[0], "Blutung")
    while c.round == 1:
        c.apply(find(c, ActionKind.END_TURN))
    check = next(e for e in events_of(c, ev.CheckRolled) if "Zehrend" in e.purpose)
    assert check.success and check.qs == 1
    assert c.fighters[0].zehrend == ()


# -- M04, M06: the Runner's own spends ------------------------------------------------------
def runner_attacked(dice: list[int], **kira: Any) -> Combat:
    """A Schläger (Reflexe 12, acts first) strikes Kira (Reflexe 10), who does not defend."""
    game = make_game(
        [
            (fighter("Schläger", Side.GEGNER, kampfkunst=16, reflexe=12, weapons=(BLADE,)), (1, 1)),
            (fighter("Kira", **kira), (2, 1)),
            (fighter("Jax"), (8, 4)),
        ]
    )
    c = scripted(game, [*init_dice(game), *dice] + [5] * 40)
    c.apply(find(c, ActionKind.ATTACK, target=1, arg=0))
    if c.decision is not None and c.decision.kind is DecisionKind.DEFEND:
        c.apply(find(c, ActionKind.NO_DEFENCE))
    return c


def test_m04_a_runner_cheats_death() -> None:
    """M04: 'Würde dein Runner sterben, kannst du 1 Mummpunkt bezahlen … bleibt bewusstlos
    bei 0 LP'. 5 LP − 33 = −28 ≤ −10 would kill Kira."""
    c = runner_attacked([5, 6, 10, 10, 10], lp=5, mumm=1, mumm_max=1)
    assert c.decision is not None and c.decision.kind is DecisionKind.DEATH
    assert c.decision.fighter == 1
    c.apply(find(c, ActionKind.AVERT_DEATH))
    kira = c.fighters[1]
    assert not kira.dead and kira.lp == 0 and kira.down and kira.mumm == 0


def test_m06_a_runner_halves_odd_damage_rounding_down() -> None:
    """M06: 'Halbiere den Schaden nach Abzug des Rüstungsschutzes. Dabei wird abgerundet':
    (6+1) + (7+1) = 15 → 7."""
    c = runner_attacked([3, 4, 6, 7], lp=30, mumm=2, mumm_max=2)
    assert c.decision is not None and c.decision.kind is DecisionKind.DAMAGE
    c.apply(find(c, ActionKind.HALVE_DAMAGE))
    assert events_of(c, ev.DamageHalved)[-1].before == 15
    assert c.fighters[1].lp == 30 - 7 and c.fighters[1].mumm == 0


# -- I03 ------------------------------------------------------------------------------------
def test_i03_a_fighter_still_acts_at_step_one() -> None:
    """I03: 'Ein Kämpfer erhält nur Handlungen bei einem Initiativeschritt von 1 oder höher':
    Initiative 21 → 21, 11 and 1."""
    from cwenv.engine.roundflow import initiative_steps

    assert initiative_steps(21) == (21, 11, 1)
    game = make_game(
        [(fighter("Kira", reflexe=11), (1, 1)), (fighter("Wache", Side.GEGNER), (8, 1))]
    )
    c = scripted(game, [4, 3, 3, 1, 1] + [5] * 40)  # Kira 11 + 10 = 21, Wache 10 + 2 = 12
    assert c.fighters[0].initiative == 21 and c.fighters[0].actions == 3
    while c.round == 1:
        c.apply(find(c, ActionKind.END_TURN))
    slots = [e.step for e in events_of(c, ev.TurnStarted) if e.fighter == 0]
    assert slots[:3] == [21, 11, 1]


# -- Z08 ------------------------------------------------------------------------------------
@pytest.mark.parametrize(("trait", "lp_lost"), [("resistances", 7 // 2), ("immunities", 0)])
def test_z08_zehrend_damage_meets_resistance_and_immunity(trait: str, lp_lost: int) -> None:
    """Z08: 'Rüstungen, Resistenzen und Immunitäten wirken normal gegen diesen Schaden'."""
    traits: dict[str, Any] = {trait: frozenset({"feuer"})}
    game = make_game(
        [
            (fighter("Kira", reflexe=12, **traits), (1, 1)),
            (fighter("Wache", Side.GEGNER), (8, 1)),
        ]
    )
    c = scripted(game, init_dice(game) + [7, 9, 9] + [5] * 40)
    gain_zehrend(c, c.fighters[0], "Feuer")
    while c.round == 1:
        c.apply(find(c, ActionKind.END_TURN))
    assert c.fighters[0].lp == 30 - lp_lost, lines(c)[-4:]


# -- M05 ------------------------------------------------------------------------------------
def test_m05_last_ordinary_reaction_is_used_before_mumm() -> None:
    """R01/M05: with one reaction left the defence costs that reaction, not Mumm (M05 is for
    'wenn du in dieser Runde bereits alle deine Reaktionen verbraucht hast')."""
    game = make_game(
        [
            (fighter("Schläger", Side.GEGNER, kampfkunst=16, reflexe=12, weapons=(BLADE,)), (1, 1)),
            (fighter("Kira", mumm=3, mumm_max=3), (2, 1)),
        ]
    )
    c = scripted(game, [*init_dice(game), 3, 4, 6, 6] + [5] * 40)
    kira = c.fighters[1]
    kira.reactions = 1
    c.refresh_legal()
    c.apply(find(c, ActionKind.ATTACK, target=1, arg=0))
    defend = find(c, ActionKind.DEFEND)
    assert defend.mumm == 0
    c.apply(defend)
    assert kira.reactions == 0 and kira.mumm == 3
    used = events_of(c, ev.ReactionUsed)[-1]
    assert used.fighter == 1 and not used.extra


# -- I04, I13: tie-breaks ---------------------------------------------------------------------
def test_i04_higher_grundwert_first_within_one_side() -> None:
    """I04: 'Der Kämpfer mit dem höheren Initiative-Grundwert handelt zuerst' applies before
    'Kämpfer derselben Fraktion bestimmen ihre Reihenfolge selbst' (X16): no ORDER prompt."""
    game = make_game(
        [
            (fighter("Jax", reflexe=10), (0, 0)),  # 2 dice: 10 + 2 + 3 = 15
            (fighter("Kira", reflexe=12), (0, 2)),  # 3 dice: 12 + 1 + 1 + 1 = 15
            (fighter("Wache", Side.GEGNER, reflexe=8), (9, 4)),
        ]
    )
    c = scripted(game, [2, 3, 1, 1, 1, 1, 1] + [5] * 20)
    assert c.fighters[0].initiative == c.fighters[1].initiative == 15
    assert c.decision is not None and c.decision.kind is DecisionKind.TURN
    assert events_of(c, ev.TurnStarted)[0].fighter == 1


def test_i13_higher_reflexe_beats_the_runner_first_rule() -> None:
    """I13: ties in the passes variant: higher Reflexe first, only then Runner before
    Gegner — a Gegner with Reflexe 17 goes before a Runner with Reflexe 12."""
    game = make_game(
        [
            (fighter("Kira", reflexe=12), (0, 0)),
            (fighter("Boss", Side.GEGNER, reflexe=17), (9, 4)),
        ],
        initiative=InitiativeSystem.PASSES,
    )
    c = scripted(game, [5, 5] + [5] * 20)
    assert events_of(c, ev.TurnStarted)[0].fighter == 1


# -- H08 / X15 ------------------------------------------------------------------------------
def test_h08_x15_sprint_adds_one_bewegung_on_a_wide_map() -> None:
    """H08: 'Bewege dich erneut um deine Bewegung': 4 + 4 = 8 m, not 12 (the default 10×5
    map cannot tell them apart)."""
    from tests.test_rules_turn import far, solo

    c = solo([], rows=["." * 20] * 3, enemy_at=(19, 2), bewegung=4)
    c.apply(find(c, ActionKind.SPRINT))
    assert far(c) == 8


# -- H12 / X04 ------------------------------------------------------------------------------
def test_h12_x04_angeschlagen_can_be_shaken_off_while_still_at_half_lp() -> None:
    """Z01/H12, X04 default: the Unbeugsamkeit check is open even at ≤ half LP."""
    c = duel([2, 2])
    kira = c.fighters[0]
    kira.lp = 10
    gain_condition(c, kira, Condition.ANGESCHLAGEN)
    c.refresh_legal()
    c.apply(find(c, ActionKind.SHAKE, arg=int(Condition.ANGESCHLAGEN)))
    assert not kira.has(Condition.ANGESCHLAGEN)


# -- B02 ------------------------------------------------------------------------------------
def test_b02_a_gap_of_exactly_half_bewegung_is_free() -> None:
    """B02: 'einen oder mehrere Abgründe … der seiner halben Bewegung … entspricht':
    Bewegung 4 → 2 m gap, no check."""
    from tests.test_rules_movement import cells, on_roof

    c = on_roof([], bewegung=4)
    assert (5, 0) in cells(c, ActionKind.MOVE)


def test_b02_sprinting_does_not_widen_the_free_jump() -> None:
    """B02: 'Dies ist auch in Kombination mit der Handlung «Sprinten» möglich, dies erhöht
    aber nicht die frei überwindbare Distanz': Bewegung 2 → free jump 1 m, also after
    sprinting (4 m left), so the 2 m gap stays closed."""
    from tests.test_rules_movement import cells, on_roof

    c = on_roof([], bewegung=2)
    c.apply(find(c, ActionKind.SPRINT))
    assert (5, 0) not in cells(c, ActionKind.MOVE)
    assert (6, 0) not in cells(c, ActionKind.MOVE)


# -- D07 / X05 ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("damage", "lp_after", "dead"), [((9, 9, 10), -11, False), ((9, 10, 10), -12, True)]
)
def test_d07_death_threshold_is_the_fighters_own_unbeugsamkeit(
    damage: tuple[int, int, int], lp_after: int, dead: bool
) -> None:
    """D07: 'stirbt endgültig, wenn seine Lebenspunkte unter den negativen Wert seiner
    Unbeugsamkeit fallen' — Unbeugsamkeit 12 (Reflexe 10): −11 lives, −12 dies (X05)."""
    game = make_game(
        [
            (fighter("Angreifer", kampfkunst=16, reflexe=12, weapons=(BLADE,)), (1, 1)),
            (fighter("Ziel", Side.GEGNER, lp=20, unbeugsamkeit=12), (2, 1)),
        ]
    )
    # QS 3 (roll 11), three W10+1 from 20 LP
    c = scripted(game, [*init_dice(game), 5, 6, *damage] + [5] * 20)
    c.apply(find(c, ActionKind.ATTACK, target=1, arg=0))
    c.apply(find(c, ActionKind.NO_DEFENCE))
    t = c.fighters[1]
    assert t.lp == lp_after and t.dead is dead


# -- M07 ------------------------------------------------------------------------------------
def test_m07_extra_action_is_available_again_next_round() -> None:
    """M07: 'nur einmal pro Runde' — once per round, so again in round 2."""
    from tests.test_rules_mumm import duel as mumm_duel

    c2 = mumm_duel([], enemy={"lp": 80})
    c2.fighters[0].extra_action_used = True  # spent earlier this round
    while c2.round == 1:
        d = c2.decision
        assert d is not None
        c2.apply(
            find(c2, ActionKind.END_TURN) if d.kind is DecisionKind.TURN else c2.legal_actions()[-1]
        )
    while c2.current_fighter() != 0:
        c2.apply(find(c2, ActionKind.END_TURN))
    assert not c2.fighters[0].extra_action_used
    c2.apply(find(c2, ActionKind.SPRINT))  # the Handlung is used: M07 is offered now
    assert any(a.kind is ActionKind.MUMM_EXTRA_ACTION for a in c2.legal_actions())


# -- B02/B06: min. 1 m ----------------------------------------------------------------------
def test_b06_b02_minimum_one_metre_for_slow_fighters() -> None:
    """B06 'weniger als der halben Bewegung (min. 1 Meter)', B02 '(min. 1 Meter)':
    Bewegung 1 still steps down 1 m without a check, and after sprinting clears a 1 m gap.
    The gap runs across the whole roof, so no way round it reaches (2, 0) (#15)."""
    from tests.test_rules_movement import cells, on_roof

    c = on_roof(
        [],
        start=(0, 0),
        enemy_at=(9, 2),
        rows=["." * 10] * 3,
        elev=["1000000000", "1111111111", "1111111111"],
        bewegung=1,
    )
    assert (1, 0) in cells(c, ActionKind.MOVE)  # 1 m down
    gap = on_roof(
        [],
        start=(0, 0),
        enemy_at=(9, 2),
        rows=["." * 10] * 3,
        elev=["6066666666"] * 3,
        bewegung=1,
    )
    assert (2, 0) not in cells(gap, ActionKind.MOVE)  # the jump costs 2 m: 1 m left
    gap.apply(find(gap, ActionKind.SPRINT))
    assert (2, 0) in cells(gap, ActionKind.MOVE)  # 1 m gap: cost 2 = Bewegung + sprint


# -- B04 ------------------------------------------------------------------------------------
def test_b04_swimming_is_unbeugsamkeit_at_half_speed() -> None:
    """B04: 'Schwimmen erfordert immer ein Probe auf Unbeugsamkeit … halbiert': diagonally
    over the river 2 + 2, then on land: (4, 2) costs 6, (5, 2) would cost 7 (the target cell
    is kept free; the old test's (5, 2) held the Wache, so it proved nothing)."""
    from tests.test_rules_movement import cells, on_roof

    rows = ["......", "~~~~~~", "......"]
    c = on_roof(
        [4, 5],
        start=(0, 0),
        enemy_at=(5, 0),
        rows=rows,
        elev=["000000"] * 3,
        bewegung=6,
        unbeugsamkeit=12,
        infiltration=8,
    )
    swim = cells(c, ActionKind.SCHWIERIG)
    assert (4, 2) in swim and (5, 2) not in swim
    c.apply(find(c, ActionKind.SCHWIERIG, cell=c.bm.index(0, 2)))
    assert labelled(events_of(c, ev.CheckRolled)[-1].parts)[0] == ("Unbeugsamkeit", 12)


# -- B05 ------------------------------------------------------------------------------------
def test_b05_fall_damage_is_brechend() -> None:
    """B05: '1W10 brechender Schaden pro 3 Meter': 6 m = 2 dice (4, 3) against Rüstung 4,
    halved to 2 → 2 + 1 = 3."""
    from tests.test_rules_movement import on_roof

    c = on_roof([9, 8, 4, 3], bewegung=3, infiltration=12, ruestung=4)
    c.apply(find(c, ActionKind.SCHWIERIG, cell=c.bm.index(5, 0)))
    d = events_of(c, ev.DamageRolled)[-1]
    assert d.armour == 2 and d.total == 3
    assert c.fighters[0].lp == 30 - 3


def test_b05_r05_catching_reaction_removes_qs_dice() -> None:
    """R05/B05: the catch roll 2 + 4 = 6 → QS 2 removes both dice of a 6 m fall."""
    rows = ["......", "......"]
    elev = ["666000", "666000"]
    game = make_game(
        [
            (fighter("Schläger", Side.GEGNER, reflexe=12, kampfkunst=16), (1, 0)),
            (fighter("Kira", infiltration=12), (2, 0)),
        ],
        rows=rows,
        elevation=elev,
    )
    c = scripted(game, init_dice(game) + [3, 4, 2, 4] + [5] * 40)
    c.apply(find(c, ActionKind.MANEUVER, target=1, arg=4))
    c.apply(find(c, ActionKind.NO_DEFENCE))
    c.apply(find(c, ActionKind.CATCH_FALL))
    fell = events_of(c, ev.Fell)[-1]
    assert fell.metres == 6 and fell.dice == 0
    assert c.fighters[1].lp == 30


# -- B06 ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("reading", "prompted"),
    [(DropAbsorbed.BELOW_HALF, True), (DropAbsorbed.UP_TO_HALF, False)],
)
def test_b06_forced_fall_uses_the_same_boundary_as_walking_down(
    reading: DropAbsorbed, prompted: bool
) -> None:
    """B06 'Ein Sturz von weniger als der halben Bewegung (min. 1 Meter) kann als Teil der
    regulären Bewegung abgefangen werden': pushed off a 3 m ledge with Bewegung 6, Kira
    falls (and may catch it with a reaction) — unless the X18 reading absorbs exactly half."""
    game = make_game(
        [
            (fighter("Schläger", Side.GEGNER, reflexe=12, kampfkunst=16), (1, 0)),
            (fighter("Kira", infiltration=12), (2, 0)),
        ],
        rows=["......", "......"],
        elevation=["333000", "333000"],
        drop_absorbed=reading,
    )
    c = scripted(game, init_dice(game) + [3, 4] + [5] * 40)
    c.apply(find(c, ActionKind.MANEUVER, target=1, arg=4))
    c.apply(find(c, ActionKind.NO_DEFENCE))
    assert (c.decision is not None and c.decision.kind is DecisionKind.STURZ) is prompted
    assert c.bm.elevation[c.fighters[1].pos] == 0
