"""Search hits -> evidence items (each turn, then the facts derived from it), ready for a token-budgeted pack."""

from __future__ import annotations

from collections.abc import Container, Sequence

from sodamem.records import SearchHit
from sodamem.retrieve.pack import EvidenceItem
from sodamem.store.protocol import EvidenceReads


def evidence_items(
    store: EvidenceReads, user: str, hits: Sequence[SearchHit], held: Container[int] | None = None
) -> list[EvidenceItem]:
    """``held``: for a memory seen at a past time (``Memory.at``), the ids of the facts that held then; one replaced
    only later is shown active, as it was."""
    items: list[EvidenceItem] = []
    for hit in hits:
        said_at = store.session_timestamp(user, hit.session_id)
        items.append(
            EvidenceItem(
                id=f"E{len(items) + 1}",
                kind="turn",
                session_id=hit.session_id,
                turn_index=hit.turn_index,
                turn_id=hit.turn_id,
                speaker=hit.speaker,
                session_timestamp=said_at,
                char_start=0,
                char_end=len(hit.turn_text),
                timestamp=hit.timestamp,
                text=hit.turn_text,
                score=hit.score,
                tunnels=hit.tunnels,
                caption=hit.caption,
            )
        )
        for fact in store.facts_of_turn(user, hit.session_id, hit.turn_index):
            items.append(
                EvidenceItem(
                    id=f"E{len(items) + 1}",
                    kind="fact",
                    session_id=hit.session_id,
                    turn_index=hit.turn_index,
                    turn_id=hit.turn_id,
                    speaker=hit.speaker,
                    session_timestamp=said_at,
                    char_start=fact.char_start,
                    char_end=fact.char_end,
                    timestamp=fact.mentioned_at,
                    text=fact.text,
                    score=hit.score,
                    status="active" if held is not None and fact.fact_id in held else fact.status,
                    resolved=(),
                    occurred_start=fact.occurred_start,
                    occurred_end=fact.occurred_end,
                )
            )
    return items
