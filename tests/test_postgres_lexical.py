"""The PostgreSQL store's lexical index as its two writers leave it: the turn insert that writes a new turn's and
its pieces' index rows itself (``store/postgres/turn_writes.py``), and the change log the triggers fill and the
drain applies (everything else, and ``rebuild_fts``). Both must give the same rows."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import pytest

from sodamem import Memory
from sodamem.model import Message

pytestmark = pytest.mark.slow

pytest.importorskip("psycopg", reason="PostgreSQL tests need psycopg (pip install -e '.[postgres]')")

_TABLES = {
    "fts_docs": 'tbl, rid, "user", len',
    "fts_postings": 'tbl, "user", term, rid, col, tf, len',
    "fts_terms": 'tbl, "user", term, df',
    "fts_totals": 'tbl, "user", n_rows, n_tokens',
}


def _index(memory: Memory) -> dict[str, list[tuple[object, ...]]]:
    conn = memory.store.conn
    return {
        table: [tuple(r) for r in conn.native(f"SELECT {cols} FROM {table} ORDER BY {cols}").fetchall()]
        for table, cols in _TABLES.items()
    }


def test_turns_indexed_on_insert_equal_the_log_rebuilt_index(postgres_url: str) -> None:
    start = datetime(2024, 3, 1, 9)
    lines = [
        ("Ana", "I moved to Lisbon last spring, and the light there is something else."),
        ("Ben", "Lisbon! Do you still paint? You used to paint every weekend."),
        ("Ana", "Still painting. Mostly the river; sometimes my cat, Miso, who hates sitting still."),
        ("Ben", "My sister Clara adopted a cat too. She says it's the best decision she made this year."),
    ]
    with Memory(postgres_url, embedder="none") as memory:
        memory.add(
            [Message(s, t, timestamp=start + timedelta(minutes=i)) for i, (s, t) in enumerate(lines[:2])],
            session_id="a",
            user="u1",
        )
        for i, (speaker, text) in enumerate(lines[2:], start=2):  # one at a time: a stored session grows
            memory.add(Message(speaker, text, timestamp=start + timedelta(minutes=i)), session_id="a", user="u1")
        memory.add(Message("Ana", "Caption test", caption="a cat on a windowsill"), session_id="b", user="u2")
        memory.add(Message("Ana", "Lisbon again, with the cat."), session_id="c", user="u2")
        memory.forget(session_id="c", user="u2")  # deletes go through the log
        memory.add(Message("Ben", "And the river, of course."), session_id="d", user="u2")
        assert memory.store.conn.native("SELECT count(*) FROM fts_pending").fetchone()[0] == 0
        written = _index(memory)
        assert written["fts_postings"] and any(row[0] == "pieces" for row in written["fts_docs"])
        memory.store.rebuild_fts()  # every row through the log and the drain
        assert _index(memory) == written
        assert memory.check().problems == ()
        assert memory.search("paint the river", user="u1", mode="bm25", k=3)[0].turn_index == 2


def test_every_ranking_shape_equals_sqlite_s_bm25(postgres_url: str, tmp_path: Path) -> None:
    """Each shape of the ranking statement (``store/postgres/ranking.py``) against FTS5's ``bm25()`` on the same rows:
    turns (row counts from the statistics), pieces (counted from their postings), the pieces of a few turns (counted
    in the index), a column filter; the same ids, the same scores."""
    lines = [
        "I moved to Lisbon last spring, and the light there is something else.",
        "Lisbon! Do you still paint? You used to paint every weekend, by the river.",
        "Still painting. Mostly the river; sometimes my cat, Miso, who hates sitting still.",
        "My sister Clara adopted a cat too. She says it's the best decision she made this year.",
        "The river again. Lisbon in the rain, the cat asleep, a painting of the river half done.",
    ]
    messages = [
        Message("Ana" if i % 2 else "Ben", text, caption="a river, a cat" if i == 3 else None)
        for i, text in enumerate(lines)
    ]
    match = '"river" OR "cat" OR "lisbon" OR "paint" OR "painting"'

    def rankings(memory: Memory) -> list[list[tuple[int, float]]]:
        memory.add(messages[:3], session_id="a", user="u")
        memory.add(Message("Ana", "Another user's river, cat and Lisbon."), session_id="c", user="v")
        memory.add(messages[3:], session_id="b", user="u")
        store = memory.store
        turns = [r.rowid for r in store.search_turns("u", match, 10)]
        found = [
            store.search_turns("u", match, 10),
            store.search_pieces("u", match, 20),
            store.search_pieces("u", match, 20, turn_pks=turns[:2]),
            store.search_pieces("u", match, 20, turn_pks=[]),
            store.search_turns("u", 'caption : "river" OR "cat"', 10),
        ]
        return [[(r.rowid, round(r.bm25, 9)) for r in rows] for rows in found]

    with Memory(tmp_path / "m.db", embedder="none") as on_sqlite, Memory(postgres_url, embedder="none") as on_pg:
        sqlite, postgres = rankings(on_sqlite), rankings(on_pg)
    assert all(sqlite[:3]) and sqlite[4]
    assert postgres == sqlite
