"""A real PostgreSQL 16 with pgvector for the tests: the ``pgserver`` wheel's binaries, started once per test session
in a temporary directory (it runs as root here: pgserver starts the server as its own system user).

``postgres_cluster`` (session-scoped) starts the server; ``postgres_url`` hands each test a fresh, empty database with
the ``vector`` extension created, and drops it afterwards. Both skip, saying why, when ``pgserver`` or ``psycopg`` is
not installed (``pip install -e '.[postgres]'``). Tests that use them belong in the slow tier.
"""

from __future__ import annotations

import itertools
import os
import tempfile
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest


@dataclass
class PostgresCluster:
    """One running server: ``url(database)`` names a database on it; ``create_database`` makes a fresh one."""

    server: Any
    _numbers: Iterator[int] = field(default_factory=itertools.count)

    def url(self, database: str = "postgres") -> str:
        return str(self.server.get_uri(database))

    def create_database(self) -> str:
        import psycopg

        name = f"sodamem_test_{os.getpid()}_{next(self._numbers)}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        with psycopg.connect(self.url(name), autocommit=True) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        return name

    def drop_database(self, name: str) -> None:
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _import_or_skip() -> Any:
    try:
        with warnings.catch_warnings():
            # platformdirs warns at import when XDG_RUNTIME_DIR is unset (CI containers) and uses /tmp: harmless.
            warnings.simplefilter("ignore")
            import pgserver
        import psycopg  # noqa: F401
    except ImportError as exc:
        pytest.skip(f"PostgreSQL tests need pgserver and psycopg (pip install -e '.[postgres]'): {exc}")
    return pgserver


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[PostgresCluster]:
    pgserver = _import_or_skip()
    with tempfile.TemporaryDirectory(prefix="sodamem-pg-") as folder:
        server = pgserver.get_server(Path(folder) / "pgdata", cleanup_mode="stop")
        try:
            yield PostgresCluster(server)
        finally:
            server.cleanup()


@pytest.fixture
def postgres_url(postgres_cluster: PostgresCluster) -> Iterator[str]:
    """A fresh database with pgvector, dropped after the test."""
    name = postgres_cluster.create_database()
    try:
        yield postgres_cluster.url(name)
    finally:
        postgres_cluster.drop_database(name)
