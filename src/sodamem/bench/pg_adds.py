"""The add at a large size, SQLite against PostgreSQL variants, interleaved (``sodamem bench pg-adds``).

``bench perf --db-backend postgres`` times one run of adds minutes after a fresh ingest, while the server still
checkpoints that ingest and autovacuum analyses it; on a shared machine its add ratio swings more from run to run
than any change moves it. This bench times only adds, on fresh copies of databases ingested once beforehand
(``--prepare``): each run copies the settled base (an SQLite file; a PostgreSQL database by file copy, then a
checkpoint, so that every page's first change is written whole to the WAL, as after any checkpoint), then adds the
bench's messages (those ``bench perf`` adds after its ingest, from ``--start``) one at a time in a fresh process
(``Memory.add``, no embedder) and times each. A round runs SQLite and every PostgreSQL variant once, in an order
rotated from round to round; each variant's ratio is to its round's SQLite run, and the summary gives the medians
over the rounds. A variant is a set of server settings every connection of its run uses (``store/postgres/scratch.py``,
``with_settings``): ``synchronous_commit=off`` (a commit returns before its WAL is on disk, as SQLite's commits in WAL
mode with ``synchronous = NORMAL`` do), ``wal_compression=pglz``. The WAL each PostgreSQL run wrote is read from the
server's insert position before and after.
"""

from __future__ import annotations

import multiprocessing
import os
import shutil
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from sodamem.bench.live import split_messages
from sodamem.bench.perf import BENCH_USER, latency_figures, load_locomo_dev
from sodamem.memory import Memory

Progress = Callable[[str], None]
SQLITE = "sqlite"
DURABILITY = ("synchronous_commit", "wal_compression", "full_page_writes", "fsync")


@dataclass(frozen=True, slots=True)
class Variant:
    """A PostgreSQL run's label and the server settings its connections use (none: the server's own)."""

    label: str
    settings: Mapping[str, str] = field(default_factory=dict)


def parse_variant(text: str) -> Variant:
    """``LABEL`` or ``LABEL:NAME=VALUE[,NAME=VALUE...]``."""
    label, _, rest = text.partition(":")
    if not label or label == SQLITE:
        raise ValueError(f"a variant needs a label other than {SQLITE!r}: {text!r}")
    settings: dict[str, str] = {}
    for item in filter(None, rest.split(",")):
        name, equals, value = item.partition("=")
        if not equals or not name:
            raise ValueError(f"a setting is NAME=VALUE: {item!r} in {text!r}")
        settings[name.strip()] = value.strip()
    return Variant(label, settings)


@dataclass(frozen=True, slots=True)
class AddRun:
    round: int
    label: str
    p50_ms: float
    mean_ms: float
    p95_ms: float
    wal_kb_per_add: float | None  # PostgreSQL runs
    settings: dict[str, str]  # the durability settings the run's connections saw (PostgreSQL runs)
    started: str
    flush_ms: float = 0.0  # p50 of an 8 kB write and fdatasync in the work folder, just before the run


@dataclass
class AddsReport:
    size: int
    adds: int
    start: int
    runs: list[AddRun] = field(default_factory=list)
    load: list[float] = field(default_factory=list)  # the 1-minute load average before and after

    def labels(self) -> list[str]:
        return list(dict.fromkeys(run.label for run in self.runs))

    def ratios(self, label: str) -> list[float]:
        """Each round's p50 of ``label`` over that round's SQLite p50."""
        base = {run.round: run.p50_ms for run in self.runs if run.label == SQLITE}
        return [run.p50_ms / base[run.round] for run in self.runs if run.label == label and run.round in base]

    def to_dict(self) -> dict[str, Any]:
        return {
            "size": self.size,
            "adds": self.adds,
            "start": self.start,
            "load": self.load,
            "runs": [asdict(r) for r in self.runs],
        }


def _time_adds(location: str, locomo_path: str, size: int, start: int, count: int) -> list[float]:
    """In a spawned process: the bench's messages ``start..start+count`` added to ``location``, each timed (ms)."""
    dev = load_locomo_dev(Path(locomo_path))
    _, messages, session_ids = split_messages(dev.sessions, size, start + count)
    took: list[float] = []
    with Memory(location, user=BENCH_USER, embedder="none") as memory:
        for message, session_id in list(zip(messages, session_ids, strict=True))[start:]:
            t0 = time.perf_counter()
            memory.add(message, session_id=session_id)
            took.append((time.perf_counter() - t0) * 1000)
    return took


def flush_probe(folder: Path, count: int = 40) -> float:
    """The p50 (ms) of an 8 kB ``pwrite`` then ``fdatasync`` in ``folder``: what a commit that waits for its WAL
    waits for, where the server's data lies on the same disk. On the shared virtual machine of docs/bench.md it
    swung between ~0.1 and ~4 ms from one quarter of an hour to the next."""
    path = folder / "flush-probe"
    took: list[float] = []
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        block = os.urandom(8192)
        for i in range(count):
            os.pwrite(fd, block, 8192 * (i % 64))
            t0 = time.perf_counter()
            os.fdatasync(fd)
            took.append((time.perf_counter() - t0) * 1000)
    finally:
        os.close(fd)
        path.unlink(missing_ok=True)
    return statistics.median(took)


def _in_child(location: str, locomo_path: Path, size: int, start: int, count: int) -> list[float]:
    context = multiprocessing.get_context("spawn")
    with context.Pool(1) as pool:
        took: list[float] = pool.apply(_time_adds, (location, str(locomo_path), size, start, count))
        pool.close()
        pool.join()
    return took


def prepare_bases(
    locomo_path: Path, size: int, url_of: Callable[[str], str], template: str, sqlite_base: Path, say: Progress
) -> None:
    """Ingest the bench's corpus of ``size`` turns (no embedder) into the SQLite file and the PostgreSQL database
    ``template`` where they are missing, and settle the database (``VACUUM ANALYZE``, a checkpoint)."""
    from sodamem.store.postgres.scratch import create_database, create_extension, database_exists, settle

    corpus, _, _ = split_messages(load_locomo_dev(locomo_path).sessions, size, 0)
    if not sqlite_base.exists():
        say(f"ingesting {size:,} turns into {sqlite_base}")
        with Memory(str(sqlite_base), user=BENCH_USER, embedder="none") as memory:
            memory.ingest(corpus)
    if not database_exists(url_of, template):
        say(f"ingesting {size:,} turns into the PostgreSQL database {template}")
        create_database(url_of, template)
        create_extension(url_of(template), "vector")
        with Memory(url_of(template), user=BENCH_USER, embedder="none") as memory:
            memory.ingest(corpus)
        settle(url_of(template))


def run_pg_adds(
    locomo_path: Path,
    url_of: Callable[[str], str],
    *,
    template: str,
    sqlite_base: Path,
    variants: Sequence[Variant],
    rounds: int,
    adds: int,
    start: int,
    size: int,
    workdir: Path,
    progress: Progress | None = None,
) -> AddsReport:
    """``rounds`` rounds of SQLite and each variant, ``adds`` timed adds a run, on fresh copies of the bases."""
    from sodamem.store.postgres.scratch import (
        copy_database,
        drop_database,
        server_settings,
        wal_position,
        with_settings,
    )

    say = progress or (lambda _message: None)
    workdir.mkdir(parents=True, exist_ok=True)
    report = AddsReport(size, adds, start, load=[os.getloadavg()[0]])
    order: list[Variant | None] = [None, *variants]  # None: SQLite
    copy_name = f"{template}_adds"
    copy_file = workdir / "pg-adds.db"
    try:
        for number in range(1, rounds + 1):
            shift = (number - 1) % len(order)
            for variant in order[shift:] + order[:shift]:
                began = time.strftime("%H:%M:%S")
                flush = flush_probe(workdir)
                if variant is None:
                    shutil.copyfile(sqlite_base, copy_file)
                    for suffix in ("-wal", "-shm"):
                        Path(f"{copy_file}{suffix}").unlink(missing_ok=True)
                    took = _in_child(str(copy_file), locomo_path, size, start, adds)
                    wal, seen, label = None, {"synchronous": "NORMAL (WAL mode)"}, SQLITE
                else:
                    copy_database(url_of, copy_name, template)
                    url = with_settings(url_of(copy_name), variant.settings)
                    seen = server_settings(url, DURABILITY)
                    before = wal_position(url)
                    took = _in_child(url, locomo_path, size, start, adds)
                    wal = (wal_position(url) - before) / 1024 / len(took)
                    label = variant.label
                figures = latency_figures("add", took)
                run = AddRun(number, label, figures.p50_ms, figures.mean_ms, figures.p95_ms, wal, seen, began, flush)
                report.runs.append(run)
                say(
                    f"round {number} {label}: p50 {run.p50_ms:.2f} ms, mean {run.mean_ms:.2f}, p95 {run.p95_ms:.2f}"
                    + (f", WAL {wal:.1f} KB/add" if wal is not None else "")
                    + f"; disk flush p50 {flush:.2f} ms"
                )
    finally:
        copy_file.unlink(missing_ok=True)
        drop_database(url_of, copy_name)
    report.load.append(os.getloadavg()[0])
    return report


def render_markdown(report: AddsReport) -> str:
    lines = [
        f"{report.adds} adds a run at {report.size:,} turns (messages {report.start}..{report.start + report.adds}"
        " of the bench's add sequence), medians over the rounds"
        + (f"; load average {report.load[0]:.2f} before, {report.load[-1]:.2f} after" if len(report.load) == 2 else "")
        + ":",
        "",
        "| variant | durability | runs | p50 ms, median (range) | mean ms, median | p95 ms, median |"
        " p50 ratio to SQLite, median (range) | WAL KB/add, median |"
        " disk flush p50 ms before the runs, median (range) |",
        "|---|---|---:|---|---:|---:|---|---:|---|",
    ]
    for label in report.labels():
        runs = [run for run in report.runs if run.label == label]
        p50s = [run.p50_ms for run in runs]
        flushes = [run.flush_ms for run in runs]
        ratios = report.ratios(label)
        wal = [run.wal_kb_per_add for run in runs if run.wal_kb_per_add is not None]
        settings = runs[0].settings
        durability = ", ".join(f"{k} {v}" for k, v in settings.items() if k in ("synchronous", *DURABILITY[:2]))
        if label == SQLITE:
            ratio = "1"
        elif ratios:
            ratio = f"{statistics.median(ratios):.2f}x ({min(ratios):.2f}-{max(ratios):.2f})"
        else:
            ratio = "-"
        lines.append(
            f"| {label} | {durability} | {len(runs)} | {statistics.median(p50s):.2f} ({min(p50s):.2f}-{max(p50s):.2f})"
            f" | {statistics.median(r.mean_ms for r in runs):.2f} | {statistics.median(r.p95_ms for r in runs):.2f}"
            f" | {ratio} | {f'{statistics.median(wal):.1f}' if wal else '-'}"
            f" | {statistics.median(flushes):.2f} ({min(flushes):.2f}-{max(flushes):.2f}) |"
        )
    lines += [
        "",
        "p50 ms by round (the disk flush p50 before each run in brackets):",
        "",
        "| round | " + " | ".join(report.labels()) + " |",
        "|---:|" + "---:|" * len(report.labels()),
    ]
    for number in sorted({run.round for run in report.runs}):
        by_label = {run.label: run for run in report.runs if run.round == number}
        cells = [
            f"{by_label[label].p50_ms:.2f} ({by_label[label].flush_ms:.2f})" if label in by_label else "-"
            for label in report.labels()
        ]
        lines.append(f"| {number} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
