"""Fidelity to the German rules text (issue #15): the checks, attacks, Mumm spends and
conditions where the engine read the text differently from what it says, and the open
readings turned into named rule options (tests fail on the code before each fix)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest

from cwenv.engine import events as ev
from cwenv.engine.actions import ActionKind, DecisionKind
from cwenv.engine.conditions import gain_condition
from cwenv.engine.hits import damage_bonus
from cwenv.engine.movement import movement_allowance
from cwenv.engine.state import Combat
from cwenv.engine.turn import turn_of
from cwenv.model.specs import UNARMED, HackSpec
from cwenv.model.types import Condition, Maneuver, Side
from cwenv.rules.odds import attack_odds
from cwenv.rules.options import (
    DEFAULT_OPTIONS,
    DisarmedDamage,
    GrosserWurfRoll,
    LoneWinnerQS,
    ManeuverCrit,
    PatzerDefence,
    TieQS,
)
from cwenv.rules.probe import ContestResult, contest, resolve_probe
from tests.helpers import KNIFE, fighter, find, make_game
from tests.test_rules_cover import INIT3, TAIL, fight, of, shoot
from tests.test_rules_maneuvers import INIT as MANEUVER_INIT, maneuver, setup
from tests.test_rules_mumm import duel


# -- C05 with a Pasch (item 12) -------------------------------------------------------------
@pytest.mark.parametrize(("d10", "redirected"), [(3, True), (7, False)])
def test_c05_a_pasch_that_fails_only_by_living_cover(d10: int, redirected: bool) -> None:
    """C05 'Wäre der Angriff ohne den Deckungsabzug erfolgreich gewesen': 6+6 = 12 fails
    against Fernkampf 14 − 4 (an enemy between) but would have hit without the cover, so
    the 50 % is rolled — a W10 of 3 hits the covering creature with the roll's Volltreffer
    (QS from Probenwert 14); a 7 spares it and the failed Pasch stays a Patzer (P06)."""
    body = fighter("Dazwischen", Side.GEGNER, lp=80)
    c = fight([*INIT3, 6, 6, d10, *TAIL], extra=((body, (3, 2)),))
    shoot(c)
    assert of(c, ev.CheckRolled)[-1].probenwert == 10
    tables = [e.table for e in of(c, ev.TableRolled)]
    if not redirected:
        assert not of(c, ev.AttackRedirected)
        assert tables == [ev.TableKind.PATZER]
        return
    assert of(c, ev.AttackRedirected)[-1] == ev.AttackRedirected(0, 1, 2, d10)
    assert c.decision.kind is DecisionKind.DEFEND and c.decision.fighter == 2
    c.apply(next(a for a in c.legal_actions() if a.kind is ActionKind.NO_DEFENCE))
    hit = of(c, ev.Hit)[-1]
    assert hit.target == 2 and hit.qs == 3
    assert ev.TableKind.PATZER not in tables
    assert ev.TableKind.VOLLTREFFER in [e.table for e in of(c, ev.TableRolled)]


# -- Z02/M07: the extra action after a successful Mumm-Probe (item 7) ---------------------------
def _benommen_turn(probe: tuple[int, int]) -> Combat:
    """The Wache (Mumm 4) starts its turn benommen and rolls the Mumm-Probe (Z02)."""
    c = duel([*probe], enemy={"mumm": 4, "mumm_max": 4})
    gain_condition(c, c.fighters[1], Condition.BENOMMEN)
    c.apply(find(c, ActionKind.END_TURN))
    c.apply(find(c, ActionKind.MUMM_PROBE))
    while c.decision is not None and c.decision.kind in (
        DecisionKind.PRE_CHECK,
        DecisionKind.POST_CHECK,
    ):
        c.apply(
            find(
                c,
                ActionKind.PRE_NONE
                if c.decision.kind is DecisionKind.PRE_CHECK
                else ActionKind.POST_ACCEPT,
            )
        )
    return c


def test_m07_after_a_successful_mumm_probe() -> None:
    """M07 'während deiner Initiativephase eine zusätzliche Aktion': the Mumm-Probe (3+4 = 7)
    ends Benommen and used the turn's Handlung, so 2 Mumm buy one more — an attack, with
    one movement allowance (X38 mumm_extra_action_moves); the benommen turn's own
    movement stays lost (X40)."""
    c = _benommen_turn((3, 4))
    wache = c.fighters[1]
    assert not wache.has(Condition.BENOMMEN)
    assert c.decision is not None and c.decision.kind is DecisionKind.TURN
    assert c.decision.fighter == 1
    kinds = {a.kind for a in c.legal_actions()}
    assert kinds == {ActionKind.MUMM_EXTRA_ACTION, ActionKind.END_TURN}
    c.apply(find(c, ActionKind.MUMM_EXTRA_ACTION))
    assert wache.mumm == 2
    kinds = {a.kind for a in c.legal_actions()}
    assert ActionKind.ATTACK in kinds and ActionKind.MOVE in kinds
    turn = turn_of(c, 1)
    assert turn.move_left(c, wache) == movement_allowance(c, wache)


def test_m07_not_after_a_failed_mumm_probe() -> None:
    """Z02 'Solange du benommen bist, kannst du nicht handeln': 8+9 = 17 fails, the Wache
    stays benommen and is offered no M07 (only M08, and ending the turn)."""
    c = _benommen_turn((8, 9))
    assert c.fighters[1].has(Condition.BENOMMEN)
    assert c.decision is not None and c.decision.fighter == 1  # M08 on Benommen is left
    kinds = {a.kind for a in c.legal_actions()}
    assert kinds == {ActionKind.MUMM_SHAKE, ActionKind.END_TURN}


# -- X33: the Volltreffer table for a Kampfmanöver without damage (item 13) -----------------
@pytest.mark.parametrize(
    ("rows", "table", "zehrend", "verwirrt"),
    [
        (ManeuverCrit.CONDITIONS, (3, 3), False, False),  # Tiefe Wunde: its Blutung is damage
        (ManeuverCrit.CONDITIONS, (4, 4), False, True),  # Kopftreffer: verwirrt stays
        (ManeuverCrit.ALL_ROWS, (3, 3), True, False),
        (ManeuverCrit.ALL_ROWS, (4, 4), False, True),
        (ManeuverCrit.NONE, (3, 3), False, False),
        (ManeuverCrit.NONE, (4, 4), False, False),
    ],
)
def test_x33_volltreffer_rows_of_a_maneuver_without_damage(
    rows: ManeuverCrit, table: tuple[int, int], zehrend: bool, verwirrt: bool
) -> None:
    """A07/X33 with maneuver_damage false: Kira's Umreissen rolls 3+3 (a Volltreffer, QS 3
    from Kampfkunst 14); the table's 2W10 − 3 gives Tiefe Wunde (3+3) or Kopftreffer (4+4).
    By default ('damage rows void') only the condition acts — no bleeding from a throw;
    all_rows also starts Zehrend (LP, Blutung); none rolls no table at all."""
    c = setup([*MANEUVER_INIT, 3, 3, *table, *TAIL], maneuver_volltreffer_rows=rows)
    maneuver(c, Maneuver.UMREISSEN)
    wache = c.fighters[1]
    assert of(c, ev.Hit)[-1].qs == 3 and wache.has(Condition.NIEDERGEWORFEN)
    rolled = [e for e in of(c, ev.TableRolled) if e.table is ev.TableKind.VOLLTREFFER]
    assert bool(rolled) is (rows is not ManeuverCrit.NONE)
    assert ("Blutung" in wache.zehrend) is zehrend
    assert wache.has(Condition.VERWIRRT) is verwirrt
    assert wache.lp == wache.spec.lp  # no damage, no extra dice


def test_x33_a_maneuver_with_damage_takes_every_row() -> None:
    """With maneuver_damage true the manoeuvre deals damage, so Tiefe Wunde's bleeding acts
    whatever maneuver_volltreffer_rows says."""
    c = setup(
        [*MANEUVER_INIT, 3, 3, 3, 3, *TAIL],
        maneuver_damage=True,
        maneuver_volltreffer_rows=ManeuverCrit.NONE,
    )
    maneuver(c, Maneuver.UMREISSEN)
    assert "Blutung" in c.fighters[1].zehrend


# -- K01/X22: a disarmed NSC's −2 on damage (item 15) -----------------------------------------
ZAP = HackSpec("Synapsenbrand", range_m=20)


def _disarmed_wache(dice: list[int], **opts: Any) -> Combat:
    """Kira disarms the Wache (3+4 against Kampfkunst 14 − 2) and ends her turn."""
    c = setup(
        [*MANEUVER_INIT, 3, 4, *dice, *TAIL], w={"weapons": (KNIFE,), "hacks": (ZAP,)}, **opts
    )
    maneuver(c, Maneuver.ENTWAFFNEN)
    assert c.fighters[1].disarmed
    c.apply(find(c, ActionKind.END_TURN))
    return c


def test_k01_disarmed_nsc_minus_two_on_hack_damage() -> None:
    """K01 'NSCs erhalten –2 auf Angriff und Schaden': the disarmed Wache's hack (2+3
    against Hacking 10 − 2: QS 1) deals 5 − 2 = 3, not 5."""
    c = _disarmed_wache([2, 3, 5])
    c.apply(find(c, ActionKind.HACK, target=0, arg=0))
    c.apply(find(c, ActionKind.STAY_UP))  # R06: Kira stays on her feet
    c.apply(find(c, ActionKind.NO_DEFENCE))
    assert of(c, ev.DamageRolled)[-1].total == 3 and c.fighters[0].lp == 27


@pytest.mark.parametrize(
    ("per", "total"), [(DisarmedDamage.TOTAL, 10), (DisarmedDamage.PER_DIE, 8)]
)
def test_x22_disarmed_penalty_on_the_total_or_per_die(per: DisarmedDamage, total: int) -> None:
    """X22: the Wache's knife hit of QS 2 (3+4 ≤ 8) rolls 5 + 1 and 5 + 1 = 12; −2 once
    (total, the default) or for each die (per_die)."""
    c = _disarmed_wache([3, 4, 5, 5], entwaffnen_damage=per)
    c.apply(find(c, ActionKind.ATTACK, target=0, arg=0))
    c.apply(find(c, ActionKind.NO_DEFENCE))
    assert of(c, ev.DamageRolled)[-1].total == total


# -- X38: M02 then M09 on the same check (item 9) ----------------------------------------------
def test_x38_m02_then_m09_on_one_check() -> None:
    """M02 and M09 are both spent 'vor dem Wurf'; nothing forbids both. Kira (Kampfkunst 14)
    improves her attack to 16 and then lands the great throw: a Volltreffer at the QS band
    of 16 (4, X06), not of 14 (3), for 1 + 3 Mumm."""
    c = duel([2, 2, *TAIL], runner={"kampfkunst": 14})
    c.apply(find(c, ActionKind.ATTACK, target=1, arg=0))
    c.apply(find(c, ActionKind.PRE_IMPROVE))
    c.apply(find(c, ActionKind.PRE_GROSSER_WURF))
    check = of(c, ev.CheckRolled)[-1]
    assert check.forced and check.probenwert == 16 and check.qs == 4
    assert c.fighters[0].mumm == 1


def test_x38_m09_refused_after_m02_when_the_option_is_off() -> None:
    c = duel([2, 2, *TAIL], runner={"kampfkunst": 14}, mumm_improve_then_grosser_wurf=False)
    c.apply(find(c, ActionKind.ATTACK, target=1, arg=0))
    c.apply(find(c, ActionKind.PRE_IMPROVE))
    kinds = {a.kind for a in c.legal_actions()} if c.decision else set()
    assert ActionKind.PRE_GROSSER_WURF not in kinds


# -- X09: A08 Muskelriss, '2W10 – QS des Verteidigers' (item 11) --------------------------------
@pytest.mark.parametrize(
    ("reading", "dice", "row", "qs"),
    [
        (PatzerDefence.NONE, [9, 9, 1, 1], "Überdehnt", 0),
        (PatzerDefence.DEFENCE_ROLL, [9, 9, 3, 4, 1, 1], "Muskelriss", 2),
        (PatzerDefence.DEFENCE_ROLL, [9, 9, 8, 9, 1, 1], "Überdehnt", 0),
    ],
)
def test_x09_patzer_table_minus_the_defenders_qs(
    reading: PatzerDefence, dice: list[int], row: str, qs: int
) -> None:
    """Kira's 9+9 is a Patzer. By default nothing is subtracted (no defence against a failed
    attack) and 1+1 = 2 is Überdehnt; under defence_roll the Wache rolls Ausweichen 10 —
    3+4 = 7 succeeds with QS 2, so 2 − 2 = 0 is Muskelriss (1W10 direkt and angeschlagen for
    Kira); a failed defence (8+9) subtracts 0."""
    c = duel([*dice, *TAIL], runner={"mumm": 0}, patzer_defender_qs=reading)
    reactions = c.fighters[1].reactions
    c.apply(find(c, ActionKind.ATTACK, target=1, arg=0))
    table = of(c, ev.TableRolled)[-1]
    assert table.table is ev.TableKind.PATZER and table.row == row and table.minus == qs
    assert c.fighters[1].reactions == reactions  # the Patzer's defence costs no reaction
    defences = [e for e in of(c, ev.CheckRolled) if e.fighter == 1]
    assert len(defences) == (reading is PatzerDefence.DEFENCE_ROLL)
    assert c.fighters[0].has(Condition.ANGESCHLAGEN) is (row == "Muskelriss")


# -- P06/X53: a Patzer outside the tables, spends that cannot matter (item 8) ----------------
def _post_kinds(c: Combat) -> set[ActionKind]:
    if c.decision is not None and c.decision.kind is DecisionKind.PRE_CHECK:
        c.apply(find(c, ActionKind.PRE_NONE))
    if c.decision is None or c.decision.kind is not DecisionKind.POST_CHECK:
        return set()
    return {a.kind for a in c.legal_actions()}


@pytest.mark.parametrize("futile", [True, False])
@pytest.mark.parametrize(
    ("dice", "spend"), [((9, 9), ActionKind.POST_AVERT), ((2, 3), ActionKind.POST_REROLL)]
)
def test_x53_spends_on_shaking_off_verwirrt(
    futile: bool, dice: tuple[int, int], spend: ActionKind
) -> None:
    """H12: Kira (Mumm 5) shakes off Verwirrt with Wahrnehmung 10 − 2. A Patzer (9+9) of
    that check has no table and no Tycoon (P06): a plain failure, so averting it changes
    nothing; a success (2+3) ends Verwirrt whatever its QS, so rerolling it changes
    nothing. By default both spends are still offered; futile_spends false drops them."""
    c = duel([*dice, *TAIL], futile_spends=futile)
    gain_condition(c, c.fighters[0], Condition.VERWIRRT)
    c.refresh_legal()
    c.apply(find(c, ActionKind.SHAKE, arg=int(Condition.VERWIRRT)))
    assert (spend in _post_kinds(c)) is futile


@pytest.mark.parametrize(
    ("dice", "spend"), [((9, 9), ActionKind.POST_AVERT), ((2, 3), ActionKind.POST_REROLL)]
)
def test_x53_spends_that_matter_stay_offered(dice: tuple[int, int], spend: ActionKind) -> None:
    """With futile_spends false an attack's Patzer (A08) can still be averted and its
    success (QS) rerolled."""
    c = duel([*dice, *TAIL], futile_spends=False)
    c.apply(find(c, ActionKind.ATTACK, target=1, arg=0))
    assert spend in _post_kinds(c)


# -- X38, X27, X54: hard-coded readings named (item 16) ------------------------------------------
@pytest.mark.parametrize("keep_first", [True, False])
def test_x38_keeping_the_first_result_when_the_reroll_is_a_patzer(keep_first: bool) -> None:
    """M03 'Du entscheidest anschliessend, welches der beiden Ergebnisse gilt': Kira's 7+8
    misses, the reroll 9+9 is a Patzer. By default she may still keep the first (a plain
    miss); under mumm_keep_first_on_patzer false the Patzer stands."""
    c = duel([7, 8, 9, 9, *TAIL], mumm_keep_first_on_patzer=keep_first)
    c.apply(find(c, ActionKind.ATTACK, target=1, arg=0))
    c.apply(find(c, ActionKind.PRE_NONE))
    c.apply(find(c, ActionKind.POST_REROLL))
    assert c.decision is not None
    kinds = {a.kind for a in c.legal_actions()}
    if keep_first:
        assert c.decision.kind is DecisionKind.KEEP
        assert kinds == {ActionKind.KEEP_FIRST, ActionKind.KEEP_SECOND}
        return
    # the one choice is taken: the Patzer stands, and only M01 is left to avert it
    assert of(c, ev.ResultKept)[-1].second
    assert c.decision.kind is DecisionKind.POST_CHECK
    assert kinds == {ActionKind.POST_AVERT, ActionKind.POST_ACCEPT}


@pytest.mark.parametrize("bought", [False, True])
def test_x38_m05_while_benommen(bought: bool) -> None:
    """Z02 'kannst du nicht handeln': a benommen Wache (Mumm 2) has no defence against
    Kira's hit by default (X24 blocks its reactions, M05 included); under
    mumm_reaction_while_benommen it may buy one for 1 Mumm."""
    c = duel([3, 4, *TAIL], enemy={"mumm": 2, "mumm_max": 2}, mumm_reaction_while_benommen=bought)
    gain_condition(c, c.fighters[1], Condition.BENOMMEN)
    c.refresh_legal()
    c.apply(find(c, ActionKind.ATTACK, target=1, arg=0))
    if c.decision is not None and c.decision.kind is DecisionKind.PRE_CHECK:
        c.apply(find(c, ActionKind.PRE_NONE))
    if c.decision is not None and c.decision.kind is DecisionKind.POST_CHECK:
        c.apply(find(c, ActionKind.POST_ACCEPT))
    defend = [a for a in c.legal_actions() if a.kind is ActionKind.DEFEND]
    assert bool(defend) is bought
    assert all(a.mumm == 1 for a in defend)


@pytest.mark.parametrize(
    ("reading", "qs"), [(LoneWinnerQS.OWN_ROLL, 1), (LoneWinnerQS.DIFFERENCE, 3)]
)
def test_x27_the_lone_winners_qs(reading: LoneWinnerQS, qs: int) -> None:
    """Kira's 2+3 hits (QS 1 from her own roll); the Wache's defence 8+9 fails. By default
    the hit keeps QS 1; under contest_lone_winner_qs difference it is P07's band of
    17 − 5 = 12, QS 3."""
    c = duel([2, 3, 8, 9, *TAIL], runner={"mumm": 0}, contest_lone_winner_qs=reading)
    c.apply(find(c, ActionKind.ATTACK, target=1, arg=0))
    c.apply(next(a for a in c.legal_actions() if a.kind is ActionKind.DEFEND))
    assert of(c, ev.Hit)[-1].qs == qs


@pytest.mark.parametrize(("reading", "qs"), [(TieQS.ZERO, 0), (TieQS.OWN_ROLL, 2)])
def test_x27_a_tie_goes_to_the_defender(reading: TieQS, qs: int) -> None:
    opts = replace(DEFAULT_OPTIONS, contest_tie_qs=reading)
    roll = resolve_probe(12, 3, 5, opts)
    assert contest(roll, roll, opts) == ContestResult(1, qs)


@pytest.mark.parametrize(
    ("reading", "defended"),
    [(GrosserWurfRoll.BEST_PASCH, True), (GrosserWurfRoll.HIGHEST_ROLL, False)],
)
def test_x54_the_great_throws_comparison_roll(reading: GrosserWurfRoll, defended: bool) -> None:
    """M09 at Probenwert 13 against the Wache's Ausweichen 12 rolling 5+7 = 12: as the best
    Pasch (6+6 = 12) the tie goes to the defender; as the highest roll (13) it hits by
    13 − 12, QS 1."""
    c = duel(
        [5, 7, *TAIL],
        runner={"kampfkunst": 13},
        enemy={"ausweichen": 12},
        grosser_wurf_roll=reading,
    )
    c.apply(find(c, ActionKind.ATTACK, target=1, arg=0))
    c.apply(find(c, ActionKind.PRE_GROSSER_WURF))
    c.apply(next(a for a in c.legal_actions() if a.kind is ActionKind.DEFEND))
    if c.decision is not None and c.decision.kind is DecisionKind.PRE_CHECK:
        c.apply(find(c, ActionKind.PRE_NONE))
    assert bool(of(c, ev.AttackDefended)) is defended
    if not defended:
        assert of(c, ev.Hit)[-1].qs == 1


def _classes(pw: int) -> dict[tuple[object, ...], tuple[tuple[int, int], int]]:
    """The 100 rolls of a Probe grouped by what an attack's outcome reads: one pair of dice
    standing for each group, and the group's size."""
    out: dict[tuple[object, ...], tuple[tuple[int, int], int]] = {}
    for d1 in range(1, 11):
        for d2 in range(1, 11):
            r = resolve_probe(pw, d1, d2, DEFAULT_OPTIONS)
            key = (r.success, r.qs, r.volltreffer, r.patzer, r.total)
            pair, n = out.get(key, ((d1, d2), 0))
            out[key] = (pair, n + 1)
    return out


@pytest.mark.parametrize("reading", list(LoneWinnerQS))
def test_x27_the_odds_table_is_what_the_engine_does(reading: LoneWinnerQS) -> None:
    """Kira (Kampfkunst 12) attacks, the Wache (Ausweichen 12) always defends: every class of
    attack roll against every class of defence roll played through the engine gives exactly
    the hit chance and QS distribution of ``attack_odds`` under either X27 reading (under
    ``difference`` the odds once gave a failed defence the attack's own QS)."""
    probe = duel([9, 9, *TAIL], runner={"mumm": 0}, contest_lone_winner_qs=reading)
    probe.apply(find(probe, ActionKind.ATTACK, target=1, arg=0))
    attack_pw = of(probe, ev.CheckRolled)[-1].probenwert
    defence_pw = 12
    hits: dict[int, Fraction] = {}
    for (a1, a2), na in _classes(attack_pw).values():
        for (d1, d2), nd in _classes(defence_pw).values():
            c = duel(
                [a1, a2, d1, d2, *TAIL],
                runner={"mumm": 0},
                enemy={"ausweichen": 12},
                contest_lone_winner_qs=reading,
            )
            c.apply(find(c, ActionKind.ATTACK, target=1, arg=0))
            defend = [a for a in c.legal_actions() if a.kind is ActionKind.DEFEND]
            if defend:
                c.apply(defend[0])
            defences = [e for e in of(c, ev.CheckRolled) if e.fighter == 1]
            if defences:
                assert defences[-1].probenwert == defence_pw
            for hit in of(c, ev.Hit):
                hits[hit.qs] = hits.get(hit.qs, Fraction(0)) + Fraction(na * nd, 10_000)
    options = replace(DEFAULT_OPTIONS, contest_lone_winner_qs=reading)
    odds = attack_odds(attack_pw, defence_pw, options)
    assert sum(hits.values()) == odds.hit
    assert {k: v for k, v in hits.items() if v} == {k: v for k, v in odds.qs.items() if v}


@pytest.mark.parametrize("bonus", [-2, 3])
def test_x12_the_env_reads_the_unarmed_bonus_the_engine_deals(bonus: int) -> None:
    """X12 ``unarmed_bonus`` is the Faust's damage bonus in the engine; the env's weapon
    table (average damage per QS) reads the same option, not the Faust's weapon data (it
    read −2 under any option)."""
    from cwenv.envs.tables import W10_MEAN, GameTables

    game = make_game(
        [(fighter("Kira"), (1, 1)), (fighter("Wache", Side.GEGNER), (3, 1))],
        unarmed_bonus=bonus,
    )
    slot = next(k for k, w in enumerate(game.roster[0].all_weapons) if w is UNARMED)
    assert GameTables(game).w_damage[0, slot] == pytest.approx(max(0.0, W10_MEAN + bonus))
    assert damage_bonus(UNARMED, game.options) == bonus


def test_x12_the_unarmed_bonus_in_previews_and_in_copied_combats() -> None:
    """The advisor's and encoding 2's mean damage per QS read X12 ``unarmed_bonus`` for the
    Faust (they read its weapon data), and a pickled or deep-copied combat still knows its
    Faust (it became an equal twin, so the option and A08's jam no longer applied)."""
    import copy
    import pickle

    from cwenv.engine.preview import mean_damage_per_qs

    c = duel(list(TAIL), runner={"mumm": 0}, unarmed_bonus=3)
    slot = next(k for k, w in enumerate(c.fighters[0].weapons) if w is UNARMED)
    fist = find(c, ActionKind.ATTACK, target=1, arg=slot)
    armour = c.fighters[1].spec.armour
    assert mean_damage_per_qs(c, fist) == pytest.approx(max(0.0, 5.5 + 3 - armour))
    for twin in (pickle.loads(pickle.dumps(c)), copy.deepcopy(c), c.clone()):
        assert twin.fighters[0].weapons[slot] is UNARMED
        assert mean_damage_per_qs(twin, fist) == mean_damage_per_qs(c, fist)
