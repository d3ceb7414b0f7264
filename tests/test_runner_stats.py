"""cwenv simulate: Wilson intervals, seeds, statistics and the --json object."""

from __future__ import annotations

import json
import random
import shlex

import pytest
from typer.testing import CliRunner

from cwenv.runner import SimulationConfig, game_seed, side_rngs, simulate, wilson_interval
from cwenv.runner.seeds import derive_seed
from cwenv.runner.task import GameTask, play_task
from tests.test_runner_support import runner_app


@pytest.mark.parametrize(
    ("k", "n", "low", "high"),
    [
        (8, 10, 0.4902, 0.9433),  # worked by hand: centre 0.7167, half-width 0.2266
        (0, 10, 0.0, 0.2775),
        (5, 10, 0.2366, 0.7634),
        (10, 10, 0.7225, 1.0),
        (1, 2, 0.0945, 0.9055),
    ],
)
def test_wilson_matches_hand_values(k: int, n: int, low: float, high: float) -> None:
    got = wilson_interval(k, n)
    assert got[0] == pytest.approx(low, abs=1e-4)
    assert got[1] == pytest.approx(high, abs=1e-4)


def test_wilson_edge_cases() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError, match="successes"):
        wilson_interval(3, 2)


def test_seeds_are_stable_and_distinct() -> None:
    assert game_seed(7, 3) == game_seed(7, 3)
    assert len({game_seed(7, i) for i in range(1000)}) == 1000
    assert 0 <= game_seed(-1, 0) < 2**63
    a, b = side_rngs(11), side_rngs(11)
    assert [a[s].random() for s in (0, 1, 2)] == [b[s].random() for s in (0, 1, 2)]
    assert len({side_rngs(11)[s].random() for s in (0, 1, 2)}) == 3
    with pytest.raises(TypeError):
        derive_seed(1.5)


def test_simulate_counts_every_game_and_is_reproducible() -> None:
    config = SimulationConfig("duell", "greedy", "random", games=12, seed=4)
    stats = simulate(config)
    data = stats.to_json()
    assert data["games"] == 12
    wins = sum(side["wins"] for side in data["sides"].values())
    assert wins + data["draws"] == 12
    assert set(data["sides"]) == {"RUNNER", "GEGNER"}
    # game i is the task with game_seed(seed, i): replaying them by hand gives the same wins
    by_hand = [
        play_task(GameTask(str(i), "duell", "greedy", "random", game_seed(4, i))).record
        for i in range(12)
    ]
    assert data["sides"]["RUNNER"]["wins"] == sum(r.winner == "RUNNER" for r in by_hand)
    assert data["mean_rounds"] == pytest.approx(sum(r.rounds for r in by_hand) / 12)
    assert simulate(config).to_json() == data


def test_simulate_json_cli() -> None:
    result = CliRunner().invoke(
        runner_app(),
        shlex.split("simulate duell --runners greedy --nscs random --games 10 --seed 3 --json"),
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert {"games", "sides", "draws", "mean_rounds", "actions"} <= set(data)
    assert data["games"] == 10
    for side in data["sides"].values():
        assert {"wins", "win_rate", "ci95"} <= set(side)
        low, high = side["ci95"]
        assert low <= side["win_rate"] <= high
        assert [low, high] == pytest.approx(list(wilson_interval(side["wins"], 10)))
    assert data["actions"]["END_TURN"] > 0
    assert all(isinstance(v, int) for v in data["actions"].values())


def test_simulate_table_cli() -> None:
    result = CliRunner().invoke(
        runner_app(), ["simulate", "duell", "--games", "3", "--no-progress"]
    )
    assert result.exit_code == 0, result.output
    for word in ("Runner", "Gegner", "Remis", "Mumm", "Aktionen", "Bewegen", "Zug beenden"):
        assert word in result.stdout
    for leak in ("MOVE", "END_TURN", "GROSSER_WURF"):  # German tables, no enum names (#19)
        assert leak not in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["simulate", "nirgendwo"], "unknown scenario 'nirgendwo'"),
        (["simulate", "duell", "--runners", "schlau"], "unknown agent 'schlau'"),
        (["simulate", "duell", "--rules", "gibtsnicht"], "unknown rule variant 'gibtsnicht'"),
    ],
)
def test_simulate_errors_exit_1(args: list[str], message: str) -> None:
    result = CliRunner().invoke(runner_app(), [*args, "--games", "2"])
    assert result.exit_code == 1
    assert message in result.output


def test_no_global_random_use() -> None:
    state = random.getstate()
    simulate(SimulationConfig("duell", "random", "random", games=3, seed=1))
    assert random.getstate() == state
