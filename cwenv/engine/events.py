"""Frozen event records: every state change of a combat yields one.

The event log is the replay, the narration (``narration.py`` renders each event as one
German line) and the source of every statistic. Fighters are referred to by their index in
the roster; cells as :class:`Cell` tuples.
"""

from __future__ import annotations

from dataclasses import dataclass

from cwenv.model.types import Cell


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
    parts: tuple[tuple[str, int], ...]
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
    spend: str
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
    what: str
    left: int
    extra: bool  # paid with Mumm (M05)


@dataclass(frozen=True, slots=True)
class AttackDeclared(Event):
    attacker: int
    target: int
    means: str
    kind: str  # "Angriff", "Hack", an Kampfmanöver name, "Blockadeangriff"


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
    table: str
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
    mode: str
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
    """Kampfunfähig, tot, stabilisiert, bewusstlos, wieder bei Bewusstsein, geflohen."""

    fighter: int
    status: str


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
    """B03, X40: part of a ledge climbed; the climber hangs at the wall until the next."""

    fighter: int
    ledge: tuple[int, int]
    climbed: int
    height: int


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
