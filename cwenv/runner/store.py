"""The tournament database: SQLite (WAL while a run writes), ``synchronous=FULL``, one writer.

Tables:

``tournaments``  one row per resolved config (JSON), with the time of its last run
``plan``         every planned game (id, scenario, agents, index, dice seed, rules)
``entries``      which games belong to which tournament, in plan order
``rules``        resolved rule options by hash
``results``      one row per finished game; ``INSERT … ON CONFLICT(game_id) DO NOTHING``
``nondeterminism`` a game played again with a different result

A batch of results is one transaction: a process killed mid-batch loses the batch (those
games are played again on resume) and never leaves half a game behind. How the file is
opened — the writer lock, read-only readers, the results format, clean errors for damaged,
full or foreign files — is :mod:`cwenv.runner.database`. Resuming a tournament whose
content (stat blocks, weapons, map, rules, agent settings) changed since it was started is
refused, naming what changed (:mod:`cwenv.runner.content`).
"""

from __future__ import annotations

import contextlib
import datetime
import json
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cwenv.rules.dice import LEGACY_STREAM
from cwenv.runner import database
from cwenv.runner.content import ContentChangedError, run_changes
from cwenv.runner.database import DatabaseError, guard
from cwenv.runner.errors import RunnerError
from cwenv.runner.hashing import canonical_json
from cwenv.runner.plan import Plan, PlannedGame, run_key
from cwenv.runner.task import GameRecord, TaskResult

SCHEMA_VERSION = database.FORMAT
"""The results format written (``meta.schema``); older ones are migrated, newer refused."""

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
    """One connection. ``create=True``: the (only) writer, holding the writer lock;
    ``create=False``: a reader that opens the file read-only and never writes."""

    def __init__(self, path: str | Path, *, create: bool = True) -> None:
        self._streams: dict[Any, Any] = {}  # tournament id → the dice stream its config names
        self.path = Path(path)
        self.readonly = not create
        self._lock: database.WriterLock | None = None
        if self.readonly:
            self.conn = database.open_reader(self.path)
            return
        self._lock = database.WriterLock(self.path)
        self._lock.acquire()
        try:
            self.conn = database.open_writer(self.path, _SCHEMA)
        except BaseException:
            self._lock.release()
            raise

    def close(self) -> None:
        if self.readonly:
            self.conn.close()
            return
        database.close_writer(self.conn)
        if self._lock is not None:
            self._lock.release()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def guard(self, action: str) -> contextlib.AbstractContextManager[None]:
        """SQLite errors inside as one :class:`DatabaseError` naming this file."""
        return guard(self.path, action)

    def rows(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Rows of a query, read under :meth:`guard` (a damaged page fails cleanly)."""
        with self.guard("reading it"):
            return self.conn.execute(sql, params).fetchall()

    def stream(self, sql: str, params: Sequence[Any] = ()) -> Iterator[tuple[Any, ...]]:
        """Like :meth:`rows`, one row at a time (for listings that stop at a limit)."""
        with self.guard("reading it"):
            yield from self.conn.execute(sql, params)

    def _json(self, text: Any, what: str) -> Any:
        try:
            return json.loads(text)
        except (TypeError, ValueError) as exc:
            raise DatabaseError(
                f"{self.path} is damaged: {what} is not valid JSON ({exc}); restore the file "
                "from a copy or give another --db"
            ) from None

    def _record(self, text: Any, game_id: Any) -> GameRecord | None:
        if text is None:
            return None
        data = self._json(text, f"the result of game {game_id}")
        try:
            return GameRecord.from_json(data)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise DatabaseError(
                f"{self.path} is damaged: the result of game {game_id} is not a game record "
                f"({type(exc).__name__}: {exc}); restore the file or give another --db"
            ) from None

    def _planned(self, row: Sequence[Any]) -> PlannedGame:
        try:
            tid = row[9]  # its tournament's config names the dice stream; none: legacy (#16)
            if tid not in self._streams:
                self._streams[tid] = self.tournament_config(str(tid)).get("dice") if tid else None
            return _planned([*row[:9], self._streams[tid], *row[10:]])
        except (TypeError, ValueError) as exc:
            raise DatabaseError(
                f"{self.path} is damaged: the plan of game {row[0]!r} is unreadable ({exc})"
            ) from None

    # -- writing ---------------------------------------------------------------------------
    def write_plan(self, plan: Plan) -> None:
        """Store config, rules and every planned game in one transaction (idempotent).

        A :class:`ContentChangedError` (nothing written) when a tournament of the same name,
        agents, scenarios, seed and rules was started here with other content."""
        now = _now()
        with self._transaction("saving the plan") as conn:
            self._refuse_changed_content(plan)
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
        with self._transaction("saving results") as conn:
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

    def _refuse_changed_content(self, plan: Plan) -> None:
        if plan.content is None:  # a plan that does not record content (stress runs)
            return
        config = plan.config_json()
        key = run_key(config)
        for tid, text in self.rows("SELECT tournament_id, config FROM tournaments"):
            if tid == plan.tournament_id:
                continue  # the id hashes the content: the same id is the same content
            old = self._json(text, f"the config of tournament {tid}")
            if not isinstance(old, dict) or run_key(old) != key:
                continue
            lines = run_changes(old, plan.content, plan.agents)
            if lines:
                raise ContentChangedError(
                    f"cannot resume tournament {plan.config.name!r} in {self.path}: its "
                    f"content changed since it was started (as tournament {tid}):\n  "
                    + "\n  ".join(lines)
                    + "\nstart a new --db or a new --name to play the new version; the "
                    "stored games are left as they are"
                )

    def _transaction(self, action: str) -> contextlib.AbstractContextManager[sqlite3.Connection]:
        return database.transaction(self.conn, self.path, action)

    # -- reading ---------------------------------------------------------------------------
    def latest_tournament(self) -> str:
        row = next(iter(self.rows(f"{_TOURNAMENTS} LIMIT 1")), None)
        if row is None:
            raise RunnerError(f"{self.path} holds no tournament")
        return str(row[0])

    def tournament_ids(self) -> list[str]:
        """Every tournament of the database, the one run last first."""
        return [str(r[0]) for r in self.rows(_TOURNAMENTS)]

    def tournament_config(self, tournament_id: str) -> dict[str, Any]:
        query = "SELECT config FROM tournaments WHERE tournament_id = ?"
        row = next(iter(self.rows(query, (tournament_id,))), None)
        if row is None:
            known = ", ".join(self.tournament_ids()) or "none"
            raise RunnerError(f"no tournament {tournament_id!r} in {self.path}; known: {known}")
        config = self._json(row[0], f"the config of tournament {tournament_id}")
        if not isinstance(config, dict):
            raise DatabaseError(
                f"{self.path} is damaged: the config of tournament {tournament_id} is not a mapping"
            )
        return config

    def missing(self, tournament_id: str) -> list[PlannedGame]:
        """Planned games without a result, in plan order."""
        rows = self.rows(
            f"SELECT {_PLAN_COLUMNS}, e.ordinal FROM entries e JOIN plan p USING (game_id) "
            "LEFT JOIN results r USING (game_id) "
            "WHERE e.tournament_id = ? AND r.game_id IS NULL ORDER BY e.ordinal",
            (tournament_id,),
        )
        return [self._planned(row) for row in rows]

    def games(self, tournament_id: str) -> list[StoredGame]:
        """Every planned game of a tournament with its result, ordered by game id."""
        rows = self.rows(
            f"SELECT {_PLAN_COLUMNS}, e.ordinal, r.record, r.digest FROM entries e "
            "JOIN plan p USING (game_id) LEFT JOIN results r USING (game_id) "
            "WHERE e.tournament_id = ? ORDER BY p.game_id",
            (tournament_id,),
        )
        return [
            StoredGame(self._planned(row[:11]), self._record(row[11], row[0]), row[12])
            for row in rows
        ]

    def game(self, game_id: str) -> StoredGame:
        """One game by id or unique id prefix."""
        rows = self.rows(
            f"SELECT {_PLAN_COLUMNS}, 0, r.record, r.digest FROM plan p "
            "LEFT JOIN results r USING (game_id) WHERE p.game_id LIKE ? "
            "ORDER BY p.game_id LIMIT 2",
            (game_id.replace("%", "").replace("_", "") + "%",),
        )
        if not rows:
            raise RunnerError(
                f"no game {game_id!r} in {self.path}; `cwenv games list {self.path}` lists "
                "the games it holds"
            )
        if len(rows) > 1:
            raise RunnerError(
                f"game id prefix {game_id!r} is ambiguous in {self.path}: give more of the id"
            )
        row = rows[0]
        return StoredGame(self._planned(row[:11]), self._record(row[11], row[0]), row[12])

    def rules_options(self, rules_hash: str) -> dict[str, Any] | None:
        query = "SELECT options FROM rules WHERE rules_hash = ?"
        row = next(iter(self.rows(query, (rules_hash,))), None)
        if row is None:
            return None
        options = self._json(row[0], f"the rule options {rules_hash}")
        if not isinstance(options, dict):
            raise DatabaseError(f"{self.path} is damaged: rule options {rules_hash} unreadable")
        return options

    def conflicts(self, game_ids: Iterable[str] | None = None) -> list[Conflict]:
        rows = self.rows(
            "SELECT game_id, stored_digest, new_digest FROM nondeterminism ORDER BY id"
        )
        wanted = set(game_ids) if game_ids is not None else None
        return [Conflict(r[0], r[1], r[2]) for r in rows if wanted is None or r[0] in wanted]


_TOURNAMENTS = "SELECT tournament_id FROM tournaments ORDER BY run_seq DESC"

_PLAN_COLUMNS = (
    "p.game_id, p.scenario, p.runners, p.nscs, p.idx, p.seed, p.rules, p.rules_hash, "
    "p.agents_hash, (SELECT x.tournament_id FROM entries x WHERE x.game_id = p.game_id LIMIT 1)"
)  # the last: a tournament of the game, whose config names its dice stream (_planned)


def _planned(row: Sequence[Any]) -> PlannedGame:
    # stream: what the game's tournament recorded; none (stored before #16): the legacy one
    gid, scenario, runners, nscs, idx, seed, rules, rules_hash, agents_hash, stream, ordinal = row
    return PlannedGame(
        str(gid), int(ordinal), str(scenario), str(runners), str(nscs), int(idx), int(seed),
        rules, str(rules_hash), str(agents_hash), str(stream or LEGACY_STREAM),
    )  # fmt: skip
