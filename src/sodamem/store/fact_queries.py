"""Reading facts back: by status, as of a time, by subject, and a slot's history chain."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sodamem import instants
from sodamem.ingest.entities import entity_key
from sodamem.records import FactLink, FactRecord, FactSource
from sodamem.store.connection import Connection
from sodamem.store.rows import TurnFact

_COLUMNS = (
    "f.id, f.kind, f.predicate, f.modality, e.name AS subject, f.object, f.polarity, f.text, f.mentioned_at,"
    " f.occurred_start, f.occurred_end, f.occurred_granularity, f.occurred_expression, f.valid_from, f.valid_to,"
    " f.status, f.slot, f.order_key"
)


def query_facts(
    conn: Connection,
    user: str,
    *,
    status: str = "active",
    as_of: datetime | None = None,
    subject: str | None = None,
    limit: int | None = None,
) -> list[FactRecord]:
    """``status``: active, superseded, invalid or all. ``as_of``: facts holding at that time (any status)."""
    sql = f"SELECT {_COLUMNS} FROM facts f JOIN entities e ON e.id = f.subject_pk WHERE f.user = ?"
    params: list[object] = [user]
    if as_of is not None:  # narrowed by text, then compared as instants below (sodamem/instants.py)
        sql += " AND f.status != 'invalid' AND f.valid_from <= ? AND (f.valid_to IS NULL OR f.valid_to > ?)"
        sql += " AND f.modality IN ('asserted', 'negated')"
        params += [instants.text_bound(as_of, instants.TEXT_SLACK), instants.text_bound(as_of, -instants.TEXT_SLACK)]
    elif status != "all":
        sql += " AND f.status = ?"
        params.append(status)
    if subject is not None:
        sql += " AND f.subject_pk = (SELECT entity_pk FROM entity_aliases WHERE user = ? AND key = ?)"
        params += [user, entity_key(subject)]
    sql += " ORDER BY f.order_key"
    if as_of is not None:
        rows = [r for r in conn.execute(sql, params).fetchall() if _held_at(r["valid_from"], r["valid_to"], as_of)]
        return _records(conn, rows[:limit] if limit is not None else rows)
    if limit is not None:
        sql += " LIMIT ?"
        params.append(limit)
    return _records(conn, conn.execute(sql, params).fetchall())


def _held_at(valid_from: str, valid_to: str | None, when: datetime) -> bool:
    return instants.at_or_before(valid_from, when) and (valid_to is None or not instants.at_or_before(valid_to, when))


def fact_by_id(conn: Connection, user: str, fact_id: int) -> FactRecord | None:
    rows = conn.execute(
        f"SELECT {_COLUMNS} FROM facts f JOIN entities e ON e.id = f.subject_pk WHERE f.user = ? AND f.id = ?",
        (user, fact_id),
    ).fetchall()
    records = _records(conn, rows)
    return records[0] if records else None


def slot_history(conn: Connection, user: str, fact_id: int) -> list[FactRecord]:
    """Every fact of the given fact's slot, oldest first (just the fact when it has no slot)."""
    row = conn.execute("SELECT slot FROM facts WHERE user = ? AND id = ?", (user, fact_id)).fetchone()
    if row is None:
        return []
    if row[0] is None:
        fact = fact_by_id(conn, user, fact_id)
        return [fact] if fact else []
    rows = conn.execute(
        f"SELECT {_COLUMNS} FROM facts f JOIN entities e ON e.id = f.subject_pk WHERE f.user = ? AND f.slot = ?"
        " ORDER BY f.order_key",
        (user, row[0]),
    ).fetchall()
    # oldest first by instant: the order key's time is text, which misorders times said with different offsets
    return sorted(_records(conn, rows), key=lambda f: instants.sort_key(f.valid_from or ""))


def _records(conn: Connection, rows: Sequence[Any]) -> list[FactRecord]:
    if not rows:
        return []
    ids = [int(r["id"]) for r in rows]
    marks = ",".join("?" * len(ids))
    sources: dict[int, list[FactSource]] = {}
    for s in conn.execute(
        "SELECT fs.fact_pk, ss.session_id, t.idx, t.turn_id, fs.char_start, fs.char_end, fs.quote, t.timestamp"
        " FROM fact_sources fs JOIN pieces p ON p.id = fs.piece_pk JOIN turns t ON t.id = p.turn_pk"
        f" JOIN sessions ss ON ss.id = t.session_pk WHERE fs.fact_pk IN ({marks}) ORDER BY fs.char_start",
        ids,
    ):
        sources.setdefault(int(s[0]), []).append(FactSource(s[1], int(s[2]), s[3], int(s[4]), int(s[5]), s[6], s[7]))
    roles: dict[int, list[tuple[str, str]]] = {}
    for r in conn.execute(
        f"SELECT fr.fact_pk, fr.role, e.name FROM fact_roles fr JOIN entities e ON e.id = fr.entity_pk"
        f" WHERE fr.fact_pk IN ({marks}) ORDER BY fr.role, e.name",
        ids,
    ):
        roles.setdefault(int(r[0]), []).append((str(r[1]), str(r[2])))
    links: dict[int, list[FactLink]] = {}
    for link in conn.execute(
        "SELECT type, src_id, dst_id FROM links WHERE src_kind = 'fact' AND dst_kind = 'fact'"
        f" AND (src_id IN ({marks}) OR dst_id IN ({marks})) ORDER BY id",
        ids + ids,
    ):
        kind, src, dst = str(link[0]), int(link[1]), int(link[2])
        links.setdefault(src, []).append(FactLink(kind, "out", dst))
        links.setdefault(dst, []).append(FactLink(kind, "in", src))
    return [
        FactRecord(
            id=int(r["id"]),
            kind=r["kind"],
            predicate=r["predicate"],
            modality=r["modality"],
            subject=r["subject"],
            object=r["object"],
            polarity=bool(r["polarity"]),
            roles=tuple(roles.get(int(r["id"]), [])),
            text=r["text"],
            mentioned_at=r["mentioned_at"],
            occurred_start=r["occurred_start"],
            occurred_end=r["occurred_end"],
            occurred_granularity=r["occurred_granularity"],
            occurred_expression=r["occurred_expression"],
            valid_from=r["valid_from"],
            valid_to=r["valid_to"],
            status=r["status"],
            sources=tuple(sources.get(int(r["id"]), [])),
            links=tuple(links.get(int(r["id"]), [])),
        )
        for r in rows
    ]


def session_timestamp(conn: Connection, user: str, session_id: str) -> str | None:
    row = conn.execute(
        "SELECT timestamp FROM sessions WHERE user = ? AND session_id = ?", (user, session_id)
    ).fetchone()
    return None if row is None else str(row[0])


def facts_of_turn(conn: Connection, user: str, session_id: str, turn_index: int) -> list[TurnFact]:
    """The facts (not invalid) drawn from a turn, by id."""
    rows = conn.execute(
        "SELECT f.id, f.text, f.status, f.mentioned_at, f.occurred_start, f.occurred_end,"
        " min(fs.char_start), max(fs.char_end) FROM facts f JOIN fact_sources fs ON fs.fact_pk = f.id"
        " JOIN pieces p ON p.id = fs.piece_pk JOIN turns t ON t.id = p.turn_pk"
        " JOIN sessions s ON s.id = t.session_pk"
        " WHERE f.user = ? AND s.session_id = ? AND t.idx = ? AND f.status != 'invalid'"
        " GROUP BY f.id ORDER BY f.id",
        (user, session_id, turn_index),
    )
    return [TurnFact(int(r[0]), str(r[1]), str(r[2]), str(r[3]), r[4], r[5], int(r[6]), int(r[7])) for r in rows]


def users_with_facts(conn: Connection) -> list[str]:
    return [str(r[0]) for r in conn.execute("SELECT DISTINCT user FROM facts ORDER BY user").fetchall()]
