"""What ingestion, the live add, forgetting, embedding and ``Memory`` ask of a store, in their own terms: the write
side of the interface a second backend (PostgreSQL) implements, beside the reads of ``store/protocol.py``.

``Writes`` is one transaction: ``store.writing()`` opens it, and everything asked of it lands together on a clean
exit or not at all on an exception. ``Store`` is the whole interface ``Memory`` holds: the reads, the writes, and the
operations that run their own transactions (sessions, embeddings, settings, keys, dumps, the integrity check).
``SQLiteStore`` satisfies both (checked by mypy at the end of ``store/sqlite.py`` and by
``tests/test_store_boundary.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from typing import Protocol, runtime_checkable

from sodamem.dump.records import Dump
from sodamem.model import MessagePiece, Session, Turn
from sodamem.records import FactRecord, ImportReport, SessionSummary, UserStats
from sodamem.store.facts import FactRow
from sodamem.store.forget import ForgetPlan, LogRow, Selector
from sodamem.store.integrity import CheckReport
from sodamem.store.keys import KeyRecord, KeyRow
from sodamem.store.live import StoredSession
from sodamem.store.protocol import MemoryStore, VectorSearch
from sodamem.store.rows import PieceRow, SessionRow, TurnRow
from sodamem.store.turn_writes import InsertedTurns


@runtime_checkable
class Writes(Protocol):
    """The writes of one transaction. Ids are the store's row ids (``*_pk``)."""

    # -- sessions and turns (ingest, live add) ---------------------------------------------------------------
    def stored_session(self, user: str, session_id: str) -> StoredSession | None:
        """A session with its turns in order, or None."""
        ...

    def session_as_seen(self, user: str, session_id: str, seen: StoredSession) -> StoredSession | None:
        """The session as stored now, or ``seen`` itself where the store instead checks, in this transaction, that
        the session is still stored as ``seen``: if not, the transaction writes nothing and raises
        ``SessionChanged`` (at a later read or at its commit at the latest)."""
        ...

    def insert_session_row(self, user: str, session_id: str, timestamp: str, source: str, content_hash: str) -> int: ...

    def set_session_hash(self, session_pk: int, content_hash: str) -> None: ...

    def insert_turns(
        self,
        user: str,
        session_pk: int,
        session: Session,
        turns: Sequence[Turn],
        pieces: Sequence[Sequence[MessagePiece]],
    ) -> InsertedTurns:
        """Store turns with their pieces; their pks (turns in order, pieces by ``(turn index, piece index)``)."""
        ...

    def piece_pks_of_turns(self, turn_pks: Sequence[int]) -> dict[tuple[int, int], int]: ...

    def piece_pks_of_session(self, session_pk: int) -> dict[tuple[int, int], int]: ...

    # -- facts -------------------------------------------------------------------------------------------------
    def delete_turn_facts(self, turn_pks: Sequence[int]) -> set[str]:
        """Delete the facts drawn from these turns; return their supersession slots."""
        ...

    def delete_session_facts(self, session_pk: int) -> set[str]: ...

    def canonical_names(self, user: str, names: Sequence[str]) -> dict[str, str]:
        """The name of the entity each name refers to (created on first mention, in order)."""
        ...

    def add_alias(self, user: str, alias: str, canonical: str) -> set[int]:
        """Make ``alias`` a name of ``canonical``'s entity (merging two entities); the facts whose subject moved."""
        ...

    def insert_facts(self, user: str, rows: Sequence[FactRow]) -> list[int]:
        """Store facts with their sources, roles, entities and DERIVED_FROM/MENTIONS links; their ids in order."""
        ...

    def resolve_slots(self, user: str, slots: Iterable[str]) -> None:
        """Recompute each slot whole: newest active, older superseded and linked from their successor."""
        ...

    def reslot(self, user: str, fact_pks: Iterable[int]) -> None:
        """Recompute the slots of facts whose subject entity changed."""
        ...

    def link_neighbors(self, user: str, pairs: Sequence[tuple[int, int]]) -> None:
        """NEIGHBOR links between the user's facts (pairs whose fact is gone are skipped)."""
        ...

    # -- forgetting -----------------------------------------------------------------------------------------------
    def plan_forget(self, user: str, selector: Selector) -> ForgetPlan: ...

    def apply_forget(self, user: str, plan: ForgetPlan) -> dict[str, int]:
        """Delete what the plan names, with its cascade; the counts per kind of row."""
        ...

    def forgotten_keys(self, user: str, piece_pks: Sequence[int]) -> set[tuple[int, str]]:
        """``(piece_pk, forget.forgotten_key(predicate, value))`` of the facts the user forgot that were read from
        these pieces: a fact made again from one of them is not stored."""
        ...

    def preview_forget(self, user: str, plan: ForgetPlan) -> dict[str, int]:
        """The counts ``apply_forget`` would return; nothing changes."""
        ...

    def log_forget(
        self, user: str, selector: Selector, counts: dict[str, int], ids: dict[str, list[object]]
    ) -> None: ...


SessionWriteHook = Callable[[Writes, int, dict[tuple[int, int], int], set[str]], None]


@runtime_checkable
class Store(MemoryStore, Protocol):
    """Everything ``Memory`` asks of a backend."""

    def close(self) -> None: ...

    def writing(self, user: str | None = None) -> AbstractContextManager[Writes]:
        """One all-or-nothing transaction; waits for other writers. ``user``: the write touches only that user's
        rows (PostgreSQL then lets other users' writers proceed at the same time); None: it may touch anything."""
        ...

    # -- ingestion -------------------------------------------------------------------------------------------
    def session_hash(self, user: str, session_id: str) -> str | None: ...

    def stored_session(self, user: str, session_id: str) -> StoredSession | None:
        """A session with its turns in order, or None, read outside any write (``Writes.stored_session`` inside)."""
        ...

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
        """A session with its turns and pieces in one transaction; ``then`` runs inside it (the facts)."""
        ...

    # -- embeddings ------------------------------------------------------------------------------------------
    def missing_embeddings(self, model: str, user: str | None = None) -> dict[str, str]: ...

    def put_embeddings(
        self, model: str, items: Sequence[tuple[str, bytes]], dim: int, *, dequeue: Sequence[int] = ()
    ) -> None:
        """Cache vectors (of texts some row still has), and take ``dequeue``'s turns off the embedding queue, in one
        transaction."""
        ...

    def stored_embeddings(self) -> Iterator[tuple[str, int, list[tuple[str, bytes]]]]:
        """Every cached vector, ``(model, dim, [(text hash, float32 blob)])`` in batches."""
        ...

    def vector_rows(self, model: str, user: str, table: str) -> list[tuple[int, bytes]]: ...

    def vector_index(self, model: str, dim: int) -> VectorSearch:
        """Nearest-neighbour search over this store's vectors under ``model``."""
        ...

    def any_queued(self) -> bool: ...

    def queued_turns(self) -> list[int]: ...

    def texts_to_embed(self, model: str, turn_pks: Sequence[int]) -> dict[str, tuple[str, str]]: ...

    def texts_to_embed_else_dequeue(
        self, model: str, turn_pks: Sequence[int], user: str | None = None
    ) -> dict[str, tuple[str, str]]:
        """``texts_to_embed``; when nothing lacks a vector, the turns are also taken off the embedding queue (an add
        whose texts the shared cache holds already: one step, not a read and then a write)."""
        ...

    # -- mentions (derived, like vectors) ------------------------------------------------------------------------
    def turns_to_annotate(self, user: str | None = None, turn_pks: Sequence[int] | None = None) -> dict[int, str]:
        """``turn pk -> text`` of turns whose mentions are not stored: all, one user's, or among ``turn_pks``."""
        ...

    def put_turn_mentions(self, items: Sequence[tuple[int, Sequence[tuple[str, str]]]]) -> None:
        """Store turns' mentions in one transaction (turns gone since are skipped)."""
        ...

    def mentions_by_text(self, user: str) -> dict[str, tuple[tuple[str, str], ...]]:
        """The user's stored mentions keyed by the text they were read from (``store/mentions.mention_text``)."""
        ...

    def users_of_facts(self, fact_pks: Sequence[int]) -> dict[str, list[int]]: ...

    def get_setting(self, key: str) -> str | None: ...

    def set_setting(self, key: str, value: str) -> None: ...

    # -- reads for Memory's lookups ---------------------------------------------------------------------------
    def session_row(self, user: str, session_id: str) -> SessionRow | None: ...

    def session_turns(self, user: str, session_pk: int, first: int, last: int) -> list[TurnRow]: ...

    def turn_windows(self, user: str, windows: Sequence[tuple[int, int, int]]) -> list[list[TurnRow]]:
        """``session_turns`` of each ``(session_pk, first, last)``, in one read."""
        ...

    def turns_by_pk(self, user: str, turn_pks: Sequence[int]) -> dict[int, TurnRow]: ...

    def turns_by_turn_id(self, user: str, turn_id: str, session_id: str | None = None) -> list[TurnRow]: ...

    def pieces_of_turns(self, user: str, turn_pks: Sequence[int]) -> dict[int, list[PieceRow]]: ...

    def pieces_by_pk(self, user: str, piece_pks: Sequence[int]) -> dict[int, PieceRow]: ...

    def deletions(self, table: str) -> int: ...

    def session_summaries(self, user: str) -> list[SessionSummary]: ...

    def stats(self, user: str | None = None) -> list[UserStats]: ...

    def query_facts(
        self, user: str, *, status: str = "active", as_of: datetime | None = None, subject: str | None = None
    ) -> list[FactRecord]: ...

    def fact_by_id(self, user: str, fact_id: int) -> FactRecord | None: ...

    def slot_history(self, user: str, fact_id: int) -> list[FactRecord]: ...

    # -- forgetting, dumps, upkeep -----------------------------------------------------------------------------
    def scrub(self, user: str) -> bool:
        """After a forget: make the deleted text unrecoverable from the store's files; False when it could not
        be done completely now."""
        ...

    def forget_log(self, user: str) -> list[dict[str, object]]: ...

    def deployment_rows(self) -> tuple[list[KeyRow], list[LogRow]]:
        """Every API key (hashed) and forget record, as stored."""
        ...

    def put_deployment_rows(self, key_rows: list[KeyRow], log_rows: list[LogRow]) -> None: ...

    def read_dump(self, user: str) -> Dump:
        """The user's memory in dump records, read in one snapshot."""
        ...

    def write_dump(self, user: str, dump: Dump) -> ImportReport: ...

    def rebuild_fts(self) -> None: ...

    def reslot_facts(self) -> int:
        """Give every user's facts the slots and statuses today's supersession rules give them (``check`` flags a
        store written under older ones). How many facts changed slot."""
        ...

    def compact_text_index(self, users: Sequence[str]) -> None:
        """After a bulk write (an ingest of many sessions): rewrite these users' full-text indexes compactly, where
        the backend's index grows a piece per transaction and every search then reads each piece."""
        ...

    def refresh_planner_statistics(self) -> bool:
        """Refresh the query planner's table statistics when the turns have grown well past those it has (True when
        refreshed). Without them SQLite reads ``user = ? AND id IN (...)`` through the index on ``user``, every one
        of the user's turns, instead of the listed rows; PostgreSQL's autovacuum keeps its own."""
        ...

    def check(self) -> CheckReport: ...

    # -- API keys ------------------------------------------------------------------------------------------------
    def insert_key(self, user: str, key_hash: str, prefix: str, label: str, now: str) -> KeyRecord: ...

    def user_of_key_hash(self, key_hash: str) -> str | None: ...

    def list_keys(self, user: str | None = None) -> list[KeyRecord]: ...

    def revoke_key(self, key_id: int, now: str) -> KeyRecord | None: ...
