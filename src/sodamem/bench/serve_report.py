"""What ``sodamem bench serve`` reports: per-operation figures, the whole run's report (table and JSON), and the CPU
time of the server's processes and of the machine, read from ``/proc``."""

from __future__ import annotations

import os
import signal
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np


@dataclass(frozen=True, slots=True)
class OpFigures:
    op: str
    clients: int
    ok: int  # answered 2xx
    errors: int  # non-2xx answers and exceptions (timeouts, refused connections)
    per_second: float  # answered per second of the timed phase
    p50_ms: float  # latencies of the answered requests (0 when none)
    p95_ms: float
    p99_ms: float
    mean_ms: float
    max_ms: float
    statuses: dict[str, int]  # status code (or exception name) -> count, errors only


@dataclass(slots=True)
class ServeReport:
    data: str
    conversation: str | None
    turns: int  # stored before the load
    questions: int
    embedder: str
    workers: int
    threads: int
    seconds: float  # asked for
    max_requests: int
    keep_alive: bool  # each client keeps one connection (else: a new connection per request)
    elapsed_s: float = 0.0  # the timed phase as it ran
    ingest_s: float = 0.0  # building the database beforehand (not part of the cold start)
    healthz_s: float = 0.0  # process start -> /healthz answered
    cold_start_s: float = 0.0  # process start -> first search answered
    first_search_ms: float = 0.0  # that first search's own latency
    ops: list[OpFigures] = field(default_factory=list)
    adds_acked: int = 0  # answered 2xx
    adds_stored: int = 0  # of those: stored exactly once with their text
    adds_lost: int = 0  # answered 2xx, not stored (or with another text)
    adds_duplicated: int = 0  # answered 2xx, stored more than once
    adds_unanswered_stored: int = 0  # failed or cut short, yet stored (allowed: the client could not know)
    # CPU over the timed phase, in % of one core (200 = two cores busy), from /proc (None elsewhere):
    server_cpu_pct: float | None = None  # the server's processes together
    server_process_cpu_pct: list[float] = field(default_factory=list)  # each busy one (the workers), busiest first
    server_cpu_ms_per_request: float | None = None  # the server's CPU time / requests answered (all operations)
    load_cpu_pct: float | None = None  # the load process
    other_cpu_pct: float | None = None  # every other process on the machine
    steal_pct: float | None = None  # taken by the hypervisor from this (virtual) machine
    cores: int = 0
    load_average: float | None = None  # 1-minute load average at the end of the timed phase
    server_exit: int | None = None  # -15: ended by the bench's SIGTERM (uvicorn re-raises it after shutting down)
    server_tracebacks: int = 0  # tracebacks in the server's log
    error_samples: list[str] = field(default_factory=list)  # the first few error answers, for the reader

    def op(self, name: str) -> OpFigures | None:
        return next((o for o in self.ops if o.op == name), None)

    @property
    def errors(self) -> int:
        return sum(o.errors for o in self.ops)

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "errors": self.errors}

    def render(self) -> str:
        subject = f"{self.data}, {self.conversation}" if self.conversation else self.data
        lines = [
            f"sodamem serve: {self.workers} worker(s) x {self.threads} threads, embedder {self.embedder}; {subject}"
            f" ({self.turns:,} turns stored, {self.questions} questions); {self.elapsed_s:.1f} s of load"
            f" on {self.cores} cores, {'one connection per client' if self.keep_alive else 'a connection per request'}",
            "",
            f"Cold start: /healthz after {self.healthz_s:.2f} s, first answered search after {self.cold_start_s:.2f} s"
            f" (that search {self.first_search_ms:.0f} ms); building the database beforehand {self.ingest_s:.1f} s.",
            "",
            "| operation | clients | answered | errors | req/s | p50 ms | p95 ms | p99 ms | max ms |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for o in self.ops:
            lines.append(
                f"| {o.op} | {o.clients} | {o.ok:,} | {o.errors} | {o.per_second:.1f} | {o.p50_ms:.1f}"
                f" | {o.p95_ms:.1f} | {o.p99_ms:.1f} | {o.max_ms:.1f} |"
            )
        lines += [
            "",
            f"Adds: {self.adds_acked} answered 2xx, {self.adds_stored} stored once with their text, {self.adds_lost}"
            f" lost, {self.adds_duplicated} duplicated ({self.adds_unanswered_stored} unanswered adds stored).",
        ]
        if self.server_cpu_pct is not None:
            processes = " + ".join(f"{p:.0f}%" for p in self.server_process_cpu_pct)
            lines.append(
                f"CPU over the load ({self.cores} cores = {100 * self.cores}%): server {self.server_cpu_pct:.0f}%"
                f" ({processes}; {self.server_cpu_ms_per_request or 0:.0f} ms per answered request),"
                f" load generator {self.load_cpu_pct or 0:.0f}%, other processes {self.other_cpu_pct or 0:.0f}%,"
                f" stolen by the hypervisor {self.steal_pct or 0:.0f}%."
            )
        if self.server_exit not in (0, None, -signal.SIGTERM) or self.server_tracebacks:
            lines.append(f"Server: exit code {self.server_exit}, {self.server_tracebacks} traceback(s) in its log.")
        for sample in self.error_samples:
            lines.append(f"- error: {sample}")
        return "\n".join(lines) + "\n"


def op_figures(
    op: str, clients: int, latencies: Sequence[float], statuses: dict[str, int], elapsed: float
) -> OpFigures:
    ms = np.asarray(latencies, dtype=np.float64) * 1000
    pct = [float(np.percentile(ms, q)) for q in (50, 95, 99)] if len(ms) else [0.0, 0.0, 0.0]
    return OpFigures(
        op=op,
        clients=clients,
        ok=len(ms),
        errors=sum(statuses.values()),
        per_second=len(ms) / elapsed if elapsed > 0 else 0.0,
        p50_ms=pct[0],
        p95_ms=pct[1],
        p99_ms=pct[2],
        mean_ms=float(ms.mean()) if len(ms) else 0.0,
        max_ms=float(ms.max()) if len(ms) else 0.0,
        statuses=dict(statuses),
    )


@dataclass(frozen=True, slots=True)
class CpuSnapshot:
    """CPU seconds so far: of each process of a tree, and of the whole machine (busy, and stolen by a hypervisor)."""

    processes: dict[int, float]
    machine_busy: float
    machine_steal: float

    @staticmethod
    def take(root: int) -> CpuSnapshot | None:
        """From /proc (Linux); None where there is none."""
        proc = Path("/proc")
        try:
            machine = [int(v) for v in (proc / "stat").read_text().splitlines()[0].split()[1:]]
        except (OSError, ValueError, IndexError):
            return None
        ticks = os.sysconf("SC_CLK_TCK")
        parent: dict[int, int] = {}
        cpu: dict[int, float] = {}
        for entry in proc.iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[1].split()  # after the command name, which may hold spaces
            parent[int(entry.name)] = int(fields[1])
            cpu[int(entry.name)] = (int(fields[11]) + int(fields[12])) / ticks
        tree, frontier = {root}, [root]
        while frontier:
            current = frontier.pop()
            children = [p for p, pp in parent.items() if pp == current and p not in tree]
            tree.update(children)
            frontier.extend(children)
        # /proc/stat's cpu line: user nice system idle iowait irq softirq steal (guest time is inside user)
        busy = sum(machine[i] for i in (0, 1, 2, 5, 6) if i < len(machine))
        steal = machine[7] if len(machine) > 7 else 0
        return CpuSnapshot({p: cpu[p] for p in tree if p in cpu}, busy / ticks, steal / ticks)
