"""The Handlungen (H01–H12 and the turn choices that use the Handlung), one record each.

A record names the rule and the functions that carry the Handlung out
(:mod:`cwenv.engine.handlungen`): ``start`` changes the state or returns the frame that
resolves it; a Handlung decided by a check has ``check`` (its Probe) and ``outcome`` (what
the result does). The turn (``TurnFrame``) spends the Handlung and calls
:meth:`HandlungRule.begin`; which Handlungen are open is :mod:`cwenv.engine.offers`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cwenv.engine import handlungen as h
from cwenv.engine.actions import HANDLUNG_KINDS, Action, ActionKind
from cwenv.engine.tables import RuleTableError, rule_table

if TYPE_CHECKING:
    from cwenv.engine.fighter import FighterState
    from cwenv.engine.frames import Frame
    from cwenv.engine.state import Combat
    from cwenv.engine.turn import TurnFrame

Start = Callable[["Combat", "FighterState", Action, "TurnFrame"], "Frame | None"]


@dataclass(frozen=True, slots=True)
class HandlungRule:
    """One Handlung: ``start`` runs first (a turn effect or the resolving frame); with a
    ``check`` the Handlung then rolls it and applies ``outcome``."""

    kind: ActionKind
    rule: str
    start: Start | None = None
    check: h.CheckOf | None = None
    outcome: h.Outcome | None = None

    def __post_init__(self) -> None:
        if (self.check is None) != (self.outcome is None) or (
            self.start is None and self.check is None
        ):
            raise RuleTableError(
                f"HANDLUNGEN entry {self.kind.name}: give start, or check with outcome"
            )

    @property
    def label(self) -> str:
        return self.kind.label

    def begin(self, c: Combat, f: FighterState, action: Action, turn: TurnFrame) -> Frame | None:
        """Carry the chosen Handlung out (its Handlung already spent by the turn)."""
        frame = self.start(c, f, action, turn) if self.start is not None else None
        if self.check is not None and self.outcome is not None:
            return h.CheckedHandlung(f.idx, action, self.check, self.outcome)
        return frame


K = ActionKind
HANDLUNGEN: Mapping[ActionKind, HandlungRule] = rule_table(
    sorted(HANDLUNG_KINDS),
    (
        HandlungRule(K.ATTACK, "H01", h.attack),
        HandlungRule(K.MANEUVER, "K01–K05", h.maneuver),
        HandlungRule(K.ZIELEN, "H11", h.zielen),
        HandlungRule(K.SPRINT, "H08", h.sprint),
        HandlungRule(K.AUFSTEHEN, "H02", h.aufstehen),
        HandlungRule(K.UPLOAD, "H03", h.upload),
        HandlungRule(K.HACK, "H10", h.hack),
        HandlungRule(K.DOOR, "H04", h.door),
        HandlungRule(K.DRAW, "H04", h.draw),
        HandlungRule(K.PICK_UP, "H04", h.pick_up),
        HandlungRule(K.USE_ITEM, "H04", h.use_item),
        HandlungRule(K.RELOAD, "H05", h.reload),
        HandlungRule(K.RUCKSACK, "H06", check=h.rucksack_check, outcome=h.rucksack_outcome),
        HandlungRule(K.SCHWIERIG, "H07", h.schwierig),
        HandlungRule(K.CYBERWARE, "H09", h.cyberware),
        HandlungRule(K.SHAKE, "H12", check=h.shake_check, outcome=h.shake_outcome),
        HandlungRule(K.STABILISE, "D09", check=h.stabilise_check, outcome=h.stabilise_outcome),
        HandlungRule(K.HELFEN, "P08", h.helfen),
        HandlungRule(
            K.FREE_WEAPON, "A08", check=h.free_weapon_check, outcome=h.free_weapon_outcome
        ),
        HandlungRule(K.MUMM_PROBE, "Z02", h.mumm_probe, h.mumm_probe_check, h.mumm_probe_outcome),
    ),
    key=lambda rule: rule.kind,
    where="HANDLUNGEN (cwenv/engine/tables/handlungen.py)",
)
"""Every Handlung's rule: exactly the turn choices in ``HANDLUNG_KINDS`` (H00)."""
