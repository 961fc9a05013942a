"""Many processes, one memory: 4 writers (2 on one shared session), 2 searchers and a forgetter on one file."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from sodamem.bench.concurrency import FORGET_EVERY, run_many

WRITERS, MESSAGES, SEEDS = 4, 200, 12


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="POSIX processes")
def test_writers_searchers_and_a_forgetter_share_one_memory(tmp_path: Path) -> None:
    report = run_many(tmp_path, writers=WRITERS, shared_writers=2, messages=MESSAGES, searchers=2, seeds=SEEDS)
    print(json.dumps(report.to_dict(), indent=1))
    # No process failed: every one exited 0 with no traceback.
    assert report.failures == {}, "\n\n".join(f"{name}:\n{err}" for name, err in report.failures.items())
    assert set(report.exit_codes.values()) == {0}
    # Every add returned and is stored exactly once, with its text, in its session, in its writer's order.
    assert report.adds_returned == WRITERS * MESSAGES
    assert report.turns_forgotten == WRITERS * MESSAGES // FORGET_EVERY and report.sessions_forgotten == SEEDS
    assert report.adds_found_once == report.adds_returned - report.turns_forgotten
    # Everything forgotten is gone: turns, facts drawn from them, full-text rows, search hits.
    assert report.forgotten_found == 0
    # The searchers searched throughout, and one saw each writer's latest add (lexically and densely) with its
    # caches warm: another process's writes are visible to the next search.
    assert report.searches >= 50 and report.probes >= 20 and report.probe_failures == 0, report.probe_misses
    # check() is ok, and nothing else was found wrong.
    assert report.problems == [], "\n".join(report.problems[:20])
