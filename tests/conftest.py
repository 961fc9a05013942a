from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest

from sodamem import Memory, Session, Turn
from tests.postgres_server import postgres_cluster, postgres_url  # noqa: F401  (fixtures: a real PostgreSQL)
from tests.scenario_histories import made_memories

# The CLI's default embedder is the local MiniLM; the fast tier uses the shipped fake (subprocesses inherit this).
# Tests of the real model unset it explicitly and are marked slow.
os.environ.setdefault("SODAMEM_EMBEDDER", "fake")
# A developer's local model must not turn offline tests into minutes-long LLM runs; LLM tests set what they need.
os.environ.pop("SODAMEM_LLM_GGUF", None)

DATA_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "data"
LOCOMO_DEV = DATA_DIR / "locomo" / "locomo_dev.json"


def make_session(session_id: str, texts: list[str], *, when: str = "2024-03-01T10:00:00", user: str = "") -> Session:
    turns = tuple(
        Turn(index=i, speaker="user" if i % 2 == 0 else "assistant", text=t, turn_id=f"{session_id}:{i}")
        for i, t in enumerate(texts)
    )
    return Session(session_id=session_id, timestamp=datetime.fromisoformat(when), turns=turns, user=user)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.slow)])
def memory_location(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a test's memory lives, once per backend: an SQLite file, then a fresh PostgreSQL database (the slow
    tier: tests/postgres_server.py starts the server, or the test skips saying why)."""
    if request.param == "sqlite":
        return str(tmp_path / "memory.db")
    return str(request.getfixturevalue("postgres_url"))


@pytest.fixture
def memory(memory_location: str) -> Memory:
    mem = Memory(memory_location)
    yield mem
    mem.close()


@pytest.fixture(scope="module")
def scenario_memories() -> Iterator[dict[int, Memory]]:
    """One memory per scenario history (``tests/scenario_histories.py``), made on first use, closed at the end."""
    yield from made_memories()
