"""Users are walled off, statistics too: one user's results and their order do not move with another's data."""

from __future__ import annotations

import sqlite3
from datetime import datetime
from pathlib import Path

import pytest

from sodamem import Memory
from sodamem.ingest.formats import load_sessions
from sodamem.store import migrations
from sodamem.store.sqlite import SQLiteStore

EXAMPLE = Path(__file__).parents[1] / "src" / "sodamem" / "examples" / "history.jsonl"
QUESTIONS = (
    "Where does Maya live?",
    "What is Maya's dog called?",
    "When is the trip to Lisbon?",
    "spicy food",
    "Who is Priya's fiancé?",
    "What did Tom and Maya do in the Peak District?",
)
NOW = datetime(2026, 4, 1)


def results(memory: Memory, mode: str) -> list[list[tuple[str, str, int, int, float]]]:
    out = []
    for question in QUESTIONS:
        hits = memory.search(question, k=8, mode=mode, now=NOW)
        out.append([(h.session_id, h.turn_id, h.char_start, h.char_end, round(h.score, 9)) for h in hits])
    return out


@pytest.mark.parametrize("mode", ["bm25", "dense", "sodamem"])
def test_results_and_their_order_ignore_other_users_adds_and_forgets(memory_location: str, mode: str) -> None:
    sessions = load_sessions(EXAMPLE, "auto")
    with Memory(memory_location, user="maya", embedder="fake") as memory:
        memory.ingest(sessions[:8], user="maya")
        alone = results(memory, mode)
        assert all(alone)
        # Another user says the same words, many times over, and more: every statistic of a shared index moves.
        memory.ingest(sessions, user="noisy")
        for i in range(30):
            memory.add(f"Maya lives in Lisbon with her dog {i} and loves spicy food.", session_id="x", user="noisy")
        assert results(memory, mode) == alone
        memory.forget(everything=True, user="noisy")
        assert results(memory, mode) == alone
        memory.ingest(sessions[8:], user="maya")  # the user's own data does move them
        assert results(memory, mode) != alone or mode == "dense"


def test_a_database_with_shared_indexes_moves_to_per_user_ones(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file made before the per-user indexes (migrations up to 0007, rows indexed by the shared triggers)."""
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path, isolation_level=None)
    monkeypatch.setattr(migrations, "MIGRATIONS", tuple(m for m in migrations.MIGRATIONS if m[0] < "0008"))
    migrations.apply_migrations(conn)
    monkeypatch.undo()
    rows = [("maya", "s1", "My dog Biscuit loves the canal."), ("bob", "b1", "I adopted a parrot called Kiwi.")]
    for pk, (user, session_id, text) in enumerate(rows, start=1):
        conn.execute(
            "INSERT INTO sessions (id, user, session_id, timestamp, content_hash, ingested_at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (pk, user, session_id, "2024-01-01T00:00:00", "h", "t"),
        )
        conn.execute(
            "INSERT INTO turns (id, session_pk, user, idx, turn_id, speaker, text, timestamp) VALUES (?, ?, ?, 0, ?,"
            " 'user', ?, '2024-01-01T00:00:00')",
            (pk, pk, user, f"{session_id}:0", text),
        )
        conn.execute(
            "INSERT INTO pieces (turn_pk, user, idx, char_start, char_end, text) VALUES (?, ?, 0, 0, ?, ?)",
            (pk, user, len(text), text),
        )
    assert conn.execute("SELECT count(*) FROM turns_fts WHERE turns_fts MATCH 'kiwi'").fetchone()[0] == 1
    conn.close()
    with Memory(path, user="maya", embedder="none") as memory:
        assert memory.check().ok, memory.check().problems
        assert memory.search("Biscuit", k=3, mode="bm25")[0].session_id == "s1"
        assert memory.search("Kiwi parrot", k=3, mode="bm25") == []
        assert memory.search("Kiwi parrot", k=3, mode="bm25", user="bob")[0].session_id == "b1"
    with sqlite3.connect(path) as conn:
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    assert "turns_fts" not in names and {"turns_fts_u1", "turns_fts_u2"} <= names


def test_a_user_name_never_becomes_sql(memory_location: str) -> None:
    evil = "x' OR 1=1); DROP TABLE turns; --\"]"
    with Memory(memory_location, embedder="none") as memory:
        memory.add("I live in Leeds.", session_id="s", user="plain")
        memory.add("I live in York.", session_id="s", user=evil)
        assert [h.text for h in memory.search("live", mode="bm25", user=evil)] == ["I live in York."]
        assert [h.text for h in memory.search("live", mode="bm25", user="plain")] == ["I live in Leeds."]
        assert memory.check().ok


def test_pending_index_changes_apply_before_commit_and_at_open(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    store = SQLiteStore(path)
    with store.transaction() as conn:
        conn.execute(
            "INSERT INTO sessions (user, session_id, timestamp, content_hash, ingested_at)"
            " VALUES ('u', 's', 't', 'h', 't')"
        )
        conn.execute(
            "INSERT INTO turns (session_pk, user, idx, turn_id, speaker, text, timestamp) VALUES (1, 'u', 0, 't', 'a',"
            " 'zebra crossing', 't')"
        )
    assert store.conn.execute("SELECT count(*) FROM fts_pending").fetchone()[0] == 0
    assert [r.rowid for r in store.search_turns("u", '"zebra"', 5)] == [1]
    store.conn.execute("UPDATE turns SET text = 'giraffe crossing'")  # a hand outside the store: logged only
    store.close()
    reopened = SQLiteStore(path)
    assert reopened.search_turns("u", '"zebra"', 5) == []
    assert [r.rowid for r in reopened.search_turns("u", '"giraffe"', 5)] == [1]
    reopened.close()


@pytest.mark.slow
def test_bench_users_smoke() -> None:
    from sodamem.bench.users import measure_users, render_users_markdown

    figures = measure_users([1, 3])
    assert [f.users for f in figures] == [1, 3]
    assert all(f.first_add_ms > 0 and f.later_add_ms > 0 and f.open_and_search_ms > 0 for f in figures)
    assert figures[1].file_mb > figures[0].file_mb  # each user's indexes take pages of their own
    assert "| 3 |" in render_users_markdown(figures)
