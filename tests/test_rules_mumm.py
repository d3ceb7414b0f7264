"""Every Mumm spend at the moment the rules allow it (M01–M09, M11, X10, X11, X30, X38)."""

from __future__ import annotations

from typing import Any

import pytest

from cwenv.engine import events as ev
from cwenv.engine.actions import ActionKind, DecisionKind
from cwenv.engine.conditions import gain_condition
from cwenv.engine.parts import labelled
from cwenv.engine.state import Combat
from cwenv.model.specs import WeaponSpec
from cwenv.model.types import CheckValue, Condition, Side, WeaponKind
from cwenv.rules.options import ShakeTiming
from tests.helpers import events_of, fighter, find, init_dice, lines, make_game, scripted

BLADE = WeaponSpec("Klinge", WeaponKind.MELEE, bonus=1)


def duel(
    dice: list[int],
    *,
    runner: dict[str, Any] | None = None,
    enemy: dict[str, Any] | None = None,
    **options: Any,
) -> Combat:
    """Kira (Reflexe 12, Kampfkunst 12, Mumm 5) acts first next to a Wache (Reflexe 10)."""
    r = {
        "kampfkunst": 12,
        "reflexe": 12,
        "weapons": (BLADE,),
        "mumm": 5,
        "mumm_max": 5,
        **(runner or {}),
    }
    e = {"lp": 40, "kampfkunst": 12, "weapons": (BLADE,), **(enemy or {})}
    game = make_game(
        [(fighter("Kira", **r), (1, 1)), (fighter("Wache", Side.GEGNER, **e), (2, 1))], **options
    )
    return scripted(game, init_dice(game) + dice + [5] * 60)


def checks(c: Combat) -> list[ev.CheckRolled]:
    return events_of(c, ev.CheckRolled)


def spent(c: Combat) -> list[str]:
    return [e.spend.label for e in events_of(c, ev.MummSpent)]


def attack(c: Combat) -> None:
    c.apply(find(c, ActionKind.ATTACK, target=1, arg=0))


def test_m02_probe_verbessern_adds_two_before_the_roll() -> None:
    c = duel([6, 7])  # 13 > 12 would miss; with +2 it hits (13 ≤ 14)
    attack(c)
    assert c.decision is not None and c.decision.kind is DecisionKind.PRE_CHECK
    c.apply(find(c, ActionKind.PRE_IMPROVE))
    c.apply(find(c, ActionKind.PRE_NONE))  # M09 may still follow (X38); declined
    check = checks(c)[-1]
    assert ("Mumm", 2) in labelled(check.parts) and check.probenwert == 14 and check.success
    assert c.fighters[0].mumm == 4 and spent(c) == ["Probe verbessern"]


def test_x38_one_improvement_per_check_by_default_two_when_allowed() -> None:
    c = duel([6, 7])
    attack(c)
    c.apply(find(c, ActionKind.PRE_IMPROVE))
    assert ActionKind.PRE_IMPROVE not in {a.kind for a in c.legal_actions()}
    c2 = duel([6, 7], mumm_improve_per_check=2)
    attack(c2)
    c2.apply(find(c2, ActionKind.PRE_IMPROVE))
    c2.apply(find(c2, ActionKind.PRE_IMPROVE))
    c2.apply(find(c2, ActionKind.PRE_NONE))
    assert checks(c2)[-1].probenwert == 16


def test_m09_grosser_wurf_is_an_automatic_volltreffer_at_top_qs() -> None:
    """M09, X06: 3 Mumm before the roll: Volltreffer, QS = band of the Probenwert (12 → 3)."""
    c = duel([2, 2, 2, 2, 2])  # no attack dice; table 2+2 − 3 = 1 → Verheerender Treffer
    attack(c)
    c.apply(find(c, ActionKind.PRE_GROSSER_WURF))
    c.apply(find(c, ActionKind.NO_DEFENCE))
    check = checks(c)[-1]
    assert check.forced and check.volltreffer and check.qs == 3
    assert c.fighters[0].mumm == 2
    assert events_of(c, ev.TableRolled)[-1].row == "Verheerender Treffer"


def test_m03_reroll_then_choose_which_result_stands() -> None:
    c = duel([7, 8, 2, 3])  # 15 misses; reroll 5 hits
    attack(c)
    c.apply(find(c, ActionKind.PRE_NONE))
    assert c.decision is not None and c.decision.kind is DecisionKind.POST_CHECK
    c.apply(find(c, ActionKind.POST_REROLL))
    assert c.decision is not None and c.decision.kind is DecisionKind.KEEP
    c.apply(find(c, ActionKind.KEEP_SECOND))
    c.apply(find(c, ActionKind.NO_DEFENCE))
    assert [x.d1 + x.d2 for x in checks(c)] == [15, 5]
    assert any(isinstance(e, ev.Hit) for e in c.events)


def test_m03_keeping_the_first_result() -> None:
    c = duel([2, 3, 7, 8])  # 5 hits (QS 1); the reroll 15 misses; keep the first
    attack(c)
    c.apply(find(c, ActionKind.PRE_NONE))
    c.apply(find(c, ActionKind.POST_REROLL))
    c.apply(find(c, ActionKind.KEEP_FIRST))
    c.apply(find(c, ActionKind.NO_DEFENCE))
    assert any(isinstance(e, ev.Hit) for e in c.events)


def test_m03_a_patzer_cannot_be_rerolled_m01_averts_it() -> None:
    """M03: 'Patzer können nicht wiederholt werden'; M01 turns it into a plain failure."""
    c = duel([9, 9])
    attack(c)
    c.apply(find(c, ActionKind.PRE_NONE))
    kinds = {a.kind for a in c.legal_actions()}
    assert ActionKind.POST_REROLL not in kinds and ActionKind.POST_AVERT in kinds
    c.apply(find(c, ActionKind.POST_AVERT))
    assert not events_of(c, ev.TableRolled), "an averted Patzer rolls no Patzer table"
    assert spent(c) == ["Patzer abwenden"]


def test_without_mumm_no_prompts() -> None:
    c = duel([9, 9], runner={"mumm": 0})
    attack(c)
    assert events_of(c, ev.TableRolled)[-1].table is ev.TableKind.PATZER


def test_m05_extra_reaction_with_no_reactions_left() -> None:
    """M05: a defence even with no reactions left, for 1 Mumm."""
    c = duel([3, 4, 3, 3], enemy={"mumm": 2, "mumm_max": 2}, runner={"mumm": 0})
    c.fighters[1].reactions = 0
    attack(c)
    defend = [a for a in c.legal_actions() if a.kind is ActionKind.DEFEND]
    assert defend and all(a.mumm == 1 for a in defend)
    c.apply(defend[0])
    assert c.fighters[1].mumm == 1 and c.fighters[1].reactions == 0
    assert events_of(c, ev.ReactionUsed)[-1].extra


def test_no_reaction_no_mumm_means_undefended() -> None:
    c = duel([3, 4, 3, 3], runner={"mumm": 0})
    c.fighters[1].reactions = 0
    attack(c)
    assert c.decision is not None and c.decision.kind is DecisionKind.TURN
    assert any(isinstance(e, ev.Hit) for e in c.events)


def test_m06_treffer_wegstecken_halves_after_armour() -> None:
    """M06: 2 Mumm when taking damage: halve it after armour, rounding down."""
    c = duel([3, 4, 6, 8], runner={"mumm": 0}, enemy={"mumm": 2, "mumm_max": 2, "ruestung": 1})
    attack(c)
    c.apply(find(c, ActionKind.NO_DEFENCE))
    assert c.decision is not None and c.decision.kind is DecisionKind.DAMAGE
    c.apply(find(c, ActionKind.HALVE_DAMAGE))
    assert events_of(c, ev.DamageHalved)[-1].before == 6 + 8  # (6+1−1) + (8+1−1)
    assert c.fighters[1].lp == 40 - 7


def test_m04_dem_tod_von_der_schippe_springen() -> None:
    """M04, X30: would die → 1 Mumm: unconscious at 0 LP, no longer dying."""
    c = duel([5, 6, 10, 10, 10], runner={"mumm": 0}, enemy={"mumm": 1, "mumm_max": 1, "lp": 10})
    attack(c)
    c.apply(find(c, ActionKind.NO_DEFENCE))
    assert c.decision is not None and c.decision.kind is DecisionKind.DEATH
    c.apply(find(c, ActionKind.AVERT_DEATH))
    w = c.fighters[1]
    assert not w.dead and w.lp == 0 and w.down and not w.has(Condition.STERBEND)


def test_m04_refused_means_death() -> None:
    c = duel([5, 6, 10, 10, 10], runner={"mumm": 0}, enemy={"mumm": 1, "mumm_max": 1, "lp": 10})
    attack(c)
    c.apply(find(c, ActionKind.NO_DEFENCE))
    c.apply(find(c, ActionKind.ACCEPT_DEATH))
    assert c.fighters[1].dead


def test_m07_extra_action_once_per_round() -> None:
    """M07: 2 Mumm for another Handlung (with movement, X38) once per round."""
    c = duel([2, 3, 2, 2, 2, 3, 2, 2], enemy={"lp": 80})
    attack(c)
    while c.decision is not None and c.decision.kind is not DecisionKind.TURN:
        c.apply(c.legal_actions()[-1])
    c.apply(find(c, ActionKind.MUMM_EXTRA_ACTION))
    assert c.fighters[0].mumm == 3
    assert any(a.kind is ActionKind.ATTACK for a in c.legal_actions())
    assert any(a.kind is ActionKind.MOVE for a in c.legal_actions())
    attack(c)
    while c.decision is not None and c.decision.kind is not DecisionKind.TURN:
        c.apply(c.legal_actions()[-1])
    assert not any(a.kind is ActionKind.MUMM_EXTRA_ACTION for a in c.legal_actions())


def test_m08_zustand_abschuetteln_not_sterbend() -> None:
    c = duel([])
    f = c.fighters[0]
    gain_condition(c, f, Condition.VERWIRRT)
    f.conditions |= 1 << Condition.STERBEND
    c.refresh_legal()
    shakes = {a.arg for a in c.legal_actions() if a.kind is ActionKind.MUMM_SHAKE}
    assert int(Condition.VERWIRRT) in shakes and int(Condition.STERBEND) not in shakes
    c.apply(find(c, ActionKind.MUMM_SHAKE, arg=int(Condition.VERWIRRT)))
    assert not f.has(Condition.VERWIRRT) and f.mumm == 3
    assert any(a.kind is ActionKind.ATTACK for a in c.legal_actions()), "M08 is no Handlung"


def test_m08_shaking_benommen_lets_the_fighter_act() -> None:
    c = duel([])
    gain_condition(c, c.fighters[1], Condition.BENOMMEN)
    c.fighters[1].mumm = 2
    c.fighters[1].mumm_max = 2
    c.apply(find(c, ActionKind.END_TURN))
    # The Wache's turn: shake benommen with Mumm instead of the Mumm-Probe.
    c.apply(find(c, ActionKind.MUMM_SHAKE, arg=int(Condition.BENOMMEN)))
    assert any(a.kind is ActionKind.ATTACK for a in c.legal_actions()), lines(c)[-3:]


@pytest.mark.parametrize(("verbrennen", "prompted"), [(False, False), (True, True)])
def test_m11_x10_entmutigt_cannot_spend_unless_burning(verbrennen: bool, prompted: bool) -> None:
    c = duel([3, 4, 3, 3], mumm_verbrennen=verbrennen)
    gain_condition(c, c.fighters[0], Condition.ENTMUTIGT)
    c.refresh_legal()
    attack(c)
    assert (c.decision is not None and c.decision.kind is DecisionKind.PRE_CHECK) is prompted
    if prompted:
        c.apply(find(c, ActionKind.PRE_IMPROVE))
        assert c.fighters[0].mumm == 4 and c.fighters[0].mumm_max == 4  # burnt


@pytest.mark.parametrize(("nsc_mumm", "prompted"), [(True, True), (False, False)])
def test_x11_nsc_mumm(nsc_mumm: bool, prompted: bool) -> None:
    c = duel([3, 4, 3, 3], runner={"mumm": 0}, enemy={"mumm": 2, "mumm_max": 2}, nsc_mumm=nsc_mumm)
    attack(c)
    c.apply(find(c, ActionKind.NO_DEFENCE))
    assert (c.decision is not None and c.decision.kind is DecisionKind.DAMAGE) is prompted


# -- M08 at prompts: 'sofort' (X38 mumm_shake_timing) ---------------------------------------
def decline_until(c: Combat, fighter: int) -> None:
    """Answer every decision of other fighters with its declining (last) choice."""
    while c.decision is not None and c.decision.fighter != fighter:
        c.apply(c.legal_actions()[-1])


def shakes_of(c: Combat) -> set[int]:
    return {a.arg for a in c.legal_actions() if a.kind is ActionKind.MUMM_SHAKE}


@pytest.mark.parametrize("shake", [True, False])
def test_m08_before_the_defence_roll_takes_the_malus_off(shake: bool) -> None:
    """M08 'sofort': the Wache, niedergeworfen (−2 on defences, Z05), shakes it off at its
    defence check's prompt; the check is rolled without the malus."""
    c = duel([3, 4, 4, 4], enemy={"mumm": 4, "mumm_max": 4})
    w = c.fighters[1]
    gain_condition(c, w, Condition.NIEDERGEWORFEN)
    attack(c)
    decline_until(c, 1)
    assert c.decision is not None and c.decision.kind is DecisionKind.DEFEND
    assert shakes_of(c) == {int(Condition.NIEDERGEWORFEN)}
    c.apply(find(c, ActionKind.DEFEND, arg=int(CheckValue.AUSWEICHEN)))
    assert c.decision is not None and c.decision.kind is DecisionKind.PRE_CHECK
    if shake:
        c.apply(find(c, ActionKind.MUMM_SHAKE, arg=int(Condition.NIEDERGEWORFEN)))
        assert c.decision is not None and c.decision.kind is DecisionKind.PRE_CHECK
        assert c.decision.fighter == 1 and not shakes_of(c) and w.mumm == 2
    c.apply(find(c, ActionKind.PRE_NONE))
    defence = checks(c)[-1]
    assert defence.fighter == 1
    assert ("niedergeworfen" in dict(labelled(defence.parts))) is not shake
    assert defence.probenwert == (10 if shake else 8)  # Ausweichen = Reflexe 10
    assert w.has(Condition.NIEDERGEWORFEN) is not shake


@pytest.mark.parametrize("timing", list(ShakeTiming))
def test_m08_a_benommen_defender_may_shake_it_off_and_defend(timing: ShakeTiming) -> None:
    """X24: benommen blocks reactions. Under 'sofort' (default) the Wache is asked anyway,
    with only the shake and no defence; after shaking Benommen it may defend. Under the
    own-turn reading it is not asked at all."""
    c = duel([3, 4, 4, 4], enemy={"mumm": 2, "mumm_max": 2}, mumm_shake_timing=timing)
    w = c.fighters[1]
    gain_condition(c, w, Condition.BENOMMEN)
    attack(c)
    decline_until(c, 1)
    if timing is ShakeTiming.OWN_TURN:
        assert not any(isinstance(e, ev.DefenceDeclined) for e in c.events)
        assert any(isinstance(e, ev.Hit) for e in c.events)
        return
    assert c.decision is not None and c.decision.kind is DecisionKind.DEFEND
    assert {a.kind for a in c.legal_actions()} == {ActionKind.MUMM_SHAKE, ActionKind.NO_DEFENCE}
    c.apply(find(c, ActionKind.MUMM_SHAKE, arg=int(Condition.BENOMMEN)))
    assert not w.has(Condition.BENOMMEN) and w.mumm == 0
    assert c.decision is not None and c.decision.kind is DecisionKind.DEFEND
    defend = [a for a in c.legal_actions() if a.kind is ActionKind.DEFEND]
    assert defend and all(a.mumm == 0 for a in defend)


def test_m08_a_choice_left_alone_after_the_shake_is_taken() -> None:
    """After a shake that leaves too little Mumm for M06, the DAMAGE prompt has one choice
    (take the damage): it is no decision, and the combat runs on."""
    c = duel([3, 4, 6, 8], runner={"mumm": 0}, enemy={"mumm": 2, "mumm_max": 2})
    w = c.fighters[1]
    gain_condition(c, w, Condition.ANGESCHLAGEN)
    attack(c)
    c.apply(find(c, ActionKind.NO_DEFENCE))
    assert c.decision is not None and c.decision.kind is DecisionKind.DAMAGE
    c.apply(find(c, ActionKind.MUMM_SHAKE, arg=int(Condition.ANGESCHLAGEN)))
    assert w.mumm == 0 and not w.has(Condition.ANGESCHLAGEN)
    assert not any(isinstance(e, ev.DamageHalved) for e in c.events)
    assert w.lp < 40 and c.decision is not None and c.decision.kind is DecisionKind.TURN


@pytest.mark.parametrize("doctrine", ["stuermer", "schuetze", "taktiker"])
def test_m08_doctrines_shake_benommen_off_to_defend(doctrine: str) -> None:
    """The doctrines spend M08 at a prompt as in their turn (condition worth > 2 Mumm):
    a benommen Wache facing a hit shakes Benommen off, then may defend."""
    import random

    from cwenv.agent import DecisionView
    from cwenv.agent_registry import make_agent

    c = duel([3, 4, 4, 4], enemy={"mumm": 2, "mumm_max": 2})
    gain_condition(c, c.fighters[1], Condition.BENOMMEN)
    attack(c)
    decline_until(c, 1)
    choice = make_agent(doctrine).act(DecisionView(c), c.legal_actions(), random.Random(0))
    assert choice == find(c, ActionKind.MUMM_SHAKE, arg=int(Condition.BENOMMEN))


def test_m08_shaking_my_condition_keeps_the_prone_targets_malus() -> None:
    """Only the roller's own malus leaves the Probenwert: the target's R06 'niedergeworfen'
    part has the same label and stays (review finding)."""
    c = duel([6, 6], niederwerfen_vs_melee=True)
    kira, wache = c.fighters
    gain_condition(c, kira, Condition.ANGESCHLAGEN)
    wache.prone_bonus = True
    c.refresh_legal()
    attack(c)
    c.apply(find(c, ActionKind.MUMM_SHAKE, arg=int(Condition.ANGESCHLAGEN)))
    c.apply(find(c, ActionKind.PRE_NONE))
    rolled = checks(c)[-1]
    assert dict(labelled(rolled.parts)).get("niedergeworfen") == -2 and "angeschlagen" not in dict(
        labelled(rolled.parts)
    )
    assert rolled.probenwert == 12 - 2


def test_m08_not_offered_to_the_dying_so_m04_stays_affordable() -> None:
    """A kampfunfähig fighter gets no M08 (nothing to gain, X44): at the DEATH prompt its
    last Mumm stays for M04."""
    from cwenv.engine.damage import LoseLPFrame

    c = duel([], runner={"mumm": 2, "mumm_max": 2})
    kira = c.fighters[0]
    gain_condition(c, kira, Condition.ANGESCHLAGEN)
    c._stack.append(LoseLPFrame(0, 100, "Test", True))
    c._pending = None
    c._run(None)
    assert c.decision is not None and c.decision.kind is DecisionKind.DEATH
    assert kira.down and not shakes_of(c)
    c.apply(find(c, ActionKind.AVERT_DEATH))
    assert not kira.dead


def test_m08_a_single_choice_left_by_restricted_play_is_no_decision() -> None:
    """With M08 forbidden (restricted play) the benommen defender has only 'no defence':
    it is not asked at all."""
    c = duel([3, 4, 4, 4], enemy={"mumm": 2, "mumm_max": 2})
    c.forbid(Side.GEGNER, ["M08"])
    gain_condition(c, c.fighters[1], Condition.BENOMMEN)
    attack(c)
    decline_until(c, 1)
    assert c.decision is None or c.decision.kind is not DecisionKind.DEFEND
    assert any(isinstance(e, ev.Hit) for e in c.events)


def test_m08_benommen_is_not_shaken_during_the_forced_mumm_probe() -> None:
    """Z02: the turn's Handlung is the Mumm-Probe either way; M08 on Benommen belongs to the
    TURN decision before it, not to the probe's own prompt."""
    c = duel([], enemy={"mumm": 4, "mumm_max": 4})
    gain_condition(c, c.fighters[1], Condition.BENOMMEN)
    gain_condition(c, c.fighters[1], Condition.ANGESCHLAGEN)
    c.apply(find(c, ActionKind.END_TURN))
    assert int(Condition.BENOMMEN) in shakes_of(c)  # the TURN decision offers it
    c.apply(find(c, ActionKind.MUMM_PROBE))
    assert c.decision is not None and c.decision.kind is DecisionKind.PRE_CHECK
    assert shakes_of(c) == {int(Condition.ANGESCHLAGEN)}
