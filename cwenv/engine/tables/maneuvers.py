"""The Kampfmanöver (K01–K05), one record each.

A Kampfmanöver is an unarmed attack on an adjacent, standing opponent (K): the turn offers
it when the record's ``limit`` allows it, the attack adds the record's ``modifier`` to the
Kampfkunst check, the target defends with Kampfkunst (X22), and a hit runs the record's
``effect``. Its tactic tag (restricted play) is the member's name. A new manoeuvre needs
its enum member (with its German name) and one entry here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cwenv.engine import events as ev
from cwenv.engine.conditions import gain_condition
from cwenv.engine.effects import DragFrame, direction
from cwenv.engine.falls import ForcedMoveFrame, push_path
from cwenv.engine.movement import PUSH_METRES
from cwenv.engine.tables import rule_table
from cwenv.model.types import Condition, Maneuver, Side
from cwenv.rules.options import ForcedMovementBlockade

if TYPE_CHECKING:
    from cwenv.engine.fighter import FighterState
    from cwenv.engine.frames import Frame
    from cwenv.engine.state import Combat

Limit = Callable[["FighterState", "FighterState"], "str | None"]
Effect = Callable[["Combat", "FighterState", "FighterState"], "list[Frame]"]


@dataclass(frozen=True, slots=True)
class ManeuverRule:
    """One Kampfmanöver.

    ``modifier``: added to the attack check (K01, K03: −2). ``limit(attacker, target)``:
    why it cannot be tried on that target (size, K01–K05), None when it can. ``effect``:
    what a hit does (the frames it starts, e.g. forced movement); the hit's damage follows
    under X22 ``maneuver_damage``.
    """

    maneuver: Maneuver
    rule: str
    modifier: int
    limit: Limit
    effect: Effect

    @property
    def label(self) -> str:
        return self.maneuver.label

    @property
    def tactic(self) -> str:
        """Its tactic tag for restricted play (``cwenv.engine.tactics``)."""
        return self.maneuver.name


def up_to_own_size(f: FighterState, t: FighterState) -> str | None:
    """K03–K05: against a target no larger than the attacker."""
    return None if t.spec.size <= f.spec.size else "the target is larger than the attacker"


def _festsetzen_limit(f: FighterState, t: FighterState) -> str | None:
    """K02: up to one size category larger than the attacker."""
    if t.spec.size <= f.spec.size + 1:
        return None
    return "the target is more than one size larger than the attacker"


def _entwaffnen_limit(f: FighterState, t: FighterState) -> str | None:
    """K01: only an armed humanoid (a weapon drawn and in hand)."""
    if not t.spec.humanoid:
        return "the target is not humanoid"
    if t.disarmed:
        return "the target is disarmed already"
    if 0 <= t.drawn < len(t.spec.weapons) and not t.dropped >> t.drawn & 1:
        return None
    return "the target holds no weapon"


def _entwaffnen(c: Combat, a: FighterState, t: FighterState) -> list[Frame]:
    """K01: a Runner drops the drawn weapon; an NSC fights on disarmed (−2, X22)."""
    if t.side is Side.RUNNER:
        if 0 <= t.drawn < len(t.spec.weapons):
            t.dropped |= 1 << t.drawn
            c.emit(ev.Acted(t.idx, ev.Act.LOSE_WEAPON, t.weapons[t.drawn].name, index=t.drawn))
            t.drawn = -1
    else:
        t.disarmed = True
        c.emit(ev.Acted(t.idx, ev.Act.DISARMED, "−2 auf Angriff und Schaden"))
    return []


@dataclass(frozen=True, slots=True)
class Inflict:
    """An effect that gives the target ``condition`` (K02 Benommen, K04 Niedergeworfen);
    a value, so the native core can read which condition (cwenv/engine/native/strike.py)."""

    condition: Condition

    def __call__(self, c: Combat, a: FighterState, t: FighterState) -> list[Frame]:
        gain_condition(c, t, self.condition)
        return []


def inflict(cond: Condition) -> Effect:
    """An effect that gives the target ``cond`` (K02 Benommen, K04 Niedergeworfen)."""
    return Inflict(cond)


def _wegstossen(c: Combat, a: FighterState, t: FighterState) -> list[Frame]:
    """K05: 2 m straight back; Blockadeangriffe against it only under X43 ALL_FORCED."""
    path = push_path(c, t, direction(c, a.pos, t.pos), PUSH_METRES)
    provoke = c.options.forced_movement_blockade is ForcedMovementBlockade.ALL_FORCED
    return [ForcedMoveFrame(t.idx, path, Maneuver.WEGSTOSSEN.label, provoke)]


def _mitzerren(c: Combat, a: FighterState, t: FighterState) -> list[Frame]:
    """K03: the attacker drags the target along (the DRAG decision)."""
    return [DragFrame(a.idx, t.idx)]


MANEUVERS: Mapping[Maneuver, ManeuverRule] = rule_table(
    Maneuver,
    (
        ManeuverRule(Maneuver.ENTWAFFNEN, "K01", -2, _entwaffnen_limit, _entwaffnen),
        ManeuverRule(Maneuver.FESTSETZEN, "K02", 0, _festsetzen_limit, inflict(Condition.BENOMMEN)),
        ManeuverRule(Maneuver.MITZERREN, "K03", -2, up_to_own_size, _mitzerren),
        ManeuverRule(
            Maneuver.UMREISSEN, "K04", 0, up_to_own_size, inflict(Condition.NIEDERGEWORFEN)
        ),
        ManeuverRule(Maneuver.WEGSTOSSEN, "K05", 0, up_to_own_size, _wegstossen),
        # one entry per member; a new member's goes above (docs/extending.md)
    ),
    key=lambda rule: rule.maneuver,
    where="MANEUVERS (cwenv/engine/tables/maneuvers.py)",
)
"""Every Kampfmanöver's rule (K01–K05)."""
