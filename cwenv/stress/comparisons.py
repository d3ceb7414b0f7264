"""Comparing win rates between variants or restrictions: difference intervals, paired and
unpaired tests, and the Holm correction for many comparisons.

Every stress report compares proportions (a side's win rate, the share of fights decided
by a Volltreffer) between a baseline and an alternative. When both were played on the same
dice seeds (common random numbers) the games pair up and the exact McNemar test on the
discordant pairs is used; otherwise a two-proportion z test. The interval of a difference
is Newcombe's hybrid score interval (method 10), built from the two Wilson intervals, which
keeps its coverage near 95 % even for rates near 0 or 1.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from cwenv.runner.win_rates import Z95, wilson_interval


@dataclass(frozen=True)
class Difference:
    """``rate_b − rate_a`` with its 95 % interval and a two-sided p value."""

    rate_a: float
    rate_b: float
    diff: float
    low: float
    high: float
    p_value: float
    paired: bool


def newcombe_interval(
    wins_a: int, n_a: int, wins_b: int, n_b: int, z: float = Z95
) -> tuple[float, float]:
    """Newcombe's hybrid score interval for ``p_b − p_a`` (unpaired)."""
    if n_a <= 0 or n_b <= 0:
        return (-1.0, 1.0)
    pa, pb = wins_a / n_a, wins_b / n_b
    la, ua = wilson_interval(wins_a, n_a, z)
    lb, ub = wilson_interval(wins_b, n_b, z)
    d = pb - pa
    low = d - math.sqrt((pb - lb) ** 2 + (ua - pa) ** 2)
    high = d + math.sqrt((ub - pb) ** 2 + (pa - la) ** 2)
    return (max(-1.0, low), min(1.0, high))


def normal_two_sided_p(z: float) -> float:
    """P(|Z| ≥ |z|) for a standard normal Z."""
    return math.erfc(abs(z) / math.sqrt(2.0))


def two_proportion_p(wins_a: int, n_a: int, wins_b: int, n_b: int) -> float:
    """Two-sided p value of the pooled two-proportion z test (1.0 when undefined)."""
    if n_a <= 0 or n_b <= 0:
        return 1.0
    pooled = (wins_a + wins_b) / (n_a + n_b)
    var = pooled * (1.0 - pooled) * (1.0 / n_a + 1.0 / n_b)
    if var <= 0.0:
        return 1.0
    return normal_two_sided_p((wins_b / n_b - wins_a / n_a) / math.sqrt(var))


def mcnemar_exact_p(only_a: int, only_b: int) -> float:
    """Exact two-sided McNemar p value from the discordant pair counts.

    ``only_a``: pairs where only the baseline game was won; ``only_b``: only the
    alternative's. Under the null each discordant pair goes either way with probability ½.
    """
    n = only_a + only_b
    if n == 0:
        return 1.0
    k = min(only_a, only_b)
    # in integers: 2.0**n overflows a float past n = 1023 discordant pairs, the exact
    # quotient of two ints does not (it rounds once, to 0.0 when far below 1e-308)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / (1 << n)
    return min(1.0, 2.0 * tail)


def compare_unpaired(wins_a: int, n_a: int, wins_b: int, n_b: int) -> Difference:
    pa = wins_a / n_a if n_a else 0.0
    pb = wins_b / n_b if n_b else 0.0
    low, high = newcombe_interval(wins_a, n_a, wins_b, n_b)
    return Difference(pa, pb, pb - pa, low, high, two_proportion_p(wins_a, n_a, wins_b, n_b), False)


def compare_paired(outcomes_a: Sequence[bool], outcomes_b: Sequence[bool]) -> Difference:
    """Compare two win/loss sequences played on the same seeds, game by game.

    The interval is Newcombe's (conservative for positively correlated pairs); the p value
    is the exact McNemar test, which uses the pairing.
    """
    if len(outcomes_a) != len(outcomes_b):
        raise ValueError(
            f"paired comparison needs equally many games, got {len(outcomes_a)} and "
            f"{len(outcomes_b)}"
        )
    n = len(outcomes_a)
    wins_a, wins_b = sum(outcomes_a), sum(outcomes_b)
    only_a = sum(1 for a, b in zip(outcomes_a, outcomes_b, strict=True) if a and not b)
    only_b = sum(1 for a, b in zip(outcomes_a, outcomes_b, strict=True) if b and not a)
    unpaired = compare_unpaired(wins_a, n, wins_b, n)
    return Difference(
        unpaired.rate_a,
        unpaired.rate_b,
        unpaired.diff,
        unpaired.low,
        unpaired.high,
        mcnemar_exact_p(only_a, only_b),
        True,
    )


def holm_significant(p_values: Sequence[float], alpha: float = 0.05) -> list[bool]:
    """Holm–Bonferroni step-down: which of the p values stay significant at family-wise
    level ``alpha`` (in the input order)."""
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    m = len(p_values)
    out = [False] * m
    for rank, i in enumerate(order):
        if p_values[i] > alpha / (m - rank):
            break
        out[i] = True
    return out
