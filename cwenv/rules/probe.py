"""The Probe: 2W10 roll-under with quality levels, Volltreffer and Patzer (P01–P07).

Pure functions of the Probenwert and the two dice; the dice themselves are drawn by the
engine from the combat's one generator.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from cwenv.rules.options import (
    DifferenceQS,
    GrosserWurfRoll,
    LoneWinnerQS,
    RuleOptions,
    TieQS,
    VolltrefferQS,
)

AUTO_FAIL_ROLL = 19
"""P04: a roll of 19 always fails (20 always fails and is a Patzer, being a Pasch)."""

MAX_ORDINARY_QS = 4
"""P05: an ordinary success reaches at most QS 4 (rolls 16–18)."""


class Difficulty(IntEnum):
    """The named modifier levels of P02."""

    SEHR_EINFACH = 6
    EINFACH = 4
    WENIG_FORDERND = 2
    FORDERND = 0
    SEHR_FORDERND = -2
    SCHWIERIG = -4
    SEHR_SCHWIERIG = -6


def qs_band(value: int) -> int:
    """The QS band of a roll or difference (P05): 1–5 → 1, 6–10 → 2, …, 21–25 → 5; 0 → 0.

    Bands continue above 20 in steps of five (X06).
    """
    if value <= 0:
        return 0
    return (value + 4) // 5


@dataclass(frozen=True, slots=True)
class ProbeResult:
    """One rolled Probe. ``qs`` is 0 on a failure."""

    probenwert: int
    d1: int
    d2: int
    success: bool
    qs: int
    volltreffer: bool
    patzer: bool

    @property
    def total(self) -> int:
        return self.d1 + self.d2

    @property
    def pasch(self) -> bool:
        return self.d1 == self.d2


def volltreffer_qs(probenwert: int, roll: int, options: RuleOptions) -> int:
    """The QS of a Volltreffer: 'the highest QS the character can reach' (P06, X06)."""
    mode = options.volltreffer_qs
    if mode is VolltrefferQS.PROBENWERT_BAND:
        return max(qs_band(probenwert), 1)
    if mode is VolltrefferQS.ROLL_BAND:
        return qs_band(roll)
    return MAX_ORDINARY_QS


def resolve_probe(probenwert: int, d1: int, d2: int, options: RuleOptions) -> ProbeResult:
    """Resolve 2W10 against a Probenwert (P01, P04, P05, P06)."""
    roll = d1 + d2
    success = roll <= probenwert and roll < AUTO_FAIL_ROLL
    pasch = d1 == d2
    if success:
        if pasch:
            return ProbeResult(
                probenwert, d1, d2, True, volltreffer_qs(probenwert, roll, options), True, False
            )
        return ProbeResult(probenwert, d1, d2, True, qs_band(roll), False, False)
    return ProbeResult(probenwert, d1, d2, False, 0, False, pasch)


def forced_volltreffer(probenwert: int, options: RuleOptions) -> ProbeResult:
    """M09 'Den grossen Wurf landen': an automatic Volltreffer at the highest QS.

    No dice are rolled. The result counts as the best Pasch the Probenwert allows (at most
    9+9, since 19 and 20 always fail), which is what a defence is compared against (A04);
    under X54 ``highest_roll`` as the highest successful roll, min(Probenwert, 18).
    """
    if options.grosser_wurf_roll is GrosserWurfRoll.HIGHEST_ROLL:
        roll = max(2, min(AUTO_FAIL_ROLL - 1, probenwert))
        d1 = min(10, (roll + 1) // 2)
        d2 = roll - d1
    else:
        d1 = d2 = max(1, min(9, probenwert // 2))
    qs = volltreffer_qs(probenwert, d1 + d2, options)
    return ProbeResult(probenwert, d1, d2, True, max(qs, 1), True, False)


def difference_qs(difference: int, options: RuleOptions) -> int:
    """QS of a won comparison from the difference of the two rolls (A04, P07, X07)."""
    if options.defended_hit_qs is DifferenceQS.RAW:
        return max(difference, 0)
    return qs_band(difference)


@dataclass(frozen=True, slots=True)
class ContestResult:
    """Outcome of a Vergleichende Probe (P07). ``winner`` is 0 (actor), 1 (defender) or None."""

    winner: int | None
    qs: int


def contest(actor: ProbeResult, defender: ProbeResult, options: RuleOptions) -> ContestResult:
    """Compare two checks (P07, X27): one success wins; both → higher roll, tie → defender.

    When only one side succeeds its QS is the band of its own roll, or (X27
    ``contest_lone_winner_qs``) of the rolls' difference; a tie's QS is 0 or the band of the
    defender's roll (``contest_tie_qs``); when both fail nobody wins.
    """
    if options.volltreffer_wins_contest:
        if actor.volltreffer and not defender.volltreffer:
            return ContestResult(0, actor.qs)
        if defender.volltreffer and not actor.volltreffer:
            return ContestResult(1, defender.qs)
    lone_difference = options.contest_lone_winner_qs is LoneWinnerQS.DIFFERENCE
    if actor.success != defender.success:
        winner, result = (0, actor) if actor.success else (1, defender)
        if lone_difference:
            gap = abs(actor.total - defender.total)
            return ContestResult(winner, max(1, difference_qs(gap, options)))
        return ContestResult(winner, result.qs)
    if not actor.success:
        return ContestResult(None, 0)
    if actor.total > defender.total:
        return ContestResult(0, difference_qs(actor.total - defender.total, options))
    if actor.total == defender.total and options.contest_tie_qs is TieQS.OWN_ROLL:
        return ContestResult(1, qs_band(defender.total))
    return ContestResult(1, difference_qs(defender.total - actor.total, options))


def hit_qs(attack: ProbeResult, defence: ProbeResult, options: RuleOptions) -> int | None:
    """The QS of a successful attack against a rolled defence (A04, A05, P07, X27), or None
    when the defence holds. A failed defence leaves the attack its own QS (A05), or under X27
    ``contest_lone_winner_qs: difference`` the band of the rolls' difference, as the engine
    and every odds table read it."""
    if not defence.success and options.contest_lone_winner_qs is not LoneWinnerQS.DIFFERENCE:
        return attack.qs
    outcome = contest(attack, defence, options)
    return max(outcome.qs, 0) if outcome.winner == 0 else None
