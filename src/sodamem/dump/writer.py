"""Writing a ``Dump`` as JSON lines.

Canonical: fixed key order, compact separators, non-ASCII text as is, ``\\n`` after every line. So a dump that
was imported exports to the same bytes, and two dumps of the same memory compare with ``diff``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from sodamem.dump.records import (
    DUMP_FORMAT,
    DUMP_VERSION,
    Dump,
    DumpFact,
    DumpSession,
    FactRef,
    NodeRef,
    PieceRef,
)


def dump_lines(dump: Dump) -> Iterator[str]:
    """The header line, one line per session, entity, fact, link and forgotten fact, and the closing ``end``
    line."""
    yield _line({"format": DUMP_FORMAT, "version": DUMP_VERSION, "user": dump.user})
    for session in dump.sessions:
        yield _line(_session(session))
    for entity in dump.entities:
        yield _line(
            {
                "record": "entity",
                "name": entity.name,
                "type": entity.type,
                "aliases": list(entity.aliases),
                "keys": list(entity.keys),
            }
        )
    for fact in dump.facts:
        yield _line(_fact(fact))
    for link in dump.links:
        yield _line(
            {
                "record": "link",
                "type": link.type,
                "src": _ref(link.src),
                "dst": _ref(link.dst),
                "created_at": link.created_at,
            }
        )
    for mark in dump.forgotten:
        yield _line({"record": "forgotten", "piece": _piece(mark.piece), "fact_key": mark.fact_key})
    # The counts let a reader tell a complete dump from one cut off at a line boundary.
    counts = {
        "sessions": len(dump.sessions),
        "entities": len(dump.entities),
        "facts": len(dump.facts),
        "links": len(dump.links),
    }
    if dump.forgotten:  # only then: a memory that forgot no fact by id dumps as it always did
        counts["forgotten"] = len(dump.forgotten)
    yield _line({"record": "end", **counts})


def _line(payload: dict[str, Any]) -> str:
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":")) + "\n"


def _session(session: DumpSession) -> dict[str, Any]:
    turns = [
        {
            "index": t.index,
            "turn_id": t.turn_id,
            "speaker": t.speaker,
            "text": t.text,
            "caption": t.caption,
            "timestamp": t.timestamp,
            "pieces": [list(span) for span in t.pieces],
        }
        for t in session.turns
    ]
    return {
        "record": "session",
        "session_id": session.session_id,
        "timestamp": session.timestamp,
        "source": session.source,
        "ingested_at": session.ingested_at,
        "next_index": session.next_index,
        "turns": turns,
    }


def _fact(fact: DumpFact) -> dict[str, Any]:
    return {
        "record": "fact",
        "id": fact.number,
        "session_id": fact.session_id,
        "kind": fact.kind,
        "predicate": fact.predicate,
        "modality": fact.modality,
        "status": fact.status,
        "subject": fact.subject,
        "object": fact.object,
        "polarity": fact.polarity,
        "text": fact.text,
        "mentioned_at": fact.mentioned_at,
        "occurred_start": fact.occurred_start,
        "occurred_end": fact.occurred_end,
        "occurred_granularity": fact.occurred_granularity,
        "occurred_expression": fact.occurred_expression,
        "valid_from": fact.valid_from,
        "valid_to": fact.valid_to,
        "slot": fact.slot,
        "order_key": fact.order_key,
        "sources": [
            {"piece": _piece(s.piece), "char_start": s.char_start, "char_end": s.char_end, "quote": s.quote}
            for s in fact.sources
        ],
        "roles": [list(role) for role in fact.roles],
    }


def _piece(ref: PieceRef) -> list[Any]:
    return [ref.session_id, ref.turn, ref.piece]


def _ref(ref: NodeRef) -> dict[str, Any]:
    if isinstance(ref, FactRef):
        return {"fact": ref.number}
    if isinstance(ref, PieceRef):
        return {"piece": _piece(ref)}
    return {"entity": ref.name}
