"""Who held a role at another time, pure over relation facts: "Who was my boss before Omar?" (the one whose holding
began last before Omar's did), "Who was my manager after Finn?", "Who was I dating in March?" (those whose holding
overlaps March). Only roles one has one of at a time (a boss, a therapist, a landlord: ``relatives.ONE_AT_A_TIME``)
and partners: one has sisters and friends at once. A holding runs from the fact's ``valid_from`` to its ``valid_to``
(where a later fact of its slot ended it) or, for a role one has one of, to the next holder's start.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from sodamem import instants
from sodamem.answer.relatives import ONE_AT_A_TIME, begins, kin_words
from sodamem.ingest.entities import entity_key
from sodamem.ingest.extract.rules_vocabulary import NAME, REL, REL_MOD, snake
from sodamem.ingest.supersede import PARTNER_PREDICATES
from sodamem.ingest.timeparse import find_times
from sodamem.records import FactRecord

# "Who was my boss before Omar?", "Who was my therapist in 2023?", "Who was I dating last summer?"
_ASKED = re.compile(
    rf"^\s*(?i:who)\s+(?i:was|were)\s+(?:(?P<my>[Mm]y|[Oo]ur)\s+{REL_MOD}(?P<rel>{REL})|(?P<dating>I\s+(?i:dating|seeing"
    r"|going\s+out\s+with)))\s+(?P<side>(?i:before|after|prior\s+to))?\s*(?P<what>.+?)\s*\??\s*$"
)
# a holding said a little after the time asked most likely held then already ("my boss Finn is strict", said in
# January, answers "Who was my boss last December?"); said long after, it says nothing of then
_SAID_SOON_AFTER = timedelta(days=62)


@dataclass(frozen=True, slots=True)
class RoleAt:
    names: list[str]  # those who held it, in the order their holdings began (none: no one known to then)
    cited: list[FactRecord]  # the facts saying so (and the anchor's, for "before Omar")


def role_at(question: str, facts: Iterable[FactRecord], now: datetime) -> RoleAt | None:
    """The holders of the role the question asks of (by any of its words: a manager is the boss; the asker's
    partners for "Who was I dating ...?") at the time it names, or before or after the holder it names; no one
    where none known held it then; None where it asks no such thing or the role is none one has one of."""
    m = _ASKED.match(question)
    if m is None:
        return None
    relation = (m["rel"] or "").lower()
    if m["dating"] or relation in PARTNER_PREDICATES:
        wanted, one_at_a_time = PARTNER_PREDICATES, False
    elif snake(relation) in ONE_AT_A_TIME:
        wanted, one_at_a_time = frozenset(snake(w) for w in kin_words(relation)), True
    else:
        return None  # "Who was my sister before Bea?": sisters are had at once
    held = sorted(
        (f for f in facts if f.kind == "relation" and f.predicate in wanted and f.affirms and f.object and f.sources),
        key=begins,
    )
    if not held:
        return None
    if m["side"]:
        return _beside(held, m["what"], m["side"].lower())
    times = [t for t in find_times(m["what"], now) if t.char_start <= 8 and t.char_end >= len(m["what"]) - 1]
    if not times:
        return None
    start = instants.sort_key(times[0].spec.start.isoformat())
    end = instants.sort_key(times[0].spec.end.isoformat())
    spans = _spans(held, one_at_a_time)
    during = [f for f, (began, over) in zip(held, spans, strict=True) if began < end and (over is None or over > start)]
    if not during and begins(held[0]) >= end:
        first = [f for f in held if begins(f) == begins(held[0])]
        return _holders(first, []) if begins(held[0]) - end <= _SAID_SOON_AFTER else RoleAt([], [])
    return _holders(during, [])


def _spans(held: list[FactRecord], one_at_a_time: bool) -> list[tuple[datetime, datetime | None]]:
    """Each holding's start and end (None: holds still); a role one has one of ends at the next holder's start."""
    spans = []
    for n, fact in enumerate(held):
        ended = instants.sort_key(fact.valid_to) if fact.valid_to else None
        key = entity_key(fact.object or "")
        after = [begins(f) for f in held[n + 1 :] if entity_key(f.object or "") != key and begins(f) > begins(fact)]
        if one_at_a_time and after and (ended is None or after[0] < ended):
            ended = after[0]
        spans.append((begins(fact), ended))
    return spans


def _beside(held: list[FactRecord], what: str, side: str) -> RoleAt | None:
    """The holding that began last before (first after) the named one's first began; no one where none did; None
    where no one is named ("before I moved": another reader's) or the one named is no holder read."""
    if re.fullmatch(NAME, what) is None:
        return None
    key = entity_key(what)
    anchors = [f for f in held if entity_key(f.object or "") == key]
    if not anchors:
        return None  # not a holder the rules read ("handed over to a new trainer, Bex"): the sentences may say
    anchor = anchors[0]
    others = [f for f in held if entity_key(f.object or "") != key]
    if side == "after":
        later = [f for f in others if begins(f) > begins(anchor)]
        return _holders(later[:1], [anchor])
    earlier = [f for f in others if begins(f) < begins(anchor)]
    return _holders(earlier[-1:], [anchor])


def _holders(facts: list[FactRecord], anchors: list[FactRecord]) -> RoleAt:
    names = list(dict.fromkeys(f.object for f in facts if f.object))
    return RoleAt(names, [*facts, *anchors] if names else [])
