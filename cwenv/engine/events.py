"""Frozen event records: every state change of a combat yields one.

The event log is the replay, the narration (``narration.py`` renders each event as one
German line) and the source of every statistic. Fighters are referred to by their index in
the roster; cells as :class:`Cell` tuples. Fields that code reads are enums or ids
(:class:`ReactionKind`, :class:`Status`, :class:`TableKind`, :class:`AttackMode`, a
Probenwert part's :class:`~cwenv.engine.parts.Source`); their German names are labels
for the narration, which no code compares.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import IntEnum
from typing import Any

from cwenv.engine.parts import Part
from cwenv.model.types import ArmourMode, AttackMode, Cell, MummSpend


class ReactionKind(IntEnum):
    """What a reaction is spent on (R02–R06)."""

    DEFENCE = 0  # A02, R02
    DROP_PRONE = 1  # R06 Niederwerfen
    BLOCKADE = 2  # R04 Blockadeangriff
    CATCH_FALL = 3  # R05 Sturz abfangen

    @property
    def label(self) -> str:
        return _REACTION_LABELS[self]


_REACTION_LABELS = {
    ReactionKind.DEFENCE: "Verteidigung",
    ReactionKind.DROP_PRONE: "Niederwerfen",
    ReactionKind.BLOCKADE: "Blockadeangriff",
    ReactionKind.CATCH_FALL: "Sturz abfangen",
}


class Status(IntEnum):
    """A change of a fighter's standing in the fight (D05–D09, X44, X45, escaping)."""

    DEAD = 0  # D07 (the event's ``cause`` says of what)
    KAMPFUNFAEHIG = 1  # D05: at 0 LP or below, sterbend
    UNCONSCIOUS = 2  # M04: saved from death at 0 LP
    UNCONSCIOUS_NON_LETHAL = 3  # non-lethal damage to exactly 0 LP
    AWAKE = 4  # healed back to 1 LP or more
    STABILISED = 5  # D08 Volltreffer, D09
    ESCAPED = 6  # left the map by an exit (reach_exit)
    SURPRISED = 7  # X45: lost round 1 to an ambush

    @property
    def label(self) -> str:
        return _STATUS_LABELS[self]

    @property
    def knocks_out(self) -> bool:
        """Out of the fight (dead, kampfunfähig or unconscious)."""
        return self in KNOCKED_OUT


_STATUS_LABELS = {
    Status.DEAD: "tot",
    Status.KAMPFUNFAEHIG: "kampfunfähig",
    Status.UNCONSCIOUS: "bewusstlos",
    Status.UNCONSCIOUS_NON_LETHAL: "bewusstlos (nicht-tödlich)",
    Status.AWAKE: "wieder bei Bewusstsein",
    Status.STABILISED: "stabilisiert",
    Status.ESCAPED: "entkommen",
    Status.SURPRISED: "überrascht",
}
KNOCKED_OUT = frozenset(
    {Status.DEAD, Status.KAMPFUNFAEHIG, Status.UNCONSCIOUS, Status.UNCONSCIOUS_NON_LETHAL}
)


class TableKind(IntEnum):
    """The two tables an attack may roll on (A07, A08)."""

    VOLLTREFFER = 0
    PATZER = 1

    @property
    def label(self) -> str:
        return ("Volltreffer", "Patzer")[self]


def _named(members: type[IntEnum], table: Mapping[Any, str]) -> None:
    """Refuse at import a member without its German label."""
    missing = [m.name for m in members if m not in table]
    if missing:
        raise ImportError(f"{members.__name__} without a label in events.py: {missing}")


_named(ReactionKind, _REACTION_LABELS)
_named(Status, _STATUS_LABELS)


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
    """A Handlung without a check of its own (Zielen, Sprinten, Aufstehen, Nachladen, …)."""

    fighter: int
    what: str
    detail: str = ""
    target: int = -1


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
