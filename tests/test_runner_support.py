"""Shared helpers for the runner tests (no tests here): the runner CLI app, DB readers."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import typer

from cwenv.cli.replay import replay
from cwenv.cli.report import report
from cwenv.cli.simulate import simulate
from cwenv.cli.tournament import tournament

RESULT_COLUMNS = "game_id, winner, reason, rounds, record, digest"


def runner_app() -> typer.Typer:
    """The runner commands as `cwenv` will register them."""
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    app.command("simulate")(simulate)
    app.command("tournament")(tournament)
    app.command("report")(report)
    app.command("replay")(replay)
    return app


def results(db: Path) -> list[tuple[Any, ...]]:
    """Every stored result without timings, by game id."""
    with sqlite3.connect(db) as conn:
        return conn.execute(f"SELECT {RESULT_COLUMNS} FROM results ORDER BY game_id").fetchall()


def plan_ids(db: Path) -> list[str]:
    with sqlite3.connect(db) as conn:
        return [r[0] for r in conn.execute("SELECT game_id FROM plan ORDER BY game_id")]


def count_results(db: Path) -> int:
    """Results committed so far (0 while the database or its tables do not exist yet)."""
    if not db.exists():
        return 0
    try:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5.0)
        try:
            return int(conn.execute("SELECT COUNT(*) FROM results").fetchone()[0])
        finally:
            conn.close()
    except sqlite3.OperationalError:
        return 0


def stored_record(conn: sqlite3.Connection, game_id: str) -> str:
    """The JSON text of one stored result record."""
    row = conn.execute("SELECT record FROM results WHERE game_id = ?", (game_id,)).fetchone()
    return str(row[0])


def extra_agent(monkeypatch: pytest.MonkeyPatch, spec: str, factory: Callable[[], Any]) -> None:
    """Make ``make_agent(spec)`` build ``factory()`` for this test (in this process only):
    a resolver asked before the registered ones."""
    import cwenv.agent_registry as registry

    class Extra:
        def known(self) -> list[str]:
            return [spec]

        def resolve(self, name: str) -> Any:
            return factory() if name == spec else None

    registered = registry.resolvers()
    monkeypatch.setattr(registry, "resolvers", lambda: (Extra(), *registered))
