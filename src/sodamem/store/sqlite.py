"""The embedded SQLite store: sessions, turns, pieces (and later facts) with FTS5 indexes.

One writer; WAL; foreign keys on. Every query takes the user namespace explicitly.
"""

from __future__ import annotations

import random
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from sodamem.errors import StoreBusyError
from sodamem.model import MessagePiece, Session
from sodamem.records import SessionSummary, UserStats
from sodamem.store import fts
from sodamem.store.fts_reads import SQLiteFtsReads
from sodamem.store.graph_reads import SQLiteGraphReads
from sodamem.store.hashes import text_hash as text_hash
from sodamem.store.in_lists import IN_LIST_CHUNK as IN_LIST_CHUNK
from sodamem.store.in_lists import chunked as chunked
from sodamem.store.integrity import CheckReport, check_database
from sodamem.store.opening import BUSY_TIMEOUT_MS, open_database
from sodamem.store.protocol import MemoryStore
from sodamem.store.query_reads import SQLiteQueryReads
from sodamem.store.retrieval_reads import SQLiteRetrievalReads
from sodamem.store.rows import FtsRow as FtsRow
from sodamem.store.rows import PieceRow, SessionRow, TurnRow
from sodamem.store.sqlite_upkeep import SQLiteUpkeep
from sodamem.store.sqlite_writes import SQLiteWrites
from sodamem.store.turn_writes import insert_turns as insert_turns
from sodamem.store.turn_writes import piece_embedding_text as piece_embedding_text
from sodamem.store.turn_writes import turn_embedding_text as turn_embedding_text
from sodamem.store.vectors import VectorIndex
from sodamem.store.write_protocol import SessionWriteHook, Store, Writes

_Item = TypeVar("_Item")

BUSY_WAIT_SECONDS = 60.0
CHECKPOINT_WAIT_MS = 50
CHECKPOINT_TRIES = 10


def with_retry(operation: Callable[[], _Item], *, wait_seconds: float = BUSY_WAIT_SECONDS) -> _Item:
    """Run ``operation``, retrying with backoff while another process holds the database (``SQLITE_BUSY``).

    ``busy_timeout`` already waits inside SQLite, but some busy states (a WAL being recovered, a checkpoint)
    return at once; after ``wait_seconds`` the caller gets a ``StoreBusyError`` naming the wait, not a traceback."""
    deadline = time.monotonic() + wait_seconds
    delay = 0.005
    while True:
        try:
            return operation()
        except sqlite3.OperationalError as exc:
            message = str(exc).lower()
            if "locked" not in message and "busy" not in message:
                raise
            if time.monotonic() >= deadline:
                raise StoreBusyError(f"the database stayed busy for {wait_seconds:.0f} s: {exc}") from None
            time.sleep(delay * (0.5 + random.random()))
            delay = min(delay * 2, 0.5)


class SQLiteStore(SQLiteGraphReads, SQLiteRetrievalReads, SQLiteQueryReads, SQLiteUpkeep, SQLiteFtsReads):
    """The SQLite backend. It satisfies ``MemoryStore`` (``store/protocol.py``): the reads the retrieval and answer
    layers ask for are in the mixins (``graph_reads.py``, ``retrieval_reads.py``) and below."""

    conn: sqlite3.Connection

    def __init__(self, path: str | Path = ":memory:") -> None:
        self.path = str(path)
        # Bumped by every commit of this connection and whenever another connection (another process) committed:
        # in-memory indexes compare it to know they are stale.
        self._generation = 0
        self._data_version = -1
        self._speakers: dict[str, tuple[int, frozenset[str]]] = {}  # user -> (generation, speakers)
        self.conn = open_database(self.path)  # raises StoreOpenError naming the path
        if fts.pending_count(self.conn):  # rows written by a hand outside the store: index them now
            with self.transaction():
                pass

    def close(self) -> None:
        self.conn.close()

    @property
    def generation(self) -> int:
        """A number that changes whenever the database changed: by this connection or by any other process.

        ``PRAGMA data_version`` changes when another connection commits (a few microseconds to ask), so a search
        never ranks with rows cached before another process added or forgot something."""
        version = int(self.conn.execute("PRAGMA data_version").fetchone()[0])
        if version != self._data_version:
            self._data_version = version
            self._generation += 1
        return self._generation

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """One consistent view of the database for a read made of many statements (a search ranks rows, then
        reads them): rows another process deletes meanwhile stay visible to it until it ends. Nests."""
        if self.conn.in_transaction:
            yield
            return
        self.conn.execute("BEGIN")
        try:
            yield
        finally:
            if self.conn.in_transaction:
                self.conn.execute("COMMIT")

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """All or nothing: commit on success, roll back on any exception. Waits for other writers (backoff)."""
        with_retry(lambda: self.conn.execute("BEGIN IMMEDIATE"))
        try:
            yield self.conn
            fts.drain(self.conn)  # the full-text indexes follow the write before it commits
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        with_retry(lambda: self.conn.execute("COMMIT"))
        self._generation += 1

    @contextmanager
    def writing(self) -> Iterator[SQLiteWrites]:
        """``transaction()`` behind the domain operations of ``Writes`` (store/write_protocol.py)."""
        with self.transaction() as conn:
            yield SQLiteWrites(conn)

    # -- writes ---------------------------------------------------------------------------------------------

    def session_hash(self, user: str, session_id: str) -> str | None:
        row = self.conn.execute(
            "SELECT content_hash FROM sessions WHERE user = ? AND session_id = ?", (user, session_id)
        ).fetchone()
        return None if row is None else str(row[0])

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
        with self.transaction() as conn:
            replaced_slots: set[str] = set()
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
            piece_pks = insert_turns(conn, user, session_pk, session, session.turns, pieces)
            if then is not None:
                then(SQLiteWrites(conn), session_pk, piece_pks, replaced_slots)

    def truncate_wal(self) -> bool:
        """Copy the WAL into the database file and truncate it; False when another connection's open read kept
        part of it."""
        busy, _, _ = self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        return int(busy) == 0

    def check(self) -> CheckReport:
        return check_database(self.conn)

    def rebuild_fts(self) -> None:
        with self.transaction() as conn:
            fts.rebuild(conn)

    def scrub(self, user: str) -> bool:
        """After a forget: rewrite the user's FTS indexes and truncate the WAL so deleted text is in no byte of the
        files (``secure_delete`` zeroes the freed pages). False when another process's open read kept the WAL."""
        with self.transaction() as conn:
            fts.optimize(conn, user)
        if self.path == ":memory:":
            return True
        # A reader holding an old snapshot keeps the WAL: wait for it briefly (a search takes milliseconds), not
        # for the whole busy timeout, and say so when it outlasts the wait. SQLite checkpoints again, and removes
        # the WAL, when the last connection closes.
        self.conn.execute(f"PRAGMA busy_timeout = {CHECKPOINT_WAIT_MS}")
        try:
            for _ in range(CHECKPOINT_TRIES):
                if self.truncate_wal():
                    return True
                time.sleep(CHECKPOINT_WAIT_MS / 1000)
            return False
        finally:
            self.conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")

    # -- embeddings -------------------------------------------------------------------------------------------

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

    def put_embeddings(self, model: str, items: Sequence[tuple[str, bytes]], dim: int) -> None:
        with self.transaction() as conn:
            # Only texts some row still has: another process may have forgotten them since they were read.
            in_use = " OR ".join(
                f"EXISTS (SELECT 1 FROM {table} WHERE substr(embed_hash, 1, 16) = substr(?1, 1, 16)"
                " AND embed_hash = ?1)"
                for table in ("turns", "pieces", "facts", "entities")
            )
            conn.executemany(
                "INSERT OR IGNORE INTO embeddings (model, text_hash, dim, vector) SELECT ?2, ?1, ?3, ?4"
                f" WHERE {in_use}",
                [(digest, model, dim, blob) for digest, blob in items],
            )

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

    def set_setting(self, key: str, value: str) -> None:
        with self.transaction() as conn:
            conn.execute("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", (key, value))

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


def _turn_row(r: sqlite3.Row) -> TurnRow:
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


def _piece_row(r: sqlite3.Row) -> PieceRow:
    return PieceRow(int(r[0]), int(r[1]), int(r[2]), int(r[3]), int(r[4]), str(r[5]))


if TYPE_CHECKING:  # mypy checks that the SQLite store is a MemoryStore

    def _is_a_memory_store(store: SQLiteStore) -> MemoryStore:
        return store

    def _is_a_store(store: SQLiteStore) -> Store:
        return store

    def _writes(writes: SQLiteWrites) -> Writes:
        return writes
