"""``sodamem bench serve``: a real ``sodamem serve`` process under concurrent HTTP load, on loopback only.

The parent builds a fresh database in a temporary directory (one LoCoMo conversation, or the bundled demo history,
ingested with the library and the chosen embedder), creates an API key for it and starts
``python -m sodamem --db <tmp> --embedder <spec> serve --host 127.0.0.1 --port <free> --workers N``. Cold start is
timed from that process's start to its first answered search (``/healthz`` answering on the way).

Then a load process (``python -m sodamem.bench.serve_load``: one asyncio loop, one ``LoadClient`` per simulated client,
nothing else to do, so it stays a few percent of one core) runs, for ``seconds`` or until ``max_requests`` requests
were sent:

* searchers looping ``POST /v1/search`` over the data's questions;
* adders looping ``POST /v1/messages``, one message per call, each adder into a session of its own that the store
  did not hold (every message with a unique id; texts from another conversation, or the demo's sentences);
* askers looping ``POST /v1/ask`` (``offline``: no LLM is called even when one is configured).

Each request opens its own connection unless ``keep_alive``: a kept connection stays with the worker that accepted
it, and with two workers the kernel was seen to hand all five clients' connections to one of them (the other idle).

Per operation: answered (2xx) count, throughput, p50/p95/p99 latency of the answered requests, errors (non-2xx or
exceptions). CPU time over the timed phase is read from ``/proc`` (Linux): of each server process, of the load
process, of every other process and what a hypervisor took, so the report says what filled the machine.
Afterwards the server is stopped (always: on an error and on Ctrl-C too) and the store is reopened with the
library: every add answered 2xx must be stored exactly once, with its text, in its session.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import IO, Any

import httpx
import numpy as np

from sodamem.bench.load_client import LoadClient, LoadClientError
from sodamem.loopback import HOST, free_port
from sodamem.server.settings import default_workers

LOAD_MODULE = "sodamem.bench.serve_load"
BENCH_USER = "bench"
READY_TIMEOUT = 180.0  # seconds the server may take to answer /healthz (model imports included)
REQUEST_TIMEOUT = 60.0  # one request; a slower answer counts as an error
STOP_TIMEOUT = 20.0  # seconds a graceful shutdown may take before the server's processes are killed
OPERATIONS = ("search", "add", "ask")
_EXAMPLES = Path(__file__).resolve().parents[1] / "examples"

Progress = Callable[[str], None]


class ServeBenchError(RuntimeError):
    """The bench could not run (the server did not start, or died); the message says why."""


# -- the workload ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Workload:
    source: str  # the data file's name, or "demo history"
    conversation: str | None  # the LoCoMo sample id
    sessions: list[Any]  # sodamem.model.Session, ingested before the server starts
    questions: list[str]  # what searchers and askers ask
    messages: list[tuple[str, str]]  # (speaker, text) the adders send, in turn


def load_workload(data: Path | None, conversation: int = 0) -> Workload:
    """One LoCoMo conversation (its sessions and QA questions; the adders' texts from the next conversation), or
    the bundled demo history with its questions."""
    from sodamem.bench.stress import SPEAKERS, text_pool
    from sodamem.errors import InputError
    from sodamem.ingest.formats import load_sessions
    from sodamem.ingest.formats.locomo import parse_locomo_conversation

    if data is None:
        sessions = load_sessions(_EXAMPLES / "history.jsonl")
        questions = [str(q["question"]) for q in json.loads((_EXAMPLES / "questions.json").read_text("utf-8"))]
        pool = text_pool()
        messages = [(SPEAKERS[i % len(SPEAKERS)], text) for i, text in enumerate(pool)]
        return Workload("demo history", None, sessions, questions, messages)
    try:
        items = json.loads(data.read_text("utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"cannot read a LoCoMo file: {exc}", file=str(data)) from None
    if not isinstance(items, list) or not all(isinstance(i, dict) and "conversation" in i for i in items):
        raise InputError("expected a JSON list of LoCoMo samples", file=str(data))
    if conversation >= len(items):
        raise InputError(f"the file has {len(items)} conversations (0-{len(items) - 1})", field="conversation")
    sample = items[conversation]
    sample_id = str(sample["sample_id"])
    sessions = list(parse_locomo_conversation(sample_id, sample["conversation"]))
    questions = [str(qa["question"]) for qa in sample.get("qa") or [] if str(qa.get("question") or "").strip()]
    other = items[(conversation + 1) % len(items)]
    source_sessions = parse_locomo_conversation(str(other["sample_id"]), other["conversation"])
    messages = [(t.speaker, t.text) for s in source_sessions for t in s.turns]
    if not questions:
        raise InputError(f"conversation {sample_id} has no questions", file=str(data))
    return Workload(data.name, sample_id, sessions, questions, messages)


# -- the report -----------------------------------------------------------------------------------------------------


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


# -- the parent -----------------------------------------------------------------------------------------------------


def run_serve_bench(
    data: Path | None,
    *,
    conversation: int = 0,
    embedder: str = "minilm",
    workers: int | None = None,
    threads: int = 1,
    seconds: float = 20.0,
    max_requests: int = 100_000,
    searchers: int = 4,
    adders: int = 1,
    askers: int = 0,
    port: int = 0,
    keep_alive: bool = False,
    progress: Progress = lambda _: None,
) -> ServeReport:
    """Build the database, start the server, time its cold start, load it, stop it and check the adds.
    ``workers``: None for the server's default (one per core)."""
    workers = workers or default_workers()
    workload = load_workload(data, conversation)
    report = ServeReport(
        data=workload.source,
        conversation=workload.conversation,
        turns=sum(len(s.turns) for s in workload.sessions),
        questions=len(workload.questions),
        embedder=embedder,
        workers=workers,
        threads=threads,
        seconds=seconds,
        max_requests=max_requests,
        keep_alive=keep_alive,
        cores=os.cpu_count() or 0,
    )
    with tempfile.TemporaryDirectory(prefix="sodamem-serve-bench-") as scratch:
        db = Path(scratch) / "serve.db"
        progress(f"building the database: {report.turns} turns, embedder {embedder}")
        began = time.perf_counter()
        key = build_database(db, workload.sessions, embedder)
        report.ingest_s = time.perf_counter() - began
        port = port or free_port()
        base_url = f"http://{HOST}:{port}"
        log_path = Path(scratch) / "server.log"
        with log_path.open("w", encoding="utf-8") as log:
            started = time.perf_counter()
            server = start_server(db, embedder, port, workers, threads, log)
            load: subprocess.Popen[str] | None = None
            try:
                progress(f"server started on {base_url} ({workers} worker(s)); waiting for its first search")
                report.healthz_s, report.cold_start_s, report.first_search_ms = cold_start(
                    server, base_url, key, workload.questions[0], started, log_path
                )
                progress(f"load: {searchers} searcher(s), {adders} adder(s), {askers} asker(s) for {seconds:g} s")
                orders = {
                    "base_url": base_url,
                    "key": key,
                    "seconds": seconds,
                    "max_requests": max_requests,
                    "searchers": searchers,
                    "adders": adders,
                    "askers": askers,
                    "questions": workload.questions,
                    "messages": workload.messages,
                    "run": os.urandom(4).hex(),
                    "keep_alive": keep_alive,
                }
                load = _spawn_load(Path(scratch) / "load.err")
                result = _drive_load(load, orders, server, report)
            finally:
                if load is not None and load.poll() is None:
                    load.kill()
                    load.wait()
                report.server_exit = stop_server(server)
        server_log = log_path.read_text("utf-8", errors="replace")
        report.server_tracebacks = server_log.count("Traceback")
        elapsed = float(result["elapsed"])
        report.elapsed_s = elapsed
        clients = {"search": searchers, "add": adders, "ask": askers}
        for op in OPERATIONS:
            if clients[op]:
                figures = result["ops"][op]
                report.ops.append(op_figures(op, clients[op], figures["latencies"], figures["statuses"], elapsed))
        report.error_samples = [str(s) for s in result["error_samples"]]
        answered = sum(o.ok for o in report.ops)
        if report.server_cpu_pct is not None and answered:
            report.server_cpu_ms_per_request = report.server_cpu_pct / 100 * elapsed / answered * 1000
        progress("checking every answered add in the store")
        verify_adds(db, result["acked"], result["unanswered"], report)
    return report


def build_database(db: Path, sessions: Sequence[Any], embedder: str) -> str:
    """Ingest ``sessions`` for the bench user (rules extractor, ``embedder``) and return a new API key."""
    from sodamem.keys import KeyRing
    from sodamem.memory import Memory

    with Memory(db, user=BENCH_USER, embedder=embedder) as memory:
        memory.ingest(sessions)
        _record, key = KeyRing(memory.store).create(BENCH_USER, label="bench serve")
    return key


def _child_env() -> dict[str, str]:
    env = dict(os.environ)
    src = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (src, env.get("PYTHONPATH", "")) if p)
    return env


def start_server(db: Path, embedder: str, port: int, workers: int, threads: int, log: IO[str]) -> subprocess.Popen[str]:
    """``sodamem serve`` in a process group of its own (its workers too), so that stopping it leaves nothing."""
    command = [
        sys.executable, "-m", "sodamem", "--db", str(db), "--user", BENCH_USER, "--embedder", embedder,
        "serve", "--host", HOST, "--port", str(port), "--workers", str(workers), "--threads", str(threads),
    ]  # fmt: skip
    return subprocess.Popen(
        command, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, text=True, env=_child_env(),
        start_new_session=True,
    )  # fmt: skip


def stop_server(server: subprocess.Popen[str]) -> int | None:
    """SIGTERM (uvicorn's graceful shutdown), then SIGKILL to the whole group after STOP_TIMEOUT; its exit code."""
    if server.poll() is None:
        server.send_signal(signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            server.wait(STOP_TIMEOUT)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(server.pid, signal.SIGKILL)  # whatever of the group is left (a worker that outlived its parent)
    return server.wait()


def _server_gone(server: subprocess.Popen[str], log_path: Path, what: str) -> ServeBenchError:
    from sodamem.bench.stress import tail

    log = log_path.read_text("utf-8", errors="replace")
    return ServeBenchError(f"{what} (server exit code {server.poll()}); its log:\n{tail(log)}")


def cold_start(
    server: subprocess.Popen[str], base_url: str, key: str, question: str, started: float, log_path: Path
) -> tuple[float, float, float]:
    """Seconds from ``started`` to /healthz answering and to the first search answered, and that search's ms."""
    deadline = started + READY_TIMEOUT
    with httpx.Client(base_url=base_url, timeout=REQUEST_TIMEOUT) as client:
        while True:
            if server.poll() is not None:
                raise _server_gone(server, log_path, "the server exited before answering /healthz")
            if time.perf_counter() > deadline:
                raise _server_gone(server, log_path, f"no answer from /healthz within {READY_TIMEOUT:.0f} s")
            try:
                if client.get("/healthz").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            time.sleep(0.02)
        healthz = time.perf_counter() - started
        began = time.perf_counter()
        try:
            answer = client.post(
                "/v1/search", json={"query": question, "k": 10}, headers={"Authorization": f"Bearer {key}"}
            )
        except httpx.HTTPError as exc:
            raise _server_gone(server, log_path, f"the first search failed: {exc!r}") from None
        done = time.perf_counter()
        if answer.status_code != 200:
            raise _server_gone(server, log_path, f"the first search answered {answer.status_code}: {answer.text}")
    return healthz, done - started, (done - began) * 1000


def _spawn_load(err_path: Path) -> subprocess.Popen[str]:
    with err_path.open("w") as err:
        return subprocess.Popen(
            [sys.executable, "-m", LOAD_MODULE], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err,
            text=True, env=_child_env(), start_new_session=True,
        )  # fmt: skip


def _drive_load(
    load: subprocess.Popen[str], orders: dict[str, Any], server: subprocess.Popen[str], report: ServeReport
) -> dict[str, Any]:
    """Send the orders, wait for ``ready``, start the load and read its result, with the CPU time spent meanwhile."""
    assert load.stdin is not None and load.stdout is not None
    load.stdin.write(json.dumps(orders) + "\n")
    load.stdin.flush()
    if load.stdout.readline().strip() != "ready":
        raise ServeBenchError(f"the load process did not start (exit code {load.wait()})")
    before = CpuSnapshot.take(server.pid)
    load.stdin.write("go\n")
    load.stdin.flush()
    line = load.stdout.readline()
    after = CpuSnapshot.take(server.pid)
    report.load_average = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    load.wait()
    if not line.startswith("{"):
        raise ServeBenchError(f"the load process ended without a result (exit code {load.returncode})")
    result: dict[str, Any] = json.loads(line)
    elapsed = float(result["elapsed"])
    if elapsed > 0:
        report.load_cpu_pct = 100 * float(result["cpu"]) / elapsed
        if before is not None and after is not None:
            per_process = [after.processes[p] - before.processes.get(p, 0.0) for p in after.processes]
            served = sum(per_process)
            report.server_cpu_pct = 100 * served / elapsed
            report.server_process_cpu_pct = sorted((100 * c / elapsed for c in per_process if c >= 0.01), reverse=True)
            busy = after.machine_busy - before.machine_busy
            report.other_cpu_pct = max(0.0, 100 * (busy - served - float(result["cpu"])) / elapsed)
            report.steal_pct = 100 * (after.machine_steal - before.machine_steal) / elapsed
    return result


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


def verify_adds(db: Path, acked: list[list[str]], unanswered: list[list[str]], report: ServeReport) -> None:
    """Reopen the store with the library: each acked ``[session, id, text]`` must be stored once with its text."""
    from sodamem.errors import NotFoundError
    from sodamem.memory import Memory

    report.adds_acked = len(acked)
    with Memory(db, user=BENCH_USER, embedder="none", extractor=None) as memory:
        stored: dict[str, tuple[Counter[str], dict[str, str]]] = {}
        for session_id in {s for s, _, _ in [*acked, *unanswered]}:
            try:
                turns = memory.session(session_id).turns
            except NotFoundError:
                turns = ()
            stored[session_id] = (Counter(t.turn_id for t in turns), {t.turn_id: t.text for t in turns})
    for session_id, turn_id, text in acked:
        counts, texts = stored[session_id]
        if counts[turn_id] > 1:
            report.adds_duplicated += 1
        elif counts[turn_id] == 1 and texts[turn_id] == text:
            report.adds_stored += 1
        else:
            report.adds_lost += 1
    report.adds_unanswered_stored = sum(stored[s][0][t] > 0 for s, t, _ in unanswered)


# -- the load process -----------------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Tally:
    latencies: list[float] = field(default_factory=list)
    statuses: Counter[str] = field(default_factory=Counter)


@dataclass(slots=True)
class _Load:
    orders: dict[str, Any]
    deadline: float
    left: int  # requests still to send (max_requests)
    tallies: dict[str, _Tally] = field(default_factory=lambda: {op: _Tally() for op in OPERATIONS})
    acked: list[list[str]] = field(default_factory=list)
    unanswered: list[list[str]] = field(default_factory=list)
    error_samples: list[str] = field(default_factory=list)

    def take(self) -> bool:
        """Whether another request may be sent (time and count both left)."""
        if self.left <= 0 or time.perf_counter() >= self.deadline:
            return False
        self.left -= 1
        return True

    def record(self, op: str, seconds: float, status: str | None, detail: str = "") -> None:
        tally = self.tallies[op]
        if status is None:
            tally.latencies.append(seconds)
            return
        tally.statuses[status] += 1
        if len(self.error_samples) < 5:
            self.error_samples.append(f"{op}: {status} {detail[:300]}")


async def _request(load: _Load, client: LoadClient, op: str, path: str, body: dict[str, Any]) -> bool:
    began = time.perf_counter()
    try:
        status, text = await client.post(path, body)
    except (OSError, TimeoutError, asyncio.IncompleteReadError, LoadClientError) as exc:
        load.record(op, time.perf_counter() - began, type(exc).__name__, str(exc))
        return False
    seconds = time.perf_counter() - began
    ok = 200 <= status < 300
    load.record(op, seconds, None if ok else str(status), "" if ok else text)
    return ok


async def _searcher(load: _Load, client: LoadClient, index: int, count: int) -> None:
    questions: list[str] = load.orders["questions"]
    position = index * len(questions) // max(1, count)
    while load.take():
        await _request(load, client, "search", "/v1/search", {"query": questions[position % len(questions)], "k": 10})
        position += 1


async def _asker(load: _Load, client: LoadClient, index: int, count: int) -> None:
    questions: list[str] = load.orders["questions"]
    position = index * len(questions) // max(1, count) + len(questions) // 2
    while load.take():
        body = {"question": questions[position % len(questions)], "offline": True}
        await _request(load, client, "ask", "/v1/ask", body)
        position += 1


async def _adder(load: _Load, client: LoadClient, index: int, count: int) -> None:
    messages: list[list[str]] = load.orders["messages"]
    session_id = f"bench-serve-{load.orders['run']}-adder{index}"
    position, number = index * len(messages) // max(1, count), 0
    while load.take():
        speaker, text = messages[position % len(messages)]
        turn_id = f"a{index}-{number:06d}"
        body = {"session_id": session_id, "messages": [{"id": turn_id, "speaker": speaker, "text": text}]}
        ok = await _request(load, client, "add", "/v1/messages", body)
        (load.acked if ok else load.unanswered).append([session_id, turn_id, text])
        position, number = position + 1, number + 1


async def _run_load(orders: dict[str, Any]) -> dict[str, Any]:
    roles = [(_searcher, int(orders["searchers"])), (_adder, int(orders["adders"])), (_asker, int(orders["askers"]))]
    # Without keep-alive every request opens its own connection, so the kernel spreads requests over the workers
    # instead of pinning each client to the worker that accepted its one connection.
    host, port = orders["base_url"].removeprefix("http://").rsplit(":", 1)
    clients = [
        (role, i, count, LoadClient(host, int(port), orders["key"], keep_alive=orders["keep_alive"],
                                    timeout=REQUEST_TIMEOUT))
        for role, count in roles
        for i in range(count)
    ]  # fmt: skip
    try:
        sys.stdout.write("ready\n")
        sys.stdout.flush()
        if await asyncio.to_thread(sys.stdin.readline) != "go\n":
            return {}
        cpu, began = time.process_time(), time.perf_counter()
        load = _Load(orders, began + float(orders["seconds"]), int(orders["max_requests"]))
        await asyncio.gather(*(role(load, client, i, count) for role, i, count, client in clients))
        elapsed, cpu = time.perf_counter() - began, time.process_time() - cpu
    finally:
        for *_, client in clients:
            client.close()
    return {
        "elapsed": elapsed,
        "cpu": cpu,
        "ops": {op: {"latencies": t.latencies, "statuses": dict(t.statuses)} for op, t in load.tallies.items()},
        "acked": load.acked,
        "unanswered": load.unanswered,
        "error_samples": load.error_samples,
    }


def load_main() -> int:
    """The load process: orders (one JSON line) on stdin, ``ready``, then ``go``, then the result as one JSON line."""
    orders = json.loads(sys.stdin.readline())
    result = asyncio.run(_run_load(orders))
    if result:
        sys.stdout.write(json.dumps(result) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(load_main())
