"""Every shipped scenario plays a seeded combat to the end with random legal actions."""

from __future__ import annotations

import random

import pytest

from cwenv.content import list_scenarios, load_scenario
from tests.invariants import check_invariants

MAX_STEPS = 100_000


@pytest.mark.parametrize("name", list_scenarios())
def test_scenario_plays_to_the_end(name: str) -> None:
    game = load_scenario(name)
    seed = sum(map(ord, name))
    combat = game.new_combat(seed)
    rng = random.Random(seed)
    for _ in range(MAX_STEPS):
        if combat.is_terminal():
            break
        combat.apply(rng.choice(combat.legal_actions()))
        check_invariants(combat)
    assert combat.is_terminal(), f"{name}: no end after {MAX_STEPS} random actions"
    outcome = combat.outcome
    assert outcome is not None and outcome.rounds >= 1
    if game.round_limit is not None:
        assert outcome.rounds <= game.round_limit


def test_same_seed_same_fight() -> None:
    """Two loads of a scenario are the same Game: a seed replays the same fight."""

    def play(seed: int) -> list[object]:
        combat = load_scenario("feuergefecht").new_combat(seed)
        rng = random.Random(seed)
        while not combat.is_terminal():
            combat.apply(rng.choice(combat.legal_actions()))
        return list(combat.history)

    assert play(5) == play(5)
