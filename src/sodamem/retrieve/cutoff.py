"""What a memory held at a past time (``Memory.at``): which hits and facts had been said by then, and facts as
they stood then (replaced only later: active). Pure, but for the reads of ``turns_said_by`` and
``context_said_by``.

Times are compared as instants where both carry an offset, else as wall-clock times (a naive time is the dialogue's
local time, as everywhere in SodaMem).
"""

from __future__ import annotations

from collections.abc import Container, Iterable
from dataclasses import replace
from datetime import datetime

from sodamem import instants
from sodamem.records import FactRecord, SearchHit
from sodamem.store.write_protocol import Store

_REPLACING = frozenset({"SUPERSEDES", "UPDATES", "CONTRADICTS"})


def said_by(timestamp: str | None, cutoff: datetime) -> bool:
    """Whether something said at ``timestamp`` (ISO 8601) had been said at ``cutoff``; an unknown time had not."""
    return instants.at_or_before(timestamp or "", cutoff)


def within_turns(ranking: list[tuple[int, float]], within: Container[int] | None) -> list[tuple[int, float]]:
    """A tunnel's ``(turn_pk, score)`` ranking cut to the turns ``within`` (None: every turn, the ranking itself)."""
    return ranking if within is None else [(pk, score) for pk, score in ranking if pk in within]


def hits_said_by(hits: Iterable[SearchHit], cutoff: datetime) -> list[SearchHit]:
    return [h for h in hits if said_by(h.timestamp, cutoff)]


def facts_said_by(facts: Iterable[FactRecord], cutoff: datetime) -> list[FactRecord]:
    return [f for f in facts if said_by(f.mentioned_at, cutoff)]


def fact_seen_at(fact: FactRecord, known: Container[int]) -> FactRecord:
    """``fact`` as the memory held it when only the facts ``known`` had been said: one replaced by a fact said later
    is active again, with no end, and links only to facts known then."""
    links = tuple(link for link in fact.links if link.fact_id in known)
    # Any of a slot's links from a newer fact replaces it: a new value, the same value again, or its negation.
    replacers = [link.fact_id for link in fact.links if link.type in _REPLACING and link.direction == "in"]
    replaced_later = fact.status == "superseded" and bool(replacers) and not any(r in known for r in replacers)
    if replaced_later:
        return replace(fact, status="active", valid_to=None, links=links)
    return fact if links == fact.links else replace(fact, links=links)


def facts_seen_at(every: Iterable[FactRecord], cutoff: datetime, facts: list[FactRecord]) -> list[FactRecord]:
    """``facts`` as the memory held them at ``cutoff``: those said by then, each with its status and links of then
    (``every``: all the user's facts, of which those said by then were known)."""
    known = {f.id for f in facts_said_by(every, cutoff)}
    return [fact_seen_at(f, known) for f in facts if f.id in known]


def context_said_by(store: Store, owner: str, hits: list[SearchHit], cutoff: datetime) -> list[SearchHit]:
    """``hits`` with only the neighbouring turns said by ``cutoff`` as their context."""
    said: dict[str, set[int]] = {}
    for session_id in {h.session_id for h in hits if h.context}:
        row = store.session_row(owner, session_id)
        turns = store.session_turns(owner, row.session_pk, 0, 1 << 62) if row is not None else []
        said[session_id] = {t.index for t in turns if said_by(t.timestamp, cutoff)}
    return [
        replace(h, context=tuple(c for c in h.context if c.turn_index in said[h.session_id])) if h.context else h
        for h in hits
    ]


def turns_said_by(store: Store, owner: str, cutoff: datetime) -> set[int]:
    """The row ids of the user's turns said by ``cutoff``: the only ones a search of a view may rank."""
    said: set[int] = set()
    for summary in store.session_summaries(owner):
        row = store.session_row(owner, summary.session_id) if said_by(summary.timestamp, cutoff) else None
        if row is not None:
            turns = store.session_turns(owner, row.session_pk, 0, 1 << 62)
            said.update(t.turn_pk for t in turns if said_by(t.timestamp, cutoff))
    return said
