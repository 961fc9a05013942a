"""``sodamem bench perf --db-backend postgres``: the same corpus on the SQLite store and on PostgreSQL, one run.

For each size (LoCoMo dev replayed, as ``bench perf`` builds it), on each backend:

* ingest into a fresh store (an SQLite file in the work folder; a fresh database on the PostgreSQL server), without
  embeddings, or with the embedder at the ``embed_sizes`` (through the (model, text) vector cache, so the figure is
  the store's, not the model's: replayed and cached texts are not embedded again);
* search latency per mode in a spawned process (``bench/perf.py``'s ``search_child``: open, load the model, warm
  up, time every query);
* add latency: ``adds`` messages of sessions the store does not hold, added one at a time (``Memory.add``, with the
  store's embedder: their texts are LoCoMo's, so the vector cache answers and the time is the store's).

Then, once per backend on empty stores (``bench/parallel_adds.py``): 1 process adding ``parallel`` messages, and
``processes`` processes adding as many each at once, for one user and for a user each: throughput and its ratio to
one process's, messages lost or duplicated, errors.

Ratios are PostgreSQL's over SQLite's, same run, same corpus, same queries.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from sodamem.bench.live import split_messages
from sodamem.bench.parallel_adds import ParallelAdds, run_parallel_adds
from sodamem.bench.perf import (
    BENCH_USER,
    SearchJob,
    _fresh_db,
    _load_average,
    _machine,
    cycle_questions,
    latency_figures,
    load_locomo_dev,
    run_search_process,
)
from sodamem.bench.perf_types import WARMUP_QUERIES, LatencyFigures
from sodamem.embed.base import Embedder, embed_queries
from sodamem.embed.resolve import SETTING_KEY
from sodamem.memory import Memory
from sodamem.model import Message, Session

Progress = Callable[[str], None]
Databases = Callable[[], AbstractContextManager[str]]


@dataclass(frozen=True, slots=True)
class BackendFigures:
    backend: str
    turns: int
    ingest_seconds: float
    turns_per_s: float
    search: tuple[LatencyFigures, ...]
    add: LatencyFigures
    # PostgreSQL with vectors: the share of the exact scan's top ``k`` turns and pieces that dense search returned
    # (HNSW for users of EXACT_BELOW rows or more), over the timed queries; None where not measured.
    dense_recall: float | None = None

    def mode(self, mode: str) -> LatencyFigures | None:
        return next((f for f in self.search if f.mode == mode), None)


@dataclass(frozen=True, slots=True)
class BackendsSize:
    size: int
    embedded: bool
    figures: tuple[BackendFigures, ...]  # SQLite's, then PostgreSQL's


@dataclass(slots=True)
class BackendsReport:
    embedder: str | None
    queries: int
    adds: int
    k: int
    results: list[BackendsSize] = field(default_factory=list)
    parallel: list[tuple[str, ParallelAdds]] = field(default_factory=list)  # (backend, figures)
    seconds: float = 0.0
    machine: dict[str, str] = field(default_factory=dict)
    postgres_settings: dict[str, str] = field(default_factory=dict)  # the durability settings its connections saw

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def run_perf_backends(
    locomo_path: Path,
    sizes: Sequence[int],
    postgres_databases: Databases,
    *,
    workdir: Path,
    embedder: Embedder | None = None,
    spec: str | None = None,
    embed_sizes: Sequence[int] = (),
    queries: int = 200,
    adds: int = 100,
    k: int = 10,
    parallel: int = 0,
    processes: int = 4,
    progress: Progress | None = None,
) -> BackendsReport:
    """Measure each size on both stores. ``postgres_databases``: a factory of fresh databases (``with f() as url``,
    dropped afterwards; ``store/postgres/scratch.py``). ``embedder`` (with its ``spec``, which search processes
    load): used at ``embed_sizes``; the other sizes are lexical only."""
    say = progress or (lambda _message: None)
    began = time.perf_counter()
    workdir.mkdir(parents=True, exist_ok=True)
    dev = load_locomo_dev(locomo_path)
    report = BackendsReport(spec if embedder is not None else None, queries, adds, k, machine=_machine())
    timed = tuple(cycle_questions(dev.questions, queries))
    warmup = tuple(cycle_questions(dev.questions, WARMUP_QUERIES, offset=queries))
    for size in sorted(dict.fromkeys(sizes)):
        corpus, messages, session_ids = split_messages(dev.sessions, size, adds)
        embedded = embedder is not None and size in embed_sizes
        plan = _Plan(
            size, corpus, messages, session_ids, embedder if embedded else None, spec if embedded else None,
            ("bm25", "dense", "sodamem") if embedded else ("bm25",), timed, warmup, k, say,
        )  # fmt: skip
        db = _fresh_db(workdir / f"perf-backends-{size}.db")
        try:
            on_sqlite = _measure(plan, "sqlite", str(db))
        finally:
            _fresh_db(db)
        with postgres_databases() as url:
            on_postgres = _measure(plan, "postgres", url)
        report.results.append(BackendsSize(size, embedded, (on_sqlite, on_postgres)))
    if parallel > 0:
        for count, shared_user in ((1, True), (processes, True), (processes, False)):
            for backend in ("sqlite", "postgres"):
                say(f"{count} process(es) adding {parallel} messages each on {backend} (shared user: {shared_user})")
                if backend == "sqlite":
                    db = _fresh_db(workdir / "parallel-adds.db")
                    try:
                        figures = run_parallel_adds(str(db), count, parallel, shared_user=shared_user)
                    finally:
                        _fresh_db(db)
                else:
                    with postgres_databases() as url:
                        figures = run_parallel_adds(url, count, parallel, shared_user=shared_user)
                say(f"  {figures.adds_per_s:.1f} adds/s, lost {figures.lost}, duplicated {figures.duplicated},"
                    f" errors {figures.errors}")  # fmt: skip
                report.parallel.append((backend, figures))
    report.seconds = time.perf_counter() - began
    report.machine["load_after"] = _load_average()
    return report


@dataclass(frozen=True, slots=True)
class _Plan:
    size: int
    corpus: list[Session]
    messages: list[Message]
    session_ids: list[str]
    model: Embedder | None
    spec: str | None
    modes: tuple[str, ...]
    timed: tuple[str, ...]
    warmup: tuple[str, ...]
    k: int
    say: Progress


def _measure(plan: _Plan, backend: str, location: str) -> BackendFigures:
    """Ingest into the empty store at ``location``, time the searches in a spawned process, then the adds."""
    say, size, model = plan.say, plan.size, plan.model
    embedder: Embedder | str = model if model is not None else "none"
    say(f"{size:,} turns on {backend}: ingest ({'with ' + str(plan.spec) if model else 'no embeddings'})")
    with Memory(location, user=BENCH_USER, embedder=embedder) as memory:
        start = time.perf_counter()
        memory.ingest(plan.corpus)
        seconds = time.perf_counter() - start
        if plan.spec is not None:
            memory.store.set_setting(SETTING_KEY, plan.spec)
    say(f"{size:,} turns on {backend}: ingest {seconds:.1f} s; search ({', '.join(plan.modes)}) x {len(plan.timed)}")
    child = run_search_process(SearchJob(location, plan.spec, plan.modes, plan.timed, plan.warmup, plan.k))
    search = tuple(latency_figures(m, child["latencies_ms"][m]) for m in plan.modes)
    say(f"{size:,} turns on {backend}: " + ", ".join(f"{f.mode} p50 {f.p50_ms:.1f} ms" for f in search))
    took: list[float] = []
    with Memory(location, user=BENCH_USER, embedder=embedder) as memory:
        for message, session_id in zip(plan.messages, plan.session_ids, strict=True):
            t0 = time.perf_counter()
            memory.add(message, session_id=session_id)
            took.append((time.perf_counter() - t0) * 1000)
    add = latency_figures("add", took)
    say(f"{size:,} turns on {backend}: add p50 {add.p50_ms:.1f} ms, p95 {add.p95_ms:.1f} ms")
    recall = None
    if backend == "postgres" and model is not None:
        recall = dense_recall(location, model, plan.timed, plan.k)
        say(f"{size:,} turns on {backend}: dense recall@{plan.k} against the exact scan {recall:.3f}")
    return BackendFigures(backend, size, seconds, size / seconds if seconds > 0 else 0.0, search, add, recall)


def dense_recall(location: str, model: Embedder, questions: Sequence[str], k: int) -> float:
    """The share of the exact scan's ``k`` nearest turns and pieces that ``PgVectorSearch.search`` returns."""
    from sodamem.store.postgres.vectors import PgVectorSearch

    found = wanted = 0
    with Memory(location, user=BENCH_USER, embedder=model) as memory:
        index = memory.searcher.index
        if not isinstance(index, PgVectorSearch):
            raise TypeError(f"not a PostgreSQL memory: {type(index).__name__}")
        vectors = np.asarray(embed_queries(model, list(questions)), dtype=np.float32)
        for vector in vectors:
            for table in ("turns", "pieces"):
                exact = {pk for pk, _ in index.search_exact(BENCH_USER, table, vector, k)}
                found += len(exact & {pk for pk, _ in index.search(BENCH_USER, table, vector, k)})
                wanted += len(exact)
    return found / wanted if wanted else float("nan")


def render_backends_markdown(report: BackendsReport) -> str:
    """Per size and operation: p50 / p95 on each store and PostgreSQL's p50 over SQLite's."""
    out = [
        "# SodaMem performance: SQLite and PostgreSQL side by side",
        "",
        f"LoCoMo dev replayed to each size; embedder: {report.embedder or 'none'} (at the sizes marked so);"
        f" {report.queries} queries per mode (k={report.k}), {report.adds} adds. Load average"
        f" {report.machine.get('load_before', '?')} before, {report.machine.get('load_after', '?')} after;"
        f" {report.machine.get('cpus', '?')} CPUs; {report.seconds:.0f} s in all.",
        *_durability(report.postgres_settings),
        *(
            [f"Disk flush (an 8 kB write and fdatasync in the work folder), p50: {report.machine['flush_ms']} ms."]
            if "flush_ms" in report.machine
            else []
        ),
        "",
        "| turns | operation | SQLite p50 / p95 ms | PostgreSQL p50 / p95 ms | p50 ratio |",
        "|---:|---|---:|---:|---:|",
    ]
    for result in report.results:
        sqlite, postgres = result.figures
        label = f"{result.size:,}" + (" (vectors)" if result.embedded else "")
        out.append(
            f"| {label} | ingest | {sqlite.ingest_seconds:.1f} s ({sqlite.turns_per_s:,.0f} turns/s) |"
            f" {postgres.ingest_seconds:.1f} s ({postgres.turns_per_s:,.0f} turns/s) |"
            f" {_ratio(postgres.ingest_seconds, sqlite.ingest_seconds)} |"
        )
        pairs = [(f, postgres.mode(f.mode)) for f in sqlite.search] + [(sqlite.add, postgres.add)]
        for a, b in pairs:
            if b is None:
                continue
            name = "add" if a.mode == "add" else f"search {a.mode}"
            out.append(
                f"| {label} | {name} | {a.p50_ms:.1f} / {a.p95_ms:.1f} | {b.p50_ms:.1f} / {b.p95_ms:.1f} |"
                f" {_ratio(b.p50_ms, a.p50_ms)} |"
            )
        if postgres.dense_recall is not None:
            out.append(
                f"| {label} | dense recall@{report.k} vs exact (turns, pieces) | 1 (exact) |"
                f" {postgres.dense_recall:.3f} | |"
            )
    if report.parallel:
        out += [
            "",
            "Processes adding at once to one empty memory (no embedder), against one process on the same store:",
            "",
            "| store | processes | users | adds/s | ratio to 1 process | lost | duplicated | errors |",
            "|---|---:|---|---:|---:|---:|---:|---:|",
        ]
        single = {b: f.adds_per_s for b, f in report.parallel if f.processes == 1}
        for backend, f in report.parallel:
            users = "one" if f.shared_user or f.processes == 1 else "one each"
            out.append(
                f"| {backend} | {f.processes} | {users} | {f.adds_per_s:.1f} | {_ratio(f.adds_per_s, single[backend])}"
                f" | {f.lost} | {f.duplicated} | {f.errors} |"
            )
    return "\n".join(out) + "\n"


def _durability(settings: dict[str, str]) -> list[str]:
    """The line that says how each store's commits reach the disk (the PostgreSQL side's settings as read)."""
    if not settings:
        return []
    named = ", ".join(f"{name} = {value}" for name, value in settings.items())
    waits = settings.get("synchronous_commit", "on") != "off"
    return [
        "",
        "Durability: SQLite in WAL mode with synchronous = NORMAL (a commit does not wait for the disk; a power cut"
        f" may lose the newest commits); PostgreSQL with {named} ("
        + (
            "each commit waits for its WAL to reach the disk)."
            if waits
            else "a commit does not wait for the disk;"
            " a crash of the server or the machine may lose the newest commits)."
        ),
    ]


def _ratio(value: float, base: float) -> str:
    return f"{value / base:.2f}x" if base > 0 else "-"
