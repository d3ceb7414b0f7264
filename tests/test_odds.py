"""Exact Probe odds (P01–P06, M02, M03, M09), attack odds (A01–A05) and the dice sources.

Hand counts: of the 100 outcomes of 2W10, the roll s (2–20) occurs s − 1 times up to 11 and
21 − s times above; ten are Paschs (1+1 … 10+10).
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from fractions import Fraction as F

import pytest

from cwenv.rules.dice import (
    CallbackDice,
    DiceExhaustedError,
    InvalidDieError,
    ScriptedDice,
    SeededDice,
)
from cwenv.rules.odds import attack_odds, probe_odds
from cwenv.rules.options import DEFAULT_OPTIONS, DifferenceQS, RuleOptions, VolltrefferQS
from cwenv.rules.probe import ProbeResult, forced_volltreffer, qs_band, resolve_probe

ROLL_BAND = RuleOptions(volltreffer_qs=VolltrefferQS.ROLL_BAND)
MAX_ORDINARY = RuleOptions(volltreffer_qs=VolltrefferQS.MAX_ORDINARY)
RAW_DIFF = RuleOptions(defended_hit_qs=DifferenceQS.RAW)
NO_VT_DEFENCE = RuleOptions(volltreffer_defendable=False)
FACES = range(1, 11)


def pct(**qs: int) -> dict[int, F]:
    return {int(k[1:]): F(v, 100) for k, v in qs.items()}


# Probenwert: (success, Volltreffer, Patzer, QS → count), all out of 100, counted by hand.
HAND_COUNTS = {
    -5: (0, 0, 10, {}),
    1: (0, 0, 10, {}),
    2: (1, 1, 9, pct(q1=1)),
    3: (3, 1, 9, pct(q1=3)),
    7: (21, 3, 7, pct(q1=8, q2=13)),
    10: (45, 5, 5, pct(q1=8, q2=37)),
    14: (79, 7, 3, pct(q1=8, q2=32, q3=39)),
    16: (90, 8, 2, pct(q1=8, q2=32, q3=38, q4=12)),
    18: (97, 9, 1, pct(q1=8, q2=32, q3=38, q4=19)),
    19: (97, 9, 1, pct(q1=8, q2=32, q3=38, q4=19)),  # P04: a 19 fails anyway
    20: (97, 9, 1, pct(q1=8, q2=32, q3=38, q4=19)),
    25: (97, 9, 1, pct(q1=8, q2=32, q3=38, q4=10, q5=9)),  # X06: Volltreffer QS 5
    30: (97, 9, 1, pct(q1=8, q2=32, q3=38, q4=10, q6=9)),
}


@pytest.mark.parametrize("probenwert", sorted(HAND_COUNTS))
def test_probe_odds_match_hand_counts(probenwert: int) -> None:
    success, vt, patzer, qs = HAND_COUNTS[probenwert]
    odds = probe_odds(probenwert)
    assert odds.success == F(success, 100)
    assert odds.volltreffer == F(vt, 100)
    assert odds.patzer == F(patzer, 100)
    assert {k: v for k, v in odds.qs.items() if v} == qs


@pytest.mark.parametrize(
    ("options", "qs"),
    [
        (ROLL_BAND, pct(q1=10, q2=35, q3=34)),  # a Volltreffer keeps its roll's band
        (MAX_ORDINARY, pct(q1=8, q2=32, q3=32, q4=7)),
    ],
)
def test_x06_alternatives_move_volltreffer_qs(options: RuleOptions, qs: dict[int, F]) -> None:
    odds = probe_odds(14, options)
    assert (odds.success, odds.volltreffer, odds.patzer) == (F(79, 100), F(7, 100), F(3, 100))
    assert {k: v for k, v in odds.qs.items() if v} == qs


def test_probe_odds_invariants_over_many_probenwerte() -> None:
    previous = F(0)
    for pw in range(-3, 35):
        odds = probe_odds(pw)
        assert sum(odds.qs.values(), F(0)) == odds.success
        assert odds.volltreffer + odds.patzer == F(10, 100)  # every Pasch is one of them
        assert odds.success >= previous  # a higher Probenwert never hurts
        assert odds.success <= F(97, 100)  # P04
        assert all(k <= 4 for k in odds.qs) or pw >= 21  # 5+ only by Volltreffer (P05)
        previous = odds.success


def test_expected_qs() -> None:
    assert probe_odds(14).expected_qs == F(8 + 2 * 32 + 3 * 39, 100)


def test_returned_odds_do_not_share_state() -> None:
    """A caller editing its result (e.g. dropping a QS) must not change later answers."""
    first = probe_odds(37)  # a Probenwert no other test uses: a leak cannot spread
    saved = dict(first.qs)
    with pytest.raises((AttributeError, TypeError)):
        first.qs.clear()  # type: ignore[attr-defined]  # read-only by design
    assert probe_odds(37).qs == saved


# --- Mumm spends ----------------------------------------------------------------------------


@pytest.mark.parametrize(("probenwert", "spends"), [(14, 1), (12, 2), (1, 1), (17, 2), (8, 3)])
def test_m02_verbessern_adds_two_per_spend(probenwert: int, spends: int) -> None:
    improved = probe_odds(probenwert, improve=spends)
    plain = probe_odds(probenwert + 2 * spends)
    assert (improved.success, improved.volltreffer, improved.patzer, improved.qs) == (
        plain.success,
        plain.volltreffer,
        plain.patzer,
        plain.qs,
    )


def test_m02_verbessern_hand_count() -> None:
    odds = probe_odds(14, improve=1)  # → 16
    assert (odds.success, odds.volltreffer, odds.patzer) == (F(90, 100), F(8, 100), F(2, 100))


def test_m03_wiederholen_hand_count() -> None:
    # 18 ordinary failures of 100 are rerolled; the reroll succeeds 79 times in 100.
    odds = probe_odds(14, reroll=True)
    assert odds.success == F(79, 100) + F(18, 100) * F(79, 100) == F(9322, 10000)
    assert odds.volltreffer == F(7, 100) * F(118, 100)
    assert odds.patzer == F(3, 100)  # a Patzer cannot be rerolled; a rerolled Patzer is not kept
    assert odds.qs == {k: v * F(118, 100) for k, v in probe_odds(14).qs.items()}


@pytest.mark.parametrize("probenwert", [-2, 1, 2, 7, 14, 19, 25])
def test_m03_policy_rerolls_only_ordinary_failures_and_keeps_the_better(probenwert: int) -> None:
    once = probe_odds(probenwert)
    twice = probe_odds(probenwert, reroll=True)
    ordinary_failure = 1 - once.success - once.patzer
    assert twice.success == once.success + ordinary_failure * once.success
    assert twice.volltreffer == once.volltreffer * (1 + ordinary_failure)
    assert twice.patzer == once.patzer
    for k, p in once.qs.items():
        assert twice.qs[k] == p * (1 + ordinary_failure)


@pytest.mark.parametrize(
    ("probenwert", "improve", "options", "qs"),
    [
        (14, 0, DEFAULT_OPTIONS, 3),
        (14, 1, DEFAULT_OPTIONS, 4),
        (25, 0, DEFAULT_OPTIONS, 5),
        (1, 0, DEFAULT_OPTIONS, 1),
        (25, 0, ROLL_BAND, 4),
        (6, 0, MAX_ORDINARY, 4),
    ],
)
def test_m09_grosser_wurf_is_a_certain_volltreffer(
    probenwert: int, improve: int, options: RuleOptions, qs: int
) -> None:
    for reroll in (False, True):
        odds = probe_odds(probenwert, options, improve=improve, grosser_wurf=True, reroll=reroll)
        assert (odds.success, odds.volltreffer, odds.patzer) == (F(1), F(1), F(0))
        assert odds.qs == {qs: F(1)}


# --- attacks (A01–A05) ----------------------------------------------------------------------


def outcomes(probenwert: int, options: RuleOptions = DEFAULT_OPTIONS) -> list[ProbeResult]:
    return [resolve_probe(probenwert, a, b, options) for a in FACES for b in FACES]


def attack_oracle(att: int, dfn: int, options: RuleOptions) -> tuple[F, dict[int, F]]:
    """A01–A05 written out: failed attack → nothing; failed defence → attacker's QS; both
    succeed → higher roll wins, tie → defender, weakened QS from the difference (X07)."""
    unit = F(1, 10000)
    hit, qs = F(0), dict[int, F]()
    for a in outcomes(att, options):
        if not a.success:
            continue
        for d in outcomes(dfn, options):
            if not d.success or (a.volltreffer and not options.volltreffer_defendable):
                k = a.qs
            elif a.total > d.total:
                diff = a.total - d.total
                k = diff if options.defended_hit_qs is DifferenceQS.RAW else qs_band(diff)
            else:
                continue
            hit += unit
            qs[k] = qs.get(k, F(0)) + unit
    return hit, qs


def test_a04_hand_count_tie_goes_to_defender() -> None:
    # Both at 3: successes are 1+1 (Volltreffer, QS 1), 1+2 and 2+1.
    odds = attack_odds(3, 3)
    assert odds.hit == F(97 + 2 * 98, 10000)  # 2 vs 2 and 3 vs 3 are ties: defender wins
    assert odds.qs == {1: F(293, 10000)}
    assert attack_odds(2, 2).hit == F(99, 10000)


@pytest.mark.parametrize(
    ("att", "dfn", "options"),
    [
        (14, 12, DEFAULT_OPTIONS),
        (10, 16, DEFAULT_OPTIONS),
        (19, 19, DEFAULT_OPTIONS),
        (25, 8, DEFAULT_OPTIONS),
        (25, 25, RAW_DIFF),
        (14, 14, NO_VT_DEFENCE),
        (2, 14, DEFAULT_OPTIONS),
    ],
)
def test_a01_a05_attack_odds_match_the_written_procedure(
    att: int, dfn: int, options: RuleOptions
) -> None:
    odds = attack_odds(att, dfn, options)
    hit, qs = attack_oracle(att, dfn, options)
    assert odds.hit == hit
    assert {k: v for k, v in odds.qs.items() if v} == qs
    assert sum(odds.qs.values(), F(0)) == odds.hit


def test_a01_failed_attack_never_hits() -> None:
    assert attack_odds(1, None).hit == 0
    assert attack_odds(1, 25).hit == 0
    for att in (5, 14, 25):
        for dfn in (None, 2, 10, 18):
            assert attack_odds(att, dfn).hit <= probe_odds(att).success


def test_a05_undefended_attack_keeps_the_attackers_qs() -> None:
    odds, plain = attack_odds(14, None), probe_odds(14)
    assert (odds.hit, odds.qs, odds.volltreffer, odds.patzer) == (
        plain.success,
        plain.qs,
        plain.volltreffer,
        plain.patzer,
    )
    # a defender who can never succeed changes nothing
    assert attack_odds(14, 1).hit == plain.success


def test_a04_weakened_hit_qs_is_band_of_difference() -> None:
    # Defence 25 succeeds on every non-19/20 roll; differences reach 18 − 2 = 16.
    assert max(attack_odds(25, 25, RAW_DIFF).qs) == 16
    assert max(k for k, v in attack_odds(25, 25).qs.items() if v) == 5  # only via a failed defence
    assert attack_odds(25, 25).hit < attack_odds(25, None).hit


def test_a04_better_defence_means_fewer_hits() -> None:
    hits = [attack_odds(14, d).hit for d in (1, 4, 8, 11, 14, 17, 20)]
    assert all(a >= b for a, b in itertools.pairwise(hits))
    assert hits[-1] < hits[0] == F(79, 100)


# --- sampled frequencies against the exact enumeration ------------------------------------

N = 200_000
# (Probenwert, verbessern spends, wiederholen, seed)
SAMPLED = [(14, 0, False, 1), (19, 0, False, 2), (25, 0, False, 3), (12, 1, False, 4),
           (14, 0, True, 5), (17, 1, True, 6)]  # fmt: skip


def sample_probe(dice: SeededDice, value: int, reroll: bool) -> ProbeResult:
    first = resolve_probe(value, dice.d10(), dice.d10(), DEFAULT_OPTIONS)
    if reroll and not first.success and not first.patzer:  # documented M03 policy
        second = resolve_probe(value, dice.d10(), dice.d10(), DEFAULT_OPTIONS)
        return second if second.success else first
    return first


@pytest.mark.slow
@pytest.mark.parametrize(("probenwert", "improve", "reroll", "seed"), SAMPLED)
def test_sampled_frequencies_match_exact_odds(
    probenwert: int, improve: int, reroll: bool, seed: int
) -> None:
    dice, value = SeededDice(seed), probenwert + 2 * improve
    seen = Counter(
        (r.success, r.volltreffer, r.patzer, r.qs)
        for r in (sample_probe(dice, value, reroll) for _ in range(N))
    )
    tally: Counter[str] = Counter()
    for (success, volltreffer, patzer, qs), count in seen.items():
        tally["success"] += success * count
        tally["volltreffer"] += volltreffer * count
        tally["patzer"] += patzer * count
        tally[f"qs{qs}"] += success * count
    exact = probe_odds(probenwert, improve=improve, reroll=reroll)
    expected = {"success": exact.success, "volltreffer": exact.volltreffer, "patzer": exact.patzer}
    expected |= {f"qs{k}": exact.qs.get(k, F(0)) for k in range(1, 8)}
    for key, p in expected.items():
        tolerance = 4 * math.sqrt(float(p * (1 - p)) / N)
        assert abs(tally[key] / N - float(p)) <= tolerance, (key, tally[key] / N, float(p))


# --- dice sources ---------------------------------------------------------------------------


def test_seeded_dice_are_uniform_w10() -> None:
    dice, n = SeededDice(2024), 100_000
    counts = Counter(dice.d10() for _ in range(n))
    assert set(counts) == set(FACES)
    se = math.sqrt(0.1 * 0.9 / n)
    for face in FACES:
        assert abs(counts[face] / n - 0.1) <= 4 * se, (face, counts[face])


def test_seeded_dice_never_touch_global_random() -> None:
    random.seed(12345)
    before = random.getstate()
    dice = SeededDice(7)
    rolls = [dice.d10() for _ in range(500)]
    dice.clone().d10()
    dice.reseed(8)
    SeededDice().d10()
    assert random.getstate() == before
    random.seed(999)  # the global seed has no influence on a seeded source either
    again = SeededDice(7)
    assert [again.d10() for _ in range(500)] == rolls


def test_seeded_dice_seed_decides_the_stream() -> None:
    a, b, c = SeededDice(11), SeededDice(11), SeededDice(12)
    ra, rb, rc = ([d.d10() for _ in range(50)] for d in (a, b, c))
    assert ra == rb != rc


def test_clone_reproduces_the_future_independently() -> None:
    dice = SeededDice(42)
    for _ in range(17):
        dice.d10()
    twin = dice.clone()
    future = [twin.d10() for _ in range(100)]  # drawing from the clone …
    assert [dice.d10() for _ in range(100)] == future  # … does not advance the original
    dice.reseed(5)
    fresh = SeededDice(5)
    assert [dice.d10() for _ in range(20)] == [fresh.d10() for _ in range(20)]


def test_scripted_dice_replay_then_exhaust() -> None:
    dice = ScriptedDice([3, 10, 1])
    assert [dice.d10(), dice.d10()] == [3, 10]
    twin = dice.clone()
    assert (dice.used, dice.remaining) == (2, 1)
    assert dice.d10() == 1
    with pytest.raises(DiceExhaustedError, match=r"exhausted after 3 rolls"):
        dice.d10()
    assert twin.d10() == 1  # the clone kept its own position


@pytest.mark.parametrize(
    ("rolls", "fragment"),
    [([0], "#1 is 0"), ([5, 11], "#2 is 11"), ([4, "3"], "#2 is '3'"), ([2.5], "#1 is 2.5"),
     ([None], "#1 is None"), ([-1], "#1 is -1"), ([True], "#1 is True")],
)  # fmt: skip
def test_scripted_dice_reject_non_w10_values(rolls: list[object], fragment: str) -> None:
    with pytest.raises(InvalidDieError) as exc:
        ScriptedDice(rolls)  # type: ignore[arg-type]
    assert fragment in str(exc.value) and "1–10" in str(exc.value)


def test_callback_dice_validate_and_log() -> None:
    typed = iter([4, 10, 11])
    dice = CallbackDice(lambda: next(typed))
    assert [dice.d10(), dice.d10()] == [4, 10]
    with pytest.raises(InvalidDieError, match="11"):
        dice.d10()
    assert dice.log == [4, 10]
    with pytest.raises(DiceExhaustedError):
        dice.clone().d10()
    with pytest.raises(InvalidDieError, match="True"):
        CallbackDice(lambda: True).d10()  # a bool is not a typed W10


@pytest.mark.parametrize(
    ("probenwert", "face"), [(3, 1), (14, 7), (15, 7), (18, 9), (19, 9), (20, 9), (25, 9)]
)
def test_m09_grosser_wurf_counts_as_the_best_pasch(probenwert: int, face: int) -> None:
    """M09 rolls no dice; the result stands as the best Pasch a success allows (P04: ≤ 9+9),
    which is what a defence is compared against (A04)."""
    r = forced_volltreffer(probenwert, DEFAULT_OPTIONS)
    assert (r.d1, r.d2) == (face, face)
    assert r.success and r.volltreffer and r.qs == max(qs_band(probenwert), 1)
