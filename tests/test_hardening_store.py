"""Issue #19 item 10: the results database. Damaged pages, bad JSON rows and a full disk are
one clean error naming the file; readers never write (a read-only file can be reported and
replayed); a foreign SQLite file is refused, not extended; a second writer on the same
database is refused while the first runs; results formats are migrated or refused by name."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from cwenv.runner.plan import TournamentConfig
from cwenv.runner.tournament import run_tournament
from tests.helpers import dump_db
from tests.test_runner_support import results, runner_app

CONFIG = TournamentConfig(("greedy", "random"), ("duell",), games=3, seed=2)
TOURNAMENT = ["tournament", "--agents", "greedy,random", "--scenarios", "duell", "--games", "3",
              "--seed", "2", "--no-progress", "--json"]  # fmt: skip


@pytest.fixture()
def db(tmp_path: Path) -> Path:
    path = tmp_path / "results.sqlite"
    run_tournament(CONFIG, path)
    return path


def _clean_failure(result: Result, db: Path, *words: str) -> None:
    """Exit 1 with one message naming the file (and ``words``), and no traceback."""
    assert result.exit_code == 1, result.output
    assert str(db) in result.stderr, result.stderr
    assert "Traceback" not in result.output
    for word in words:
        assert word in result.stderr, result.stderr


def _replay_args(db: Path) -> list[str]:
    return ["replay", "--db", str(db), "--game", results(db)[0][0], "--no-map"]


# -- damaged files -----------------------------------------------------------------------------


def test_damaged_pages_are_a_clean_error(db: Path, tmp_path: Path) -> None:
    data = bytearray(db.read_bytes())
    page = int.from_bytes(data[16:18], "big") or 65536
    for offset in range(page, len(data), 97):  # everything after the first page is junk
        data[offset : offset + 13] = b"\xde\xad\xbe\xef kaputt!\x00"
    db.write_bytes(bytes(data))
    app = runner_app()
    report = CliRunner().invoke(app, ["report", str(db), "--out", str(tmp_path / "o")])
    _clean_failure(report, db, "damaged")
    resume = CliRunner().invoke(app, [*TOURNAMENT, "--db", str(db)])
    _clean_failure(resume, db, "damaged")


def test_a_file_that_is_not_sqlite_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "notes.sqlite"
    path.write_text("meine Notizen\n" * 50, encoding="utf-8")
    app = runner_app()
    resume = CliRunner().invoke(app, [*TOURNAMENT, "--db", str(path)])
    _clean_failure(resume, path, "not an SQLite database")
    report = CliRunner().invoke(app, ["report", str(path), "--out", str(tmp_path / "o")])
    _clean_failure(report, path, "not an SQLite database")
    assert path.read_text(encoding="utf-8") == "meine Notizen\n" * 50


@pytest.mark.parametrize("junk", ["{nicht json", '{"winner": "RUNNER"}', "[1, 2]"])
def test_bad_json_rows_are_a_clean_error(db: Path, tmp_path: Path, junk: str) -> None:
    gid = results(db)[0][0]
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE results SET record = ? WHERE game_id = ?", (junk, gid))
    app = runner_app()
    report = CliRunner().invoke(app, ["report", str(db), "--out", str(tmp_path / "o")])
    _clean_failure(report, db, gid)
    replay = CliRunner().invoke(app, ["replay", "--db", str(db), "--game", gid])
    _clean_failure(replay, db, gid)


def test_a_bad_config_row_is_a_clean_error(db: Path, tmp_path: Path) -> None:
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE tournaments SET config = 'kaputt'")
    report = CliRunner().invoke(runner_app(), ["report", str(db), "--out", str(tmp_path / "o")])
    _clean_failure(report, db, "config of tournament", "not valid JSON")


# -- a full disk ---------------------------------------------------------------------------------


def test_a_full_disk_is_a_clean_error_and_keeps_what_was_saved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cwenv.runner.store import Store

    original = Store.write_results
    calls = {"n": 0}

    def filling(self: Store, batch: list[object]) -> object:
        if batch:
            calls["n"] += 1
            if calls["n"] == 2:  # the disk fills up after the first batch
                pages = self.conn.execute("PRAGMA page_count").fetchone()[0]
                self.conn.execute(f"PRAGMA max_page_count = {pages}")
        return original(self, batch)  # type: ignore[arg-type]

    monkeypatch.setattr(Store, "write_results", filling)
    db = tmp_path / "full.sqlite"
    args = [*TOURNAMENT[:6], "20", *TOURNAMENT[7:], "--batch", "4", "--db", str(db)]
    full = CliRunner().invoke(runner_app(), args)
    _clean_failure(full, db, "disk is full", "run the same command again")
    assert len(results(db)) == 4  # the first batch is kept
    monkeypatch.setattr(Store, "write_results", original)
    resumed = CliRunner().invoke(runner_app(), args)
    assert resumed.exit_code == 0, resumed.output
    assert json.loads(resumed.stdout)["games_done"] == 40


# -- readers never write -------------------------------------------------------------------------


@pytest.fixture()
def frozen(db: Path) -> Iterator[Path]:
    """The database chmod 0444 in a 0555 folder (root ignores both: the tests check that
    nothing is written instead)."""
    folder = db.parent
    os.chmod(db, 0o444)
    os.chmod(folder, 0o555)
    try:
        yield db
    finally:
        os.chmod(folder, 0o755)
        os.chmod(db, 0o644)


def _files(folder: Path) -> dict[str, tuple[int, bytes]]:
    return {p.name: (p.stat().st_mtime_ns, p.read_bytes()) for p in sorted(folder.iterdir())}


@pytest.mark.parametrize("wal_at_rest", [False, True])
def test_readers_never_write(
    frozen: Path, tmp_path_factory: pytest.TempPathFactory, wal_at_rest: bool
) -> None:
    db = frozen
    if wal_at_rest:  # as a killed writer (or an older cwenv) leaves it: WAL mode, no -wal file
        os.chmod(db.parent, 0o755)
        os.chmod(db, 0o644)
        with sqlite3.connect(db) as conn:
            assert conn.execute("PRAGMA journal_mode=WAL").fetchone()[0] == "wal"
        conn.close()
        os.chmod(db, 0o444)
        os.chmod(db.parent, 0o555)
    before = _files(db.parent)
    out = tmp_path_factory.mktemp("report")
    app = runner_app()
    report = CliRunner().invoke(app, ["report", str(db), "--out", str(out / "r")])
    assert report.exit_code == 0, report.output
    replay = CliRunner().invoke(app, _replay_args(db))
    assert replay.exit_code == 0, replay.output
    assert _files(db.parent) == before  # same files, bytes and times: no -wal, no -shm
    from cwenv.cli.games import app as games

    assert CliRunner().invoke(games, ["list", str(db)]).exit_code == 0
    assert _files(db.parent) == before


def test_a_read_only_database_is_read_by_another_user(db: Path, tmp_path: Path) -> None:
    """Really read-only: the reader runs as an unprivileged user (the tests run as root)."""
    if os.geteuid() != 0:
        pytest.skip("needs root to switch to an unprivileged user")
    folder = tmp_path / "shared"
    folder.mkdir()
    ro = folder / "results.sqlite"
    ro.write_bytes(db.read_bytes())
    os.chmod(ro, 0o444)
    os.chmod(folder, 0o555)
    out = tmp_path / "out"
    out.mkdir()
    os.chmod(out, 0o777)
    os.chmod(tmp_path, 0o755)
    code = "import sys; from cwenv.cli.main import app; sys.argv = ['cwenv', *sys.argv[1:]]; app()"

    def as_nobody(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-c", code, *args],
            capture_output=True,
            text=True,
            timeout=120,
            user=65534,
            cwd="/",
            env={**os.environ, "HOME": str(out), "MPLCONFIGDIR": str(out)},
        )

    try:
        probe = as_nobody("version")
    except OSError as exc:  # the interpreter itself is out of that user's reach
        pytest.skip(f"the unprivileged user cannot start Python here: {exc}")
    if probe.returncode != 0:
        pytest.skip(f"the unprivileged user cannot run cwenv here: {probe.stderr[-200:]}")
    report = as_nobody("report", str(ro), "--out", str(out / "r"))
    assert report.returncode == 0, report.stderr
    replay = as_nobody(*_replay_args(ro))
    assert replay.returncode == 0, replay.stderr
    assert sorted(p.name for p in folder.iterdir()) == ["results.sqlite"]
    os.chmod(folder, 0o755)


# -- foreign files, formats ----------------------------------------------------------------------


def test_a_foreign_sqlite_file_is_refused_not_extended(tmp_path: Path) -> None:
    path = tmp_path / "kunden.sqlite"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE kunden (id INTEGER PRIMARY KEY, name TEXT)")
        conn.execute("INSERT INTO kunden (name) VALUES ('Arasaka')")
    conn.close()
    before = dump_db(path)
    app = runner_app()
    resume = CliRunner().invoke(app, [*TOURNAMENT, "--db", str(path)])
    _clean_failure(resume, path, "not a cwenv results database", "kunden")
    report = CliRunner().invoke(app, ["report", str(path), "--out", str(tmp_path / "o")])
    _clean_failure(report, path, "not a cwenv results database")
    assert dump_db(path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kunden.sqlite"]


@pytest.mark.parametrize(("value", "message"), [("99", "newer cwenv"), ("zwei", "unknown")])
def test_an_unknown_results_format_is_refused_by_name(
    db: Path, tmp_path: Path, value: str, message: str
) -> None:
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (value,))
    before = dump_db(db)
    app = runner_app()
    report = CliRunner().invoke(app, ["report", str(db), "--out", str(tmp_path / "o")])
    _clean_failure(report, db, message)
    resume = CliRunner().invoke(app, [*TOURNAMENT, "--db", str(db)])
    _clean_failure(resume, db, message)
    assert dump_db(db) == before


def test_format_1_is_read_and_migrated(db: Path, tmp_path: Path) -> None:
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE meta SET value = '1' WHERE key = 'schema'")
        conn.execute("DELETE FROM meta WHERE key = 'application'")
    report = CliRunner().invoke(runner_app(), ["report", str(db), "--out", str(tmp_path / "o")])
    assert report.exit_code == 0, report.output  # read as it is …
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        assert conn.execute("SELECT value FROM meta WHERE key='schema'").fetchone()[0] == "1"
    resume = CliRunner().invoke(runner_app(), [*TOURNAMENT, "--db", str(db)])
    assert resume.exit_code == 0, resume.output  # … and migrated by the next writer
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        assert conn.execute("SELECT value FROM meta WHERE key='schema'").fetchone()[0] == "2"


# -- one writer at a time ------------------------------------------------------------------------


def test_a_second_writer_is_refused_while_the_first_runs(db: Path) -> None:
    """This process holds the database as a writer (as a running tournament does); the same
    tournament started in another process is refused instead of playing everything again."""
    from cwenv.runner.store import Store

    before = dump_db(db)
    command = [sys.executable, "-m", "cwenv.cli.tournament", *TOURNAMENT[1:], "--db", str(db)]
    with Store(db):
        second = subprocess.run(command, capture_output=True, text=True, timeout=120)
        assert second.returncode == 1, second.stderr
        assert f"in use by another cwenv run (pid {os.getpid()})" in second.stderr
        assert "Traceback" not in second.stderr
    assert dump_db(db) == before
    after = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert after.returncode == 0, after.stderr  # free again once the first has finished
    assert json.loads(after.stdout)["played_now"] == 0
    assert not Path(f"{db}-lock").exists()
