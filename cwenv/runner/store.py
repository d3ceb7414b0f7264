"""The tournament database: SQLite in WAL mode, ``synchronous=FULL``, one writer.

Tables:

``tournaments``  one row per resolved config (JSON), with the time of its last run
``plan``         every planned game (id, scenario, agents, index, dice seed, rules)
``entries``      which games belong to which tournament, in plan order
``rules``        resolved rule options by hash
``results``      one row per finished game; ``INSERT … ON CONFLICT(game_id) DO NOTHING``
``nondeterminism`` a game played again with a different result

A batch of results is one transaction: a process killed mid-batch loses the batch (those
games are played again on resume) and never leaves half a game behind.
"""

from __future__ import annotations

import datetime
import json
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cwenv.runner.errors import RunnerError
from cwenv.runner.hashing import canonical_json
from cwenv.runner.plan import Plan, PlannedGame
from cwenv.runner.play import GameRecord, TaskResult

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tournaments (
    tournament_id TEXT PRIMARY KEY,
    config TEXT NOT NULL,
    created TEXT NOT NULL,
    last_run TEXT NOT NULL,
    run_seq INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS rules (rules_hash TEXT PRIMARY KEY, options TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS plan (
    game_id TEXT PRIMARY KEY,
    scenario TEXT NOT NULL,
    runners TEXT NOT NULL,
    nscs TEXT NOT NULL,
    idx INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    rules TEXT,
    rules_hash TEXT NOT NULL,
    agents_hash TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS entries (
    tournament_id TEXT NOT NULL,
    game_id TEXT NOT NULL,
    ordinal INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, game_id)
);
CREATE TABLE IF NOT EXISTS results (
    game_id TEXT PRIMARY KEY,
    winner TEXT,
    reason TEXT NOT NULL,
    rounds INTEGER NOT NULL,
    record TEXT NOT NULL,
    digest TEXT NOT NULL,
    wall_ms REAL,
    recorded_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS nondeterminism (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id TEXT NOT NULL,
    stored_digest TEXT NOT NULL,
    new_digest TEXT NOT NULL,
    new_record TEXT NOT NULL,
    detected_at TEXT NOT NULL
);
"""


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="milliseconds")


@dataclass(frozen=True)
class Conflict:
    """A game whose replayed result differs from the stored one."""

    game_id: str
    stored_digest: str
    new_digest: str


@dataclass(frozen=True)
class StoredGame:
    """A planned game with its result (``record`` is None while it is not played)."""

    game: PlannedGame
    record: GameRecord | None
    digest: str | None


class Store:
    """One connection; the main process is the only writer."""

    def __init__(self, path: str | Path, *, create: bool = True) -> None:
        self.path = Path(path)
        if not create and not self.path.exists():
            raise RunnerError(f"no results database at {self.path}")
        try:
            self.conn = sqlite3.connect(self.path, timeout=60.0, isolation_level=None)
            self.conn.execute("PRAGMA journal_mode=WAL")
            self.conn.execute("PRAGMA synchronous=FULL")
            self.conn.execute("PRAGMA foreign_keys=ON")
            if create:
                self.conn.executescript(_SCHEMA)
                self.conn.execute(
                    "INSERT INTO meta VALUES ('schema', ?) ON CONFLICT(key) DO NOTHING",
                    (str(SCHEMA_VERSION),),
                )
            else:
                self._check_schema()
        except sqlite3.DatabaseError as exc:
            raise RunnerError(f"{self.path}: not a usable results database ({exc})") from None

    def _check_schema(self) -> None:
        names = {r[0] for r in self.conn.execute("SELECT name FROM sqlite_master")}
        if not {"tournaments", "plan", "entries", "results"} <= names:
            raise RunnerError(f"{self.path} is not a cwenv tournament database")

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing ---------------------------------------------------------------------------
    def write_plan(self, plan: Plan) -> None:
        """Store config, rules and every planned game in one transaction (idempotent)."""
        now = _now()
        with self._transaction() as conn:
            seq = conn.execute("SELECT COALESCE(MAX(run_seq), 0) + 1 FROM tournaments").fetchone()
            conn.execute(
                "INSERT INTO tournaments VALUES (?, ?, ?, ?, ?) ON CONFLICT(tournament_id) "
                "DO UPDATE SET last_run = excluded.last_run, run_seq = excluded.run_seq",
                (plan.tournament_id, canonical_json(plan.config_json()), now, now, seq[0]),
            )
            conn.executemany(
                "INSERT INTO rules VALUES (?, ?) ON CONFLICT(rules_hash) DO NOTHING",
                [(h, canonical_json(m)) for h, m in plan.rules.values()],
            )
            conn.executemany(
                "INSERT INTO plan VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT(game_id) DO NOTHING",
                [
                    (
                        g.game_id,
                        g.scenario,
                        g.runners,
                        g.nscs,
                        g.index,
                        g.seed,
                        g.rules,
                        g.rules_hash,
                        g.agents_hash,
                    )
                    for g in plan.games
                ],
            )
            conn.executemany(
                "INSERT INTO entries VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                [(plan.tournament_id, g.game_id, g.ordinal) for g in plan.games],
            )

    def write_results(self, results: Sequence[TaskResult]) -> list[Conflict]:
        """Insert a batch in one transaction; a duplicate with a different digest is recorded
        (and returned) as nondeterminism, the stored result is kept."""
        conflicts: list[Conflict] = []
        if not results:
            return conflicts
        now = _now()
        with self._transaction() as conn:
            for r in results:
                record_json = canonical_json(r.record.to_json())
                digest = r.record.digest
                cur = conn.execute(
                    "INSERT INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT(game_id) DO NOTHING",
                    (
                        r.key,
                        r.record.winner,
                        r.record.reason,
                        r.record.rounds,
                        record_json,
                        digest,
                        round(r.wall_ms, 3),
                        now,
                    ),
                )
                if cur.rowcount == 1:
                    continue
                row = conn.execute(
                    "SELECT digest FROM results WHERE game_id = ?", (r.key,)
                ).fetchone()
                if row is not None and row[0] != digest:
                    conn.execute(
                        "INSERT INTO nondeterminism (game_id, stored_digest, new_digest, "
                        "new_record, detected_at) VALUES (?, ?, ?, ?, ?)",
                        (r.key, row[0], digest, record_json, now),
                    )
                    conflicts.append(Conflict(r.key, row[0], digest))
        return conflicts

    def _transaction(self) -> _Transaction:
        return _Transaction(self.conn)

    # -- reading ---------------------------------------------------------------------------
    def latest_tournament(self) -> str:
        row = self.conn.execute(
            "SELECT tournament_id FROM tournaments ORDER BY run_seq DESC LIMIT 1"
        ).fetchone()
        if row is None:
            raise RunnerError(f"{self.path} holds no tournament")
        return str(row[0])

    def tournament_config(self, tournament_id: str) -> dict[str, Any]:
        row = self.conn.execute(
            "SELECT config FROM tournaments WHERE tournament_id = ?", (tournament_id,)
        ).fetchone()
        if row is None:
            known = [r[0] for r in self.conn.execute("SELECT tournament_id FROM tournaments")]
            raise RunnerError(
                f"no tournament {tournament_id!r} in {self.path}; known: {', '.join(known)}"
            )
        config: dict[str, Any] = json.loads(row[0])
        return config

    def missing(self, tournament_id: str) -> list[PlannedGame]:
        """Planned games without a result, in plan order."""
        rows = self.conn.execute(
            f"SELECT {_PLAN_COLUMNS}, e.ordinal FROM entries e JOIN plan p USING (game_id) "
            "LEFT JOIN results r USING (game_id) "
            "WHERE e.tournament_id = ? AND r.game_id IS NULL ORDER BY e.ordinal",
            (tournament_id,),
        )
        return [_planned(row) for row in rows]

    def games(self, tournament_id: str) -> list[StoredGame]:
        """Every planned game of a tournament with its result, ordered by game id."""
        rows = self.conn.execute(
            f"SELECT {_PLAN_COLUMNS}, e.ordinal, r.record, r.digest FROM entries e "
            "JOIN plan p USING (game_id) LEFT JOIN results r USING (game_id) "
            "WHERE e.tournament_id = ? ORDER BY p.game_id",
            (tournament_id,),
        )
        out = []
        for row in rows:
            record = GameRecord.from_json(json.loads(row[10])) if row[10] is not None else None
            out.append(StoredGame(_planned(row[:10]), record, row[11]))
        return out

    def game(self, game_id: str) -> StoredGame:
        """One game by id or unique id prefix."""
        rows = self.conn.execute(
            f"SELECT {_PLAN_COLUMNS}, 0, r.record, r.digest FROM plan p "
            "LEFT JOIN results r USING (game_id) WHERE p.game_id LIKE ? ORDER BY p.game_id "
            "LIMIT 2",
            (game_id.replace("%", "").replace("_", "") + "%",),
        ).fetchall()
        if not rows:
            raise RunnerError(f"no game {game_id!r} in {self.path}")
        if len(rows) > 1:
            raise RunnerError(f"game id prefix {game_id!r} is ambiguous in {self.path}")
        row = rows[0]
        record = GameRecord.from_json(json.loads(row[10])) if row[10] is not None else None
        return StoredGame(_planned(row[:10]), record, row[11])

    def rules_options(self, rules_hash: str) -> dict[str, Any] | None:
        row = self.conn.execute(
            "SELECT options FROM rules WHERE rules_hash = ?", (rules_hash,)
        ).fetchone()
        return None if row is None else dict(json.loads(row[0]))

    def conflicts(self, game_ids: Iterable[str] | None = None) -> list[Conflict]:
        rows = self.conn.execute(
            "SELECT game_id, stored_digest, new_digest FROM nondeterminism ORDER BY id"
        ).fetchall()
        wanted = set(game_ids) if game_ids is not None else None
        return [Conflict(r[0], r[1], r[2]) for r in rows if wanted is None or r[0] in wanted]


_PLAN_COLUMNS = (
    "p.game_id, p.scenario, p.runners, p.nscs, p.idx, p.seed, p.rules, p.rules_hash, p.agents_hash"
)


def _planned(row: Sequence[Any]) -> PlannedGame:
    gid, scenario, runners, nscs, idx, seed, rules, rules_hash, agents_hash, ordinal = row
    return PlannedGame(
        str(gid),
        int(ordinal),
        str(scenario),
        str(runners),
        str(nscs),
        int(idx),
        int(seed),
        rules,
        str(rules_hash),
        str(agents_hash),
    )


class _Transaction:
    """``BEGIN IMMEDIATE`` … ``COMMIT`` (``ROLLBACK`` on error) on an autocommit connection."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def __enter__(self) -> sqlite3.Connection:
        self.conn.execute("BEGIN IMMEDIATE")
        return self.conn

    def __exit__(self, exc_type: object, *rest: object) -> None:
        if exc_type is None:
            self.conn.execute("COMMIT")
        else:
            self.conn.execute("ROLLBACK")
