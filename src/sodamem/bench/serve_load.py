"""``sodamem bench serve``: a real ``sodamem serve`` process under concurrent HTTP load, on loopback only.

The parent builds a fresh database in a temporary directory (one LoCoMo conversation, or the bundled demo history,
ingested with the library and the chosen embedder), creates an API key for it and starts
``python -m sodamem --db <tmp> --embedder <spec> serve --host 127.0.0.1 --port <free> --workers N``. Cold start is
timed from that process's start to its first answered search (``/healthz`` answering on the way).

Then a load process (``python -m sodamem.bench.serve_traffic``: one asyncio loop, one ``LoadClient`` per simulated
client, nothing else to do, so it stays a few percent of one core) runs, for ``seconds`` or until ``max_requests``
requests were sent:

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
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import httpx

from sodamem.bench.serve_report import CpuSnapshot, ServeReport, op_figures
from sodamem.bench.serve_traffic import OPERATIONS, REQUEST_TIMEOUT
from sodamem.embed import DEFAULT_EMBEDDER
from sodamem.loopback import HOST, free_port
from sodamem.server.settings import default_workers

LOAD_MODULE = "sodamem.bench.serve_traffic"
BENCH_USER = "bench"
READY_TIMEOUT = 180.0  # seconds the server may take to answer /healthz (model imports included)
STOP_TIMEOUT = 20.0  # seconds a graceful shutdown may take before the server's processes are killed
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


# -- the parent -----------------------------------------------------------------------------------------------------


def run_serve_bench(
    data: Path | None,
    *,
    conversation: int = 0,
    embedder: str = DEFAULT_EMBEDDER,
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
