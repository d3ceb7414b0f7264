"""Outcome metrics of a variant sweep, their 95 % intervals, and the comparisons with the base.

Per (variant, scenario) cell: each side's win rate, the draw rate and the share of fights
decided by a Volltreffer (proportions: Wilson intervals), and per-game means — rounds,
deaths, damage per round, turns per round of each side, Zielen and successful defences per
game — with normal intervals. Each variant is compared with the base game by game (common
random numbers: game ``i`` has the same dice seed in both): proportions by the Newcombe
interval of the difference and the exact McNemar test on the discordant pairs, means by the
paired mean difference with its normal interval and z test. All p values of one sweep form
one family; a comparison is flagged when it stays significant after Holm's correction.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from cwenv.runner.task import GameRecord
from cwenv.runner.win_rates import Z95, wilson_interval
from cwenv.stress.comparisons import compare_paired, holm_significant, normal_two_sided_p


@dataclass(frozen=True)
class Metric:
    """One outcome of a game: a 0/1 indicator (``proportion``) or a number."""

    key: str
    label: str
    proportion: bool
    value: Callable[[GameRecord], float]


def _turns_per_round(side: str) -> Callable[[GameRecord], float]:
    return lambda r: r.counters.get(f"turns:{side}", 0) / max(r.rounds, 1)


def _deaths(r: GameRecord) -> float:
    return float(sum(v for k, v in r.counters.items() if k.startswith("dead:")))


METRICS: tuple[Metric, ...] = (
    Metric("win_runner", "Runner win rate", True, lambda r: float(r.winner == "RUNNER")),
    Metric("win_gegner", "Gegner win rate", True, lambda r: float(r.winner == "GEGNER")),
    Metric("draw", "draw rate", True, lambda r: float(r.winner is None)),
    Metric(
        "volltreffer_decided",
        "decided by a Volltreffer",
        True,
        lambda r: float(r.counters.get("decided:volltreffer", 0) > 0),
    ),
    Metric("rounds", "rounds", False, lambda r: float(r.rounds)),
    Metric("deaths", "deaths per game", False, _deaths),
    Metric(
        "damage_per_round",
        "damage per round",
        False,
        lambda r: r.counters.get("damage_dealt", 0) / max(r.rounds, 1),
    ),
    Metric("turns_runner", "Runner turns per round", False, _turns_per_round("RUNNER")),
    Metric("turns_gegner", "Gegner turns per round", False, _turns_per_round("GEGNER")),
    Metric("zielen", "Zielen per game", False, lambda r: float(r.counters.get("action:ZIELEN", 0))),
    Metric(
        "defended",
        "successful defences per game",
        False,
        lambda r: float(r.counters.get("defended", 0)),
    ),
)
METRIC_BY_KEY = {m.key: m for m in METRICS}


@dataclass(frozen=True)
class Estimate:
    """A metric in one cell: value with its 95 % interval over ``n`` games."""

    value: float
    low: float
    high: float
    n: int


@dataclass(frozen=True)
class Comparison:
    """``variant − base`` for one metric in one scenario."""

    scenario: str
    variant: str
    metric: str
    base: Estimate
    alt: Estimate
    diff: float
    low: float
    high: float
    p_value: float
    test: str  # "McNemar exact" or "paired z"
    significant: bool  # after Holm over every comparison of the sweep


def estimate(metric: Metric, records: Sequence[GameRecord]) -> Estimate:
    """The metric over ``records`` with a Wilson (proportions) or normal (means) interval."""
    n = len(records)
    values = [metric.value(r) for r in records]
    if metric.proportion:
        wins = sum(1 for v in values if v > 0)
        low, high = wilson_interval(wins, n)
        return Estimate(wins / n if n else 0.0, low, high, n)
    if n == 0:
        return Estimate(0.0, 0.0, 0.0, 0)
    mean = sum(values) / n
    half = Z95 * _sd(values, mean) / math.sqrt(n) if n > 1 else 0.0
    return Estimate(mean, mean - half, mean + half, n)


def _sd(values: Sequence[float], mean: float) -> float:
    if len(values) < 2:
        return 0.0
    return math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))


def paired_mean_difference(
    a: Sequence[float], b: Sequence[float]
) -> tuple[float, float, float, float]:
    """Mean of ``b − a`` over pairs, its 95 % normal interval and the two-sided z-test p
    (the sign test's when every pair differs by the same amount)."""
    diffs = [y - x for x, y in zip(a, b, strict=True)]
    n = len(diffs)
    if n == 0:
        return 0.0, 0.0, 0.0, 1.0
    mean = sum(diffs) / n
    se = _sd(diffs, mean) / math.sqrt(n) if n > 1 else 0.0
    if se == 0.0:  # every pair differs by the same amount: the exact sign test's p
        return mean, mean, mean, 1.0 if mean == 0.0 else min(1.0, 2.0 * 0.5**n)
    return mean, mean - Z95 * se, mean + Z95 * se, normal_two_sided_p(mean / se)


def compare(
    metric: Metric,
    base: dict[int, GameRecord],
    alt: dict[int, GameRecord],
    scenario: str,
    variant: str,
) -> Comparison:
    """Compare the games both cells played (same index = same dice seed); unflagged."""
    shared = sorted(set(base) & set(alt))
    a = [metric.value(base[i]) for i in shared]
    b = [metric.value(alt[i]) for i in shared]
    est_a = estimate(metric, [base[i] for i in shared])
    est_b = estimate(metric, [alt[i] for i in shared])
    if metric.proportion:
        d = compare_paired([v > 0 for v in a], [v > 0 for v in b])
        diff, low, high, p, test = d.diff, d.low, d.high, d.p_value, "McNemar exact"
    else:
        diff, low, high, p = paired_mean_difference(a, b)
        test = "paired z"
    return Comparison(scenario, variant, metric.key, est_a, est_b, diff, low, high, p, test, False)


@dataclass(frozen=True)
class SweepAnalysis:
    """Every estimate and every comparison of a sweep."""

    base: str
    variants: tuple[str, ...]  # the base first
    scenarios: tuple[str, ...]
    estimates: dict[tuple[str, str, str], Estimate]  # (variant, scenario, metric)
    comparisons: tuple[Comparison, ...]

    def flagged(self) -> list[Comparison]:
        """The significant comparisons, by scenario, variant and metric."""
        return sorted(
            (c for c in self.comparisons if c.significant),
            key=lambda c: (c.scenario, c.variant, c.metric),
        )

    def to_json(self) -> dict[str, object]:
        return {
            "base": self.base,
            "variants": list(self.variants),
            "scenarios": list(self.scenarios),
            "metrics": {m.key: m.label for m in METRICS},
            "estimates": [
                {"variant": v, "scenario": s, "metric": m, **e.__dict__}
                for (v, s, m), e in sorted(self.estimates.items())
            ],
            "comparisons": [
                {
                    "scenario": c.scenario,
                    "variant": c.variant,
                    "metric": c.metric,
                    "base": c.base.value,
                    "alt": c.alt.value,
                    "diff": c.diff,
                    "ci95": [c.low, c.high],
                    "p_value": c.p_value,
                    "test": c.test,
                    "n_pairs": min(c.base.n, c.alt.n),
                    "significant_holm": c.significant,
                }
                for c in self.comparisons
            ],
        }


def analyse(
    records: dict[tuple[str, str], dict[int, GameRecord]],
    variants: Sequence[str],
    scenarios: Sequence[str],
    alpha: float = 0.05,
) -> SweepAnalysis:
    """Estimates for every cell and Holm-flagged comparisons of each variant with the base
    (``variants[0]``)."""
    base = variants[0]
    estimates = {
        (v, s, m.key): estimate(m, [records[(v, s)][i] for i in sorted(records[(v, s)])])
        for v in variants
        for s in scenarios
        for m in METRICS
    }
    raw = [
        compare(m, records[(base, s)], records[(v, s)], s, v)
        for s in scenarios
        for v in variants[1:]
        for m in METRICS
    ]
    flags = holm_significant([c.p_value for c in raw], alpha)
    comparisons = tuple(
        Comparison(
            c.scenario,
            c.variant,
            c.metric,
            c.base,
            c.alt,
            c.diff,
            c.low,
            c.high,
            c.p_value,
            c.test,
            flag,
        )
        for c, flag in zip(raw, flags, strict=True)
    )
    return SweepAnalysis(base, tuple(variants), tuple(scenarios), estimates, comparisons)
