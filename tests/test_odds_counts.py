"""The odds tables count outcome classes, not 10,000 Fractions (issue #18, fast encoder).

:func:`cwenv.rules.odds.attack_odds` and :func:`probe_odds` count roll pairs in integers
over the classes of 2W10 outcomes alike in sum and Pasch and make one Fraction per figure.
Here they are compared with the plain enumeration they replaced (every one of the 100 or
100² roll pairs adding its exact 1/100 or 1/100² as a Fraction), for attack and defence
values at every edge of the tables under the readings that change how a roll pair scores: X06,
X07, X09 and X27. Equal means the same Fractions and the QS table's keys in the same order.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest

from cwenv.rules.odds import FACES, AttackOdds, ProbeOdds, _better, attack_odds, probe_odds
from cwenv.rules.options import (
    DEFAULT_OPTIONS,
    DifferenceQS,
    LoneWinnerQS,
    RuleOptions,
    TieQS,
    VolltrefferQS,
)
from cwenv.rules.probe import ProbeResult, hit_qs, resolve_probe

READINGS = {
    "default": DEFAULT_OPTIONS,
    "X06 roll_band": RuleOptions(volltreffer_qs=VolltrefferQS.ROLL_BAND),
    "X07 raw, X06 max_ordinary": RuleOptions(
        defended_hit_qs=DifferenceQS.RAW, volltreffer_qs=VolltrefferQS.MAX_ORDINARY
    ),
    "X09 undefendable": RuleOptions(volltreffer_defendable=False),
    "X27 difference": RuleOptions(contest_lone_winner_qs=LoneWinnerQS.DIFFERENCE),
    "X27 tie own_roll, Volltreffer wins, X07 raw": RuleOptions(
        contest_tie_qs=TieQS.OWN_ROLL,
        volltreffer_wins_contest=True,
        defended_hit_qs=DifferenceQS.RAW,
    ),
}
VALUES = (-1, 3, 6, 10, 11, 15, 16, 18, 19, 24)
"""Attack and defence values at every edge that matters: below 2, the QS bands' ends
(P05), the highest ordinary success (18), the always-failing 19 (P04), beyond 20 (X06)."""


def _rolls(value: int, options: RuleOptions) -> list[ProbeResult]:
    return [resolve_probe(value, a, b, options) for a in FACES for b in FACES]


def plain_attack_odds(attack: int, defence: int | None, options: RuleOptions) -> AttackOdds:
    """Every roll pair adds its 1/100² (A01–A05, X07, X09, X27): the old computation."""
    unit = Fraction(1, 100)
    hit = volltreffer = patzer = Fraction(0)
    qs: dict[int, Fraction] = {}
    defences = _rolls(defence, options) if defence is not None else []
    for a in _rolls(attack, options):
        if not a.success:
            patzer += unit if a.patzer else 0
            continue
        volltreffer += unit if a.volltreffer else 0
        if not defences or (a.volltreffer and not options.volltreffer_defendable):
            hit += unit
            qs[a.qs] = qs.get(a.qs, Fraction(0)) + unit
            continue
        for d in defences:
            k = hit_qs(a, d, options)
            if k is not None:
                hit += unit * unit
                qs[k] = qs.get(k, Fraction(0)) + unit * unit
    return AttackOdds(hit, qs, volltreffer, patzer)


def plain_probe_odds(value: int, options: RuleOptions, reroll: bool) -> ProbeOdds:
    """Every outcome adds its 1/100, every rerolled pair its 1/100² (P01–P06, M03)."""
    unit = Fraction(1, 100)
    weights: list[tuple[ProbeResult, Fraction]] = []
    single = _rolls(value, options)
    for first in single:
        if reroll and not first.success and not first.patzer:
            weights += [(_better(first, second), unit * unit) for second in single]
        else:
            weights.append((first, unit))
    success = volltreffer = patzer = Fraction(0)
    qs: dict[int, Fraction] = {}
    for result, w in weights:
        if result.success:
            success += w
            qs[result.qs] = qs.get(result.qs, Fraction(0)) + w
            volltreffer += w if result.volltreffer else 0
        elif result.patzer:
            patzer += w
    return ProbeOdds(value, success, volltreffer, patzer, qs)


def _same(fast: AttackOdds | ProbeOdds, plain: AttackOdds | ProbeOdds) -> None:
    assert list(fast.qs.items()) == list(plain.qs.items())  # same values, same key order
    assert all(type(p) is Fraction for p in fast.qs.values())
    for name in ("volltreffer", "patzer", "expected_qs"):
        assert getattr(fast, name) == getattr(plain, name), name
        assert type(getattr(fast, name)) is Fraction, name


@pytest.mark.parametrize("reading", list(READINGS))
def test_attack_odds_equal_the_plain_enumeration(reading: str) -> None:
    options = READINGS[reading]
    for attack in VALUES:
        for defence in (None, *VALUES):
            fast, plain = (
                attack_odds(attack, defence, options),
                plain_attack_odds(attack, defence, options),
            )
            assert fast.hit == plain.hit and type(fast.hit) is Fraction, (attack, defence)
            _same(fast, plain)


@pytest.mark.parametrize("reading", list(READINGS))
def test_probe_odds_equal_the_plain_enumeration(reading: str) -> None:
    options = READINGS[reading]
    for value in VALUES:
        for reroll in (False, True):
            fast = probe_odds(value, options, reroll=reroll)
            plain = plain_probe_odds(value, options, reroll)
            assert fast.success == plain.success, (value, reroll)
            _same(fast, plain)


def test_preview_chances_answer_for_their_own_options_object() -> None:
    """The previews keep their float chances per options object (cwenv.engine.preview): a
    freed object's id, taken by options of another reading, must not get its chances."""
    from cwenv.engine.preview import _chances

    readings = list(READINGS.values())
    for n in range(200):  # fresh, short-lived objects: ids are reused
        options = dataclasses.replace(readings[n % len(readings)])
        odds = attack_odds(12, 14, options)
        hit, qs = float(odds.hit), float(odds.expected_qs)
        assert _chances(12, 14, options) == (float(probe_odds(12, options).success), hit, qs)
