"""The service's fights: a bounded registry with one lock per fight, kept in SQLite.

The database holds, per fight, what rebuilds it exactly: where it started (the kind and,
for an uploaded scenario or a situation, the text), its save (scenario, rules, seed, dice
mode, actions, typed dice: :class:`~cwenv.play.savefile.SavedGame`) and a step waiting for
dice. It is written after every change, inside the fight's lock, so a crash loses nothing
that was answered; after a restart a fight is rebuilt by replay when it is first used.

Clients of different fights never wait for each other beyond one short database write:
every fight has its own lock, and the registry's own lock is held only to look a fight up.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from cwenv.play.savefile import SavedAction, SavedGame, stored_save
from cwenv.service.errors import ServiceError
from cwenv.service.fights import Fight, Pending
from cwenv.service.origins import OriginKind, Start, rebuild_start

SCHEMA = """
CREATE TABLE IF NOT EXISTS fights (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    text TEXT,
    save TEXT NOT NULL,
    pending TEXT
)
"""


@dataclass(frozen=True, slots=True)
class Row:
    id: str
    kind: OriginKind
    text: str | None
    save: SavedGame
    pending: Pending | None


def _pending_json(p: Pending | None) -> str | None:
    if p is None:
        return None
    action = SavedAction.of(p.action).model_dump() if p.action is not None else None
    return json.dumps({"action": action, "dice": p.dice, "wants": p.wants})


def _pending_of(text: str | None) -> Pending | None:
    if text is None:
        return None
    data = json.loads(text)
    raw = data["action"]
    action = SavedAction.model_validate(raw).action() if raw is not None else None
    return Pending(action, list(data["dice"]), str(data["wants"]))


class Store:
    """The SQLite file (``:memory:`` keeps nothing past the process)."""

    def __init__(self, path: Path | str) -> None:
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        if str(path) != ":memory:":
            self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute(SCHEMA)
        self._written: dict[str, tuple[str | None, ...]] = {}  # a read writes nothing

    def put(self, fight: Fight) -> None:
        row = (
            fight.id,
            fight.kind.value,
            fight.text,
            fight.saved().model_dump_json(),
            _pending_json(fight.pending),
        )
        with self._lock:
            if self._written.get(fight.id) == row:
                return
            self._db.execute("INSERT OR REPLACE INTO fights VALUES (?, ?, ?, ?, ?)", row)
            self._written[fight.id] = row

    def get(self, fight_id: str) -> Row | None:
        with self._lock:
            found = self._db.execute(
                "SELECT id, kind, text, save, pending FROM fights WHERE id = ?", (fight_id,)
            ).fetchone()
        if found is None:
            return None
        fid, kind, text, save, pending = found
        # a fight stored before issue #16 says no dice_stream: it was rolled by the legacy one
        saved = SavedGame.model_validate(stored_save(json.loads(save)))
        return Row(fid, OriginKind(kind), text, saved, _pending_of(pending))

    def ids(self) -> list[str]:
        with self._lock:
            return [r[0] for r in self._db.execute("SELECT id FROM fights ORDER BY rowid")]

    def delete(self, fight_id: str) -> None:
        with self._lock:
            self._db.execute("DELETE FROM fights WHERE id = ?", (fight_id,))
            self._written.pop(fight_id, None)

    def close(self) -> None:
        with self._lock:
            self._db.close()


class Registry:
    """Fights by id: at most ``max_fights`` of them, each behind its own lock."""

    def __init__(self, store: Store, max_fights: int) -> None:
        self.store = store
        self.max_fights = max_fights
        self._lock = threading.Lock()
        self._fights: dict[str, Fight] = {}
        self._locks: dict[str, threading.Lock] = {i: threading.Lock() for i in store.ids()}

    def ids(self) -> list[str]:
        with self._lock:
            return list(self._locks)

    def reserve(self) -> str:
        """A fresh id with its lock, or 429 when the service holds its maximum of fights."""
        with self._lock:
            if len(self._locks) >= self.max_fights:
                raise ServiceError(
                    429,
                    "too_many_fights",
                    f"the service holds its maximum of {self.max_fights} fights; "
                    "DELETE /v1/fights/{id} one that is over (cwenv serve --max-fights)",
                )
            fight_id = secrets.token_hex(6)
            self._locks[fight_id] = threading.Lock()
            return fight_id

    def release(self, fight_id: str) -> None:
        """Give back a reserved id whose fight could not be created."""
        with self._lock:
            self._locks.pop(fight_id, None)
            self._fights.pop(fight_id, None)

    def add(self, fight: Fight) -> None:
        with self._lock:
            self._fights[fight.id] = fight
        self.store.put(fight)

    @contextmanager
    def use(self, fight_id: str) -> Iterator[Fight]:
        """The fight, held under its lock; what it is after the block is stored."""
        with self._lock:
            lock = self._locks.get(fight_id)
        if lock is None:
            raise ServiceError(404, "no_such_fight", f"no fight {fight_id!r}")
        with lock:
            fight = self._fights.get(fight_id) or self._load(fight_id)
            try:
                yield fight
            finally:
                if fight_id in self._locks:
                    self.store.put(fight)

    def _load(self, fight_id: str) -> Fight:
        row = self.store.get(fight_id)
        if row is None:
            raise ServiceError(404, "no_such_fight", f"no fight {fight_id!r}")
        fresh = rebuild_start(row.kind, row.text, row.save)
        start = Start(fresh.game, fresh.build, row.save)
        fight = Fight.restore(row.id, row.kind, row.text, start, row.pending)
        with self._lock:
            self._fights[fight_id] = fight
        return fight

    def delete(self, fight_id: str) -> None:
        with self._lock:
            lock = self._locks.get(fight_id)
        if lock is None:
            raise ServiceError(404, "no_such_fight", f"no fight {fight_id!r}")
        with lock, self._lock:
            self._locks.pop(fight_id, None)
            self._fights.pop(fight_id, None)
            self.store.delete(fight_id)
