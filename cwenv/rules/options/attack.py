"""A — Angreifen und Verteidigen: the rule options of this checklist section.

Attack and defence (A01–A08): targets, defending a Volltreffer, a defence's Patzer,
parrying, Behinderung.
A new option that reads a rule of this section goes here, in X order, documented with
:func:`~cwenv.rules.options.documented.documented` (``docs/rules.md`` lists it under this
section after ``cwenv rules doc``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from cwenv.rules.options.documented import Section, documented
from cwenv.rules.readings import BehinderungScope, MeleeDefence, PatzerDefence


@dataclass(frozen=True)
class AttackOptions(Section):
    """The A section of :class:`~cwenv.rules.options.RuleOptions` (Angreifen und Verteidigen)."""

    __slots__ = ()
    SECTION: ClassVar[str] = "A"
    TITLE: ClassVar[str] = "Angreifen und Verteidigen"

    friendly_fire: bool = documented(
        False, "A01", "Agents may target enemies and neutrals, not allies.", "true"
    )
    volltreffer_defendable: bool = documented(
        True,
        "X09",
        "A2 lets every successful attack be defended; no exception is written.",
        "false",
    )
    defence_patzer_niedergeworfen: bool = documented(
        False, "X09", "A08 is the attack table; a failed defence simply fails.", "true"
    )
    patzer_defender_qs: PatzerDefence = documented(
        PatzerDefence.NONE,
        "X09",
        "A08 'Würfel bei einem Patzer 2W10 – QS des Verteidigers', but A02 offers a defence "
        "only against a successful attack: a failed one draws no defence roll, so 0 is "
        "subtracted and the '≤0 Muskelriss' row needs a roll the dice cannot make.",
        "defence_roll: the target (if able to react, R01/X24) rolls its best defence value "
        "against the failed attack, free of reaction cost; the QS of a success is "
        "subtracted, a failure subtracts 0",
    )
    unarmed_bonus: int = documented(
        -2, "X12", "Unarmed damage is weapon data; W10−2 keeps fists weaker than blades.", "int"
    )
    melee_defence: MeleeDefence = documented(
        MeleeDefence.AUSWEICHEN,
        "X21",
        "A03: weapon attacks are defended with Ausweichen.",
        "ausweichen_or_kampfkunst (parry, P09)",
    )
    behinderung_scope: BehinderungScope = documented(
        BehinderungScope.ATTACKS, "X42", "A01 names the attack value.", "all_physical"
    )
