"""The native combat's decisions, frames and counters as the reference shows them (issue
#16): the core's plain values turned into :class:`~cwenv.engine.actions.Decision` with its
payload (:mod:`cwenv.engine.payloads`), the running frames as stand-ins (a turn's numbers
on a real :class:`~cwenv.engine.turn.TurnFrame`, every other frame's ``describe()``), and
the counters under the reference's names (``Combat.count``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cwenv.battlemap.paths import NO_REACH, NativeReach, Reach
from cwenv.battlemap.steps import StepKind
from cwenv.engine.actions import ActionKind, Decision, DecisionKind
from cwenv.engine.events import ReactionKind
from cwenv.engine.falls import DIFFICULT_SKILL_NAMES
from cwenv.engine.frames import Frame
from cwenv.engine.payloads import (
    PLAIN_CHECKS,
    AfterRoll,
    AttackPrompt,
    AttackRef,
    BeforeRoll,
    BlockadePrompt,
    CheckInfo,
    CheckPurpose,
    DamagePrompt,
    DeathPrompt,
    DragPrompt,
    FallPrompt,
    KeepPrompt,
    OrderPrompt,
    Payload,
    TurnPrompt,
)
from cwenv.engine.turn import TurnFrame, TurnStage
from cwenv.model.types import AttackMode, Condition, MummSpend, Side
from cwenv.rules.probe import ProbeResult
from cwenv.rules.tables import FumbleRow

if TYPE_CHECKING:
    from cwenv.engine.fighter import FighterState
    from cwenv.engine.native.events import EventMaker


def _probe(fields: tuple[int, int, int, bool, int, bool, bool]) -> ProbeResult:
    return ProbeResult(*fields)


def _ref(fields: tuple[Any, ...]) -> AttackRef:
    attacker, target, mode, index, roll, aim = fields
    return AttackRef(
        attacker, target, AttackMode(mode), index, None if roll is None else _probe(roll), aim
    )


def _check(info: tuple[int, Any]) -> CheckInfo:
    purpose, attack = info
    if attack is None:
        return PLAIN_CHECKS[CheckPurpose(purpose)]
    return CheckInfo(CheckPurpose(purpose), _ref(attack))


def _payload(row: tuple[Any, ...]) -> Payload:
    tag, *f = row
    if tag == "turn":
        return TurnPrompt(f[0])
    if tag == "order":
        return OrderPrompt(f[0])
    if tag == "pre":
        return BeforeRoll(_check(f[0]), f[1])
    if tag == "post":
        return AfterRoll(_check(f[0]), _probe(f[1]))
    if tag == "keep":
        return KeepPrompt(_check(f[0]), _probe(f[1]), _probe(f[2]))
    if tag == "attack":
        return AttackPrompt(_ref(f[0]))
    if tag == "blockade":
        return BlockadePrompt(*f)
    if tag == "fall":
        return FallPrompt(f[0])
    if tag == "damage":
        return DamagePrompt(*f)
    if tag == "death":
        return DeathPrompt(f[0])
    if tag == "drag":
        return DragPrompt(f[0])
    raise ValueError(f"a payload the native face does not know: {tag!r}")


def decision_of(core: Any) -> Decision | None:
    """The core's pending decision as the reference poses it."""
    got = core.decision
    if got is None:
        return None
    kind = DecisionKind(got[0])
    if kind is DecisionKind.TURN:
        actions = None
    elif kind is DecisionKind.ORDER:
        actions = tuple(core.legal())
    else:
        actions = tuple(core.choices())
    return Decision(kind, got[1], actions, _payload(core.payload()))


class StandIn:
    """A running frame of the native combat that Python only describes (no Frame: it runs
    nothing); its class is named as the reference's frame is (:func:`stand_in`)."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def describe(self) -> str:
        return self.text


_STAND_INS: dict[str, type[StandIn]] = {}


def stand_in(name: str, text: str) -> StandIn:
    """A stand-in whose class is named ``name`` (code that asks a frame's kind by its
    class name sees the reference's)."""
    kind = _STAND_INS.get(name)
    if kind is None:
        kind = _STAND_INS[name] = type(name, (StandIn,), {"__slots__": ()})
    return kind(text)


def _reach(start: int, found: Any, difficult: bool) -> Reach:
    return NO_REACH if found is None else NativeReach(start, found, difficult)


def frames_of(core: Any, events: EventMaker, fighters: list[FighterState]) -> list[Frame | StandIn]:
    """The core's running frames, outermost first: a turn as a TurnFrame with its numbers
    and its decision's searches, the others as stand-ins describing themselves as the
    reference's frames do."""
    out: list[Frame | StandIn] = []
    for name, *f in core.frames():
        if name == "TurnFrame":
            fighter, slot, handlungen, grants, sprint, moved, parity, benommen, free, hard = f
            turn = TurnFrame(fighter, slot)
            turn.stage = TurnStage.ACTING
            turn.handlungen, turn.grants, turn.sprint_bonus = handlungen, grants, sprint
            turn.moved, turn.parity, turn.benommen = moved, parity, benommen
            start = fighters[fighter].pos
            turn.routes, turn.hard_routes = _reach(start, free, False), _reach(start, hard, True)
            out.append(turn)
        elif name == "CheckFrame":
            fighter, purpose, attacker, target, mode, index = f
            text = events.check_text(fighter, purpose, attacker, target, mode, index)
            out.append(stand_in(name, text))
        elif name == "AttackFrame":
            out.append(stand_in(name, f"Angriff von {f[0]} auf {f[1]}"))
        elif name == "HelpersFrame":
            out.append(stand_in(name, "Helfen"))
        else:
            out.append(stand_in(name, name))
    return out


_TALLIES: tuple[Any, ...] = (
    lambda d: "turns",
    lambda d: f"action:{ActionKind(d).name}",
    lambda d: f"attack:{AttackMode(d).label}",
    lambda d: "zielen_used",
    lambda d: "patzer",
    lambda d: "volltreffer",
    lambda d: "defended",
    lambda d: "hits",
    lambda d: "damage_dealt",
    lambda d: f"dead:{Side(d).name}",
    lambda d: f"down:{Side(d).name}",
    lambda d: "condition:ZEHREND" if d < 0 else f"condition:{Condition(d).name}",
    lambda d: f"mumm:{MummSpend(d).name}",
    lambda d: f"reaction:{ReactionKind(d).label}",
    lambda d: f"patzer:{list(FumbleRow)[d].name}",
    lambda d: f"move:{DIFFICULT_SKILL_NAMES[StepKind(d)]}",
    lambda d: "actionbonus",
)
"""Each of src/combat_events.hpp's Tally by its place: the reference's counter name."""


def counters_of(core: Any) -> dict[str, int]:
    """The core's counters under the reference's names, in the order first counted."""
    return {_TALLIES[tally](detail): n for tally, detail, n in core.counters()}
