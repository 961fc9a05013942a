"""The embedding side of the memory, with the shipped FakeEmbedder (the real models are in test_embed's slow tier)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sodamem import Memory
from sodamem.embed import FakeEmbedder
from sodamem.embed.cache import CachedEmbedder
from sodamem.errors import SodaMemError
from sodamem.store.vectors import VectorIndex
from tests.conftest import make_session

HISTORY = [
    make_session("s1", ["I adopted a puppy called Biscuit.", "What breed is the puppy?"]),
    make_session("s2", ["We hiked in the Peak District. Rain all day.", "Sounds wet!"], when="2024-03-09T10:00:00"),
    make_session("s3", ["My sister Priya turns thirty in March.", "Any plans?"], when="2024-03-12T10:00:00"),
]


class CountingEmbedder:
    """Counts what reaches the model, to prove caching."""

    def __init__(self) -> None:
        self.inner = FakeEmbedder(32)
        self.texts: list[str] = []

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def dim(self) -> int:
        return self.inner.dim

    def embed(self, texts: list[str]) -> np.ndarray:  # type: ignore[type-arg]
        self.texts.extend(texts)
        return self.inner.embed(texts)


def test_ingest_embeds_turns_and_pieces_once(tmp_path: Path) -> None:
    counting = CountingEmbedder()
    with Memory(tmp_path / "m.db", embedder=counting, extractor="none") as memory:  # turns and pieces only
        report = memory.ingest(HISTORY)
        stats = memory.stats()[0]
        # A one-piece turn has the same text as its piece: one vector serves both (6 turns + 7 pieces, 5 shared).
        assert (stats.turns, stats.pieces) == (6, 7)
        assert report.embedded == len(counting.texts) == len(set(counting.texts)) == 8
        assert "user: I adopted a puppy called Biscuit." in counting.texts  # the speaker is part of the text
        memory.ingest(HISTORY)  # identical: nothing new to embed
        memory.ingest([make_session("s4", ["I adopted a puppy called Biscuit."])])  # same text, cached vectors
        assert len(counting.texts) == 8


def test_every_mode_returns_cited_hits(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", embedder="fake") as memory:
        memory.ingest(HISTORY)
        for mode in ("bm25", "dense", "hybrid-rrf", "sodamem", "auto"):
            hits = memory.search("puppy Biscuit", k=3, mode=mode)
            assert hits, mode
            assert hits[0].turn_id == "s1:0", mode
            for hit in hits:
                assert hit.turn_text[hit.char_start : hit.char_end] == hit.text


def test_dense_modes_need_an_embedder(memory: Memory) -> None:
    memory.ingest(HISTORY)
    assert memory.search("puppy", mode="auto")  # falls back to BM25
    with pytest.raises(SodaMemError, match="embedder"):
        memory.search("puppy", mode="dense")


def test_the_database_remembers_its_embedder(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    with Memory(path, embedder="fake") as memory:
        memory.ingest(HISTORY)
    with Memory(path) as reopened:
        assert reopened.embedder is not None and reopened.embedder.name == FakeEmbedder().name
        assert reopened.search("Priya sister", mode="dense")[0].session_id == "s3"
    with Memory(path, embedder="none") as lexical_only:
        assert lexical_only.embedder is None


def test_vector_index_refreshes_after_writes(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", embedder="fake") as memory:
        memory.ingest(HISTORY[:1])
        index = memory.searcher.index
        assert index is not None
        ids_before, _ = index.matrix(memory.user, "turns")
        memory.ingest(HISTORY[1:])
        ids_after, vectors = index.matrix(memory.user, "turns")
        assert len(ids_after) == len(ids_before) + 4
        assert vectors.shape == (len(ids_after), FakeEmbedder().dim)


def test_vector_search_orders_by_cosine(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", embedder="fake") as memory:
        memory.ingest(HISTORY)
        index = VectorIndex(memory.store, memory.embedder.name, memory.embedder.dim)  # type: ignore[union-attr]
        query = memory.embedder.embed(["user: We hiked in the Peak District. Rain all day."])[0]  # type: ignore[union-attr]
        results = index.search(memory.user, "pieces", query, 3)
        assert [s for _, s in results] == sorted((s for _, s in results), reverse=True)
        top_piece = memory.store.pieces_by_pk(memory.user, [results[0][0]])[results[0][0]]
        assert top_piece.text == "We hiked in the Peak District."
        assert index.search("nobody", "turns", query, 3) == []


def test_cached_embedder_reuses_vectors_across_instances(tmp_path: Path) -> None:
    counting = CountingEmbedder()
    first = CachedEmbedder(counting, tmp_path / "cache.db")
    a = first.embed(["one", "two", "one"])
    first.close()
    second = CachedEmbedder(counting, tmp_path / "cache.db")
    b = second.embed(["two", "one", "three"])
    assert counting.texts == ["one", "two", "three"]
    np.testing.assert_allclose(a[0], b[1])
    np.testing.assert_allclose(a[1], b[0])
    assert second.embed([]).shape == (0, 32)
    second.close()
