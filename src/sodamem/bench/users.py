"""``sodamem bench users``: what per-user full-text indexes cost as the users of one file grow.

For each count: that many users each add a first message (which creates their indexes) and a second one, into one
fresh file; then the file is opened again and searched for one user, a few times. No embedder, rules extractor.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from sodamem.bench.sqlite_only import sqlite_store
from sodamem.memory import Memory

OPENS = 5


@dataclass(frozen=True, slots=True)
class UsersFigures:
    users: int
    first_add_ms: float  # mean: the user's first write, its indexes created
    later_add_ms: float  # mean: the user's second write
    open_and_search_ms: float  # median: open the file, one BM25 search of one user, close
    file_mb: float

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def measure_users(counts: Sequence[int]) -> list[UsersFigures]:
    out = []
    with tempfile.TemporaryDirectory() as scratch:
        for count in counts:
            path = Path(scratch) / f"users{count}.db"
            with Memory(path, embedder="none") as memory:
                first = _mean_ms(memory, count, "I live in Leeds and I love tea.")
                later = _mean_ms(memory, count, "I moved to York.")
                sqlite_store(memory).truncate_wal()
            opens = []
            for _ in range(OPENS):
                began = time.perf_counter()
                with Memory(path, embedder="none") as memory:
                    memory.search("Leeds", mode="bm25", user="u0")
                opens.append((time.perf_counter() - began) * 1000)
            out.append(UsersFigures(count, first, later, statistics.median(opens), path.stat().st_size / 1e6))
    return out


def _mean_ms(memory: Memory, count: int, text: str) -> float:
    began = time.perf_counter()
    for i in range(count):
        memory.add(text, session_id="s", user=f"u{i}")
    return (time.perf_counter() - began) * 1000 / count


def render_users_markdown(figures: Sequence[UsersFigures]) -> str:
    lines = [
        "| users | first add ms (indexes created) | later add ms | open + one search ms | file MB |",
        "|---:|---:|---:|---:|---:|",
    ]
    lines += [
        f"| {f.users:,} | {f.first_add_ms:.1f} | {f.later_add_ms:.1f} | {f.open_and_search_ms:.1f} | {f.file_mb:.1f} |"
        for f in figures
    ]
    return "\n".join(lines) + "\n"
