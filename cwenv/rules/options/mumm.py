"""M — Mumm: the rule options of this checklist section.

Spending and regaining Mumm (M01–M11): who may spend, how often per check, when a condition
may be shaken off.
A new option that reads a rule of this section goes here, in X order, documented with
:func:`~cwenv.rules.options.documented.documented` (``docs/rules.md`` lists it under this
section after ``cwenv rules doc``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from cwenv.rules.options.documented import Section, documented
from cwenv.rules.readings import DaringMumm, MummRegen, ShakeTiming, ZehrendShake


@dataclass(frozen=True)
class MummOptions(Section):
    """The M section of :class:`~cwenv.rules.options.RuleOptions` (Mumm)."""

    __slots__ = ()
    SECTION: ClassVar[str] = "M"
    TITLE: ClassVar[str] = "Mumm"

    mumm_verbrennen: bool = documented(
        False,
        "X10",
        "'Verbrennen' is never defined, so it is not offered.",
        "true: an entmutigt fighter may still spend Mumm, losing the same from mumm_max",
    )
    nsc_mumm: bool = documented(
        True, "X11", "Stat blocks give NSCs Mumm where the GM wants it.", "false: NSCs never spend"
    )
    tod_abwenden_ends_sterbend: bool = documented(
        True, "X30", "M04 leaves the runner unconscious, not dying.", "false"
    )
    mumm_session_regen: MummRegen = documented(
        MummRegen.ADD_HALF_MAX,
        "X37",
        "'regenerierst deinen halben Mumm': + floor(max / 2), capped at the maximum. Used "
        "between the fights of a multi-fight run, never inside a combat.",
        "restore_to_half",
    )
    mumm_improve_per_check: int = documented(
        1, "X38", "One spend per check keeps M09 (3 Mumm) meaningful.", "n >= 1"
    )
    mumm_improve_then_grosser_wurf: bool = documented(
        True,
        "X38",
        "M02 and M09 are both spent 'vor dem Wurf' and the text forbids neither after the "
        "other: Probe verbessern first raises the Probenwert, so the automatic Volltreffer's "
        "QS band (X06) and its comparison roll are those of the improved value.",
        "false: M09 only on a check that was not improved (M02 then M09 refused)",
    )
    mumm_rerolls_per_check: int = documented(
        1, "X38", "'den Wurf wiederholen' once; then choose.", "n >= 1"
    )
    mumm_keep_first_on_patzer: bool = documented(
        True,
        "X38",
        "M03 'Du entscheidest anschliessend, welches der beiden Ergebnisse gilt': also when "
        "the reroll is a Patzer ('Patzer können nicht wiederholt werden' speaks of the "
        "roll that is rerolled).",
        "false: a reroll that comes up Patzer stands (M01 may still avert it)",
    )
    mumm_reaction_while_benommen: bool = documented(
        False,
        "X38",
        "Z02 'Solange du benommen bist, kannst du nicht handeln': M05 buys a reaction, but "
        "the benommen fighter still cannot react unless X24 benommen_reactions keeps them.",
        "true: M05 buys a reaction even while benommen (X24 blocks only the round's own)",
    )
    mumm_avert_after_reroll: bool = documented(
        True, "X38", "M01 applies to whichever result stands.", "false"
    )
    mumm_extra_action_moves: bool = documented(
        True, "X38", "'Bei jeder Handlung darf sich der Kämpfer zusätzlich bewegen' (H00).", "false"
    )
    mumm_shake_timing: ShakeTiming = documented(
        ShakeTiming.ANY_DECISION,
        "X38",
        "M08 'sofort aufheben': at any of the fighter's decisions (before a defence, a "
        "Blockadeangriff, a check), not only in its own turn; not while kampfunfähig "
        "(nothing to gain, X44 keeps it niedergeworfen; M04 stays affordable) and not for "
        "Benommen during the turn's forced Mumm-Probe (Z02: the Handlung is spent anyway).",
        "own_turn",
    )
    futile_spends: bool = documented(
        True,
        "X53",
        "P06 'Die Folgen bestimmt der Tycoon oder eventuelle Tabellen': without a Tycoon a "
        "Patzer does more than fail only where a rule names it (the attack table A08, death "
        "in the dying check D08, 1W10 from stabilising D09/X35, a defence under X09 "
        "defence_patzer_niedergeworfen); a climb, a defence, shaking off, the benommen "
        "Mumm-Probe, Zehrend, Sturz abfangen, a helper's roll simply fail. M01 and M03 stay "
        "offered everywhere: the text forbids no spend, even one that changes nothing.",
        "false: M01 only on a Patzer that has a consequence, M03 on a success only where "
        "its QS, roll or Volltreffer counts (attack, defence, dying, Sturz abfangen, a jump "
        "down, helping; cwenv.engine.tables.checks)",
    )
    zehrend_mumm_shake: ZehrendShake = documented(
        ZehrendShake.REAPPLIED,
        "X55",
        "M08 'einen Zustand … sofort aufheben', only Sterbend excepted: the A07 table calls "
        "Zehrend a Zustand, so 2 Mumm end each Zehrend held. D03 'bis der Grund für den "
        "Schaden entfernt wurde': a Zehrend whose cause is a danger zone (fire) starts again "
        "at the end of the round if the fighter still stands in the zone.",
        "refused_in_zone: not offered while the fighter stands in the zone causing it; "
        "never: Zehrend is damage that only its check or leaving the zone ends (before #15)",
    )
    mumm_daring: DaringMumm = documented(
        DaringMumm.NEVER,
        "X61",
        "M10 'Erhalte einen Mummpunkt zurück, wenn du etwas dummes, aber draufgängerisches "
        "tust, ohne dabei Mummpunkte einzusetzen': only a Tycoon can judge that, and a "
        "simulation has none (as for X14).",
        "actionbonus_without_mumm: each check a Runner makes with the declared Actionbonus "
        "(P03, needs X14 declared_once_per_round) and spends no Mumm on gives 1 Mumm back, up "
        "to the maximum, credited when the fight ends (between the fights of a job)",
    )
