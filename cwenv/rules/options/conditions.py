"""Z — Zustände: the rule options of this checklist section.

Conditions (Z01–Z08): the checks that end them, Angeschlagen's scope, escalation.
A new option that reads a rule of this section goes here, in X order, documented with
:func:`~cwenv.rules.options.documented.documented` (``docs/rules.md`` lists it under this
section after ``cwenv rules doc``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from cwenv.model.types import CheckValue, Skill
from cwenv.rules.options.documented import Section, documented
from cwenv.rules.readings import PenaltyScope

ZEHREND_CHECKS_DEFAULT: tuple[tuple[str, Skill], ...] = (
    ("Blutung", Skill.TECHNIK),
    ("Feuer", Skill.REFLEXE),
)


@dataclass(frozen=True)
class ConditionOptions(Section):
    """The Z section of :class:`~cwenv.rules.options.RuleOptions` (Zustände)."""

    __slots__ = ()
    SECTION: ClassVar[str] = "Z"
    TITLE: ClassVar[str] = "Zustände"

    benommen_check: CheckValue = documented(
        CheckValue.UNBEUGSAMKEIT,
        "X02",
        "Unbeugsamkeit covers fear and psychic pressure (P09); Mumm is courage.",
        "any check value, e.g. COOLNESS",
    )
    angeschlagen_scope: PenaltyScope = documented(
        PenaltyScope.PHYSICAL,
        "X04",
        "The condition's own text (Z01) is the specific rule; D06 only triggers it.",
        "all_checks (D06's '–2 auf alle Proben')",
    )
    angeschlagen_shake_below_half: bool = documented(
        True, "X04", "Z01 allows shaking it off without a condition on LP.", "false"
    )
    escalation_steps: int = documented(
        1,
        "X19",
        "One substitution; if the substitute is already held nothing further happens.",
        "0 (no substitution), 2+",
    )
    eingeschraenkt_check: Skill = documented(
        Skill.UNBEUGSAMKEIT, "X20", "Shaking a limp off is toughness.", "any skill"
    )
    zehrend_checks: tuple[tuple[str, Skill], ...] = documented(
        ZEHREND_CHECKS_DEFAULT,
        "X20",
        "Bleeding is stopped with Technik (first aid), burning clothes with Reflexe; any "
        "other type with Unbeugsamkeit.",
        "any mapping",
    )

    def zehrend_check(self, kind: str) -> Skill:
        """The 'passende Probe' that ends a Zehrend of this type (Z08, X20)."""
        for name, skill in self.zehrend_checks:
            if name.lower() == kind.lower():
                return skill
        return Skill.UNBEUGSAMKEIT
