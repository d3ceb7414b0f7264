"""The rows of a restricted-play study: per tactic the paired win-rate difference, how
often the unrestricted agent uses the tactic, and the verdict (:mod:`cwenv.stress.tactics`
explains the design and the verdicts)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cwenv.runner.store import StoredGame
from cwenv.runner.task import resolve_scenario
from cwenv.runner.win_rates import Z95, wilson_interval
from cwenv.stress.comparisons import Difference, compare_paired, holm_significant

if TYPE_CHECKING:
    from cwenv.stress.tactics import TacticsConfig


@dataclass(frozen=True)
class TacticRow:
    """One tactic: its restricted-play difference, its use, and the verdict."""

    tag: str
    label: str
    pairs: int  # restricted games, each paired with its baseline game
    wins: int  # restricted side's wins
    baseline_wins: int  # the same side's wins in the paired baseline games
    diff: Difference  # restricted − baseline win rate
    holm: bool  # significant after Holm over every tag
    side_games: int  # baseline side-games (uses are counted per side and game)
    uses: int  # total uses by the unrestricted agent in those side-games
    uses_sq: int  # sum of squared uses per side-game (for the interval of the mean)
    using: int  # side-games in which the tactic was used at least once
    verdict: str  # "dominant", "dead", "harmful" or ""
    reason: str

    @property
    def uses_per_game(self) -> float:
        return self.uses / self.side_games if self.side_games else 0.0

    @property
    def uses_ci95(self) -> tuple[float, float]:
        n = self.side_games
        if n < 2:  # no spread to estimate
            return (self.uses_per_game, self.uses_per_game)
        mean = self.uses_per_game
        var = max(0.0, (self.uses_sq - n * mean * mean) / (n - 1))
        half = Z95 * math.sqrt(var / n)
        return (max(0.0, mean - half), mean + half)

    @property
    def share_using(self) -> float:
        return self.using / self.side_games if self.side_games else 0.0

    @property
    def share_ci95(self) -> tuple[float, float]:
        return wilson_interval(self.using, self.side_games)

    def to_json(self) -> dict[str, Any]:
        return {
            "tag": self.tag,
            "label": self.label,
            "pairs": self.pairs,
            "restricted_wins": self.wins,
            "baseline_wins": self.baseline_wins,
            "restricted_win_rate": self.diff.rate_b,
            "restricted_ci95": list(wilson_interval(self.wins, self.pairs)),
            "baseline_win_rate": self.diff.rate_a,
            "diff": self.diff.diff,
            "diff_ci95": [self.diff.low, self.diff.high],
            "p_mcnemar": self.diff.p_value,
            "holm_significant": self.holm,
            "uses_per_game": self.uses_per_game,
            "uses_ci95": list(self.uses_ci95),
            "share_using": self.share_using,
            "share_ci95": list(self.share_ci95),
            "verdict": self.verdict,
            "reason": self.reason,
        }


def _won(record_winner: str | None, side: str) -> bool:
    return record_winner == side


def _pairs(
    config: TacticsConfig, games: Sequence[StoredGame], scenario: str | None = None
) -> tuple[dict[str, tuple[list[bool], list[bool]]], list[tuple[str, dict[str, int]]]]:
    """Per tag the paired (baseline, restricted) outcomes of the restricted side, and the
    baseline side-games' tactic counts (sides: the ruleset's two seats)."""
    want = resolve_scenario(scenario) if scenario is not None else None
    first, second = config.ruleset.sides[:2]
    baseline: dict[tuple[str, int], StoredGame] = {}
    for g in games:
        if g.record is not None and g.game.runners == g.game.nscs == config.agent:
            baseline[(g.game.scenario, g.game.index)] = g
    by_spec = {config.restricted(t): t for t in config.tactics}
    pairs: dict[str, tuple[list[bool], list[bool]]] = {t: ([], []) for t in config.tactics}
    for g in sorted(games, key=lambda s: (s.game.scenario, s.game.index, s.game.runners)):
        if g.record is None or (want is not None and g.game.scenario != want):
            continue
        if g.game.runners in by_spec and g.game.nscs == config.agent:
            tag, side = by_spec[g.game.runners], first
        elif g.game.nscs in by_spec and g.game.runners == config.agent:
            tag, side = by_spec[g.game.nscs], second
        else:
            continue
        base = baseline.get((g.game.scenario, g.game.index))
        if base is None or base.record is None:
            continue
        pairs[tag][0].append(_won(base.record.winner, side))
        pairs[tag][1].append(_won(g.record.winner, side))
    side_games = [
        (side, b.record.tactics.get(side, {}))
        for key, b in sorted(baseline.items())
        if b.record is not None and (want is None or key[0] == want)
        for side in (first, second)
    ]
    return pairs, side_games


def analyse(
    config: TacticsConfig, games: Sequence[StoredGame], scenario: str | None = None
) -> list[TacticRow]:
    """The rows of the report (pooled over scenarios, or for one ``scenario``)."""
    pairs, side_games = _pairs(config, games, scenario)
    labels = config.ruleset.tactics
    diffs = {t: compare_paired(*pairs[t]) for t in config.tactics}
    holm = dict(
        zip(
            config.tactics,
            holm_significant([diffs[t].p_value for t in config.tactics]),
            strict=True,
        )
    )
    rows = []
    for tag in config.tactics:
        counts = [used.get(tag, 0) for _, used in side_games]
        d = diffs[tag]
        base_wins = sum(pairs[tag][0])
        wins = sum(pairs[tag][1])
        using = sum(1 for c in counts if c > 0)
        share = using / len(counts) if counts else 0.0
        verdict, reason = _verdict(config, d, holm[tag], sum(counts), share)
        rows.append(
            TacticRow(
                tag,
                labels[tag],
                len(pairs[tag][0]),
                wins,
                base_wins,
                d,
                holm[tag],
                len(counts),
                sum(counts),
                sum(c * c for c in counts),
                using,
                verdict,
                reason,
            )
        )
    return rows


def _verdict(
    config: TacticsConfig, d: Difference, significant: bool, uses: int, share: float
) -> tuple[str, str]:
    t = config.threshold
    if uses == 0:
        return "dead", "never chosen"
    if significant and d.diff <= -t and share > config.majority:
        return "dominant", f"removal costs {-d.diff:.1%}, used in {share:.0%} of games"
    if significant and d.diff >= t:
        return "harmful", f"removal gains {d.diff:.1%}"
    if -t < d.low and d.high < t:
        return "dead", f"no effect: interval inside ±{t:.0%}"
    return "", ""
