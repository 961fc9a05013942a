"""What keeping the vector index up to date costs after an ingest: appending the new rows against a rebuild.

A long-running agent ingests a session, then searches, again and again. ``measure_append`` builds a corpus of
``size`` turns (the LoCoMo dev split replayed), ingests all but its last session, builds the piece and turn
matrices, ingests the last session, and times bringing the same index up to date (an append) against building a
fresh index over the same store (a rebuild). The answer is the same matrix either way (``tests/test_vectors.py``).
"""

from __future__ import annotations

import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from sodamem.bench.perf import BENCH_USER, build_corpus, load_locomo_dev
from sodamem.bench.sqlite_only import sqlite_index, sqlite_store
from sodamem.memory import Memory
from sodamem.store.vectors import VectorIndex

TABLES = ("turns", "pieces")


@dataclass(frozen=True, slots=True)
class AppendTiming:
    table: str
    rows_before: int
    rows_after: int
    append_ms: float
    rebuild_ms: float

    @property
    def ratio(self) -> float:
        return self.rebuild_ms / self.append_ms if self.append_ms > 0 else float("inf")


def measure_append(data: Path, size: int, embedder: str = "fake") -> list[AppendTiming]:
    sessions = build_corpus(load_locomo_dev(data).sessions, size)
    with (
        tempfile.TemporaryDirectory() as scratch,
        Memory(Path(scratch) / "append.db", embedder=embedder, extractor="none") as memory,
    ):
        memory.ingest(sessions[:-1])
        index = sqlite_index(memory)
        before = {table: len(index.quantized(BENCH_USER, table).ids) for table in TABLES}
        memory.ingest(sessions[-1:])
        timings = []
        for table in TABLES:
            t0 = time.perf_counter()
            after = index.quantized(BENCH_USER, table)
            append_ms = (time.perf_counter() - t0) * 1000
            fresh = VectorIndex(sqlite_store(memory), index.model, index.dim)
            t0 = time.perf_counter()
            fresh.quantized(BENCH_USER, table)
            rebuild_ms = (time.perf_counter() - t0) * 1000
            timings.append(AppendTiming(table, before[table], len(after.ids), append_ms, rebuild_ms))
    return timings


def render_append_markdown(timings: list[AppendTiming], size: int, embedder: str) -> str:
    lines = [
        f"## Vector index after one more session: append vs rebuild ({size:,} turns, embedder {embedder})",
        "",
        "| table | rows before | rows after | append ms | rebuild ms | rebuild / append |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for t in timings:
        rows = f"{t.rows_before:,} | {t.rows_after:,}"
        lines.append(f"| {t.table} | {rows} | {t.append_ms:.1f} | {t.rebuild_ms:.1f} | {t.ratio:.0f}x |")
    return "\n".join(lines) + "\n"
