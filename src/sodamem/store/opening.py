"""Opening the database file: every way it can fail becomes a ``StoreOpenError`` that names the path.

A text file, a directory, a path in a missing directory, a truncated or damaged database, another program's
SQLite database: each ends in one line naming the path and why, never a traceback (the CLI exits 2).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

from sodamem.errors import InputError, StoreOpenError
from sodamem.store.migrations import apply_migrations

if TYPE_CHECKING:
    from sodamem.store.write_protocol import Store

MEMORY = ":memory:"
BUSY_TIMEOUT_MS = 5000  # how long a statement waits inside SQLite for another connection's lock
# SQLite's ``synchronous`` levels a file may be opened with, in WAL mode. NORMAL (the default): a commit does not
# wait for the disk, so a power cut may lose the newest commits (never corrupting the file). FULL: each commit
# syncs the WAL before it returns, as PostgreSQL's default (``synchronous_commit = on``) does. OFF is refused: a
# power cut could then corrupt the file.
SQLITE_SYNCHRONOUS_LEVELS = ("NORMAL", "FULL")
DEFAULT_SQLITE_SYNCHRONOUS = "NORMAL"


def sqlite_synchronous_level(level: str) -> str:
    """``level`` (any case) as one of ``SQLITE_SYNCHRONOUS_LEVELS``; a ``ValueError`` names the choices."""
    upper = level.strip().upper()
    if upper not in SQLITE_SYNCHRONOUS_LEVELS:
        raise ValueError(f"SQLite synchronous must be one of {', '.join(SQLITE_SYNCHRONOUS_LEVELS)}, not {level!r}")
    return upper


def open_database(path: str, *, synchronous: str = DEFAULT_SQLITE_SYNCHRONOUS) -> sqlite3.Connection:
    """A connection to the SodaMem database at ``path`` (created when absent), migrated to the current schema;
    ``synchronous``: one of ``SQLITE_SYNCHRONOUS_LEVELS`` (files only; ``:memory:`` has no disk to wait for)."""
    level = sqlite_synchronous_level(synchronous)  # before anything opens: a bad level changes nothing
    _refuse_unopenable(path)
    try:
        conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    except sqlite3.Error as exc:
        raise StoreOpenError(f"cannot open database {path}: {exc}") from None
    try:
        conn.row_factory = sqlite3.Row
        conn.execute(
            f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}"
        )  # before the first read: wait out another process's write
        conn.execute("PRAGMA foreign_keys = ON")
        # Forgotten text must not survive in free pages of the file (forget also rewrites the FTS indexes).
        conn.execute("PRAGMA secure_delete = ON")
        _refuse_foreign(conn, path)  # the first statement that reads the file: before anything changes it
        if path != MEMORY:
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute(f"PRAGMA synchronous = {level}")  # one of two fixed words
        apply_migrations(conn)
    except sqlite3.Error as exc:
        conn.close()
        raise StoreOpenError(f"cannot open database {path}: {_reason(exc)}") from None
    except BaseException:
        conn.close()
        raise
    return conn


def _refuse_unopenable(path: str) -> None:
    """Say plainly what SQLite would only call "unable to open database file"."""
    if path == MEMORY:
        return
    target = Path(path)
    if target.is_dir():
        raise StoreOpenError(f"cannot open database {path}: it is a directory")
    if not target.exists() and not target.parent.is_dir():
        raise StoreOpenError(f"cannot create database {path}: directory {target.parent} does not exist")


def _refuse_foreign(conn: sqlite3.Connection, path: str) -> None:
    """Never add our tables to another program's database: a non-empty database must already be ours."""
    names = {str(r[0]) for r in conn.execute("SELECT name FROM sqlite_master")}
    if names and "_migrations" not in names:
        raise StoreOpenError(
            f"cannot open database {path}: it is an SQLite database without SodaMem's tables "
            "(another program's?); refusing to change it"
        )


def _reason(exc: sqlite3.Error) -> str:
    message = str(exc)
    if message in ("file is not a database", "file is encrypted or is not a database"):
        return "not an SQLite database"
    if message == "database disk image is malformed":
        return "the database file is damaged (truncated or overwritten)"
    return message


POSTGRES_URL_PREFIXES = ("postgresql://", "postgres://")


def is_postgres_url(path: str | Path) -> bool:
    return isinstance(path, str) and path.startswith(POSTGRES_URL_PREFIXES)


def require_database(path: str | Path, field: str) -> None:
    """Refuse, naming ``field``, an SQLite file that does not exist: opening it would create an empty memory, and
    a command that only reads (or a migration's source) would then answer from nothing instead of saying the path
    is wrong. ``":memory:"`` and PostgreSQL URLs are left to their stores."""
    if path != MEMORY and not is_postgres_url(path) and not Path(path).exists():
        raise InputError(
            f"no database at {path}: the file does not exist (`sodamem ingest` or `sodamem add` creates one)",
            field=field,
        )


def open_store(path: str | Path, *, sqlite_synchronous: str | None = None) -> Store:
    """The store at ``path``: a PostgreSQL database (``postgresql://...``; needs the ``postgres`` extra), else an
    SQLite file (or ``":memory:"``). ``sqlite_synchronous``: the SQLite file's ``synchronous`` level (None: NORMAL);
    refused for PostgreSQL, whose durability is its ``synchronous_commit`` setting (the URL's ``options``)."""
    if is_postgres_url(path):
        if sqlite_synchronous is not None:
            raise ValueError(
                "sqlite_synchronous is for SQLite files; PostgreSQL's commits wait for the disk by default"
                " (synchronous_commit, settable in the URL's options)"
            )
        try:
            from sodamem.store.postgres.store import PostgresStore
        except ImportError as exc:
            raise StoreOpenError(f"PostgreSQL needs psycopg: pip install 'sodamem[postgres]' ({exc})") from None
        return PostgresStore(str(path))
    from sodamem.store.sqlite import SQLiteStore  # sqlite.py opens its connection through this module

    level = DEFAULT_SQLITE_SYNCHRONOUS if sqlite_synchronous is None else sqlite_synchronous
    return SQLiteStore(path, synchronous=level)
