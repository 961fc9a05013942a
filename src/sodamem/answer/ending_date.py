"""When a named partner's couple ended, where the ending named no one: "When did I break up with Tom?" after "My
boyfriend Tom ..." and "We broke up last night". The nameless ending is linked to the partner it ended
(``supersede.ends_any_partner``), so it is dated by its own time words, not by the turn that names Tom."""

from __future__ import annotations

import re
from dataclasses import dataclass

from sodamem.answer.dates import human_day, human_span
from sodamem.answer.evidence_view import fact_citation
from sodamem.answer.predicate_facts import couple_endings, ended_by
from sodamem.answer.said_as import said_as
from sodamem.answer.when_reader import UNDATED_DETAIL, Dated, said_detail
from sodamem.ingest.entities import entity_key
from sodamem.ingest.extract.rules_vocabulary import NAME
from sodamem.memory import Memory
from sodamem.model import FactKind
from sodamem.retrieve.pack import ResolvedTime
from sodamem.roles import PARTNER_PREDICATES

_ENDED = r"(?:break|broke|split|splitted)\s+up|separate|get\s+divorced|divorce|call\s+it\s+quits|end\s+things"
# "When did I break up with Tom?", "When did Tom and I split up?", "How long ago did I divorce Tom?"
_ASKED = re.compile(
    rf"^\s*(?i:when|how\s+long\s+ago)\s+(?i:did)\s+(?:(?i:I|we)\s+(?i:{_ENDED})(?:\s+(?i:with|from))?\s+(?P<name>{NAME})"
    rf"|(?P<pair>{NAME})\s+(?i:and)\s+I\s+(?i:{_ENDED}))\s*\??\s*$"
)


@dataclass(frozen=True, slots=True)
class EndingAsked:
    """A break-up asked of a partner the memory holds: its date, or None where no ending was said at all ("Sam and I
    started dating", and no break-up since: no date to give)."""

    dated: Dated | None


def ending_dated(memory: Memory, user: str, question: str) -> EndingAsked | None:
    """The latest nameless ending of the partner the question names, dated and cited; None where the question asks
    no such thing, names no partner, or the partner was ended by name (the when-reader dates "Tom and I broke up")."""
    m = _ASKED.match(question)
    if m is None:
        return None
    key = entity_key(m["name"] or m["pair"])
    facts = memory.facts(status="all", user=user)
    endings = couple_endings(facts)
    partner = [
        f
        for f in facts
        if f.kind == FactKind.RELATION and f.predicate in PARTNER_PREDICATES and entity_key(f.object or "") == key
    ]
    held = [f for f in partner if f.affirms]
    ended = [e for f in held for e in ended_by(f, endings)]
    ending = max(ended, key=lambda f: f.holds_from, default=None)
    if ending is None:
        return EndingAsked(None) if held and not any(f.denies for f in partner) else None
    if not ending.sources:
        return None
    citations = [fact_citation(ending, s) for s in ending.sources[:1]]
    if ending.occurred_start is None:
        detail = f"{UNDATED_DETAIL}, in session {ending.sources[0].session_id}"
        return EndingAsked(Dated(human_day(ending.mentioned_at), ending.mentioned_at, citations, detail))
    expression = ending.occurred_expression
    end = ending.occurred_end or ending.occurred_start
    time = ResolvedTime(expression, ending.occurred_start, end) if expression else None
    when = said_as(human_span(ending.occurred_start, ending.occurred_end), time, ending.mentioned_at)
    return EndingAsked(Dated(when, ending.occurred_start, citations, said_detail(expression, ending.mentioned_at)))
