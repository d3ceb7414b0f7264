"""Fidelity of movement to the German text (issue #15): R04 on the grid (X43), hurdles
(B02), climbing down (B03), a failed Schwierige Bewegung (H07/B01) and the movement
readings named as options.

Kira (Runner, roster 0) acts first: ``INIT`` rolls 20 for her and 12 for the Wache
(roster 1, 3 reactions)."""

from __future__ import annotations

from typing import Any

import pytest

from cwenv.battlemap.blockade import passes
from cwenv.engine.actions import Action, ActionKind, DecisionKind
from cwenv.engine.conditions import gain_condition
from cwenv.engine.state import Combat
from cwenv.model.specs import WeaponSpec
from cwenv.model.types import Condition, Side, WeaponKind
from cwenv.rules.options import BlockadeGeometry, ProneMovement
from tests.helpers import KNIFE, fighter, find, make_game, scripted

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
