"""The measured sections. Each takes the :class:`~benchmarks.core.Settings` and yields
:class:`~benchmarks.core.Figure` records."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import gymnasium as gym

from benchmarks.core import Figure, Settings, rate
from benchmarks.memory import section as memory
from benchmarks.native import section as native
from benchmarks.ppo import ppo_figures

if TYPE_CHECKING:
    from agents.mcts import MCTSConfig
    from cwenv.engine.game import Game
    from cwenv.engine.state import Combat

SCENARIOS = ("duell", "feuergefecht", "strassenschlacht")
RULES = {"steps": None, "passes": "passes"}  # initiative systems: default and passes.yaml
DOCTRINE = "taktiker"  # the doctrine measured against itself
AGENTS = (DOCTRINE, "greedy")
DOCTRINES = (DOCTRINE, "stuermer", "schuetze")  # each against itself on feuergefecht
TWINS = {
    "greedy": "; its native twin plays in the core where built",
    **dict.fromkeys(DOCTRINES, "; its native twin makes its choices where built"),
}


def _scenarios(s: Settings) -> tuple[str, ...]:
    return SCENARIOS[:1] if s.quick else SCENARIOS


def _game(scenario: str, rules: str | None = None) -> Game:
    from cwenv.runner.task import load_game

    return load_game(scenario, rules)


class _PythonOnly:
    """An agent without its native twin: every decision in Python (the ``-python`` figures,
    the ratio of the twins' gain in one run)."""

    def __init__(self, inner: Any) -> None:
        self.act = inner.act


def _combat_runner(game: Game, agent: str, python_only: bool = False) -> Callable[[], int]:
    """Whole combats of ``agent`` against itself as ``play_out`` plays them (a native twin
    plays in the core, cwenv/agent.py); ``python_only``: every decision in Python."""
    from cwenv.agent import play_out
    from cwenv.agent_registry import make_agent

    agents = {side: make_agent(agent) for side in range(3)}
    if python_only:
        agents = {side: _PythonOnly(a) for side, a in agents.items()}
    seed = [0]

    def one() -> int:
        seed[0] += 1
        c = game.new_combat(seed[0])
        play_out(c, agents, {s: random.Random(seed[0] * 3 + s) for s in agents})
        return 1

    return one


def mid_fight(game: Game, seed: int = 5, decisions: int = 60) -> Combat:
    """A state some way into the fight (random play), at the next TURN decision with a
    choice, for the per-state figures."""
    from cwenv.engine.actions import DecisionKind

    c = game.new_combat(seed)
    rng = random.Random(seed)
    done = 0
    while not c.is_terminal():
        d = c.decision
        turn = d is not None and d.kind is DecisionKind.TURN and len(c.legal_actions()) > 1
        if done >= decisions and turn:
            break
        c.apply(rng.choice(c.legal_actions()))
        done += 1
    return c


def reference(s: Settings) -> Iterator[Figure]:
    """Gymnasium CartPole-v1 and MiniGrid DoorKey-8x8 steps/s with random actions."""
    for env_id in ("CartPole-v1", "MiniGrid-DoorKey-8x8-v0"):
        if env_id.startswith("MiniGrid"):
            import minigrid  # noqa: F401  (registers the MiniGrid envs)
        env = gym.make(env_id)
        env.reset(seed=0)
        env.action_space.seed(0)

        def steps(env: gym.Env[Any, Any] = env) -> int:
            for _ in range(200):
                _, _, term, trunc, _ = env.step(env.action_space.sample())
                if term or trunc:
                    env.reset()
            return 200

        yield Figure(f"ref:{env_id}", "steps/s", rate(steps, s.seconds, s.repeats))


def engine(s: Settings) -> Iterator[Figure]:
    """Full combats per second: the doctrine against itself and greedy against itself, on
    each scenario under both initiative systems; the other two doctrines against
    themselves on the 4v4 firefight (issue #16's doctrine target)."""
    for name in _scenarios(s):
        for system, rules in RULES.items():
            game = _game(name, rules)
            agents = AGENTS[:1] if s.quick else AGENTS
            if name == "feuergefecht" and system == "steps":
                agents = (*agents, *DOCTRINES[1:])
            for agent in agents:
                yield Figure(
                    f"combats:{name}:{system}:{agent}",
                    "combats/s",
                    rate(_combat_runner(game, agent), s.seconds, s.repeats),
                    note=f"({agent} vs {agent}{TWINS.get(agent, '')})",
                )
            # the Python agent at every decision, for the ratio (the doctrines' on the 4v4)
            python = [a for a in ("greedy", *DOCTRINES) if a in agents]
            if name != "feuergefecht" or system != "steps":
                python = [a for a in python if a == "greedy"]
            for agent in python:
                yield Figure(
                    f"combats:{name}:{system}:{agent}-python",
                    "combats/s",
                    rate(_combat_runner(game, agent, True), s.seconds, s.repeats),
                    note=f"({agent} vs {agent}, every decision by the Python agent)",
                )


def env_steps(s: Settings) -> Iterator[Figure]:
    """Kampfrunde-v0 steps/s with random masked actions, observation and mask included.

    The opponent is ``random`` so the figure is the env and the engine; one more figure on
    feuergefecht has the env's default opponent (the doctrine), which a training run pays.
    Then encoding 2's env (:mod:`benchmarks.env2`), with its encoder's speed-up.
    """
    import numpy as np

    from cwenv.envs.kampfrunde import KampfrundeEnv

    cases = [(name, "random") for name in _scenarios(s)]
    if not s.quick:
        cases.append(("feuergefecht", DOCTRINE))
    for name, opponent in cases:
        env = KampfrundeEnv(scenario=name, opponent=opponent)
        rng = np.random.default_rng(0)
        env.reset(seed=0)

        def steps(env: KampfrundeEnv = env, rng: np.random.Generator = rng) -> int:
            for _ in range(20):
                action = rng.choice(np.flatnonzero(env.action_masks()))
                _, _, term, trunc, _ = env.step(action)
                if term or trunc:
                    env.reset()
            return 20

        yield Figure(
            f"env:{name}:{opponent}",
            "steps/s",
            rate(steps, s.seconds, s.repeats),
            note=f"(opponent {opponent})",
        )
    from benchmarks.env2 import env2_steps  # encoding 2's env, fast and plain encoder

    yield from env2_steps(s)


def state_ops(s: Settings) -> Iterator[Figure]:
    """clone() and a full legal-action enumeration on a mid-fight 4v4 state."""
    c = mid_fight(_game("feuergefecht"))

    def clones() -> int:
        for _ in range(100):
            c.clone()
        return 100

    def legals() -> int:
        for _ in range(20):
            c.refresh_legal()
            c.legal_actions()
        return 20

    clone_rate = rate(clones, s.seconds, s.repeats)
    yield Figure(
        "clone",
        "clones/s",
        clone_rate,
        note=f"({len(c.events)} events in the log; {1e6 / max(clone_rate):.1f} µs each)",
    )
    yield Figure(
        "legal_actions",
        "enumerations/s",
        rate(legals, s.seconds, s.repeats),
        note=f"({len(c.legal_actions())} legal actions)",
    )


def mcts(s: Settings) -> Iterator[Figure]:
    """MCTS iterations per second from a mid-fight TURN decision where the search runs (one
    with a Handlung left): the default configuration (Taktiker rollouts, played by its
    twin in C++, agents/native/taktiker.cpp) and the same in Python, then greedy rollouts
    played in C++ (agents/native/rollouts.cpp) and the same in Python, so each pair's
    ratio is the native rollouts' gain in one run."""
    from agents.mcts import MCTSConfig

    per_act = 2 if s.quick else 16
    default = MCTSConfig(iterations=per_act)
    yield _mcts_figure(s, "mcts", default)
    yield _mcts_figure(s, "mcts_python", default.model_copy(update={"native_rollouts": False}))
    greedy = MCTSConfig(iterations=per_act, rollout="greedy")
    yield _mcts_figure(s, "mcts_greedy_native", greedy)
    off = greedy.model_copy(update={"native_rollouts": False})
    yield _mcts_figure(s, "mcts_greedy_python", off)


def _mcts_figure(s: Settings, name: str, config: MCTSConfig) -> Figure:
    from agents.mcts import MCTSAgent
    from cwenv.agent import DecisionView

    game = _game("duell" if s.quick else "feuergefecht")
    c = mid_fight(game, decisions=4 if s.quick else 60)
    agent = MCTSAgent(config)
    view = DecisionView(c)
    rng = random.Random(1)
    while not c.is_terminal():  # find a decision the agent searches (not its prior alone)
        agent.last_iterations = 0
        legal = c.legal_actions()
        agent.act(view, legal, random.Random(0))
        if agent.last_iterations:
            break
        c.apply(rng.choice(legal))
    legal = c.legal_actions()
    seed = [0]

    def iterations() -> int:
        seed[0] += 1
        agent.last_iterations = 0
        agent.act(view, legal, random.Random(seed[0]))
        return max(agent.last_iterations, 1)

    return Figure(
        name,
        "iterations/s",
        rate(iterations, s.seconds, s.repeats),
        note=f"({config.iterations} iterations per search, rollouts by {config.rollout}; "
        f"{len(legal)} legal actions)",
    )


def training(s: Settings) -> Iterator[Figure]:
    """MaskablePPO frames/s: 8 envs in one process (DummyVecEnv), batch 256, one torch
    thread, n_steps 64; the share of rollout time spent stepping the envs; and the same
    training over replayed observations (the policy and the update alone)."""
    from cwenv.envs.kampfrunde import KampfrundeEnv

    def make(scenario: str, opponent: str) -> gym.Env[Any, Any]:
        return KampfrundeEnv(scenario=scenario, opponent=opponent)

    yield from ppo_figures(s, "ppo", "", "the policy", make, None)


def scaling(s: Settings) -> Iterator[Figure]:
    """Cost per combat and per turn as fighters grow 2 → 24 and the map 16² → 64² (PNG)."""
    from benchmarks.scaling import run_scaling

    yield from run_scaling(s, DOCTRINE)


def training2(s: Settings) -> Iterator[Figure]:
    """The candidate scorer's training frames/s (encoding 2, :mod:`benchmarks.scorer_training`)."""
    from benchmarks.scorer_training import training2 as measure

    yield from measure(s)


SECTIONS: dict[str, Callable[[Settings], Iterator[Figure]]] = {
    "reference": reference,
    "engine": engine,
    "env": env_steps,
    "state": state_ops,
    "mcts": mcts,
    "training": training,
    "training2": training2,
    "scaling": scaling,
    "native": native,
    "memory": memory,
}
