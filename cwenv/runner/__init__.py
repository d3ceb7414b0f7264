"""Headless play at scale: seeded simulations, resumable tournaments, reports and replays.

The library behind ``cwenv simulate``, ``cwenv tournament``, ``cwenv report`` and
``cwenv replay`` (issue #5). Every game is a pure function of its :class:`GameTask`
(scenario, rules, agents, seed), so results do not depend on the number of worker
processes, the backend or the order in which games finish::

    from cwenv.runner import SimulationConfig, simulate
    stats = simulate(SimulationConfig("duell", "greedy", "random", games=100, seed=1))
    stats.to_json()["sides"]["RUNNER"]["win_rate"]

Tournaments write their plan and results to SQLite (:mod:`cwenv.runner.store`); killing
one at any moment and running it again finishes the plan with every game exactly once.
"""

from cwenv.runner.errors import RunnerError
from cwenv.runner.seeds import game_seed, side_rngs
from cwenv.runner.simulate import SimulationConfig, simulate
from cwenv.runner.task import GameRecord, GameTask, play_task
from cwenv.runner.win_rates import SimulationStats, wilson_interval

__all__ = [
    "GameRecord",
    "GameTask",
    "RunnerError",
    "SimulationConfig",
    "SimulationStats",
    "game_seed",
    "play_task",
    "side_rngs",
    "simulate",
    "wilson_interval",
]
