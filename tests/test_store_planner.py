"""SQLite's planner statistics (store/planner.py): taken once the memory is large enough, again when it doubles,
and then the listed rows are read by rowid, not the whole user through the index on ``user``."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from sodamem import Memory, Session, Turn
from sodamem.store import planner


def _sessions(first: int, count: int, turns: int = 10) -> list[Session]:
    return [
        Session(
            f"s{n}",
            datetime(2024, 1, 1, 9),
            tuple(
                Turn(i, "user" if i % 2 == 0 else "assistant", f"Note {n}.{i} about item {n}", f"s{n}:{i}")
                for i in range(turns)
            ),
        )
        for n in range(first, first + count)
    ]


def _plan(memory: Memory, sql: str, params: tuple[object, ...]) -> str:
    return " ".join(str(row[-1]) for row in memory.store.conn.execute("EXPLAIN QUERY PLAN " + sql, params))


def test_statistics_are_taken_past_the_minimum_and_again_when_the_turns_double(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(planner, "MIN_TURNS", 100)
    with Memory(tmp_path / "m.db", embedder="none") as memory:
        conn = memory.store.conn
        memory.ingest(_sessions(0, 5))  # 50 turns: below the minimum
        assert planner.analyzed_turns(conn) == 0
        memory.ingest(_sessions(5, 10))  # 150
        assert planner.analyzed_turns(conn) == 150
        memory.ingest(_sessions(15, 10))  # 250: not yet twice 150
        assert planner.analyzed_turns(conn) == 150 and not memory.store.refresh_planner_statistics()
        for n in range(6):  # live adds: the one that reaches 300 turns refreshes them
            memory.add([f"message {n}.{i}" for i in range(10)], session_id=f"live{n}")
        assert planner.analyzed_turns(conn) == 300


def test_with_statistics_listed_turns_are_read_by_rowid(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(planner, "MIN_TURNS", 100)
    listed = list(range(1, 21))
    sql = f"SELECT id, text FROM turns WHERE user = ? AND id IN ({', '.join('?' * len(listed))})"
    with Memory(tmp_path / "m.db", embedder="none") as memory:
        memory.ingest(_sessions(0, 5))
        assert "USING INDEX" in _plan(memory, sql, ("default", *listed))  # the index on user: every turn of theirs
        memory.ingest(_sessions(5, 100))
        assert "INTEGER PRIMARY KEY" in _plan(memory, sql, ("default", *listed))
        texts = memory.store.turn_texts("default", [1, 2, 3])
        assert [texts[pk].text for pk in (1, 2, 3)] == [
            "Note 0.0 about item 0",
            "Note 0.1 about item 0",
            "Note 0.2 about item 0",
        ]
