"""Tournaments survive SIGKILL: resuming finishes the plan with every game exactly once and
the same results as an uninterrupted run — with one process, with two, and on Ray."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from cwenv.runner.plan import TournamentConfig
from cwenv.runner.tournament import run_tournament
from tests.test_runner_support import count_results, plan_ids, results

AGENTS, SCENARIO, GAMES, SEED = ("greedy", "random"), "duell", 200, 17
PLANNED = 2 * GAMES  # one pairing, both sides, one scenario
STANDINGS = ("games_planned", "games_done", "ratings", "win_rates", "nondeterministic")


def _command(db: Path, jobs: int) -> list[str]:
    args = f"--agents {','.join(AGENTS)} --scenarios {SCENARIO} --games {GAMES} --seed {SEED}"
    args += f" --jobs {jobs} --batch 8 --no-progress --json"
    return [sys.executable, "-m", "cwenv.cli.tournament", *args.split(), "--db", str(db)]


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """An uninterrupted run, in this process."""
    db = tmp_path_factory.mktemp("reference") / "reference.sqlite"
    run = run_tournament(TournamentConfig(AGENTS, (SCENARIO,), GAMES, SEED), db, batch=64)
    assert run.games_done == PLANNED
    return db, run.to_json()


def _kill_midway(db: Path, jobs: int) -> int:
    """Start the tournament, SIGKILL it once some batches are committed; return how many."""
    proc = subprocess.Popen(
        _command(db, jobs),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        while count_results(db) < 24:
            if proc.poll() is not None:
                err = proc.stderr.read().decode() if proc.stderr else ""
                pytest.fail(f"the tournament ended before it was killed: {err}")
            if time.monotonic() > deadline:
                pytest.fail("no results appeared within 60 s")
            time.sleep(0.01)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)  # orphaned pool workers, if any
        if proc.stderr is not None:
            proc.stderr.close()
    assert proc.returncode == -signal.SIGKILL
    return count_results(db)


@pytest.mark.parametrize("jobs", [1, 2])
def test_sigkill_then_resume_equals_uninterrupted(
    tmp_path: Path, jobs: int, reference: tuple[Path, dict[str, Any]]
) -> None:
    ref_db, ref_json = reference
    db = tmp_path / "killed.sqlite"
    at_kill = _kill_midway(db, jobs)
    assert 0 < at_kill < PLANNED, f"killed after {at_kill} of {PLANNED} games"
    resumed = subprocess.run(_command(db, jobs), capture_output=True, text=True, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    data = json.loads(resumed.stdout)
    assert data["played_now"] == PLANNED - at_kill  # nothing committed was played again
    assert {k: data[k] for k in STANDINGS} == {k: ref_json[k] for k in STANDINGS}
    got = results(db)
    assert [r[0] for r in got] == plan_ids(db) == plan_ids(ref_db)  # each game exactly once
    assert got == results(ref_db)


def test_rerunning_a_finished_tournament_plays_nothing(
    tmp_path: Path, reference: tuple[Path, dict[str, Any]]
) -> None:
    ref_db, ref_json = reference
    run = run_tournament(TournamentConfig(AGENTS, (SCENARIO,), GAMES, SEED), ref_db)
    assert run.played_now == 0
    assert {k: run.to_json()[k] for k in STANDINGS} == {k: ref_json[k] for k in STANDINGS}


def test_ray_backend_equals_local(tmp_path: Path) -> None:
    pytest.importorskip("ray", reason="Ray is not installed (pip install 'cwenv[ray]')")
    config = TournamentConfig(AGENTS, (SCENARIO, "dach"), games=3, seed=2)
    local = run_tournament(config, tmp_path / "local.sqlite", jobs=1)
    remote = run_tournament(config, tmp_path / "ray.sqlite", jobs=2, backend="ray")
    assert remote.games_done == local.games_done == 12
    assert results(tmp_path / "ray.sqlite") == results(tmp_path / "local.sqlite")
    assert {k: remote.to_json()[k] for k in STANDINGS} == {k: local.to_json()[k] for k in STANDINGS}


def test_missing_ray_is_a_clear_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from cwenv.extras import MissingExtraError

    monkeypatch.setitem(sys.modules, "ray", None)  # import ray → ImportError
    config = TournamentConfig(AGENTS, (SCENARIO,), games=1)
    with pytest.raises(MissingExtraError, match=r"pip install 'cwenv\[ray\]'"):
        run_tournament(config, tmp_path / "t.sqlite", backend="ray")
