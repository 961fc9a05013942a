"""The figures of the performance bench (plain dataclasses; ``PerfReport.to_dict()`` is JSON-safe)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

WARMUP_QUERIES = 5  # queries run before timing starts

# -- report types -------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class IngestFigures:
    """Ingest without embeddings: splitting into pieces, FTS indexing, SQLite writes."""

    turns: int
    pieces: int
    sessions: int
    seconds: float
    turns_per_s: float
    pieces_per_s: float
    db_mb: float  # database + -wal after a truncating checkpoint
    db_mb_per_1k_turns: float


@dataclass(frozen=True, slots=True)
class EmbedIngestFigures:
    """Ingest with the embedder; rates include the embedding time.

    ``texts_total`` counts every turn and piece text that got a vector (replays included); ``texts_embedded`` only
    the distinct texts the model actually ran on (the rest were (model, text hash) cache hits).
    """

    turns: int
    pieces: int
    seconds: float  # write + embed
    write_seconds: float
    embed_seconds: float
    turns_per_s: float
    pieces_per_s: float
    texts_total: int
    texts_embedded: int
    texts_embedded_per_s: float  # distinct texts through the model per embedding second
    texts_per_s: float  # texts_total per embedding second (cache hits included)
    db_mb: float
    db_mb_per_1k_turns: float


@dataclass(frozen=True, slots=True)
class LatencyFigures:
    mode: str
    queries: int
    p50_ms: float
    p95_ms: float
    mean_ms: float
    max_ms: float


@dataclass(frozen=True, slots=True)
class SearchFigures:
    """The search phase of one size, measured in its own (spawned) process."""

    database: str  # "embedded" or "lexical": which of the size's databases was searched
    k: int
    latency: tuple[LatencyFigures, ...]
    peak_rss_mb: float  # the search process's own peak (interpreter + model + index + queries)
    peak_rss_source: str  # "VmHWM" (Linux: the process's own) or "ru_maxrss"
    ru_maxrss_mb: float  # the child's ru_maxrss as is: on Linux at least the bench process's peak at spawn time
    model_load_seconds: float
    # The process's resident size once the database is open and the model loaded, before any search: what the
    # interpreter and the model cost; the peak above it is the vector index, the caches and the queries.
    rss_after_model_mb: float = 0.0

    def mode(self, mode: str) -> LatencyFigures | None:
        return next((f for f in self.latency if f.mode == mode), None)


@dataclass(frozen=True, slots=True)
class SizeResult:
    size: int
    ingest: IngestFigures
    embed_ingest: EmbedIngestFigures | None
    search: SearchFigures
    process_peak_rss_mb: float  # the bench process's peak so far (monotone across sizes)
    # The same search phase again while another process keeps one core busy (contention.py); None: not measured.
    contended: SearchFigures | None = None


@dataclass(frozen=True, slots=True)
class EmbeddingThroughput:
    """The loaded model on sentence-sized LoCoMo pieces (speaker-prefixed, as ingest embeds them)."""

    model: str
    texts: int
    seconds: float
    texts_per_s: float


@dataclass(frozen=True, slots=True)
class LatencyRatio:
    """Latency at ``size`` divided by latency at the smallest size, same run, same mode."""

    size: int
    mode: str
    p50: float
    p95: float
    mean: float


@dataclass(slots=True)
class PerfReport:
    locomo_path: str
    embedder: str | None  # the spec, e.g. "minilm"
    embedder_name: str | None  # the model name vectors are cached under
    queries: int
    k: int
    sizes: list[int]
    embed_sizes: list[int]
    results: list[SizeResult] = field(default_factory=list)
    embedding: EmbeddingThroughput | None = None
    latency_ratios: list[LatencyRatio] = field(default_factory=list)
    corpus_turns: int = 0  # turns in one pass over the dev conversations
    corpus_sessions: int = 0
    seconds: float = 0.0
    machine: dict[str, str] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


# -- corpus -------------------------------------------------------------------------------------------------------
