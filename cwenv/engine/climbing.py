"""Climbing a ledge over several Schwierige Bewegungen (B03, H07, X40 ``climb_over_actions``).

B03: 'Klettern erfordert immer eine Probe … Die Bewegung ist während dem Klettern halbiert
(min. 1 Meter).' A fighter with ``m`` metres of movement left climbs ``max(1, m // 2)``
metres in one Schwierige Bewegung. A ledge no higher than that is one ordinary difficult
route (:func:`cwenv.battlemap.paths.reachable`); a higher one is climbed part by part: the
climber stays in its cell, hanging at the wall (``FighterState.climb_cell`` and
``climb_height``), and each further Schwierige Bewegung at the same ledge adds its metres
until the top is reached. Any other change of position, falling prone, Benommen or going
down lets go of the wall and loses the progress. Whether letting go is a fall of the height
climbed is X40 ``climb_let_go_falls``: the old reading, no fall, was argued as "the climber
is never higher than it could drop freely", which is false (Bewegung 6 climbs 3 m per
action, but absorbs a drop of only 2 m under the default ``drop_absorbed``; two partial
climbs hang higher still). :func:`lost_holds` finds who let go; the turn drops them.
Climbing down (X62 ``climb_down``) is the same with the ledge's face below: the climber
stays on its ledge, hanging under the edge (``climb_cell`` is the cell below,
``climb_height`` the metres climbed down), until the last part takes it into the cell
below. Letting go part-way falls the rest of the way into that cell; a climber who lets go
by walking on along the top (or being moved there) has climbed back up and does not fall,
nor does one whose cell below is taken by then (it clings back onto the ledge).
Swimming (B04) keeps its 'min. 1 Meter' in the route search itself
(:func:`cwenv.battlemap.paths.reachable`): cells stay 1 m, so no partial state is needed.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import TYPE_CHECKING, Any

from cwenv.battlemap.steps import StepKind, terrain_edges
from cwenv.engine import events as ev
from cwenv.engine.actions import Action, ActionKind
from cwenv.engine.frames import DONE, Frame, Return
from cwenv.engine.movement import MoveFrame, move_profile

if TYPE_CHECKING:
    from cwenv.battlemap.paths import Reach
    from cwenv.engine.actions import Decision
    from cwenv.engine.fighter import FighterState
    from cwenv.engine.state import Combat


@dataclass(frozen=True, slots=True)
class ClimbStep:
    """One Schwierige Bewegung up ``ledge`` (or, ``down``, down to the cell ``ledge``
    below, X62): ``metres`` of movement buy ``gained`` metres of its ``height``, of which
    ``done`` were climbed before."""

    ledge: int
    metres: int
    gained: int
    height: int
    done: int
    down: bool = False


def climb_step(
    c: Combat, f: FighterState, ledge: int, move_left: int, hard: Reach
) -> ClimbStep | None:
    """B03, X40: the partial climb of ``ledge`` next to ``f`` with ``move_left`` metres, or
    None when this is not one: the option is off, no movement is left, ``ledge`` is no
    free climbable ledge next to ``f``, or the climb is not started and the turn's
    difficult-route search (``hard``, the turn frame's ``hard_routes``) reaches the ledge
    whole — directly or by a cheaper way round (then SCHWIERIG there is that route)."""
    if not c.options.climb_over_actions or move_left < 1 or ledge in c.occupant:
        return None
    profile = move_profile(c, f)
    for to, _, kind, _ in terrain_edges(c.bm, f.pos, profile):
        if to == ledge and kind == StepKind.CLIMB:
            break
    else:
        return None
    bm = c.bm
    rise = bm.elevation[ledge] - bm.elevation[f.pos]  # below 0: climbing down (X62)
    height = abs(rise)
    done = f.climb_height if f.climb_cell == ledge else 0
    remaining = height - done
    gained = min(remaining, max(1, move_left // profile.slow_cost))
    if not done and (gained == remaining or ledge in hard):
        return None  # climbed whole now, or reached by a whole difficult route: not partial
    metres = min(move_left, gained * profile.slow_cost)
    return ClimbStep(ledge, metres, gained, height, done, rise < 0)


def climb_actions(
    c: Combat, f: FighterState, move_left: int, offered: set[int], hard: Reach
) -> list[Action]:
    """SCHWIERIG choices for partial climbs from where ``f`` stands (not in ``offered``;
    ``hard``: the turn's difficult-route search)."""
    if not c.options.climb_over_actions or move_left < 1:
        return []
    return [
        Action(ActionKind.SCHWIERIG, f.idx, cell=to)
        for to, _, kind, _ in terrain_edges(c.bm, f.pos, move_profile(c, f))
        if kind == StepKind.CLIMB
        and to not in offered
        and climb_step(c, f, to, move_left, hard) is not None
    ]


Hold = tuple[int, int, int, int]
"""A climber hanging at a wall: (fighter, ledge, metres climbed, the cell it hangs from)."""


def holds(c: Combat) -> tuple[Hold, ...]:
    """Every climber hanging at a wall now (B03, X40)."""
    return tuple(
        (f.idx, f.climb_cell, f.climb_height, f.pos) for f in c.fighters if f.climb_cell >= 0
    )


def lost_holds(c: Combat, before: tuple[Hold, ...]) -> tuple[tuple[Hold, ...], Frame | None]:
    """B03, B05, X40 ``climb_let_go_falls``: of the holds ``before``, the first one let go
    of since (not by reaching the top) falls the height climbed, as any fall: absorbed up to
    half Bewegung (B06), outside the faller's turn caught with a reaction (R05). Returns the
    holds to look at next time (those now, and any other let go, which falls after) and the
    fall."""
    from cwenv.engine.falls import FallFrame

    now = holds(c)
    if not c.options.climb_let_go_falls:
        return now, None
    lost = [
        hold
        for hold in before
        if c.fighters[hold[0]].climb_cell != hold[1]
        and c.fighters[hold[0]].pos != hold[1]
        and c.fighters[hold[0]].on_map
        and not c.fighters[hold[0]].dead
    ]
    while lost:
        idx, ledge, climbed, start = lost.pop(0)
        f = c.fighters[idx]
        depth = c.bm.elevation[start] - c.bm.elevation[ledge]
        if depth <= 0:  # up: it falls from where it hangs to the foot it stands at
            return (*now, *lost), FallFrame(idx, climbed, outside_turn=c.turn_fighter != idx)
        # X62, down: the rest of the way into the cell below, unless it walked on along
        # the top (climbed back up) or the cell below is taken (it clings to the ledge).
        if f.pos == start and ledge not in c.occupant:
            c.move_fighter(f, ledge)
            c.emit(ev.ForcedMove(idx, (c.bm.cell(ledge),), "lässt los und stürzt"))
            fall = FallFrame(idx, depth - climbed, outside_turn=c.turn_fighter != idx)
            return (*holds(c), *lost), fall
    return now, None


class ClimbStage(IntEnum):
    """Where a :class:`ClimbFrame` stands."""

    CHECK = 0  # the check (B03)
    RESULT = 1  # the roll is back: the top, or more metres climbed
    FINISHED = 2  # nothing more


_CHECK, _RESULT, _FINISHED = ClimbStage


class ClimbFrame(Frame):
    """One partial climb (B03, X40): the check, then either the top (the fighter moves onto
    the ledge) or more metres climbed and the fighter hangs on. A failed check makes no
    headway and keeps what was climbed."""

    __slots__ = ("fighter", "plan")

    def __init__(self, fighter: int, plan: ClimbStep) -> None:
        super().__init__()
        self.fighter = fighter
        self.plan = plan

    def step(self, c: Combat, value: Any) -> Decision | Frame | Return:
        from cwenv.engine.falls import difficult_check

        f = c.fighters[self.fighter]
        plan = self.plan
        if self.stage == _CHECK:
            self.stage = _RESULT
            return difficult_check(c, f, StepKind.CLIMB)
        if self.stage == _RESULT:
            self.stage = _FINISHED
            if not value.success:
                c.emit(ev.Acted(f.idx, ev.Act.FAILED, "klettert", index=int(StepKind.CLIMB)))
                return DONE
            climbed = plan.done + plan.gained
            if climbed >= plan.height:
                # The last part is told in the metres of Bewegung it cost (B03: 2 m a metre).
                return MoveFrame(f.idx, (plan.ledge,), "klettert", spent=(plan.metres,))
            f.climb_cell = plan.ledge
            f.climb_height = climbed
            cell = c.bm.cell(plan.ledge)
            c.emit(ev.ClimbedPart(f.idx, cell, climbed, plan.height, plan.down))
        return DONE
