"""B03 climbing down (issue #15 item 3, X62 ``climb_down``).

'Klettern erfordert immer eine Probe auf Unbeugsamkeit … Die Bewegung ist während dem
Klettern halbiert (min. 1 Meter).' The text knows no direction: a fighter on a climbable
ledge (``H``, climbed onto from below) climbs down its faces as it climbs up them. Before
#15 a step off any ledge deeper than the absorbed drop was a drop (B06) only.

Kira (Bewegung 6) stands on a 6 m climbable ledge at (1, 1) (9 m where said); everything
around it is at 0 m. She climbs 3 m per Schwierige Bewegung (half of 6), so the 6 m take
two (X40).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from cwenv.engine import events as ev
from cwenv.engine.actions import ActionKind, DecisionKind
from cwenv.engine.parts import labelled
from cwenv.engine.state import Combat
from cwenv.model.types import Condition, Maneuver, Side
from cwenv.rules.dice import ScriptedDice
from cwenv.rules.odds import probe_odds
from cwenv.rules.options import ClimbDown, Rounding
from tests.helpers import events_of, fighter, find, init_dice, lines, make_game, scripted

ROWS = ["....", ".HH.", "...."]
ELEV = ["0000", "0660", "0000"]


def on_ledge(
    dice: list[int],
    *,
    rows: list[str] = ROWS,
    elev: list[str] = ELEV,
    enemy_at: tuple[int, int] = (3, 2),
    bewegung: int = 6,
    **opts: Any,
) -> Combat:
    """Kira (Unbeugsamkeit 12, Infiltration 10) at (1, 1) on the ledge; rule ``opts``."""
    game = make_game(
        [
            (fighter("Kira", reflexe=12, bewegung=bewegung, unbeugsamkeit=12), (1, 1)),
            (fighter("Wache", Side.GEGNER), enemy_at),
        ],
        rows=rows,
        elevation=elev,
        **opts,
    )
    return scripted(game, init_dice(game) + dice + [5] * 60)


def down(c: Combat, x: int = 0, y: int = 1) -> None:
    c.apply(find(c, ActionKind.SCHWIERIG, cell=c.bm.index(x, y)))


def end_turns_until(c: Combat, fighter: int) -> None:
    while c.current_fighter() != fighter:
        c.apply(c.legal_actions()[-1])


def last_check(c: Combat) -> tuple[str, int]:
    return labelled(events_of(c, ev.CheckRolled)[-1].parts)[0]


def test_b03_x62_a_climber_on_a_six_metre_ledge_climbs_down() -> None:
    """The old engine dropped her 6 m (Herabspringen on Infiltration, 2W10 brechend). Now
    she climbs down on Unbeugsamkeit (X17) at half speed: 3 m, hanging under the edge,
    then the other 3 m in her next turn; no fall, no damage."""
    c = on_ledge([3, 4, 3, 4])
    kira, below = c.fighters[0], c.bm.index(0, 1)
    down(c)
    assert last_check(c) == ("Unbeugsamkeit", 12)
    assert kira.pos == c.bm.index(1, 1) and (kira.climb_cell, kira.climb_height) == (below, 3)
    assert "Kira klettert nach (0, 1) hinab: 3 von 6 m" in lines(c)
    end_turns_until(c, 0)
    assert kira.climb_height == 3, "the climber hangs on between its turns"
    down(c)
    assert kira.pos == below and kira.climb_cell == -1
    assert not events_of(c, ev.Fell) and kira.lp == 30


def test_b03_x62_never_keeps_the_drop() -> None:
    """The old reading: the same step is a drop on Infiltration and a 6 m fall."""
    c = on_ledge([3, 4], climb_down=ClimbDown.NEVER)
    down(c)
    assert last_check(c) == ("Infiltration", 10)
    assert c.fighters[0].pos == c.bm.index(0, 1)
    assert [e.metres for e in events_of(c, ev.Fell)] == [6]


@pytest.mark.parametrize(
    ("reading", "rounding", "climbs"),
    [
        (ClimbDown.WHEN_HURT, Rounding.DOWN, False),
        (ClimbDown.WHEN_HURT, Rounding.UP, True),
        (ClimbDown.ALWAYS, Rounding.DOWN, True),
        (ClimbDown.NEVER, Rounding.UP, False),
    ],
)
def test_b03_x62_a_drop_that_rolls_no_die_is_climbed_only_under_always(
    reading: ClimbDown, rounding: Rounding, climbs: bool
) -> None:
    """Bewegung 4 absorbs 1 m (B06, X18 below_half), so a 2 m ledge is a check either way.
    Under 'when_hurt' it is climbed only where the 2 m fall would roll a die (X18
    fall_dice_rounding up). A climb of 2 m costs 4 m: one whole Schwierige Bewegung."""
    elev = ["0000", "0220", "0000"]
    c = on_ledge([3, 4], elev=elev, bewegung=4, climb_down=reading, fall_dice_rounding=rounding)
    down(c)
    assert last_check(c) == (("Unbeugsamkeit", 12) if climbs else ("Infiltration", 10))
    assert c.fighters[0].pos == c.bm.index(0, 1)
    assert bool(events_of(c, ev.Fell)) is not climbs


def test_b03_x62_a_face_that_fits_the_movement_is_climbed_down_whole() -> None:
    """A 3 m ledge (a 3 m fall rolls 1W10): 6 m of movement at half speed, one check."""
    elev = ["0000", "0330", "0000"]
    c = on_ledge([3, 4], elev=elev)
    down(c)
    kira = c.fighters[0]
    assert last_check(c) == ("Unbeugsamkeit", 12)
    assert kira.pos == c.bm.index(0, 1) and kira.climb_cell == -1
    assert not events_of(c, ev.Fell)
    assert c.current_fighter() == 1, "6 m of movement and the Handlung are spent"


def test_b03_x62_only_a_climbable_ledge_is_climbed_down() -> None:
    """A plain 6 m roof edge ('.') has no face to climb: still a drop (B06); the
    climbable one beside it (the same map with 'H') is climbed."""
    plain = on_ledge([3, 4], rows=["....", "....", "...."])
    down(plain)
    assert last_check(plain) == ("Infiltration", 10)
    assert [e.metres for e in events_of(plain, ev.Fell)] == [6]
    ledge = on_ledge([3, 4])
    down(ledge)
    assert last_check(ledge) == ("Unbeugsamkeit", 12) and not events_of(ledge, ev.Fell)


def test_b03_x62_a_failed_climb_down_makes_no_headway() -> None:
    """As a failed climb up (B03 names no other consequence): Kira stays on the ledge, no
    fall. The old drop fell 6 m with both dice (2W10: 5 + 5 brechend, no armour)."""
    c = on_ledge([9, 8])
    down(c)
    kira = c.fighters[0]
    assert events_of(c, ev.CheckRolled)[-1].success is False
    assert kira.pos == c.bm.index(1, 1) and kira.climb_height == 0
    assert not events_of(c, ev.Fell) and kira.lp == 30


@pytest.mark.parametrize("falls", [True, False])
def test_b03_x62_letting_go_part_way_down_falls_the_rest(falls: bool) -> None:
    """Hanging 3 m under the edge of a 9 m ledge, Kira is knocked prone by the Wache's
    Umreissen in his turn: she lets go and falls the other 6 m (2W10, not the 3 m she
    climbed) into the cell below; outside her turn she may catch it (R05). Under X40
    climb_let_go_falls false she stays up."""
    elev = ["0000", "0990", "0000"]
    c = on_ledge([3, 4, 2, 2], elev=elev, enemy_at=(2, 1), climb_let_go_falls=falls)
    kira, below = c.fighters[0], c.bm.index(0, 1)
    down(c)
    assert kira.climb_height == 3
    end_turns_until(c, 1)
    c.apply(find(c, ActionKind.MANEUVER, target=0, arg=int(Maneuver.UMREISSEN)))
    while c.decision is not None and c.decision.fighter == 0:
        if c.decision.kind is DecisionKind.STURZ:
            break
        c.apply(c.legal_actions()[-1])  # no defence, no Mumm
    assert kira.has(Condition.NIEDERGEWORFEN)
    assert kira.climb_cell == -1
    if not falls:
        assert kira.pos == c.bm.index(1, 1) and not events_of(c, ev.Fell)
        return
    assert kira.pos == below
    assert c.decision is not None and c.decision.fighter == 0
    assert c.decision.payload.metres == 6
    c.apply(find(c, ActionKind.NO_CATCH))
    assert [(e.metres, e.dice) for e in events_of(c, ev.Fell)] == [(6, 2)]


def test_b03_x62_a_face_no_action_climbs_down_is_dropped() -> None:
    """Under X40 climb_over_actions false a face is climbed down within one action's
    movement or not at all: the 6 m face costs Kira 12 m of her 6, so she drops it as
    B06's Schwierige Bewegung (Infiltration, a 6 m fall) rather than being stuck on the
    ledge with no way down; the 3 m face (6 m of movement) is still climbed."""
    c = on_ledge([3, 4], climb_over_actions=False)
    down(c)
    assert last_check(c) == ("Infiltration", 10)
    assert c.fighters[0].pos == c.bm.index(0, 1)
    assert [e.metres for e in events_of(c, ev.Fell)] == [6]
    low = on_ledge([3, 4], elev=["0000", "0330", "0000"], climb_over_actions=False)
    down(low)
    assert last_check(low) == ("Unbeugsamkeit", 12) and not events_of(low, ev.Fell)


def test_b03_x62_walking_on_along_the_top_is_no_fall() -> None:
    """Part-way down, Kira walks on along the ledge instead: she has climbed back up; the
    metres climbed down are lost, and she does not fall."""
    c = on_ledge([3, 4])
    kira = c.fighters[0]
    down(c)
    end_turns_until(c, 0)
    c.apply(find(c, ActionKind.MOVE, cell=c.bm.index(2, 1)))
    assert kira.pos == c.bm.index(2, 1) and kira.climb_cell == -1
    assert not events_of(c, ev.Fell) and kira.lp == 30


def test_b03_x62_climb_down_success_rate_matches_the_exact_odds() -> None:
    """Seeded sample (random.Random(62), 600 first climbs) of the climb down's success
    against the exact odds of a Probe on 12: 0.64 (Patzer excluded). The
    tolerance 0.06 is over 3 standard deviations (0.019); the old drop on Infiltration
    10 succeeds about 0.45 of the time."""
    exact = float(probe_odds(12).success)
    rng = random.Random(62)
    game = on_ledge([]).game
    climbed = 0
    trials = 600
    for _ in range(trials):
        faces = [rng.randint(1, 10) for _ in range(40)]
        c = game.new_combat(dice=ScriptedDice([*init_dice(game), *faces]))
        down(c)
        climbed += bool(events_of(c, ev.ClimbedPart))
    assert abs(climbed / trials - exact) < 0.06, (climbed / trials, exact)
