"""Many processes, one memory: writers add, searchers search and a forgetter forgets, at once, on one file.

``run_many`` seeds a database with sessions, then starts (``python -m sodamem.bench.concurrency``) writers that each
add their messages one at a time (two on one shared session, the others on their own), searchers that search again
and again, and a forgetter that forgets the seeded sessions one by one and some of the writers' messages once their
add has returned. Each worker journals what returned. One searcher also probes freshness: it takes the message a
writer added last and searches for its unique word (and, densely, for its text) until that message is among the hits,
with its caches warm from all the searching before. Afterwards the parent reopens the store and checks it: every
add that returned is stored exactly once, with its text, in its session and in the writer's order; everything
forgotten is gone (turns, facts drawn from them, full-text rows); ``check()`` is ok; every worker exited 0 without a
traceback.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from sodamem.bench.sqlite_only import sqlite_store
from sodamem.bench.stress import SPEAKERS, append_line, marked, read_journal, tail, text_pool
from sodamem.memory import Memory
from sodamem.model import Session, Turn
from sodamem.store.inspect import leftovers, stored_turns

WORKER_MODULE = "sodamem.bench.concurrency"
DB_NAME = "many.db"
EMBEDDER = "fake"
SHARED_SESSION = "shared"
FORGET_EVERY = 10  # the forgetter forgets the writers' messages number i with i % FORGET_EVERY == FORGET_AT
FORGET_AT = 3
PROBE_TIMEOUT = 10.0  # seconds a freshness probe waits for a returned add to show in search
# How deep a probe looks for the turn it wants. What it tests is that another process's add is visible, not where
# it ranks: a writer's unique token ranked 15th once, in a fresh Memory too, among 800 turns whose facts (more of
# them since an add's pronouns read earlier messages) give other turns mass from several tunnels.
PROBE_DEPTH = 50
SEED_PACE = 1.0  # seconds between two forgotten seed sessions


def writer_session(writer: int, shared_writers: int) -> str:
    return SHARED_SESSION if writer < shared_writers else f"own-{writer}"


def message_id(writer: int, number: int) -> str:
    return f"w{writer}-{number:03d}"


def token_of(writer: int, number: int) -> str:
    return f"tok{writer}x{number:03d}q"


def forgettable(number: int) -> bool:
    return number % FORGET_EVERY == FORGET_AT


def seed_sessions(count: int) -> list[Session]:
    pool = text_pool()
    sessions = []
    for j in range(count):
        turns = tuple(
            Turn(i, "user" if i % 2 == 0 else "assistant", marked(pool[(7 * j + i) % len(pool)], f"seed{j}x{i}q"),
                 f"seed-{j}:{i}")
            for i in range(4)
        )  # fmt: skip
        sessions.append(Session(f"seed-{j}", datetime(2024, 2, 1, 9) + timedelta(days=j), turns))
    return sessions


# -- the workers ---------------------------------------------------------------------------------------------------


def worker_main() -> int:
    """Read the orders (one JSON line), open the store, say ready, wait for ``go``, do the role's work."""
    orders = json.loads(sys.stdin.readline())
    memory = Memory(orders["db"], embedder=EMBEDDER, extractor="rules")
    sys.stdout.write("ready\n")
    sys.stdout.flush()
    if sys.stdin.readline().strip() != "go":
        return 0
    role = orders["role"]
    out: dict[str, Any]
    if role == "writer":
        out = _write(memory, orders)
    elif role == "searcher":
        out = _search(memory, orders)
    else:
        out = _forget(memory, orders)
    memory.close()
    sys.stdout.write(json.dumps(out) + "\n")
    sys.stdout.flush()
    return 0


def _write(memory: Memory, orders: dict[str, Any]) -> dict[str, Any]:
    writer, pool = int(orders["index"]), text_pool()
    rng = random.Random(f"writer:{writer}")
    session_id = writer_session(writer, int(orders["shared_writers"]))
    with open(orders["journal"], "a", encoding="utf-8") as journal:
        for number in range(int(orders["messages"])):
            text = marked(rng.choice(pool), token_of(writer, number))
            message = {"id": message_id(writer, number), "speaker": rng.choice(SPEAKERS), "text": text}
            report = memory.add(message, session_id=session_id)
            assert [t.turn_id for t in report.added] == [message["id"]], report
            record = {"id": message["id"], "session": session_id, "text": text, "token": token_of(writer, number)}
            append_line(journal, {**record, "n": number, "index": report.added[0].turn_index}, sync=False)
        append_line(journal, {"end": True}, sync=False)
    return {"added": int(orders["messages"])}


def _returned(journals: list[str]) -> list[dict[str, Any]]:
    return [r for path in journals for r in read_journal(Path(path)) if "id" in r]


def _writers_done(journals: list[str]) -> bool:
    return all(any(r.get("end") for r in read_journal(Path(path))) for path in journals)


def _search(memory: Memory, orders: dict[str, Any]) -> dict[str, Any]:
    rng = random.Random(f"searcher:{orders['index']}")
    queries = ["Where does the user live?", "Who is Tom?", "spicy food", "Lumen Health job", "Priya Lisbon trip"]
    queries += [f"seed{j}x1q" for j in range(int(orders["seeds"]))]
    stop = Path(orders["stop"])
    searches = probes = probe_failures = 0
    latencies: list[float] = []
    misses: list[str] = []
    probed: set[str] = set()
    while not stop.exists():
        memory.search(rng.choice(queries), k=10)
        searches += 1
        if not orders["probe"]:
            continue
        fresh = [r for r in _latest(orders["writer_journals"]) if r["id"] not in probed]
        if not fresh:
            continue
        target = rng.choice(fresh)  # a message some writer added last: fresh, and no worker forgets it
        probed.add(target["id"])
        for query, mode in ((target["token"], "auto"), (target["text"], "dense")):
            probes += 1
            seconds = _probe(memory, query, mode, target["id"], target["session"])
            if seconds is None:
                probe_failures += 1
                misses.append(_why_missed(memory, orders["db"], query, mode, target["id"], target["session"]))
            else:
                latencies.append(seconds)
    return {
        "searches": searches,
        "probes": probes,
        "probe_failures": probe_failures,
        "probe_max_seconds": max(latencies, default=0.0),
        "probe_misses": misses,
    }


def _latest(journals: list[str]) -> list[dict[str, Any]]:
    """Each writer's last returned add that the forgetter leaves alone."""
    out = []
    for path in journals:
        kept = [r for r in read_journal(Path(path)) if "id" in r and not forgettable(int(r["n"]))]
        out += kept[-1:]
    return out


def _probe(memory: Memory, query: str, mode: str, turn_id: str, session_id: str) -> float | None:
    """Seconds until a search for ``query`` returns the turn (None: not within PROBE_TIMEOUT)."""
    start = time.monotonic()
    while time.monotonic() - start < PROBE_TIMEOUT:
        hits = memory.search(query, k=PROBE_DEPTH, mode=mode)
        if any(h.turn_id == turn_id and h.session_id == session_id for h in hits):
            return time.monotonic() - start
        time.sleep(0.01)
    return None


def _why_missed(memory: Memory, db: str, query: str, mode: str, turn_id: str, session_id: str) -> str:
    """Where a missed probe's turn ranks now in a deeper search, by this process's memory (its caches) and by a
    fresh one on the same file: a miss in the first only is a stale cache."""

    def ranks(searcher: Memory) -> list[int]:
        hits = searcher.search(query, k=200, mode=mode)
        return [i for i, h in enumerate(hits, 1) if h.turn_id == turn_id and h.session_id == session_id]

    with Memory(db, embedder=EMBEDDER, extractor=None) as fresh:
        fresh_ranks = ranks(fresh)
    return (
        f"{mode} {query[:40]!r} -> {turn_id} in {session_id}: rank {ranks(memory) or 'none'} in this process, "
        f"{fresh_ranks or 'none'} in a fresh Memory (of 200)"
    )


def _forget(memory: Memory, orders: dict[str, Any]) -> dict[str, Any]:
    """Forget a seeded session every SEED_PACE seconds and each writer's forgettable message once it returned."""
    seeds = [f"seed-{j}" for j in range(int(orders["seeds"]))]
    journals = orders["writer_journals"]
    done: set[str] = set()
    deadline = time.monotonic() + float(orders["deadline"])
    scrubbed, last_seed = 0, 0.0
    with open(orders["journal"], "a", encoding="utf-8") as journal:
        while time.monotonic() < deadline:
            finished = _writers_done(journals)
            due = [r for r in _returned(journals) if forgettable(int(r["n"])) and r["id"] not in done]
            if seeds and (finished or time.monotonic() - last_seed > SEED_PACE):
                session_id, last_seed = seeds.pop(0), time.monotonic()
                report = memory.forget(session_id=session_id)
                append_line(journal, {"session": session_id}, sync=False)
            elif due:
                target = due[0]
                report = memory.forget(turn_id=target["id"], session_id=target["session"])
                done.add(target["id"])
                append_line(journal, {"turn": target["id"], "session": target["session"]}, sync=False)
            elif finished and not seeds:
                break
            else:
                time.sleep(0.02)
                continue
            scrubbed += report.files_scrubbed
    return {"forgotten_turns": len(done), "scrubbed": scrubbed}


# -- the parent ----------------------------------------------------------------------------------------------------


@dataclass(slots=True)
class ManyReport:
    seconds: float = 0.0
    writers: int = 0
    messages_per_writer: int = 0
    adds_returned: int = 0
    adds_found_once: int = 0  # returned, not forgotten, stored exactly once with their text in their session
    turns_forgotten: int = 0
    sessions_forgotten: int = 0
    forgotten_found: int = 0  # forgotten rows or words still found anywhere (must be 0)
    searches: int = 0
    probes: int = 0
    probe_failures: int = 0
    probe_max_seconds: float = 0.0
    probe_misses: list[str] = field(default_factory=list)  # why each missed probe missed, as seen after it
    forgets_scrubbed: int = 0
    exit_codes: dict[str, int | None] = field(default_factory=dict)
    failures: dict[str, str] = field(default_factory=dict)  # worker -> stderr tail, when it failed
    problems: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(slots=True)
class _Worker:
    name: str
    proc: subprocess.Popen[str]
    err: Path
    result: dict[str, Any] = field(default_factory=dict)


def run_many(
    db_dir: Path,
    *,
    writers: int = 4,
    shared_writers: int = 2,
    messages: int = 200,
    searchers: int = 2,
    seeds: int = 12,
    deadline: float = 300.0,
) -> ManyReport:
    """Run the workers on one fresh database in ``db_dir`` and check the store afterwards."""
    db_dir.mkdir(parents=True, exist_ok=True)
    db = db_dir / DB_NAME
    with Memory(db, embedder=EMBEDDER, extractor="rules") as memory:
        memory.ingest(seed_sessions(seeds))
    stop = db_dir / "stop"
    writer_journals = [str(db_dir / f"writer-{w}.jsonl") for w in range(writers)]
    forget_journal = db_dir / "forgetter.jsonl"
    base = {"db": str(db), "seeds": seeds, "writer_journals": writer_journals}
    orders: list[tuple[str, dict[str, Any]]] = []
    for w in range(writers):
        orders.append((f"writer-{w}", {**base, "role": "writer", "index": w, "messages": messages,
                                       "shared_writers": shared_writers, "journal": writer_journals[w]}))  # fmt: skip
    for s in range(searchers):
        orders.append((f"searcher-{s}", {**base, "role": "searcher", "index": s, "stop": str(stop), "probe": s == 0}))
    orders.append(("forgetter", {**base, "role": "forgetter", "journal": str(forget_journal), "deadline": deadline}))
    report = ManyReport(writers=writers, messages_per_writer=messages)
    workers = [_spawn(name, order, db_dir) for name, order in orders]
    try:
        for worker in workers:
            assert worker.proc.stdout is not None
            if worker.proc.stdout.readline() != "ready\n":
                report.problems.append(f"{worker.name} did not open the store")
        started = time.perf_counter()
        for worker in workers:
            assert worker.proc.stdin is not None
            worker.proc.stdin.write("go\n")
            worker.proc.stdin.flush()
        end = time.monotonic() + deadline
        for worker in workers:
            if not worker.name.startswith("searcher"):
                _finish(worker, max(1.0, end - time.monotonic()))
        stop.touch()
        for worker in workers:
            if worker.name.startswith("searcher"):
                _finish(worker, 60.0)
        report.seconds = time.perf_counter() - started
    finally:
        for worker in workers:
            if worker.proc.poll() is None:
                worker.proc.kill()
                worker.proc.wait()
    for worker in workers:
        report.exit_codes[worker.name] = worker.proc.returncode
        err = worker.err.read_text("utf-8", errors="replace")
        if worker.proc.returncode != 0 or "Traceback" in err:
            report.failures[worker.name] = tail(err)
        if worker.name.startswith("searcher"):
            report.searches += int(worker.result.get("searches", 0))
            report.probes += int(worker.result.get("probes", 0))
            report.probe_failures += int(worker.result.get("probe_failures", 0))
            report.probe_max_seconds = max(report.probe_max_seconds, float(worker.result.get("probe_max_seconds", 0)))
            report.probe_misses += list(worker.result.get("probe_misses", []))
        if worker.name == "forgetter":
            report.forgets_scrubbed = int(worker.result.get("scrubbed", 0))
    verify_many(db, writer_journals, forget_journal, seeds, report)
    return report


def _spawn(name: str, order: dict[str, Any], db_dir: Path) -> _Worker:
    env = dict(os.environ)
    src = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (src, env.get("PYTHONPATH", "")) if p)
    env.setdefault("OPENBLAS_NUM_THREADS", "1")
    err = db_dir / f"{name}.err"
    with err.open("w") as err_stream:
        proc = subprocess.Popen(
            [sys.executable, "-m", WORKER_MODULE],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=err_stream,
            text=True,
            env=env,
        )
    assert proc.stdin is not None
    proc.stdin.write(json.dumps(order) + "\n")
    proc.stdin.flush()
    return _Worker(name, proc, err)


def _finish(worker: _Worker, timeout: float) -> None:
    try:
        out, _ = worker.proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        worker.proc.kill()
        worker.proc.communicate()
        return
    lines = [line for line in out.splitlines() if line.startswith("{")]
    if lines:
        worker.result = json.loads(lines[-1])


def verify_many(db: Path, writer_journals: list[str], forget_journal: Path, seeds: int, report: ManyReport) -> None:
    returned = _returned(writer_journals)
    report.adds_returned = len(returned)
    forgotten_turns = {(str(r["session"]), str(r["turn"])) for r in read_journal(forget_journal) if "turn" in r}
    forgotten_sessions = {str(r["session"]) for r in read_journal(forget_journal) if "turn" not in r}
    report.turns_forgotten, report.sessions_forgotten = len(forgotten_turns), len(forgotten_sessions)
    problems = report.problems
    if report.adds_returned != report.writers * report.messages_per_writer:
        problems.append(f"{report.adds_returned} adds returned of {report.writers * report.messages_per_writer}")
    expected_forgets = sum(forgettable(int(r["n"])) for r in returned)
    if len(forgotten_turns) != expected_forgets or len(forgotten_sessions) != seeds:
        problems.append(f"forgot {len(forgotten_turns)} turns of {expected_forgets}, {len(forgotten_sessions)} seeds")
    with Memory(db, embedder=EMBEDDER, extractor=None) as memory:
        conn = sqlite_store(memory).conn
        check = memory.check()
        problems += [f"check: {p.kind.value}: {p.message}" for p in check.problems]
        rows = stored_turns(conn)
        where: dict[tuple[str, str], list[tuple[int, str]]] = {}
        for session_id, turn_id, index, text in rows:
            where.setdefault((session_id, turn_id), []).append((index, text))
        known = {(str(r["session"]), str(r["id"])) for r in returned}
        last_index: dict[str, int] = {}
        for record in returned:
            key = (str(record["session"]), str(record["id"]))
            copies = where.get(key, [])
            if key in forgotten_turns:
                continue
            if len(copies) != 1 or copies[0][1] != record["text"] or copies[0][0] != record["index"]:
                problems.append(f"returned add {key} is stored as {copies[:3]}, not once at {record['index']}")
                continue
            report.adds_found_once += 1
            writer = str(record["id"]).split("-")[0]
            if copies[0][0] <= last_index.get(writer, -1):
                problems.append(f"{key} is stored before an earlier add of its writer")
            last_index[writer] = copies[0][0]
        for key in where:
            if key not in known and not key[0].startswith("seed-"):
                problems.append(f"turn {key} was stored by no returned add")
        gone: list[tuple[str, str | None, str]] = [(s, t, _token(returned, t)) for s, t in sorted(forgotten_turns)]
        gone += [(x, None, f"seed{x.split('-')[1]}x{i}q") for x in sorted(forgotten_sessions) for i in range(4)]
        for gone_session, gone_turn, token in gone:
            leaks = _traces(memory, gone_session, gone_turn, token)
            report.forgotten_found += len(leaks)
            problems += [f"forgotten {gone_session}/{gone_turn or '*'} ({token}): {leak}" for leak in leaks]


def _token(returned: list[dict[str, Any]], turn_id: str) -> str:
    return next(str(r["token"]) for r in returned if r["id"] == turn_id)


def _traces(memory: Memory, session_id: str, turn_id: str | None, token: str) -> list[str]:
    """Where a forgotten turn (or session) and its unique word can still be found."""
    user = memory.user
    out = leftovers(sqlite_store(memory).conn, session_id, turn_id, token)
    match = f'"{token}"'  # the full-text indexes, through the store (their layout is the store's business)
    if rows := memory.store.search_turns(user, match, 10):
        out.append(f"{len(rows)} full-text hit(s) among turns")
    if rows := memory.store.search_pieces(user, match, 10):
        out.append(f"{len(rows)} full-text hit(s) among pieces")
    for hit in memory.search(token, k=10):
        if hit.turn_id == turn_id or token in hit.turn_text:
            out.append(f"a search hit ({hit.session_id}/{hit.turn_id})")
    return out


if __name__ == "__main__":
    raise SystemExit(worker_main())
