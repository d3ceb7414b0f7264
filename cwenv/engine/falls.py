"""Falls, forced movement and Schwierige Bewegung.

B02–B06, R05, K03 (Mitzerren), K05 (Wegstossen), A08 (Fehltritt), X18, X40, X43.
"""

from __future__ import annotations

from enum import IntEnum
from typing import TYPE_CHECKING, Any

from cwenv.battlemap.paths import Route
from cwenv.battlemap.steps import StepKind
from cwenv.engine import events as ev
from cwenv.engine.actions import ActionKind, Decision, DecisionKind
from cwenv.engine.checks import check
from cwenv.engine.conditions import pay_reaction
from cwenv.engine.damage import DamageFrame
from cwenv.engine.frames import DONE, Frame, Return
from cwenv.engine.payloads import CheckPurpose, FallPrompt
from cwenv.engine.prompts import catch_fall_choices
from cwenv.model.types import CheckValue, Condition
from cwenv.rules.probe import ProbeResult

if TYPE_CHECKING:
    from cwenv.engine.fighter import FighterState
    from cwenv.engine.state import Combat

from cwenv.engine.movement import MoveFrame, fall_dice, move_profile
from cwenv.engine.tables.checks import check_text
from cwenv.invariants import present


class FallStage(IntEnum):
    """Where a :class:`FallFrame` stands."""

    START = 0  # absorbed, or ask whether to catch it (R05)
    ANSWERED = 1  # the catch prompt answered
    CAUGHT = 2  # the Infiltration roll is back (X18)
    FALLING = 3  # the dice of the fall (B05)
    FINISHED = 4  # its damage has run


_FALL_START, _FALL_ANSWERED, _FALL_CAUGHT, _FALL_FALLING, _FALL_FINISHED = FallStage


class FallFrame(Frame):
    """A fall of ``metres`` (B05, B06, R05): absorbed when no deeper than half Bewegung;
    outside the faller's own turn a reaction may catch it with Infiltration, whose QS
    removes damage dice (X18: the same roll). ``checked``: the fall is a deliberate drop
    whose Schwierige Bewegung was that roll (its QS is ``reduce``). A fall in the faller's
    own turn that is not (a failed jump, a Fehltritt, letting go of a wall) rolls B05's
    Akrobatik without a reaction only under X18 ``own_turn_fall_roll``."""

    __slots__ = ("checked", "fighter", "metres", "outside_turn", "reduce")

    def __init__(
        self,
        fighter: int,
        metres: int,
        outside_turn: bool,
        reduce: int = 0,
        checked: bool = False,
    ) -> None:
        super().__init__()
        self.fighter = fighter
        self.metres = metres
        self.outside_turn = outside_turn
        self.reduce = reduce
        self.checked = checked

    def _catch_prompt(self, c: Combat, f: FighterState) -> Decision | None:
        """R05: catch the fall with a reaction (or M05); a benommen faller who could shake
        it off first (M08, X38) is asked with the shake only (prompts.py)."""
        choices = catch_fall_choices(c, f)
        if not choices:
            return None
        return Decision(DecisionKind.STURZ, f.idx, choices, FallPrompt(self.metres))

    def reprompt(self, c: Combat, decision: Decision, shaken: Condition | None) -> Decision | None:
        f = c.fighters[self.fighter]
        return self._catch_prompt(c, f) or super().reprompt(c, decision, shaken)

    def step(self, c: Combat, value: Any) -> Decision | Frame | Return:
        f = c.fighters[self.fighter]
        if self.stage == _FALL_START:
            if self.metres <= move_profile(c, f).free_drop:
                return DONE
            self.stage = _FALL_ANSWERED
            prompt = self._catch_prompt(c, f) if self.outside_turn else None
            if prompt is not None:
                return prompt
            if not self.outside_turn and not self.checked and c.options.own_turn_fall_roll:
                self.stage = _FALL_CAUGHT  # X18: B05's roll, no reaction in one's own turn
                about = CheckPurpose.CATCH_FALL
                return check(c, f, CheckValue.INFILTRATION, check_text(about), about)
            value = None
        if self.stage == _FALL_ANSWERED:
            self.stage = _FALL_FALLING
            if value is not None and value.kind is ActionKind.CATCH_FALL:
                pay_reaction(c, f, value.mumm, ev.ReactionKind.CATCH_FALL)
                self.stage = _FALL_CAUGHT
                about = CheckPurpose.CATCH_FALL
                return check(c, f, CheckValue.INFILTRATION, check_text(about), about, reaction=True)
        if self.stage == _FALL_CAUGHT:
            result: ProbeResult = value
            if result.success:
                self.reduce += result.qs
            self.stage = _FALL_FALLING
        if self.stage == _FALL_FALLING:
            dice = max(0, fall_dice(c.options, self.metres) - self.reduce)
            c.emit(ev.Fell(f.idx, self.metres, dice))
            self.stage = _FALL_FINISHED
            if dice:
                return DamageFrame(
                    f.idx,
                    -1,
                    dice,
                    0,
                    c.options.fall_armour_mode,
                    frozenset({"sturz"}),
                    False,
                    "Sturz",
                )
        return DONE


def push_path(
    c: Combat, f: FighterState, direction: tuple[int, int], metres: int
) -> tuple[int, ...]:
    """Cells of a forced move of up to ``metres`` in ``direction``; stops before walls,
    cover objects and other fighters (K05, A08). A drop ends it: the fighter falls there."""
    bm = c.bm
    x, y = bm.xs[f.pos], bm.ys[f.pos]
    dx, dy = direction
    cells: list[int] = []
    elev = bm.elevation[f.pos]
    for _ in range(metres):
        x += dx
        y += dy
        if not (0 <= x < bm.width and 0 <= y < bm.height):
            break
        cell = y * bm.width + x
        if c.solid[cell] or cell in c.occupant:
            break
        if bm.elevation[cell] - elev > 1:
            break
        cells.append(cell)
        if bm.elevation[cell] < elev - 1:
            break  # over the edge
        elev = bm.elevation[cell]
    return tuple(cells)


class ForcedStage(IntEnum):
    """Where a :class:`ForcedMoveFrame` stands."""

    MOVE = 0  # move along the path
    LANDED = 1  # the move is done: a fall if it went over an edge
    FINISHED = 2  # the fall has run


_FORCED_MOVE, _FORCED_LANDED, _FORCED_FINISHED = ForcedStage


class ForcedMoveFrame(Frame):
    """Move a fighter along a forced path, then let it fall if it went over an edge."""

    __slots__ = ("cause", "fighter", "path", "provoke", "start_elev")

    def __init__(self, fighter: int, path: tuple[int, ...], cause: str, provoke: bool) -> None:
        super().__init__()
        self.fighter = fighter
        self.path = path
        self.cause = cause
        self.provoke = provoke
        self.start_elev = 0

    def step(self, c: Combat, value: Any) -> Decision | Frame | Return:
        f = c.fighters[self.fighter]
        if self.stage == _FORCED_MOVE:
            self.stage = _FORCED_LANDED
            if not self.path:
                return DONE
            self.start_elev = c.bm.elevation[f.pos]
            c.emit(ev.ForcedMove(f.idx, tuple(c.bm.cell(x) for x in self.path), self.cause))
            return MoveFrame(f.idx, self.path, self.cause, self.provoke)
        if self.stage == _FORCED_LANDED:
            self.stage = _FORCED_FINISHED
            depth = self.start_elev - c.bm.elevation[f.pos]
            if depth > 0 and f.on_map and not f.dead:
                return FallFrame(f.idx, depth, outside_turn=c.turn_fighter != f.idx)
        return DONE


DIFFICULT_VERBS = {
    StepKind.CLIMB: "klettert",
    StepKind.SWIM: "schwimmt",
    StepKind.JUMP: "springt",
    StepKind.DROP: "springt hinab",
}

DIFFICULT_SKILL_NAMES = {
    StepKind.CLIMB: "Klettern",
    StepKind.SWIM: "Schwimmen",
    StepKind.JUMP: "Springen",
    StepKind.DROP: "Herabspringen",
}


def difficult_check(c: Combat, f: FighterState, kind: StepKind) -> Frame:
    """H07: the check of a Schwierige Bewegung of ``kind`` (counted per kind)."""
    label = DIFFICULT_SKILL_NAMES[kind]
    c.count(f"move:{label}")
    return check(
        c,
        f,
        difficult_check_value(c, kind),
        check_text(CheckPurpose.MOVE, label),
        CheckPurpose.MOVE,
    )


def difficult_check_value(c: Combat, kind: StepKind) -> CheckValue:
    """B03/B04: climbing and swimming on Unbeugsamkeit (X17); jumps and deep drops on
    Infiltration (B02, B06)."""
    if kind is StepKind.CLIMB:
        return CheckValue(c.options.climb_skill.value)
    if kind is StepKind.SWIM:
        return CheckValue(c.options.swim_skill.value)
    return CheckValue.INFILTRATION


class SchwierigStage(IntEnum):
    """Where a :class:`SchwierigFrame` stands."""

    CHECK = 0  # the check of the difficult steps (H07)
    RESULT = 1  # the roll is back: the move, or no headway
    MOVED = 2  # the move is done: a failed jump's or a deep drop's fall
    FINISHED = 3  # nothing more


_HARD_CHECK, _HARD_RESULT, _HARD_MOVED, _HARD_FINISHED = SchwierigStage


class SchwierigFrame(Frame):
    """H07 Schwierige Bewegung along ``route``: one check for its difficult steps.

    Success: the whole route; a deep drop's fall loses QS damage dice (X18). Failure: the
    free steps before the first difficult one are still walked (H07/B01), then a climb or
    swim makes no headway; a long jump falls into the gap; a deep drop falls with every die.
    """

    __slots__ = ("fighter", "result", "route")

    def __init__(self, fighter: int, route: Route) -> None:
        super().__init__()
        self.fighter = fighter
        self.route = route
        self.result: ProbeResult | None = None

    def step(self, c: Combat, value: Any) -> Decision | Frame | Return:
        f = c.fighters[self.fighter]
        route = self.route
        if self.stage == _HARD_CHECK:
            self.stage = _HARD_RESULT
            return difficult_check(c, f, route.kind)
        if self.stage == _HARD_RESULT:
            self.result = value
            self.stage = _HARD_MOVED
            how = DIFFICULT_VERBS[route.kind]
            if value.success:
                return MoveFrame(f.idx, route.cells, how, spent=route.spent)
            if route.kind in (StepKind.CLIMB, StepKind.SWIM):
                # H07/B01: the check is for the climb or the swim only; the ordinary walk to
                # the foot of the wall (or the shore) before it is still made.
                c.emit(ev.Acted(f.idx, ev.Act.FAILED, how, index=int(route.kind)))
                self.stage = _HARD_FINISHED
                free = max(route.first_hard, 0)
                return MoveFrame(f.idx, route.cells[:free], "geht", spent=route.spent[:free])
            if route.kind is StepKind.JUMP:
                free = max(route.first_hard, 0)
                return MoveFrame(f.idx, route.cells[:free], how, spent=route.spent[:free])
            return MoveFrame(f.idx, route.cells, how, spent=route.spent)
        if self.stage == _HARD_MOVED:
            self.stage = _HARD_FINISHED
            result = present(self.result, "the roll of the move")
            if route.kind is StepKind.JUMP and not result.success:
                landing = route.cells[route.first_hard]
                bm = c.bm
                x0, y0 = bm.xs[f.pos], bm.ys[f.pos]
                dx = (bm.xs[landing] > x0) - (bm.xs[landing] < x0)
                dy = (bm.ys[landing] > y0) - (bm.ys[landing] < y0)
                gap = bm.index(x0 + dx, y0 + dy)
                depth = bm.elevation[f.pos] - bm.elevation[gap]
                if depth < 2 or not bm.terrain[gap].standable:
                    # X48: a failed jump over a low wall or up a step makes no headway.
                    c.emit(
                        ev.Acted(
                            f.idx, ev.Act.FAILED, DIFFICULT_VERBS[route.kind], index=int(route.kind)
                        )
                    )
                    return DONE
                if gap in c.occupant:
                    return DONE
                c.move_fighter(f, gap)
                c.emit(ev.ForcedMove(f.idx, (bm.cell(gap),), "stürzt in die Lücke"))
                return FallFrame(f.idx, depth, outside_turn=False)
            if route.kind is StepKind.DROP and route.drop:
                reduce = result.qs if result.success else 0
                return FallFrame(f.idx, route.drop, False, reduce=reduce, checked=True)
        return DONE
