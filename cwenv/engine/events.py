"""Frozen event records: every state change of a combat yields one.

The event log is the replay, the narration (``narration.py`` renders each event as one
German line) and the source of every statistic. Fighters are referred to by their index in
the roster; cells as :class:`Cell` tuples. Fields that code reads are enums or ids
(:class:`ReactionKind`, :class:`Status`, :class:`TableKind`, :class:`AttackMode`, a
Probenwert part's :class:`~cwenv.engine.parts.Source`); their German names are labels
for the narration, which no code compares.
"""

from __future__ import annotations

from dataclasses import dataclass

# The kinds the fields name live beside (ev.Act, ev.Status, … as before)
from cwenv.engine.event_kinds import (
    KNOCKED_OUT as KNOCKED_OUT,
    Act as Act,
    ReactionKind as ReactionKind,
    Status as Status,
    TableKind as TableKind,
)
from cwenv.engine.parts import Part
from cwenv.model.types import ArmourMode, AttackMode, Cell, MummSpend


@dataclass(frozen=True, slots=True)
class Event:
    """Base class of all events."""


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    round: int


@dataclass(frozen=True, slots=True)
class InitiativeRolled(Event):
    fighter: int
    grundwert: int
    dice: tuple[int, ...]
    initiative: int
    reactions: int
    actions: int
    steps: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    fighter: int
    step: int
    passes: bool


@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    fighter: int


@dataclass(frozen=True, slots=True)
class Moved(Event):
    fighter: int
    path: tuple[Cell, ...]
    metres: int
    how: str  # "geht", "sprintet", "klettert", "schwimmt", "springt", "springt hinab"


@dataclass(frozen=True, slots=True)
class CheckRolled(Event):
    """A Probe with its Probenwert broken down by source (P01, P02)."""

    fighter: int
    purpose: str
    parts: tuple[Part, ...]
    probenwert: int
    d1: int
    d2: int
    success: bool
    qs: int
    volltreffer: bool
    patzer: bool
    forced: bool = False  # M09: no dice rolled


@dataclass(frozen=True, slots=True)
class MummSpent(Event):
    fighter: int
    spend: MummSpend
    cost: int
    left: int


@dataclass(frozen=True, slots=True)
class ResultKept(Event):
    fighter: int
    total: int
    second: bool


@dataclass(frozen=True, slots=True)
class ReactionUsed(Event):
    fighter: int
    kind: ReactionKind
    left: int
    extra: bool  # paid with Mumm (M05)


@dataclass(frozen=True, slots=True)
class AttackDeclared(Event):
    """``index``: the weapon, hack or :class:`~cwenv.model.types.Maneuver` (by ``mode``);
    ``means``: its name, for the narration."""

    attacker: int
    target: int
    mode: AttackMode
    index: int
    means: str


@dataclass(frozen=True, slots=True)
class AttackFailed(Event):
    attacker: int
    target: int
    reason: str


@dataclass(frozen=True, slots=True)
class AttackRedirected(Event):
    """C05: a miss through living cover hits the covering creature."""

    attacker: int
    original: int
    new_target: int
    d10: int


@dataclass(frozen=True, slots=True)
class DefenceDeclined(Event):
    defender: int


@dataclass(frozen=True, slots=True)
class AttackDefended(Event):
    attacker: int
    defender: int
    attack_roll: int
    defence_roll: int


@dataclass(frozen=True, slots=True)
class Hit(Event):
    attacker: int
    target: int
    qs: int
    weakened: bool
    aim_bonus: int


@dataclass(frozen=True, slots=True)
class TableRolled(Event):
    """A07 Volltreffer or A08 Patzer table: 2W10 − QS."""

    fighter: int
    table: TableKind
    d1: int
    d2: int
    minus: int
    row: str


@dataclass(frozen=True, slots=True)
class DamageRolled(Event):
    """A06 damage: each die with the bonus, minus armour per roll (X08)."""

    target: int
    rolls: tuple[int, ...]
    bonus: int
    armour: int
    mode: ArmourMode
    subtotal: int
    factor: str  # "", "resistent", "verwundbar", "immun"
    total: int
    bare: int = 0  # the last dice rolled without the bonus (X33)
    direct: int = 0  # the last dice that ignore armour (X33)
    flat: int = 0  # added after armour (K01: a disarmed NSC's −2)


@dataclass(frozen=True, slots=True)
class DamageHalved(Event):
    fighter: int
    before: int
    after: int


@dataclass(frozen=True, slots=True)
class LPChanged(Event):
    fighter: int
    before: int
    after: int
    cause: str


@dataclass(frozen=True, slots=True)
class ConditionGained(Event):
    fighter: int
    condition: str
    instead_of: str = ""


@dataclass(frozen=True, slots=True)
class ConditionLost(Event):
    fighter: int
    condition: str
    cause: str


@dataclass(frozen=True, slots=True)
class StatusChanged(Event):
    """Kampfunfähig, tot (``cause``: of what), stabilisiert, bewusstlos, wieder bei
    Bewusstsein, entkommen, überrascht."""

    fighter: int
    status: Status
    cause: str = ""


@dataclass(frozen=True, slots=True)
class Acted(Event):
    """A Handlung without a check of its own (Zielen, Sprinten, Nachladen, …), a checked
    one's outcome, or what a table row or a failed step did to a fighter.

    ``act`` says which; ``index`` and ``value`` carry what it changed, by ``act``:

    ==============================  ===========================  ========================
    act                             index                        value
    ==============================  ===========================  ========================
    AIM                             —                            the aim stacks (X03)
    UPLOAD                          the hack                     its Handlungen done
    OPEN_DOOR, CLOSE_DOOR           the door's cell              —
    DRAW, PICK_UP, FREE_WEAPON,     the weapon                   RELOAD: 1 when the
    RELOAD, JAMMED, LOSE_WEAPON                                  magazine is full
    USE_ITEM                        the item's slot in hand      its healing dice
    CYBERWARE                       the cyberware                —
    FROM_BACKPACK, LOSE_ITEM        the backpack slot            —
    HELP                            —                            the helper's QS (P08)
    FAILED                          the StepKind that failed     —
    ==============================  ===========================  ========================

    ``target`` is the fighter aimed at or helped (−1: none); ``detail`` is the narration's
    text (a weapon's or item's name, ``Stufe 2``), which no code reads."""

    fighter: int
    act: Act
    detail: str = ""
    target: int = -1
    index: int = -1
    value: int = 0


@dataclass(frozen=True, slots=True)
class ForcedMove(Event):
    fighter: int
    path: tuple[Cell, ...]
    cause: str


@dataclass(frozen=True, slots=True)
class ClimbedPart(Event):
    """B03, X40: part of a ledge climbed; the climber hangs at the wall until the next.
    ``down`` (X62): climbing down to the cell ``ledge`` below."""

    fighter: int
    ledge: tuple[int, int]
    climbed: int
    height: int
    down: bool = False


@dataclass(frozen=True, slots=True)
class Fell(Event):
    fighter: int
    metres: int
    dice: int


@dataclass(frozen=True, slots=True)
class RoundEnded(Event):
    round: int


@dataclass(frozen=True, slots=True)
class CombatEnded(Event):
    winner: str
    reason: str
    rounds: int
