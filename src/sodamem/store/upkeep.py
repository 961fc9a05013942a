"""The stores' operations beyond search: the embedding queue, fact queries, forget's audit log, dumps, the
integrity check and API keys, each a call into its store/ module with the store's connection. Mixed into
``SQLiteStore`` and ``PostgresStore`` (portable SQL)."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from datetime import datetime

from sodamem.dump.records import Dump
from sodamem.records import FactRecord, ImportReport
from sodamem.store import dump_read, dump_write, fact_queries, facts, forget, keys, live
from sodamem.store.connection import Connection


class PortableUpkeep:
    conn: Connection

    def transaction(self, user: str | None = None) -> AbstractContextManager[Connection]:
        raise NotImplementedError  # the backend's

    def reslot_facts(self) -> int:
        moved = 0
        for user in fact_queries.users_with_facts(self.conn):
            with self.transaction(user) as conn:
                moved += facts.reslot_all(conn, user)
        return moved

    def any_queued(self) -> bool:
        return live.any_queued(self.conn)

    def queued_turns(self) -> list[int]:
        return live.queued_turns(self.conn)

    def texts_to_embed(self, model: str, turn_pks: Sequence[int]) -> dict[str, tuple[str, str]]:
        return live.texts_to_embed(self.conn, model, turn_pks)

    def texts_to_embed_else_dequeue(
        self, model: str, turn_pks: Sequence[int], user: str | None = None
    ) -> dict[str, tuple[str, str]]:
        missing = live.texts_to_embed(self.conn, model, turn_pks)
        if not missing:
            with self.transaction(user) as conn:
                live.dequeue_embeddings(conn, turn_pks)
        return missing

    def query_facts(
        self, user: str, *, status: str = "active", as_of: datetime | None = None, subject: str | None = None
    ) -> list[FactRecord]:
        return fact_queries.query_facts(self.conn, user, status=status, as_of=as_of, subject=subject)

    def fact_by_id(self, user: str, fact_id: int) -> FactRecord | None:
        return fact_queries.fact_by_id(self.conn, user, fact_id)

    def slot_history(self, user: str, fact_id: int) -> list[FactRecord]:
        return fact_queries.slot_history(self.conn, user, fact_id)

    def forget_log(self, user: str) -> list[dict[str, object]]:
        return forget.forget_log(self.conn, user)

    def deployment_rows(self) -> tuple[list[keys.KeyRow], list[forget.LogRow]]:
        """What belongs to the deployment rather than to one user's memory: API keys and the forget log."""
        return keys.key_rows(self.conn), forget.forget_log_rows(self.conn)

    def put_deployment_rows(self, key_rows: list[keys.KeyRow], log_rows: list[forget.LogRow]) -> None:
        """Append another store's ``deployment_rows`` (one transaction)."""
        with self.transaction() as conn:
            keys.insert_key_rows(conn, key_rows)
            forget.insert_forget_log_rows(conn, log_rows)

    def read_dump(self, user: str) -> Dump:
        return dump_read.read_dump(self.conn, user)

    def write_dump(self, user: str, dump: Dump) -> ImportReport:
        with self.transaction() as conn:
            return dump_write.write_dump(conn, user, dump)

    def insert_key(self, user: str, key_hash: str, prefix: str, label: str, now: str) -> keys.KeyRecord:
        with self.transaction() as conn:
            return keys.insert_key(conn, user, key_hash, prefix, label, now)

    def user_of_key_hash(self, key_hash: str) -> str | None:
        return keys.user_of_hash(self.conn, key_hash)

    def list_keys(self, user: str | None = None) -> list[keys.KeyRecord]:
        return keys.list_keys(self.conn, user)

    def revoke_key(self, key_id: int, now: str) -> keys.KeyRecord | None:
        with self.transaction() as conn:
            return keys.revoke_key(conn, key_id, now)
