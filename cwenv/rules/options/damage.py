"""D — Schaden: the rule options of this checklist section.

Damage, dying and stabilising (D01–D09): armour, resistances, Volltreffer dice, death, NSCs
at 0 LP.
A new option that reads a rule of this section goes here, in X order, documented with
:func:`~cwenv.rules.options.documented.documented` (``docs/rules.md`` lists it under this
section after ``cwenv rules doc``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from cwenv.rules.options.documented import Section, documented
from cwenv.rules.readings import (
    AngeschlagenTrigger,
    CritExtraDie,
    DeathThreshold,
    NscAtZero,
    Rounding,
    StabilisePatzerVictim,
)


@dataclass(frozen=True)
class DamageOptions(Section):
    """The D section of :class:`~cwenv.rules.options.RuleOptions` (Schaden)."""

    __slots__ = ()
    SECTION: ClassVar[str] = "D"
    TITLE: ClassVar[str] = "Schaden"

    death_threshold: DeathThreshold = documented(
        DeathThreshold.AT_OR_BELOW,
        "X05",
        "Text example: Unbeugsamkeit 10 dies at −10.",
        "below",
    )
    armour_floor_zero: bool = documented(
        True, "X08", "Armour cannot turn a damage roll into healing.", "false"
    )
    brechend_armour_rounding: Rounding = documented(
        Rounding.DOWN, "X08", "Halving rounds down everywhere the text says (M06).", "up"
    )
    nsc_at_zero: NscAtZero = documented(
        NscAtZero.STERBEND,
        "X11",
        "D07 says 'Ein Charakter fällt … und erhält sterbend' for everybody.",
        "dead",
    )
    angeschlagen_trigger: AngeschlagenTrigger = documented(
        AngeschlagenTrigger.CROSSING,
        "X28",
        "D06: 'sobald er … fällt' is the moment of crossing.",
        "every_hit",
    )
    sterbend_damage_reinflicts: bool = documented(
        True, "X29", "Damage while dying inflicts sterbend again → 1W10 direct (Z06).", "false"
    )
    resistance_rounding: Rounding = documented(
        Rounding.DOWN, "X32", "Halving rounds down (M06).", "up"
    )
    crit_extra_die: CritExtraDie = documented(
        CritExtraDie.FULL_ROLL,
        "X33",
        "'Schadenswürfel' in A06 are rolled with all damage bonuses.",
        "bare_die",
    )
    zerschmettert_all_direct: bool = documented(
        True, "X33", "'richtet … direkten Schaden an' speaks of the whole attack.", "false"
    )
    non_lethal_floor_zero: bool = documented(
        True, "X34", "Non-lethal damage brings a fighter 'auf 0 LP', no further.", "false"
    )
    stabilise_patzer_victim: StabilisePatzerVictim = documented(
        StabilisePatzerVictim.PATIENT,
        "X35",
        "'erleidet er' follows 'der Runner überlebt'.",
        "medic",
    )
    stabilise_needs_adjacent: bool = documented(True, "X35", "First aid needs hands on.", "false")
    kampfunfaehig_prone: bool = documented(True, "X44", "'kampfunfähig zu Boden'.", "false")
