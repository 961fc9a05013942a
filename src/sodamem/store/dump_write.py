"""Import into SQLite: a validated ``Dump`` written under one user in one transaction, all or nothing.

Rows are written in the dump's order, so the new row ids keep it and the import exports to the same bytes.
Derived columns are computed exactly as ingestion computes them (session content hashes, embedding text hashes),
so ingesting one of the sessions again later is recognised as identical and ``Memory.embed_missing`` finds the
vectors the importing database lacks.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace

from sodamem.dump.records import Dump, DumpEntity, DumpFact, DumpSession, FactRef, NodeRef, PieceRef
from sodamem.errors import InputError, SessionConflictError
from sodamem.ingest.pipeline import session_content_hash
from sodamem.model import MessagePiece
from sodamem.records import ImportReport
from sodamem.store.connection import Connection
from sodamem.store.dump_read import read_dump
from sodamem.store.hashes import text_hash
from sodamem.store.turn_writes import insert_turns


def write_dump(conn: Connection, user: str, dump: Dump) -> ImportReport:
    """Store a (validated) dump under ``user``, all or nothing.

    A dump is restored into a user that holds nothing yet. Importing the same dump again changes nothing
    (``unchanged``); into a user holding anything else it is refused: ``SessionConflictError`` naming a dump
    session the user already has, else ``InputError``. (Merging two memories would re-decide entities and
    supersession, which is ingestion's job, not a restore's.)
    """
    report = ImportReport(user=user)
    if _holds_anything(conn, user):
        if read_dump(conn, user) == replace(dump, user=user):
            report.unchanged = True
            return report
        _refuse(conn, user, dump)
    pieces = _write_sessions(conn, user, dump.sessions, report)
    entities = _write_entities(conn, user, dump.entities)
    facts = _write_facts(conn, user, dump.facts, pieces, entities)
    for link in dump.links:
        src_kind, src = _node_pk(link.src, facts, pieces, entities)
        dst_kind, dst = _node_pk(link.dst, facts, pieces, entities)
        conn.execute(
            "INSERT INTO links (user, type, src_kind, src_id, dst_kind, dst_id, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (user, link.type, src_kind, src, dst_kind, dst, link.created_at),
        )
    conn.executemany(
        "INSERT INTO forgotten_facts (user, piece_pk, fact_key) VALUES (?, ?, ?)",
        [(user, pieces[mark.piece], mark.fact_key) for mark in dump.forgotten],
    )
    report.entities, report.facts, report.links = len(dump.entities), len(dump.facts), len(dump.links)
    return report


def _holds_anything(conn: Connection, user: str) -> bool:
    return any(
        conn.execute(f"SELECT EXISTS (SELECT 1 FROM {table} WHERE user = ?)", (user,)).fetchone()[0]
        for table in ("sessions", "entities", "facts")
    )


def _refuse(conn: Connection, user: str, dump: Dump) -> None:
    stored = {str(r[0]) for r in conn.execute("SELECT session_id FROM sessions WHERE user = ?", (user,))}
    for session in dump.sessions:
        if session.session_id in stored:
            raise SessionConflictError(
                f"already stored for user {user!r}, whose memory differs from this dump; a dump is imported into "
                "an empty user (name another with user= / --user)",
                session=session.session_id,
            )
    raise InputError(
        f"user {user!r} already holds memory; a dump is imported into an empty user (name another with user= / --user)",
        field="user",
    )


def _write_sessions(
    conn: Connection, user: str, sessions: Sequence[DumpSession], report: ImportReport
) -> dict[PieceRef, int]:
    pieces: dict[PieceRef, int] = {}
    for session in sessions:
        ingested = session.to_session(user)
        session_pk = conn.execute(
            "INSERT INTO sessions (user, session_id, timestamp, source, content_hash, ingested_at, next_index)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                user,
                session.session_id,
                session.timestamp,
                session.source,
                session_content_hash(ingested),
                session.ingested_at,
                session.next_index,
            ),
        ).lastrowid
        assert session_pk is not None
        spans = [[MessagePiece(i, a, b, t.text[a:b]) for i, (a, b) in enumerate(t.pieces)] for t in session.turns]
        for (turn_index, piece_index), pk in insert_turns(
            conn, user, session_pk, ingested, ingested.turns, spans
        ).piece_pks.items():
            pieces[PieceRef(session.session_id, turn_index, piece_index)] = pk
        report.pieces += sum(len(t.pieces) for t in session.turns)
        report.sessions += 1
        report.turns += len(session.turns)
    return pieces


def _write_entities(conn: Connection, user: str, entities: Sequence[DumpEntity]) -> dict[str, int]:
    pks: dict[str, int] = {}
    for entity in entities:
        pk = conn.execute(
            "INSERT INTO entities (user, name, type, aliases, embed_hash) VALUES (?, ?, ?, ?, ?)",
            # json.dumps as store.facts writes the aliases column
            (user, entity.name, entity.type, json.dumps(list(entity.aliases)), text_hash(entity.name)),
        ).lastrowid
        assert pk is not None
        pks[entity.name] = pk
        conn.executemany(
            "INSERT INTO entity_aliases (user, key, entity_pk) VALUES (?, ?, ?)", [(user, k, pk) for k in entity.keys]
        )
    return pks


def _write_facts(
    conn: Connection,
    user: str,
    facts: Sequence[DumpFact],
    pieces: dict[PieceRef, int],
    entities: dict[str, int],
) -> dict[int, int]:
    sessions = {
        str(r[1]): int(r[0]) for r in conn.execute("SELECT id, session_id FROM sessions WHERE user = ?", (user,))
    }
    pks: dict[int, int] = {}
    for f in facts:
        pk = conn.execute(
            "INSERT INTO facts (user, kind, predicate, modality, status, text, mentioned_at, occurred_start,"
            " occurred_end, occurred_granularity, occurred_expression, valid_from, valid_to, session_pk, subject_pk,"
            " object, polarity, slot, order_key, embed_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
            " ?, ?, ?, ?)",
            (
                user,
                f.kind,
                f.predicate,
                f.modality,
                f.status,
                f.text,
                f.mentioned_at,
                f.occurred_start,
                f.occurred_end,
                f.occurred_granularity,
                f.occurred_expression,
                f.valid_from,
                f.valid_to,
                None if f.session_id is None else sessions[f.session_id],
                None if f.subject is None else entities[f.subject],
                f.object,
                int(f.polarity),
                f.slot,
                f.order_key,
                text_hash(f.text),  # as ingestion's fact rows do
            ),
        ).lastrowid
        assert pk is not None
        pks[f.number] = pk
        conn.executemany(
            "INSERT INTO fact_sources (fact_pk, piece_pk, char_start, char_end, quote) VALUES (?, ?, ?, ?, ?)",
            [(pk, pieces[s.piece], s.char_start, s.char_end, s.quote) for s in f.sources],
        )
        conn.executemany(
            "INSERT INTO fact_roles (fact_pk, entity_pk, role) VALUES (?, ?, ?)",
            [(pk, entities[name], role) for role, name in f.roles],
        )
    return pks


def _node_pk(
    ref: NodeRef, facts: dict[int, int], pieces: dict[PieceRef, int], entities: dict[str, int]
) -> tuple[str, int]:
    if isinstance(ref, FactRef):
        return "fact", facts[ref.number]
    if isinstance(ref, PieceRef):
        return "piece", pieces[ref]
    return "entity", entities[ref.name]
