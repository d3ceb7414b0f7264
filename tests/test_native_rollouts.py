"""Rollout policies in C++ (issue #16, agents/native/rollouts.cpp): the native greedy chooses
what agents/greedy.py's GreedyAgent chooses at every decision of seeded fights, a rollout
played in the core ends where the same rollout played in Python ends, and search takes it
where it may (agents/search.py)."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("agents._rollouts", reason="the native rollout policies are not built")

from agents.greedy import GreedyAgent
from agents.mcts import MCTSConfig
from agents.native_rollouts import native_policy
from agents.search import Horizon, rollout
from cwenv.agent import DecisionView
from cwenv.engine.native.combat import NativeCombat, playable
from cwenv.native import cases
from cwenv.native.differential import engine_as

GAMES = 30


def _fights() -> list[NativeCombat]:
    out = []
    for index in range(GAMES):  # every shipped scenario, every rule variant in turn
        case = cases.case_of(index, "shipped")
        out.append(NativeCombat(case.game("native"), case.seed))
    return out


def test_the_native_greedy_chooses_as_the_python_greedy() -> None:
    agent, compared, prompts = GreedyAgent(), 0, 0
    with engine_as("native"):
        policy = native_policy(agent)
        assert policy is not None
        for c in _fights():
            view, rng = DecisionView(c), random.Random(1)
            while c.outcome is not None or len(c.history) < 400:
                if c.outcome is not None:
                    break
                legal = c.legal_actions()
                d = c.decision
                assert d is not None
                state = rng.getstate()
                want = agent.act(view, legal, rng)
                if len(legal) > 1 and rng.getstate() == state:  # no random last resort
                    assert legal[c._core.choose(policy)] == want, (d.kind, legal, want)
                    compared += 1
                    prompts += d.kind.name != "TURN"
                # the game goes on at random, so the greedy is asked in every kind of state
                c.apply(random.Random(len(c.history)).choice(playable(d.kind, legal)))
    assert compared > 5_000 and prompts > 500, (compared, prompts)


def test_a_native_rollout_ends_where_the_python_rollout_ends() -> None:
    cfg = MCTSConfig(rollout="greedy", horizon_rounds=2, max_rollout_steps=2_000)
    played = 0
    with engine_as("native"):
        for c in _fights():
            for _ in range(40):  # somewhere into the fight
                if c.outcome is not None:
                    break
                c.apply(c.legal_actions()[0])
            if c.outcome is not None:
                continue
            policies = {side: GreedyAgent() for side in (0, 1, 2)}
            native, python = c.clone(), c.clone()
            steps = rollout(native, policies, random.Random(2), Horizon(native, cfg))
            off = cfg.model_copy(update={"native_rollouts": False})
            # the core hands the greedy's random last resort back to the agent and this rng:
            # the same rollout, draws included
            assert rollout(python, policies, random.Random(2), Horizon(python, off)) == steps
            assert native.events == python.events
            assert native.history == python.history
            assert [f.lp for f in native.fighters] == [f.lp for f in python.fighters]
            played += steps
    assert played > 2_000, played


def test_search_rolls_out_in_python_where_a_policy_has_no_twin() -> None:
    from agents.stuermer import Stuermer, StuermerConfig

    assert native_policy(Stuermer(StuermerConfig())) is None
    assert native_policy(object()) is None
