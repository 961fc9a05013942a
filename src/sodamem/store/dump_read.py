"""Export from SQLite: everything one user holds as a ``Dump`` (domain terms, no row ids), in one snapshot.

The order is deterministic: sessions by (time, id), then entities, facts and links in the order they were stored
(an import writes them in that order, so it exports to the same bytes).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

from sodamem.dump.records import (
    Dump,
    DumpEntity,
    DumpFact,
    DumpForgotten,
    DumpLink,
    DumpSession,
    DumpSource,
    DumpTurn,
    EntityRef,
    FactRef,
    NodeRef,
    PieceRef,
)
from sodamem.errors import SodaMemError
from sodamem.ingest.pipeline import session_content_hash
from sodamem.store.connection import Connection

_StoredTurn = tuple[Any, tuple[tuple[int, int], ...]]  # a turn row and its pieces' spans
_NodeIds = tuple[dict[int, int], dict[int, PieceRef], dict[int, str]]  # fact number, piece ref, entity name by pk


def read_dump(conn: Connection, user: str) -> Dump:
    """Everything ``user`` holds, read in one snapshot."""
    with _snapshot(conn):
        sessions, pieces = _read_sessions(conn, user)
        entities, names = _read_entities(conn, user)
        facts, numbers = _read_facts(conn, user, pieces, names)
        links = _read_links(conn, user, (numbers, pieces, names))
        forgotten = _read_forgotten(conn, user, pieces)
    return Dump(user=user, sessions=sessions, entities=entities, facts=facts, links=links, forgotten=forgotten)


@contextmanager
def _snapshot(conn: Connection) -> Iterator[None]:
    """One read transaction (so a concurrent writer cannot show half its work), unless one is already open."""
    if conn.in_transaction:
        yield
        return
    conn.execute("BEGIN")
    try:
        yield
    finally:
        conn.execute("COMMIT")


def _read_sessions(conn: Connection, user: str) -> tuple[tuple[DumpSession, ...], dict[int, PieceRef]]:
    pieces_by_turn: dict[int, list[Any]] = {}
    for piece in conn.execute(
        "SELECT p.id, p.turn_pk, p.idx, p.char_start, p.char_end, p.text FROM pieces p JOIN turns t ON t.id = p.turn_pk"
        " JOIN sessions s ON s.id = t.session_pk WHERE s.user = ? ORDER BY p.turn_pk, p.idx",
        (user,),
    ):
        pieces_by_turn.setdefault(int(piece["turn_pk"]), []).append(piece)
    turns_by_session: dict[int, list[Any]] = {}
    for turn in conn.execute(
        "SELECT t.id, t.session_pk, t.idx, t.turn_id, t.speaker, t.text, t.caption, t.timestamp FROM turns t"
        " JOIN sessions s ON s.id = t.session_pk WHERE s.user = ? ORDER BY t.session_pk, t.idx",
        (user,),
    ):
        turns_by_session.setdefault(int(turn["session_pk"]), []).append(turn)
    sessions: list[DumpSession] = []
    refs: dict[int, PieceRef] = {}
    for row in conn.execute(
        "SELECT id, session_id, timestamp, source, content_hash, ingested_at, next_index FROM sessions WHERE user = ?"
        " ORDER BY timestamp, session_id",
        (user,),
    ):
        session_id = str(row["session_id"])
        turns: list[_StoredTurn] = []
        for turn in turns_by_session.get(int(row["id"]), []):
            pieces = pieces_by_turn.get(int(turn["id"]), [])
            spans = tuple((int(p["char_start"]), int(p["char_end"])) for p in pieces)
            # The dump names pieces by position and keeps only their spans: refuse what that would lose.
            if any(
                p["idx"] != i or turn["text"][start:end] != p["text"]
                for i, (p, (start, end)) in enumerate(zip(pieces, spans, strict=True))
            ):
                raise SodaMemError(f"cannot export session {session_id!r}: turn {turn['idx']} is inconsistent")
            refs.update((int(p["id"]), PieceRef(session_id, int(turn["idx"]), i)) for i, p in enumerate(pieces))
            turns.append((turn, spans))
        base = DumpSession(
            session_id, str(row["timestamp"]), str(row["source"]), str(row["ingested_at"]), (), int(row["next_index"])
        )
        sessions.append(_with_turn_times(base, turns, user, str(row["content_hash"])))
    return tuple(sessions), refs


def _with_turn_times(session: DumpSession, turns: Sequence[_StoredTurn], user: str, content_hash: str) -> DumpSession:
    """The session with each turn's own time, or None where it had none and took the session's.

    The store keeps only the effective time, but the content hash saw the difference: the reading that hashes to
    the stored hash wins. Ingested turns without times (and those added live at the session's time) have None;
    a file that timed every turn has all times.
    """

    def build(own_time: Sequence[str | None]) -> DumpSession:
        dumped = tuple(
            DumpTurn(
                index=int(t["idx"]),
                turn_id=str(t["turn_id"]),
                speaker=str(t["speaker"]),
                text=str(t["text"]),
                caption=t["caption"],
                timestamp=when,
                pieces=spans,
            )
            for (t, spans), when in zip(turns, own_time, strict=True)
        )
        return replace(session, turns=dumped)

    stored = [str(t["timestamp"]) for t, _ in turns]
    inherited = build([None if when == session.timestamp else when for when in stored])
    if session_content_hash(inherited.to_session(user)) == content_hash:
        return inherited
    explicit = build(stored)
    return explicit if session_content_hash(explicit.to_session(user)) == content_hash else inherited


def _read_entities(conn: Connection, user: str) -> tuple[tuple[DumpEntity, ...], dict[int, str]]:
    keys: dict[int, list[str]] = {}
    for key, pk in conn.execute("SELECT key, entity_pk FROM entity_aliases WHERE user = ? ORDER BY key", (user,)):
        keys.setdefault(int(pk), []).append(str(key))
    entities: list[DumpEntity] = []
    names: dict[int, str] = {}
    for row in conn.execute("SELECT id, name, type, aliases FROM entities WHERE user = ? ORDER BY id", (user,)):
        names[int(row["id"])] = str(row["name"])
        aliases = tuple(str(a) for a in json.loads(row["aliases"]))
        entities.append(DumpEntity(str(row["name"]), str(row["type"]), aliases, tuple(keys.get(int(row["id"]), []))))
    return tuple(entities), names


def _read_facts(
    conn: Connection, user: str, pieces: dict[int, PieceRef], names: dict[int, str]
) -> tuple[tuple[DumpFact, ...], dict[int, int]]:
    sources: dict[int, list[DumpSource]] = {}
    for s in conn.execute(
        "SELECT fs.fact_pk, fs.piece_pk, fs.char_start, fs.char_end, fs.quote FROM fact_sources fs"
        " JOIN facts f ON f.id = fs.fact_pk WHERE f.user = ? ORDER BY fs.rowid",
        (user,),
    ):
        ref = pieces[int(s["piece_pk"])]
        sources.setdefault(int(s["fact_pk"]), []).append(
            DumpSource(ref, int(s["char_start"]), int(s["char_end"]), str(s["quote"]))
        )
    roles: dict[int, list[tuple[str, str]]] = {}
    for r in conn.execute(
        "SELECT fr.fact_pk, fr.role, fr.entity_pk FROM fact_roles fr JOIN facts f ON f.id = fr.fact_pk"
        " WHERE f.user = ? ORDER BY fr.rowid",
        (user,),
    ):
        roles.setdefault(int(r["fact_pk"]), []).append((str(r["role"]), names[int(r["entity_pk"])]))
    facts: list[DumpFact] = []
    numbers: dict[int, int] = {}
    for row in conn.execute(
        "SELECT f.*, s.session_id AS session_name FROM facts f LEFT JOIN sessions s ON s.id = f.session_pk"
        " WHERE f.user = ? ORDER BY f.id",
        (user,),
    ):
        pk = int(row["id"])
        numbers[pk] = len(facts) + 1
        subject = row["subject_pk"]
        facts.append(
            DumpFact(
                number=numbers[pk],
                session_id=row["session_name"],
                kind=str(row["kind"]),
                predicate=str(row["predicate"]),
                modality=str(row["modality"]),
                status=str(row["status"]),
                subject=None if subject is None else names[int(subject)],
                object=row["object"],
                polarity=bool(row["polarity"]),
                text=str(row["text"]),
                mentioned_at=str(row["mentioned_at"]),
                occurred_start=row["occurred_start"],
                occurred_end=row["occurred_end"],
                occurred_granularity=row["occurred_granularity"],
                occurred_expression=row["occurred_expression"],
                valid_from=row["valid_from"],
                valid_to=row["valid_to"],
                slot=row["slot"],
                order_key=str(row["order_key"]),
                sources=tuple(sources.get(pk, [])),
                roles=tuple(roles.get(pk, [])),
            )
        )
    return tuple(facts), numbers


def _read_links(conn: Connection, user: str, nodes: _NodeIds) -> tuple[DumpLink, ...]:
    """The user's links; one whose endpoint no longer exists (links hold no foreign keys) refers to nothing and
    is left out."""
    links: list[DumpLink] = []
    for row in conn.execute(
        "SELECT type, src_kind, src_id, dst_kind, dst_id, created_at FROM links WHERE user = ? ORDER BY id", (user,)
    ):
        src = _node_ref(str(row["src_kind"]), int(row["src_id"]), nodes)
        dst = _node_ref(str(row["dst_kind"]), int(row["dst_id"]), nodes)
        if src is not None and dst is not None:
            links.append(DumpLink(str(row["type"]), src, dst, row["created_at"]))
    return tuple(links)


def _read_forgotten(conn: Connection, user: str, pieces: dict[int, PieceRef]) -> tuple[DumpForgotten, ...]:
    rows = conn.execute("SELECT piece_pk, fact_key FROM forgotten_facts WHERE user = ?", (user,)).fetchall()
    marks = [DumpForgotten(pieces[int(r[0])], str(r[1])) for r in rows if int(r[0]) in pieces]
    return tuple(sorted(marks, key=lambda m: (m.piece.session_id, m.piece.turn, m.piece.piece, m.fact_key)))


def _node_ref(kind: str, pk: int, nodes: _NodeIds) -> NodeRef | None:
    numbers, pieces, names = nodes
    if kind == "fact":
        return FactRef(numbers[pk]) if pk in numbers else None
    if kind == "piece":
        return pieces.get(pk)
    return EntityRef(names[pk]) if pk in names else None
