"""The PostgreSQL fixture itself: a real server, pgvector present, one fresh database per test."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.slow

psycopg = pytest.importorskip("psycopg", reason="PostgreSQL tests need psycopg (pip install -e '.[postgres]')")


def test_a_fresh_database_has_pgvector(postgres_url: str) -> None:
    with psycopg.connect(postgres_url) as conn:
        version = conn.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'").fetchone()
        tables = conn.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").fetchone()
        distance = conn.execute("SELECT '[1,0]'::vector <=> '[0,1]'::vector").fetchone()
    assert version is not None and version[0] >= "0.6"
    assert tables == (0,)
    assert distance == (1.0,)


def test_each_test_gets_its_own_database(postgres_url: str) -> None:
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute("CREATE TABLE left_behind (x int)")  # the next test must not see it


def test_and_the_next_one_starts_empty(postgres_url: str) -> None:
    with psycopg.connect(postgres_url) as conn:
        assert conn.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").fetchone() == (0,)
