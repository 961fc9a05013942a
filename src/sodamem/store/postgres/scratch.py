"""Throwaway PostgreSQL servers and databases, for the benchmarks' ``--db-backend postgres`` and the tests.

``temporary_server()`` starts the ``pgserver`` wheel's PostgreSQL 16 (with pgvector) in a temporary folder and
yields ``url_of(database)``; ``server_at(url)`` does the same for a running server. ``scratch_databases(url_of,
prefix)`` makes fresh databases that are dropped afterwards. ``with_settings(url, {...})`` names server settings
that every connection of that URL runs with (libpq's ``options``: ``synchronous_commit=off``, ``wal_compression``).
"""

from __future__ import annotations

import itertools
import os
import tempfile
import warnings
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from urllib.parse import parse_qsl, quote, urlencode


def server_at(url: str) -> Callable[[str], str]:
    """``url_of(database)`` on the server of ``url`` (a database URL, query parameters kept)."""
    base, _, query = url.partition("?")
    root = base.rsplit("/", 1)[0]
    return lambda name: f"{root}/{name}" + (f"?{query}" if query else "")


def with_settings(url: str, settings: Mapping[str, str]) -> str:
    """``url`` whose connections run with these server settings (``-c name=value`` in libpq's ``options`` query
    parameter, after any the URL names already): ``{"synchronous_commit": "off"}`` makes each commit return before
    its WAL reaches the disk. Names and values are PostgreSQL's, passed through unchecked (the server refuses a
    wrong one when a connection opens); a value may not hold spaces or backslashes."""
    if not settings:
        return url
    for name, value in settings.items():
        if not name or any(c.isspace() or c in "\\=" for c in name) or any(c.isspace() or c == "\\" for c in value):
            raise ValueError(f"cannot pass the setting {name}={value} in a URL's options")
    base, _, query = url.partition("?")
    params = parse_qsl(query, keep_blank_values=True)
    options = " ".join(f"-c {name}={value}" for name, value in settings.items())
    kept = [(k, v) for k, v in params if k != "options"]
    earlier = [v for k, v in params if k == "options"]
    merged = " ".join([*earlier, options])
    return f"{base}?{urlencode([*kept, ('options', merged)], quote_via=quote)}"


def server_settings(url: str, names: tuple[str, ...]) -> dict[str, str]:
    """The values a connection of ``url`` sees for these settings (``SHOW``)."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        return {name: str(conn.execute(f"SHOW {name}").fetchone()[0]) for name in names}  # type: ignore[index]


@contextmanager
def temporary_server(prefix: str = "sodamem-pg-") -> Iterator[Callable[[str], str]]:
    """A PostgreSQL server from the ``pgserver`` wheel for the block; raises ImportError without it."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # platformdirs warns at import when XDG_RUNTIME_DIR is unset: harmless
        from pgserver.postgres_server import get_server
    with tempfile.TemporaryDirectory(prefix=prefix) as folder:
        server = get_server(Path(folder) / "pgdata", cleanup_mode="stop")
        try:
            yield lambda name: str(server.get_uri(name))
        finally:
            server.cleanup()


def create_database(url_of: Callable[[str], str], name: str) -> None:
    import psycopg

    with psycopg.connect(url_of("postgres"), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')


def drop_database(url_of: Callable[[str], str], name: str) -> None:
    import psycopg

    with psycopg.connect(url_of("postgres"), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def copy_database(url_of: Callable[[str], str], name: str, template: str) -> None:
    """A fresh database ``name`` (dropped first if present) copied from ``template`` file by file (``FILE_COPY``: the
    default strategy writes every page of the copy to the WAL), then a checkpoint: the copy starts, as a database
    does after each checkpoint, with every page's next change written whole to the WAL."""
    import psycopg

    drop_database(url_of, name)
    with psycopg.connect(url_of("postgres"), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}" STRATEGY = FILE_COPY')
        conn.execute("CHECKPOINT")


def wal_position(url: str) -> int:
    """The server's current WAL insert position, in bytes (differences: the WAL written in between)."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute("SELECT pg_current_wal_insert_lsn() - '0/0'::pg_lsn").fetchone()
    return int(row[0])  # type: ignore[index]


def settle(url: str) -> None:
    """``VACUUM ANALYZE`` the database, then a checkpoint: a freshly ingested database as hours of upkeep leave it."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE")
        conn.execute("CHECKPOINT")


def database_exists(url_of: Callable[[str], str], name: str) -> bool:
    import psycopg

    with psycopg.connect(url_of("postgres"), autocommit=True) as conn:
        return conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone() is not None


def create_extension(url: str, extension: str) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f'CREATE EXTENSION IF NOT EXISTS "{extension}"')


def scratch_databases(url_of: Callable[[str], str], prefix: str) -> Callable[[], AbstractContextManager[str]]:
    """A factory of fresh databases: each ``with factory() as url`` creates one and drops it afterwards."""
    numbers = itertools.count()

    @contextmanager
    def fresh() -> Iterator[str]:
        name = f"{prefix}_{os.getpid()}_{next(numbers)}"
        create_database(url_of, name)
        try:
            yield url_of(name)
        finally:
            drop_database(url_of, name)

    return fresh
