"""The load run of benchmarks/service_load.py in a tiny version (#17 section 1): the service in
a second process on a loopback port, two client threads asking "what would this NSC do?"
a few dozen times. No timing is asserted: every answer must come back without error and be
the advisor's answer for that fight (the one ``cwenv advise`` gives for the same state)."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from benchmarks.service_load import check_advice, load_run, make_fights, running_service
from cwenv.agent import Agent
from cwenv.cli.advise import with_budget
from cwenv.cli.serve import agent_maker
from cwenv.content import load_scenario
from cwenv.engine.state import Combat
from cwenv.play.advise import advise

STEPS = 2
MCTS_BUDGET = 2


@pytest.fixture(scope="module")
def service() -> Iterator[str]:
    with running_service(mcts_budget=MCTS_BUDGET) as base:
        yield base


def _advice_seed(seed: int, c: Combat) -> int:
    return seed * 1_000_003 + len(c.history)  # the service's seed for a fight's advice


def _fight_at(seed: int) -> Combat:
    """feuergefecht with ``seed``, STEPS greedy proposals in, as make_fights plays it."""
    c = load_scenario("feuergefecht").new_combat(seed)
    for _ in range(STEPS):
        greedy = agent_maker("greedy", c.game)
        c.apply(advise(c, greedy, 1, _advice_seed(seed, c)).recommended.action)
    return c


def _expected(seed: int, agent: Agent) -> tuple[str, int]:
    c = _fight_at(seed)
    found = advise(c, agent, 3, _advice_seed(seed, c)).recommended
    return found.label, c.legal_actions().index(found.action)


def test_two_clients_get_the_advisors_answers_without_errors(service: str) -> None:
    fights = make_fights(service, 2, steps=STEPS)
    result = load_run(service, fights, "taktiker", requests=36, seconds=120)
    assert result.errors == []
    assert result.requests == 36 and len(result.answers) == 2
    for seed, fid in enumerate(fights):
        got = result.answers[fid]
        game = load_scenario("feuergefecht")
        label, index = _expected(seed, agent_maker("taktiker", game))
        assert (got["recommended"]["label"], got["recommended"]["id"]) == (label, index)
        assert got["step"] == STEPS and got["agent"] == "taktiker"
    assert result.percentile(0.99) >= result.percentile(0.5) > 0


def test_mcts_with_a_small_budget_serves_the_budgeted_advice(service: str) -> None:
    fights = make_fights(service, 2, steps=STEPS)
    result = load_run(service, fights, "mcts", requests=4, seconds=120)
    assert result.errors == [] and result.requests == 4
    game = load_scenario("feuergefecht")
    got = result.answers[fights[1]]
    label, index = _expected(1, with_budget(agent_maker("mcts", game), MCTS_BUDGET))
    assert (got["recommended"]["label"], got["recommended"]["id"]) == (label, index)
    assert got["recommended"]["visits"] is not None


def test_a_broken_answer_is_counted_as_an_error(service: str) -> None:
    bad = httpx.get(f"{service}/v1/fights/nope/advice", params={"agent": "taktiker"})
    assert bad.status_code == 404
    result = load_run(service, ["nope"], "taktiker", requests=2, seconds=30)
    assert len(result.errors) == 2 and "status 404" in result.errors[0]
    assert check_advice({"agent": "x"}) is not None
