"""Search agents: budgets, determinism, the state value; and the doctrines' determinism."""

from __future__ import annotations

import random

import pytest

from agents.lookahead import LookaheadAgent, LookaheadConfig, paired_best
from agents.mcts import MCTSAgent, MCTSConfig
from agents.search import state_value
from cwenv.agent import DecisionView, play_out
from cwenv.agent_registry import make_agent
from cwenv.content import load_scenario
from cwenv.engine.actions import DecisionKind
from cwenv.engine.state import Combat
from cwenv.model.types import Side

SMALL = MCTSConfig(iterations=12, max_rollout_steps=30, rollout="greedy", base="stuermer")


def _turn_state(scenario: str = "duell", seed: int = 1) -> Combat:
    """A combat waiting for a Runner TURN decision with more than one choice."""
    c = load_scenario(scenario).new_combat(seed)
    agent = make_agent("stuermer")
    view = DecisionView(c)
    rng = random.Random(seed)
    while True:
        d = c.decision
        assert d is not None
        legal = c.legal_actions()
        runner = c.fighters[d.fighter].side is Side.RUNNER
        if d.kind is DecisionKind.TURN and runner and len(legal) > 3:
            return c
        c.apply(agent.act(view, legal, rng))


def test_mcts_respects_its_iteration_budget() -> None:
    c = _turn_state()
    agent = MCTSAgent(SMALL)
    action = agent.act(DecisionView(c), c.legal_actions(), random.Random(0))
    assert action in c.legal_actions()
    assert agent.last_iterations == SMALL.iterations
    root = agent.last_root
    assert root is not None
    assert sum(child.n for child in root.children.values()) == SMALL.iterations


def test_mcts_time_cap_stops_early() -> None:
    c = _turn_state()
    agent = MCTSAgent(SMALL.model_copy(update={"iterations": 100_000, "time_ms": 30.0}))
    agent.act(DecisionView(c), c.legal_actions(), random.Random(0))
    assert 0 < agent.last_iterations < 100_000  # the cap, not the iteration budget, ended it


def test_mcts_leaves_the_combat_untouched() -> None:
    c = _turn_state()
    before = (len(c.events), len(c.history), [f.lp for f in c.fighters], c.legal_actions())
    MCTSAgent(SMALL).act(DecisionView(c), c.legal_actions(), random.Random(0))
    assert before == (len(c.events), len(c.history), [f.lp for f in c.fighters], c.legal_actions())


@pytest.mark.parametrize(
    "make",
    [
        lambda: MCTSAgent(SMALL),
        lambda: LookaheadAgent(LookaheadConfig(rollouts=2, max_rollout_steps=30, rollout="greedy")),
    ],
)
def test_search_is_deterministic_for_a_seeded_generator(make: object) -> None:
    c = _turn_state()
    legal = c.legal_actions()
    first = [make().act(DecisionView(c), legal, random.Random(s)) for s in range(3)]  # type: ignore[operator]
    again = [make().act(DecisionView(c), legal, random.Random(s)) for s in range(3)]  # type: ignore[operator]
    assert first == again


@pytest.mark.parametrize("spec", ["stuermer", "schuetze", "taktiker"])
def test_doctrines_are_deterministic(spec: str) -> None:
    game = load_scenario("duell")
    histories = []
    for _ in range(2):
        c = game.new_combat(5)
        agent = make_agent(spec)
        rngs = {s: random.Random(s) for s in range(3)}
        play_out(c, {0: agent, 1: make_agent("random"), 2: agent}, rngs)
        histories.append(list(c.history))
    assert histories[0] == histories[1]


def test_state_value_bounds_and_terminal() -> None:
    c = load_scenario("duell").new_combat(0)
    v = state_value(c, Side.RUNNER, 0.5, 0.5, 1.0)
    assert -0.9 <= v <= 0.9
    assert state_value(c, Side.RUNNER, 0.5, 0.5) == -state_value(c, Side.GEGNER, 0.5, 0.5)
    rngs = {s: random.Random(s) for s in range(3)}
    play_out(c, {s: make_agent("greedy") for s in range(3)}, rngs)
    assert c.outcome is not None and c.outcome.winner is not None
    winner = c.outcome.winner
    assert state_value(c, winner, 0.5, 0.5) == 1.0
    loser = Side.GEGNER if winner is Side.RUNNER else Side.RUNNER
    assert state_value(c, loser, 0.5, 0.5) == -1.0


def test_paired_best_keeps_the_prior_without_evidence() -> None:
    prior = [0.1, 0.2, 0.0, 0.1]
    noisy = [0.6, -0.3, 0.4, -0.2]  # better mean, but not by one standard error
    assert paired_best([prior, noisy], 1.0) == 0
    clear = [0.3, 0.4, 0.2, 0.3]  # better on every sample
    assert paired_best([prior, clear], 1.0) == 1
    assert paired_best([prior, noisy], 0.0) == 1


def test_lookahead_scores_are_its_rollout_means_and_agree_with_act() -> None:
    """The advisor ranks a lookahead's alternatives by what it optimises: each candidate's
    mean rollout value; the choice is what ``act`` plays with the same seed, and it is the
    best mean unless the prior is kept on weak evidence (paired_best)."""
    from cwenv.agent import scores_of

    c = _turn_state("feuergefecht", seed=3)
    cfg = LookaheadConfig(rollouts=3, max_rollout_steps=20, rollout="greedy", base="stuermer")
    agent = LookaheadAgent(cfg)
    agent.prepare(c.game)
    view, legal = DecisionView(c), c.legal_actions()
    found = scores_of(agent, view, legal, seed=7)
    assert found.chosen == LookaheadAgent(cfg).act(view, legal, random.Random(7))
    assert found.kind_en == "rollout value" and len(found.values) > 1
    assert set(found.values) <= set(legal)
    best = max(found.values, key=lambda a: found.values[a])
    prior = make_agent("stuermer").act(view, legal, random.Random(7))
    assert found.chosen in (best, prior)


@pytest.mark.parametrize("kind", ["mcts", "lookahead"])
def test_the_opponent_model_plays_the_hostile_sides_in_rollouts(
    kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``opponent``: the hostile sides are played by the modelled doctrine in every
    rollout (and the searcher's own side by the rollout agent); without it, by the rollout
    agent."""
    import agents.lookahead
    import agents.mcts
    from agents.schuetze import Schuetze
    from agents.taktiker import Taktiker

    module = agents.mcts if kind == "mcts" else agents.lookahead
    seen: list[dict[int, object]] = []
    real = module.rollout

    def spy(sim: Combat, policies: dict[int, object], *args: object) -> int:
        seen.append(dict(policies))
        return real(sim, policies, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(module, "rollout", spy)
    c = _turn_state()
    view, legal = DecisionView(c), c.legal_actions()
    for opponent in ("schuetze", None):
        small = {"rollout": "taktiker", "max_rollout_steps": 30, "opponent": opponent}
        agent: MCTSAgent | LookaheadAgent = (
            MCTSAgent(MCTSConfig(iterations=4, **small))
            if kind == "mcts"
            else LookaheadAgent(LookaheadConfig(rollouts=1, **small))
        )
        seen.clear()
        agent.act(view, legal, random.Random(0))
        assert seen
        foe = Schuetze if opponent else Taktiker
        for policies in seen:
            assert type(policies[Side.RUNNER]) is Taktiker  # the searcher's side
            assert type(policies[Side.GEGNER]) is foe
