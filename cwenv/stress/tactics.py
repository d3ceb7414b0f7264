"""Restricted play (Jaffe et al. 2012): what each tactic is worth to an agent.

For every tactic tag T (:data:`cwenv.engine.tactics.TACTICS`) the agent A plays with T
forbidden (``A!T``, filtered in the one legality function) against the unrestricted A, on
both sides of every scenario. Each such game is paired with the mirror game A against A on
the same dice seed (common random numbers): the difference of the restricted side's win
rate against that baseline, with Newcombe's interval and the exact McNemar test on the
discordant pairs, is the option's worth. How often the unrestricted agent uses T comes from
the tactic counts of the baseline games.

Verdicts (Holm-corrected over all tags at family-wise 5 %):

* *dominant*: removing T lowers the win rate by at least ``threshold`` (point estimate,
  significant after Holm) while the unrestricted agent uses T in most side-games;
* *dead*: the unrestricted agent never chose T, or the whole difference interval lies
  inside ``±threshold`` (removing it does not matter);
* *harmful*: removing T raises the win rate by at least ``threshold`` (significant): the
  agent's use of it costs games.

Games go through the tournament database (:mod:`cwenv.runner.store`): the plan is written
first, a killed run resumes and plays nothing twice.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cwenv.engine.tactics import TACTICS
from cwenv.runner.content import scenario_content
from cwenv.runner.errors import RunnerError
from cwenv.runner.hashing import canonical_json, content_hash
from cwenv.runner.plan import Plan, PlannedGame, TournamentConfig, agent_info, planned_game
from cwenv.runner.play import RESTRICT, load_game, resolve_source, rules_fingerprint
from cwenv.runner.stats import Z95, wilson_interval
from cwenv.runner.store import Conflict, Store, StoredGame
from cwenv.stress.stats import Difference, compare_paired, holm_significant

SIDES = ("RUNNER", "GEGNER")


class TacticsConfigError(ValueError):
    """A restricted-play request that cannot be run; the message names the bad value."""


@dataclass(frozen=True)
class TacticsConfig:
    """``games`` games per tactic, scenario and side; the baseline plays ``games`` per
    scenario (each baseline game serves both sides)."""

    agent: str
    scenarios: tuple[str, ...]
    tactics: tuple[str, ...] = tuple(TACTICS)
    games: int = 100
    seed: int = 0
    rules: str | None = None
    threshold: float = 0.10
    majority: float = 0.5  # "used in most games": more than this share of side-games
    name: str = "tactics"

    def restricted(self, tag: str) -> str:
        return f"{self.agent}{RESTRICT}{tag}"

    def validate(self) -> None:
        if RESTRICT in self.agent:
            raise TacticsConfigError(
                f"--agent must be unrestricted, got {self.agent!r}; the tactics are "
                "forbidden one at a time by --tactic"
            )
        unknown = [t for t in self.tactics if t not in TACTICS]
        if unknown:
            raise TacticsConfigError(f"unknown tactics {unknown}; allowed: {', '.join(TACTICS)}")
        for label, values in (("tactics", self.tactics), ("scenarios", self.scenarios)):
            if not values:
                raise TacticsConfigError(f"no {label} given")
            dupes = sorted({v for v in values if values.count(v) > 1})
            if dupes:
                raise TacticsConfigError(f"{label} listed twice: {', '.join(dupes)}")
        if self.games < 1:
            raise TacticsConfigError(f"--games must be at least 1, got {self.games}")
        if not 0.0 < self.threshold < 1.0:
            raise TacticsConfigError(f"--threshold must lie in (0, 1), got {self.threshold}")
        if not 0.0 <= self.majority <= 1.0:
            raise TacticsConfigError(f"majority must lie in [0, 1], got {self.majority}")

    def to_json(self) -> dict[str, Any]:
        return {
            "agent": self.agent,
            "scenarios": list(self.scenarios),
            "tactics": list(self.tactics),
            "games": self.games,
            "seed": self.seed,
            "rules": self.rules,
            "threshold": self.threshold,
            "majority": self.majority,
            "name": self.name,
        }


def build_tactics_plan(config: TacticsConfig) -> Plan:
    """Every game: per index and scenario one baseline A–A game, then ``A!T`` against A
    and A against ``A!T`` for every tag, all on the same dice seed."""
    config.validate()
    specs = (config.agent, *(config.restricted(t) for t in config.tactics))
    agents = {spec: agent_info(spec) for spec in specs}
    rules_spec = resolve_source(config.rules) if config.rules is not None else None
    sources = {s: resolve_source(s) for s in config.scenarios}
    loaded = {s: load_game(src, rules_spec, fresh=True) for s, src in sources.items()}
    rules = {s: rules_fingerprint(game.options) for s, game in loaded.items()}
    # The scenario as loaded is part of every id: a resume after an edit is refused.
    content = {s: scenario_content(sources[s], game, rules_spec) for s, game in loaded.items()}
    base = config.agent
    games: list[PlannedGame] = []
    for index in range(config.games):
        for scenario, source in sources.items():
            rules_hash = rules[scenario][0]
            matches = [(base, base)]
            for tag in config.tactics:
                restricted = config.restricted(tag)
                matches += [(restricted, base), (base, restricted)]
            for runners, nscs in matches:
                games.append(
                    planned_game(
                        len(games), config.name, config.seed, (runners, nscs), source,
                        runners, nscs, index, rules_spec, rules_hash, agents,
                        content[scenario].hash,
                    )
                )  # fmt: skip
    identity = {
        "kind": "tactics",
        "name": config.name,
        "agent": agents[base].hash,
        "tactics": list(config.tactics),
        "scenarios": [sources[s] for s in config.scenarios],
        "games": config.games,
        "seed": config.seed,
        "rules": [rules[s][0] for s in config.scenarios],
        "content": [content[s].hash for s in config.scenarios],
    }
    tournament = TournamentConfig(
        specs, config.scenarios, config.games, config.seed, config.rules, config.name
    )
    return Plan(
        tournament, content_hash(identity, 16), rules, agents, tuple(games), content=content
    )


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
    baseline side-games' tactic counts."""
    want = resolve_source(scenario) if scenario is not None else None
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
            tag, side = by_spec[g.game.runners], "RUNNER"
        elif g.game.nscs in by_spec and g.game.runners == config.agent:
            tag, side = by_spec[g.game.nscs], "GEGNER"
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
        for side in SIDES
    ]
    return pairs, side_games


def analyse(
    config: TacticsConfig, games: Sequence[StoredGame], scenario: str | None = None
) -> list[TacticRow]:
    """The rows of the report (pooled over scenarios, or for one ``scenario``)."""
    pairs, side_games = _pairs(config, games, scenario)
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
                TACTICS[tag],
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


@dataclass
class TacticsRun:
    """What a run did and where it stands."""

    config: TacticsConfig
    plan: Plan
    db: Path
    games: list[StoredGame]
    played_now: int
    conflicts: list[Conflict]

    @property
    def games_done(self) -> int:
        return sum(1 for g in self.games if g.record is not None)

    @property
    def complete(self) -> bool:
        return self.games_done == len(self.plan.games)

    def rows(self, scenario: str | None = None) -> list[TacticRow]:
        return analyse(self.config, self.games, scenario)

    def resolved_config(self) -> dict[str, Any]:
        return {**self.config.to_json(), "db": str(self.db), "plan": self.plan.config_json()}

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "tournament_id": self.plan.tournament_id,
            "db": str(self.db),
            "games_planned": len(self.plan.games),
            "games_done": self.games_done,
            "played_now": self.played_now,
            "tactics": [r.to_json() for r in self.rows()],
        }
        if len(self.config.scenarios) > 1:
            out["by_scenario"] = {
                s: [r.to_json() for r in self.rows(s)] for s in self.config.scenarios
            }
        return out


def run_tactics(
    config: TacticsConfig,
    db: str | Path,
    *,
    jobs: int = 1,
    batch: int = 64,
    on_start: Callable[[int, int], None] | None = None,
    on_game: Callable[[], None] | None = None,
) -> TacticsRun:
    """Plan, play what the database does not hold yet, and read every result back."""
    from cwenv.runner.tournament import _play as play_and_store, config_path

    plan = build_tactics_plan(config)
    path = Path(db)
    with Store(path) as store:
        store.write_plan(plan)
        sidecar = {**config.to_json(), "plan": plan.config_json()}
        from cwenv.runner.atomic import atomic_write_text

        atomic_write_text(config_path(path), canonical_json(sidecar) + "\n")
        tasks = [g.task() for g in store.missing(plan.tournament_id)]
        if on_start is not None:
            on_start(len(plan.games), len(plan.games) - len(tasks))
        conflicts = play_and_store(store, tasks, jobs, "local", None, batch, 1.0, on_game)
        games = store.games(plan.tournament_id)
    if any(g.record is None for g in games):  # pragma: no cover - _play raises first
        raise RunnerError("some games of the plan have no result")
    return TacticsRun(config, plan, path, games, len(tasks), conflicts)
