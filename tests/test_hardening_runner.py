"""Issue #19, runner side: resuming after an edit is refused (ids hash the resolved content),
optional extras are checked before any game, `cwenv report` reads every cwenv database and
exports CSV, `cwenv games list` shows what `cwenv replay` can replay."""

from __future__ import annotations

import csv
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from cwenv.rules.variants import CONFIG_ROOT
from cwenv.runner.errors import RunnerError
from cwenv.runner.plan import TournamentConfig, build_plan
from cwenv.runner.tournament import run_tournament
from tests.helpers import dump_db
from tests.test_runner_support import runner_app

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture()
def content(tmp_path: Path) -> dict[str, Path]:
    """A copied scenario and a copied agent file, ready to be edited."""
    scenario = tmp_path / "duell.yaml"
    shutil.copy(CONFIG_ROOT / "scenarios" / "duell.yaml", scenario)
    agent = tmp_path / "taktiker.yaml"
    shutil.copy(CONFIG_ROOT / "agents" / "taktiker.yaml", agent)
    return {"scenario": scenario, "agent": agent}


def _args(files: dict[str, Path], db: Path, agents: str = "greedy,random") -> list[str]:
    scenario = str(files["scenario"])
    return ["tournament", "--agents", agents, "--scenarios", scenario, "--games", "2",
            "--seed", "3", "--db", str(db), "--no-progress", "--json"]  # fmt: skip


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


# -- item 2: the resolved content is part of every id; a changed run is refused ---------------


def test_game_ids_hash_the_resolved_content(content: dict[str, Path]) -> None:
    config = TournamentConfig(("greedy", "random"), (str(content["scenario"]),), games=2)
    before = {g.game_id for g in build_plan(config).games}
    _edit(content["scenario"], "    name: Akame\n", "    name: Akame\n    lp: 31\n")
    after = {g.game_id for g in build_plan(config).games}
    assert before.isdisjoint(after)


@pytest.mark.parametrize(
    ("old", "new", "named"),
    [
        ("    name: Akame\n", "    name: Akame\n    lp: 31\n", "fighter Akame changed"),
        ("round_limit: 20", "round_limit: 25", "placements, victory conditions or round limit"),
        ("    weapons: [katana]", "    weapons: [messer]", "weapon"),
    ],
)
def test_resume_after_a_scenario_edit_is_refused(
    content: dict[str, Path], tmp_path: Path, old: str, new: str, named: str
) -> None:
    db = tmp_path / "r.sqlite"
    app = runner_app()
    first = CliRunner().invoke(app, _args(content, db))
    assert first.exit_code == 0, first.output
    before = dump_db(db)
    _edit(content["scenario"], old, new)
    again = CliRunner().invoke(app, _args(content, db))
    assert again.exit_code == 1, again.output
    assert "content changed since it was started" in again.stderr
    assert named in again.stderr and "duell.yaml" in again.stderr
    assert "new --db or a new --name" in again.stderr
    assert "Traceback" not in again.output
    assert dump_db(db) == before  # nothing was written


def test_resume_after_an_agent_edit_names_the_field(
    content: dict[str, Path], tmp_path: Path
) -> None:
    db = tmp_path / "a.sqlite"
    args = _args(content, db, agents=f"{content['agent']},random")
    app = runner_app()
    assert CliRunner().invoke(app, args).exit_code == 0
    _edit(content["agent"], "focus_weight: 2.0", "focus_weight: 2.5")
    again = CliRunner().invoke(app, args)
    assert again.exit_code == 1
    assert "focus_weight: 2.0 → 2.5" in again.stderr and "taktiker.yaml" in again.stderr


def test_unchanged_content_resumes_and_more_games_reuse_the_old(
    content: dict[str, Path], tmp_path: Path
) -> None:
    db = tmp_path / "u.sqlite"
    app = runner_app()
    assert CliRunner().invoke(app, _args(content, db)).exit_code == 0
    same = CliRunner().invoke(app, _args(content, db))
    assert same.exit_code == 0 and json.loads(same.stdout)["played_now"] == 0
    more = [*_args(content, db)[:6], "3", *_args(content, db)[7:]]
    grown = CliRunner().invoke(app, more)
    assert grown.exit_code == 0 and json.loads(grown.stdout)["played_now"] == 2


def test_a_format_1_tournament_is_not_resumed(content: dict[str, Path], tmp_path: Path) -> None:
    """A tournament started by an older cwenv recorded no content: its resume is refused by
    name (its games are still readable)."""
    db = tmp_path / "v1.sqlite"
    app = runner_app()
    assert CliRunner().invoke(app, _args(content, db)).exit_code == 0
    with sqlite3.connect(db) as conn:
        (text,), *_ = conn.execute("SELECT config FROM tournaments")
        config = json.loads(text)
        del config["content"]
        update = "UPDATE tournaments SET tournament_id = 'alt', config = ?"
        conn.execute(update, (json.dumps(config),))
        conn.execute("UPDATE entries SET tournament_id = 'alt'")
        conn.execute("UPDATE meta SET value = '1' WHERE key = 'schema'")
        conn.execute("DELETE FROM meta WHERE key = 'application'")
    again = CliRunner().invoke(app, _args(content, db))
    assert again.exit_code == 1 and "older cwenv" in again.stderr and "format 1" in again.stderr
    listed = CliRunner().invoke(_games_app(), ["games", "list", str(db), "--json"])
    assert listed.exit_code == 0 and json.loads(listed.stdout)["matched"] == 4


def test_a_worker_refuses_a_scenario_edited_after_planning(content: dict[str, Path]) -> None:
    from cwenv.runner import task as tasks
    from cwenv.runner.tournament import _content_hashes, _task

    plan = build_plan(TournamentConfig(("greedy", "random"), (str(content["scenario"]),), 1))
    task = _task(plan.games[0], _content_hashes(plan))
    assert task.content is not None
    _edit(content["scenario"], "    name: Akame\n", "    name: Akame\n    lp: 31\n")
    tasks._GAMES.clear()  # a fresh worker process loads the edited file
    with pytest.raises(RunnerError, match="changed while the tournament ran"):
        tasks.play_task(task)


# -- item 12 (part): missing extras are named before any game is played ------------------------

_BLOCKER = """
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {modules!r}:
            raise ImportError("blocked: " + name)
        return None
sys.meta_path.insert(0, Block())
sys.argv = ["cwenv"] + sys.argv[1:]
from cwenv.cli.main import app
app()
"""


def _without(modules: str, *args: str) -> subprocess.CompletedProcess[str]:
    """Run ``cwenv ARGS`` in a process where importing any of ``modules`` (comma-separated)
    raises ImportError, as in an install without that extra."""
    code = _BLOCKER.format(modules=modules.split(","))
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=120, cwd=REPO
    )


def test_tournament_without_openskill_stops_before_playing(tmp_path: Path) -> None:
    db = tmp_path / "o.sqlite"
    done = _without("openskill", "tournament", "--agents", "greedy,random", "--scenarios",
                    "duell", "--games", "2", "--db", str(db), "--no-progress")  # fmt: skip
    assert done.returncode == 1, done.stderr
    assert "pip install 'cwenv[ratings]'" in done.stderr and "Traceback" not in done.stderr
    assert not db.exists()  # nothing planned, nothing played


def test_ray_backend_without_ray_stops_before_playing(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    args = ["tournament", "--agents", "greedy,random", "--scenarios", "duell", "--games", "2"]
    done = _without("ray", *args, "--db", str(db), "--backend", "ray", "--no-progress")
    assert done.returncode == 1 and "pip install 'cwenv[ray]'" in done.stderr
    assert not db.exists()


def test_report_without_plots_and_ratings_names_both_extras_up_front(tmp_path: Path) -> None:
    db = tmp_path / "m.sqlite"
    run_tournament(TournamentConfig(("greedy", "random"), ("duell",), 1), db)
    out = tmp_path / "out"
    done = _without("matplotlib,openskill", "report", str(db), "--out", str(out))
    assert done.returncode == 1 and "pip install 'cwenv[ratings,plots]'" in done.stderr
    assert "Traceback" not in done.stderr and not out.exists()


# -- item 11: report on any cwenv database, game ids, CSV, games list ---------------------------


def _games_app() -> typer.Typer:
    from cwenv.cli import games

    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    app.add_typer(games.app, name="games")
    app.command("noop")(lambda: None)
    return app


@pytest.fixture(scope="module")
def stress_dbs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    from cwenv.stress.tactics import TacticsConfig, run_tactics
    from cwenv.stress.variants import SweepConfig, run_sweep

    tmp = tmp_path_factory.mktemp("stress")
    run_tactics(TacticsConfig("greedy", ("duell",), ("M02",), games=2), tmp / "t.sqlite")
    run_sweep(
        SweepConfig("default", ("passes",), ("duell",), "greedy", "random", 2), tmp / "v.sqlite"
    )
    return {"tactics": tmp / "t.sqlite", "variants": tmp / "v.sqlite"}


@pytest.mark.parametrize("kind", ["tactics", "variants"])
def test_report_reads_stress_databases(
    stress_dbs: dict[str, Path], tmp_path: Path, kind: str
) -> None:
    db = stress_dbs[kind]
    out, table = tmp_path / "out", tmp_path / "games.csv"
    result = CliRunner().invoke(
        runner_app(), ["report", str(db), "--out", str(out), "--csv", str(table)]
    )
    assert result.exit_code == 0, result.output
    text = (out / "report.md").read_text(encoding="utf-8")
    rows = list(csv.DictReader(table.open(encoding="utf-8")))
    assert len(rows) == (6 if kind == "tactics" else 4)
    assert all(f"`{r['game_id']}`" in text for r in rows)  # the report lists the game ids
    assert {r["result"] for r in rows} <= {"runner", "gegner", "draw"}
    if kind == "variants":  # two rule variants: tabled apart
        assert "### duell · default" in text and "### duell · passes" in text


def test_csv_has_every_game_and_unplayed_ones_empty(tmp_path: Path) -> None:
    from cwenv.runner.games import CSV_COLUMNS, games_csv
    from cwenv.runner.store import Store

    db = tmp_path / "c.sqlite"
    run_tournament(TournamentConfig(("greedy", "random"), ("duell",), 2, seed=1), db)
    with sqlite3.connect(db) as conn:
        conn.execute("DELETE FROM results WHERE game_id = (SELECT MIN(game_id) FROM results)")
    with Store(db, create=False) as store:
        tid = store.latest_tournament()
        rows = list(csv.DictReader(games_csv(tid, store.games(tid)).splitlines()))
    assert tuple(rows[0]) == CSV_COLUMNS and len(rows) == 4
    assert sum(1 for r in rows if r["result"] == "") == 1
    played = [r for r in rows if r["result"]]
    assert all(r["winner_agent"] in ("greedy", "random", "") for r in played)


def test_games_list_filters_limits_and_feeds_replay(stress_dbs: dict[str, Path]) -> None:
    db = stress_dbs["tactics"]
    app = _games_app()
    every = CliRunner().invoke(app, ["games", "list", str(db), "--json", "--limit", "0"])
    assert every.exit_code == 0, every.output
    data = json.loads(every.stdout)
    assert data["matched"] == data["total"] == 6
    restricted = CliRunner().invoke(
        app, ["games", "list", str(db), "--agent", "greedy!M02", "--limit", "3", "--json"]
    )
    listing = json.loads(restricted.stdout)
    assert listing["matched"] == 4 and len(listing["games"]) == 3
    assert all("greedy!M02" in (g["runners"], g["nscs"]) for g in listing["games"])
    table = CliRunner().invoke(app, ["games", "list", str(db), "--runners", "greedy!M02"])
    assert table.exit_code == 0
    gid = listing["games"][0]["game_id"]
    assert gid in table.stdout and "cwenv replay --db" in table.stdout
    replayed = CliRunner().invoke(runner_app(), ["replay", "--db", str(db), "--game", gid])
    assert replayed.exit_code == 0, replayed.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--result", "gewonnen"], "--result must be one of"),
        (["--tournament", "nope"], "no tournament 'nope'"),
    ],
)
def test_games_list_bad_input(stress_dbs: dict[str, Path], args: list[str], message: str) -> None:
    result = CliRunner().invoke(_games_app(), ["games", "list", str(stress_dbs["tactics"]), *args])
    assert result.exit_code == 1 and message in result.stderr


def test_report_files_follow_the_umask(tmp_path: Path) -> None:
    db = tmp_path / "u.sqlite"
    run_tournament(TournamentConfig(("greedy", "random"), ("duell",), 1), db)
    old = os.umask(0o022)
    try:
        result = CliRunner().invoke(runner_app(), ["report", str(db), "--out", str(tmp_path / "o")])
    finally:
        os.umask(old)
    assert result.exit_code == 0, result.output
    assert (tmp_path / "o" / "report.md").stat().st_mode & 0o777 == 0o644


def test_replay_without_an_outcome_is_a_clean_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from types import SimpleNamespace

    import cwenv.cli.replay as cli

    def unfinished(source: Any) -> Any:
        return SimpleNamespace(
            source=source, rounds=[], combat=SimpleNamespace(outcome=None), matches=None
        )

    monkeypatch.setattr(cli, "run_replay", unfinished)
    result = CliRunner().invoke(runner_app(), ["replay", "duell", "--runners", "random"])
    assert result.exit_code == 1, result.output
    assert "stopped before the game ended" in result.stderr
