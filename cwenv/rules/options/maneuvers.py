"""K — Kampfmanöver: the rule options of this checklist section.

Kampfmanöver (K01–K05): the defence's cost, damage, Entwaffnen's penalty.
A new option that reads a rule of this section goes here, in X order, documented with
:func:`~cwenv.rules.options.documented.documented` (``docs/rules.md`` lists it under this
section after ``cwenv rules doc``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from cwenv.rules.options.documented import Section, documented
from cwenv.rules.readings import DisarmedDamage, ManeuverCrit


@dataclass(frozen=True)
class ManeuverOptions(Section):
    """The K section of :class:`~cwenv.rules.options.RuleOptions` (Kampfmanöver)."""

    __slots__ = ()
    SECTION: ClassVar[str] = "K"
    TITLE: ClassVar[str] = "Kampfmanöver"

    maneuver_reaction_cost: int = documented(1, "X22", "A defence costs one reaction (A02).", "0")
    maneuver_damage: bool = documented(
        False, "X22", "K lists effects only; no manoeuvre states damage.", "true"
    )
    maneuver_volltreffer_rows: ManeuverCrit = documented(
        ManeuverCrit.CONDITIONS,
        "X33",
        "A07 for every attack, 'damage rows void for manoeuvres' (X33's suggestion): a "
        "Kampfmanöver that deals no damage (maneuver_damage false) takes the table's "
        "verwirrt and eingeschränkt, but neither its extra dice nor Zehrend (LP, Blutung), "
        "which is zehrender Schaden. With maneuver_damage true every row applies.",
        "all_rows: conditions and Zehrend apply (only the extra dice are void); none: no "
        "table roll for a manoeuvre",
    )
    entwaffnen_nsc_penalty: int = documented(
        2, "X22", "K01: NSCs get −2 on attack and damage for the rest of the fight.", "int"
    )
    entwaffnen_damage: DisarmedDamage = documented(
        DisarmedDamage.TOTAL,
        "X22",
        "K01 '–2 auf Angriff und Schaden': one −2, like the attack's, on the total of a "
        "damage roll (weapon, unarmed or hack), after armour.",
        "per_die: −2 for each damage die (after armour)",
    )
