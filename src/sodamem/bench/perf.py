"""Performance bench: ingest throughput, search latency, peak memory and database size as the history grows.

The corpus is the LoCoMo dev conversations replayed under fresh session ids (``<session_id>#r<N>``) until it holds
exactly ``size`` turns, all in one user namespace. For each size:

* ingest without embeddings into a fresh SQLite file (turns/s, pieces/s, database MB per 1,000 turns);
* ingest with the embedder into a second fresh file (rates include embedding time). Vectors are cached by
  (model, text hash), so replayed texts are cache hits: only the distinct texts reach the model, and both counts
  are reported;
* search latency over LoCoMo questions, per mode, in a separate process (``multiprocessing`` spawn) that opens
  the database, loads the model, warms up and times the queries, and reports its own peak RSS.

Absolute times drift between machines and runs; compare the same-run ratios (latency at a size divided by the
latency at the smallest size).
"""

from __future__ import annotations

import json
import multiprocessing
import os
import platform
import resource
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from sodamem.bench.contention import busy_core
from sodamem.bench.perf_types import (
    WARMUP_QUERIES,
    EmbeddingThroughput,
    EmbedIngestFigures,
    IngestFigures,
    LatencyFigures,
    LatencyRatio,
    PerfReport,
    SearchFigures,
    SizeResult,
)
from sodamem.bench.sqlite_only import sqlite_store
from sodamem.embed import DEFAULT_EMBEDDER, load_embedder
from sodamem.embed.base import Embedder
from sodamem.embed.resolve import SETTING_KEY
from sodamem.ingest.formats.locomo import parse_locomo_conversation
from sodamem.ingest.pieces import split_pieces
from sodamem.memory import Memory
from sodamem.model import Session
from sodamem.store.sqlite import piece_embedding_text

DEFAULT_SIZES: tuple[int, ...] = (1_000, 10_000, 100_000)
BENCH_USER = "bench"
EMBED_THROUGHPUT_TEXTS = 1_000

Progress = Callable[[str], None]


@dataclass(frozen=True, slots=True)
class LocomoDev:
    sessions: tuple[Session, ...]
    questions: tuple[str, ...]


def load_locomo_dev(path: Path) -> LocomoDev:
    """The sessions (in file order) and the questions of a LoCoMo file."""
    items = json.loads(Path(path).read_text(encoding="utf-8"))
    if not isinstance(items, list):
        raise ValueError(f"{path}: expected a JSON list of LoCoMo samples")
    sessions: list[Session] = []
    questions: list[str] = []
    for item in items:
        if not isinstance(item, dict):
            continue
        sessions.extend(parse_locomo_conversation(str(item["sample_id"]), item.get("conversation")))
        for qa in item.get("qa") or []:
            question = qa.get("question") if isinstance(qa, dict) else None
            if isinstance(question, str) and question.strip():
                questions.append(question)
    if not sessions:
        raise ValueError(f"{path}: no sessions")
    if not questions:
        raise ValueError(f"{path}: no questions")
    return LocomoDev(tuple(sessions), tuple(questions))


def build_corpus(sessions: Sequence[Session], size: int, user: str = BENCH_USER) -> list[Session]:
    """Replay ``sessions`` as ``<session_id>#r<N>`` (N = 0, 1, ...) until exactly ``size`` turns.

    The last session is cut short when needed; turn ids stay as they are (unique within each session).
    """
    if size < 1:
        raise ValueError(f"size must be at least 1, got {size}")
    if not any(s.turns for s in sessions):
        raise ValueError("no turns to replay")
    out: list[Session] = []
    remaining = size
    replay = 0
    while remaining > 0:
        for session in sessions:
            if remaining <= 0:
                break
            if not session.turns:
                continue
            turns = session.turns[:remaining]
            out.append(replace(session, session_id=f"{session.session_id}#r{replay}", turns=turns, user=user))
            remaining -= len(turns)
        replay += 1
    return out


def cycle_questions(questions: Sequence[str], count: int, offset: int = 0) -> list[str]:
    return [questions[(offset + i) % len(questions)] for i in range(count)]


# -- measurements -------------------------------------------------------------------------------------------------


def peak_rss_mb() -> float:
    """This process's peak resident set size in MB (ru_maxrss is KB on Linux, bytes on macOS)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def own_peak_rss_mb() -> tuple[float, str]:
    """This process image's own peak RSS in MB, and where it was read.

    On Linux a spawned child's ``ru_maxrss`` starts at its parent's peak (the high-water mark survives fork and
    exec), so a child of a bench process that has loaded the model reports the parent's figure. ``VmHWM`` in
    ``/proc/self/status`` is reset by exec: it is the child's own. Elsewhere, fall back to ``ru_maxrss``.
    """
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024, "VmHWM"
    except (OSError, ValueError, IndexError):
        pass
    return peak_rss_mb(), "ru_maxrss"


def current_rss_mb() -> float:
    """This process's resident size now in MB (``VmRSS``), 0.0 where /proc is not available."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0.0


def checkpointed_db_mb(memory: Memory) -> float:
    """Size of the database file plus its -wal after ``PRAGMA wal_checkpoint(TRUNCATE)``, in MB."""
    store = sqlite_store(memory)
    store.truncate_wal()
    path = Path(store.path)
    total = sum(p.stat().st_size for p in (path, path.with_name(path.name + "-wal")) if p.exists())
    return total / (1024 * 1024)


def latency_figures(mode: str, latencies_ms: Sequence[float]) -> LatencyFigures:
    if not latencies_ms:
        raise ValueError("no latencies")
    values = np.asarray(latencies_ms, dtype=np.float64)
    return LatencyFigures(
        mode=mode,
        queries=len(values),
        p50_ms=float(np.percentile(values, 50)),
        p95_ms=float(np.percentile(values, 95)),
        mean_ms=float(values.mean()),
        max_ms=float(values.max()),
    )


def _rate(count: int, seconds: float) -> float:
    return count / seconds if seconds > 0 else float("inf")


def _fresh_db(path: Path) -> Path:
    for p in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        p.unlink(missing_ok=True)
    return path


def _ingest_lexical(corpus: Sequence[Session], db: Path) -> IngestFigures:
    with Memory(_fresh_db(db), user=BENCH_USER, embedder="none") as memory:
        start = time.perf_counter()
        report = memory.ingest(corpus)
        seconds = time.perf_counter() - start
        db_mb = checkpointed_db_mb(memory)
    turns = report.turns_added
    return IngestFigures(
        turns=turns,
        pieces=report.pieces_added,
        sessions=report.sessions_added,
        seconds=seconds,
        turns_per_s=_rate(turns, seconds),
        pieces_per_s=_rate(report.pieces_added, seconds),
        db_mb=db_mb,
        db_mb_per_1k_turns=db_mb * 1000 / turns,
    )


def _ingest_embedded(corpus: Sequence[Session], db: Path, embedder: Embedder, spec: str) -> EmbedIngestFigures:
    with Memory(_fresh_db(db), user=BENCH_USER, embedder=embedder) as memory:
        embed_started: list[float] = []

        def on_embed(done: int, total: int) -> None:
            if not embed_started:
                embed_started.append(time.perf_counter())

        start = time.perf_counter()
        report = memory.ingest(corpus, embed_progress=on_embed)
        end = time.perf_counter()
        memory.store.set_setting(SETTING_KEY, spec)  # so later opens pick the same model (an object records none)
        db_mb = checkpointed_db_mb(memory)
    split = embed_started[0] if embed_started else end
    seconds, write_seconds, embed_seconds = end - start, split - start, end - split
    turns, pieces = report.turns_added, report.pieces_added
    return EmbedIngestFigures(
        turns=turns,
        pieces=pieces,
        seconds=seconds,
        write_seconds=write_seconds,
        embed_seconds=embed_seconds,
        turns_per_s=_rate(turns, seconds),
        pieces_per_s=_rate(pieces, seconds),
        texts_total=turns + pieces,
        texts_embedded=report.embedded,
        texts_embedded_per_s=_rate(report.embedded, embed_seconds),
        texts_per_s=_rate(turns + pieces, embed_seconds),
        db_mb=db_mb,
        db_mb_per_1k_turns=db_mb * 1000 / turns,
    )


def embedding_throughput(
    embedder: Embedder, sessions: Sequence[Session], texts: int = EMBED_THROUGHPUT_TEXTS
) -> EmbeddingThroughput:
    """Texts/s of a warmed-up model on the first ``texts`` distinct pieces of ``sessions``."""
    chosen = list(dict.fromkeys(_piece_texts(sessions)))[:texts]
    embedder.embed(["warm up the model"])
    start = time.perf_counter()
    embedder.embed(chosen)
    seconds = time.perf_counter() - start
    return EmbeddingThroughput(embedder.name, len(chosen), seconds, _rate(len(chosen), seconds))


def _piece_texts(sessions: Sequence[Session]) -> Iterator[str]:
    for session in sessions:
        for turn in session.turns:
            for piece in split_pieces(turn.text):
                yield piece_embedding_text(turn.speaker, piece.text)


# -- the search phase, in a spawned process -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SearchJob:
    db: str
    embedder: str | None  # spec; None: lexical only
    modes: tuple[str, ...]
    questions: tuple[str, ...]
    warmup: tuple[str, ...]
    k: int


def search_child(job: SearchJob) -> dict[str, Any]:
    """Open the database, load the model, warm up, time every query per mode; report this process's peak RSS.

    Top level so that a spawned process can import it.
    """
    with Memory(job.db, user=BENCH_USER, embedder=job.embedder or "none") as memory:
        start = time.perf_counter()
        if memory.embedder is not None:
            memory.embedder.embed(["load the model"])
        model_load = time.perf_counter() - start
        rss_after_model = current_rss_mb()
        latencies: dict[str, list[float]] = {}
        for mode in job.modes:
            for question in job.warmup:
                memory.search(question, k=job.k, mode=mode)
            timings = latencies.setdefault(mode, [])
            for question in job.questions:
                t0 = time.perf_counter()
                memory.search(question, k=job.k, mode=mode)
                timings.append((time.perf_counter() - t0) * 1000)
    peak, source = own_peak_rss_mb()
    return {
        "latencies_ms": latencies,
        "peak_rss_mb": peak,
        "peak_rss_source": source,
        "ru_maxrss_mb": peak_rss_mb(),
        "model_load_seconds": model_load,
        "rss_after_model_mb": rss_after_model,
    }


def run_search_process(job: SearchJob) -> dict[str, Any]:
    """Run :func:`search_child` in a fresh spawned interpreter (a clean per-size memory figure, see
    :func:`own_peak_rss_mb`)."""
    context = multiprocessing.get_context("spawn")
    with context.Pool(1) as pool:
        result: dict[str, Any] = pool.apply(search_child, (job,))
        pool.close()  # let the child exit on its own: a terminated one leaks the model's semaphores
        pool.join()
    return result


# -- the bench ----------------------------------------------------------------------------------------------------


def run_perf(
    locomo_path: Path,
    sizes: Sequence[int] = DEFAULT_SIZES,
    embedder: str | None = DEFAULT_EMBEDDER,
    queries: int = 200,
    *,
    workdir: Path,
    embed_sizes: Sequence[int] | None = None,
    k: int = 10,
    progress: Progress | None = None,
    keep_databases: bool = False,
    contended: bool = True,
) -> PerfReport:
    """Measure ingest, search latency, peak RSS and database size at each corpus size (in turns).

    ``embedder``: a spec (``minilm``, ``minilm-int8``, ``fake``) or None for lexical only. ``embed_sizes``: the
    sizes that also get the embedding-inclusive ingest and the dense/fused search (default: every size); the others
    are searched with BM25 only. Databases go to ``workdir`` and are deleted unless ``keep_databases``.
    ``contended``: also time each search phase while another process keeps one core busy.
    """
    if queries < 1:
        raise ValueError(f"queries must be at least 1, got {queries}")
    ordered = sorted(dict.fromkeys(sizes))
    if not ordered or ordered[0] < 1:
        raise ValueError(f"sizes must be positive, got {list(sizes)}")
    with_vectors = set(ordered if embed_sizes is None else embed_sizes) if embedder is not None else set()
    say = progress or (lambda _message: None)
    began = time.perf_counter()
    workdir.mkdir(parents=True, exist_ok=True)
    dev = load_locomo_dev(locomo_path)
    model: Embedder | None = load_embedder(embedder) if embedder is not None else None
    report = PerfReport(
        locomo_path=str(locomo_path),
        embedder=embedder,
        embedder_name=model.name if model is not None else None,
        queries=queries,
        k=k,
        sizes=ordered,
        embed_sizes=sorted(s for s in ordered if s in with_vectors),
        corpus_turns=sum(len(s.turns) for s in dev.sessions),
        corpus_sessions=len(dev.sessions),
        machine=_machine(),
    )
    if model is not None:
        say(f"embedding throughput ({embedder}): loading the model")
        report.embedding = embedding_throughput(model, dev.sessions)
        say(f"embedding throughput: {report.embedding.texts_per_s:,.0f} texts/s on {report.embedding.texts} pieces")
    timed = tuple(cycle_questions(dev.questions, queries))
    warmup = tuple(cycle_questions(dev.questions, WARMUP_QUERIES, offset=queries))
    for size in ordered:
        lexical_db = workdir / f"perf-{size}-lexical.db"
        embedded_db = workdir / f"perf-{size}-{embedder}.db"
        try:
            vectors = model if size in with_vectors else None
            report.results.append(
                _measure_size(size, dev, lexical_db, embedded_db, embedder, vectors, timed, warmup, k, say, contended)
            )
        finally:
            if not keep_databases:
                for db in (lexical_db, embedded_db):
                    _fresh_db(db)
    report.latency_ratios = latency_ratios(report.results)
    report.seconds = time.perf_counter() - began
    report.machine["load_after"] = _load_average()
    return report


def _measure_size(
    size: int,
    dev: LocomoDev,
    lexical_db: Path,
    embedded_db: Path,
    spec: str | None,
    model: Embedder | None,
    timed: tuple[str, ...],
    warmup: tuple[str, ...],
    k: int,
    say: Progress,
    contended: bool = True,
) -> SizeResult:
    corpus = build_corpus(dev.sessions, size)
    say(f"{size:,} turns: ingest without embeddings ({len(corpus):,} sessions)")
    ingest = _ingest_lexical(corpus, lexical_db)
    say(f"{size:,} turns: {ingest.turns_per_s:,.0f} turns/s in {ingest.seconds:.1f} s")
    embed_ingest: EmbedIngestFigures | None = None
    if model is not None and spec is not None:
        say(f"{size:,} turns: ingest with {spec}")
        embed_ingest = _ingest_embedded(corpus, embedded_db, model, spec)
        say(
            f"{size:,} turns: {embed_ingest.turns_per_s:,.0f} turns/s with embeddings in "
            f"{embed_ingest.seconds:.1f} s ({embed_ingest.texts_embedded:,} distinct texts embedded)"
        )
    if embed_ingest is not None:
        job = SearchJob(str(embedded_db), spec, ("bm25", "sodamem"), timed, warmup, k)
    else:
        job = SearchJob(str(lexical_db), None, ("bm25",), timed, warmup, k)
    say(f"{size:,} turns: search ({', '.join(job.modes)}) x {len(timed)} in a spawned process")
    search = _search_figures(job, "embedded" if embed_ingest is not None else "lexical")
    for figures in search.latency:
        say(f"{size:,} turns: {figures.mode} p50 {figures.p50_ms:.2f} ms, p95 {figures.p95_ms:.2f} ms")
    busy: SearchFigures | None = None
    if contended:
        say(f"{size:,} turns: the same searches with one core kept busy by another process")
        with busy_core():
            busy = _search_figures(job, search.database)
        for figures in busy.latency:
            say(
                f"{size:,} turns, one core busy: {figures.mode} "
                f"p50 {figures.p50_ms:.2f} ms, p95 {figures.p95_ms:.2f} ms"
            )
    return SizeResult(size, ingest, embed_ingest, search, peak_rss_mb(), busy)


def _search_figures(job: SearchJob, database: str) -> SearchFigures:
    child = run_search_process(job)
    return SearchFigures(
        database=database,
        k=job.k,
        latency=tuple(latency_figures(m, child["latencies_ms"][m]) for m in job.modes),
        peak_rss_mb=float(child["peak_rss_mb"]),
        peak_rss_source=str(child["peak_rss_source"]),
        ru_maxrss_mb=float(child["ru_maxrss_mb"]),
        model_load_seconds=float(child["model_load_seconds"]),
        rss_after_model_mb=float(child["rss_after_model_mb"]),
    )


def latency_ratios(results: Sequence[SizeResult]) -> list[LatencyRatio]:
    """Per mode: each size's latency over the smallest size's that has the mode."""
    ratios: list[LatencyRatio] = []
    base: dict[str, LatencyFigures] = {}
    for result in sorted(results, key=lambda r: r.size):
        for figures in result.search.latency:
            first = base.setdefault(figures.mode, figures)
            ratios.append(
                LatencyRatio(
                    size=result.size,
                    mode=figures.mode,
                    p50=_ratio(figures.p50_ms, first.p50_ms),
                    p95=_ratio(figures.p95_ms, first.p95_ms),
                    mean=_ratio(figures.mean_ms, first.mean_ms),
                )
            )
    return ratios


def _ratio(value: float, base: float) -> float:
    return value / base if base > 0 else float("nan")


def _machine() -> dict[str, str]:
    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "cpus": str(os.cpu_count() or 0),
        "load_before": _load_average(),
    }


def _load_average() -> str:
    """The 1-minute load average: timings taken while other work competes for the CPUs are not comparable."""
    try:
        return f"{os.getloadavg()[0]:.2f}"
    except OSError:  # pragma: no cover - not on every platform
        return "?"


# -- output -------------------------------------------------------------------------------------------------------
