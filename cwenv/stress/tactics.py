"""Restricted play (Jaffe et al. 2012): what each tactic is worth to an agent.

For every tactic tag T of the scenarios' ruleset (:attr:`cwenv.ruleset.Ruleset.tactics`;
Corporate Wars': :data:`cwenv.engine.tactics.TACTICS`) the agent A plays with T forbidden
(``A!T``, filtered in the one legality function) against the unrestricted A, on both sides
(seats) of every scenario. Each such game is paired with the mirror game A against A on
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

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cwenv.ruleset import Ruleset
from cwenv.runner.content import scenario_content
from cwenv.runner.errors import RunnerError
from cwenv.runner.hashing import canonical_json, content_hash
from cwenv.runner.plan import Plan, PlannedGame, TournamentConfig, agent_info, planned_game
from cwenv.runner.store import Conflict, Store, StoredGame
from cwenv.runner.task import (
    RESTRICT,
    check_fit,
    game_rules,
    load,
    one_ruleset,
    resolve_scenario,
    resolve_source,
)
from cwenv.stress.tactics_rows import TacticRow, analyse

__all__ = [
    "TacticRow",
    "TacticsConfig",
    "TacticsConfigError",
    "TacticsRun",
    "build_tactics_plan",
    "run_tactics",
]


class TacticsConfigError(ValueError):
    """A restricted-play request that cannot be run; the message names the bad value."""


@dataclass(frozen=True)
class TacticsConfig:
    """``games`` games per tactic, scenario and side; the baseline plays ``games`` per
    scenario (each baseline game serves both sides). No ``tactics``: every tag of the
    scenarios' ruleset (:meth:`resolved`)."""

    agent: str
    scenarios: tuple[str, ...]
    tactics: tuple[str, ...] = ()
    games: int = 100
    seed: int = 0
    rules: str | None = None
    threshold: float = 0.10
    majority: float = 0.5  # "used in most games": more than this share of side-games
    name: str = "tactics"

    def restricted(self, tag: str) -> str:
        return f"{self.agent}{RESTRICT}{tag}"

    @property
    def ruleset(self) -> Ruleset:
        """The one ruleset of the scenarios (a :class:`RunnerError` for two)."""
        return one_ruleset(self.scenarios)

    def resolved(self) -> TacticsConfig:
        """This config with its tactics filled in: every tag of the ruleset if none given."""
        if self.tactics:
            return self
        return dataclasses.replace(self, tactics=tuple(self.ruleset.tactics))

    def validate(self) -> None:
        if RESTRICT in self.agent:
            raise TacticsConfigError(
                f"--agent must be unrestricted, got {self.agent!r}; the tactics are "
                "forbidden one at a time by --tactic"
            )
        ruleset = self.ruleset
        known = ruleset.tactics
        unknown = [t for t in self.tactics if t not in known]
        if unknown:
            raise TacticsConfigError(
                f"unknown tactics {unknown} of {ruleset.title}; allowed: {', '.join(known)}"
            )
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
    config = config.resolved()
    config.validate()
    ruleset = config.ruleset
    specs = (config.agent, *(config.restricted(t) for t in config.tactics))
    agents = {spec: agent_info(spec, ruleset=ruleset) for spec in specs}
    rules_spec = resolve_source(config.rules) if config.rules is not None else None
    sources = {s: resolve_scenario(s) for s in config.scenarios}
    loaded = {s: load(src, rules_spec, fresh=True) for s, src in sources.items()}
    rules = {s: game_rules(game) for s, game in loaded.items()}
    # The scenario as loaded is part of every id: a resume after an edit is refused.
    content = {s: scenario_content(sources[s], game.game, rules_spec) for s, game in loaded.items()}
    for scenario, game in loaded.items():  # an agent that cannot play it: say so now
        check_fit(config.agent, config.agent, game.game, scenario, ruleset)
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

    config = config.resolved()
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
