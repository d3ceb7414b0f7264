"""Moving fighters: walking with Blockadeangriffe, Schwierige Bewegung, forced moves and falls.

B01–B06, R04, R05, K03, K05, A08 (Fehltritt), X18, X40, X43.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cwenv.battlemap.grid import Terrain
from cwenv.battlemap.paths import MoveProfile, Route, StepKind
from cwenv.engine import events as ev
from cwenv.engine.actions import Action, ActionKind, Decision, DecisionKind
from cwenv.engine.checks import check
from cwenv.engine.damage import (
    DamageFrame,
    can_use_reaction,
    gain_zehrend,
    pay_reaction,
    reaction_choices,
)
from cwenv.engine.frames import DONE, Frame, Return
from cwenv.engine.game import VictoryKind
from cwenv.model.types import CheckValue, Condition, WeaponKind
from cwenv.rules.options import BlockadeGeometry, DropAbsorbed, ProneMovement, Rounding
from cwenv.rules.probe import ProbeResult

if TYPE_CHECKING:
    from cwenv.engine.fighter import FighterState
    from cwenv.engine.state import Combat

FALL_METRES_PER_DIE = 3  # B05: 1W10 per 3 m
PUSH_METRES = 2  # K05 Wegstossen, A08 Fehltritt


def movement_allowance(c: Combat, f: FighterState) -> int:
    """Metres per Handlung: Bewegung, halved (min. 1) while eingeschränkt (B01, Z03, X40);
    nothing while niedergeworfen unless crawling is allowed (X40)."""
    metres = f.spec.movement
    if f.conditions >> Condition.EINGESCHRAENKT & 1:
        metres = max(1, metres // 2)
    if f.conditions >> Condition.NIEDERGEWORFEN & 1:
        if c.options.prone_movement is ProneMovement.NONE:
            return 0
        metres = max(1, metres // 2)
    return metres


def move_profile(c: Combat, f: FighterState) -> MoveProfile:
    """Free jump and absorbed drop are half the fighter's current Bewegung, min. 1 m (B02,
    B06); sprinting does not widen them. Climbing and swimming cost double (B03, B04); under
    Eingeschränkt that halving stacks unless X40 says otherwise."""
    bewegung = movement_allowance_base(c, f)
    half = max(1, bewegung // 2)
    # B06: a drop of *less than* half Bewegung (min. 1 m) is absorbed (X18 reading).
    if c.options.drop_absorbed is DropAbsorbed.BELOW_HALF:
        drop = max(1, -(-bewegung // 2) - 1)
    else:
        drop = half
    slow = 2
    if f.conditions >> Condition.EINGESCHRAENKT & 1 and not c.options.halvings_stack:
        slow = 1
    return MoveProfile(
        free_jump=half, free_drop=drop, slow_cost=slow, max_jump=max(1, f.spec.movement)
    )


def movement_allowance_base(c: Combat, f: FighterState) -> int:
    metres = f.spec.movement
    if f.conditions >> Condition.EINGESCHRAENKT & 1:
        metres = max(1, metres // 2)
    return metres


def blocked_for(c: Combat, f: FighterState) -> bytearray:
    """Cells ``f`` cannot enter: terrain, closed doors, and standing non-allies."""
    blocked = c.solid[:]
    for g in c.fighters:
        if g.side is not f.side and g.on_map and not g.down:
            blocked[g.pos] = 1
    return blocked


def threat_masks(c: Combat, f: FighterState) -> list[int]:
    """For every cell, the bit set of enemies who could make a Blockadeangriff there (R04)."""
    bm = c.bm
    masks = [0] * bm.size
    for g in c.fighters:
        if g.side is f.side or not can_use_reaction(c, g):
            continue
        reach = g.melee_reach
        if reach <= 0:
            continue
        gx, gy = bm.xs[g.pos], bm.ys[g.pos]
        bit = 1 << g.idx
        for y in range(max(0, gy - reach), min(bm.height, gy + reach + 1)):
            row = y * bm.width
            for x in range(max(0, gx - reach), min(bm.width, gx + reach + 1)):
                masks[row + x] |= bit
    return masks


def _provokes(c: Combat, g: FighterState, a: int, b: int) -> int:
    """Reach of ``g``'s best melee weapon if the step a→b passes it (R04, X43), else 0."""
    reach = g.melee_reach
    if reach <= 0:
        return 0
    bm = c.bm
    if bm.distance(g.pos, b) > reach:
        return 0
    if (
        c.options.blockade_geometry is BlockadeGeometry.STAY_IN_REACH
        and bm.distance(g.pos, a) > reach
    ):
        return 0
    return reach


def blockade_prompt(
    c: Combat, mover: FighterState, a: int, b: int, asked: tuple[int, ...]
) -> Decision | None:
    """R04: the first enemy not yet asked in this move whom the step a→b passes within melee
    reach, and who can pay a reaction (or M05), is asked whether to strike. One
    Blockadeangriff per enemy per move."""
    for g in c.fighters:
        if g.idx in asked or g.side is mover.side or not g.standing:
            continue
        if not _provokes(c, g, a, b):
            continue
        pay = reaction_choices(c, g)
        if not pay:
            continue
        near = min(c.bm.distance(g.pos, a), c.bm.distance(g.pos, b))
        choices = [
            Action(ActionKind.BLOCKADE_ATTACK, g.idx, mover.idx, -1, wi, pay[0])
            for wi, w in enumerate(g.weapons)
            if w.kind is WeaponKind.MELEE and g.weapon_usable(wi) and near <= w.reach
        ]
        if choices:
            choices.append(Action(ActionKind.LET_PASS, g.idx, mover.idx))
            return Decision(DecisionKind.BLOCKADE, g.idx, tuple(choices), (mover.idx,))
    return None


class MoveFrame(Frame):
    """Walk ``path`` cell by cell. Before each step every enemy it passes within melee reach
    may make a Blockadeangriff with a reaction (R04); a mover brought down or made benommen
    stops. ``provoke`` is False for forced movement that does not trigger it (X43)."""

    __slots__ = ("asked", "done", "fighter", "how", "i", "path", "provoke", "reactor", "start")

    def __init__(self, fighter: int, path: tuple[int, ...], how: str, provoke: bool = True) -> None:
        super().__init__()
        self.fighter = fighter
        self.path = path
        self.how = how
        self.provoke = provoke
        self.i = 0
        self.asked: tuple[int, ...] = ()
        self.done: tuple[int, ...] = ()
        self.reactor = -1
        self.start = -1

    def step(self, c: Combat, value: Any) -> Decision | Frame | Return:
        f = c.fighters[self.fighter]
        if self.start < 0:
            self.start = f.pos
        if self.stage == 1:  # a reactor answered
            g = c.fighters[self.reactor]
            self.stage = 0
            if value.kind is ActionKind.BLOCKADE_ATTACK:
                from cwenv.engine.attack import AttackFrame, AttackMode

                pay_reaction(c, g, value.mumm, "Blockadeangriff")
                self.stage = 2
                return AttackFrame(g.idx, f.idx, value.index, AttackMode.BLOCKADE)
        if self.stage == 2:  # back from a Blockadeangriff
            self.stage = 0
            if not f.standing or f.conditions >> Condition.BENOMMEN & 1:
                return self._finish(c, f)
        while self.i < len(self.path):
            a, b = f.pos, self.path[self.i]
            if self.provoke:
                prompt = blockade_prompt(c, f, a, b, self.asked)
                if prompt is not None:
                    self.asked = (*self.asked, prompt.fighter)
                    self.reactor = prompt.fighter
                    self.stage = 1
                    return prompt
            other = c.occupant.get(b, f.idx)
            # B01: allies may be passed through but not stopped on; an enemy who stepped
            # into the way, or anyone on the destination, ends the move here.
            if (
                other != f.idx
                and not c.fighters[other].down
                and (c.fighters[other].side is not f.side or self.i == len(self.path) - 1)
            ):
                break
            entered_fire = c.bm.terrain[b] is Terrain.FIRE and c.bm.terrain[a] is not Terrain.FIRE
            c.move_fighter(f, b)
            self.done = (*self.done, b)
            self.i += 1
            if entered_fire:
                frame = enter_danger_zone(c, f, FIRE_ZEHREND)
                if frame is not None:
                    self.stage = 2
                    return frame
        return self._finish(c, f)

    def _finish(self, c: Combat, f: FighterState) -> Return:
        if c.occupant.get(f.pos) != f.idx and f.on_map:
            # Stopped while passing through an ally: back off to the last free cell.
            for cell in (*reversed(self.done[:-1]), self.start):
                if cell not in c.occupant or c.occupant[cell] == f.idx:
                    c.move_fighter(f, cell)
                    break
            self.done = self.done[: self.done.index(f.pos) + 1] if f.pos in self.done else ()
        if self.done:
            c.emit(
                ev.Moved(f.idx, tuple(c.bm.cell(x) for x in self.done), len(self.done), self.how)
            )
            if c.options.zielen_lost_on_move and f.aim_stacks:
                f.aim_stacks = 0
                f.aim_target = -1
            _maybe_escape(c, f)
        return DONE


FIRE_ZEHREND = "Feuer"


def enter_danger_zone(c: Combat, f: FighterState, kind: str) -> Frame | None:
    """D03: stepping into a danger zone starts its Zehrend (again: 1W10 at once, Z08)."""
    if kind not in f.zone_zehrend:
        f.zone_zehrend = (*f.zone_zehrend, kind)
    return gain_zehrend(c, f, kind)


def in_danger_zone(c: Combat, f: FighterState, kind: str) -> bool:
    return kind == FIRE_ZEHREND and f.on_map and c.bm.terrain[f.pos] is Terrain.FIRE


def _maybe_escape(c: Combat, f: FighterState) -> None:
    """A fighter on an exit cell whose side must reach the exit leaves the map (escaped)."""
    if f.pos not in c.bm.exits:
        return
    for v in c.game.victory:
        if v.kind is VictoryKind.REACH_EXIT and v.side is f.side:
            f.fled = True
            c.remove_from_map(f)
            c.emit(ev.StatusChanged(f.idx, "entkommen"))
            c.mark_dirty()
            return


def fall_dice(c: Combat, metres: int) -> int:
    """B05, X18: 1W10 per full 3 m (or per started 3 m when rounding up)."""
    if c.options.fall_dice_rounding is Rounding.UP:
        return -(-metres // FALL_METRES_PER_DIE)
    return metres // FALL_METRES_PER_DIE


class FallFrame(Frame):
    """A fall of ``metres`` (B05, B06, R05): absorbed when no deeper than half Bewegung;
    outside the faller's own turn a reaction may catch it with Infiltration, whose QS
    removes damage dice (X18: the same roll)."""

    __slots__ = ("fighter", "metres", "outside_turn", "reduce")

    def __init__(self, fighter: int, metres: int, outside_turn: bool, reduce: int = 0) -> None:
        super().__init__()
        self.fighter = fighter
        self.metres = metres
        self.outside_turn = outside_turn
        self.reduce = reduce

    def step(self, c: Combat, value: Any) -> Decision | Frame | Return:
        f = c.fighters[self.fighter]
        if self.stage == 0:
            if self.metres <= move_profile(c, f).free_drop:
                return DONE
            self.stage = 1
            pay = reaction_choices(c, f) if self.outside_turn else ()
            if pay:
                return Decision(
                    DecisionKind.STURZ,
                    f.idx,
                    (
                        Action(ActionKind.CATCH_FALL, f.idx, mumm=pay[0]),
                        Action(ActionKind.NO_CATCH, f.idx),
                    ),
                )
            value = None
        if self.stage == 1:
            self.stage = 3
            if value is not None and value.kind is ActionKind.CATCH_FALL:
                pay_reaction(c, f, value.mumm, "Sturz abfangen")
                self.stage = 2
                return check(c, f, CheckValue.INFILTRATION, "Sturz abfangen", reaction=True)
        if self.stage == 2:
            result: ProbeResult = value
            if result.success:
                self.reduce += result.qs
            self.stage = 3
        if self.stage == 3:
            dice = max(0, fall_dice(c, self.metres) - self.reduce)
            c.emit(ev.Fell(f.idx, self.metres, dice))
            self.stage = 4
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
        if self.stage == 0:
            self.stage = 1
            if not self.path:
                return DONE
            self.start_elev = c.bm.elevation[f.pos]
            c.emit(ev.ForcedMove(f.idx, tuple(c.bm.cell(x) for x in self.path), self.cause))
            return MoveFrame(f.idx, self.path, self.cause, self.provoke)
        if self.stage == 1:
            self.stage = 2
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


def difficult_check_value(c: Combat, kind: StepKind) -> CheckValue:
    """B03/B04: climbing and swimming on Unbeugsamkeit (X17); jumps and deep drops on
    Infiltration (B02, B06)."""
    if kind is StepKind.CLIMB:
        return CheckValue(c.options.climb_skill.value)
    if kind is StepKind.SWIM:
        return CheckValue(c.options.swim_skill.value)
    return CheckValue.INFILTRATION


class SchwierigFrame(Frame):
    """H07 Schwierige Bewegung along ``route``: one check for its difficult steps.

    Success: the whole route; a deep drop's fall loses QS damage dice (X18). Failure: a
    climb or swim makes no headway; a long jump falls into the gap; a deep drop falls with
    every die.
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
        if self.stage == 0:
            self.stage = 1
            label = DIFFICULT_SKILL_NAMES[route.kind]
            c.count(f"move:{label}")
            return check(c, f, difficult_check_value(c, route.kind), label)
        if self.stage == 1:
            self.result = value
            self.stage = 2
            how = DIFFICULT_VERBS[route.kind]
            if value.success:
                return MoveFrame(f.idx, route.cells, how)
            if route.kind in (StepKind.CLIMB, StepKind.SWIM):
                c.emit(ev.Acted(f.idx, "scheitert", how))
                self.stage = 4
                return DONE
            if route.kind is StepKind.JUMP:
                return MoveFrame(f.idx, route.cells[: max(route.first_hard, 0)], how)
            return MoveFrame(f.idx, route.cells, how)
        if self.stage == 2:
            self.stage = 3
            result = self.result
            assert result is not None
            if route.kind is StepKind.JUMP and not result.success:
                landing = route.cells[route.first_hard]
                bm = c.bm
                x0, y0 = bm.xs[f.pos], bm.ys[f.pos]
                dx = (bm.xs[landing] > x0) - (bm.xs[landing] < x0)
                dy = (bm.ys[landing] > y0) - (bm.ys[landing] < y0)
                gap = bm.index(x0 + dx, y0 + dy)
                depth = bm.elevation[f.pos] - bm.elevation[gap]
                if gap in c.occupant:
                    return DONE
                c.move_fighter(f, gap)
                c.emit(ev.ForcedMove(f.idx, (bm.cell(gap),), "stürzt in die Lücke"))
                return FallFrame(f.idx, depth, outside_turn=False)
            if route.kind is StepKind.DROP and route.drop:
                reduce = result.qs if result.success else 0
                return FallFrame(f.idx, route.drop, outside_turn=False, reduce=reduce)
        return DONE
