"""A store written under older supersession rules: ``check`` says so, ``repair`` recomputes every slot (both
backends)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from sodamem import Memory
from sodamem.store.integrity import ProblemKind

from .test_check import run_check


def relations(memory: Memory) -> list[tuple[str, str | None, str]]:
    return [(f.predicate, f.object, f.status) for f in memory.facts(status="all") if f.kind == "relation"]


def test_repair_supersedes_an_older_stores_facts_under_todays_rules(memory_location: str) -> None:
    with Memory(memory_location, embedder="none") as memory:
        memory.add("My boyfriend Tom is a chef.", session_id="s1", timestamp=datetime(2026, 1, 2, 21))
        assert memory.check().ok
        # as the rules before 2026-12-06 left it: a relation competed in no slot
        with memory.store.transaction() as conn:
            conn.execute("UPDATE facts SET slot = NULL WHERE kind = 'relation'")
    with Memory(memory_location, embedder="none") as memory:
        assert [p.kind for p in memory.check().problems] == [ProblemKind.SLOT_RULES]
        memory.add("Tom and I broke up on Saturday.", session_id="s2", timestamp=datetime(2026, 3, 2, 21))
        assert ("boyfriend", "Tom", "active") in relations(memory)  # the old fact is in no slot yet
        memory.repair()
        assert relations(memory) == [("boyfriend", "Tom", "superseded"), ("partner", "Tom", "active")]
        assert memory.check().ok, memory.check().problems
        assert memory.ask("Who is my boyfriend?", offline=True).answer == "no one now (previously Tom)"


def test_cli_check_names_older_rules_and_repair_clears_them(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "m.db"
    with Memory(path, embedder="none") as memory:
        memory.add(["I work at Google.", "I was fired last week."], session_id="s1", timestamp=datetime(2026, 1, 2))
        # as the rules before 2026-12-06 left it: a denial of no value ended nothing
        with memory.store.transaction() as conn:
            conn.execute("UPDATE facts SET status = 'active', valid_to = NULL")
    assert run_check(path) == 1
    assert "1 fact(s) superseded under older rules" in capsys.readouterr().out
    assert run_check(path, "--repair") == 0
    assert run_check(path) == 0
