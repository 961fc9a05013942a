"""Facts made message by message against facts made from the finished sessions: the same, ids aside.

A fact is compared by everything it says (kind, predicate, subject, object, modality, polarity, roles, text, times,
status, validity, its sources with their quotes) and by its links, each named by the signature of the fact at its
other end instead of an id.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from sodamem.memory import Memory
from sodamem.model import Message, Session
from sodamem.records import FactRecord

Signature = tuple[object, ...]


def fact_signature(fact: FactRecord) -> Signature:
    sources = tuple(sorted((s.session_id, s.turn_index, s.char_start, s.char_end, s.quote) for s in fact.sources))
    return (
        fact.kind, fact.predicate, fact.subject, fact.object, fact.modality, fact.polarity, tuple(sorted(fact.roles)),
        fact.text, fact.mentioned_at, fact.occurred_start, fact.occurred_end, fact.occurred_granularity,
        fact.occurred_expression, fact.valid_from, fact.valid_to, fact.status, sources,
    )  # fmt: skip


def facts_with_links(memory: Memory, user: str | None = None) -> Counter[Signature]:
    """Every fact of the user as its signature plus its links to other facts' signatures (a multiset)."""
    facts = memory.facts(status="all", user=user)
    by_id = {f.id: fact_signature(f) for f in facts}
    out: Counter[Signature] = Counter()
    for fact in facts:
        links = tuple(sorted((link.type, link.direction, by_id.get(link.fact_id, ())) for link in fact.links))
        out[(*by_id[fact.id], links)] += 1
    return out


@dataclass(frozen=True, slots=True)
class Comparison:
    facts_whole: int
    facts_incremental: int
    only_whole: int  # facts (with their links) that message-by-message adds did not make
    only_incremental: int

    @property
    def differences(self) -> int:
        return self.only_whole + self.only_incremental


def compare(whole: Memory, incremental: Memory) -> Comparison:
    a, b = facts_with_links(whole), facts_with_links(incremental)
    return Comparison(sum(a.values()), sum(b.values()), sum((a - b).values()), sum((b - a).values()))


def replay_messages(memory: Memory, sessions: Sequence[Session], *, per_add: int = 1) -> list[float]:
    """Add every session's turns ``per_add`` at a time, dated like the session; return each add's seconds."""
    import time

    seconds: list[float] = []
    for session in sessions:
        turns = session.turns
        for start in range(0, len(turns), per_add):
            batch = [
                Message(t.speaker, t.text, id=t.turn_id, timestamp=t.timestamp, caption=t.caption)
                for t in turns[start : start + per_add]
            ]
            began = time.perf_counter()
            memory.add(batch, session_id=session.session_id, timestamp=session.timestamp)
            seconds.append(time.perf_counter() - began)
    return seconds
