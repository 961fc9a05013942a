from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from sodamem import Memory, NotFoundError
from sodamem.demo import example_history_path
from sodamem.store import migrations
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


def test_synchronous_is_normal_by_default_and_full_on_request(tmp_path: Path) -> None:
    """SQLite's commits do not wait for the disk by default (NORMAL); ``sqlite_synchronous="FULL"`` makes each
    commit sync the WAL (PostgreSQL's default durability), for every connection that asks, writes included."""
    path = tmp_path / "m.db"
    with Memory(path, user="u", embedder="none") as memory:
        assert isinstance(memory.store, SQLiteStore)
        assert memory.store.synchronous == "NORMAL"
        assert memory.store.conn.execute("PRAGMA synchronous").fetchone()[0] == 1
    for level in ("FULL", "full", " Full "):
        with Memory(path, user="u", embedder="none", sqlite_synchronous=level) as memory:
            assert isinstance(memory.store, SQLiteStore)
            assert memory.store.synchronous == "FULL"
            assert memory.store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"  # still WAL
            memory.add({"speaker": "user", "text": f"I moved to Lisbon ({level})."}, session_id="s1")
    with Memory(path, user="u", embedder="none") as memory:  # the level is the connection's, never stored
        assert isinstance(memory.store, SQLiteStore)
        assert memory.store.synchronous == "NORMAL"
        assert len(memory.search("Lisbon", k=5)) == 3
    store = SQLiteStore(path, synchronous="NORMAL")
    assert store.synchronous == "NORMAL"
    store.close()


@pytest.mark.parametrize("level", ["OFF", "EXTRA", "0", "", "fast"])
def test_other_synchronous_levels_are_refused_before_opening(tmp_path: Path, level: str) -> None:
    """OFF could corrupt the file on a power cut; the refusal comes before the file is created."""
    path = tmp_path / "m.db"
    with pytest.raises(ValueError, match="NORMAL, FULL"):
        Memory(path, user="u", embedder="none", sqlite_synchronous=level)
    with pytest.raises(ValueError, match="NORMAL, FULL"):
        SQLiteStore(path, synchronous=level)
    assert not path.exists()


def test_sqlite_synchronous_is_refused_for_postgres() -> None:
    """PostgreSQL's durability is its own setting (``synchronous_commit``): refused before any connection."""
    with pytest.raises(ValueError, match="synchronous_commit"):
        Memory("postgresql://nobody@/nowhere?host=/nonexistent", embedder="none", sqlite_synchronous="FULL")


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


def test_a_forgotten_facts_or_pieces_id_is_never_given_again(memory_location: str) -> None:
    with Memory(memory_location, embedder="none") as memory:
        memory.add("I live in Paris.", session_id="s1")
        (paris,) = memory.facts()
        newest_piece = memory.session("s1").turns[0]
        piece_id = memory.piece(f"{newest_piece.turn_id}#0", session_id="s1").piece_pk
        memory.forget(fact_id=paris.id)
        memory.forget(session_id="s1")
        memory.add("I work at Acme Corp.", session_id="s2")
        assert all(f.id > paris.id for f in memory.facts(status="all"))
        assert memory.piece(f"{memory.session('s2').turns[0].turn_id}#0", session_id="s2").piece_pk > piece_id
        with pytest.raises(NotFoundError):
            memory.forget(fact_id=paris.id)  # a retried forget reaches nothing, not the newer fact


def test_a_file_made_before_ids_were_never_reused_keeps_its_rows_and_ids(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The migration makes facts and pieces anew (AUTOINCREMENT): same rows, ids, indexes, triggers and views."""
    path = tmp_path / "old.db"
    earlier = tuple((name, sql) for name, sql in MIGRATIONS if name != "0013_ids_never_reused")
    monkeypatch.setattr(migrations, "MIGRATIONS", earlier)
    with Memory(path, embedder="fake") as old:
        old.ingest(example_history_path())
        old.add("I love tea.", session_id="b", user="bob")
        before = ([(f.id, f.text, f.status) for f in old.facts(status="all")], old.search("Biscuit", k=5))
    monkeypatch.undo()
    with Memory(path, embedder="fake") as memory:
        names = [r[0] for r in memory.store.conn.execute("SELECT name FROM _migrations ORDER BY name")]
        assert names[-1] == "0013_ids_never_reused"
        assert ([(f.id, f.text, f.status) for f in memory.facts(status="all")], memory.search("Biscuit", k=5)) == before
        assert memory.search("tea", k=1, user="bob")[0].text == "I love tea." and memory.check().ok
        tables = [
            str(r[0])
            for r in memory.store.conn.execute("SELECT sql FROM sqlite_master WHERE name IN ('facts', 'pieces')")
        ]
        assert len(tables) == 2 and all("AUTOINCREMENT" in sql for sql in tables)
        newest = max(f.id for f in memory.facts(status="all"))
        memory.forget(fact_id=newest)
        memory.add("I work at Acme Corp.", session_id="c")
        assert max(f.id for f in memory.facts(status="all")) > newest
