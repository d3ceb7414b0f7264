"""The Moved event tells the metres of Bewegung a move spent, not the cells it entered:
a hurdle jumped in stride (B02/X48) costs 2 m for one cell, a climb (B03) 2 m a metre, a
diagonal counted 1-2-1 (X49) 2 m every other one; the narration "Kira geht 4 m" says so.

Kira (Runner, roster 0) acts first: ``INIT`` rolls 20 for her and 12 for the Wache."""

from __future__ import annotations

from cwenv.engine import events as ev
from cwenv.engine.actions import ActionKind
from cwenv.engine.narration import narrate
from cwenv.engine.state import Combat
from cwenv.engine.turn import turn_of
from cwenv.model.types import Side
from tests.helpers import KNIFE, events_of, fighter, find, make_game, scripted

INIT = [5, 5, 1, 1]
TAIL = [5] * 40
NAMES = ("Kira", "Wache")


def last_move(c: Combat) -> ev.Moved:
    moved: ev.Moved = events_of(c, ev.Moved)[-1]
    return moved


def test_b02_x48_a_hurdle_jumped_in_stride_is_told_as_the_metres_it_cost() -> None:
    """From (1, 2) over the low wall at x = 3 to (5, 2): three cells, 1 + 2 + 1 = 4 m
    (the 4 m the turn books), not 3 m."""
    game = make_game(
        [(fighter("Kira"), (1, 2)), (fighter("Wache", Side.GEGNER), (9, 0))],
        rows=["...=......"] * 5,
    )
    c = scripted(game, [*INIT, *TAIL])
    c.apply(find(c, ActionKind.MOVE, cell=c.bm.index(5, 2)))
    moved = last_move(c)
    assert len(moved.path) == 3 and moved.metres == 4
    assert turn_of(c, 0).move_left(c, c.fighters[0]) == 2  # 6 m Bewegung, 4 m spent
    assert narrate(moved, NAMES) == "Kira geht 4 m nach (5, 2)"


def test_b03_a_climb_is_told_as_the_metres_it_cost() -> None:
    """Up the 2 m ledge at (3, 1): 2 m walked to its foot, then 2 m of height at 2 m a
    metre (B03): three cells, 6 m."""
    game = make_game(
        [(fighter("Kira", unbeugsamkeit=12), (0, 1)), (fighter("Wache", Side.GEGNER), (0, 2))],
        rows=["......", "...HH.", "......"],
        elevation=["000000", "000220", "000000"],
    )
    c = scripted(game, [*INIT, 2, 3, *TAIL])  # the climb check: 5 <= 12
    c.apply(find(c, ActionKind.SCHWIERIG, cell=c.bm.index(3, 1)))
    moved = last_move(c)
    assert moved.how == "klettert" and len(moved.path) == 3
    assert moved.metres == 6


def test_x49_the_second_diagonal_is_told_as_2_m() -> None:
    """X49 counted 1-2-1: after (1, 1) (1 m) the step to (2, 2) costs and is told 2 m."""
    game = make_game(
        [(fighter("Kira"), (0, 0)), (fighter("Wache", Side.GEGNER, weapons=(KNIFE,)), (5, 2))],
        diagonals_alternate=True,
    )
    c = scripted(game, [*INIT, *TAIL])
    c.apply(find(c, ActionKind.MOVE, cell=c.bm.index(1, 1)))
    assert last_move(c).metres == 1
    c.apply(find(c, ActionKind.MOVE, cell=c.bm.index(2, 2)))
    assert last_move(c).metres == 2
