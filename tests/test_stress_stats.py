"""Exact values for the comparison statistics used by the stress reports."""

from __future__ import annotations

import math

import pytest

from cwenv.stress.comparisons import (
    compare_paired,
    holm_significant,
    mcnemar_exact_p,
    newcombe_interval,
    two_proportion_p,
)


def test_newcombe_matches_the_published_example() -> None:
    """Newcombe (1998), Table II example (56/70 vs 48/80): difference 0.2, method 10
    interval 0.0524 to 0.3339 (computed as p1 − p2; here b − a)."""
    low, high = newcombe_interval(48, 80, 56, 70)
    assert low == pytest.approx(0.0524, abs=5e-4)
    assert high == pytest.approx(0.3339, abs=5e-4)


def test_mcnemar_exact_is_the_binomial_tail() -> None:
    # 1 vs 9 discordant pairs: 2 * P(X <= 1), X ~ Bin(10, 1/2) = 2 * 11/1024.
    assert mcnemar_exact_p(1, 9) == pytest.approx(22 / 1024)
    assert mcnemar_exact_p(5, 5) == 1.0
    assert mcnemar_exact_p(0, 0) == 1.0
    # past 1,023 discordant pairs 2.0**n overflows a float: the tail stays exact
    # (Bin(1100, 1/2) P(X <= 500) doubled, from the integers) and a lopsided one is 0.0
    exact = 2 * sum(math.comb(1100, i) for i in range(501)) / 2**1100
    assert mcnemar_exact_p(500, 600) == pytest.approx(exact, rel=1e-12) and 0 < exact < 0.01
    assert mcnemar_exact_p(30, 1600) == 0.0


def test_two_proportion_z() -> None:
    # 50/100 vs 65/100: pooled 0.575, z = 0.15 / sqrt(.575*.425*.02) = 2.1448...
    z = 0.15 / math.sqrt(0.575 * 0.425 * 0.02)
    assert two_proportion_p(50, 100, 65, 100) == pytest.approx(math.erfc(z / math.sqrt(2)))


def test_paired_comparison_uses_the_discordant_pairs() -> None:
    a = [True] * 40 + [False] * 60
    b = [True] * 40 + [True] * 12 + [False] * 48  # 12 games won only under b
    d = compare_paired(a, b)
    assert d.paired and d.diff == pytest.approx(0.12)
    assert d.p_value == pytest.approx(2 / 2**12)
    with pytest.raises(ValueError, match="equally many"):
        compare_paired(a, b[:-1])


def test_holm_steps_down() -> None:
    # m = 4: thresholds .0125, .0167, .025, .05 in p order.
    assert holm_significant([0.01, 0.04, 0.03, 0.005]) == [True, False, False, True]
    assert holm_significant([0.001, 0.012, 0.02, 0.04]) == [True, True, True, True]
    assert holm_significant([]) == []
