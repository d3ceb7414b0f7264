"""A long run killed with SIGTERM (a scheduler's stop, ``kill``) stops as Ctrl-C does: exit
code 130, the note that the same command resumes, and the games finished so far kept in the
results file (``cwenv.cli.common.resumable_run``, shared by tournament and both stress
commands)."""

from __future__ import annotations

import shlex
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

_COMMANDS = {  # shlex: one readable command line each
    "tournament": shlex.split("tournament --agents greedy,random --scenarios duell"),
    "stress tactics": shlex.split("stress tactics --agent greedy --scenarios duell --tactic M01"),
    "stress variants": shlex.split(
        "stress variants --base default --variant passes --scenarios duell --agents greedy"
    ),
}


def _results(db: Path) -> int:
    try:
        with sqlite3.connect(db, timeout=5) as con:
            return int(con.execute("SELECT count(*) FROM results").fetchone()[0])
    except sqlite3.OperationalError:  # not created yet
        return 0


@pytest.mark.parametrize("name", sorted(_COMMANDS))
def test_sigterm_stops_with_130_and_keeps_games(name: str, tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    args = [*_COMMANDS[name], "--games", "5000", "--seed", "1", "--db", str(db), "--no-progress"]
    if name.startswith("stress"):
        args += ["--out", str(tmp_path / "out")]
    child = subprocess.Popen(
        [sys.executable, "-m", "cwenv.cli.main", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 120
        while _results(db) == 0:  # the handler is installed before the first game is saved
            if child.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"no game saved: rc={child.returncode} {child.stderr.read()}")  # type: ignore[union-attr]
            time.sleep(0.2)
        child.send_signal(signal.SIGTERM)
        _, err = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == 130, err
    assert "run the same command to resume" in err
    assert _results(db) > 0
