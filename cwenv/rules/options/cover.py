"""C — Deckung: the rule options of this checklist section.

Cover (C01–C05): living cover and area attacks.
A new option that reads a rule of this section goes here, in X order, documented with
:func:`~cwenv.rules.options.documented.documented` (``docs/rules.md`` lists it under this
section after ``cwenv rules doc``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from cwenv.model.types import CoverLevel
from cwenv.rules.options.documented import Section, documented
from cwenv.rules.readings import AreaCover, LivingCoverStacking


@dataclass(frozen=True)
class CoverOptions(Section):
    """The C section of :class:`~cwenv.rules.options.RuleOptions` (Deckung)."""

    __slots__ = ()
    SECTION: ClassVar[str] = "C"
    TITLE: ClassVar[str] = "Deckung"

    living_cover_neutral: CoverLevel = documented(
        CoverLevel.HALF, "X25", "Neutrals are not the attacker's enemies.", "THREE_QUARTER"
    )
    living_cover_stacking: LivingCoverStacking = documented(
        LivingCoverStacking.BETTER, "X25", "Cover levels do not add up in C01.", "stronger_by_one"
    )
    living_cover_melee: bool = documented(
        False, "X25", "C02: cover hampers ranged attacks.", "true"
    )
    living_cover_prone_counts: bool = documented(
        False, "X25", "A body on the floor is not in the line of fire.", "true"
    )
    area_cover: AreaCover = documented(
        AreaCover.ALL_AREA_ATTACKS,
        "X26",
        "A grenade's blast goes round half cover like an area hack's.",
        "area_hacks_only",
    )
