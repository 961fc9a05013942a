"""What a memory held at a past time (``Memory.at``): which hits and facts had been said by then (pure).

Times are compared as instants where both carry an offset, else as wall-clock times (a naive time is the dialogue's
local time, as everywhere in SodaMem).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from sodamem.records import FactRecord, SearchHit


def said_by(timestamp: str | None, cutoff: datetime) -> bool:
    """Whether something said at ``timestamp`` (ISO 8601) had been said at ``cutoff``; an unknown time had not."""
    if not timestamp:
        return False
    try:
        said = datetime.fromisoformat(timestamp)
    except ValueError:
        return False
    if (said.tzinfo is None) != (cutoff.tzinfo is None):
        return said.replace(tzinfo=None) <= cutoff.replace(tzinfo=None)
    return said <= cutoff


def hits_said_by(hits: Iterable[SearchHit], cutoff: datetime) -> list[SearchHit]:
    return [h for h in hits if said_by(h.timestamp, cutoff)]


def facts_said_by(facts: Iterable[FactRecord], cutoff: datetime) -> list[FactRecord]:
    return [f for f in facts if said_by(f.mentioned_at, cutoff)]
