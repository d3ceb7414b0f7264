"""H — Handlungen: the rule options of this checklist section.

The actions of a turn (H00–H12): Zielen, Sprinten, Rucksack durchsuchen.
A new option that reads a rule of this section goes here, in X order, documented with
:func:`~cwenv.rules.options.documented.documented` (``docs/rules.md`` lists it under this
section after ``cwenv rules doc``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from cwenv.rules.options.documented import Section, documented
from cwenv.rules.readings import RucksackFailure


@dataclass(frozen=True)
class HandlungOptions(Section):
    """The H section of :class:`~cwenv.rules.options.RuleOptions` (Handlungen)."""

    __slots__ = ()
    SECTION: ClassVar[str] = "H"
    TITLE: ClassVar[str] = "Handlungen"

    zielen_max_stacks: int = documented(
        1, "X03", "One aim per attack; 'jeweils' reads as per Zielen, not cumulative.", "n >= 1"
    )
    zielen_bonus: int = documented(2, "X03", "H11: +2 on the attack per Zielen.", "any int")
    zielen_qs_bonus: int = documented(1, "X03", "H11: +1 QS on a hit per Zielen.", "any int >= 0")
    zielen_lost_on_move: bool = documented(
        True, "X03", "Aiming at a weak spot needs a steady stance.", "false"
    )
    zielen_lost_on_hit: bool = documented(False, "X03", "The text does not say so.", "true")
    zielen_lost_at_round_end: bool = documented(
        False, "X03", "The text names no expiry; the aim waits for the next shot.", "true"
    )
    zielen_qs_on_weakened_hit: bool = documented(
        True, "X03", "A weakened hit is still a hit ('+1 QS bei einem Treffer').", "false"
    )
    sprint_total_multiplier: int = documented(
        2, "X15", "'Bewege dich erneut um deine Bewegung': the free move plus one more.", "3"
    )
    rucksack_failure: RucksackFailure = documented(
        RucksackFailure.ACTION_LOST, "X46", "A failed search wastes the action.", "item_lost"
    )
