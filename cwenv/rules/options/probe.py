"""P — Probe: the rule options of this checklist section.

Checks and their quality (P01–P09): Volltreffer and difference QS, contests, the
Actionbonus, Helfen, which checks are geistig.
A new option that reads a rule of this section goes here, in X order, documented with
:func:`~cwenv.rules.options.documented.documented` (``docs/rules.md`` lists it under this
section after ``cwenv rules doc``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from cwenv.model.types import CheckValue
from cwenv.rules.options.documented import Section, documented
from cwenv.rules.readings import (
    ActionBonusMode,
    DifferenceQS,
    GrosserWurfRoll,
    HelpModifier,
    HelpScope,
    LoneWinnerQS,
    TieQS,
    VolltrefferQS,
)

MENTAL_CHECKS_DEFAULT = frozenset(
    {
        CheckValue.COOLNESS,
        CheckValue.CONNECTIONS,
        CheckValue.DATAMINING,
        CheckValue.HACKING,
        CheckValue.OPERATIONS,
        CheckValue.TECHNIK,
        CheckValue.WAHRNEHMUNG,
        CheckValue.FIREWALL,
    }
)


@dataclass(frozen=True)
class ProbeOptions(Section):
    """The P section of :class:`~cwenv.rules.options.RuleOptions` (Probe)."""

    __slots__ = ()
    SECTION: ClassVar[str] = "P"
    TITLE: ClassVar[str] = "Probe"

    volltreffer_qs: VolltrefferQS = documented(
        VolltrefferQS.PROBENWERT_BAND,
        "X06",
        "'Highest QS you can reach' = the band of the Probenwert, bands continuing above 20 "
        "(21–25 → 5), so only a Volltreffer reaches 5+ (P05).",
        "roll_band, max_ordinary",
    )
    defended_hit_qs: DifferenceQS = documented(
        DifferenceQS.BAND, "X07", "Text example: 11 − 8 = 3 → QS 1.", "raw"
    )
    actionbonus: ActionBonusMode = documented(
        ActionBonusMode.NONE,
        "X14",
        "The Actionbonus is the Tycoon's judgement of a described stunt; a simulation has none.",
        "declared_once_per_round: a Runner may claim +2 on one check per round",
    )
    volltreffer_wins_contest: bool = documented(False, "X27", "P07 compares rolls only.", "true")
    contest_lone_winner_qs: LoneWinnerQS = documented(
        LoneWinnerQS.OWN_ROLL,
        "X27",
        "P07 'Gelingt nur eine der Proben, gewinnt diese': an ordinary success, so the QS of "
        "its own roll; the difference of the rolls is written for two successes.",
        "difference: the band of the two rolls' difference, at least 1",
    )
    contest_tie_qs: TieQS = documented(
        TieQS.ZERO,
        "X27",
        "A tie goes to the defender; the difference of equal rolls is 0, so QS 0.",
        "own_roll: the defender's QS is the band of its own roll",
    )
    grosser_wurf_roll: GrosserWurfRoll = documented(
        GrosserWurfRoll.BEST_PASCH,
        "X54",
        "M09 'automatisch einen Volltreffer': a Volltreffer is a Pasch, so in a comparison "
        "(A04, P07) it counts as the highest Pasch the Probenwert allows, at most 9+9.",
        "highest_roll: the highest successful roll, min(Probenwert, 18)",
    )
    mental_checks: frozenset[CheckValue] = documented(
        MENTAL_CHECKS_DEFAULT,
        "X39",
        "Geistig: social, knowledge, hacking, perception and technical checks and Firewall; "
        "everything else is körperlich.",
        "any set of check values",
    )
    helfen_in_combat: bool = documented(
        True, "X41", "P08 works in combat; helping costs the helper's Handlung.", "false"
    )
    nsc_may_help: bool = documented(False, "X41", "P08 speaks of Runner.", "true")
    nsc_actionbonus: bool = documented(
        False, "X41", "P03 grants the Actionbonus to a Runner.", "true (with X14 declared)"
    )
    help_modifier: HelpModifier = documented(
        HelpModifier.MAIN_CHECK,
        "X59",
        "'In der Regel derselbe Modifikator wie für die Hauptprobe': a helper rolls the main "
        "check's skill with its modifiers beyond the actor's own (weapon, range, cover, "
        "Zielen, manoeuvre difficulty, a disarmed NSC's malus), and its own conditions.",
        "none: the helper's skill and own conditions only",
    )
    help_scope: HelpScope = documented(
        HelpScope.OWN_CHECKS,
        "X60",
        "A helper announces help with its Handlung; the helpers roll right before the "
        "ally's next check in the ally's own turn (an attack, manoeuvre or hack, a "
        "Schwierige Bewegung or climb, stabilising, shaking off, the benommen Mumm-Probe, "
        "freeing a weapon, the backpack), not a defence or reaction; the help ends with "
        "the round.",
        "attacks: only the ally's next attack, manoeuvre or hack",
    )

    def is_mental(self, check: CheckValue) -> bool:
        """Whether a check counts as geistig (Verwirrt) or körperlich (Angeschlagen) (X39)."""
        return check in self.mental_checks
