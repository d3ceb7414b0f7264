"""Tournament plans: deterministic game ids, idempotent storage, nondeterminism reports."""

from __future__ import annotations

import dataclasses
import json
import shlex
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cwenv.agent_registry import make_agent
from cwenv.runner.errors import RunnerError
from cwenv.runner.plan import TournamentConfig, build_plan
from cwenv.runner.seeds import game_seed
from cwenv.runner.store import Store
from cwenv.runner.task import GameRecord, TaskResult
from cwenv.runner.tournament import run_tournament
from tests.test_runner_support import extra_agent, results, runner_app, stored_record

CONFIG = TournamentConfig(("greedy", "random"), ("duell",), games=3, seed=5)


def test_plan_ids_are_deterministic_and_unique() -> None:
    a, b = build_plan(CONFIG), build_plan(CONFIG)
    assert [g.game_id for g in a.games] == [g.game_id for g in b.games]
    assert a.tournament_id == b.tournament_id
    ids = [g.game_id for g in a.games]
    assert len(ids) == len(set(ids)) == 1 * 2 * 1 * 3  # pairings × sides × scenarios × games
    sides = {(g.runners, g.nscs) for g in a.games}
    assert sides == {("greedy", "random"), ("random", "greedy")}
    assert {g.seed for g in a.games} == {game_seed(5, i) for i in range(3)}


def test_plan_size_for_three_agents_two_scenarios(monkeypatch: pytest.MonkeyPatch) -> None:
    config = TournamentConfig(("greedy", "random", "x"), ("duell", "dach"), games=2)
    with pytest.raises(RunnerError, match="unknown agent 'x'"):
        build_plan(config)
    # a third distinct spec: the same class under another name is still another agent
    extra_agent(monkeypatch, "random2", lambda: make_agent("random"))
    plan = build_plan(dataclasses.replace(config, agents=("greedy", "random", "random2")))
    assert len(plan.games) == 3 * 2 * 2 * 2


def test_game_ids_do_not_depend_on_agent_order() -> None:
    swapped = dataclasses.replace(CONFIG, agents=("random", "greedy"))
    assert {g.game_id for g in build_plan(swapped).games} == {
        g.game_id for g in build_plan(CONFIG).games
    }


@pytest.mark.parametrize("change", [{"seed": 6}, {"rules": "passes"}, {"name": "other"}])
def test_game_ids_change_with_seed_rules_and_name(change: dict[str, Any]) -> None:
    base = {g.game_id for g in build_plan(CONFIG).games}
    other = {g.game_id for g in build_plan(dataclasses.replace(CONFIG, **change)).games}
    assert base.isdisjoint(other)


def test_game_ids_change_with_agent_config(monkeypatch: pytest.MonkeyPatch) -> None:
    from agents.greedy import GreedyAgent

    base = {g.game_id for g in build_plan(CONFIG).games}
    monkeypatch.setattr(GreedyAgent, "config", {"depth": 2}, raising=False)
    changed = {g.game_id for g in build_plan(CONFIG).games}
    assert base.isdisjoint(changed)


@pytest.mark.parametrize(
    ("config", "message"),
    [
        (TournamentConfig(("greedy",), ("duell",), 1), "at least two agents"),
        (TournamentConfig(("greedy", "greedy"), ("duell",), 1), "listed twice: greedy"),
        (TournamentConfig(("greedy", "random"), ("nirgendwo",), 1), "unknown scenario"),
        (TournamentConfig(("greedy", "random"), ("duell",), 0), "at least 1"),
    ],
)
def test_bad_configs_name_the_problem(config: TournamentConfig, message: str) -> None:
    with pytest.raises(RunnerError, match=message):
        build_plan(config)


def test_writing_the_plan_twice_changes_nothing(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    plan = build_plan(CONFIG)
    with Store(db) as store:
        store.write_plan(plan)
        store.write_plan(plan)
        assert len(store.missing(plan.tournament_id)) == len(plan.games)
        mode = store.conn.execute("PRAGMA journal_mode").fetchone()[0]
        sync = store.conn.execute("PRAGMA synchronous").fetchone()[0]
    assert (mode, sync) == ("wal", 2)  # 2 = FULL
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM plan").fetchone()[0] == len(plan.games)
        config = json.loads(conn.execute("SELECT config FROM tournaments").fetchone()[0])
    assert config["agents"] == ["greedy", "random"]
    assert config["seed"] == 5 and config["games"] == 3
    assert "initiative" in config["rules_resolved"]["duell"]["options"]


def test_planted_differing_duplicate_is_nondeterminism(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    run_tournament(CONFIG, db)
    before = results(db)
    gid = before[0][0]
    with Store(db) as store:
        stored = store.game(gid).record
        assert stored is not None
        same = store.write_results([TaskResult(gid, stored, 1.0)])
        fake = dataclasses.replace(stored, rounds=stored.rounds + 7)
        conflicts = store.write_results([TaskResult(gid, fake, 1.0)])
    assert same == []
    assert [c.game_id for c in conflicts] == [gid]
    assert results(db) == before  # the first result stays


def test_recheck_reports_a_tampered_result(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    args = shlex.split(
        "tournament --agents greedy,random --scenarios duell --games 3 --seed 5 --json"
    )
    args += ["--db", str(db)]
    app = runner_app()
    first = CliRunner().invoke(app, args)
    assert first.exit_code == 0, first.output
    gid = results(db)[0][0]
    with sqlite3.connect(db) as conn:  # plant a result this code would never produce
        record = GameRecord.from_json(json.loads(stored_record(conn, gid)))
        fake = dataclasses.replace(record, winner=None, reason="gepflanzt")
        conn.execute(
            "UPDATE results SET winner=NULL, reason='gepflanzt', record=?, digest=? "
            "WHERE game_id=?",
            (json.dumps(fake.to_json()), fake.digest, gid),
        )
    again = CliRunner().invoke(app, [*args, "--recheck", "100"])
    assert again.exit_code == 3, again.output
    assert f"nondeterminism: game {gid}" in again.stderr
    data = json.loads(again.stdout)
    assert data["nondeterministic"] == [gid]
    assert data["rechecked"] == 6 and data["played_now"] == 0


class _Boom:
    """An agent that breaks in its third decision."""

    name = "boom"

    def __init__(self) -> None:
        self.calls = 0

    def act(self, view: Any, legal: Any, rng: Any) -> Any:
        self.calls += 1
        if self.calls > 2:
            raise ZeroDivisionError("kaputt")
        return legal[0]


def test_a_failing_game_is_named_in_the_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    extra_agent(monkeypatch, "boom", _Boom)
    config = TournamentConfig(("greedy", "boom"), ("duell",), games=2)
    with pytest.raises(RunnerError, match=r"game \w+ \(duell, runners=.*ZeroDivisionError: kaputt"):
        run_tournament(config, tmp_path / "t.sqlite")


def test_more_games_later_reuse_the_finished_ones(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    first = run_tournament(CONFIG, db)
    earlier = set(results(db))
    more = run_tournament(dataclasses.replace(CONFIG, games=5), db)
    assert first.played_now == 6
    assert more.played_now == 4 and more.games_done == 10
    assert more.plan.tournament_id != first.plan.tournament_id
    assert set(results(db)) > earlier  # the first six games are kept as they were
    with Store(db) as store:
        assert store.latest_tournament() == more.plan.tournament_id
