"""Four real processes adding to one PostgreSQL memory at once: nothing lost, nothing duplicated, no error, whether
they write for one user (one at a time, under that user's lock) or each for its own (at once)."""

from __future__ import annotations

import sys

import pytest

from sodamem import Memory
from sodamem.bench.parallel_adds import run_parallel_adds

pytestmark = [pytest.mark.slow, pytest.mark.skipif(sys.platform == "win32", reason="POSIX processes")]

PROCESSES, MESSAGES = 4, 40


@pytest.mark.parametrize("shared_user", [True, False], ids=["one user", "a user each"])
def test_four_processes_add_to_one_postgres_memory(postgres_url: str, shared_user: bool) -> None:
    result = run_parallel_adds(postgres_url, PROCESSES, MESSAGES, shared_user=shared_user)
    assert result.errors == 0, result.first_error
    assert result.lost == 0
    assert result.duplicated == 0
    with Memory(postgres_url, embedder="none") as memory:
        assert memory.check().ok
