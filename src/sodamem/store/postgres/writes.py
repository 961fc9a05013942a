"""The PostgreSQL store's ``Writes``: the portable ones (``store/connection_writes.py``), except that an add's check
that its session is as it was seen is made by the server rather than read back (``session_as_seen``).

An add plans its rows before it takes the user's lock, from the session as it saw it (``ingest/append.py``), and
under the lock makes sure that no other writer changed the session meanwhile. Reading the session back for that
costs a round trip, in which the add waits for the server. Instead, the seen session goes to the server with the
add's writes, and ``sodamem_session_is`` (migration 0011) compares it with the stored one under the lock, field by
field as ``StoredSession`` equality does: where it differs the statement fails, the server skips the writes queued
behind it, and the transaction rolls back whole (``SessionChanged``: the caller reads the session and plans again).
An add that makes no facts then waits for the server once, at its commit.
"""

from __future__ import annotations

import json

from sodamem.store.connection_writes import ConnectionWrites, TurnsWriter
from sodamem.store.live import StoredSession
from sodamem.store.postgres.connection import PgConnection

SESSION_CHANGED = "SD001"  # the SQLSTATE sodamem_session_is raises


class PgWrites(ConnectionWrites):
    def __init__(self, conn: PgConnection, turns_writer: TurnsWriter) -> None:
        super().__init__(conn, turns_writer)
        self._pg = conn

    def session_as_seen(self, user: str, session_id: str, seen: StoredSession) -> StoredSession | None:
        """``seen``, checked by the server in this transaction (sent, not waited for)."""
        expected = [
            seen.timestamp,
            seen.source,
            seen.next_index,
            [[t.turn_pk, t.index, t.turn_id, t.speaker, t.text, t.caption, t.timestamp] for t in seen.turns],
        ]
        self._pg.native("SELECT sodamem_session_is(%s, %s::jsonb)", (seen.session_pk, json.dumps(expected)))
        return seen
