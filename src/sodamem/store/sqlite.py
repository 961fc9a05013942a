"""The embedded SQLite store: sessions, turns, pieces (and later facts) with FTS5 indexes.

One writer; WAL; foreign keys on. Every query takes the user namespace explicitly.
"""

from __future__ import annotations

import random
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from sodamem.errors import StoreBusyError
from sodamem.store import fts, live, planner
from sodamem.store.connection_writes import ConnectionWrites
from sodamem.store.fts_reads import SQLiteFtsReads
from sodamem.store.graph_reads import PortableGraphReads
from sodamem.store.hashes import text_hash as text_hash
from sodamem.store.in_lists import IN_LIST_CHUNK as IN_LIST_CHUNK
from sodamem.store.in_lists import chunked as chunked
from sodamem.store.in_lists import marks
from sodamem.store.integrity import CheckReport, check_database
from sodamem.store.opening import BUSY_TIMEOUT_MS, DEFAULT_SQLITE_SYNCHRONOUS, open_database
from sodamem.store.portable import PortableStore
from sodamem.store.protocol import MemoryStore
from sodamem.store.query_reads import PortableQueryReads
from sodamem.store.retrieval_reads import PortableRetrievalReads
from sodamem.store.rows import FtsRow as FtsRow
from sodamem.store.turn_writes import insert_turns as insert_turns
from sodamem.store.turn_writes import piece_embedding_text as piece_embedding_text
from sodamem.store.turn_writes import turn_embedding_text as turn_embedding_text
from sodamem.store.upkeep import PortableUpkeep
from sodamem.store.write_protocol import Store, Writes

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


class SQLiteStore(
    PortableStore, PortableGraphReads, PortableRetrievalReads, PortableQueryReads, PortableUpkeep, SQLiteFtsReads
):
    """The SQLite backend. It satisfies ``MemoryStore`` (``store/protocol.py``): the reads the retrieval and answer
    layers ask for are in the mixins (``graph_reads.py``, ``retrieval_reads.py``) and below."""

    conn: sqlite3.Connection

    def __init__(self, path: str | Path = ":memory:", *, synchronous: str = DEFAULT_SQLITE_SYNCHRONOUS) -> None:
        """``synchronous``: ``"NORMAL"`` (commits do not wait for the disk) or ``"FULL"`` (each commit syncs the WAL:
        a returned write survives a power cut); ``store/opening.py``, ``SQLITE_SYNCHRONOUS_LEVELS``."""
        self.path = str(path)
        # Bumped by every commit of this connection and whenever another connection (another process) committed:
        # in-memory indexes compare it to know they are stale.
        self._generation = 0
        self._data_version = -1
        self._speakers: dict[str, tuple[int, frozenset[str]]] = {}  # user -> (generation, speakers)
        self._term_counts = {}
        self.conn = open_database(self.path, synchronous=synchronous)  # raises StoreOpenError naming the path
        if fts.pending_count(self.conn):  # rows written by a hand outside the store: index them now
            with self.transaction():
                pass

    def close(self) -> None:
        self.conn.close()

    @property
    def synchronous(self) -> str:
        """The connection's ``synchronous`` level as SQLite reports it (``"NORMAL"``, ``"FULL"``; ``:memory:``:
        SQLite's default, ``"FULL"``, which has no disk to wait for)."""
        level = int(self.conn.execute("PRAGMA synchronous").fetchone()[0])
        return ("OFF", "NORMAL", "FULL", "EXTRA")[level]

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
    def transaction(self, user: str | None = None) -> Iterator[sqlite3.Connection]:
        """All or nothing: commit on success, roll back on any exception. Waits for other writers (backoff): one
        writer at a time in a file, whatever ``user`` it writes for."""
        with_retry(lambda: self.conn.execute("BEGIN IMMEDIATE"))
        try:
            yield self.conn
            fts.drain(self.conn)  # the full-text indexes follow the write before it commits
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        with_retry(lambda: self.conn.execute("COMMIT"))
        self._generation += 1

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

    def compact_text_index(self, users: Sequence[str]) -> None:
        """FTS5 writes a segment per transaction and merges them only by and by: an ingest of conv-47 (32
        sessions) left 16 segments per index, and each query term is looked up in every segment (~960 lookups a
        search; 7% of a search's CPU at 689 turns). One segment per index costs ~0.6 s at 100k turns."""
        with self.transaction() as conn:
            for user in dict.fromkeys(users):
                fts.optimize(conn, user)

    def refresh_planner_statistics(self) -> bool:
        if not planner.statistics_stale(self.conn):  # two reads by key: cheap enough for every add
            return False
        with self.transaction() as conn:
            planner.analyze(conn)
        return True

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

    def put_embeddings(
        self, model: str, items: Sequence[tuple[str, bytes]], dim: int, *, dequeue: Sequence[int] = ()
    ) -> None:
        with self.transaction() as conn:
            live.dequeue_embeddings(conn, dequeue)
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

    def turns_said_by(self, user: str, speakers: Sequence[str], latest: int | None = None) -> list[int]:
        if latest is None or latest < 1 or not speakers:
            return super().turns_said_by(user, speakers, latest)
        # Newest first along the rowid, stopping at ``latest``: the index on ``user`` would read all of the user's
        # turns and sort them (100 ms against 4-8 ms at 100k turns, bench perf's memory).
        rows = self.conn.execute(
            f"SELECT id FROM turns NOT INDEXED WHERE user = ? AND speaker IN ({marks(speakers)})"
            " ORDER BY id DESC LIMIT ?",
            (user, *speakers, latest),
        )
        return sorted(int(pk) for (pk,) in rows)

    def set_setting(self, key: str, value: str) -> None:
        with self.transaction() as conn:
            conn.execute("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", (key, value))


if TYPE_CHECKING:  # mypy checks that the SQLite store is a MemoryStore

    def _is_a_memory_store(store: SQLiteStore) -> MemoryStore:
        return store

    def _is_a_store(store: SQLiteStore) -> Store:
        return store

    def _writes(writes: ConnectionWrites) -> Writes:
        return writes
