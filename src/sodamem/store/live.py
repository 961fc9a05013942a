"""SQL of the live memory: appending turns to a stored session, the embedding queue. Functions take a connection
inside the caller's transaction."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from sodamem.store.connection import Connection
from sodamem.store.in_lists import chunked
from sodamem.store.turn_writes import piece_embedding_text, turn_embedding_text


@dataclass(frozen=True, slots=True)
class StoredTurn:
    turn_pk: int
    index: int
    turn_id: str
    speaker: str
    text: str
    caption: str | None
    timestamp: str


@dataclass(frozen=True, slots=True)
class StoredSession:
    session_pk: int
    timestamp: str
    source: str
    turns: tuple[StoredTurn, ...]
    next_index: int  # the least index a new turn may take (past any forgotten one)


class SessionChanged(Exception):
    """A write transaction that was to find a session as it had been seen (``Writes.session_as_seen``) found it
    changed: it wrote nothing, and the caller reads the session again."""


def stored_session(conn: Connection, user: str, session_id: str) -> StoredSession | None:
    """A session with its turns in order, or None (one statement: one round trip on a database server)."""
    rows = conn.execute(
        "SELECT s.id, s.timestamp, s.source, s.next_index, t.id, t.idx, t.turn_id, t.speaker, t.text, t.caption,"
        " t.timestamp FROM sessions s LEFT JOIN turns t ON t.session_pk = s.id"
        " WHERE s.user = ? AND s.session_id = ? ORDER BY t.idx",
        (user, session_id),
    ).fetchall()
    if not rows:
        return None
    head = rows[0]
    return StoredSession(
        int(head[0]),
        str(head[1]),
        str(head[2]),
        tuple(
            StoredTurn(int(t[4]), int(t[5]), str(t[6]), str(t[7]), str(t[8]), t[9], str(t[10]))
            for t in rows
            if t[4] is not None
        ),
        int(head[3]),
    )


def insert_session_row(
    conn: Connection, user: str, session_id: str, timestamp: str, source: str, content_hash: str
) -> int:
    pk = conn.execute(
        "INSERT INTO sessions (user, session_id, timestamp, source, content_hash, ingested_at)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        (user, session_id, timestamp, source, content_hash, datetime.now(UTC).isoformat()),
    ).lastrowid
    assert pk is not None
    return pk


def set_session_hash(conn: Connection, session_pk: int, content_hash: str) -> None:
    conn.execute("UPDATE sessions SET content_hash = ? WHERE id = ?", (content_hash, session_pk))


def piece_pks_of_session(conn: Connection, session_pk: int) -> dict[tuple[int, int], int]:
    """``(turn index, piece index) -> piece pk`` of every piece of a session."""
    rows = conn.execute(
        "SELECT t.idx, p.idx, p.id FROM pieces p JOIN turns t ON t.id = p.turn_pk WHERE t.session_pk = ?",
        (session_pk,),
    )
    return {(int(r[0]), int(r[1])): int(r[2]) for r in rows}


def piece_pks_of_turns(conn: Connection, turn_pks: Sequence[int]) -> dict[tuple[int, int], int]:
    """``(turn index, piece index) -> piece pk`` of the given turns' pieces."""
    out: dict[tuple[int, int], int] = {}
    for part in chunked(list(turn_pks)):
        rows = conn.execute(
            "SELECT t.idx, p.idx, p.id FROM pieces p JOIN turns t ON t.id = p.turn_pk"
            f" WHERE t.id IN ({','.join('?' * len(part))})",
            part,
        )
        out.update({(int(r[0]), int(r[1])): int(r[2]) for r in rows})
    return out


def delete_turn_facts(conn: Connection, turn_pks: Sequence[int]) -> set[str]:
    """Delete the facts drawn from the given turns (to be made again); return the slots they were in."""
    fact_pks = facts_of_turns(conn, turn_pks)
    slots: set[str] = set()
    for part in chunked(fact_pks):
        marks = ",".join("?" * len(part))
        slots.update(
            str(r[0])
            for r in conn.execute(f"SELECT DISTINCT slot FROM facts WHERE slot IS NOT NULL AND id IN ({marks})", part)
        )
        conn.execute(f"DELETE FROM facts WHERE id IN ({marks})", part)
    return slots


def delete_session_facts(conn: Connection, session_pk: int) -> set[str]:
    """Delete the facts a session's turns gave (their links go with them); return the slots they were in."""
    slots = {
        str(r[0])
        for r in conn.execute(
            "SELECT DISTINCT slot FROM facts WHERE session_pk = ? AND slot IS NOT NULL", (session_pk,)
        )
    }
    conn.execute("DELETE FROM facts WHERE session_pk = ?", (session_pk,))
    return slots


def any_queued(conn: Connection) -> bool:
    """Whether a turn waits for its vectors (the store queues new turns once a database records an embedder)."""
    return conn.execute("SELECT 1 FROM embed_queue LIMIT 1").fetchone() is not None


def queued_turns(conn: Connection) -> list[int]:
    return [int(r[0]) for r in conn.execute("SELECT turn_pk FROM embed_queue ORDER BY turn_pk")]


def dequeue_embeddings(conn: Connection, turn_pks: Sequence[int]) -> None:
    for part in chunked(list(turn_pks)):
        conn.execute(f"DELETE FROM embed_queue WHERE turn_pk IN ({','.join('?' * len(part))})", part)


def texts_to_embed(conn: Connection, model: str, turn_pks: Sequence[int]) -> dict[str, tuple[str, str]]:
    """``text_hash -> (kind, text)`` lacking a vector under ``model`` among the given turns, their pieces, the facts
    drawn from them and those facts' entities: what an add has to embed, without scanning the store."""
    out: dict[str, tuple[str, str]] = {}
    for part in chunked(list(turn_pks)):
        marks = ",".join("?" * len(part))
        missing = " LEFT JOIN embeddings e ON e.model = ? AND e.text_hash = {0}.embed_hash WHERE e.text_hash IS NULL"
        for h, speaker, text, caption in conn.execute(
            "SELECT t.embed_hash, t.speaker, t.text, t.caption FROM turns t"
            + missing.format("t")
            + f" AND t.id IN ({marks})",
            (model, *part),
        ):
            out[str(h)] = ("turn", turn_embedding_text(speaker, text, caption))
        for h, speaker, text in conn.execute(
            "SELECT p.embed_hash, t.speaker, p.text FROM pieces p JOIN turns t ON t.id = p.turn_pk"
            + missing.format("p")
            + f" AND p.turn_pk IN ({marks})",
            (model, *part),
        ):
            out[str(h)] = ("piece", piece_embedding_text(speaker, text))
        facts = (
            "SELECT DISTINCT fs.fact_pk FROM fact_sources fs JOIN pieces p ON p.id = fs.piece_pk"
            f" WHERE p.turn_pk IN ({marks})"
        )
        for h, text in conn.execute(
            "SELECT f.embed_hash, f.text FROM facts f"
            + missing.format("f")
            + f" AND f.embed_hash IS NOT NULL AND f.id IN ({facts})",
            (model, *part),
        ):
            out[str(h)] = ("fact", str(text))
        for h, name in conn.execute(
            "SELECT n.embed_hash, n.name FROM entities n"
            + missing.format("n")
            + " AND n.embed_hash IS NOT NULL"
            + f" AND n.id IN (SELECT entity_pk FROM fact_roles WHERE fact_pk IN ({facts}))",
            (model, *part),
        ):
            out[str(h)] = ("entity", str(name))
    return out


def facts_of_turns(conn: Connection, turn_pks: Sequence[int]) -> list[int]:
    out: set[int] = set()
    for part in chunked(list(turn_pks)):
        rows = conn.execute(
            "SELECT DISTINCT fs.fact_pk FROM fact_sources fs JOIN pieces p ON p.id = fs.piece_pk"
            f" WHERE p.turn_pk IN ({','.join('?' * len(part))})",
            part,
        )
        out.update(int(r[0]) for r in rows)
    return sorted(out)
