"""Dense search on PostgreSQL: the HNSW path (migration 0006) against the exact scan, and its fallback when the
user filter leaves fewer rows than asked."""

from __future__ import annotations

from datetime import datetime

import numpy as np
import pytest

from sodamem import Memory
from sodamem.embed.fake import FakeEmbedder
from sodamem.store.postgres.store import PostgresStore
from sodamem.store.postgres.vectors import PgVectorSearch

pytestmark = pytest.mark.slow

WORDS = "river garden violin paris hiking coffee museum piano recipe tennis novel camera".split()


def _memory(url: str) -> Memory:
    return Memory(url, embedder=FakeEmbedder(64))


def _fill(memory: Memory, user: str, n: int) -> None:
    texts = [f"{WORDS[i % len(WORDS)]} and {WORDS[(i * 7 + 3) % len(WORDS)]} number {i}" for i in range(n)]
    memory.add(texts, session_id="s", user=user, timestamp=datetime(2024, 1, 1, 10))


def _index(memory: Memory) -> PgVectorSearch:
    assert isinstance(memory.store, PostgresStore)
    index = memory.searcher.index
    assert isinstance(index, PgVectorSearch)
    return index


def test_migration_0006_made_the_hnsw_indexes(postgres_url: str) -> None:
    with _memory(postgres_url) as memory:
        assert isinstance(memory.store, PostgresStore)
        names = {r[0] for r in memory.store.conn.native("SELECT indexname FROM pg_indexes").fetchall()}
        done = [r[0] for r in memory.store.conn.native("SELECT name FROM _migrations ORDER BY name").fetchall()]
    assert {"embeddings_hnsw_64", "embeddings_hnsw_384", "embeddings_hnsw_768"} <= names
    assert {"0005_turn_mentions", "0006_hnsw_indexes", "0007_deletion_counters"} <= set(done)


def test_hnsw_search_matches_the_exact_scan(postgres_url: str) -> None:
    with _memory(postgres_url) as memory:
        _fill(memory, "big", 120)
        _fill(memory, "other", 40)  # shares the vector cache: the filter must drop their rows
        index = _index(memory)
        index.exact_below = 0  # every user takes the HNSW path
        embedder = FakeEmbedder(64)
        for word in WORDS[:6]:
            query = np.asarray(embedder.embed([f"{word} please"])[0])
            for table in ("turns", "pieces"):
                approximate = index.search("big", table, query, 10)
                exact = index.search_exact("big", table, query, 10)
                assert [pk for pk, _ in approximate] == [pk for pk, _ in exact], (word, table)
                assert np.allclose([s for _, s in approximate], [s for _, s in exact])


def test_fewer_rows_than_asked_after_the_filter_fall_back_to_the_exact_scan(postgres_url: str) -> None:
    with _memory(postgres_url) as memory:
        _fill(memory, "small", 5)
        _fill(memory, "other", 60)
        index = _index(memory)
        index.exact_below = 0
        query = np.asarray(FakeEmbedder(64).embed(["river"])[0])
        found = index.search("small", "turns", query, 50)
        assert found == index.search_exact("small", "turns", query, 50)
    assert len(found) == 5


def test_a_write_larger_than_the_socket_takes_at_once_completes(postgres_url: str) -> None:
    """A write transaction is pipelined (store/postgres/connection.py): a statement of megabytes (256 vectors of 768
    dimensions) must go out whole before its results are waited for; psycopg's own sync stopped half-way and hung."""
    import threading

    rng = np.random.default_rng(0)
    items = [(f"{i:064x}", rng.normal(size=768).astype(np.float32).tobytes()) for i in range(256)]
    done = threading.Event()

    def write() -> None:
        with Memory(postgres_url, embedder="none") as memory:
            memory.add("I live in Leeds.", session_id="s", timestamp=datetime(2024, 1, 1, 10))
            memory.store.put_embeddings("big", items, 768, dequeue=[1])
            with memory.store.writing("default") as writes:  # a large statement among others, then a read
                writes.insert_session_row("default", "s2", "2024-01-02T10:00:00", "live", "x" * 3_000_000)
                assert writes.stored_session("default", "s2") is not None
        done.set()

    worker = threading.Thread(target=write, daemon=True)
    worker.start()
    worker.join(120)
    assert done.is_set(), "the pipelined write hung"
