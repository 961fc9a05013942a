"""``Writes`` (store/write_protocol.py) over a connection (SQLite's or the PostgreSQL store's, store/connection.py):
one transaction's connection behind the domain operations that ingestion, the live add and forgetting ask for.
``writing()`` of either store hands one out."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from sodamem.model import MessagePiece, Session, Turn
from sodamem.store import facts, forget, live
from sodamem.store.connection import Connection
from sodamem.store.facts import FactRow
from sodamem.store.forget import ForgetPlan, Selector
from sodamem.store.live import StoredSession
from sodamem.store.turn_writes import InsertedTurns, insert_turns

# ``insert_turns(conn, user, session_pk, session, turns, pieces)``: the portable one, or a backend's own
TurnsWriter = Callable[[Connection, str, int, Session, Sequence[Turn], Sequence[Sequence[MessagePiece]]], InsertedTurns]


class ConnectionWrites:
    def __init__(self, conn: Connection, turns_writer: TurnsWriter = insert_turns) -> None:
        self.conn = conn
        self._insert_turns = turns_writer

    def stored_session(self, user: str, session_id: str) -> StoredSession | None:
        return live.stored_session(self.conn, user, session_id)

    def session_as_seen(self, user: str, session_id: str, seen: StoredSession) -> StoredSession | None:
        """Read: on a local file the read is cheap (the PostgreSQL store checks instead, ``PgWrites``)."""
        return self.stored_session(user, session_id)

    def insert_session_row(self, user: str, session_id: str, timestamp: str, source: str, content_hash: str) -> int:
        return live.insert_session_row(self.conn, user, session_id, timestamp, source, content_hash)

    def set_session_hash(self, session_pk: int, content_hash: str) -> None:
        live.set_session_hash(self.conn, session_pk, content_hash)

    def insert_turns(
        self,
        user: str,
        session_pk: int,
        session: Session,
        turns: Sequence[Turn],
        pieces: Sequence[Sequence[MessagePiece]],
    ) -> InsertedTurns:
        return self._insert_turns(self.conn, user, session_pk, session, turns, pieces)

    def piece_pks_of_turns(self, turn_pks: Sequence[int]) -> dict[tuple[int, int], int]:
        return live.piece_pks_of_turns(self.conn, turn_pks)

    def piece_pks_of_session(self, session_pk: int) -> dict[tuple[int, int], int]:
        return live.piece_pks_of_session(self.conn, session_pk)

    def delete_turn_facts(self, turn_pks: Sequence[int]) -> set[str]:
        return live.delete_turn_facts(self.conn, turn_pks)

    def delete_session_facts(self, session_pk: int) -> set[str]:
        return live.delete_session_facts(self.conn, session_pk)

    def canonical_names(self, user: str, names: Sequence[str]) -> dict[str, str]:
        return facts.canonical_names_of(self.conn, user, names)

    def add_alias(self, user: str, alias: str, canonical: str) -> set[int]:
        return facts.add_alias(self.conn, user, alias, canonical)

    def insert_facts(self, user: str, rows: Sequence[FactRow]) -> list[int]:
        return facts.insert_facts(self.conn, user, rows)

    def resolve_slots(self, user: str, slots: Iterable[str]) -> None:
        facts.resolve_slots(self.conn, user, slots)

    def reslot(self, user: str, fact_pks: Iterable[int]) -> None:
        facts.reslot(self.conn, user, fact_pks)

    def link_neighbors(self, user: str, pairs: Sequence[tuple[int, int]]) -> None:
        facts.link_neighbors(self.conn, user, pairs)

    def plan_forget(self, user: str, selector: Selector) -> ForgetPlan:
        return forget.plan_forget(self.conn, user, selector)

    def apply_forget(self, user: str, plan: ForgetPlan) -> dict[str, int]:
        return forget.apply_forget(self.conn, user, plan)

    def forgotten_keys(self, user: str, piece_pks: Sequence[int]) -> set[tuple[int, str]]:
        return forget.forgotten_keys(self.conn, user, piece_pks)

    def preview_forget(self, user: str, plan: ForgetPlan) -> dict[str, int]:
        return forget.preview_forget(self.conn, user, plan)

    def log_forget(self, user: str, selector: Selector, counts: dict[str, int], ids: dict[str, list[object]]) -> None:
        forget.log_forget(self.conn, user, selector, counts, ids)
