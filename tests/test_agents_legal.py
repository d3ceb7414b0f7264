"""Every agent answers every decision kind with one of the legal actions.

States come from random play over the hand-built zoo (every rule family, several option
sets) and from fights driven by a mix of agents on shipped scenarios.
"""

from __future__ import annotations

import random

import pytest

from cwenv.agent import Agent, DecisionView
from cwenv.agent_registry import make_agent
from cwenv.content import load_scenario
from cwenv.engine.actions import DecisionKind
from cwenv.engine.state import Combat
from tests.zoo import ALL_GAMES, VARIANTS

PER_KIND = 8
MAX_GAMES = 24
MAX_STEPS = 600
FAST = ("random", "greedy", "stuermer", "schuetze", "taktiker")
RARE_FIRST = [
    ("rooftop", "alternatives", 24),
    ("duel", "passes", 10),
    ("firefight", "alternatives", 0),
]
"""Seeds known to reach the rare prompts (STURZ on the roof, DEATH in a duel) go first:
the first seeds from 0 whose random play, drawn as ``_collect`` draws it (from empty
buckets), meets them under the PCG32 dice of issue #16 (58 and 0 under the Mersenne
Twister)."""


def _collect() -> dict[DecisionKind, list[Combat]]:
    """Up to PER_KIND states per decision kind, from seeded random play."""
    found: dict[DecisionKind, list[Combat]] = {k: [] for k in DecisionKind}
    plan = RARE_FIRST + [
        (g, v, s) for s in range(5) for v in sorted(VARIANTS) for g in sorted(ALL_GAMES)
    ]
    for games, (name, variant, seed) in enumerate(plan):
        enough = all(len(v) >= PER_KIND for v in found.values())
        if enough or (games >= MAX_GAMES and all(found.values())):
            break
        c = ALL_GAMES[name](VARIANTS[variant]).new_combat(seed)
        rng = random.Random(seed)
        steps = 0
        while not c.is_terminal() and steps < MAX_STEPS:
            steps += 1
            d = c.decision
            assert d is not None
            bucket = found[d.kind]
            if len(bucket) < PER_KIND and (d.kind is not DecisionKind.TURN or rng.random() < 0.05):
                bucket.append(c.clone())
            c.apply(rng.choice(c.legal_actions()))
    return found


STATES = _collect()


def test_every_decision_kind_was_found() -> None:
    missing = [k.name for k, v in STATES.items() if not v]
    assert not missing


@pytest.mark.parametrize("spec", FAST)
def test_fast_agents_answer_every_kind_legally(spec: str) -> None:
    agent = make_agent(spec)
    for kind, states in STATES.items():
        for i, state in enumerate(states):
            c = state.clone()
            legal = c.legal_actions()
            action = agent.act(DecisionView(c), legal, random.Random(i))
            assert action in legal, (spec, kind.name, action)
            c.apply(action)  # and the engine accepts it


@pytest.mark.parametrize("spec", ["lookahead", "mcts"])
def test_search_agents_answer_every_kind_legally(spec: str) -> None:
    from agents.lookahead import LookaheadAgent, LookaheadConfig
    from agents.mcts import MCTSAgent, MCTSConfig

    agent: Agent
    if spec == "mcts":
        agent = MCTSAgent(MCTSConfig(iterations=3, max_rollout_steps=15, search_prompts=True))
    else:
        agent = LookaheadAgent(LookaheadConfig(rollouts=1, max_rollout_steps=15))
    for kind, states in STATES.items():
        for i, state in enumerate(states[:3]):
            c = state.clone()
            legal = c.legal_actions()
            action = agent.act(DecisionView(c), legal, random.Random(i))
            assert action in legal, (spec, kind.name, action)


@pytest.mark.parametrize("scenario", ["duell", "feuergefecht", "flucht"])
def test_mixed_agents_drive_scenarios_legally(scenario: str) -> None:
    """At every decision all fast agents answer; one of the answers is played."""
    game = load_scenario(scenario)
    agents = [make_agent(s) for s in FAST]
    c = game.new_combat(3)
    rng = random.Random(3)
    view = DecisionView(c)
    steps = 0
    while not c.is_terminal() and steps < 400:
        legal = c.legal_actions()
        answers = [a.act(view, legal, random.Random(steps)) for a in agents]
        for agent, action in zip(agents, answers, strict=True):
            assert action in legal, (agent.name, action)
        c.apply(rng.choice(answers))
        steps += 1
    assert steps > 10
