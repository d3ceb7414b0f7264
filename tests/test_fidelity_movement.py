"""Fidelity of movement to the German text (issue #15): R04 on the grid (X43), hurdles
(B02), climbing down (B03), a failed Schwierige Bewegung (H07/B01) and the movement
readings named as options.

Kira (Runner, roster 0) acts first: ``INIT`` rolls 20 for her and 12 for the Wache
(roster 1, 3 reactions)."""

from __future__ import annotations

from typing import Any

import pytest

from cwenv.battlemap.blockade import passes
from cwenv.engine import events as ev
from cwenv.engine.actions import Action, ActionKind, DecisionKind
from cwenv.engine.conditions import gain_condition
from cwenv.engine.parts import labelled
from cwenv.engine.state import Combat
from cwenv.engine.turn import turn_of
from cwenv.model.specs import WeaponSpec
from cwenv.model.types import Condition, Side, WeaponKind
from cwenv.rules.options import BlockadeGeometry, ProneMovement
from tests.helpers import KNIFE, events_of, fighter, find, make_game, scripted

INIT = [5, 5, 1, 1]
TAIL = [5] * 40
WHIP = WeaponSpec("Monofilament-Peitsche", WeaponKind.MELEE, bonus=2, reach=2)


def guarded(kira: tuple[int, int], weapon: WeaponSpec, **opts: Any) -> Combat:
    """Kira and the Wache (at (5, 2) with ``weapon``) on an open 10 × 5 floor."""
    game = make_game(
        [
            (fighter("Kira"), kira),
            (fighter("Wache", Side.GEGNER, weapons=(weapon,)), (5, 2)),
        ],
        **opts,
    )
    return scripted(game, [*INIT, *TAIL])


def move(c: Combat, x: int, y: int) -> None:
    c.apply(find(c, ActionKind.MOVE, cell=c.bm.index(x, y)))


def at(c: Combat, who: int) -> tuple[int, int]:
    cell = c.bm.cell(c.fighters[who].pos)
    return cell.x, cell.y


# -- R04 / X43: what "vorbeibewegen" means on the grid -------------------------------------
@pytest.mark.parametrize(
    ("kira", "dest"),
    [((6, 2), (9, 2)), ((9, 2), (6, 2))],
    ids=["straight-away", "straight-towards"],
)
@pytest.mark.parametrize("geometry", list(BlockadeGeometry))
def test_r04_reach_two_straight_away_or_towards_never_provokes(
    kira: tuple[int, int], dest: tuple[int, int], geometry: BlockadeGeometry
) -> None:
    """R04 '(nicht wegbewegen)': with the reach-2 Peitsche, walking straight away from the
    Wache (1 → 4 m) passes two cells inside her reach and provokes nothing; walking
    straight at her is no passing either (except under enter_reach, which counts any step
    into reach that does not move away)."""
    c = guarded(kira, WHIP, blockade_geometry=geometry)
    move(c, *dest)
    provoked = geometry is BlockadeGeometry.ENTER_REACH and dest == (6, 2)
    assert (c.decision.kind is DecisionKind.BLOCKADE) is provoked
    if not provoked:
        assert at(c, 0) == dest and c.fighters[1].reactions == 3


def test_r04_reach_two_passing_at_two_metres_provokes() -> None:
    """R04: running past the Peitsche two rows off is passing within her reach."""
    c = guarded((1, 0), WHIP)
    move(c, 7, 0)
    assert c.decision.kind is DecisionKind.BLOCKADE and c.decision.fighter == 1


@pytest.mark.parametrize(
    ("geometry", "provoked"),
    [(BlockadeGeometry.PASSING, True), (BlockadeGeometry.STAY_IN_REACH, False)],
)
def test_r04_x43_weaving_through_the_corner_of_reach(
    geometry: BlockadeGeometry, provoked: bool
) -> None:
    """X43: from (3, 2) to (7, 2) past a knife at (5, 2) every 4 m route enters her reach.
    The default counts the step out of the diagonal corner, (4, 1) → (5, 0), as passing,
    so the shortest way past her provokes; under stay_in_reach that weave is free."""
    c = guarded((3, 2), KNIFE, blockade_geometry=geometry)
    move(c, 7, 2)
    assert (c.decision.kind is DecisionKind.BLOCKADE) is provoked
    if not provoked:
        assert at(c, 0) == (7, 2) and c.fighters[1].reactions == 3


@pytest.mark.parametrize(
    ("r", "s", "reach", "expected"),
    [
        ((-1, -1), (1, -1), 1, {BlockadeGeometry.PASSING}),  # out of the corner, sideways
        ((-1, 0), (0, -1), 1, set(BlockadeGeometry)),  # sideways inside reach
        ((1, 1), (1, 0), 1, set()),  # out of the corner, half away: wegbewegen
        ((1, 0), (1, 0), 2, set()),  # straight away inside reach 2
        ((2, 0), (-1, 0), 2, {BlockadeGeometry.ENTER_REACH}),  # straight towards
        ((2, 1), (0, 1), 2, set(BlockadeGeometry)),
        ((3, 0), (-1, 0), 2, {BlockadeGeometry.ENTER_REACH}),  # entering reach
    ],
)
def test_r04_x43_step_readings(
    r: tuple[int, int], s: tuple[int, int], reach: int, expected: set[BlockadeGeometry]
) -> None:
    """The readings of X43 step by step (offset from the guard, step, reach)."""
    assert {g for g in BlockadeGeometry if passes(g, r, s, reach)} == expected


# -- H07/B01: a failed Schwierige Bewegung keeps the ordinary walk before it ---------------
@pytest.mark.parametrize(
    ("rows", "elev", "dest", "check"),
    [
        (["......", "...HH.", "......"], ["000000", "000220", "000000"], (3, 1), "climb"),
        (["...~~~", "...~~~", "...~~~"], ["000000"] * 3, (3, 1), "swim"),
    ],
)
def test_h07_a_failed_check_still_walks_to_the_foot_of_the_wall(
    rows: list[str], elev: list[str], dest: tuple[int, int], check: str
) -> None:
    """H07/B01: Kira walks 2 m to the wall (or the shore) and fails the climb (swim): she
    stands at its foot, not back where she started; the check was for the climb only."""
    game = make_game(
        [(fighter("Kira", unbeugsamkeit=12), (0, 1)), (fighter("Wache", Side.GEGNER), (0, 2))],
        rows=rows,
        elevation=elev,
    )
    c = scripted(game, [*INIT, 9, 8, *TAIL])  # the check: 17 > 12
    c.apply(find(c, ActionKind.SCHWIERIG, cell=c.bm.index(*dest)))
    assert at(c, 0)[0] == 2 and c.bm.elevation[c.fighters[0].pos] == 0, check
    assert c.bm.terrain[c.fighters[0].pos].name == "FLOOR"


# -- H08: Sprinten while niedergeworfen ------------------------------------------------------
@pytest.mark.parametrize(
    ("reading", "crawl"), [(ProneMovement.NONE, 0), (ProneMovement.CRAWL_HALF, 3)]
)
def test_h08_no_sprint_while_prone(reading: ProneMovement, crawl: int) -> None:
    """H08/X40: a niedergeworfen Kira (Bewegung 6) is offered Aufstehen, never Sprinten —
    also where she may crawl (crawl_half: 3 m, not doubled to 6 m by a sprint)."""
    c = guarded((0, 0), KNIFE, prone_movement=reading)
    gain_condition(c, c.fighters[0], Condition.NIEDERGEWORFEN)
    c.refresh_legal()
    kinds = {a.kind for a in c.legal_actions()}
    assert ActionKind.AUFSTEHEN in kinds and ActionKind.SPRINT not in kinds
    assert c.why_illegal(Action(ActionKind.SPRINT, 0)) == "niedergeworfen: stand up first (H02)"
    moves = [a.cell for a in c.legal_actions() if a.kind is ActionKind.MOVE]
    assert max((c.bm.distance(c.fighters[0].pos, m) for m in moves), default=0) == crawl


# -- B02 / X48: hurdles ----------------------------------------------------------------------
def walled(wall: str, **opts: Any) -> Combat:
    """Kira (Bewegung 6, Infiltration 12) at (1, 2) before a low wall ``wall`` (a column
    pattern for x = 0–9, the same on every row); the Wache beyond it at (9, 0)."""
    game = make_game(
        [
            (fighter("Kira", infiltration=12), (1, 2)),
            (fighter("Wache", Side.GEGNER), (9, 0)),
        ],
        rows=[wall] * 5,
        **opts,
    )
    return scripted(game, [*INIT, *TAIL])


def offered(c: Combat, kind: ActionKind) -> set[tuple[int, int]]:
    return {(c.bm.xs[a.cell], c.bm.ys[a.cell]) for a in c.legal_actions() if a.kind is kind}


@pytest.mark.parametrize("hurdles", [True, False])
def test_b02_x48_a_low_wall_is_a_hurdle_jumped_free(hurdles: bool) -> None:
    """B02 'Hürden überwinden': the 1 m wide low wall '=' at x = 3 is cleared in stride
    (2 m from (2, 2) to (4, 2), within half Bewegung); under hurdles=false it bars the
    way on every row."""
    c = walled("...=......", hurdles=hurdles)
    assert ((4, 2) in offered(c, ActionKind.MOVE)) is hurdles
    assert ((5, 2) in offered(c, ActionKind.MOVE)) is hurdles  # 1 + 2 + 1 m
    if hurdles:
        move(c, 4, 2)
        assert at(c, 0) == (4, 2)


@pytest.mark.parametrize(("dice", "lands"), [([2, 3], True), ([9, 8], False)])
def test_b02_x48_a_wide_hurdle_is_an_infiltration_jump(dice: list[int], lands: bool) -> None:
    """B02 'Weitere … Sprünge erfordern eine Probe auf Infiltration': four crates in a row
    (x = 2–5) are more than half Bewegung (3 m): only a Schwierige Bewegung (5 m) clears
    them, on Infiltration 12; a failed jump makes no headway and costs no fall."""
    game = make_game(
        [(fighter("Kira", infiltration=12), (1, 2)), (fighter("Wache", Side.GEGNER), (9, 0))],
        rows=["..====...."] * 5,
    )
    c = scripted(game, [*INIT, *dice, *TAIL])
    assert (6, 2) not in offered(c, ActionKind.MOVE)
    assert (6, 2) in offered(c, ActionKind.SCHWIERIG)
    c.apply(find(c, ActionKind.SCHWIERIG, cell=c.bm.index(6, 2)))
    assert labelled(events_of(c, ev.CheckRolled)[-1].parts)[0] == ("Infiltration", 12)
    assert at(c, 0) == ((6, 2) if lands else (1, 2))
    assert not events_of(c, ev.Fell) and c.fighters[0].lp == 30


@pytest.mark.parametrize("hurdles", [True, False])
def test_b02_x48_steps_up_are_jumped_as_high_as_they_are(hurdles: bool) -> None:
    """B02 'höhere Sprünge': a 3 m step (half Bewegung) up onto a crate stack at (2, 2) is
    free and costs 3 m; the 5 m stack at (2, 4) is an Infiltration jump; neither is a
    climbable ledge, so under hurdles=false neither can be reached."""
    game = make_game(
        [(fighter("Kira", infiltration=12), (1, 2)), (fighter("Wache", Side.GEGNER), (9, 0))],
        elevation=["0000000000", "0000000000", "0030000000", "0000000000", "0050000000"],
        hurdles=hurdles,
    )
    c = scripted(game, [*INIT, 2, 3, *TAIL])
    assert ((2, 2) in offered(c, ActionKind.MOVE)) is hurdles
    assert (2, 4) not in offered(c, ActionKind.MOVE)
    assert ((2, 4) in offered(c, ActionKind.SCHWIERIG)) is hurdles
    if hurdles:
        move(c, 2, 2)
        assert at(c, 0) == (2, 2) and c.bm.elevation[c.fighters[0].pos] == 3
        assert turn_of(c, 0).move_left(c, c.fighters[0]) == 3  # the 3 m hop cost 3 m


# -- B01 / X49: diagonal metres ----------------------------------------------------------------
def diagonal_reach(alternate: bool) -> set[tuple[int, int]]:
    c = guarded((0, 0), KNIFE, diagonals_alternate=alternate)
    return offered(c, ActionKind.MOVE)


@pytest.mark.parametrize("alternate", [False, True])
def test_b01_x49_diagonal_metres(alternate: bool) -> None:
    """B01, X49: with Bewegung 6 from (0, 0), four diagonal cells and two straight ones
    reach (6, 4) when a diagonal is 1 m (default); counted 1-2-1 the four diagonals alone
    cost 6 m, so (4, 4) is the farthest corner and (5, 4), (6, 4) are out of reach."""
    reach = diagonal_reach(alternate)
    assert (4, 4) in reach and (6, 0) in reach
    assert ((5, 4) in reach) is not alternate and ((6, 4) in reach) is not alternate


def test_b01_x49_the_count_runs_over_the_whole_turn() -> None:
    """X49: the 1-2-1 count runs across a turn's moves, so moving one diagonal cell at a
    time saves nothing: after (1, 1) (1 m) the next diagonal costs 2 m."""
    c = guarded((0, 0), KNIFE, diagonals_alternate=True)
    move(c, 1, 1)
    move(c, 2, 2)
    assert turn_of(c, 0).move_left(c, c.fighters[0]) == 3
    move(c, 3, 3)  # 1 m
    assert turn_of(c, 0).move_left(c, c.fighters[0]) == 2
    assert (4, 4) in offered(c, ActionKind.MOVE) and (5, 4) not in offered(c, ActionKind.MOVE)
