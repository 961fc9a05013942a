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
server's insert position before and after. An SQLite variant (``--sqlite-variant full:synchronous=FULL``) is a further
SQLite run opened with another ``synchronous`` level (``Memory(..., sqlite_synchronous=...)``): with FULL each commit
syncs the WAL, as PostgreSQL's default does. Each PostgreSQL run is then also compared with the round's SQLite run of
equal durability: one whose commits wait for the disk (PostgreSQL's ``synchronous_commit`` on, SQLite FULL) or one
whose commits do not (``synchronous_commit`` off, SQLite NORMAL).
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
SQLITE = "sqlite"  # the reference run: SQLite as SodaMem opens it by default (synchronous NORMAL)
POSTGRES = "postgres"
DURABILITY = ("synchronous_commit", "wal_compression", "full_page_writes", "fsync")
SQLITE_SETTING = "synchronous"  # the one setting an SQLite variant names


@dataclass(frozen=True, slots=True)
class Variant:
    """A run's label and settings: a PostgreSQL run's server settings (none: the server's own), or an SQLite run's
    ``synchronous`` level (none: SodaMem's default)."""

    label: str
    settings: Mapping[str, str] = field(default_factory=dict)
    backend: str = POSTGRES


SQLITE_REFERENCE = Variant(SQLITE, {}, SQLITE)


def parse_variant(text: str) -> Variant:
    """A PostgreSQL variant: ``LABEL`` or ``LABEL:NAME=VALUE[,NAME=VALUE...]``."""
    label, settings = _label_and_settings(text)
    return Variant(label, settings)


def parse_sqlite_variant(text: str) -> Variant:
    """An SQLite variant: ``LABEL:synchronous=LEVEL`` (a level ``Memory``'s ``sqlite_synchronous`` takes)."""
    from sodamem.store.opening import sqlite_synchronous_level

    label, settings = _label_and_settings(text)
    if set(settings) != {SQLITE_SETTING}:
        raise ValueError(f"an SQLite variant names {SQLITE_SETTING}=LEVEL and nothing else: {text!r}")
    return Variant(label, {SQLITE_SETTING: sqlite_synchronous_level(settings[SQLITE_SETTING])}, SQLITE)


def _label_and_settings(text: str) -> tuple[str, dict[str, str]]:
    label, _, rest = text.partition(":")
    if not label or label == SQLITE:
        raise ValueError(f"a variant needs a label other than {SQLITE!r}: {text!r}")
    settings: dict[str, str] = {}
    for item in filter(None, rest.split(",")):
        name, equals, value = item.partition("=")
        if not equals or not name:
            raise ValueError(f"a setting is NAME=VALUE: {item!r} in {text!r}")
        settings[name.strip()] = value.strip()
    return label, settings


def commit_waits_for_disk(backend: str, settings: Mapping[str, str]) -> bool:
    """Whether a run's commits return only once their log is on disk (what "equal durability" pairs on)."""
    if backend == SQLITE:
        return settings.get(SQLITE_SETTING, "NORMAL").split()[0] in ("FULL", "EXTRA")
    return settings.get("synchronous_commit", "on") != "off" and settings.get("fsync", "on") == "on"


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
    backend: str = POSTGRES

    @property
    def waits_for_disk(self) -> bool:
        return commit_waits_for_disk(self.backend, self.settings)


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

    def equal_durability(self, label: str) -> tuple[str, list[float]] | None:
        """For a PostgreSQL variant: the SQLite run whose commits wait for the disk exactly when this variant's do
        (the first such label), and each round's p50 of ``label`` over that run's p50; None when no SQLite run of
        equal durability was measured."""
        runs = [run for run in self.runs if run.label == label]
        if not runs or runs[0].backend == SQLITE:
            return None
        waits = runs[0].waits_for_disk
        matching = [run for run in self.runs if run.backend == SQLITE and run.waits_for_disk == waits]
        if not matching:
            return None
        reference = matching[0].label
        base = {run.round: run.p50_ms for run in matching if run.label == reference}
        return reference, [run.p50_ms / base[run.round] for run in runs if run.round in base]

    def to_dict(self) -> dict[str, Any]:
        return {
            "size": self.size,
            "adds": self.adds,
            "start": self.start,
            "load": self.load,
            "runs": [{**asdict(r), "waits_for_disk": r.waits_for_disk} for r in self.runs],
        }


def _time_adds(
    location: str, locomo_path: str, size: int, start: int, count: int, sqlite_synchronous: str | None
) -> tuple[list[float], str | None]:
    """In a spawned process: the bench's messages ``start..start+count`` added to ``location``, each timed (ms),
    and, for an SQLite file, the ``synchronous`` level its connection ran with."""
    from sodamem.store.sqlite import SQLiteStore

    dev = load_locomo_dev(Path(locomo_path))
    _, messages, session_ids = split_messages(dev.sessions, size, start + count)
    took: list[float] = []
    with Memory(location, user=BENCH_USER, embedder="none", sqlite_synchronous=sqlite_synchronous) as memory:
        for message, session_id in list(zip(messages, session_ids, strict=True))[start:]:
            t0 = time.perf_counter()
            memory.add(message, session_id=session_id)
            took.append((time.perf_counter() - t0) * 1000)
        level = memory.store.synchronous if isinstance(memory.store, SQLiteStore) else None
    return took, level


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


def _in_child(
    location: str, locomo_path: Path, size: int, start: int, count: int, sqlite_synchronous: str | None = None
) -> tuple[list[float], str | None]:
    context = multiprocessing.get_context("spawn")
    with context.Pool(1) as pool:
        timed: tuple[list[float], str | None] = pool.apply(
            _time_adds, (location, str(locomo_path), size, start, count, sqlite_synchronous)
        )
        pool.close()
        pool.join()
    return timed


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
    """``rounds`` rounds of SQLite and each variant (SQLite variants, then PostgreSQL ones, in the order given),
    ``adds`` timed adds a run, on fresh copies of the bases."""
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
    order = [SQLITE_REFERENCE, *variants]
    copy_name = f"{template}_adds"
    copy_file = workdir / "pg-adds.db"
    try:
        for number in range(1, rounds + 1):
            shift = (number - 1) % len(order)
            for variant in order[shift:] + order[:shift]:
                began = time.strftime("%H:%M:%S")
                flush = flush_probe(workdir)
                wal: float | None = None
                if variant.backend == SQLITE:
                    shutil.copyfile(sqlite_base, copy_file)
                    for suffix in ("-wal", "-shm"):
                        Path(f"{copy_file}{suffix}").unlink(missing_ok=True)
                    level = variant.settings.get(SQLITE_SETTING)
                    took, level_seen = _in_child(str(copy_file), locomo_path, size, start, adds, level)
                    seen = {SQLITE_SETTING: f"{level_seen} (WAL mode)"}
                else:
                    copy_database(url_of, copy_name, template)
                    url = with_settings(url_of(copy_name), variant.settings)
                    seen = server_settings(url, DURABILITY)
                    before = wal_position(url)
                    took, _ = _in_child(url, locomo_path, size, start, adds)
                    wal = (wal_position(url) - before) / 1024 / len(took)
                label = variant.label
                figures = latency_figures("add", took)
                run = AddRun(
                    number, label, figures.p50_ms, figures.mean_ms, figures.p95_ms, wal, seen, began, flush,
                    variant.backend,
                )  # fmt: skip
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
        "| variant | store | durability | commit waits for the disk | runs | p50 ms, median (range) | mean ms, median"
        " | p95 ms, median | p50 ratio to SQLite (NORMAL), median (range)"
        " | p50 ratio to SQLite at equal durability, median (range) | WAL KB/add, median"
        " | disk flush p50 ms before the runs, median (range) |",
        "|---|---|---|---|---:|---|---:|---:|---|---|---:|---|",
    ]
    for label in report.labels():
        runs = [run for run in report.runs if run.label == label]
        p50s = [run.p50_ms for run in runs]
        flushes = [run.flush_ms for run in runs]
        ratios = report.ratios(label)
        wal = [run.wal_kb_per_add for run in runs if run.wal_kb_per_add is not None]
        settings = runs[0].settings
        durability = ", ".join(f"{k} {v}" for k, v in settings.items() if k in ("synchronous", *DURABILITY[:2]))
        ratio = "1" if label == SQLITE else _ratio_cell(ratios)
        equal = report.equal_durability(label)
        equal_cell = f"{_ratio_cell(equal[1])} to {equal[0]}" if equal and equal[1] else "-"
        lines.append(
            f"| {label} | {runs[0].backend} | {durability} | {'yes' if runs[0].waits_for_disk else 'no'}"
            f" | {len(runs)} | {statistics.median(p50s):.2f} ({min(p50s):.2f}-{max(p50s):.2f})"
            f" | {statistics.median(r.mean_ms for r in runs):.2f} | {statistics.median(r.p95_ms for r in runs):.2f}"
            f" | {ratio} | {equal_cell} | {f'{statistics.median(wal):.1f}' if wal else '-'}"
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


def _ratio_cell(ratios: Sequence[float]) -> str:
    return f"{statistics.median(ratios):.2f}x ({min(ratios):.2f}-{max(ratios):.2f})" if ratios else "-"
