"""``cwenv simulate``: N seeded games of one scenario (of any ruleset), one agent per side."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from cwenv.runner.backends import run_tasks
from cwenv.runner.errors import RunnerError
from cwenv.runner.seeds import game_seed
from cwenv.runner.task import (
    GameTask,
    check_fit,
    load,
    resolve_agent,
    resolve_scenario,
    resolve_source,
)
from cwenv.runner.win_rates import SimulationStats


@dataclass(frozen=True)
class SimulationConfig:
    """Game ``i`` uses the dice seed ``game_seed(seed, i)``."""

    scenario: str
    runners: str
    nscs: str
    games: int = 100
    seed: int = 0
    rules: str | None = None
    jobs: int = 1

    def tasks(self) -> list[GameTask]:
        scenario = resolve_scenario(self.scenario)
        rules = resolve_source(self.rules) if self.rules is not None else None
        runners, nscs = resolve_agent(self.runners), resolve_agent(self.nscs)
        return [
            GameTask(str(i), scenario, runners, nscs, game_seed(self.seed, i), rules)
            for i in range(self.games)
        ]


def prepare(config: SimulationConfig) -> SimulationStats:
    """Check scenario, rules and agents (a :class:`RunnerError` names what is wrong) and
    return empty statistics for the sides the scenario has."""
    if config.games < 0:
        raise RunnerError(f"--games must be >= 0, got {config.games}")
    rules = resolve_source(config.rules) if config.rules is not None else None
    loaded = load(resolve_scenario(config.scenario), rules)
    check_fit(config.runners, config.nscs, loaded.game, config.scenario, loaded.ruleset)
    present = loaded.ruleset.game_sides(loaded.game)
    first = loaded.ruleset.sides[0]  # played by --runners, every other side by --nscs
    agents = {side: config.runners if side == first else config.nscs for side in present}
    return SimulationStats(present, agents)


def simulate(
    config: SimulationConfig, on_game: Callable[[], None] | None = None
) -> SimulationStats:
    """Play every game of ``config`` and add up their records."""
    stats = prepare(config)
    records = []
    for result in run_tasks(config.tasks(), jobs=config.jobs):
        records.append(result.record)
        if on_game is not None:
            on_game()
    return stats.add_all(records)
