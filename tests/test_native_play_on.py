"""Whole games with native twins (issue #16; cwenv/agent.py ``play_out``, ``NativeTwin``):
where an agent has a twin in C++ (the greedy, agents/native/rollouts.cpp) a native combat
lets the core play its decisions, and hands back to the Python agent every choice it would
draw at random and every decision of a side without a twin. The game is the agents' own,
event for event and choice for choice, against the same game played in Python — greedy
against greedy, and greedy against the Taktiker (the core and Python taking turns)."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

pytest.importorskip("agents._rollouts", reason="the native rollout policies are not built")

import cwenv.agent as agent_module
from agents.greedy import GreedyAgent
from agents.taktiker import Taktiker
from cwenv.agent import Agent, DecisionView, native_play, play_out
from cwenv.engine.actions import Action
from cwenv.engine.native.combat import NativeCombat
from cwenv.native import cases
from cwenv.native.differential import engine_as
from cwenv.runner.seeds import side_rngs
from cwenv.runner.task import play_combat


class Plain:
    """The agent without its twin: every decision in Python."""

    def __init__(self, inner: Agent) -> None:
        self.inner = inner

    def act(self, view: DecisionView, legal: Sequence[Action], rng: random.Random) -> Action:
        return self.inner.act(view, legal, rng)


def _log(c: Any) -> list[str]:
    return [repr(e) for e in c.events] + [repr(a) for a in c.history]


@pytest.fixture
def deferred(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Counts the play-ons that stopped before a choice left to Python: [stops, decisions]."""
    seen = [0, 0]
    original = NativeCombat.play_on

    def counted(self: NativeCombat, policies: dict[int, Any]) -> int:
        played = original(self, policies)
        seen[0] += self.outcome is None
        seen[1] += played
        return played

    monkeypatch.setattr(NativeCombat, "play_on", counted)
    yield seen


def _play(index: int, make: Any, pool: str = "shipped") -> Any:
    case = cases.case_of(index, pool)
    c = case.game("native").new_combat(case.seed)
    assert isinstance(c, NativeCombat)
    play_out(c, make(), side_rngs(case.seed))
    return c


GAMES = [*(("shipped", i) for i in range(33)), *(("drawn", i) for i in range(45, 60))]
"""Every shipped scenario under three rule variants, and drawn readings of every rule
option (games 49, 51, 55 and 58 of that pool reach the greedy's random last resort)."""


def test_greedy_games_in_the_core_are_the_python_games(deferred: list[int]) -> None:
    with engine_as("native"):
        for pool, index in GAMES:
            twins = _play(index, lambda: {s: GreedyAgent() for s in range(3)}, pool)
            python = _play(index, lambda: {s: Plain(GreedyAgent()) for s in range(3)}, pool)
            assert twins.outcome == python.outcome, (pool, index)
            assert _log(twins) == _log(python), (pool, index)
    stops, played = deferred
    assert played > 5_000, played  # the core played the games, not Python
    # every side has a twin: each stop was a random last resort, drawn in Python
    assert stops >= 4, stops


def test_the_core_and_python_take_turns_greedy_against_the_taktiker(deferred: list[int]) -> None:
    with engine_as("native"):
        for index in range(6):
            twins = _play(index, lambda: {0: GreedyAgent(), 1: Taktiker(), 2: GreedyAgent()})
            python = _play(
                index, lambda: {0: Plain(GreedyAgent()), 1: Taktiker(), 2: Plain(GreedyAgent())}
            )
            assert _log(twins) == _log(python), index
    stops, played = deferred
    assert stops > 50 and played > 300, deferred  # handed to the Taktiker again and again


def test_the_runner_plays_the_same_games_with_the_twins(monkeypatch: pytest.MonkeyPatch) -> None:
    with engine_as("native"):
        case = cases.case_of(4, "shipped")
        game = case.game("native")
        fast = [_log(play_combat(game, "greedy", "greedy", seed)) for seed in range(3)]
        monkeypatch.setattr(agent_module, "native_play", lambda state, agents: None)
        slow = [_log(play_combat(game, "greedy", "greedy", seed)) for seed in range(3)]
    assert fast == slow


def test_no_twins_on_the_reference_combat() -> None:
    with engine_as("python"):
        case = cases.case_of(0, "shipped")
        c = case.game("python").new_combat(case.seed)
        assert native_play(c, {0: GreedyAgent()}) is None


def _episode(scenario: str, seed: int) -> tuple[list[bytes], list[float], int]:
    """Random masked steps of the encoding-2 env against the greedy: every observation's
    bytes and reward, and the decisions the core played for the opponent."""
    import numpy as np

    from cwenv.envs.env2 import KampfrundeEnv2

    env = KampfrundeEnv2(scenario=scenario, opponent="greedy")
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    seen, rewards, played = [], [], 0
    original = NativeCombat.play_on

    def counted(self: NativeCombat, policies: dict[int, Any]) -> int:
        nonlocal played
        n = original(self, policies)
        played += n
        return n

    NativeCombat.play_on = counted  # type: ignore[method-assign]
    try:
        for _ in range(150):
            seen.append(b"".join(np.asarray(v).tobytes() for v in obs.values()))
            obs, reward, term, trunc, _ = env.step(rng.choice(np.flatnonzero(env.action_masks())))
            rewards.append(float(reward))
            if term or trunc:
                obs, _ = env.reset()
    finally:
        NativeCombat.play_on = original  # type: ignore[method-assign]
    return seen, rewards, played


def test_the_envs_greedy_opponent_plays_in_the_core(monkeypatch: pytest.MonkeyPatch) -> None:
    """The env lets the opponent's twin play its decisions: the same observations and
    rewards, step for step, as the opponent deciding in Python."""
    with engine_as("native"):
        for scenario in ("duell", "feuergefecht"):
            fast, fast_rewards, played = _episode(scenario, 5)
            assert played > 100, played
            with monkeypatch.context() as m:
                m.setattr("cwenv.envs.kampfrunde.native_play", lambda state, agents: None)
                slow, slow_rewards, none = _episode(scenario, 5)
            assert none == 0
            assert fast == slow and fast_rewards == slow_rewards, scenario
