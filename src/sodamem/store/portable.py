"""The store operations written in the portable SQL both backends run (``store/connection.py``): writing a session,
the embeddings a model lacks, settings, speakers, turn/piece/session reads, per-user counts. Mixed into
``SQLiteStore`` and ``PostgresStore``, which bring the connection, ``transaction()`` and ``generation``."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from datetime import UTC, datetime
from typing import Any

from sodamem.model import MessagePiece, Session
from sodamem.records import SessionSummary, UserStats
from sodamem.store import live
from sodamem.store.connection import Connection
from sodamem.store.connection_writes import ConnectionWrites
from sodamem.store.forget import PieceMark, carry_marks, session_marks
from sodamem.store.in_lists import chunked
from sodamem.store.live import StoredSession
from sodamem.store.mentions import (
    MentionPairs,
    mentions_by_text,
    put_mentions,
    stored_mentions,
    turns_without_mentions,
)
from sodamem.store.rows import PieceRow, SessionRow, TurnRow
from sodamem.store.turn_writes import piece_embedding_text, turn_embedding_text
from sodamem.store.vectors import VectorIndex
from sodamem.store.write_protocol import SessionWriteHook


class PortableStore:
    conn: Connection
    _speakers: dict[str, tuple[int, frozenset[str]]]

    def transaction(self, user: str | None = None) -> AbstractContextManager[Connection]:
        raise NotImplementedError  # the backend's

    @property
    def generation(self) -> int:
        raise NotImplementedError  # the backend's

    def _writes(self, conn: Connection) -> ConnectionWrites:
        """The domain operations on a transaction's connection (a backend may bring its own turn insert)."""
        return ConnectionWrites(conn)

    @contextmanager
    def writing(self, user: str | None = None) -> Iterator[ConnectionWrites]:
        """``transaction()`` behind the domain operations of ``Writes`` (store/write_protocol.py)."""
        with self.transaction(user) as conn:
            yield self._writes(conn)

    # -- writes ---------------------------------------------------------------------------------------------

    def session_hash(self, user: str, session_id: str) -> str | None:
        row = self.conn.execute(
            "SELECT content_hash FROM sessions WHERE user = ? AND session_id = ?", (user, session_id)
        ).fetchone()
        return None if row is None else str(row[0])

    def stored_session(self, user: str, session_id: str) -> StoredSession | None:
        return live.stored_session(self.conn, user, session_id)

    def write_session(
        self,
        user: str,
        session: Session,
        pieces: Sequence[Sequence[MessagePiece]],
        content_hash: str,
        *,
        replace: bool,
        then: SessionWriteHook | None = None,
    ) -> None:
        """Store a session with its turns and pieces in one transaction (replacing the old copy if asked).

        ``then(writes, session_pk, piece_pks, replaced_slots)`` runs inside the same transaction (facts land with
        their session); ``piece_pks`` maps ``(turn index, piece index)`` to row ids, ``replaced_slots`` are the
        supersession slots of the facts that a replaced copy took with it.
        """
        with self.transaction(user) as conn:
            replaced_slots: set[str] = set()
            marks: list[PieceMark] = []
            if replace:
                old = conn.execute(
                    "SELECT id FROM sessions WHERE user = ? AND session_id = ?", (user, session.session_id)
                ).fetchone()
                if old is not None:
                    replaced_slots = {
                        str(r[0])
                        for r in conn.execute(
                            "SELECT DISTINCT slot FROM facts WHERE session_pk = ? AND slot IS NOT NULL", (old[0],)
                        )
                    }
                    marks = session_marks(conn, user, int(old[0]))  # facts forgotten by id stay forgotten
                conn.execute("DELETE FROM sessions WHERE user = ? AND session_id = ?", (user, session.session_id))
            session_pk = conn.execute(
                "INSERT INTO sessions (user, session_id, timestamp, source, content_hash, ingested_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (
                    user,
                    session.session_id,
                    session.timestamp.isoformat(),
                    session.source,
                    content_hash,
                    datetime.now(UTC).isoformat(),
                ),
            ).lastrowid
            assert session_pk is not None
            writes = self._writes(conn)
            piece_pks = writes.insert_turns(user, session_pk, session, session.turns, pieces).piece_pks
            if marks:
                where = {
                    (turn.turn_id, piece.char_start, piece.text): piece_pks[(turn.index, piece.index)]
                    for turn, turn_pieces in zip(session.turns, pieces, strict=True)
                    for piece in turn_pieces
                }
                carry_marks(conn, user, marks, where)
            if then is not None:
                then(writes, session_pk, piece_pks, replaced_slots)

    def missing_embeddings(self, model: str, user: str | None = None) -> dict[str, str]:
        """``text_hash -> text`` of turns and pieces that have no vector under ``model`` yet."""
        missing: dict[str, str] = {}
        where = " AND r.user = ?" if user is not None else ""
        params: tuple[str, ...] = (model, user) if user is not None else (model,)
        turn_sql = (
            "SELECT r.embed_hash, r.speaker, r.text, r.caption FROM turns r LEFT JOIN embeddings e"
            " ON e.model = ? AND e.text_hash = r.embed_hash WHERE e.text_hash IS NULL" + where
        )
        for row in self.conn.execute(turn_sql, params):
            missing[row["embed_hash"]] = turn_embedding_text(row["speaker"], row["text"], row["caption"])
        piece_sql = (
            "SELECT r.embed_hash, t.speaker, r.text FROM pieces r JOIN turns t ON t.id = r.turn_pk"
            " LEFT JOIN embeddings e ON e.model = ? AND e.text_hash = r.embed_hash WHERE e.text_hash IS NULL" + where
        )
        for row in self.conn.execute(piece_sql, params):
            missing[row["embed_hash"]] = piece_embedding_text(row["speaker"], row["text"])
        for table, column in (("facts", "text"), ("entities", "name")):
            sql = (
                f"SELECT r.embed_hash, r.{column} FROM {table} r LEFT JOIN embeddings e ON e.model = ?"
                " AND e.text_hash = r.embed_hash WHERE e.text_hash IS NULL AND r.embed_hash IS NOT NULL" + where
            )
            for row in self.conn.execute(sql, params):
                missing[row[0]] = str(row[1])
        return missing

    # -- mentions (the answer-type tunnel's; store/mentions.py) -------------------------------------------------

    def turn_mentions(self, user: str, turn_pks: Sequence[int]) -> dict[int, MentionPairs]:
        return stored_mentions(self.conn, user, turn_pks)

    def turns_to_annotate(self, user: str | None = None, turn_pks: Sequence[int] | None = None) -> dict[int, str]:
        return turns_without_mentions(self.conn, user, turn_pks)

    def mentions_by_text(self, user: str) -> dict[str, MentionPairs]:
        return mentions_by_text(self.conn, user)

    def put_turn_mentions(self, items: Sequence[tuple[int, Sequence[tuple[str, str]]]]) -> None:
        if items:
            with self.transaction() as conn:
                put_mentions(conn, items)

    def stored_embeddings(self) -> Iterator[tuple[str, int, list[tuple[str, bytes]]]]:
        """Every cached vector, ``(model, dim, [(text hash, float32 blob)])`` a few thousand at a time."""
        cursor = self.conn.execute("SELECT model, dim, text_hash, vector FROM embeddings ORDER BY model, text_hash")
        while rows := cursor.fetchmany(2000):
            batches: dict[tuple[str, int], list[tuple[str, bytes]]] = {}
            for model, dim, digest, blob in rows:
                batches.setdefault((str(model), int(dim)), []).append((str(digest), bytes(blob)))
            for (model, dim), items in batches.items():
                yield model, dim, items

    def vector_rows(self, model: str, user: str, table: str) -> list[tuple[int, bytes]]:
        """``(row id, vector blob)`` of every turn or piece of ``user`` embedded under ``model``."""
        if table not in ("turns", "pieces", "facts", "entities"):
            raise ValueError(f"no vectors for {table!r}")
        rows = self.conn.execute(
            f"SELECT r.id, e.vector FROM {table} r JOIN embeddings e ON e.model = ? AND e.text_hash = r.embed_hash"
            " WHERE r.user = ? ORDER BY r.id",
            (model, user),
        ).fetchall()
        return [(int(r[0]), bytes(r[1])) for r in rows]

    def vector_index(self, model: str, dim: int) -> VectorIndex:
        return VectorIndex(self, model, dim)

    def get_setting(self, key: str) -> str | None:
        row = self.conn.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    # -- lexical search -------------------------------------------------------------------------------------

    def speakers(self, user: str) -> frozenset[str]:
        """Everyone who speaks in the user's memory (read once per store generation: a full scan of the turns)."""
        cached = self._speakers.get(user)
        if cached is None or cached[0] != self.generation:
            rows = self.conn.execute("SELECT DISTINCT speaker FROM turns WHERE user = ?", (user,))
            cached = (self.generation, frozenset(str(r[0]) for r in rows))
            self._speakers[user] = cached
        return cached[1]

    # -- reads ----------------------------------------------------------------------------------------------

    _TURN_COLUMNS = (
        "t.id AS turn_pk, t.session_pk, t.idx, t.turn_id, t.speaker, t.text, t.caption, t.timestamp, s.session_id"
    )

    def turns_by_pk(self, user: str, turn_pks: Sequence[int]) -> dict[int, TurnRow]:
        if not turn_pks:
            return {}
        marks = ",".join("?" * len(turn_pks))
        rows = self.conn.execute(
            f"SELECT {self._TURN_COLUMNS} FROM turns t JOIN sessions s ON s.id = t.session_pk"
            f" WHERE t.user = ? AND t.id IN ({marks})",
            (user, *turn_pks),
        ).fetchall()
        return {int(r["turn_pk"]): _turn_row(r) for r in rows}

    def turns_by_turn_id(self, user: str, turn_id: str, session_id: str | None = None) -> list[TurnRow]:
        sql = (
            f"SELECT {self._TURN_COLUMNS} FROM turns t JOIN sessions s ON s.id = t.session_pk"
            " WHERE t.user = ? AND t.turn_id = ?"
        )
        params: tuple[object, ...] = (user, turn_id)
        if session_id is not None:
            sql += " AND s.session_id = ?"
            params += (session_id,)
        return [_turn_row(r) for r in self.conn.execute(sql + " ORDER BY s.timestamp, t.idx", params)]

    def session_turns(self, user: str, session_pk: int, first: int, last: int) -> list[TurnRow]:
        """Turns of one session with ``first <= idx <= last``, in order."""
        rows = self.conn.execute(
            f"SELECT {self._TURN_COLUMNS} FROM turns t JOIN sessions s ON s.id = t.session_pk"
            " WHERE t.user = ? AND t.session_pk = ? AND t.idx BETWEEN ? AND ? ORDER BY t.idx",
            (user, session_pk, first, last),
        )
        return [_turn_row(r) for r in rows]

    def turn_windows(self, user: str, windows: Sequence[tuple[int, int, int]]) -> list[list[TurnRow]]:
        """``session_turns`` of each ``(session_pk, first, last)`` in one statement (one round trip per search's
        hits, not one per hit, on a database server)."""
        out: list[list[TurnRow]] = [[] for _ in windows]
        if not windows:
            return out
        values = ", ".join("(?, ?, ?, ?)" for _ in windows)
        rows = self.conn.execute(
            f"WITH w (k, sp, lo, hi) AS (VALUES {values}) SELECT w.k, {self._TURN_COLUMNS} FROM w"
            " JOIN turns t ON t.session_pk = w.sp AND t.idx BETWEEN w.lo AND w.hi"
            " JOIN sessions s ON s.id = t.session_pk WHERE t.user = ? ORDER BY w.k, t.idx",
            [v for i, (pk, first, last) in enumerate(windows) for v in (i, pk, first, last)] + [user],
        )
        for row in rows:
            out[int(row[0])].append(_turn_row(row))
        return out

    def session_row(self, user: str, session_id: str) -> SessionRow | None:
        row = self.conn.execute(
            "SELECT id, session_id, timestamp, source FROM sessions WHERE user = ? AND session_id = ?",
            (user, session_id),
        ).fetchone()
        return None if row is None else SessionRow(int(row[0]), str(row[1]), str(row[2]), str(row[3]))

    def pieces_of_turns(self, user: str, turn_pks: Sequence[int]) -> dict[int, list[PieceRow]]:
        if not turn_pks:
            return {}
        marks = ",".join("?" * len(turn_pks))
        rows = self.conn.execute(
            f"SELECT {_PIECE_COLUMNS} FROM pieces WHERE user = ? AND turn_pk IN ({marks}) ORDER BY turn_pk, idx",
            (user, *turn_pks),
        ).fetchall()
        grouped: dict[int, list[PieceRow]] = {}
        for row in rows:
            piece = _piece_row(row)
            grouped.setdefault(piece.turn_pk, []).append(piece)
        return grouped

    def pieces_by_pk(self, user: str, piece_pks: Sequence[int]) -> dict[int, PieceRow]:
        if not piece_pks:
            return {}
        marks = ",".join("?" * len(piece_pks))
        rows = self.conn.execute(
            f"SELECT {_PIECE_COLUMNS} FROM pieces WHERE user = ? AND id IN ({marks})", (user, *piece_pks)
        ).fetchall()
        return {int(r[0]): _piece_row(r) for r in rows}

    def users_of_facts(self, fact_pks: Sequence[int]) -> dict[str, list[int]]:
        """The given facts grouped by the user they belong to."""
        out: dict[str, list[int]] = {}
        for part in chunked(list(fact_pks)):
            rows = self.conn.execute(f"SELECT user, id FROM facts WHERE id IN ({','.join('?' * len(part))})", part)
            for user, pk in rows:
                out.setdefault(str(user), []).append(int(pk))
        return out

    def deletions(self, table: str) -> int:
        """How many rows of ``table`` (turns, pieces, facts, entities) were ever deleted: unchanged means every row
        read before is still there as it was (rows are never updated in place)."""
        row = self.conn.execute("SELECT n FROM row_deletions WHERE tbl = ?", (table,)).fetchone()
        return int(row[0]) if row is not None else -1

    def session_summaries(self, user: str) -> list[SessionSummary]:
        """The user's sessions in time order, with how many turns each holds and how many facts cite them."""
        rows = self.conn.execute(
            "SELECT s.session_id, s.timestamp, s.source,"
            " (SELECT count(*) FROM turns t WHERE t.session_pk = s.id),"
            " (SELECT count(DISTINCT fs.fact_pk) FROM fact_sources fs JOIN pieces p ON p.id = fs.piece_pk"
            "  JOIN turns t ON t.id = p.turn_pk WHERE t.session_pk = s.id)"
            " FROM sessions s WHERE s.user = ? ORDER BY s.timestamp, s.session_id",
            (user,),
        )
        return [SessionSummary(str(r[0]), str(r[1]), str(r[2]), int(r[3]), int(r[4])) for r in rows]

    def stats(self, user: str | None = None) -> list[UserStats]:
        counts: dict[str, dict[str, int]] = {}
        for table in ("sessions", "turns", "pieces", "facts", "entities", "links"):
            sql = f"SELECT user, count(*) FROM {table}"
            params: tuple[str, ...] = ()
            if user is not None:
                sql += " WHERE user = ?"
                params = (user,)
            for row in self.conn.execute(sql + " GROUP BY user", params):
                counts.setdefault(str(row[0]), {})[table] = int(row[1])
        if user is not None and user not in counts:
            counts[user] = {}
        return [UserStats(user=name, **values) for name, values in sorted(counts.items())]


_PIECE_COLUMNS = "id, turn_pk, idx, char_start, char_end, text"


def _turn_row(r: Any) -> TurnRow:
    return TurnRow(
        int(r["turn_pk"]),
        int(r["session_pk"]),
        int(r["idx"]),
        str(r["turn_id"]),
        str(r["speaker"]),
        str(r["text"]),
        r["caption"],
        str(r["timestamp"]),
        str(r["session_id"]),
    )


def _piece_row(r: Any) -> PieceRow:
    return PieceRow(int(r[0]), int(r[1]), int(r[2]), int(r[3]), int(r[4]), str(r[5]))
