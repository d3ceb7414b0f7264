"""Movement on the battle map: jumps, climbing, swimming, drops and falls (B01–B06, H07, R05,
X17, X18)."""

from __future__ import annotations

from typing import Any

import pytest

from cwenv.engine import events as ev
from cwenv.engine.actions import ActionKind, DecisionKind
from cwenv.engine.parts import labelled
from cwenv.engine.state import Combat
from cwenv.model.types import Side
from cwenv.rules.options import DropAbsorbed, Rounding
from tests.helpers import events_of, fighter, find, init_dice, lines, make_game, scripted

# A rooftop (6 m) with a 2 m gap at x = 3–4, then more roof; the street below is 0 m.
ROOF_ROWS = ["..........", "..........", ".........."]
ROOF_ELEV = ["6660066666", "6660066666", "0000000000"]


def on_roof(
    dice: list[int],
    *,
    start: tuple[int, int] = (2, 0),
    enemy_at: tuple[int, int] = (9, 2),
    rows: list[str] | None = None,
    elev: list[str] | None = None,
    **kira: Any,
) -> Combat:
    opts = kira.pop("opts", {})
    game = make_game(
        [(fighter("Kira", reflexe=12, **kira), start), (fighter("Wache", Side.GEGNER), enemy_at)],
        rows=rows or ROOF_ROWS,
        elevation=elev or ROOF_ELEV,
        **opts,
    )
    return scripted(game, init_dice(game) + dice + [5] * 60)


def cells(c: Combat, kind: ActionKind) -> set[tuple[int, int]]:
    return {tuple(c.bm.cell(a.cell)) for a in c.legal_actions() if a.kind is kind}


def test_b02_free_jump_up_to_half_bewegung() -> None:
    """B02: gaps up to half Bewegung (min 1 m) are jumped without a check in normal movement."""
    c = on_roof([], bewegung=6)  # half = 3 ≥ gap 2
    assert (5, 0) in cells(c, ActionKind.MOVE)
    narrow = on_roof([], bewegung=2)  # half = 1 < gap 2: only as a Schwierige Bewegung
    assert (5, 0) not in cells(narrow, ActionKind.MOVE)


def test_b02_h07_long_jump_is_an_infiltration_check() -> None:
    c = on_roof([2, 3], bewegung=3, infiltration=12)  # jump 2 m > half of 3 → check
    assert (5, 0) in cells(c, ActionKind.SCHWIERIG)
    c.apply(find(c, ActionKind.SCHWIERIG, cell=c.bm.index(5, 0)))
    assert labelled(events_of(c, ev.CheckRolled)[-1].parts)[0] == ("Infiltration", 12)
    assert c.fighters[0].pos == c.bm.index(5, 0)


def test_failed_long_jump_falls_into_the_gap() -> None:
    """A failed jump: into the gap, 6 m fall = 2W10 brechend (B05, X18)."""
    c = on_roof([9, 8, 4, 3], bewegung=3, infiltration=12)
    c.apply(find(c, ActionKind.SCHWIERIG, cell=c.bm.index(5, 0)))
    f = c.fighters[0]
    assert c.bm.elevation[f.pos] == 0
    fall = events_of(c, ev.Fell)[-1]
    assert fall.metres == 6 and fall.dice == 2
    assert f.lp == 30 - 7, lines(c)[-5:]


@pytest.mark.parametrize(("roll", "dice", "lp"), [(False, 2, 30 - 5), (True, 1, 30 - 2)])
def test_b05_x18_a_forced_fall_in_ones_own_turn(roll: bool, dice: int, lp: int) -> None:
    """X18 own_turn_fall_roll: Kira fails the long jump (9+8) and falls 6 m into the gap in
    her own turn. By default the fall has no roll (2W10: 2+3); under the alternative she
    rolls Infiltration (Akrobatik, 2+3 = 5 ≤ 12: QS 1) without a reaction: one die (2)."""
    c = on_roof([9, 8, 2, 3, 2, 3], bewegung=3, infiltration=12, opts={"own_turn_fall_roll": roll})
    reactions = c.fighters[0].reactions
    c.apply(find(c, ActionKind.SCHWIERIG, cell=c.bm.index(5, 0)))
    assert c.decision is not None and c.decision.kind is not DecisionKind.STURZ
    checks = [labelled(e.parts)[0][0] for e in events_of(c, ev.CheckRolled)]
    assert checks == ["Infiltration"] * (2 if roll else 1)
    fell = events_of(c, ev.Fell)[-1]
    assert (fell.metres, fell.dice) == (6, dice)
    assert c.fighters[0].lp == lp and c.fighters[0].reactions == reactions, lines(c)[-6:]


def test_b06_x18_a_deliberate_drop_rolls_once_under_either_reading() -> None:
    """X18 own_turn_fall_roll: a deep drop is a Schwierige Bewegung whose check is the
    Akrobatik roll (failed here: 9+8), so the fall rolls nothing more: 2W10 for 6 m."""
    elev = ["6600", "6600", "6600"]
    rows = ["....", "....", "...."]
    c = on_roof(
        [9, 8, 2, 3, 5],
        start=(1, 1),
        enemy_at=(3, 2),
        rows=rows,
        elev=elev,
        bewegung=6,
        infiltration=12,
        opts={"own_turn_fall_roll": True},
    )
    c.apply(find(c, ActionKind.SCHWIERIG, cell=c.bm.index(2, 1)))
    assert len(events_of(c, ev.CheckRolled)) == 1
    assert events_of(c, ev.Fell)[-1].dice == 2 and c.fighters[0].lp == 30 - 5


@pytest.mark.parametrize(
    ("reading", "three_metres_free"),
    [(DropAbsorbed.BELOW_HALF, False), (DropAbsorbed.UP_TO_HALF, True)],
)
def test_b06_small_drop_absorbed_deep_drop_needs_a_check(
    reading: DropAbsorbed, three_metres_free: bool
) -> None:
    """B06: a drop of less than half Bewegung (min. 1 m) is absorbed — with Bewegung 6 a 2 m
    drop, and a 3 m drop only under the 'up to half' reading (X18); deeper is a Schwierige
    Bewegung on Infiltration whose QS removes fall dice (B05, X18: the same roll)."""
    rows = ["....", "....", "...."]
    two = on_roof(
        [],
        start=(1, 1),
        enemy_at=(3, 2),
        rows=rows,
        elev=["2200"] * 3,
        bewegung=6,
        opts={"drop_absorbed": reading},
    )
    assert (2, 1) in cells(two, ActionKind.MOVE)
    three = on_roof(
        [],
        start=(1, 1),
        enemy_at=(3, 2),
        rows=rows,
        elev=["3300"] * 3,
        bewegung=6,
        opts={"drop_absorbed": reading},
    )
    assert ((2, 1) in cells(three, ActionKind.MOVE)) is three_metres_free
    c2 = on_roof(
        [3, 3],
        start=(1, 1),
        enemy_at=(3, 2),
        rows=rows,
        elev=["9900"] * 3,
        bewegung=6,
        infiltration=12,
    )
    assert (2, 1) not in cells(c2, ActionKind.MOVE)
    c2.apply(find(c2, ActionKind.SCHWIERIG, cell=c2.bm.index(2, 1)))
    # 9 m = 3 dice; the check 6 is a Volltreffer → QS 3 (band of 12) → no dice left.
    assert events_of(c2, ev.Fell)[-1].dice == 0 and c2.fighters[0].lp == 30


@pytest.mark.parametrize(
    ("rounding", "metres", "dice"),
    [
        (Rounding.DOWN, 2, 0),
        (Rounding.DOWN, 5, 1),
        (Rounding.DOWN, 6, 2),
        (Rounding.UP, 2, 1),
        (Rounding.UP, 7, 3),
    ],
)
def test_b05_x18_fall_dice(rounding: Rounding, metres: int, dice: int) -> None:
    from cwenv.engine.movement import fall_dice

    c = on_roof([], opts={"fall_dice_rounding": rounding})
    assert fall_dice(c.options, metres) == dice


def test_b03_x17_climbing_is_unbeugsamkeit_at_half_speed() -> None:
    rows = [".....", ".HH..", "....."]
    elev = ["00000", "03300", "00000"]
    c = on_roof(
        [3, 4], start=(0, 1), enemy_at=(4, 2), rows=rows, elev=elev, bewegung=6, unbeugsamkeit=12
    )
    assert (1, 1) not in cells(c, ActionKind.MOVE)
    assert (1, 1) in cells(c, ActionKind.SCHWIERIG)
    c.apply(find(c, ActionKind.SCHWIERIG, cell=c.bm.index(1, 1)))
    assert labelled(events_of(c, ev.CheckRolled)[-1].parts)[0] == ("Unbeugsamkeit", 12)
    assert c.fighters[0].pos == c.bm.index(1, 1)
    # 3 m up at half speed cost 6 of the 6 metres and the Handlung: Kira's turn is over.
    assert c.current_fighter() == 1


def test_b03_failed_climb_makes_no_headway() -> None:
    rows = [".....", ".HH..", "....."]
    elev = ["00000", "03300", "00000"]
    c = on_roof([9, 8], start=(0, 1), enemy_at=(4, 2), rows=rows, elev=elev, unbeugsamkeit=12)
    c.apply(find(c, ActionKind.SCHWIERIG, cell=c.bm.index(1, 1)))
    assert c.fighters[0].pos == c.bm.index(0, 1)


def test_b04_swimming_half_speed_with_a_check() -> None:
    rows = ["......", "~~~~~~", "......"]
    elev = ["000000"] * 3
    c = on_roof(
        [4, 5], start=(0, 0), enemy_at=(5, 2), rows=rows, elev=elev, bewegung=6, unbeugsamkeit=12
    )
    assert not any(
        c.bm.cell(x).y == 1
        for x in {a.cell for a in c.legal_actions() if a.kind is ActionKind.MOVE}
    )
    swim = cells(c, ActionKind.SCHWIERIG)
    assert (3, 2) in swim  # across the river diagonally: 2 + 2, then 1 m on land
    assert (5, 2) not in swim  # 2 + 2 + 3 = 7 > 6
    c.apply(find(c, ActionKind.SCHWIERIG, cell=c.bm.index(0, 2)))
    assert c.fighters[0].pos == c.bm.index(0, 2)


def test_r05_catching_a_fall_outside_ones_turn() -> None:
    """R05/B06: pushed off a 6 m roof in the enemy's turn, Kira may catch the fall with a
    reaction: Infiltration, QS removes dice."""
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
    # Wegstossen roll 3+4 = 7 (no defence), the catch 2+3 = 5 → QS 1 → 2 − 1 = 1 die (4).
    c = scripted(game, init_dice(game) + [3, 4, 2, 3, 4] + [5] * 40)
    c.apply(find(c, ActionKind.MANEUVER, target=1, arg=4))
    c.apply(find(c, ActionKind.NO_DEFENCE))
    assert c.decision is not None and c.decision.kind is DecisionKind.STURZ
    reactions = c.fighters[1].reactions
    c.apply(find(c, ActionKind.CATCH_FALL))
    # R05 'mit einer Reaktion abfangen': one reaction paid, no Mumm; B06/X18: Infiltration.
    assert c.fighters[1].reactions == reactions - 1
    used = events_of(c, ev.ReactionUsed)[-1]
    assert (used.fighter, used.kind, used.extra) == (1, ev.ReactionKind.CATCH_FALL, False)
    assert labelled(events_of(c, ev.CheckRolled)[-1].parts)[0] == ("Infiltration", 12)
    fell = events_of(c, ev.Fell)[-1]
    assert fell.metres == 6 and fell.dice == 1
    assert c.fighters[1].lp == 30 - 4, lines(c)[-6:]


def test_b01_a_move_passes_through_an_ally_and_arrives() -> None:
    """B01: a route through an ally's cell is offered, reaches its destination and costs
    only the metres walked (the ally keeps its cell)."""
    game = make_game(
        [
            (fighter("Kira", bewegung=6), (0, 0)),
            (fighter("Jax"), (1, 0)),
            (fighter("Wache", Side.GEGNER), (11, 0)),
        ],
        rows=["............"],  # a one-cell-wide corridor: the only way east is through Jax
    )
    c = scripted(game, init_dice(game) + [5] * 60)
    kira = next(f for f in c.fighters if f.name == "Kira")
    jax = next(f for f in c.fighters if f.name == "Jax")
    if c.decision.kind is DecisionKind.ORDER:  # I04: tied Runners pick who acts first
        c.apply(find(c, ActionKind.CHOOSE_ACTOR, target=kira.idx))
    assert c.decision.fighter == kira.idx, lines(c)
    dest = c.bm.index(3, 0)
    c.apply(find(c, ActionKind.MOVE, cell=dest))
    assert kira.pos == dest
    assert jax.pos == c.bm.index(1, 0) and c.occupant[jax.pos] == jax.idx


# A 5 m ledge at x = 1 (B03, X40): Bewegung 6 climbs 3 m per Schwierige Bewegung.
HIGH_ROWS = [".....", ".HH..", "....."]
HIGH_ELEV = ["00000", "05500", "00000"]


def at_high_ledge(dice: list[int], enemy_at: tuple[int, int] = (4, 2), **opts: Any) -> Combat:
    """Kira (Bewegung 6) at (0, 1), at the foot of the 5 m ledge (1, 1); rule ``opts``."""
    return on_roof(
        dice, start=(0, 1), enemy_at=enemy_at, rows=HIGH_ROWS, elev=HIGH_ELEV, bewegung=6, opts=opts
    )


def end_turns_until(c: Combat, fighter: int) -> None:
    while c.current_fighter() != fighter:
        c.apply(c.legal_actions()[-1])


def test_b03_x40_a_high_ledge_is_climbed_over_several_actions() -> None:
    c = on_roof(
        [3, 4, 3, 4], start=(0, 1), enemy_at=(4, 2), rows=HIGH_ROWS, elev=HIGH_ELEV, bewegung=6
    )
    kira, ledge = c.fighters[0], c.bm.index(1, 1)
    c.apply(find(c, ActionKind.SCHWIERIG, cell=ledge))
    assert kira.pos == c.bm.index(0, 1) and (kira.climb_cell, kira.climb_height) == (ledge, 3)
    assert "Kira klettert an der Kante (1, 1) hoch: 3 von 5 m" in lines(c)
    end_turns_until(c, 0)
    assert kira.climb_height == 3, "the climber hangs on between its turns"
    c.apply(find(c, ActionKind.SCHWIERIG, cell=ledge))
    assert kira.pos == ledge and kira.climb_cell == -1
    # 2 m of climbing at half speed cost 4 of the 6 metres: 2 m of movement are left.
    assert cells(c, ActionKind.MOVE)


def test_b03_x40_min_one_metre_when_the_movement_is_halved_below_it() -> None:
    """'halbiert (min. 1 Meter)': Bewegung 1 still climbs 1 m per Schwierige Bewegung."""
    elev = ["00000", "02200", "00000"]
    c = on_roof([3, 4, 3, 4], start=(0, 1), enemy_at=(4, 2), rows=HIGH_ROWS, elev=elev, bewegung=1)
    kira, ledge = c.fighters[0], c.bm.index(1, 1)
    c.apply(find(c, ActionKind.SCHWIERIG, cell=ledge))
    assert kira.climb_height == 1
    end_turns_until(c, 0)
    c.apply(find(c, ActionKind.SCHWIERIG, cell=ledge))
    assert kira.pos == ledge


def test_b03_x40_moving_away_lets_go_and_a_failed_check_keeps_the_height() -> None:
    c = on_roof(
        [9, 8, 3, 4], start=(0, 1), enemy_at=(4, 2), rows=HIGH_ROWS, elev=HIGH_ELEV, bewegung=6
    )
    kira, ledge = c.fighters[0], c.bm.index(1, 1)
    c.apply(find(c, ActionKind.SCHWIERIG, cell=ledge))  # 9+8: fails, no headway
    assert kira.climb_height == 0
    end_turns_until(c, 0)
    c.apply(find(c, ActionKind.SCHWIERIG, cell=ledge))
    assert kira.climb_height == 3
    end_turns_until(c, 0)
    c.apply(find(c, ActionKind.MOVE, cell=c.bm.index(0, 0)))
    assert kira.climb_cell == -1 and kira.climb_height == 0


@pytest.mark.parametrize("falls", [True, False])
def test_b03_x40_letting_go_part_way_is_a_fall(falls: bool) -> None:
    """B05/B06, X40 climb_let_go_falls: Kira (Bewegung 6) hangs 3 m up the 5 m ledge and
    walks away: a 3 m fall, deeper than the 2 m she absorbs, 1W10 brechend (the 5 in the
    dice; no armour). Under the old reading letting go costs nothing."""
    c = at_high_ledge([3, 4], climb_let_go_falls=falls)
    kira, ledge = c.fighters[0], c.bm.index(1, 1)
    c.apply(find(c, ActionKind.SCHWIERIG, cell=ledge))
    assert kira.climb_height == 3
    end_turns_until(c, 0)
    c.apply(find(c, ActionKind.MOVE, cell=c.bm.index(0, 0)))
    assert kira.climb_cell == -1 and kira.pos == c.bm.index(0, 0)
    fell = events_of(c, ev.Fell)
    assert [(e.fighter, e.metres, e.dice) for e in fell] == ([(0, 3, 1)] if falls else [])
    assert kira.lp == (30 - 5 if falls else 30), lines(c)[-6:]


def test_b03_x40_a_climber_knocked_off_in_the_enemys_turn_may_catch_the_fall() -> None:
    """R05/X40: hanging 3 m up, Kira is knocked prone by the Wache's Umreissen in his turn:
    she lets go and falls 3 m; outside her turn she is asked to catch it (R05)."""
    from cwenv.model.types import Maneuver

    c = at_high_ledge([3, 4, 2, 2], enemy_at=(0, 2))
    kira, ledge = c.fighters[0], c.bm.index(1, 1)
    c.apply(find(c, ActionKind.SCHWIERIG, cell=ledge))
    assert kira.climb_height == 3
    end_turns_until(c, 1)
    c.apply(find(c, ActionKind.MANEUVER, target=0, arg=int(Maneuver.UMREISSEN)))
    while c.decision is not None and c.decision.kind is not DecisionKind.STURZ:
        assert c.decision.fighter == 0, c.decision
        c.apply(c.legal_actions()[-1])  # no defence, no Mumm
    assert kira.climb_cell == -1 and c.decision is not None
    assert c.decision.fighter == 0 and c.decision.payload.metres == 3


def test_x40_atomic_climbs_never_reach_a_ledge_above_half_the_movement() -> None:
    c = at_high_ledge([], climb_over_actions=False)
    assert (1, 1) not in cells(c, ActionKind.SCHWIERIG)


def test_b03_x40_a_whole_route_round_the_ledge_beats_a_partial_climb() -> None:
    """SCHWIERIG to a ledge that a cheaper difficult route reaches whole (up the 2 m step,
    then 2 m of climbing) takes that route, as advertised (review finding)."""
    rows = [".....", ".H...", "....."]
    elev = ["12000", "04000", "00000"]
    c = on_roof([3, 4], start=(0, 1), enemy_at=(4, 2), rows=rows, elev=elev, bewegung=6)
    kira, ledge = c.fighters[0], c.bm.index(1, 1)
    turn = c.turn_frame()
    assert turn is not None and ledge in turn.hard_routes
    c.apply(find(c, ActionKind.SCHWIERIG, cell=ledge))
    assert kira.pos == ledge and kira.climb_height == 0


def test_b03_x40_a_climber_knocked_prone_loses_its_hold() -> None:
    from cwenv.engine.conditions import gain_condition
    from cwenv.model.types import Condition

    c = on_roof([3, 4], start=(0, 1), enemy_at=(4, 2), rows=HIGH_ROWS, elev=HIGH_ELEV, bewegung=6)
    kira, ledge = c.fighters[0], c.bm.index(1, 1)
    c.apply(find(c, ActionKind.SCHWIERIG, cell=ledge))
    assert kira.climb_height == 3
    gain_condition(c, kira, Condition.NIEDERGEWORFEN)
    assert kira.climb_cell == -1 and kira.climb_height == 0


@pytest.mark.parametrize(
    ("cell", "spots", "expected"),
    [
        ((0, 0), [(3, 1)], 3),  # B01: a diagonal metre counts 1, so max(|dx|, |dy|)
        ((4, 4), [(0, 0), (5, 2), (9, 9)], 2),  # the nearest of several
        ((2, 3), [(2, 3)], 0),
        ((1, 1), [], 99),  # none: the caller's value
    ],
)
def test_b01_nearest_is_the_chebyshev_distance_to_the_closest_spot(
    cell: tuple[int, int], spots: list[tuple[int, int]], expected: int
) -> None:
    from cwenv.battlemap.grid import BattleMap

    bm = BattleMap.from_rows(["." * 10] * 10)
    assert bm.nearest(bm.index(*cell), spots, 99) == expected
    for sx, sy in spots:  # and it agrees with the map's own distance
        assert bm.nearest(bm.index(*cell), spots, 99) <= bm.distance(
            bm.index(*cell), bm.index(sx, sy)
        )
