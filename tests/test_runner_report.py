"""cwenv report (Markdown + PNGs, atomic files) and cwenv replay (reproduces recorded games)."""

from __future__ import annotations

import json
import shlex
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cwenv.runner.atomic import atomic_write_text
from cwenv.runner.plan import TournamentConfig
from cwenv.runner.replay import frames, marker, replay, source_from_db
from cwenv.runner.task import GameRecord
from cwenv.runner.tournament import run_tournament
from tests.test_runner_support import results, runner_app, stored_record

CONFIG = TournamentConfig(("greedy", "random"), ("duell", "dach"), games=3, seed=9)


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("tournament") / "results.sqlite"
    run_tournament(CONFIG, path)
    return path


def test_report_writes_markdown_and_charts(db: Path, tmp_path: Path) -> None:
    out = tmp_path / "bericht"
    result = CliRunner().invoke(runner_app(), ["report", str(db), "--out", str(out)])
    assert result.exit_code == 0, result.output
    text = (out / "report.md").read_text(encoding="utf-8")
    for heading in ("# Tournament report", "## Ratings", "## Win rates", "### duell", "### dach"):
        assert heading in text
    assert "12 of 12 games played" in text and "No nondeterminism recorded." in text
    for png in ("winrates.png", "ratings.png", "scenario_duell.png", "scenario_dach.png"):
        assert f"]({png})" in text
        assert (out / png).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    config = json.loads((out / "config.json").read_text(encoding="utf-8"))
    assert config["agents"] == ["greedy", "random"] and config["seed"] == 9
    standings = json.loads((out / "standings.json").read_text(encoding="utf-8"))
    assert set(standings["ratings"]) == {"greedy", "random"}
    assert not [p for p in out.iterdir() if p.name.startswith(".")]  # no temp files left


def test_report_of_a_missing_database_exits_1(tmp_path: Path) -> None:
    result = CliRunner().invoke(runner_app(), ["report", str(tmp_path / "nix.sqlite")])
    assert result.exit_code == 1
    assert "no results database" in result.output


def test_atomic_write_replaces_whole_files(tmp_path: Path) -> None:
    target = atomic_write_text(tmp_path / "sub" / "a.txt", "alt")
    atomic_write_text(target, "neu")
    assert target.read_text() == "neu"
    assert [p.name for p in target.parent.iterdir()] == ["a.txt"]


def test_replay_reproduces_every_recorded_game(db: Path) -> None:
    for gid, *_ in results(db):
        replayed = replay(source_from_db(db, gid))
        assert replayed.matches is True, replayed.differences()


def test_replay_cli_narrates_rounds_with_the_map(db: Path) -> None:
    with sqlite3.connect(db) as conn:
        gid = conn.execute("SELECT game_id FROM plan WHERE scenario='duell'").fetchone()[0]
    result = CliRunner().invoke(runner_app(), ["replay", "--db", str(db), "--game", gid[:10]])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Kampfrunde 1" in out and "Kampfende nach" in out
    assert "stimmt mit dem aufgezeichneten Ergebnis überein" in out
    assert "############" in out  # the duel room's walls
    assert " A " in out and " a " in out  # the legend: Runner A, Gegner a


def test_replay_warns_when_the_record_differs(db: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy.sqlite"
    with sqlite3.connect(db) as src, sqlite3.connect(copy) as dst:
        src.backup(dst)
    gid = results(copy)[0][0]
    with sqlite3.connect(copy) as conn:
        record = GameRecord.from_json(json.loads(stored_record(conn, gid)))
        changed = GameRecord.from_json({**record.to_json(), "rounds": record.rounds + 5})
        conn.execute(
            "UPDATE results SET record=?, digest=? WHERE game_id=?",
            (json.dumps(changed.to_json()), changed.digest, gid),
        )
    result = CliRunner().invoke(runner_app(), ["replay", "--db", str(copy), "--game", gid])
    assert result.exit_code == 3
    assert "weicht vom aufgezeichneten Ergebnis ab" in result.stderr
    assert "rounds: recorded" in result.stderr


def test_replay_by_scenario_matches_simulate_game(db: Path) -> None:
    from cwenv.runner import SimulationConfig, simulate

    stats = simulate(SimulationConfig("duell", "greedy", "random", games=1, seed=9))
    result = CliRunner().invoke(
        runner_app(),
        shlex.split("replay duell --runners greedy --nscs random --seed 9 --index 0 --no-map"),
    )
    assert result.exit_code == 0, result.output
    winner = "Runner" if stats.wins.get("RUNNER") else "Gegner"
    assert f"Ergebnis: {winner}" in result.stdout
    assert "#####" not in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["replay"], "give a SCENARIO"),
        (["replay", "--game", "abc"], "needs both --db and --game"),
        (["replay", "duell", "--runners", "niemand"], "unknown agent 'niemand'"),
    ],
)
def test_replay_errors_exit_1(args: list[str], message: str) -> None:
    result = CliRunner().invoke(runner_app(), args)
    assert result.exit_code == 1
    assert message in result.output


def test_frames_track_positions_from_the_log(db: Path) -> None:
    gid = results(db)[0][0]
    replayed = replay(source_from_db(db, gid))
    game = replayed.source.game
    rounds = [log for log in frames(game, replayed.combat.events) if log.snapshot is not None]
    assert [log.snapshot.round for log in rounds if log.snapshot] == list(range(1, len(rounds) + 1))
    first = rounds[0].snapshot
    assert first is not None and first.positions == game.positions
    assert {marker(game, i) for i in range(len(game.roster))} >= {"A", "a"}
