"""Throwaway PostgreSQL servers and databases, for the benchmarks' ``--db-backend postgres`` and the tests.

``temporary_server()`` starts the ``pgserver`` wheel's PostgreSQL 16 (with pgvector) in a temporary folder and
yields ``url_of(database)``; ``server_at(url)`` does the same for a running server. ``scratch_databases(url_of,
prefix)`` makes fresh databases that are dropped afterwards.
"""

from __future__ import annotations

import itertools
import os
import tempfile
import warnings
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path


def server_at(url: str) -> Callable[[str], str]:
    """``url_of(database)`` on the server of ``url`` (a database URL, query parameters kept)."""
    base, _, query = url.partition("?")
    root = base.rsplit("/", 1)[0]
    return lambda name: f"{root}/{name}" + (f"?{query}" if query else "")


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
