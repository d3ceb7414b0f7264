"""What a decision is about: one frozen payload type per :class:`DecisionKind`.

The engine knows, when it asks, whose attack a defence prompt answers (weapon, hack or
manoeuvre, and the attack's roll), which check a Mumm prompt belongs to and what it is for,
how much damage a DAMAGE prompt would halve. It says so in ``Decision.payload``, so an
agent, an encoder or a menu reads the situation off the decision instead of rebuilding it
from the event log. Every payload is immutable and holds ids and enums, never text.

=================  ========================================================================
decision           payload
=================  ========================================================================
TURN               :class:`TurnPrompt`: the initiative step (or pass) of the turn
ORDER              :class:`OrderPrompt`: the initiative step the tied fighters share
PRE_CHECK          :class:`BeforeRoll`: the check (:class:`CheckInfo`) and its Probenwert
POST_CHECK         :class:`AfterRoll`: the check and the result that stands
KEEP               :class:`KeepPrompt`: the check and both results (M03)
DEFEND             :class:`AttackPrompt`: the attack (:class:`AttackRef`) with its roll
NIEDERWERFEN       :class:`AttackPrompt`: the attack, not rolled yet (R06)
BLOCKADE           :class:`BlockadePrompt`: the mover and the step it takes (R04)
STURZ              :class:`FallPrompt`: the depth of the fall (R05)
DAMAGE             :class:`DamagePrompt`: the damage rolled (M06)
DEATH              :class:`DeathPrompt`: the LP the fighter would die at (M04)
DRAG               :class:`DragPrompt`: the fighter being dragged (K03)
=================  ========================================================================
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import TypeAlias

from cwenv.engine.actions import DecisionKind
from cwenv.model.types import AttackMode
from cwenv.rules.probe import ProbeResult


class CheckPurpose(IntEnum):
    """What a check decides (the Probe's place in the rules)."""

    ATTACK = 0  # the attacker's roll (A01, H10, K, R04)
    DEFENCE = 1  # the target's defence (A02, A03)
    DYING = 2  # the end-of-round check while sterbend (D08)
    BENOMMEN = 3  # the benommen Mumm-Probe (Z02, X02)
    SHAKE = 4  # shaking off a condition (H12)
    ZEHREND = 5  # ending a Zehrend (Z08, X20)
    CATCH_FALL = 6  # catching a fall (R05)
    MOVE = 7  # a Schwierige Bewegung or part of a climb (H07, B02–B06)
    AMBUSH = 8  # Reflexe against an ambush (X45)
    STABILISE = 9  # first aid on a dying fighter (D09)
    HELP = 10  # helping an ally (P08)
    FREE_WEAPON = 11  # freeing a jammed weapon (A08)
    RUCKSACK = 12  # searching the backpack (H06)


@dataclass(frozen=True, slots=True)
class AttackRef:
    """One attack: who makes it, against whom it is resolved now, how (``mode``) and with
    what (``index``: the weapon, hack or :class:`~cwenv.model.types.Maneuver`). ``roll`` is
    the attack roll that stands once rolled (M03's kept one; after a miss through living
    cover, C05, the roll as it hits the covering creature); ``aim_qs`` the QS Zielen adds to
    a hit (H11, X03)."""

    attacker: int
    target: int
    mode: AttackMode
    index: int
    roll: ProbeResult | None = None
    aim_qs: int = 0


@dataclass(frozen=True, slots=True)
class CheckInfo:
    """What a check is for; ``attack`` for an attack roll or a defence against it."""

    purpose: CheckPurpose
    attack: AttackRef | None = None


PLAIN_CHECKS = {purpose: CheckInfo(purpose) for purpose in CheckPurpose}
"""A check of each purpose that concerns no attack (shared: payloads are immutable)."""


@dataclass(frozen=True, slots=True)
class TurnPrompt:
    slot: int  # the initiative step (I03) or activation pass (I12) of the turn


@dataclass(frozen=True, slots=True)
class OrderPrompt:
    step: int  # the initiative step (or pass) the tied fighters share (I04, I13, X16)


@dataclass(frozen=True, slots=True)
class BeforeRoll:
    check: CheckInfo
    probenwert: int  # as it stands before any spend of this prompt


@dataclass(frozen=True, slots=True)
class AfterRoll:
    check: CheckInfo
    roll: ProbeResult  # the result that stands (after M03, the kept one)


@dataclass(frozen=True, slots=True)
class KeepPrompt:
    check: CheckInfo
    first: ProbeResult
    second: ProbeResult  # the reroll (M03)


@dataclass(frozen=True, slots=True)
class AttackPrompt:
    attack: AttackRef  # its ``target`` is the deciding fighter


@dataclass(frozen=True, slots=True)
class BlockadePrompt:
    mover: int
    start: int  # the cell the mover steps from
    end: int  # the cell it steps to


@dataclass(frozen=True, slots=True)
class FallPrompt:
    metres: int


@dataclass(frozen=True, slots=True)
class DamagePrompt:
    total: int  # the damage rolled, after armour and resistances (A06, D04)
    source: int  # the attacker, −1 for damage without one (falls, Zehrend, Patzer)


@dataclass(frozen=True, slots=True)
class DeathPrompt:
    lp: int  # the LP the fighter would die at (D07)


@dataclass(frozen=True, slots=True)
class DragPrompt:
    target: int  # the fighter dragged along (K03)


Payload: TypeAlias = (
    TurnPrompt
    | OrderPrompt
    | BeforeRoll
    | AfterRoll
    | KeepPrompt
    | AttackPrompt
    | BlockadePrompt
    | FallPrompt
    | DamagePrompt
    | DeathPrompt
    | DragPrompt
)

_K = DecisionKind
PAYLOAD_OF: dict[DecisionKind, type[Payload]] = {
    _K.TURN: TurnPrompt,
    _K.ORDER: OrderPrompt,
    _K.PRE_CHECK: BeforeRoll,
    _K.POST_CHECK: AfterRoll,
    _K.KEEP: KeepPrompt,
    _K.DEFEND: AttackPrompt,
    _K.NIEDERWERFEN: AttackPrompt,
    _K.BLOCKADE: BlockadePrompt,
    _K.STURZ: FallPrompt,
    _K.DAMAGE: DamagePrompt,
    _K.DEATH: DeathPrompt,
    _K.DRAG: DragPrompt,
}
"""The payload type of each decision kind."""
_missing = [k.name for k in DecisionKind if k not in PAYLOAD_OF]
if _missing:  # a new decision kind needs its payload type listed above
    raise ImportError("DecisionKind without a payload type in payloads.py: " + ", ".join(_missing))
