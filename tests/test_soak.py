"""10,000 full combats of random legal play (issue #2): nothing raises, every fight ends,
and the invariants hold at every step.

The fights span the hand-built zoo (melee, ranged, cover, hacks, area attacks, falls, water,
doors, a VIP) under seven option sets — both initiative systems and every X-option flipped
to its alternative — and every shipped scenario under both initiative systems. The games
are spread over the machine's cores; each game is independent and seeded.
"""

from __future__ import annotations

import multiprocessing
import os
import random
from dataclasses import replace

import pytest

from cwenv.content import list_scenarios, load_scenario
from cwenv.engine.game import Game
from cwenv.rules.options import InitiativeSystem
from tests.invariants import check_invariants
from tests.zoo import ALL_GAMES, VARIANTS

TOTAL_GAMES = 10_000
SCENARIO_SEEDS = 20
MAX_STEPS = 50_000


def _game(kind: str, name: str, variant: str) -> Game:
    if kind == "zoo":
        return ALL_GAMES[name](VARIANTS[variant])
    game = load_scenario(name)
    if variant == "passes":
        game = replace(game, options=replace(game.options, initiative=InitiativeSystem.PASSES))
    return game


def _plan() -> list[tuple[str, str, str, int]]:
    jobs = [
        ("scenario", name, variant, seed)
        for name in list_scenarios()
        for variant in ("steps", "passes")
        for seed in range(SCENARIO_SEEDS)
    ]
    zoo = [(name, variant) for name in sorted(ALL_GAMES) for variant in sorted(VARIANTS)]
    seed = 0
    while len(jobs) < TOTAL_GAMES:
        name, variant = zoo[seed % len(zoo)]
        jobs.append(("zoo", name, variant, seed))
        seed += 1
    return jobs


def _play(job: tuple[str, str, str, int]) -> tuple[str, int]:
    kind, name, variant, seed = job
    game = _game(kind, name, variant)
    c = game.new_combat(seed)
    rng = random.Random(seed * 7919 + 17)
    steps = 0
    try:
        while not c.is_terminal():
            check_invariants(c)
            c.apply(rng.choice(c.legal_actions()))
            steps += 1
            if steps > MAX_STEPS:
                return f"{job}: no end after {MAX_STEPS} steps", steps
        check_invariants(c)
    except Exception as exc:  # reported with the job that reproduces it
        return f"{job}: {type(exc).__name__}: {exc}", steps
    return "", steps


@pytest.mark.slow
def test_ten_thousand_random_combats() -> None:
    jobs = _plan()
    assert len(jobs) == TOTAL_GAMES
    workers = max(1, min(os.cpu_count() or 1, 8))
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        results = pool.map(_play, jobs, chunksize=50)
    failures = [msg for msg, _ in results if msg]
    assert not failures, "\n".join(failures[:10])
    assert sum(steps for _, steps in results) > TOTAL_GAMES * 20
