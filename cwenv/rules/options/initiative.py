"""I — Initiative und Kampfrunde: the rule options of this checklist section.

The round (I01–I13): the initiative system, ties, the end of the round, surprise.
A new option that reads a rule of this section goes here, in X order, documented with
:func:`~cwenv.rules.options.documented.documented` (``docs/rules.md`` lists it under this
section after ``cwenv rules doc``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from cwenv.rules.options.documented import Section, documented
from cwenv.rules.readings import (
    InitiativeSystem,
    RoundEndOrder,
    Surprise,
    TieOrder,
)


@dataclass(frozen=True)
class InitiativeOptions(Section):
    """The I section of :class:`~cwenv.rules.options.RuleOptions` (Initiative und Kampfrunde)."""

    __slots__ = ()
    SECTION: ClassVar[str] = "I"
    TITLE: ClassVar[str] = "Initiative und Kampfrunde"

    initiative: InitiativeSystem = documented(
        InitiativeSystem.STEPS, "I", "The book's step system (I01–I04).", "passes (I10–I13)"
    )
    tie_order: TieOrder = documented(
        TieOrder.SIDE_CHOOSES,
        "X16",
        "I04: 'Kämpfer derselben Fraktion bestimmen ihre Reihenfolge selbst'.",
        "roster, random",
    )
    round_end_order: RoundEndOrder = documented(
        RoundEndOrder.PER_FIGHTER, "X31", "Per fighter in initiative order.", "phased"
    )
    passes_count_initiative_bonus: bool = documented(
        False,
        "X36",
        "Initiative bonuses such as the Raptor-Booster are not 'Boni' of Reflexe.",
        "true",
    )
    surprise: Surprise = documented(
        Surprise.NONE,
        "X45",
        "No surprise rule exists; scenarios may opt in.",
        "reflexe_check: ambushed fighters failing Reflexe lose round 1",
    )
