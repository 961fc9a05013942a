"""Two processes superseding the same slot of one PostgreSQL memory at once end where one after the other ends:
no lost update (PostgresStore's writes hold a transaction-level advisory lock to their commit)."""

from __future__ import annotations

import multiprocessing
from datetime import datetime

import pytest

from sodamem import Memory

pytestmark = pytest.mark.slow

ROUNDS = 4
MOVES = {"a": ("2024-02-01T10:00:00", "I live in Leeds now."), "b": ("2024-03-01T10:00:00", "I live in York now.")}


def _add(url: str, user: str, session_id: str, start: object) -> None:
    when, text = MOVES[session_id]
    with Memory(url, user=user, embedder="none") as memory:
        start.wait()  # type: ignore[attr-defined]  # a barrier: both processes add at the same moment
        memory.add(text, session_id=session_id, timestamp=datetime.fromisoformat(when), speaker="user")


def _slot(memory: Memory, user: str) -> list[tuple[str, str, str | None, str | None]]:
    return sorted(
        (f.text, f.status, f.valid_from, f.valid_to)
        for f in memory.facts(status="all", user=user)
        if "lives in" in f.text
    )


def _seed(memory: Memory, user: str) -> None:
    memory.add("I live in Paris.", session_id="s0", user=user, timestamp=datetime(2024, 1, 1, 10), speaker="user")


def test_two_processes_superseding_one_slot_lose_no_update(postgres_url: str) -> None:
    context = multiprocessing.get_context("spawn")
    with Memory(postgres_url, embedder="none") as memory:
        for r in range(ROUNDS):
            _seed(memory, f"together{r}")
        _seed(memory, "in_turn")
        for session_id in ("a", "b"):
            when, text = MOVES[session_id]
            memory.add(text, session_id=session_id, user="in_turn", timestamp=datetime.fromisoformat(when))
        expected = _slot(memory, "in_turn")
    assert [status for _, status, _, _ in expected].count("active") == 1
    for r in range(ROUNDS):
        start = context.Barrier(len(MOVES))
        workers = [context.Process(target=_add, args=(postgres_url, f"together{r}", s, start)) for s in MOVES]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(120)
            assert worker.exitcode == 0
    with Memory(postgres_url, embedder="none") as memory:
        for r in range(ROUNDS):
            assert _slot(memory, f"together{r}") == expected, r
        assert memory.check().ok


def test_writers_of_two_users_proceed_at_once_and_one_users_writers_wait(postgres_url: str) -> None:
    """While one connection holds alice's write lock (an open write transaction for her), bob's add on another
    connection completes, and alice's own add waits until the lock is released."""
    import threading

    with Memory(postgres_url, embedder="none") as holder, Memory(postgres_url, embedder="none") as other:
        _seed(other, "alice")
        _seed(other, "bob")
        done: dict[str, threading.Event] = {name: threading.Event() for name in ("bob", "alice")}

        def add(name: str) -> None:
            with Memory(postgres_url, embedder="none") as memory:
                memory.add("I live in Oslo now.", session_id="later", user=name, timestamp=datetime(2024, 5, 1))
            done[name].set()

        with holder.store.writing("alice"):
            waiting = threading.Thread(target=add, args=("alice",))
            waiting.start()
            passing = threading.Thread(target=add, args=("bob",))
            passing.start()
            passing.join(120)
            assert done["bob"].is_set()  # another user's add finished while alice's lock was held
            assert not done["alice"].is_set()  # alice's own add cannot finish before the lock is released
        waiting.join(120)
        assert done["alice"].is_set()
        for name in ("alice", "bob"):
            assert [status for _, status, _, _ in _slot(other, name)].count("active") == 1
        assert other.check().ok
