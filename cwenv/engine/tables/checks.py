"""What each kind of check decides beyond success (P06, M01, M03, X53), one record each.

P06 'Die Folgen [eines Patzers] bestimmt der Tycoon oder eventuelle Tabellen': a simulation
has no Tycoon, so a Patzer has a consequence only where a table or rule names one; and a
success whose QS and roll nothing reads cannot be bettered by M03. With X53
``futile_spends`` off, :class:`~cwenv.engine.checks.CheckFrame` reads this table to stop
offering M01 and M03 where they cannot change anything.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from cwenv.engine.payloads import CheckPurpose
from cwenv.engine.tables import rule_table
from cwenv.rules.options import RuleOptions

_P = CheckPurpose


def _always(options: RuleOptions) -> bool:
    return True


def _never(options: RuleOptions) -> bool:
    return False


def _defence(options: RuleOptions) -> bool:
    return options.defence_patzer_niedergeworfen  # X09


@dataclass(frozen=True, slots=True)
class CheckPurposeRule:
    """``patzer``: whether a Patzer of this check does more than fail (M01 can matter);
    ``graded``: whether its QS, roll or Volltreffer counts beyond success (M03 on a success
    can matter); ``rule``: where that is written; ``text``: what the check is for in the
    narration (CheckRolled.purpose), ``{}`` where its subjects go (:func:`check_text`)."""

    purpose: CheckPurpose
    rule: str
    patzer: Callable[[RuleOptions], bool]
    graded: bool
    text: str


CHECK_PURPOSES: Mapping[CheckPurpose, CheckPurposeRule] = rule_table(
    CheckPurpose,
    (
        # the Patzer table; QS
        CheckPurposeRule(_P.ATTACK, "A08, A04", _always, True, "{} gegen {}"),
        # the roll is compared
        CheckPurposeRule(_P.DEFENCE, "A04, X09", _defence, True, "Verteidigung"),
        # Patzer: death; Volltreffer: stable
        CheckPurposeRule(_P.DYING, "D08", _always, True, "Sterben"),
        CheckPurposeRule(_P.BENOMMEN, "Z02", _never, False, "Mumm-Probe (benommen)"),
        CheckPurposeRule(_P.SHAKE, "H12", _never, False, "{} abschütteln"),
        CheckPurposeRule(_P.ZEHREND, "Z08", _never, False, "Zehrend ({}) beenden"),
        CheckPurposeRule(_P.CATCH_FALL, "R05", _never, True, "Sturz abfangen"),  # QS dice fewer
        CheckPurposeRule(_P.MOVE, "B05", _never, True, "{}"),  # a jump down: QS dice fewer
        CheckPurposeRule(_P.AMBUSH, "X45", _never, False, "Hinterhalt"),
        # Patzer: 1 damage
        CheckPurposeRule(_P.STABILISE, "D09, X35", _always, False, "{} stabilisieren"),
        # the best helper's QS counts
        CheckPurposeRule(_P.HELP, "P08", _never, True, "{} helfen"),
        CheckPurposeRule(_P.FREE_WEAPON, "A08", _never, False, "{} befreien"),
        CheckPurposeRule(_P.RUCKSACK, "H06", _never, False, "Rucksack durchsuchen"),
    ),
    lambda r: r.purpose,
    "CHECK_PURPOSES (cwenv.engine.tables.checks)",
)


def check_text(purpose: CheckPurpose, *subjects: str) -> str:
    """What a check of ``purpose`` is for, its ``subjects`` (the weapon and the target, the
    condition, the patient, …) put in: the narration both engines write."""
    return CHECK_PURPOSES[purpose].text.format(*subjects)
