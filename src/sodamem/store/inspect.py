"""Read-only queries the benchmarks and harnesses use to look at a whole store (every user, raw rows)."""

from __future__ import annotations

import sqlite3

from sodamem.store.connection import Connection
from sodamem.store.turn_writes import turn_embedding_text


def stored_turns(conn: Connection) -> list[tuple[str, str, int, str]]:
    """``(session id, turn id, index, text)`` of every stored turn, in session and index order."""
    rows = conn.execute(
        "SELECT s.session_id, t.turn_id, t.idx, t.text FROM turns t JOIN sessions s ON s.id = t.session_pk"
        " ORDER BY s.session_id, t.idx"
    )
    return [(str(r[0]), str(r[1]), int(r[2]), str(r[3])) for r in rows]


def turn_documents(conn: Connection, user: str) -> dict[int, tuple[str, str, str]]:
    """``turn_pk -> (turn_id, session_id, text as embedded)`` of every turn of the user."""
    rows = conn.execute(
        "SELECT t.id, t.turn_id, s.session_id, t.speaker, t.text, t.caption FROM turns t"
        " JOIN sessions s ON s.id = t.session_pk WHERE t.user = ?",
        (user,),
    )
    return {int(r[0]): (str(r[1]), str(r[2]), turn_embedding_text(str(r[3]), str(r[4]), r[5])) for r in rows}


def leftovers(conn: sqlite3.Connection, session_id: str, turn_id: str | None, word: str) -> list[str]:
    """Where a forgotten turn (``turn_id``) or session, and a word only it held, can still be found in the rows."""
    out = []
    if turn_id is not None:
        n = conn.execute("SELECT COUNT(*) FROM turns WHERE turn_id = ?", (turn_id,)).fetchone()[0]
        if n:
            out.append(f"{n} turn row(s)")
    elif conn.execute("SELECT 1 FROM sessions WHERE session_id = ?", (session_id,)).fetchone():
        out.append("its session row")
    for table, column in (("turns", "text"), ("pieces", "text"), ("facts", "text"), ("fact_sources", "quote")):
        n = conn.execute(f"SELECT COUNT(*) FROM {table} WHERE {column} LIKE ?", (f"%{word}%",)).fetchone()[0]
        if n:
            out.append(f"{n} row(s) of {table}")
    return out


def turn_id_counts(conn: Connection) -> dict[tuple[str, str, str], int]:
    """``(user, session id, turn id) -> rows`` over every stored turn (more than 1: a duplicate)."""
    rows = conn.execute(
        "SELECT t.user, s.session_id, t.turn_id, COUNT(*) FROM turns t JOIN sessions s ON s.id = t.session_pk"
        " GROUP BY t.user, s.session_id, t.turn_id"
    )
    return {(str(r[0]), str(r[1]), str(r[2])): int(r[3]) for r in rows}
