"""Search modes over the tunnels built so far: flat BM25, flat dense, their RRF, and the memory's own fusion."""

from __future__ import annotations

from collections.abc import Container, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from enum import StrEnum
from types import MappingProxyType
from typing import NamedTuple

from sodamem.embed.base import Embedder, Vectors, embed_queries
from sodamem.errors import SodaMemError
from sodamem.records import SearchHit
from sodamem.retrieve.aggregate import TypeMatcher
from sodamem.retrieve.cutoff import within_turns
from sodamem.retrieve.decompose import Decomposition, QueryDecomposer, new_word_queries
from sodamem.retrieve.dense import dense_focus, dense_turns
from sodamem.retrieve.fts_query import to_match_query
from sodamem.retrieve.fused import QueryVectors, SubQuery, fused_rank
from sodamem.retrieve.fusion import reciprocal_rank_fusion
from sodamem.retrieve.graph_lookup import CARRY_TABLES, GraphLookup
from sodamem.retrieve.hits import build_hits
from sodamem.retrieve.lexical import bm25_turns, lexical_focus
from sodamem.retrieve.mentions import Annotator
from sodamem.retrieve.presets import FusedSettings, fused_settings
from sodamem.retrieve.turn_lookup import TurnLookup
from sodamem.store.rows import PieceRow
from sodamem.store.write_protocol import Store


class SearchMode(StrEnum):
    AUTO = "auto"  # sodamem (with or without an embedder: the dense tunnels are skipped without one)
    BM25 = "bm25"  # flat FTS5 BM25 over turns
    DENSE = "dense"  # flat cosine over turn vectors
    HYBRID_RRF = "hybrid-rrf"  # reciprocal rank fusion of bm25 and dense
    SODAMEM = "sodamem"  # the memory's own: all tunnels, gates, density fusion, temporal bonus (fused.py)


@dataclass(frozen=True, slots=True)
class SearchSettings:
    candidates: int = 100  # rows each tunnel contributes before fusion
    context_window: int = 1  # neighbouring turns (each side) returned as context


Ranking = list[tuple[int, float]]


class _Ranked(NamedTuple):
    ranking: Ranking
    match: str | None  # the FTS query, for the cited span
    vector: Vectors | None  # the embedding the dense tunnels asked with, for the cited span
    # The memory's own search only: per turn, the tunnels that reached it and how its mass was made.
    explain: Mapping[int, tuple[tuple[str, ...], tuple[str, ...]]] = MappingProxyType({})


class Searcher:
    def __init__(
        self,
        store: Store,
        embedder: Embedder | None,
        settings: SearchSettings | None = None,
        annotator: Annotator | None = None,
        decomposer: QueryDecomposer | None = None,
    ) -> None:
        self.store = store
        self.annotator = annotator
        self.decomposer = decomposer  # query decomposition by an LLM (decompose.py); None: the search stays offline
        self.embedder = embedder
        self.index = store.vector_index(embedder.name, embedder.dim) if embedder is not None else None
        self.settings = settings or SearchSettings()
        self._turn_lookup: tuple[int, int, TurnLookup] | None = None  # (store generation, turns deleted, lookup)
        self._graph_lookup: tuple[int, tuple[int, ...], GraphLookup] | None = None  # (generation, deletions, lookup)
        self._types: TypeMatcher | None = None

    def resolve(self, mode: SearchMode | str) -> SearchMode:
        mode = SearchMode(mode)
        if mode is SearchMode.AUTO:
            return SearchMode.SODAMEM
        if mode in (SearchMode.DENSE, SearchMode.HYBRID_RRF) and self.embedder is None:
            raise SodaMemError(f"search mode {mode.value!r} needs an embedder; open the Memory with one")
        return mode

    def rank(
        self,
        user: str,
        query: str,
        k: int,
        mode: SearchMode | str = SearchMode.AUTO,
        *,
        now: datetime | None = None,
        preset: str = "default",
    ) -> Ranking:
        """``(turn_pk, score)`` best first, at most ``k``."""
        return self._rank(user, query, k, self.resolve(mode), now, preset).ranking

    def search(
        self,
        user: str,
        query: str,
        k: int,
        mode: SearchMode | str = SearchMode.AUTO,
        *,
        now: datetime | None = None,
        preset: str = "default",
        within: Container[int] | None = None,
    ) -> list[SearchHit]:
        """``within``: the only turns (by row id) that may rank, or None for every turn of ``user``."""
        with self.store.snapshot():  # another process's forget must not remove rows between ranking and reading
            return self._search(user, query, k, self.resolve(mode), now, preset, within)

    def _search(
        self,
        user: str,
        query: str,
        k: int,
        mode: SearchMode,
        now: datetime | None,
        preset: str,
        within: Container[int] | None,
    ) -> list[SearchHit]:
        ranked, match, vector, explained_by_turn = self._rank(user, query, k, mode, now, preset, within)
        turn_pks = [pk for pk, _ in ranked]
        focus: dict[int, PieceRow] = {}
        if vector is not None and self.index is not None:
            focus.update(dense_focus(self.store, self.index, user, vector, turn_pks))
        if match is not None:
            focus.update(lexical_focus(self.store, user, match, turn_pks))  # a literal match beats a close vector
        hits = build_hits(self.store, user, ranked, focus, self.settings.context_window)
        if mode is SearchMode.SODAMEM:
            explained = [explained_by_turn.get(pk, ((), ())) for pk in turn_pks]
            hits = [replace(h, tunnels=t, explain=e) for h, (t, e) in zip(hits, explained, strict=True)]
        return hits

    def _rank(
        self,
        user: str,
        query: str,
        k: int,
        mode: SearchMode,
        now: datetime | None,
        preset: str,
        within: Container[int] | None = None,
    ) -> _Ranked:
        if k <= 0:
            return _Ranked([], None, None)
        n = max(self.settings.candidates, k)
        match = to_match_query(query)
        if mode is SearchMode.SODAMEM:
            settings = fused_settings(preset)
            decomposition = self._decompose(query, settings)
            fused = fused_rank(
                self.store,
                self.index,
                QueryVectors(self._embed_query if self.embedder is not None else None),
                user,
                query,
                k,
                now or datetime.now(),
                settings,
                self.turn_lookup(),
                self.type_matcher() if _wants_types(settings) else None,
                subqueries := self._subqueries(query, decomposition, settings),
                self.graph_lookup(),
                within,
            )
            trace = (_trace(decomposition, subqueries),) if decomposition is not None else ()
            explain = {u.unit: (u.tunnels, (*u.explain, *trace)) for u in fused.units}
            return _Ranked([(u.unit, u.mass) for u in fused.units], fused.match, fused.vector, explain)
        vector = self._embed_query(query) if mode is not SearchMode.BM25 and self.embedder is not None else None
        lexical = within_turns(bm25_turns(self.store, user, match, n) if match is not None else [], within)
        if mode is SearchMode.BM25:
            return _Ranked(lexical[:k], match, None)
        assert self.index is not None and vector is not None
        dense = within_turns(dense_turns(self.index, user, vector, n), within)
        if mode is SearchMode.DENSE:
            return _Ranked(dense[:k], None, vector)
        if mode is SearchMode.HYBRID_RRF:
            return _Ranked(_ids(reciprocal_rank_fusion([_keys(lexical), _keys(dense)]))[:k], match, vector)
        raise AssertionError(f"unhandled mode {mode}")

    def _decompose(self, query: str, settings: FusedSettings) -> Decomposition | None:
        """The question's sub-queries, where a decomposer is given and their weight is above 0 (else None)."""
        if self.decomposer is None or settings.subquery_weight <= 0:
            return None
        return self.decomposer.decompose(query)

    def _subqueries(self, query: str, decomposition: Decomposition | None, settings: FusedSettings) -> list[SubQuery]:
        """The decomposition's sub-queries the search runs (with ``subquery_new_words``, those adding a word)."""
        if decomposition is None or not decomposition.queries:
            return []
        texts = list(decomposition.queries)
        if settings.subquery_new_words:
            texts = list(new_word_queries(query, texts))
        if not texts:
            return []
        if self.embedder is None:
            return [SubQuery(text) for text in texts]
        vectors = embed_queries(self.embedder, texts)
        return [SubQuery(text, vectors[i]) for i, text in enumerate(texts)]

    def turn_lookup(self) -> TurnLookup:
        """What fusion asks about turns, kept while the store is unchanged: a search of 1,000 turns otherwise spent
        a fifth of its time reading and classifying the same candidate turns again (``bench perf``)."""
        generation = self.store.generation
        kept = self._turn_lookup
        if kept is None or kept[0] != generation:
            deleted = self.store.deletions("turns")
            rows_of = kept[2] if kept is not None and kept[1] == deleted else None  # only added since
            kept = self._turn_lookup = (generation, deleted, TurnLookup(self.store, rows_of=rows_of))
        return kept[2]

    def graph_lookup(self) -> GraphLookup:
        """What the graph tunnel asks, kept while the store is unchanged, and in part while nothing is deleted
        (``retrieve/graph_lookup.py``): ~16 statements a search otherwise, a tenth of a served search's CPU."""
        generation = self.store.generation
        kept = self._graph_lookup
        if kept is None or kept[0] != generation:
            deleted = tuple(self.store.deletions(table) for table in CARRY_TABLES)
            carried = kept[2] if kept is not None and kept[1] == deleted else None
            kept = self._graph_lookup = (generation, deleted, GraphLookup(self.store, carried_of=carried))
        return kept[2]

    def type_matcher(self) -> TypeMatcher | None:
        """The answer-type tunnel's mentions and embedder, made at its first use; None without an embedder."""
        if self._types is None and self.embedder is not None:
            self._types = TypeMatcher(self.embedder, self.annotator)
        return self._types

    def _embed_query(self, query: str) -> Vectors:
        assert self.embedder is not None
        vectors = embed_queries(self.embedder, [query])  # e5 encodes a query apart from stored texts
        return vectors.reshape(-1)


def _trace(decomposition: Decomposition, run: Sequence[SubQuery]) -> str:
    """The decomposition's line in every hit's explanation, saying which sub-queries were left out, if any."""
    left = len(decomposition.queries) - len(run)
    return f"{decomposition.trace}; {left} left out (no word beyond the question's)" if left else decomposition.trace


def _wants_types(settings: FusedSettings) -> bool:
    tunnel = "answer_type" in settings.tunnels and settings.density.tunnel_weights.get("answer_type", 0.0) > 0
    return tunnel or settings.answer_type_bonus > 0


def _keys(ranking: Ranking) -> list[int]:
    return [pk for pk, _ in ranking]


def _ids(fused: list[tuple[int, float]]) -> Ranking:
    return [(pk, score) for pk, score in fused]
