"""The load process of ``sodamem bench serve`` (``python -m sodamem.bench.serve_traffic``): one asyncio loop, one
``LoadClient`` per simulated client, nothing else to do, so it stays a few percent of one core.

It reads its orders (one JSON line) on stdin, answers ``ready``, waits for ``go``, runs the searchers, adders and
askers until the time or the request count is spent, and writes the result as one JSON line: per operation the
latencies of the answered requests and the error statuses, every acked and unanswered add, a few error samples.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from sodamem.bench.load_client import LoadClient, LoadClientError

OPERATIONS = ("search", "add", "ask")
REQUEST_TIMEOUT = 60.0  # one request; a slower answer counts as an error


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
