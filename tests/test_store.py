from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from sodamem import Memory
from sodamem.store.migrations import MIGRATIONS
from sodamem.store.sqlite import SQLiteStore
from tests.conftest import make_session


def test_migrations_are_recorded_and_applied_once(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    SQLiteStore(path).close()
    store = SQLiteStore(path)  # reopening applies nothing new
    names = [r[0] for r in store.conn.execute("SELECT name FROM _migrations ORDER BY name")]
    assert names == [name for name, _ in MIGRATIONS]
    store.close()


def test_wal_and_foreign_keys_are_on(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "m.db")
    assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    with pytest.raises(sqlite3.IntegrityError):
        store.conn.execute(
            "INSERT INTO turns (session_pk, user, idx, turn_id, speaker, text, timestamp) "
            "VALUES (999, 'u', 0, 't', 's', 'x', '2024-01-01')"
        )
    store.close()


def test_piece_offsets_are_checked_by_the_schema(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "m.db")
    with pytest.raises(sqlite3.IntegrityError):
        store.conn.execute(
            "INSERT INTO pieces (turn_pk, user, idx, char_start, char_end, text) VALUES (1, 'u', 0, 0, 5, 'abc')"
        )
    store.close()


def test_write_session_is_all_or_nothing(tmp_path: Path) -> None:
    from sodamem.ingest.pieces import split_pieces

    store = SQLiteStore(tmp_path / "m.db")
    session = make_session("s1", ["hello there.", "general kenobi"])
    good = [split_pieces(t.text) for t in session.turns]
    bad = [good[0]]  # one piece list short: fails after the session and first turn are written
    with pytest.raises(ValueError):
        store.write_session("u", session, bad, "hash", replace=False)
    for table in ("sessions", "turns", "pieces", "fts_users", "fts_pending"):
        assert store.conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0] == 0, table
    store.write_session("u", session, good, "hash", replace=False)
    assert store.conn.execute("SELECT count(*) FROM turns").fetchone()[0] == 2
    store.close()


def test_fts_follows_deletes(tmp_path: Path) -> None:
    from sodamem.ingest.pieces import split_pieces

    store = SQLiteStore(tmp_path / "m.db")
    session = make_session("s1", ["zebra crossing"])
    store.write_session("u", session, [split_pieces("zebra crossing")], "h", replace=False)
    assert store.search_turns("u", '"zebra"', 10)
    with store.transaction() as conn:  # every write goes through a store transaction, which updates the index
        conn.execute("DELETE FROM sessions")
    assert store.search_turns("u", '"zebra"', 10) == []
    assert store.search_pieces("u", '"zebra"', 10) == []
    store.close()


def test_stats_per_user(tmp_path: Path) -> None:
    from sodamem.ingest.pieces import split_pieces

    store = SQLiteStore(tmp_path / "m.db")
    store.write_session("a", make_session("s1", ["one. two."]), [split_pieces("one. two.")], "h", replace=False)
    store.write_session("b", make_session("s1", ["three"]), [split_pieces("three")], "h", replace=False)
    by_user = {s.user: s for s in store.stats()}
    assert (by_user["a"].sessions, by_user["a"].turns, by_user["a"].pieces) == (1, 1, 2)
    assert (by_user["b"].sessions, by_user["b"].turns, by_user["b"].pieces) == (1, 1, 1)
    assert [s.user for s in store.stats("nobody")] == ["nobody"]
    assert store.stats("nobody")[0].sessions == 0
    store.close()


def test_speakers_are_reread_after_a_write(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", embedder="none") as memory:
        assert memory.store.speakers(memory.user) == frozenset()
        memory.ingest([make_session("s1", ["hello"])])
        assert memory.store.speakers(memory.user) == {"user"}
        memory.ingest([make_session("s2", ["hi", "hello there"])])
        assert memory.store.speakers(memory.user) == {"user", "assistant"}
        assert memory.store.speakers("someone-else") == frozenset()
