"""Search hits -> evidence items (each turn, then the facts derived from it), ready for a token-budgeted pack."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from sodamem.records import SearchHit
from sodamem.retrieve.pack import EvidenceItem


def evidence_items(conn: sqlite3.Connection, user: str, hits: Sequence[SearchHit]) -> list[EvidenceItem]:
    items: list[EvidenceItem] = []
    for hit in hits:
        session_time = conn.execute(
            "SELECT timestamp FROM sessions WHERE user = ? AND session_id = ?", (user, hit.session_id)
        ).fetchone()
        session_timestamp = str(session_time[0]) if session_time else None
        items.append(
            EvidenceItem(
                id=f"E{len(items) + 1}",
                kind="turn",
                session_id=hit.session_id,
                turn_index=hit.turn_index,
                turn_id=hit.turn_id,
                speaker=hit.speaker,
                session_timestamp=session_timestamp,
                char_start=0,
                char_end=len(hit.turn_text),
                timestamp=hit.timestamp,
                text=hit.turn_text,
                score=hit.score,
                tunnels=hit.tunnels,
            )
        )
        for fact in conn.execute(
            "SELECT DISTINCT f.id, f.text, f.status, f.mentioned_at, f.occurred_start, f.occurred_end,"
            " min(fs.char_start), max(fs.char_end) FROM facts f JOIN fact_sources fs ON fs.fact_pk = f.id"
            " JOIN pieces p ON p.id = fs.piece_pk JOIN turns t ON t.id = p.turn_pk"
            " JOIN sessions s ON s.id = t.session_pk"
            " WHERE f.user = ? AND s.session_id = ? AND t.idx = ? AND f.status != 'invalid'"
            " GROUP BY f.id ORDER BY f.id",
            (user, hit.session_id, hit.turn_index),
        ):
            items.append(
                EvidenceItem(
                    id=f"E{len(items) + 1}",
                    kind="fact",
                    session_id=hit.session_id,
                    turn_index=hit.turn_index,
                    turn_id=hit.turn_id,
                    speaker=hit.speaker,
                    session_timestamp=session_timestamp,
                    char_start=int(fact[6]),
                    char_end=int(fact[7]),
                    timestamp=str(fact[3]),
                    text=str(fact[1]),
                    score=hit.score,
                    status=str(fact[2]),
                    resolved=(),
                    occurred_start=fact[4],
                    occurred_end=fact[5],
                )
            )
    return items
