"""``PostgresStore``: the memory on PostgreSQL, for deployments whose many server processes on many machines share
one database. ``Memory("postgresql://...")`` opens one (``store/opening.py``, ``open_store``).

The operations written in portable SQL are shared with the SQLite store (``store/portable.py``, the read mixins,
``ConnectionWrites`` and the modules they call) and run through ``PgConnection``; what differs is here: opening
(a psycopg pool, migrations), transactions, the generation number, BM25 (``lexical.py``, ``ranking.py``),
embeddings and settings upserts, the integrity check and scrubbing.

Transactions: a write takes transaction-level advisory locks. A write for one user (an add, a session's
ingest) holds that user's lock, so that user's writers from any number of processes follow one another as SQLite's
``BEGIN IMMEDIATE`` makes them (no lost update of a supersession slot: the slot is read and rewritten under the
lock), while other users' writers proceed; it also holds the global lock shared. A write that may touch anything
(settings, API keys, an import, re-indexing, a forget: it deletes cached vectors other users may share) holds the
global lock exclusively: it waits for every writer and every writer waits for it. Writes to the shared vector cache
hold the global lock shared only. Readers never wait. A multi-statement read (a search) runs in one REPEATABLE READ
snapshot.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np
import psycopg
from psycopg.types.numeric import FloatLoader
from psycopg_pool import ConnectionPool, PoolTimeout

from sodamem.errors import StoreOpenError
from sodamem.model import MessagePiece, Session, Turn
from sodamem.store import live
from sodamem.store.connection import Connection
from sodamem.store.connection_writes import ConnectionWrites
from sodamem.store.fts import COLUMNS
from sodamem.store.graph_reads import PortableGraphReads
from sodamem.store.integrity import CheckReport, check_rows
from sodamem.store.live import SessionChanged
from sodamem.store.portable import PortableStore
from sodamem.store.postgres import embed_queue, lexical, ranking
from sodamem.store.postgres.connection import PgConnection
from sodamem.store.postgres.schema import apply_migrations
from sodamem.store.postgres.tokens import Fts5Tokenizer
from sodamem.store.postgres.turn_writes import insert_indexed_turns
from sodamem.store.postgres.vectors import PgVectorSearch, vector_literal
from sodamem.store.postgres.writes import SESSION_CHANGED, PgWrites
from sodamem.store.query_reads import PortableQueryReads
from sodamem.store.retrieval_reads import PortableRetrievalReads
from sodamem.store.rows import FtsRow
from sodamem.store.turn_writes import InsertedTurns
from sodamem.store.upkeep import PortableUpkeep

_WRITE_LOCK = 0x50D4_3E31  # pg_advisory_xact_lock key: exclusive for a write that may touch anything, else shared
_BUMP = "UPDATE store_state SET generation = generation + 1"
_USER_LOCKS = 0x50D4_3E32  # with the user's key (_key): the two-key advisory lock of one user's writes


class PostgresStore(PortableStore, PortableGraphReads, PortableRetrievalReads, PortableQueryReads, PortableUpkeep):
    conn: PgConnection

    def __init__(self, url: str, *, pool_size: int = 2) -> None:
        self.path = url
        self._speakers: dict[str, tuple[int, frozenset[str]]] = {}
        try:
            self._pool: ConnectionPool[psycopg.Connection[Any]] = ConnectionPool(
                url, min_size=1, max_size=pool_size, kwargs={"autocommit": True}, open=True, timeout=30
            )
            raw = self._pool.getconn()
        except (psycopg.Error, PoolTimeout) as exc:
            raise StoreOpenError(f"cannot open database {_redacted(url)}: {exc}") from None
        raw.adapters.register_loader("numeric", FloatLoader)
        try:
            apply_migrations(raw)
        except psycopg.Error as exc:
            self._pool.putconn(raw)
            self._pool.close()
            raise StoreOpenError(f"cannot open database {_redacted(url)}: {exc}") from None
        self.conn = PgConnection(raw)
        self._tokenizer = Fts5Tokenizer()

    def close(self) -> None:
        if self._pool.closed:
            return
        self._pool.putconn(self.conn.raw)
        self._pool.close()
        self._tokenizer.close()

    @property
    def generation(self) -> int:
        """Bumped inside every write transaction (of any process): in-memory indexes compare it."""
        row = self.conn.native("SELECT generation FROM store_state").fetchone()
        return int(row[0])

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        if self.conn.in_transaction:
            yield
            return
        self.conn.native("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        try:
            yield
        finally:
            if self.conn.in_transaction:
                self.conn.native("COMMIT")

    @contextmanager
    def transaction(self, user: str | None = None, *, shared: bool = False) -> Iterator[PgConnection]:
        """All or nothing, with advisory locks held to the commit: ``user``'s writers one at a time (other users'
        at the same time); with no user, the only writer of all (``shared``: beside any other writer)."""
        if user is not None:
            locks = f"pg_advisory_xact_lock_shared({_WRITE_LOCK}), pg_advisory_xact_lock({_USER_LOCKS}, {_key(user)})"
        elif shared:
            locks = f"pg_advisory_xact_lock_shared({_WRITE_LOCK})"
        else:
            locks = f"pg_advisory_xact_lock({_WRITE_LOCK})"
        # Pipelined: the statements whose results are not read share round trips (a small add is bound by them);
        # BEGIN and the locks go out with the first read, the last writes with the COMMIT.
        try:
            with self.conn.pipelined():
                self.conn.native("BEGIN")
                self.conn.native(f"SELECT {locks}")
                self.conn.begin_logging()
                yield self.conn
                if self.conn.logged:
                    lexical.drain(self.conn, self._tokenizer, along=_BUMP)
                else:
                    self._bump_unlogged()
                self.conn.native("COMMIT")
        except BaseException as exc:
            if self.conn.in_transaction:
                self.conn.native("ROLLBACK")
            self.conn.forget_prepared()
            if isinstance(exc, psycopg.Error) and exc.sqlstate == SESSION_CHANGED:
                raise SessionChanged(str(exc)) from None
            raise

    def _bump_unlogged(self) -> None:
        """The end of a transaction none of whose statements may have logged a change (``PgConnection.logged``):
        the generation bump goes out with the COMMIT, without the drain's read of the log (one wait for the server
        less; most adds make no facts and log nothing)."""
        self.conn.native(_BUMP)

    def _writes(self, conn: Connection) -> ConnectionWrites:
        """Turns and pieces go in with their lexical index rows, one statement for all (``turn_writes.py``); an
        add's session is checked by the server, not read back (``writes.py``)."""
        assert conn is self.conn
        return PgWrites(self.conn, self._insert_turns)

    def _insert_turns(
        self,
        conn: Connection,
        user: str,
        session_pk: int,
        session: Session,
        turns: Sequence[Turn],
        pieces: Sequence[Sequence[MessagePiece]],
    ) -> InsertedTurns:
        assert conn is self.conn
        return insert_indexed_turns(self.conn, self._tokenizer, user, session_pk, session, turns, pieces)

    # -- lexical search ---------------------------------------------------------------------------------------

    def _ranked(
        self,
        table: str,
        user: str,
        match: str,
        limit: int,
        extra: str = "",
        params: Sequence[Any] = (),
        *,
        within: str = "",
    ) -> list[FtsRow]:
        rows = ranking.ranked(self.conn, self._tokenizer, table, user, match, limit, extra, params, within=within)
        return [FtsRow(rid, bm25) for rid, bm25 in rows]

    def search_turns(self, user: str, match: str, limit: int) -> list[FtsRow]:
        return self._ranked("turns", user, match, limit)

    def search_pieces(
        self, user: str, match: str, limit: int, *, turn_pks: Sequence[int] | None = None
    ) -> list[FtsRow]:
        if turn_pks is None:
            return self._ranked("pieces", user, match, limit)
        # a few turns' pieces (the spans a search's hits cite): only their postings are read
        within = "SELECT id FROM pieces WHERE turn_pk = ANY(%(p0)s)"
        return self._ranked("pieces", user, match, limit, params=[list(turn_pks)], within=within)

    def search_facts(self, user: str, match: str, limit: int, statuses: Sequence[str]) -> list[FtsRow]:
        return self._ranked("facts", user, match, limit, "WHERE t.status = ANY(%(p0)s)", [list(statuses)])

    def entities_named_with(self, user: str, word: str, limit: int) -> list[int]:
        match = f'name : "{word.replace(chr(34), "")}"'
        return [row.rowid for row in self._ranked("entities", user, match, limit)]

    def turn_term_counts(self, user: str, stems: Sequence[str]) -> tuple[dict[str, int], int]:
        total = self.conn.execute("SELECT COUNT(*) FROM turns WHERE user = ?", (user,)).fetchone()
        return lexical.term_counts(self.conn, user, stems), int(total[0])

    # -- what differs in SQL -------------------------------------------------------------------------------------

    def put_embeddings(
        self, model: str, items: Sequence[tuple[str, bytes]], dim: int, *, dequeue: Sequence[int] = ()
    ) -> None:
        """Into the vector cache all users share, beside other writers: texts in hash order, so two writers that
        insert the same texts wait for each other in one order (no deadlock). ``dequeue``: turns taken off the
        embedding queue in the same transaction (deleting their queue rows needs no user's lock)."""
        items = sorted(items)
        if not items and not dequeue:
            return
        with self.transaction(shared=True) as conn:
            if dequeue:
                # an add's vectors: derived state, as the dequeue in embed_queue.py. A crash that loses this commit
                # leaves the turns queued, and the next Memory to open embeds them again (the add's own commit was
                # flushed before this one). An ingest's or an import's vectors (nothing dequeued) wait for the flush.
                conn.native("SET LOCAL synchronous_commit = off")
            live.dequeue_embeddings(conn, dequeue)
            if not items:
                return
            in_use = " OR ".join(
                f"EXISTS (SELECT 1 FROM {table} WHERE substr(embed_hash, 1, 16) = substr(x.h, 1, 16)"
                " AND embed_hash = x.h)"
                for table in ("turns", "pieces", "facts", "entities")
            )
            conn.native(  # one statement for the batch: round trips, not rows, are what a small add waits for
                "INSERT INTO embeddings (model, text_hash, dim, vector, embedding)"
                " SELECT %s, x.h, %s, x.v, x.e::vector FROM unnest(%s::text[], %s::bytea[], %s::text[]) AS x (h, v, e)"
                f" WHERE {in_use} ORDER BY x.h ON CONFLICT DO NOTHING",
                (
                    model,
                    dim,
                    [digest for digest, _ in items],
                    [blob for _, blob in items],
                    [vector_literal(np.frombuffer(blob, np.float32)) for _, blob in items],
                ),
            )

    def texts_to_embed(self, model: str, turn_pks: Sequence[int]) -> dict[str, tuple[str, str]]:
        return embed_queue.texts_to_embed(self.conn, model, turn_pks, dequeue=False)

    def texts_to_embed_else_dequeue(
        self, model: str, turn_pks: Sequence[int], user: str | None = None
    ) -> dict[str, tuple[str, str]]:
        """One statement, one wait for the server, no lock (``embed_queue.py``)."""
        return embed_queue.texts_to_embed(self.conn, model, turn_pks, dequeue=True)

    def set_setting(self, key: str, value: str) -> None:
        with self.transaction() as conn:
            conn.native(
                "INSERT INTO settings (key, value) VALUES (%s, %s)"
                " ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
                (key, value),
            )

    def vector_index(self, model: str, dim: int) -> PgVectorSearch:  # type: ignore[override]
        """pgvector's cosine search in the database (the SQLite store keeps an int8 index in memory)."""
        return PgVectorSearch(self.conn, model, dim)

    def vector_rows(self, model: str, user: str, table: str) -> list[tuple[int, bytes]]:
        return [(pk, bytes(blob)) for pk, blob in super().vector_rows(model, user, table)]

    def scrub(self, user: str) -> bool:
        """After a forget: PostgreSQL keeps deleted rows' old versions until VACUUM reclaims them; this runs it on
        the tables that held the text. True when it ran (the freed space is reused, not zeroed)."""
        for table in ("turns", "pieces", "facts", "entities", "fact_sources", "fts_postings", "embeddings"):
            self.conn.native(f"VACUUM {table}")
        return True

    def refresh_planner_statistics(self) -> bool:
        """Nothing to do: autovacuum analyzes the tables as they change."""
        return False

    def compact_text_index(self, users: Sequence[str]) -> None:
        """Nothing to do: the lexical index is ordinary tables and B-tree indexes, kept compact as rows change."""

    def rebuild_fts(self) -> None:
        """Re-index every row from the tables."""
        with self.transaction() as conn:
            for table in ("fts_postings", "fts_docs", "fts_terms", "fts_totals", "fts_pending"):
                conn.native(f"DELETE FROM {table}")
            for table, columns in COLUMNS.items():
                values = ", ".join([*columns, *(["NULL"] * (2 - len(columns)))])
                conn.native(
                    'INSERT INTO fts_pending (tbl, op, rid, "user", c1, c2)'
                    f""" SELECT '{table}', 'insert', id, "user", {values} FROM {table} ORDER BY id"""
                )

    def check(self) -> CheckReport:
        """The portable checks of the rows, after the lexical index's own: every row indexed, no stale log."""
        with self.snapshot():
            return check_rows(self.conn, [("lexical_index", lexical.check_index(self.conn))])


def _key(user: str) -> int:
    """The user's lock key: a 32-bit hash (users that share one only wait for each other)."""
    return int.from_bytes(hashlib.blake2b(user.encode("utf-8"), digest_size=4).digest(), "big", signed=True)


def _redacted(url: str) -> str:
    """The URL without a password."""
    head, at, tail = url.rpartition("@")
    if not at:
        return url
    scheme, _, credentials = head.partition("://")
    return f"{scheme}://{credentials.split(':')[0]}@{tail}"
