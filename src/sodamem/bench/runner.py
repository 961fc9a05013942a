"""Run retrieval systems over benchmark units (a LoCoMo conversation, a LongMemEval question's haystack).

Each unit gets a fresh in-memory Memory; each question is ranked by every system; the per-question record keeps
the ranked turn ids so anyone can recompute the metrics from the JSON.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any

from sodamem.bench.metrics import contains_answer, count_tokens, pack_to_budget
from sodamem.bench.sqlite_only import portable_store
from sodamem.embed.base import Embedder, Vectors, embed_queries
from sodamem.ingest.extract import DEFAULT_EXTRACTOR
from sodamem.ingest.extract.base import Extractor
from sodamem.memory import Memory
from sodamem.model import Session
from sodamem.retrieve.decompose import QueryDecomposer
from sodamem.retrieve.presets import PRESET_NAMES
from sodamem.retrieve.search import SearchMode
from sodamem.store.inspect import turn_documents

SYSTEMS = ("bm25", "dense", "hybrid-rrf", "sodamem")
ABLATIONS = tuple(f"sodamem:{name}" for name in PRESET_NAMES if name != "default")
"""``sodamem:<preset>`` runs the memory's own search with a named preset (an ablation or a weighting)."""
DEFAULT_KS = (1, 5, 10, 20)
BUDGETS = (500, 1_000, 2_000)


@dataclass(frozen=True, slots=True)
class BenchQuestion:
    qid: str
    question: str
    category: str
    answer: str | None
    relevant_turns: tuple[str, ...]  # ids of the ranked documents (turn ids, or session ids at session level)
    relevant_sessions: tuple[str, ...]
    scored: bool = True  # False: reported separately (LoCoMo's adversarial category)
    asked_at: datetime | None = None  # the question's date ("now" for its time words); default: the last session


@dataclass(slots=True)
class BenchUnit:
    unit_id: str
    sessions: list[Session]
    questions: list[BenchQuestion]


@dataclass(slots=True)
class QuestionResult:
    question: BenchQuestion
    unit_id: str
    ranked: dict[str, list[str]] = field(default_factory=dict)  # system -> ranked document ids
    ranked_sessions: dict[str, list[str]] = field(default_factory=dict)  # system -> session of each ranked id
    tokens_at_k: dict[str, dict[int, int]] = field(default_factory=dict)
    contained: dict[str, dict[int, bool]] = field(default_factory=dict)  # system -> budget -> answer found
    latency_ms: dict[str, float] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(slots=True)
class BenchRun:
    dataset: str
    systems: tuple[str, ...]
    ks: tuple[int, ...]
    budgets: tuple[int, ...]
    results: list[QuestionResult]
    embedder: str | None
    seconds: float = 0.0
    notes: dict[str, Any] = field(default_factory=dict)


def run_retrieval(
    units: Sequence[BenchUnit],
    *,
    dataset: str,
    systems: Sequence[str] = SYSTEMS,
    ks: Sequence[int] = DEFAULT_KS,
    budgets: Sequence[int] = BUDGETS,
    embedder: Embedder | None = None,
    extractor: Extractor | str | None = DEFAULT_EXTRACTOR,
    depth: int = 100,
    progress: Callable[[int, int], None] | None = None,
    location: Callable[[], AbstractContextManager[str]] | None = None,
    decomposer: QueryDecomposer | None = None,
) -> BenchRun:
    """``location``: where each unit's fresh memory lives (a context that yields its path or URL and removes it
    afterwards); default: an SQLite memory in RAM. ``decomposer``: the memory's search decomposes each question
    (its systems whose ``subquery_weight`` is above 0; the decomposer asks once per question)."""
    started = time.perf_counter()
    modes = [_system(s) for s in systems]
    memo = _QueryMemo(embedder) if embedder is not None else None
    results: list[QuestionResult] = []
    total = sum(len(u.questions) for u in units)
    done = 0
    for unit in units:
        with (
            (location or _in_memory)() as where,
            Memory(
                where, embedder=memo if memo is not None else "none", extractor=extractor, decomposer=decomposer
            ) as memory,
        ):
            memory.ingest(unit.sessions)
            documents = turn_documents(portable_store(memory).conn, memory.user)
            last_session = max((s.timestamp for s in unit.sessions), default=None)
            for question in unit.questions:
                now = question.asked_at or last_session
                result = QuestionResult(question=question, unit_id=unit.unit_id)
                if memo is not None:  # embed the question once, timed apart: system latencies exclude it
                    t0 = time.perf_counter()
                    memo.remember(question.question)
                    result.latency_ms["query-embedding"] = (time.perf_counter() - t0) * 1000
                for system, (mode, preset) in zip(systems, modes, strict=True):
                    t0 = time.perf_counter()
                    ranking = memory.searcher.rank(
                        memory.user, question.question, max(depth, *ks), mode, now=now, preset=preset
                    )
                    result.latency_ms[system] = (time.perf_counter() - t0) * 1000
                    ids = [documents[pk][0] for pk, _ in ranking]
                    texts = [documents[pk][2] for pk, _ in ranking]
                    result.ranked[system] = ids
                    result.ranked_sessions[system] = [documents[pk][1] for pk, _ in ranking]
                    result.tokens_at_k[system] = {k: sum(count_tokens(t) for t in texts[:k]) for k in ks}
                    if question.answer is not None:
                        result.contained[system] = {
                            b: contains_answer(" \n".join(pack_to_budget(texts, b)), question.answer) for b in budgets
                        }
                results.append(result)
                done += 1
                if progress is not None:
                    progress(done, total)
    return BenchRun(
        dataset=dataset,
        systems=tuple(systems),
        ks=tuple(ks),
        budgets=tuple(budgets),
        results=results,
        embedder=embedder.name if embedder is not None else None,
        seconds=time.perf_counter() - started,
    )


def each_question(
    units: Sequence[BenchUnit], embedder: Embedder | str | None
) -> Iterator[tuple[BenchUnit, Memory, BenchQuestion, datetime | None]]:
    """Every question of every unit with a fresh in-RAM memory of its unit (ingested once per unit) and its "now"
    (the question's own date, else the unit's last session)."""
    for unit in units:
        with Memory(":memory:", embedder=embedder if embedder is not None else "none") as memory:
            memory.ingest(unit.sessions)
            last_session = max((s.timestamp for s in unit.sessions), default=None)
            for question in unit.questions:
                yield unit, memory, question, question.asked_at or last_session


@contextmanager
def _in_memory() -> Iterator[str]:
    yield ":memory:"


def _system(name: str) -> tuple[SearchMode, str]:
    mode, _, preset = name.partition(":")
    return SearchMode(mode), preset or "default"


class _QueryMemo:
    """Wraps the embedder so that every system reuses the question's vector (the bench times it once, apart)."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self._last: tuple[str, Vectors] | None = None

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def dim(self) -> int:
        return self.inner.dim

    def remember(self, text: str) -> None:
        self._last = (text, embed_queries(self.inner, [text]))

    def embed(self, texts: Sequence[str]) -> Vectors:
        return self.inner.embed(texts)

    def embed_queries(self, texts: Sequence[str]) -> Vectors:
        if self._last is not None and len(texts) == 1 and texts[0] == self._last[0]:
            return self._last[1]
        return embed_queries(self.inner, texts)
