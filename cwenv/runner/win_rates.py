"""Win rates with Wilson intervals and the per-run statistics of ``cwenv simulate``."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from cwenv.runner.task import GameRecord

Z95 = 1.959963984540054  # two-sided 95 % normal quantile


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion (``(0, 1)`` for no trials)."""
    if trials < 0 or not 0 <= successes <= trials:
        raise ValueError(f"need 0 <= successes <= trials, got {successes} of {trials}")
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = z * z
    denom = 1.0 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denom
    low = 0.0 if successes == 0 else max(0.0, centre - half)  # exact bounds at the edges,
    high = 1.0 if successes == trials else min(1.0, centre + half)  # not 1 − 1e-16
    return (low, high)


def _prefixed(counters: dict[str, int], prefix: str) -> dict[str, int]:
    return {k[len(prefix) :]: v for k, v in counters.items() if k.startswith(prefix)}


@dataclass
class SimulationStats:
    """Totals over many games of one scenario with one agent per side."""

    sides: tuple[str, ...]  # Side names present in the scenario
    agents: dict[str, str]  # Side name → agent spec
    games: int = 0
    wins: dict[str, int] = field(default_factory=dict)
    draws: int = 0
    rounds: int = 0
    damage: int = 0
    lp_lost: dict[str, int] = field(default_factory=dict)
    down: dict[str, int] = field(default_factory=dict)
    dead: dict[str, int] = field(default_factory=dict)
    mumm: dict[str, int] = field(default_factory=dict)
    actions: dict[str, int] = field(default_factory=dict)
    counters: dict[str, int] = field(default_factory=dict)

    def add(self, record: GameRecord) -> None:
        """Count one game (addition only, so the order of games does not matter)."""
        self.games += 1
        if record.winner is None:
            self.draws += 1
        else:
            self.wins[record.winner] = self.wins.get(record.winner, 0) + 1
        self.rounds += record.rounds
        self.damage += record.counters.get("damage_dealt", 0)
        for key, value in record.counters.items():
            self.counters[key] = self.counters.get(key, 0) + value
        for side, value in record.lp_lost.items():
            self.lp_lost[side] = self.lp_lost.get(side, 0) + value

    def add_all(self, records: Iterable[GameRecord]) -> SimulationStats:
        for record in records:
            self.add(record)
        self.down = _prefixed(self.counters, "down:")
        self.dead = _prefixed(self.counters, "dead:")
        self.mumm = dict(sorted(_prefixed(self.counters, "mumm:").items()))
        self.actions = dict(sorted(_prefixed(self.counters, "action:").items()))
        return self

    def mean(self, total: int) -> float:
        return total / self.games if self.games else 0.0

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` object: ``games``, ``sides``, ``draws``, ``mean_rounds``,
        ``actions`` and more."""
        sides: dict[str, Any] = {}
        for side in self.sides:
            wins = self.wins.get(side, 0)
            low, high = wilson_interval(wins, self.games)
            sides[side] = {
                "agent": self.agents.get(side, ""),
                "wins": wins,
                "win_rate": wins / self.games if self.games else 0.0,
                "ci95": [low, high],
                "down": self.down.get(side, 0),
                "dead": self.dead.get(side, 0),
                "mean_lp_lost": self.mean(self.lp_lost.get(side, 0)),
            }
        low, high = wilson_interval(self.draws, self.games)
        job = job_fights(self.counters)
        return {
            **({"fights": job} if job else {}),
            "games": self.games,
            "sides": sides,
            "draws": self.draws,
            "draw_rate": self.draws / self.games if self.games else 0.0,
            "draw_ci95": [low, high],
            "mean_rounds": self.mean(self.rounds),
            "mean_damage": self.mean(self.damage),
            "mumm": self.mumm,
            "actions": self.actions,
        }


def job_fights(counters: dict[str, int]) -> dict[str, dict[str, Any]]:
    """Per fight ``k`` of a job (the ``job:`` counters, :mod:`cwenv.runner.job_record`):
    how many games reached it, the Runners won it, it ended the job, and the Runners' mean
    LP and Mumm (all Runners added up) at its start; empty for a scenario."""
    job = _prefixed(counters, "job:")
    fights = sorted({int(k.rsplit(":", 1)[1]) for k in job if k.startswith("reached:")})
    out: dict[str, dict[str, Any]] = {}
    for k in fights:
        reached = job[f"reached:{k}"]
        out[str(k)] = {
            "reached": reached,
            "runner_wins": job.get(f"won:{k}", 0),
            "ended_job": job.get(f"ended:{k}", 0),
            "mean_lp_start": job.get(f"lp_start:{k}", 0) / reached,
            "mean_mumm_start": job.get(f"mumm_start:{k}", 0) / reached,
        }
    return out
