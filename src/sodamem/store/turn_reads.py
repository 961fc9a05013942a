"""What search asks about candidate turns, a chunk of ids at a time (retrieve/turn_lookup.py keeps the answers)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from sodamem.store.connection import Connection
from sodamem.store.in_lists import chunked


def turn_rows(conn: Connection, pks: Sequence[int]) -> Iterator[tuple[int, str, int, str | None, str]]:
    """``(id, speaker, session_pk, timestamp, text)`` of each turn."""
    sql = "SELECT id, speaker, session_pk, timestamp, text FROM turns WHERE id IN ({})"
    for pk, speaker, session_pk, said_at, text in _in_chunks(conn, sql, pks):
        yield int(pk), str(speaker), int(session_pk), said_at, str(text)


def piece_turns(conn: Connection, pks: Sequence[int]) -> Iterator[tuple[int, int]]:
    """``(piece id, turn id)`` of each piece."""
    for pk, turn_pk in _in_chunks(conn, "SELECT id, turn_pk FROM pieces WHERE id IN ({})", pks):
        yield int(pk), int(turn_pk)


def turn_neighbors(conn: Connection, pks: Sequence[int]) -> dict[int, list[int]]:
    """The adjacent turns of the same session, for the turns that have any."""
    sql = (
        "SELECT t.id, n.id FROM turns t JOIN turns n ON n.session_pk = t.session_pk AND abs(n.idx - t.idx) = 1"
        " WHERE t.id IN ({})"
    )
    out: dict[int, list[int]] = {}
    for pk, other in _in_chunks(conn, sql, pks):
        out.setdefault(int(pk), []).append(int(other))
    return out


def turn_occurred(conn: Connection, pks: Sequence[int]) -> dict[int, list[tuple[str, str | None]]]:
    """The occurred intervals ``(start, end)`` of the facts derived from each turn, for the turns that have any."""
    sql = (
        "SELECT p.turn_pk, f.occurred_start, f.occurred_end FROM facts f JOIN fact_sources fs ON fs.fact_pk = f.id"
        " JOIN pieces p ON p.id = fs.piece_pk WHERE p.turn_pk IN ({}) AND f.occurred_start IS NOT NULL"
    )
    out: dict[int, list[tuple[str, str | None]]] = {}
    for pk, start, end in _in_chunks(conn, sql, pks):
        out.setdefault(int(pk), []).append((str(start), end))
    return out


def latest_turn(conn: Connection) -> int:
    """The highest turn id (0 for none): a turn added later gets a higher one (rowids and identities only grow)."""
    return int(conn.execute("SELECT coalesce(max(id), 0) FROM turns").fetchone()[0])


def turns_after(conn: Connection, last: int) -> dict[int, int]:
    """``turn id -> session id`` of the turns with an id above ``last``."""
    return {
        int(pk): int(session) for pk, session in conn.execute("SELECT id, session_pk FROM turns WHERE id > ?", (last,))
    }


def _in_chunks(conn: Connection, sql: str, keys: Sequence[int]) -> Iterator[tuple[Any, ...]]:
    """``sql`` (with one ``IN ({})``) run over ``keys`` a chunk at a time."""
    for part in chunked(keys):
        yield from conn.execute(sql.format(",".join("?" * len(part))), part)
