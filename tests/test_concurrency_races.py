"""Races the crash and many-process harnesses found, each made deterministic: a process dies, or another connection
acts, at the exact moment between two steps of one call.

Each was a bug the harnesses found (kept here so that it stays fixed).
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from sodamem import Memory
from sodamem.store.migrations import apply_migrations

KILLED_AFTER_COMMIT = """
import os, sys
from datetime import datetime
from sodamem import Memory, Session, Turn
from sodamem.store.sqlite import SQLiteStore

memory = Memory(sys.argv[1], embedder="fake")
memory.add("I live in Leeds.", session_id="live")  # the database now records its embedder
SQLiteStore.put_embeddings = lambda *args, **kwargs: os._exit(9)  # die before the first vector is written
if sys.argv[2] == "ingest":
    memory.ingest([Session("s", datetime(2024, 5, 1), (Turn(0, "user", "I love tea.", "s:0"),))])
else:
    memory.import_dump(sys.argv[3], user="other")
"""


@pytest.mark.parametrize("call", ["ingest", "import_dump"])
def test_a_kill_after_an_ingest_commits_leaves_vectors_complete_after_the_reopen(tmp_path: Path, call: str) -> None:
    db, dump = tmp_path / "m.db", tmp_path / "dump.jsonl"
    with Memory(tmp_path / "source.db", embedder="none") as source:
        source.add("I love tea.", session_id="s")
        dump.write_text("".join(source.export()), "utf-8")
    proc = subprocess.run(
        [sys.executable, "-c", KILLED_AFTER_COMMIT, str(db), call, str(dump)], capture_output=True, text=True
    )
    assert proc.returncode == 9, proc.stderr
    with Memory(db, embedder="fake") as memory:
        user = "other" if call == "import_dump" else None
        assert [t.text for t in memory.session("s", user=user).turns] == ["I love tea."]  # the write had committed
        report = memory.check()
        assert report.ok, report.problems


def racing(original: Callable[..., Any], before: Callable[[], object] | None = None, after: Any = None) -> Any:
    """``original`` with ``before()`` run ahead of it, or ``after()`` once it returned (each only the first time)."""
    fired = False

    def call(*args: Any, **kwargs: Any) -> Any:
        nonlocal fired
        first, fired = not fired, True
        if first and before is not None:
            before()
        out = original(*args, **kwargs)
        if first and after is not None:
            after(*args)
        return out

    return call


def test_a_search_racing_a_forget_in_another_process_returns_hits(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", embedder="fake") as searcher, Memory(tmp_path / "m.db", embedder="fake") as other:
        searcher.add("I live in Leeds.", session_id="keep")
        searcher.add("My sister Sarah loves tea.", session_id="gone")
        store: Any = searcher.store
        store.turns_by_pk = racing(store.turns_by_pk, before=lambda: other.forget(session_id="gone"))
        hits = searcher.search("Sarah tea", k=3)  # one snapshot: the rows it ranked are the rows it reads
        assert hits and all(h.turn_text[h.char_start : h.char_end] == h.text for h in hits)
        assert all(h.session_id != "gone" for h in searcher.search("Sarah tea", k=3))  # a search after the forget


def test_a_search_racing_a_forget_of_pieces_returns_hits(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", embedder="fake") as searcher, Memory(tmp_path / "m.db", embedder="fake") as other:
        searcher.add("I live in Leeds.", session_id="keep")
        searcher.add("My partner Tom is a chef.", session_id="gone")
        store: Any = searcher.store
        store.pieces_by_pk = racing(store.pieces_by_pk, before=lambda: other.forget(session_id="gone"))
        hits = searcher.search("Tom chef", k=3)
        assert hits and all(h.turn_text[h.char_start : h.char_end] == h.text for h in hits)
        assert all(h.session_id != "gone" for h in searcher.search("Tom chef", k=3))


def test_a_fact_forgotten_while_an_add_links_its_neighbours_leaves_no_dangling_link(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", embedder="fake") as writer, Memory(tmp_path / "m.db", embedder="fake") as other:
        writer.add("I live in Leeds.", session_id="old")
        index: Any = writer.searcher.index

        def forget_old(_user: str, table: str, *_rest: object) -> None:
            if table == "facts":
                other.forget(session_id="old")

        index.search = racing(index.search, after=forget_old)
        writer.add("I live in Leeds.", session_id="new")  # its fact's nearest neighbour is the old session's
        report = writer.check()
        assert report.ok, report.problems


def test_two_processes_opening_a_new_database_at_once_both_succeed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "m.db"

    real_connect = sqlite3.connect

    class Racing(sqlite3.Connection):
        """The other process migrates the file between this one's read of ``_migrations`` and its BEGIN."""

        fired = False

        def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
            if sql == "BEGIN IMMEDIATE" and not Racing.fired:
                Racing.fired = True
                other = real_connect(path, isolation_level=None)
                other.execute("PRAGMA journal_mode = WAL")
                apply_migrations(other)
                other.close()
            return super().execute(sql, *args)

    monkeypatch.setattr(sqlite3, "connect", lambda *a, **k: real_connect(*a, factory=Racing, **k))
    with Memory(path, embedder="none") as memory:
        assert memory.check().ok


def test_an_add_after_forgetting_the_last_turn_does_not_reuse_its_index(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", embedder="none") as memory:
        memory.add(["I live in Leeds.", "I love tea.", "I work as a nurse."], session_id="s")
        memory.forget(turn_id="s:2", session_id="s")
        added = memory.add("I moved to York.", session_id="s").added
        assert (added[0].turn_index, added[0].turn_id) != (2, "s:2")


def test_a_turn_forgotten_while_its_add_embeds_leaves_no_vector_of_its_text(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", embedder="fake") as writer, Memory(tmp_path / "m.db", embedder="fake") as other:
        writer.add("I live in Leeds.", session_id="keep")
        embedder: Any = writer.embedder
        embedder.embed = racing(embedder.embed, before=lambda: other.forget(session_id="secret"))
        writer.add("My locker code is Zqvx and I love tea.", session_id="secret")
        orphans = writer.store.conn.execute(
            "SELECT COUNT(*) FROM embeddings e WHERE NOT EXISTS (SELECT 1 FROM turns WHERE embed_hash = e.text_hash)"
            " AND NOT EXISTS (SELECT 1 FROM pieces WHERE embed_hash = e.text_hash)"
            " AND NOT EXISTS (SELECT 1 FROM facts WHERE embed_hash = e.text_hash)"
            " AND NOT EXISTS (SELECT 1 FROM entities WHERE embed_hash = e.text_hash)"
        ).fetchone()[0]
        assert writer.store.session_row("default", "secret") is None  # the forget happened mid-add
        assert orphans == 0
