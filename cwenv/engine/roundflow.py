"""The Kampfrunde: initiative, the order of turns, and the end of the round.

Steps (I01–I04) or passes (I10–I13) by ``options.initiative``; reactions granted at the
start of the round (R01, X01, X24); end-of-round Zehrend and Sterbend (D03, D08, Z08, X31).
"""

from __future__ import annotations

from enum import IntEnum
from typing import TYPE_CHECKING, Any

from cwenv.engine import events as ev
from cwenv.engine.actions import Action, ActionKind, Decision, DecisionKind
from cwenv.engine.checks import check
from cwenv.engine.conditions import lose_condition, reapply_zone_zehrend
from cwenv.engine.damage import LoseLPFrame, zehrend_damage
from cwenv.engine.frames import DONE, Frame, Return
from cwenv.engine.movement import in_danger_zone
from cwenv.engine.payloads import CheckPurpose, OrderPrompt
from cwenv.engine.tables.checks import check_text
from cwenv.engine.victory import decide_at_round_end
from cwenv.model.types import CheckValue, Condition, Skill
from cwenv.rules.options import (
    InitiativeSystem,
    ProneBonusUntil,
    ReactionBasis,
    RoundEndOrder,
    Surprise,
    TieOrder,
)
from cwenv.rules.probe import ProbeResult

if TYPE_CHECKING:
    from cwenv.engine.fighter import FighterState
    from cwenv.engine.state import Combat

STEP_INTERVAL = 10  # I03: again every 10 steps
DICE_PER_GRUNDWERT = 5  # I02: Grundwert ÷ 5, rounded up
REACTION_DIVISOR = 4  # R01: Initiative ÷ 4, rounded down
REFLEXE_PER_ACTION = 8  # I11: Reflexe ÷ 8, rounded up


def initiative_steps(initiative: int) -> tuple[int, ...]:
    """I03: act at the Initiative and every 10 steps further while the step is ≥ 1."""
    return tuple(range(initiative, 0, -STEP_INTERVAL))


def initiative_dice(grundwert: int) -> int:
    """I02: Grundwert ÷ 5 rounded up W10s (at least one)."""
    return max(1, -(-grundwert // DICE_PER_GRUNDWERT))


def pass_actions(c: Combat, f: FighterState) -> int:
    """I11: (Reflexe incl. the corresponding bonuses) ÷ 8 rounded up (X36)."""
    reflexe = f.spec.skill(Skill.REFLEXE)
    if c.options.passes_count_initiative_bonus:
        reflexe += f.spec.initiative_bonus_total
    return max(1, -(-reflexe // REFLEXE_PER_ACTION))


def _reactions(c: Combat, f: FighterState) -> int:
    """R01, X01: Initiative ÷ 4 rounded down; none for the benommen."""
    if f.conditions >> Condition.BENOMMEN & 1:
        return 0
    basis = c.options.reactions_basis
    if basis is ReactionBasis.ROLLED_INITIATIVE:
        value = f.initiative
    elif basis is ReactionBasis.GRUNDWERT:
        value = f.grundwert
    else:
        value = f.spec.skill(Skill.REFLEXE)
    return value // REACTION_DIVISOR


class CombatStage(IntEnum):
    """Where the :class:`CombatFrame` stands."""

    START = 0  # before the first round
    ROUND_OVER = 1  # a round has ended: does the fight end, or does another round begin?


class RoundStage(IntEnum):
    """Where a :class:`RoundFrame` stands."""

    START = 0  # initiative (I01–I04, I10–I13), reactions (R01)
    AMBUSH = 1  # X45: the ambushed roll Reflexe
    TURNS = 2  # every slot of the queue acts in order (ties: the ORDER decision)
    OVER = 3  # the end of the round has run


class EndStage(IntEnum):
    """Where an :class:`EndOfRoundFrame` stands (X31: phased, Zehrend for everyone first,
    then the dying checks; otherwise everything for each fighter in turn)."""

    START = 0  # rank the fighters by initiative
    ZEHREND = 1  # the Zehrend items (or, not phased, every item) of each fighter
    DYING = 2  # phased only: the dying checks


class Phase(IntEnum):
    """Where the end of round stands for the current fighter."""

    ZEHREND_DAMAGE = 0  # Z08: 1W10 of the next Zehrend kind
    ZEHREND_CHECK = 1  # Z08, X20: the free check to end it
    DYING_CHECK = 2  # D08: the Unbeugsamkeit check while sterbend
    DYING_RESULT = 3  # D08: its result (stabilised, 1W10 LP, or death on a Patzer)
    FINISHED = 4  # nothing more for this fighter


# Plain aliases: an enum member's attribute lookup is slow in the engine's inner loop.
_COMBAT_START, _ROUND_OVER = CombatStage
_ROUND_START, _AMBUSH, _TURNS, _OVER = RoundStage
_END_START, _END_ZEHREND, _END_DYING = EndStage
_ZEHREND_DAMAGE, _ZEHREND_CHECK, _DYING_CHECK, _DYING_RESULT, _PHASE_FINISHED = Phase


class CombatFrame(Frame):
    """The whole fight: round after round until a victory condition or the round limit."""

    __slots__ = ()

    def step(self, c: Combat, value: Any) -> Decision | Frame | Return:
        if self.stage == _ROUND_OVER:
            verdict = decide_at_round_end(c)  # cwenv.engine.victory: SURVIVE, the round limit
            if verdict is not None:
                c._finish(*verdict)
                return DONE
        self.stage = _ROUND_OVER
        return RoundFrame()


class RoundFrame(Frame):
    """One Kampfrunde: roll initiative, let every slot act in order, then end the round."""

    __slots__ = ("ambush", "rolling", "si", "surprised", "tiebreaking")

    def __init__(self) -> None:
        super().__init__()
        self.surprised: tuple[int, ...] = ()
        self.ambush: tuple[int, ...] = ()
        self.si = 0
        # whose initiative (or X16 tie-break) dice are being rolled: a table-dice prompt
        # names the fighter (cwenv.engine.roll_purposes)
        self.rolling = -1
        self.tiebreaking = False

    def step(self, c: Combat, value: Any) -> Decision | Frame | Return:
        if self.stage == _ROUND_START:
            self._start(c)
            self.stage = _AMBUSH
        if self.stage == _AMBUSH:  # X45: ambushed fighters roll Reflexe in round 1
            if value is not None and not value.success:
                f = c.fighters[self.ambush[self.si - 1]]
                self.surprised = (*self.surprised, f.idx)
                f.reactions = 0
                c.emit(ev.StatusChanged(f.idx, ev.Status.SURPRISED))
            if self.si < len(self.ambush):
                f = c.fighters[self.ambush[self.si]]
                self.si += 1
                return check(
                    c, f, CheckValue.REFLEXE, check_text(CheckPurpose.AMBUSH), CheckPurpose.AMBUSH
                )
            self.stage = _TURNS
            value = None
        if self.stage == _TURNS:
            if value is not None and value.kind is ActionKind.CHOOSE_ACTOR:
                return self._turn(c, value.target)
            while c.queue:
                step, idx = c.queue[0]
                f = c.fighters[idx]
                if not f.standing or idx in self.surprised:
                    c.queue.pop(0)
                    continue
                tied = self._tied_group(c)
                if len(tied) > 1:
                    choices = tuple(Action(ActionKind.CHOOSE_ACTOR, tied[0], t) for t in tied)
                    return Decision(DecisionKind.ORDER, tied[0], choices, OrderPrompt(step))
                return self._turn(c, idx)
            self.stage = _OVER
            return EndOfRoundFrame()
        c.emit(ev.RoundEnded(c.round))
        return DONE

    def _ambushed(self, c: Combat) -> tuple[int, ...]:
        """X45: with REFLEXE_CHECK, fighters of an ambushed side roll Reflexe in round 1;
        a failure costs them their turns and reactions that round."""
        if c.round != 1 or c.options.surprise is Surprise.NONE or not c.game.ambushed:
            return ()
        return tuple(f.idx for f in c.fighters if f.side in c.game.ambushed and f.standing)

    def _turn(self, c: Combat, idx: int) -> Frame:
        from cwenv.engine.turn import TurnFrame

        for i, (step, who) in enumerate(c.queue):
            if who == idx:
                del c.queue[i]
                return TurnFrame(idx, step)
        raise AssertionError("chosen actor not in the queue")  # pragma: no cover

    def _tied_group(self, c: Combat) -> list[int]:
        """I04/I13, X16: fighters of one side tied at the front of the queue, if the side
        chooses their order; otherwise just the front fighter."""
        step, first = c.queue[0]
        if c.options.tie_order is not TieOrder.SIDE_CHOOSES:
            return [first]
        f = c.fighters[first]
        key = self._tie_key(c, f)
        group = [first]
        for s, idx in c.queue[1:]:
            if s != step:
                break
            g = c.fighters[idx]
            if g.side is not f.side or self._tie_key(c, g) != key:
                break
            if g.standing and idx not in group:
                group.append(idx)
        return group

    @staticmethod
    def _tie_key(c: Combat, f: FighterState) -> tuple[int, ...]:
        if c.options.initiative is InitiativeSystem.STEPS:
            return (f.grundwert,)
        return (f.initiative, f.spec.skill(Skill.REFLEXE))

    def _start(self, c: Combat) -> None:
        c.round += 1
        c.emit(ev.RoundStarted(c.round))
        opts = c.options
        slots: list[tuple[tuple[int, ...], int, int]] = []
        for f in c.fighters:
            if f.dead or f.fled:
                continue
            self.rolling = f.idx
            if opts.initiative is InitiativeSystem.STEPS:
                n = initiative_dice(f.grundwert)
                dice = tuple(c.d10() for _ in range(n))
                f.initiative = f.grundwert + sum(dice)
                steps = initiative_steps(f.initiative)
                f.actions = len(steps)
            else:
                dice = (c.d10(),)
                f.initiative = dice[0]
                f.actions = pass_actions(c, f)
                steps = tuple(range(1, f.actions + 1))
            tiebreak = f.idx
            if opts.tie_order is TieOrder.RANDOM:
                self.tiebreaking = True
                tiebreak = c.d10() * 100 + c.d10() * 10 + f.idx % 10 + f.idx // 10 * 1000
            self.tiebreaking = False
            f.reactions = _reactions(c, f) if not f.down else 0
            f.extra_action_used = False
            f.actionbonus_used = False
            if opts.niederwerfen_penalty_until is ProneBonusUntil.NEXT_ROUND:
                f.prone_bonus = False
            c.emit(
                ev.InitiativeRolled(
                    f.idx, f.grundwert, dice, f.initiative, f.reactions, f.actions, steps
                )
            )
            for s in steps:
                if opts.initiative is InitiativeSystem.STEPS:
                    key: tuple[int, ...] = (-s, -f.grundwert, int(f.side), tiebreak)
                else:
                    key = (s, -f.initiative, -f.spec.skill(Skill.REFLEXE), int(f.side), tiebreak)
                slots.append((key, s, f.idx))
        slots.sort()
        c.queue = [(s, idx) for _, s, idx in slots]
        self.ambush = self._ambushed(c)


class EndOfRoundFrame(Frame):
    """X31: per fighter in initiative order: Zehrend damage, Zehrend check, dying check."""

    __slots__ = ("current", "done", "order", "phase", "pos")

    def __init__(self) -> None:
        super().__init__()
        self.order: tuple[int, ...] = ()
        self.pos = 0
        self.phase = _ZEHREND_DAMAGE
        # By kind, not position: M08 may end any Zehrend at a prompt in between (X55).
        self.done: tuple[str, ...] = ()  # the fighter's Zehrend kinds dealt with this round
        self.current = ""  # the kind whose damage was dealt, whose check comes next

    def step(self, c: Combat, value: Any) -> Decision | Frame | Return:
        if self.stage == _END_START:
            reapply_zone_zehrend(c)
            ranked = sorted(
                (f for f in c.fighters if not f.dead and not f.fled),
                key=lambda f: (-f.initiative, -f.grundwert, int(f.side), f.idx),
            )
            self.order = tuple(f.idx for f in ranked)
            self.stage = _END_ZEHREND
            value = None
        phased = c.options.round_end_order is RoundEndOrder.PHASED
        while self.pos < len(self.order):
            f = c.fighters[self.order[self.pos]]
            frame = self._advance(c, f, value, phased)
            value = None
            if frame is not None:
                return frame
        if phased and self.stage == _END_ZEHREND:
            self.stage = _END_DYING
            self.pos = 0
            return self.step(c, None)
        _cleanup(c)
        return DONE

    def _advance(self, c: Combat, f: FighterState, value: Any, phased: bool) -> Frame | None:
        """Run the next end-of-round item for ``f``; None when it has nothing more."""
        if f.dead:
            self._next_fighter()
            return None
        want_zehrend = not phased or self.stage == _END_ZEHREND
        want_dying = not phased or self.stage == _END_DYING
        if self.phase == _ZEHREND_DAMAGE:  # Zehrend damage (Z08)
            kind = next((k for k in f.zehrend if k not in self.done), None)
            if want_zehrend and kind is not None:
                if kind in f.zone_zehrend and not in_danger_zone(c, f, kind):
                    # D03: out of the danger zone, the cause is gone without a check.
                    f.zehrend = tuple(k for k in f.zehrend if k != kind)
                    f.zone_zehrend = tuple(k for k in f.zone_zehrend if k != kind)
                    c.emit(
                        ev.ConditionLost(f.idx, f"zehrend ({kind})", "Gefahrenbereich verlassen")
                    )
                    return self._advance(c, f, None, phased)
                self.phase = _ZEHREND_CHECK
                self.current = kind
                return zehrend_damage(c, f, kind, f"Zehrend ({kind})")
            self.phase = _DYING_CHECK
        if self.phase == _ZEHREND_CHECK:  # the free 'passende Probe' (Z08, X20)
            kind = self.current
            if f.dead:
                self.phase = _DYING_CHECK
            elif kind not in f.zehrend or in_danger_zone(c, f, kind):
                # M08 ended it meanwhile (X55); or D03: no check ends it in its zone
                self.done = (*self.done, kind)
                self.phase = _ZEHREND_DAMAGE
                return self._advance(c, f, None, phased)
            elif value is None:
                return check(
                    c,
                    f,
                    CheckValue(c.options.zehrend_check(kind).value),
                    check_text(CheckPurpose.ZEHREND, kind),
                    CheckPurpose.ZEHREND,
                )
            else:
                if value.success:
                    f.zehrend = tuple(k for k in f.zehrend if k != kind)
                    c.emit(ev.ConditionLost(f.idx, f"zehrend ({kind})", "Probe"))
                self.done = (*self.done, kind)
                self.phase = _ZEHREND_DAMAGE
                return self._advance(c, f, None, phased)
        if self.phase == _DYING_CHECK:  # dying check (D08)
            if want_dying and f.conditions >> Condition.STERBEND & 1 and not f.dead:
                self.phase = _DYING_RESULT
                return check(
                    c,
                    f,
                    CheckValue.UNBEUGSAMKEIT,
                    check_text(CheckPurpose.DYING),
                    CheckPurpose.DYING,
                )
            self._next_fighter()
            return None
        if self.phase == _DYING_RESULT:
            result: ProbeResult = value
            self.phase = _PHASE_FINISHED
            if result.volltreffer:
                lose_condition(c, f, Condition.STERBEND, "stabilisiert sich selbst")
                f.stabilised = True
                c.emit(ev.StatusChanged(f.idx, ev.Status.STABILISED))
            elif result.patzer:
                return LoseLPFrame(f.idx, 0, "Patzer beim Sterben", damage=False, die=True)
            elif not result.success:
                return LoseLPFrame(f.idx, c.d10(), "Sterben", damage=False)
            return self._advance(c, f, None, phased)
        self._next_fighter()
        return None

    def _next_fighter(self) -> None:
        self.pos += 1
        self.phase = _ZEHREND_DAMAGE
        self.done = ()


def _cleanup(c: Combat) -> None:
    """Round-scoped effects end (X03 aim at round end, cyberware armour, help, focus)."""
    opts = c.options
    for f in c.fighters:
        f.armour_bonus = 0
        f.helpers = ()
        f.focus_bonus = 0
        if opts.zielen_lost_at_round_end:
            f.aim_stacks = 0
            f.aim_target = -1
