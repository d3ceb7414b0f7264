"""Moving fighters: walking with Blockadeangriffe, the movement budget and danger zones.

B01, R04, X40, X43; falls and forced moves live in :mod:`cwenv.engine.falls`.
"""

from __future__ import annotations

from enum import IntEnum
from typing import TYPE_CHECKING, Any

from cwenv.battlemap.blockade import Guard, Threat, passes
from cwenv.battlemap.grid import Terrain
from cwenv.battlemap.steps import MoveProfile
from cwenv.engine import events as ev
from cwenv.engine.actions import ActionKind, Decision, DecisionKind
from cwenv.engine.conditions import (
    can_use_reaction,
    pay_reaction,
)
from cwenv.engine.damage import gain_zehrend
from cwenv.engine.frames import DONE, Frame, Return
from cwenv.engine.payloads import BlockadePrompt
from cwenv.engine.prompts import blockade_attack_choices
from cwenv.engine.victory import escapes
from cwenv.model.types import AttackMode, Condition
from cwenv.rules.options import ClimbDown, DropAbsorbed, ProneMovement, Rounding, RuleOptions

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
    """The fighter's step costs (:func:`profile_for` under the combat's readings)."""
    eingeschraenkt = bool(f.conditions >> Condition.EINGESCHRAENKT & 1)
    return profile_for(c.options, f.spec.movement, eingeschraenkt)


def profile_for(options: RuleOptions, movement: int, eingeschraenkt: bool) -> MoveProfile:
    """Free jump and absorbed drop are half the fighter's current Bewegung, min. 1 m (B02,
    B06); sprinting does not widen them. Climbing and swimming cost double (B03, B04); under
    Eingeschränkt that halving stacks unless X40 says otherwise. The engine and the
    scenario generator's reachability check (:mod:`cwenv.content.generate.reach`) both
    build profiles here, so a new reading of a step changes one place."""
    bewegung = max(1, movement // 2) if eingeschraenkt else movement
    half = max(1, bewegung // 2)
    # B06: a drop of *less than* half Bewegung (min. 1 m) is absorbed (X18 reading).
    if options.drop_absorbed is DropAbsorbed.BELOW_HALF:
        drop = max(1, -(-bewegung // 2) - 1)
    else:
        drop = half
    slow = 2
    if eingeschraenkt and not options.halvings_stack:
        slow = 1
    # X40 climb_over_actions false: a face no one action's movement climbs down is dropped
    # (B06's Schwierige Bewegung), or a fighter on a high ledge would have no way down.
    climb_down_max = 0 if options.climb_over_actions else max(1, bewegung // slow)
    return MoveProfile(
        free_jump=half,
        free_drop=drop,
        slow_cost=slow,
        max_jump=max(1, movement),
        hurdles=options.hurdles,
        alternate=options.diagonals_alternate,
        climb_down=climb_down_depth(options),
        climb_down_max=climb_down_max,
    )


def fall_dice(options: RuleOptions, metres: int) -> int:
    """B05, X18: 1W10 per full 3 m (or per started 3 m when rounding up)."""
    if options.fall_dice_rounding is Rounding.UP:
        return -(-metres // FALL_METRES_PER_DIE)
    return metres // FALL_METRES_PER_DIE


def climb_down_depth(options: RuleOptions) -> int:
    """B03, X62 ``climb_down``: the least depth a fighter on a climbable ledge climbs down
    rather than drops (0: never). ``when_hurt``: the least fall that rolls a die
    (:func:`fall_dice`); only drops deeper than the absorbed one are ever in question."""
    reading = options.climb_down
    if reading is ClimbDown.NEVER:
        return 0
    if reading is ClimbDown.ALWAYS:
        return 1
    return next((m for m in range(1, 100) if fall_dice(options, m) > 0), 0)


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


def threat_of(c: Combat, f: FighterState) -> Threat:
    """The enemies who could make a Blockadeangriff on ``f`` and where (R04, X43)."""
    bm = c.bm
    guards = [
        Guard(1 << g.idx, bm.xs[g.pos], bm.ys[g.pos], g.melee_reach)
        for g in c.fighters
        if g.side is not f.side and can_use_reaction(c, g) and g.melee_reach > 0
    ]
    return Threat(bm, guards, c.options.blockade_geometry)


def _provokes(c: Combat, g: FighterState, a: int, b: int) -> int:
    """Reach of ``g``'s best melee weapon if the step a→b moves past it (R04, X43), else 0."""
    reach = g.melee_reach
    if reach <= 0:
        return 0
    xs, ys = c.bm.xs, c.bm.ys
    offset = (xs[a] - xs[g.pos], ys[a] - ys[g.pos])
    step = (xs[b] - xs[a], ys[b] - ys[a])
    return reach if passes(c.options.blockade_geometry, offset, step, reach) else 0


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
        prompt = blockade_choices(c, mover, g, a, b)
        if prompt is not None:
            return prompt
    return None


def blockade_choices(
    c: Combat, mover: FighterState, g: FighterState, a: int, b: int
) -> Decision | None:
    """R04, M05: ``g``'s Blockadeangriffe on ``mover`` stepping a→b (prompts.py
    blockade_attack_choices), or None when ``g`` is not asked."""
    choices = blockade_attack_choices(c, mover, g, a, b)
    if not choices:
        return None
    return Decision(DecisionKind.BLOCKADE, g.idx, choices, BlockadePrompt(mover.idx, a, b))


class MoveStage(IntEnum):
    """Where a :class:`MoveFrame` stands."""

    WALKING = 0  # the next step (each may provoke a Blockadeangriff, R04)
    REACTOR_ANSWERED = 1  # the asked enemy answered
    RESUMED = 2  # back from a Blockadeangriff or a danger zone


_WALKING, _REACTOR_ANSWERED, _RESUMED = MoveStage


class MoveFrame(Frame):
    """Walk ``path`` cell by cell. Before each step every enemy it passes within melee reach
    may make a Blockadeangriff with a reaction (R04); a mover brought down or made benommen
    stops. ``provoke`` is False for forced movement that does not trigger it (X43).
    ``spent``: the metres of Bewegung spent on reaching each cell of ``path`` (a searched
    route's :attr:`Route.spent`: X48 jumps, B03 climbs, X49 diagonals); by default one metre
    a cell (B01), as forced movement is counted. The Moved event tells the metres walked."""

    __slots__ = (
        "asked",
        "done",
        "fighter",
        "how",
        "i",
        "path",
        "provoke",
        "reactor",
        "spent",
        "start",
    )

    def __init__(
        self,
        fighter: int,
        path: tuple[int, ...],
        how: str,
        provoke: bool = True,
        spent: tuple[int, ...] = (),
    ) -> None:
        super().__init__()
        self.fighter = fighter
        self.path = path
        self.spent = spent or tuple(range(1, len(path) + 1))
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
        if self.stage == _REACTOR_ANSWERED:  # a reactor answered
            g = c.fighters[self.reactor]
            self.stage = _WALKING
            if value.kind is ActionKind.BLOCKADE_ATTACK:
                from cwenv.engine.attack import AttackFrame

                pay_reaction(c, g, value.mumm, ev.ReactionKind.BLOCKADE)
                self.stage = _RESUMED
                return AttackFrame(g.idx, f.idx, value.weapon, AttackMode.BLOCKADE)
        if self.stage == _RESUMED:  # back from a Blockadeangriff
            self.stage = _WALKING
            if not f.standing or f.conditions >> Condition.BENOMMEN & 1:
                return self._finish(c, f)
        while self.i < len(self.path):
            a, b = f.pos, self.path[self.i]
            if self.provoke:
                prompt = blockade_prompt(c, f, a, b, self.asked)
                if prompt is not None:
                    self.asked = (*self.asked, prompt.fighter)
                    self.reactor = prompt.fighter
                    self.stage = _REACTOR_ANSWERED
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
                    self.stage = _RESUMED
                    return frame
        return self._finish(c, f)

    def reprompt(self, c: Combat, decision: Decision, shaken: Condition | None) -> Decision | None:
        """After an M08 shake at the reactor's BLOCKADE prompt (X38): its choices again."""
        f = c.fighters[self.fighter]
        prompt = blockade_choices(c, f, c.fighters[self.reactor], f.pos, self.path[self.i])
        return prompt or super().reprompt(c, decision, shaken)

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
                ev.Moved(
                    f.idx,
                    tuple(c.bm.cell(x) for x in self.done),
                    self.spent[len(self.done) - 1],
                    self.how,
                )
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
    """A fighter on an exit cell whose side must reach the exit leaves the map (escaped;
    :func:`cwenv.engine.victory.escapes` says who does)."""
    if f.pos in c.bm.exits and escapes(c, f):
        f.fled = True
        c.remove_from_map(f)
        c.emit(ev.StatusChanged(f.idx, ev.Status.ESCAPED))
        c.mark_dirty()
