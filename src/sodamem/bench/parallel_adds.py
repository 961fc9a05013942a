"""Several processes adding to one memory at once (an SQLite file or a PostgreSQL database): throughput against one
process, and every message checked afterwards.

Each process opens the memory, waits at a barrier with the others, then adds its ``messages`` one at a time
(``Memory.add``, no embedder), each with its own message id, to its own session: for one user shared by all the
processes (``shared_user``; on PostgreSQL they then queue on that user's write lock, as on SQLite's one writer), or
for a user of its own (PostgreSQL lets different users' writers proceed at once). Throughput is every add over the
span from the first process's start to the last one's end (wall clock). Afterwards the parent counts the stored
turns of every message id: lost (none), duplicated (more than one), and the errors the processes met.
"""

from __future__ import annotations

import multiprocessing
import time
import traceback
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta
from typing import Any

from sodamem.bench.sqlite_only import portable_store
from sodamem.memory import Memory
from sodamem.store.inspect import turn_id_counts

START = datetime(2024, 6, 1, 9, 0)
WORDS = ("garden", "violin", "harbour", "lantern", "meadow", "pottery", "quartz", "saffron")


@dataclass(frozen=True, slots=True)
class ParallelAdds:
    processes: int
    shared_user: bool
    messages_per_process: int
    seconds: float
    adds_per_s: float
    lost: int
    duplicated: int
    errors: int
    first_error: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _user(process: int, shared_user: bool) -> str:
    return "together" if shared_user else f"user{process}"


def _message(process: int, number: int) -> dict[str, str]:
    word = WORDS[(process + number) % len(WORDS)]
    return {
        "id": f"p{process}-{number:04d}",
        "speaker": "user",
        "text": f"Process {process} note {number}: I bought a {word} token p{process}x{number}q today.",
    }


def _adder(location: str, process: int, shared_user: bool, count: int, barrier: Any, results: Any) -> None:
    """One process's adds (top level: a spawned process imports it). Puts ``(start, end, errors, first error)``."""
    errors, first = 0, ""
    try:
        with Memory(location, embedder="none") as memory:
            barrier.wait()
            start = time.time()
            for number in range(count):
                try:
                    memory.add(
                        _message(process, number),
                        session_id=f"s{process}",
                        user=_user(process, shared_user),
                        timestamp=START + timedelta(minutes=number),
                    )
                except Exception:  # counted and reported: the run goes on
                    errors += 1
                    first = first or traceback.format_exc()
            end = time.time()
    except Exception:
        results.put((0.0, 0.0, count, traceback.format_exc()))
        return
    results.put((start, end, errors, first))


def run_parallel_adds(location: str, processes: int, messages: int, *, shared_user: bool) -> ParallelAdds:
    """``processes`` spawned processes, each adding ``messages`` to the (empty) memory at ``location``; then the
    stored turns are counted against what was added."""
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(processes)
    results = context.Queue()
    workers = [
        context.Process(target=_adder, args=(location, p, shared_user, messages, barrier, results))
        for p in range(processes)
    ]
    for worker in workers:
        worker.start()
    outcomes = [results.get(timeout=3600) for _ in workers]
    for worker in workers:
        worker.join(60)
    starts = [o[0] for o in outcomes if o[0]]
    ends = [o[1] for o in outcomes if o[1]]
    seconds = max(ends) - min(starts) if starts and ends else 0.0
    errors = sum(int(o[2]) for o in outcomes) + sum(1 for w in workers if w.exitcode != 0)
    first = next((str(o[3]) for o in outcomes if o[3]), "")
    with Memory(location, embedder="none") as memory:
        counts = turn_id_counts(portable_store(memory).conn)
    expected = {
        (_user(p, shared_user), f"s{p}", _message(p, n)["id"]) for p in range(processes) for n in range(messages)
    }
    lost = sum(1 for key in expected if counts.get(key, 0) == 0)
    duplicated = sum(n - 1 for key, n in counts.items() if key in expected and n > 1)
    duplicated += sum(n for key, n in counts.items() if key not in expected)
    total = processes * messages
    return ParallelAdds(
        processes, shared_user, messages, seconds, total / seconds if seconds > 0 else 0.0, lost, duplicated,
        errors, first[-2000:],
    )  # fmt: skip
