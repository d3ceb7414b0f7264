"""The Zustände (Z01–Z07), one record each: what a condition does wherever it matters.

A record says what the condition turns into when it is suffered again (the Z chain), which
checks its −2 applies to, how it is shaken off by a Handlung with a check (H12) or with
Mumm (M08), and what happens the moment it is gained. Named rules that belong to one
condition stay with the procedure they shape (Benommen's turn, Z02, in ``turn.py``;
Sterbend's dying, D08/Z06, in ``damage.py`` and ``roundflow.py``; Eingeschränkt's halved
movement, Z03, in ``movement.py``); everything that treats conditions alike reads this
table, so a new condition needs its enum member (with its German name) and one entry here.

The entries are listed in the order their maluses join a Probenwert (the check's parts).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from cwenv.engine.tables import rule_table
from cwenv.model.types import CheckValue, Condition
from cwenv.rules.options import BenommenReactions, PenaltyScope, RuleOptions

if TYPE_CHECKING:
    from cwenv.engine.fighter import FighterState
    from cwenv.engine.state import Combat

CONDITION_PENALTY = -2
"""Z01, Z03, Z04, Z05, Z07: every condition malus is −2."""


class CheckSort(NamedTuple):
    """What kind of Probe is being rolled, as a condition's malus rule sees it."""

    check: CheckValue
    mental: bool  # a geistige Probe (options.mental_checks)
    attack: bool
    reaction: bool
    defence: bool


Malus = Callable[[RuleOptions, CheckSort], bool]
ShakeCheck = Callable[[RuleOptions], CheckValue]
ShakeLimit = Callable[[RuleOptions, "FighterState"], "str | None"]
OnGain = Callable[["Combat", "FighterState"], None]


@dataclass(frozen=True, slots=True)
class ConditionRule:
    """One Zustand.

    ``substitute``: what it becomes when suffered again ('erhältst du stattdessen'), None
    when nothing further happens. ``malus``: whether its −2 applies to a check, None for no
    malus. ``shake_check``: the check of the Handlung that shakes it off (H12), None when
    no check ends it. ``shake_limit``: why that Handlung is not open now (None: it is).
    ``mumm_shake``: whether M08 may end it. ``on_gain``: what happens when it is gained,
    after the event is told.
    """

    condition: Condition
    rule: str
    substitute: Condition | None
    malus: Malus | None = None
    shake_check: ShakeCheck | None = None
    shake_limit: ShakeLimit | None = None
    mumm_shake: bool = True
    on_gain: OnGain | None = None
    ends_by: str = ""
    """How it ends when neither a check nor Mumm can end it (told when a shake is refused)."""

    @property
    def label(self) -> str:
        return self.condition.label


def _physical(opts: RuleOptions, s: CheckSort) -> bool:
    """Z01, X04, X39: körperliche checks, or every check under ``angeschlagen_scope``."""
    return not s.mental or opts.angeschlagen_scope is PenaltyScope.ALL_CHECKS


def _angeschlagen_shake_limit(opts: RuleOptions, f: FighterState) -> str | None:
    """Z01: 'solange du mehr als die Hälfte deiner LP hast' (unless the option lifts it)."""
    if opts.angeschlagen_shake_below_half or f.lp > f.spec.lp / 2:
        return None
    return "angeschlagen at half LP or less cannot be shaken off by a check (Z01)"


def _let_go(c: Combat, f: FighterState) -> None:
    f.let_go()  # B03, X40: knocked off or dazed, a climber loses its hold


def _benommen_gained(c: Combat, f: FighterState) -> None:
    f.let_go()  # B03, X40
    if c.options.benommen_reactions is BenommenReactions.LOST:
        f.reactions = 0  # X24


CONDITIONS: Mapping[Condition, ConditionRule] = rule_table(
    Condition,
    (
        ConditionRule(
            Condition.ANGESCHLAGEN,
            "Z01",
            substitute=Condition.BENOMMEN,
            malus=_physical,
            shake_check=lambda opts: CheckValue.UNBEUGSAMKEIT,
            shake_limit=_angeschlagen_shake_limit,
        ),
        ConditionRule(  # Z07: geistige checks and hacking
            Condition.VERWIRRT,
            "Z07",
            substitute=Condition.BENOMMEN,
            malus=lambda opts, s: s.mental or s.check is CheckValue.HACKING,
            shake_check=lambda opts: CheckValue.WAHRNEHMUNG,
        ),
        ConditionRule(  # Z04: attacks; M11: no Mumm (checks.can_spend_mumm)
            Condition.ENTMUTIGT,
            "Z04",
            substitute=Condition.BENOMMEN,
            malus=lambda opts, s: s.attack,
            shake_check=lambda opts: CheckValue.UNBEUGSAMKEIT,
        ),
        ConditionRule(  # Z03: reactions; the shake check is X's reading
            Condition.EINGESCHRAENKT,
            "Z03",
            substitute=Condition.BENOMMEN,
            malus=lambda opts, s: s.reaction,
            shake_check=lambda opts: CheckValue(opts.eingeschraenkt_check.value),
        ),
        ConditionRule(  # Z05: defences; ends by standing up (H02)
            Condition.NIEDERGEWORFEN,
            "Z05",
            substitute=Condition.EINGESCHRAENKT,
            malus=lambda opts, s: s.defence,
            on_gain=_let_go,
            ends_by="standing up (Aufstehen, H02)",
        ),
        ConditionRule(  # Z02: the turn's Handlung is the Mumm-Probe
            Condition.BENOMMEN,
            "Z02",
            substitute=Condition.VERWIRRT,
            on_gain=_benommen_gained,
            ends_by="the Mumm-Probe in its own turn (Z02)",
        ),
        ConditionRule(  # Z06: suffered again it deals damage instead (damage.LoseLPFrame)
            Condition.STERBEND,
            "Z06",
            substitute=None,
            mumm_shake=False,  # M08: 'nicht Sterbend'
            ends_by="stabilising (D09) or healing (D08)",
        ),
        # one entry per member; a new member's goes above (docs/extending.md)
    ),
    key=lambda rule: rule.condition,
    where="CONDITIONS (cwenv/engine/tables/conditions.py)",
)
"""Every Zustand's rule (Z01–Z07, H12, M08)."""

MALUS_ORDER: tuple[ConditionRule, ...] = tuple(r for r in CONDITIONS.values() if r.malus)
"""Conditions with a malus, in the order their parts join a Probenwert."""

SHAKEABLE: tuple[Condition, ...] = tuple(c for c in Condition if CONDITIONS[c].shake_check)
"""H12: conditions a Handlung with a check can end, in enum order (the order offered)."""
