"""Search modes over the tunnels built so far: flat BM25, flat dense, their RRF, and the memory's own fusion."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from enum import StrEnum

from sodamem.embed.base import Embedder, Vectors
from sodamem.errors import SodaMemError
from sodamem.records import SearchHit
from sodamem.retrieve.dense import dense_focus, dense_pieces_by_turn, dense_turns
from sodamem.retrieve.fts_query import to_match_query
from sodamem.retrieve.fusion import reciprocal_rank_fusion
from sodamem.retrieve.hits import build_hits
from sodamem.retrieve.lexical import bm25_pieces_by_turn, bm25_turns, lexical_focus
from sodamem.store.sqlite import SQLiteStore
from sodamem.store.vectors import VectorIndex


class SearchMode(StrEnum):
    AUTO = "auto"  # sodamem when an embedder is configured, else bm25
    BM25 = "bm25"  # flat FTS5 BM25 over turns
    DENSE = "dense"  # flat cosine over turn vectors
    HYBRID_RRF = "hybrid-rrf"  # reciprocal rank fusion of bm25 and dense
    SODAMEM = "sodamem"  # the memory's own: RRF over turn- and piece-level rankings of both tunnels


@dataclass(frozen=True, slots=True)
class SearchSettings:
    candidates: int = 100  # rows each tunnel contributes before fusion
    context_window: int = 1  # neighbouring turns (each side) returned as context
    # Weights of the sodamem fusion: bm25 turns, bm25 pieces, dense turns, dense pieces.
    sodamem_weights: tuple[float, float, float, float] = (1.0, 0.5, 1.0, 0.5)


Ranking = list[tuple[int, float]]


class Searcher:
    def __init__(self, store: SQLiteStore, embedder: Embedder | None, settings: SearchSettings | None = None) -> None:
        self.store = store
        self.embedder = embedder
        self.index = VectorIndex(store, embedder.name, embedder.dim) if embedder is not None else None
        self.settings = settings or SearchSettings()

    def resolve(self, mode: SearchMode | str) -> SearchMode:
        mode = SearchMode(mode)
        if mode is SearchMode.AUTO:
            return SearchMode.SODAMEM if self.embedder is not None else SearchMode.BM25
        if mode is not SearchMode.BM25 and self.embedder is None:
            raise SodaMemError(f"search mode {mode.value!r} needs an embedder; open the Memory with one")
        return mode

    def rank(self, user: str, query: str, k: int, mode: SearchMode | str = SearchMode.AUTO) -> Ranking:
        """``(turn_pk, score)`` best first, at most ``k``."""
        return self._rank(user, query, k, self.resolve(mode))[0]

    def search(self, user: str, query: str, k: int, mode: SearchMode | str = SearchMode.AUTO) -> list[SearchHit]:
        mode = self.resolve(mode)
        ranked, match, vector = self._rank(user, query, k, mode)
        turn_pks = [pk for pk, _ in ranked]
        focus: dict[int, sqlite3.Row] = {}
        if vector is not None and self.index is not None:
            focus.update(dense_focus(self.store, self.index, user, vector, turn_pks))
        if match is not None:
            focus.update(lexical_focus(self.store, user, match, turn_pks))  # a literal match beats a close vector
        return build_hits(self.store, user, ranked, focus, self.settings.context_window)

    def _rank(self, user: str, query: str, k: int, mode: SearchMode) -> tuple[Ranking, str | None, Vectors | None]:
        if k <= 0:
            return [], None, None
        n = max(self.settings.candidates, k)
        match = to_match_query(query)
        vector = self._embed_query(query) if mode is not SearchMode.BM25 else None
        lexical = bm25_turns(self.store, user, match, n) if match is not None else []
        if mode is SearchMode.BM25:
            return lexical[:k], match, None
        assert self.index is not None and vector is not None
        dense = dense_turns(self.index, user, vector, n)
        if mode is SearchMode.DENSE:
            return dense[:k], None, vector
        if mode is SearchMode.HYBRID_RRF:
            return _ids(reciprocal_rank_fusion([_keys(lexical), _keys(dense)]))[:k], match, vector
        lexical_pieces = bm25_pieces_by_turn(self.store, user, match, n) if match is not None else []
        dense_pieces = dense_pieces_by_turn(self.store, self.index, user, vector, n)
        fused = reciprocal_rank_fusion(
            [_keys(lexical), _keys(lexical_pieces), _keys(dense), _keys(dense_pieces)],
            weights=self.settings.sodamem_weights,
        )
        return _ids(fused)[:k], match, vector

    def _embed_query(self, query: str) -> Vectors:
        assert self.embedder is not None
        vectors = self.embedder.embed([query])
        return vectors.reshape(-1)


def _keys(ranking: Ranking) -> list[int]:
    return [pk for pk, _ in ranking]


def _ids(fused: list[tuple[int, float]]) -> Ranking:
    return [(pk, score) for pk, score in fused]
