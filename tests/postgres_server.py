"""A real PostgreSQL 16 with pgvector for the tests: the ``pgserver`` wheel's binaries, started once per test session
in a temporary directory (it runs as root here: pgserver starts the server as its own system user).

``postgres_cluster`` (session-scoped) starts the server; ``postgres_url`` hands each test a fresh, empty database with
the ``vector`` extension created, and drops it afterwards. Both skip, saying why, when ``pgserver`` or ``psycopg`` is
not installed (``pip install -e '.[postgres]'``). Tests that use them belong in the slow tier.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field

import pytest

from sodamem.store.postgres.scratch import create_database, create_extension, drop_database, temporary_server


@dataclass
class PostgresCluster:
    """One running server: ``url(database)`` names a database on it; ``create_database`` makes a fresh one."""

    url_of: Callable[[str], str]
    _numbers: Iterator[int] = field(default_factory=itertools.count)

    def url(self, database: str = "postgres") -> str:
        return self.url_of(database)

    def create_database(self) -> str:
        name = f"sodamem_test_{os.getpid()}_{next(self._numbers)}"
        create_database(self.url_of, name)
        create_extension(self.url(name), "vector")
        return name

    def drop_database(self, name: str) -> None:
        drop_database(self.url_of, name)


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[PostgresCluster]:
    with ExitStack() as stack:
        try:
            import psycopg  # noqa: F401

            url_of = stack.enter_context(temporary_server())
        except ImportError as exc:
            pytest.skip(f"PostgreSQL tests need pgserver and psycopg (pip install -e '.[postgres]'): {exc}")
        yield PostgresCluster(url_of)


@pytest.fixture
def postgres_url(postgres_cluster: PostgresCluster, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A fresh database with pgvector, dropped after the test. In this process every write transaction that commits
    without draining the lexical log (its statements were judged not to log, ``PgConnection.may_log``) checks that
    the log is indeed empty: each PostgreSQL test checks that judgement on what it writes."""
    from sodamem.store.postgres.store import PostgresStore

    unlogged = PostgresStore._bump_unlogged

    def checked(store: PostgresStore) -> None:
        pending = int(store.conn.native("SELECT count(*) FROM fts_pending").fetchone()[0])
        assert pending == 0, f"{pending} lexical log rows left by a transaction judged not to log"
        unlogged(store)

    monkeypatch.setattr(PostgresStore, "_bump_unlogged", checked)
    name = postgres_cluster.create_database()
    try:
        yield postgres_cluster.url(name)
    finally:
        postgres_cluster.drop_database(name)
