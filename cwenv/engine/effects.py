"""Movement a Kampfmanöver causes (K03 Mitzerren; K05 through :mod:`falls`) and what a
Patzer does to the attacker (A08). Each manoeuvre's effect is its entry in
:data:`cwenv.engine.tables.maneuvers.MANEUVERS`."""

from __future__ import annotations

from enum import IntEnum
from typing import TYPE_CHECKING, Any

from cwenv.battlemap.paths import Reach, reachable
from cwenv.engine import events as ev
from cwenv.engine.actions import Action, ActionKind, Decision, DecisionKind
from cwenv.engine.conditions import gain_condition, pay_reaction
from cwenv.engine.damage import DamageFrame, SequenceFrame
from cwenv.engine.falls import ForcedMoveFrame
from cwenv.engine.frames import DONE, Frame, Return
from cwenv.engine.movement import (
    PUSH_METRES,
    blockade_choices,
    blockade_prompt,
    blocked_for,
    move_profile,
    movement_allowance_base,
)
from cwenv.engine.payloads import BlockadePrompt, DragPrompt
from cwenv.model.specs import UNARMED
from cwenv.model.types import ArmourMode, AttackMode, Condition
from cwenv.rules.options import ForcedMovementBlockade
from cwenv.rules.tables import FumbleRow, patzer_row

if TYPE_CHECKING:
    from cwenv.engine.fighter import FighterState
    from cwenv.engine.state import Combat


def _sign(v: int) -> int:
    return (v > 0) - (v < 0)


def direction(c: Combat, src: int, dst: int) -> tuple[int, int]:
    bm = c.bm
    return _sign(bm.xs[dst] - bm.xs[src]), _sign(bm.ys[dst] - bm.ys[src])


class DragStage(IntEnum):
    """Where a :class:`DragFrame` stands."""

    PROMPT = 0  # ask where to drag
    ANSWERED = 1  # the attacker chose a cell or stopped
    DRAGGING = 2  # the next step of the drag
    REACTOR_ANSWERED = 3  # an enemy asked for a Blockadeangriff answered


_PROMPT, _ANSWERED, _DRAGGING, _REACTOR_ANSWERED = DragStage


class DragFrame(Frame):
    """K03 Mitzerren: the attacker moves up to half Bewegung and the grabbed target follows
    into each cell the attacker leaves. The attacker's own steps may provoke
    Blockadeangriffe (R04); the target's only under X43 ALL_FORCED."""

    __slots__ = (
        "a_done",
        "asked",
        "attacker",
        "i",
        "path",
        "reactor",
        "spent",
        "t_done",
        "target",
    )

    def __init__(self, attacker: int, target: int) -> None:
        super().__init__()
        self.attacker = attacker
        self.target = target
        self.path: tuple[int, ...] = ()
        self.spent: tuple[int, ...] = ()  # the drag route's metres per cell
        self.i = 0
        self.asked: tuple[int, ...] = ()
        self.reactor = -1
        self.a_done: tuple[int, ...] = ()
        self.t_done: tuple[int, ...] = ()

    def _reach(self, c: Combat, a: FighterState) -> Reach:
        budget = max(1, movement_allowance_base(c, a) // 2)
        return reachable(
            c.bm,
            blocked_for(c, a),
            a.pos,
            budget,
            move_profile(c, a),
            occupied=frozenset(c.occupant),
        )

    def _drag_prompt(self, c: Combat, a: FighterState, t: FighterState) -> Decision | None:
        choices = [
            Action(ActionKind.DRAG_TO, a.idx, t.idx, cell) for cell in self._reach(c, a).dests
        ]
        if not choices:
            return None
        choices.append(Action(ActionKind.DRAG_STOP, a.idx, t.idx))
        return Decision(DecisionKind.DRAG, a.idx, tuple(choices), DragPrompt(t.idx))

    def reprompt(self, c: Combat, decision: Decision, shaken: Condition | None) -> Decision | None:
        """After an M08 shake (X38): the drag's reach (Eingeschränkt halves it) or the
        reactor's Blockadeangriffe, built again."""
        a, t = c.fighters[self.attacker], c.fighters[self.target]
        prompt: Decision | None = None
        if decision.kind is DecisionKind.DRAG:
            prompt = self._drag_prompt(c, a, t)
        elif isinstance(decision.payload, BlockadePrompt):
            mover = c.fighters[decision.payload.mover]
            cell = self.path[self.i]
            start, end = (a.pos, cell) if mover is a else (t.pos, a.pos)
            prompt = blockade_choices(c, mover, c.fighters[self.reactor], start, end)
        return prompt or super().reprompt(c, decision, shaken)

    def step(self, c: Combat, value: Any) -> Decision | Frame | Return:
        a, t = c.fighters[self.attacker], c.fighters[self.target]
        if self.stage == _PROMPT:
            self.stage = _ANSWERED
            if not a.standing or t.dead:
                return DONE
            prompt = self._drag_prompt(c, a, t)
            return DONE if prompt is None else prompt
        if self.stage == _ANSWERED:
            if value.kind is ActionKind.DRAG_STOP:
                return DONE
            route = self._reach(c, a).route(value.cell)
            self.path, self.spent = route.cells, route.spent
            self.stage = _DRAGGING
            value = None
        if self.stage == _REACTOR_ANSWERED:  # a reactor answered
            self.stage = _DRAGGING
            if value.kind is ActionKind.BLOCKADE_ATTACK:
                from cwenv.engine.attack import AttackFrame

                g = c.fighters[self.reactor]
                pay_reaction(c, g, value.mumm, ev.ReactionKind.BLOCKADE)
                return AttackFrame(g.idx, value.target, value.weapon, AttackMode.BLOCKADE)
        forced = c.options.forced_movement_blockade is ForcedMovementBlockade.ALL_FORCED
        while self.i < len(self.path) and a.standing:
            cell = self.path[self.i]
            prompt = blockade_prompt(c, a, a.pos, cell, (*self.asked, t.idx))
            if prompt is None and forced and t.on_map:
                prompt = blockade_prompt(c, t, t.pos, a.pos, (*self.asked, a.idx))
            if prompt is not None:
                self.asked = (*self.asked, prompt.fighter)
                self.reactor = prompt.fighter
                self.stage = _REACTOR_ANSWERED
                return prompt
            prev = a.pos
            c.move_fighter(a, cell)
            c.move_fighter(t, prev)
            self.a_done = (*self.a_done, cell)
            self.t_done = (*self.t_done, prev)
            self.i += 1
        if self.a_done:
            c.emit(
                ev.Moved(
                    a.idx,
                    tuple(c.bm.cell(x) for x in self.a_done),
                    self.spent[len(self.a_done) - 1],
                    "zerrt",
                )
            )
            c.emit(ev.ForcedMove(t.idx, tuple(c.bm.cell(x) for x in self.t_done), "Mitzerren"))
        return DONE


def slide_path(c: Combat, f: FighterState, toward: int) -> tuple[int, ...]:
    """A08 Fehltritt: 2 m onward past the opponent, veering round anything in the way."""
    bm = c.bm
    dx, dy = direction(c, f.pos, toward)
    if dx == 0 and dy == 0:
        dx = 1
    options = [(dx, dy), (_sign(dx - dy), _sign(dx + dy)), (_sign(dx + dy), _sign(dy - dx))]
    x, y = bm.xs[f.pos], bm.ys[f.pos]
    elev = bm.elevation[f.pos]
    path: list[int] = []
    for _ in range(PUSH_METRES):
        moved = False
        for ox, oy in options:
            nx, ny = x + ox, y + oy
            if not (0 <= nx < bm.width and 0 <= ny < bm.height):
                continue
            cell = ny * bm.width + nx
            if c.solid[cell] or cell in c.occupant or cell in path or bm.elevation[cell] - elev > 1:
                continue
            path.append(cell)
            x, y, moved = nx, ny, True
            break
        if not moved or bm.elevation[path[-1]] < elev - 1:
            break
        elev = bm.elevation[path[-1]]
    return tuple(path)


def patzer_effects(
    c: Combat, a: FighterState, t: FighterState, mode: AttackMode, index: int, qs: int = 0
) -> Frame:
    """A08: roll 2W10 − the defender's QS (``qs``: 0 unless X09 patzer_defender_qs lets the
    target roll a defence) and apply the row to the attacker."""
    d1, d2 = c.d10(), c.d10()
    row = patzer_row(d1 + d2 - qs)
    c.emit(ev.TableRolled(a.idx, ev.TableKind.PATZER, d1, d2, qs, row.value))
    c.count(f"patzer:{row.name}")
    frames: list[Frame] = []
    if row is FumbleRow.MUSKELRISS:
        gain_condition(c, a, Condition.ANGESCHLAGEN)
        frames.append(
            DamageFrame(a.idx, -1, 1, 0, ArmourMode.DIREKT, frozenset(), False, "Muskelriss")
        )
    elif row is FumbleRow.UEBERDEHNT:
        frames.append(
            DamageFrame(a.idx, -1, 1, 0, ArmourMode.DIREKT, frozenset(), False, "Überdehnt")
        )
    elif row is FumbleRow.OFFENE_DECKUNG:
        gain_condition(c, a, Condition.VERWIRRT)
    elif row is FumbleRow.FEHLTRITT:
        gain_condition(c, a, Condition.EINGESCHRAENKT)
        provoke = c.options.forced_movement_blockade is not ForcedMovementBlockade.NEVER
        frames.append(ForcedMoveFrame(a.idx, slide_path(c, a, t.pos), "Fehltritt", provoke))
    elif row is FumbleRow.WAFFE_BLOCKIERT:
        if mode.with_weapon and a.weapons[index] is not UNARMED:  # weapon attacks only
            a.jammed |= 1 << index
            c.emit(ev.Acted(a.idx, ev.Act.JAMMED, a.weapons[index].name, index=index))
    elif row is FumbleRow.ENTMUTIGT:
        gain_condition(c, a, Condition.ENTMUTIGT)
    return SequenceFrame(tuple(frames))
