"""``sodamem bench crash``: kill a writing process at random moments and check the store after every kill.

A parent starts a child process (``python -m sodamem.bench.crash``) that adds messages to one database file, one
call at a time (``Memory.add`` with the fake embedder, so vectors are written too, and the rule extractor), now and
then ingesting a whole small session (``Memory.ingest``). Before each call the child journals what it is about to
write; after the call returns it journals that it returned (flushed and fsync'd). The parent SIGKILLs the child after
a random delay (seeded), drawn from the measured duration of the calls so that kills land inside writes, then
reopens the store and checks:

* ``Memory.check()`` is ok: SQLite's ``integrity_check``, FTS5's ``integrity-check`` of every full-text index, piece
  spans, every fact's sources re-read to their quotes, links, and a vector for every turn and piece *after the
  reopen* (opening a Memory with an embedder embeds the turns a killed add queued);
* the embedding queue is empty after the reopen;
* every call that returned is stored, each of its messages exactly once, with its text, in its session;
* a call that was cut short is stored whole or not at all (an ingested session has all its turns or none);
* no session has a hole in its turn indexes, and nothing is stored that no call wrote.

Like a real client, the next child first retries the calls the killed one left unanswered (same ids, same content):
each is then stored exactly once, whether or not the first attempt had landed.

Each child is spawned ahead of time (it imports while its predecessor works) and waits for its orders on stdin, so a
kill point costs the child's open, the random delay and the parent's check, not a Python start. The child's SQL
trace callback writes the transaction phase into a one-byte shared map, which tells the parent whether each kill
cut a transaction short, landed on its COMMIT, or fell between transactions; the WAL is read before the reopen to
count kills that left frames written after its last commit.
"""

from __future__ import annotations

import json
import mmap
import os
import random
import select
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import IO, Any

import click

from sodamem.bench.sqlite_only import sqlite_store
from sodamem.bench.stress import SPEAKERS, append_line, marked, read_journal, tail, text_pool
from sodamem.memory import Memory
from sodamem.model import Session, Turn
from sodamem.store.inspect import stored_turns
from sodamem.store.live import queued_turns

CHILD_MODULE = "sodamem.bench.crash"
DB_NAME = "crash.db"
USER = "default"
EMBEDDER = "fake"
READY_TIMEOUT = 60.0
# A child's life after it is ready: the delay is drawn uniformly from 0 to this many of its calls' mean duration.
CALLS_PER_LIFE = 6.0
# Children started ahead (each imports while the one before it works): on 2 cores two imports overlap the work.
SPARES = 2
FIRST_GUESS_SECONDS = 0.02  # a call's duration before any was measured
INGEST_SHARE = 0.12  # of the calls: ingest a whole small session
SHARED_SESSION = "live-shared"  # grown by every child, across kills
# The phase byte the child's trace callback keeps up to date (what the last statement it began was).
OUTSIDE, IN_TRANSACTION, AT_COMMIT = 0, 1, 2
_PHASE_NAMES = {OUTSIDE: "outside", IN_TRANSACTION: "transaction", AT_COMMIT: "commit"}
# Checks of check_database the harness relies on (run by Memory.check(); named so a renamed check is noticed).
REQUIRED_CHECKS = frozenset({"sqlite_integrity", "source_quotes", "vectors"})  # and the full-text indexes' ("*fts*")


# -- the calls -------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Call:
    """One call a child makes: an add of 1-3 messages, or the ingest of a whole session (``timestamp`` set)."""

    key: str
    kind: str  # "add" | "ingest"
    session_id: str
    messages: tuple[tuple[str, str, str], ...]  # (id, speaker, text)
    timestamp: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "kind": self.kind,
            "session": self.session_id,
            "messages": [list(m) for m in self.messages],
            "timestamp": self.timestamp,
        }

    @staticmethod
    def from_dict(record: dict[str, Any]) -> Call:
        messages = tuple((str(m[0]), str(m[1]), str(m[2])) for m in record["messages"])
        return Call(str(record["key"]), str(record["kind"]), str(record["session"]), messages, record["timestamp"])


def make_call(rng: random.Random, child: int, number: int, ingest_share: float = INGEST_SHARE) -> Call:
    key = f"c{child}-o{number}"
    pool = text_pool()
    if rng.random() < ingest_share:
        n = rng.randint(3, 6)
        session_id = f"ingest-{key}"
        messages = tuple(
            (f"{session_id}:{i}", SPEAKERS[i % 2 + 1] if i % 2 else "user", marked(rng.choice(pool), f"{key}t{i}"))
            for i in range(n)
        )
        when = datetime(2024, 1, 1, 9, 0) + timedelta(minutes=child * 1_000 + number)
        return Call(key, "ingest", session_id, messages, when.isoformat())
    n = 1 if rng.random() < 0.8 else rng.randint(2, 3)
    session_id = SHARED_SESSION if rng.random() < 0.3 else f"live-{rng.randrange(12)}"
    messages = tuple((f"{key}-m{i}", rng.choice(SPEAKERS), marked(rng.choice(pool), f"{key}m{i}")) for i in range(n))
    return Call(key, "add", session_id, messages)


def perform(memory: Memory, call: Call) -> tuple[int, int]:
    """Make the call; return (messages stored now, messages found stored already)."""
    if call.kind == "ingest":
        assert call.timestamp is not None
        turns = tuple(Turn(i, speaker, text, id_) for i, (id_, speaker, text) in enumerate(call.messages))
        report = memory.ingest([Session(call.session_id, datetime.fromisoformat(call.timestamp), turns)])
        return (len(call.messages), 0) if report.sessions_added else (0, len(call.messages))
    batch = [{"id": id_, "speaker": speaker, "text": text} for id_, speaker, text in call.messages]
    added = memory.add(batch, session_id=call.session_id)
    return len(added.added), len(added.unchanged)


# -- the child -------------------------------------------------------------------------------------------------


def child_main() -> int:
    """Wait for orders (one JSON line on stdin; EOF: never used, exit), then make calls until killed."""
    line = sys.stdin.readline()
    if not line.strip():
        return 0
    orders = json.loads(line)
    rng = random.Random(f"{orders['seed']}:{orders['child']}")
    retries = [Call.from_dict(r) for r in orders["retry"]]
    with open(orders["phase"], "r+b") as phase_file, open(orders["journal"], "a", encoding="utf-8") as journal:
        phase = mmap.mmap(phase_file.fileno(), 1)
        # The fake annotator: the mentions' writes are killed too, without spaCy's seconds of loading in each life.
        memory = Memory(orders["db"], embedder=EMBEDDER, extractor="rules", annotator="fake")
        sqlite_store(memory).conn.set_trace_callback(_phase_tracer(phase))
        sys.stdout.write("ready\n")
        sys.stdout.flush()
        number = 0
        while number < orders["max_calls"]:
            if retries:
                call, retried = retries.pop(0), True
            else:
                call, retried = make_call(rng, orders["child"], number, orders["ingest_share"]), False
                number += 1
            append_line(journal, {"ev": "begin", "retry": retried, **call.to_dict()}, sync=False)
            start = time.perf_counter()
            stored, unchanged = perform(memory, call)
            seconds = time.perf_counter() - start
            phase[0] = OUTSIDE  # the call returned: its last COMMIT is done
            record = {"ev": "done", "key": call.key, "s": seconds, "stored": stored, "unchanged": unchanged}
            append_line(journal, record, sync=True)
        memory.close()
    return 0


def _phase_tracer(phase: mmap.mmap) -> Any:
    def trace(sql: str) -> None:
        head = sql.lstrip()[:8].upper()
        if head.startswith("BEGIN"):
            phase[0] = IN_TRANSACTION
        elif head.startswith("COMMIT"):
            phase[0] = AT_COMMIT
        elif head.startswith("ROLLBACK") or phase[0] == AT_COMMIT:
            phase[0] = OUTSIDE  # a statement after COMMIT began: the commit had finished

    return trace


# -- the parent ------------------------------------------------------------------------------------------------


@dataclass(slots=True)
class CrashReport:
    kills: int = 0
    seed: int = 0
    seconds: float = 0.0
    calls_returned: int = 0
    adds_returned: int = 0  # add calls whose return the journal holds
    adds_found: int = 0  # of those, with every message stored exactly once (final check)
    messages_returned: int = 0  # messages of the returned adds
    messages_found: int = 0
    ingests_returned: int = 0
    ingests_found: int = 0
    sessions_checked: int = 0  # whole-or-absent checks of ingested sessions, over every kill point
    sessions_stored: int = 0  # sessions in the database at the end
    turns_stored: int = 0
    kills_in_call: int = 0  # a call had begun and not returned
    kills_in_transaction: int = 0  # between BEGIN and COMMIT
    kills_at_commit: int = 0  # the COMMIT had begun, no later statement had
    kills_outside_transaction: int = 0
    kills_with_wal_tail: int = 0  # the WAL held frames written after its last commit
    cut_calls_landed: int = 0  # calls cut short whose writes were found (e.g. killed while embedding)
    cut_calls_absent: int = 0
    retries: int = 0  # calls a child retried for its killed predecessor
    retries_found_stored: int = 0
    mean_call_seconds: float = 0.0
    mean_delay_seconds: float = 0.0
    problems: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def render(self) -> str:
        lines = [
            f"crash harness: {self.kills} kill points (seed {self.seed}) in {self.seconds:.1f} s",
            f"  returned: {self.adds_returned} adds ({self.messages_returned} messages), {self.ingests_returned}"
            f" ingests; found: {self.adds_found} adds ({self.messages_found} messages), {self.ingests_found} ingests",
            f"  sessions checked whole-or-absent: {self.sessions_checked}; stored at the end: {self.sessions_stored}"
            f" sessions, {self.turns_stored} turns",
            f"  kills: {self.kills_in_call} during a call, {self.kills_in_transaction} mid-transaction,"
            f" {self.kills_at_commit} at COMMIT, {self.kills_outside_transaction} outside a transaction,"
            f" {self.kills_with_wal_tail} with uncommitted WAL frames",
            f"  cut calls: {self.cut_calls_landed} landed, {self.cut_calls_absent} absent; retried {self.retries}"
            f" ({self.retries_found_stored} found stored already)",
            f"  mean call {self.mean_call_seconds * 1000:.1f} ms,"
            f" mean kill delay {self.mean_delay_seconds * 1000:.1f} ms",
            f"  problems: {len(self.problems)}",
        ]
        lines += [f"    - {p}" for p in self.problems[:50]]
        return "\n".join(lines)


@dataclass(slots=True)
class _Ledger:
    """Every call any child began, and the keys of those that returned."""

    calls: dict[str, Call] = field(default_factory=dict)
    returned: set[str] = field(default_factory=set)
    durations: list[float] = field(default_factory=list)
    barren_lives: int = 0  # children killed before any call of any child returned


def run_crash(
    kills: int,
    *,
    seed: int = 0,
    db_dir: Path | None = None,
    ingest_share: float = INGEST_SHARE,
    max_calls: int = 100_000,
) -> CrashReport:
    """Kill ``kills`` children at random moments, checking the store after each; see the module docstring.
    ``ingest_share``: the share of calls that ingest a whole session (the others add messages)."""
    if db_dir is None:
        with tempfile.TemporaryDirectory(prefix="sodamem-crash-") as scratch:
            return run_crash(kills, seed=seed, db_dir=Path(scratch), ingest_share=ingest_share, max_calls=max_calls)
    db_dir.mkdir(parents=True, exist_ok=True)
    db = db_dir / DB_NAME
    phase_path = db_dir / "phase.bin"
    rng = random.Random(seed)
    report = CrashReport(seed=seed)
    ledger = _Ledger()
    delays: list[float] = []
    retry: list[Call] = []
    started = time.perf_counter()
    spares = [_spawn() for _ in range(min(SPARES, kills))]
    child: subprocess.Popen[str] | None = None
    try:
        for point in range(kills):
            child = spares.pop(0)
            phase_path.write_bytes(bytes([OUTSIDE]))
            journal = db_dir / f"journal-{point:04d}.jsonl"
            orders = {
                "db": str(db), "journal": str(journal), "phase": str(phase_path), "seed": seed, "child": point,
                "retry": [c.to_dict() for c in retry], "max_calls": max_calls, "ingest_share": ingest_share,
            }  # fmt: skip
            report.retries += len(retry)
            ready = _start(child, orders)
            if point + len(spares) + 1 < kills:
                spares.append(_spawn())  # imports while this child works
            delay = rng.uniform(0.0, CALLS_PER_LIFE * _mean_call(ledger))
            if ready:
                time.sleep(delay)
                delays.append(delay)
            exited = child.poll()
            if exited is None:
                child.send_signal(signal.SIGKILL)
            err = _reap(child)
            if not ready or exited is not None or "Traceback" in err:
                report.problems.append(f"kill point {point}: the child failed (exit {exited}): {tail(err)}")
            phase = phase_path.read_bytes()[0]
            wal_tail = wal_uncommitted_frames(Path(f"{db}-wal"))
            cut = _read_journal(journal, ledger, report)
            retry = [ledger.calls[key] for key in cut]
            ledger.barren_lives += not ledger.durations
            problems, found = verify(db, ledger, report)
            report.problems += [f"kill point {point}: {p}" for p in problems]
            _count_kill(report, phase, wal_tail, cut, found)
    finally:
        if child is not None and child.poll() is None:  # interrupted: the working child goes too
            child.kill()
            _reap(child)
        for proc in spares:
            proc.communicate("")  # EOF: a spare child exits without touching the store
    report.kills = kills
    report.seconds = time.perf_counter() - started
    report.mean_call_seconds = statistics.fmean(ledger.durations) if ledger.durations else 0.0
    report.mean_delay_seconds = statistics.fmean(delays) if delays else 0.0
    _final_counts(db, ledger, report)
    return report


def _spawn() -> subprocess.Popen[str]:
    env = dict(os.environ)
    src = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (src, env.get("PYTHONPATH", "")) if p)
    env.setdefault("OPENBLAS_NUM_THREADS", "1")
    return subprocess.Popen(
        [sys.executable, "-m", CHILD_MODULE],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def _start(child: subprocess.Popen[str], orders: dict[str, Any]) -> bool:
    """Give the child its orders and wait until it has opened the store (False: it failed or stayed silent)."""
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write(json.dumps(orders) + "\n")
    child.stdin.close()
    return _readline(child.stdout, READY_TIMEOUT) == "ready\n"


def _reap(child: subprocess.Popen[str]) -> str:
    """Wait for a (killed) child; return its stderr."""
    child.wait()
    assert child.stdout is not None and child.stderr is not None
    err = child.stderr.read()
    child.stdout.close()
    child.stderr.close()
    return err


def _readline(stream: IO[str], timeout: float) -> str:
    readable, _, _ = select.select([stream], [], [], timeout)
    return stream.readline() if readable else ""


def _mean_call(ledger: _Ledger) -> float:
    recent = ledger.durations[-100:]
    if recent:
        return statistics.fmean(recent)
    # Nothing returned yet: on a loaded machine a call outlasts the first guess, so each barren life doubles it.
    return FIRST_GUESS_SECONDS * float(2 ** min(ledger.barren_lives, 8))


def _read_journal(journal: Path, ledger: _Ledger, report: CrashReport) -> list[str]:
    """Record a killed child's journal; return the keys of the calls it began and did not return from."""
    open_calls: dict[str, bool] = {}  # key -> whether the call is a retry
    for record in read_journal(journal):
        if record.get("ev") == "begin":
            call = Call.from_dict(record)
            ledger.calls.setdefault(call.key, call)
            open_calls[call.key] = bool(record.get("retry"))
        elif record.get("ev") == "done":
            key = str(record["key"])
            retried = open_calls.pop(key, False)
            ledger.durations.append(float(record["s"]))
            report.retries_found_stored += retried and bool(record.get("unchanged"))
            if key not in ledger.returned:
                ledger.returned.add(key)
                report.calls_returned += 1
    return list(open_calls)


def _count_kill(report: CrashReport, phase: int, wal_tail: int, cut: list[str], found: dict[str, bool]) -> None:
    name = _PHASE_NAMES.get(phase, "outside")
    if name == "transaction":
        report.kills_in_transaction += 1
    elif name == "commit":
        report.kills_at_commit += 1
    else:
        report.kills_outside_transaction += 1
    report.kills_with_wal_tail += wal_tail > 0
    if cut:
        report.kills_in_call += 1
    for key in cut:
        if found.get(key):
            report.cut_calls_landed += 1
        else:
            report.cut_calls_absent += 1


def verify(db: Path, ledger: _Ledger, report: CrashReport | None = None) -> tuple[list[str], dict[str, bool]]:
    """Reopen the store and check it against the ledger; return the problems and, per call, whether it is stored."""
    problems: list[str] = []
    with Memory(db, embedder=EMBEDDER, extractor=None, annotator="fake") as memory:  # embeds what a killed add queued
        conn = sqlite_store(memory).conn
        queued = len(queued_turns(conn))
        if queued:
            problems.append(f"{queued} turn(s) still queued for embedding after the reopen")
        check = memory.check()
        problems += [f"check: {p.kind.value}: {p.message}" for p in check.problems]
        missing = sorted(REQUIRED_CHECKS - set(check.checks))
        if not any("fts" in name for name in check.checks):
            missing.append("the full-text indexes' integrity-check")
        if missing:
            problems.append(f"check did not run {missing}")
        rows = stored_turns(conn)
    by_id: dict[str, list[tuple[str, int, str]]] = {}
    by_session: dict[str, list[tuple[int, str]]] = {}
    for session_id, turn_id, index, text in rows:
        by_id.setdefault(turn_id, []).append((session_id, index, text))
        by_session.setdefault(session_id, []).append((index, turn_id))
    for session_id, turns in by_session.items():
        if [index for index, _ in turns] != list(range(len(turns))):
            problems.append(f"session {session_id!r}: turn indexes {[i for i, _ in turns][:20]} have a hole")
    found: dict[str, bool] = {}
    known: set[str] = set()
    for key, call in ledger.calls.items():
        ids = [m[0] for m in call.messages]
        known.update(ids)
        present = 0
        for id_, _, text in call.messages:
            copies = by_id.get(id_, [])
            if len(copies) > 1:
                problems.append(f"call {key}: message {id_} is stored {len(copies)} times")
            for session_id, _, stored_text in copies:
                if session_id != call.session_id or stored_text != text:
                    problems.append(f"call {key}: message {id_} is stored in {session_id!r} with other text")
            present += bool(copies)
        found[key] = present == len(ids)
        if key in ledger.returned and present != len(ids):
            problems.append(f"call {key} returned but {len(ids) - present} of its {len(ids)} message(s) are missing")
        elif 0 < present < len(ids):
            problems.append(f"call {key} is half-written: {present} of {len(ids)} messages stored")
        if call.kind == "ingest":
            if report is not None:
                report.sessions_checked += 1
            stored = [turn_id for _, turn_id in by_session.get(call.session_id, [])]
            if stored and stored != ids:
                problems.append(f"ingested session {call.session_id!r} is not whole: {len(stored)} of {len(ids)}")
    if unknown := sorted(set(by_id) - known):
        problems.append(f"{len(unknown)} stored turn(s) no call wrote, e.g. {unknown[:5]}")
    return problems, found


def _final_counts(db: Path, ledger: _Ledger, report: CrashReport) -> None:
    if not db.exists():
        return
    _, found = verify(db, ledger)
    for key in ledger.returned:
        call = ledger.calls[key]
        if call.kind == "add":
            report.adds_returned += 1
            report.messages_returned += len(call.messages)
            report.adds_found += found[key]
            report.messages_found += len(call.messages) if found[key] else 0
        else:
            report.ingests_returned += 1
            report.ingests_found += found[key]
    with Memory(db, embedder=EMBEDDER, extractor=None, annotator="fake") as memory:
        stats = memory.stats(all_users=True)
    report.sessions_stored = sum(s.sessions for s in stats)
    report.turns_stored = sum(s.turns for s in stats)


# -- the WAL -----------------------------------------------------------------------------------------------------

_WAL_HEADER = struct.Struct(">IIIIIIII")
_FRAME_HEADER = struct.Struct(">IIIIII")
_WAL_MAGIC = (0x377F0682, 0x377F0683)


def wal_uncommitted_frames(wal: Path) -> int:
    """Frames of the current WAL (its salts) written after its last commit frame, a torn frame included: what a
    kill left of a transaction that had not committed. 0 when there is no WAL."""
    try:
        data = wal.read_bytes()
    except FileNotFoundError:
        return 0
    if len(data) < _WAL_HEADER.size:
        return 0
    magic, _, page_size, _, salt1, salt2, _, _ = _WAL_HEADER.unpack_from(data)
    if magic not in _WAL_MAGIC or page_size < 512:
        return 0
    frame_size = _FRAME_HEADER.size + page_size
    offset, frames, last_commit = _WAL_HEADER.size, 0, 0
    while offset + _FRAME_HEADER.size <= len(data):
        _, commit_size, s1, s2, _, _ = _FRAME_HEADER.unpack_from(data, offset)
        if (s1, s2) != (salt1, salt2):
            break  # a frame of an earlier WAL generation: the current one ends here
        frames += 1
        if offset + frame_size > len(data):
            break  # torn: the header was written, not the whole page
        if commit_size:
            last_commit = frames
        offset += frame_size
    return frames - last_commit


# -- the command -------------------------------------------------------------------------------------------------


@click.command("crash")
@click.option("--kills", default=200, show_default=True, type=click.IntRange(min=1), help="Kill points.")
@click.option("--seed", default=0, show_default=True, type=int)
@click.option(
    "--db-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Keep the database and journals here (default: a temporary directory).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def crash_command(kills: int, seed: int, db_dir: Path | None, as_json: bool) -> None:
    """Crash safety: SIGKILL a process that adds and ingests at random moments, check the store after each kill
    (integrity, FTS, quotes, vectors after the reopen, every returned add present exactly once, sessions whole or
    absent). Exits 1 when any check found a problem."""
    report = run_crash(kills, seed=seed, db_dir=db_dir)
    click.echo(json.dumps(report.to_dict(), indent=1) if as_json else report.render())
    if report.problems:
        raise SystemExit(1)


if __name__ == "__main__":
    raise SystemExit(child_main())
