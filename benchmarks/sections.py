"""The measured sections. Each yields :class:`~benchmarks.__main__.Figure` records."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

from benchmarks.core import Figure, rate
from cwenv.engine.game import Game
from cwenv.rules.options import InitiativeSystem

SCENARIOS = ("duell", "feuergefecht", "strassenschlacht")
AGENT = "greedy"  # the best available scripted agent; doctrines replace it when present


def _agent_name() -> str:
    from agents.registry import AGENTS

    for name in ("taktiker", "schuetze", "stuermer"):
        if name in AGENTS:
            return name
    return AGENT


def _combat_runner(game: Game, agent: str) -> Callable[[], int]:
    from agents.base import play_out
    from agents.registry import make_agent

    agents = {0: make_agent(agent), 1: make_agent(agent), 2: make_agent(agent)}
    seed = [0]

    def one() -> int:
        seed[0] += 1
        c = game.new_combat(seed[0])
        play_out(c, agents, {s: random.Random(seed[0] * 3 + s) for s in agents})
        return 1

    return one


def reference(seconds: float, repeats: int, out: Path) -> Iterator[Figure]:
    """Gymnasium CartPole-v1 and MiniGrid DoorKey-8x8 steps/s with random actions."""
    import gymnasium as gym

    for env_id in ("CartPole-v1", "MiniGrid-DoorKey-8x8-v0"):
        if env_id.startswith("MiniGrid"):
            import minigrid  # noqa: F401  (registers the MiniGrid envs)
        env = gym.make(env_id)
        env.reset(seed=0)
        env.action_space.seed(0)

        def steps(env: gym.Env = env) -> int:
            for _ in range(200):
                _, _, term, trunc, _ = env.step(env.action_space.sample())
                if term or trunc:
                    env.reset()
            return 200

        yield Figure(f"ref:{env_id}", "steps/s", rate(steps, seconds, repeats))


def engine(seconds: float, repeats: int, out: Path) -> Iterator[Figure]:
    """Full combats per second, scripted agent against itself, both initiative systems."""
    from cwenv.content import load_scenario

    agent = _agent_name()
    for name in SCENARIOS:
        base = load_scenario(name)
        for system in InitiativeSystem:
            game = replace(base, options=replace(base.options, initiative=system))
            yield Figure(
                f"combats:{name}:{system.value}",
                "combats/s",
                rate(_combat_runner(game, agent), seconds, repeats),
                note=f"({agent} vs {agent})",
            )


def state_ops(seconds: float, repeats: int, out: Path) -> Iterator[Figure]:
    """clone() and a full legal-action enumeration on a mid-fight 4v4 state."""
    from cwenv.content import load_scenario

    game = load_scenario("feuergefecht")
    c = game.new_combat(5)
    rng = random.Random(5)
    for _ in range(60):
        c.apply(rng.choice(c.legal_actions()))

    def clones() -> int:
        for _ in range(100):
            c.clone()
        return 100

    def legals() -> int:
        for _ in range(20):
            c.refresh_legal()
            c.legal_actions()
        return 20

    yield Figure(
        "clone",
        "clones/s",
        rate(clones, seconds, repeats),
        note=f"({len(c.events)} events in the log)",
    )
    yield Figure(
        "legal_actions",
        "enumerations/s",
        rate(legals, seconds, repeats),
        note=f"({len(c.legal_actions())} legal actions)",
    )


def scaling(seconds: float, repeats: int, out: Path) -> Iterator[Figure]:
    """Cost per decision as fighters grow 2 → 24 and the map 16² → 64² (PNG plot)."""
    from benchmarks.scaling import run_scaling

    yield from run_scaling(seconds, repeats, out, _agent_name())


SECTIONS: dict[str, Callable[[float, int, Path], Iterator[Figure]]] = {
    "reference": reference,
    "engine": engine,
    "state": state_ops,
    "scaling": scaling,
}
