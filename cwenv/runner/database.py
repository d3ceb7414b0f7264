"""Opening a results database: one writer at a time, readers that never write, clean errors.

* A **writer** (``cwenv tournament``, ``cwenv stress``) holds an exclusive lock on
  ``<db>-lock`` (``flock``: the kernel releases it when the process dies, even on SIGKILL), so
  a second run on the same database is refused instead of playing every game a second time.
  It refuses a file that is not a cwenv database (another application's tables are never
  extended), migrates an older results format and refuses a newer one. While it runs the
  database is in WAL mode; on a clean close it goes back to a rollback journal, so that the
  file at rest is one self-contained file that readers can open without creating ``-wal``
  and ``-shm`` files.
* A **reader** (``report``, ``replay``, ``games list``) opens the file with ``mode=ro`` and
  changes nothing: no journal mode, no meta row, no ``-wal`` file (a WAL file left behind
  by a killed writer is read as it is; a WAL-mode file without one is opened
  ``immutable``), so a read-only file or folder can be read.
* Every SQLite failure — a damaged file, a full disk, a locked or read-only file — becomes
  one :class:`DatabaseError` naming the file and what to do, never a traceback.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import quote

from cwenv.runner.errors import RunnerError

FORMAT = 2
"""The results format this cwenv writes (``meta.schema``). 1: the first release; 2: plans
record the resolved content of every scenario (the rows themselves are unchanged)."""

APPLICATION = "cwenv"
REQUIRED = frozenset({"meta", "tournaments", "plan", "entries", "results"})
_SQLITE_MAGIC = b"SQLite format 3\x00"


class DatabaseError(RunnerError):
    """The results database cannot be used; the message names the file and the remedy."""


def describe(path: Path, exc: sqlite3.Error, action: str) -> str:
    """One sentence about an SQLite failure while ``action`` (e.g. "saving results")."""
    text = str(exc)
    low = text.lower()
    if "full" in low:
        return (
            f"{path}: the disk is full (or the database reached its size limit) while "
            f"{action}; everything saved before is kept — free some space and run the same "
            "command again to resume"
        )
    if "malformed" in low or "not a database" in low or "corrupt" in low:
        return (
            f"{path} is damaged ({text}) — it cannot be read while {action}; "
            "restore it from a copy or give another --db"
        )
    if "readonly" in low or "read-only" in low:
        return f"{path} is read-only ({text}) — a run needs to write it; give another --db"
    if "locked" in low or "busy" in low:
        return f"{path} is locked by another program ({text}) while {action}; try again later"
    if "unable to open" in low:
        return f"cannot open {path} ({text}): check that its folder exists and is accessible"
    if "disk i/o" in low:
        return f"{path}: the disk failed while {action} ({text})"
    return f"{path}: database error while {action}: {text}"


@contextlib.contextmanager
def guard(path: Path, action: str) -> Iterator[None]:
    """Turn any SQLite error inside the block into one :class:`DatabaseError`."""
    try:
        yield
    except sqlite3.Error as exc:
        raise DatabaseError(describe(path, exc, action)) from None


@contextlib.contextmanager
def transaction(conn: sqlite3.Connection, path: Path, action: str) -> Iterator[sqlite3.Connection]:
    """``BEGIN IMMEDIATE`` … ``COMMIT`` on an autocommit connection, ``ROLLBACK`` on any
    error; an SQLite failure in the block or at the commit is one :class:`DatabaseError`."""
    with guard(path, action):
        conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException as exc:
        _rollback(conn)
        if isinstance(exc, sqlite3.Error):
            raise DatabaseError(describe(path, exc, action)) from None
        raise
    try:
        with guard(path, action):
            conn.execute("COMMIT")
    except DatabaseError:
        _rollback(conn)
        raise


def _rollback(conn: sqlite3.Connection) -> None:
    if conn.in_transaction:  # a failing ROLLBACK must not hide the error that caused it
        with contextlib.suppress(sqlite3.Error):
            conn.execute("ROLLBACK")


def _tables(conn: sqlite3.Connection) -> set[str]:
    return {str(r[0]) for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def _meta(conn: sqlite3.Connection, tables: set[str]) -> dict[str, str]:
    if "meta" not in tables:
        return {}
    try:
        return {str(k): str(v) for k, v in conn.execute("SELECT key, value FROM meta")}
    except sqlite3.OperationalError:  # another application's "meta" with other columns
        return {}


def check_format(conn: sqlite3.Connection, path: Path, *, write: bool) -> int:
    """The results format of an existing database; refuse foreign, damaged and newer files."""
    tables = _tables(conn)
    meta = _meta(conn, tables)
    # format 1 wrote no application row: its tables are its mark
    ours = meta.get("application") == APPLICATION or ("schema" in meta and tables >= REQUIRED)
    if not ours:
        listed = ", ".join(sorted(tables)) or "none"
        remedy = "it is left as it is; give another --db" if write else "give a file that "
        raise DatabaseError(
            f"{path} is not a cwenv results database (its tables: {listed}); "
            + (remedy if write else remedy + "cwenv tournament or cwenv stress wrote")
        )
    value = meta.get("schema", "")
    try:
        version = int(value)
    except ValueError:
        version = 0
    if version > FORMAT:
        raise DatabaseError(
            f"{path} holds results format {version}, written by a newer cwenv; this cwenv "
            f"reads formats 1 to {FORMAT} — update cwenv or give another --db"
        )
    if version < 1:
        raise DatabaseError(f"{path} has an unknown results format {value!r}; give another --db")
    missing = sorted(REQUIRED - tables)
    if missing:
        raise DatabaseError(
            f"{path} is damaged: the tables {', '.join(missing)} are missing; give another --db"
        )
    return version


def _migrate_1(conn: sqlite3.Connection) -> None:
    """Format 1 → 2: the tables are the same; tournaments started under format 1 did not
    record their content, and resuming one is refused by name (:mod:`cwenv.runner.store`)."""


MIGRATIONS: dict[int, Callable[[sqlite3.Connection], None]] = {1: _migrate_1}


def open_writer(path: Path, schema: str) -> sqlite3.Connection:
    """Open (or create) ``path`` for writing, after the caller took the writer lock."""
    if path.is_dir():
        raise DatabaseError(f"{path} is a folder; --db needs a file name")
    if path.is_file() and not _header(path).startswith(_SQLITE_MAGIC) and _header(path):
        raise DatabaseError(
            f"{path} is not an SQLite database, so not a cwenv results database; it is left "
            "as it is — give another --db"
        )
    with guard(path, "opening it"):
        conn = sqlite3.connect(path, timeout=60.0, isolation_level=None)
    try:
        with guard(path, "opening it"):
            if not _tables(conn):  # a new (or empty) file: ours to set up
                conn.execute("PRAGMA journal_mode=WAL")
                conn.executescript(
                    f"BEGIN IMMEDIATE;\n{schema}\nINSERT INTO meta VALUES ('schema', "
                    f"'{FORMAT}'), ('application', '{APPLICATION}');\nCOMMIT;"
                )
            else:
                version = check_format(conn, path, write=True)  # before changing anything
                conn.execute("PRAGMA journal_mode=WAL")
                if version < FORMAT:
                    conn.execute("BEGIN IMMEDIATE")
                    for step in range(version, FORMAT):
                        MIGRATIONS[step](conn)
                    conn.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (str(FORMAT),))
                    conn.execute("COMMIT")
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA foreign_keys=ON")
    except BaseException:
        _rollback(conn)
        conn.close()
        raise
    return conn


def close_writer(conn: sqlite3.Connection) -> None:
    """Leave a self-contained file behind: back to a rollback journal (checkpointing the WAL)
    unless a reader is attached right now, in which case the WAL simply stays."""
    with contextlib.suppress(sqlite3.Error):
        conn.execute("PRAGMA journal_mode=DELETE")
    conn.close()


def _header(path: Path) -> bytes:
    """The first 100 bytes: SQLite's file header (magic, journal mode …)."""
    try:
        with path.open("rb") as handle:
            return handle.read(100)
    except OSError as exc:
        raise DatabaseError(f"cannot read {path}: {exc.strerror}") from None


def open_reader(path: Path) -> sqlite3.Connection:
    """Open ``path`` read-only without creating or changing any file."""
    if not path.exists():
        raise DatabaseError(f"no results database at {path}")
    if not path.is_file():
        raise DatabaseError(f"{path} is not a file; give a results database (--db of a run)")
    header = _header(path)
    if not header.startswith(_SQLITE_MAGIC):
        what = "empty" if not header else "not an SQLite database"
        raise DatabaseError(f"{path} is {what}, so not a cwenv results database")
    params = "mode=ro"
    wal_mode = len(header) > 18 and header[18] == 2
    if wal_mode and not Path(f"{path}-wal").exists():
        params += "&immutable=1"  # WAL mode at rest (a killed writer): no -shm to create
    uri = f"file:{quote(str(path.resolve()))}?{params}"
    with guard(path, "opening it"):
        conn = sqlite3.connect(uri, uri=True, timeout=60.0, isolation_level=None)
    try:
        with guard(path, "reading it"):
            check_format(conn, path, write=False)
    except BaseException:
        conn.close()
        raise
    return conn


class WriterLock:
    """``<db>-lock``, locked with ``flock`` for as long as a writer runs."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self.path = db.with_name(f"{db.name}-lock")
        self.fd: int | None = None

    def acquire(self) -> None:
        try:
            import fcntl
        except ImportError:  # pragma: no cover - no flock (Windows): one writer is up to you
            return
        if self.db.is_dir():
            raise DatabaseError(f"{self.db} is a folder; --db needs a file name")
        if not self.db.parent.is_dir():
            raise DatabaseError(f"the folder of {self.db} does not exist; create it first")
        while True:
            try:
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError as exc:
                raise DatabaseError(
                    f"cannot create the lock file {self.path} ({exc.strerror}); a run needs "
                    "a writable folder for its database"
                ) from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = os.read(fd, 64).decode("ascii", "replace").strip() or "?"
                os.close(fd)
                raise DatabaseError(
                    f"{self.db} is in use by another cwenv run (pid {holder}); wait until it "
                    "has finished (then run this command again: it resumes), or give another "
                    "--db"
                ) from None
            try:
                same = os.stat(self.path).st_ino == os.fstat(fd).st_ino
            except FileNotFoundError:
                same = False
            if same:  # not a lock file its last holder removed while we opened it
                break
            os.close(fd)
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode("ascii"))
        self.fd = fd

    def release(self) -> None:
        if self.fd is None:
            return
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)  # before unlocking: a waiter holding the old file retries
        os.close(self.fd)
        self.fd = None
