"""``cwenv simulate``: N seeded games of one scenario, one agent per side."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from cwenv.model.types import Side
from cwenv.runner.backends import run_tasks
from cwenv.runner.errors import RunnerError
from cwenv.runner.play import GameTask, check_fit, load_game, resolve_agent, resolve_source
from cwenv.runner.seeds import game_seed
from cwenv.runner.stats import SimulationStats


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
        scenario = resolve_source(self.scenario)
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
    game = load_game(resolve_source(config.scenario), rules)
    check_fit(config.runners, config.nscs, game, config.scenario)  # before any game
    present = sorted({spec.side for spec in game.roster})
    agents = {side.name: config.runners if side is Side.RUNNER else config.nscs for side in present}
    return SimulationStats(tuple(side.name for side in present), agents)


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
