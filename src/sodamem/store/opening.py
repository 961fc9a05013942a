"""Opening the database file: every way it can fail becomes a ``StoreOpenError`` that names the path.

A text file, a directory, a path in a missing directory, a truncated or damaged database, another program's
SQLite database: each ends in one line naming the path and why, never a traceback (the CLI exits 2).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

from sodamem.errors import StoreOpenError
from sodamem.store.migrations import apply_migrations

if TYPE_CHECKING:
    from sodamem.store.write_protocol import Store

MEMORY = ":memory:"
BUSY_TIMEOUT_MS = 5000  # how long a statement waits inside SQLite for another connection's lock


def open_database(path: str) -> sqlite3.Connection:
    """A connection to the SodaMem database at ``path`` (created when absent), migrated to the current schema."""
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
            conn.execute("PRAGMA synchronous = NORMAL")
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


def open_store(path: str | Path) -> Store:
    """The store at ``path``: a PostgreSQL database (``postgresql://...``; needs the ``postgres`` extra), else an
    SQLite file (or ``":memory:"``)."""
    if is_postgres_url(path):
        try:
            from sodamem.store.postgres.store import PostgresStore
        except ImportError as exc:
            raise StoreOpenError(f"PostgreSQL needs psycopg: pip install 'sodamem[postgres]' ({exc})") from None
        return PostgresStore(str(path))
    from sodamem.store.sqlite import SQLiteStore  # sqlite.py opens its connection through this module

    return SQLiteStore(path)
