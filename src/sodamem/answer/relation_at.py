"""Who held a role at another time, pure over relation facts: "Who was my boss before Omar?" (the one whose holding
began last before Omar's did), "Who was my manager after Finn?", "Who was I dating in March?" (those whose holding
overlaps March). Only roles one has one holder of at a time (a boss, a therapist, a landlord:
``supersede.ONE_HOLDER_ROLES``) and partners: one has sisters and friends at once. A holding runs from the fact's
``valid_from`` to its ``valid_to`` (where a later fact of its slot ended it: a denial, or the role's next holder).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from sodamem import instants
from sodamem.ingest.entities import entity_key
from sodamem.ingest.extract.rules_vocabulary import NAME, REL, REL_MOD, snake
from sodamem.ingest.timeparse import find_times
from sodamem.records import FactRecord
from sodamem.roles import ONE_HOLDER_ROLES, PARTNER_PREDICATES, asked_words, role_done_by, role_of

# "Who was my boss before Omar?", "Who was my therapist in 2023?", "Who was I dating last summer?"
# "Who was I reporting to in January?", "To whom was I reporting back in January?": the boss
_ASKED = re.compile(
    r"^\s*(?:(?:(?i:who)\s+(?i:was|were)|(?i:to\s+whom)\s+(?i:was))\s+"
    rf"(?:(?:[Mm]y|[Oo]ur)\s+{REL_MOD}(?P<rel>{REL})|(?P<dating>I\s+(?i:dating|seeing|going\s+out\s+with))"
    r"|(?P<reporting>I\s+(?i:reporting(?:\s+to)?)))"
    r"|(?i:who)\s+(?P<did>(?i:trained|coached|managed|supervised|tutored|mentored))\s+me(?:\s+(?i:at|in)\s+the\s+\w+)?)"
    r"\s+(?:(?i:back)\s+)?(?P<side>(?i:before|after|prior\s+to))?\s*(?P<what>.+?)\s*\??\s*$"
)
# a holding said a little after the time asked most likely held then already ("my boss Finn is strict", said in
# January, answers "Who was my boss last December?"); said long after, it says nothing of then
_SAID_SOON_AFTER = timedelta(days=62)


@dataclass(frozen=True, slots=True)
class RoleAt:
    names: list[str]  # those who held it, in the order their holdings began (none: no one known to then)
    cited: list[FactRecord]  # the facts saying so (and the anchor's, for "before Omar")


def asks_role_at(question: str) -> bool:
    """ "Who was my boss before Omar?", "Who was I dating in March?"."""
    return _ASKED.match(question) is not None


def role_at(question: str, facts: Iterable[FactRecord], now: datetime) -> RoleAt | None:
    """The holders of the role the question asks of (by any of its words: a manager is the boss; the asker's
    partners for "Who was I dating ...?") at the time it names, or before or after the holder it names; no one
    where none known held it then; None where it asks no such thing or the role is none one has one of."""
    m = _ASKED.match(question)
    if m is None:
        return None
    # "Who trained me at the gym back in January?": the role the verb says
    did = role_done_by(m["did"]) if m["did"] else None
    relation = "boss" if m["reporting"] else did or (m["rel"] or "").lower()
    if m["dating"] or relation in PARTNER_PREDICATES:
        wanted = PARTNER_PREDICATES
    elif role_of(snake(relation)) in ONE_HOLDER_ROLES:
        wanted = frozenset(snake(w) for w in asked_words(relation))  # the asked word first
    else:
        return None  # "Who was my sister before Bea?": sisters are had at once
    facts = [f for f in facts if f.kind == "relation" and f.predicate in wanted and f.object and f.sources]
    held = sorted((f for f in facts if f.affirms), key=_holds_from)
    if not held:
        return None
    left = [f for f in facts if f.denies]  # "Omar replaced Finn as my boss": Finn held it before
    if m["side"]:
        return _beside(held, left, m["what"], m["side"].lower())
    times = [t for t in find_times(m["what"], now) if t.char_start <= 8 and t.char_end >= len(m["what"]) - 1]
    if not times:
        return None
    start = instants.sort_key(times[0].spec.start.isoformat())
    end = instants.sort_key(times[0].spec.end.isoformat())
    during = [f for f in held if f.holds_from < end and (f.valid_to is None or instants.sort_key(f.valid_to) > start)]
    first_said = held[0].holds_from
    if not during and first_said >= end:
        # before any holding said: one said soon after held then already, unless said as begun then; one said to
        # leave soon after held it until then
        soon = first_said - end <= _SAID_SOON_AFTER
        gone = sorted(
            (f for f in left if end <= f.holds_from <= first_said and f.holds_from - end <= _SAID_SOON_AFTER),
            key=_holds_from,
        )
        if gone:
            return _holders(gone[:1], [])
        first = [f for f in held if f.holds_from == first_said]
        said_new = any(_BEGUN_THEN.search(_said(f)) for f in first)
        return _holders(first, []) if soon and not said_new else RoleAt([], [])
    return _holders(during, [])


# a holding said as begun when said ("I have a new boss, Grace", "Omar replaced Finn as my boss"): none before
_BEGUN_THEN = re.compile(r"\b(?:new|replaced|took\s+over|taken\s+over)\b", re.IGNORECASE)


def _said(fact: FactRecord) -> str:
    return " ".join(source.quote for source in fact.sources)


def _named(what: str, holder: str) -> bool:
    """Whether ``what`` names ``holder``, whole or by a name of theirs ("Omar" for "Omar Haddad", "Khan" for "Dr.
    Omar Khan")."""
    said, full = entity_key(what), entity_key(holder)
    return said == full or f" {said} " in f" {full} "


def _beside(held: list[FactRecord], left: list[FactRecord], what: str, side: str) -> RoleAt | None:
    """The holding that began last before (first after) the named one's first began (or, before it, one said to
    end when it began: ``left``); no one where none did; None where no one is named ("before I moved": another
    reader's) or the one named is no holder read."""
    if re.fullmatch(NAME, what) is None:
        return None
    anchors = [f for f in held if _named(what, f.object or "")]
    if not anchors:
        return None  # not a holder the rules read ("handed over to a new trainer, Bex"): the sentences may say
    anchor = anchors[0]
    others = [f for f in held if not _named(what, f.object or "")]
    if side == "after":
        later = [f for f in others if f.holds_from > anchor.holds_from]
        return _holders(later[:1], [anchor])
    earlier = [f for f in others if f.holds_from < anchor.holds_from]
    if not earlier:
        earlier = [f for f in left if not _named(what, f.object or "") and f.holds_from <= anchor.holds_from]
    return _holders(earlier[-1:], [anchor])


def _holders(facts: list[FactRecord], anchors: list[FactRecord]) -> RoleAt:
    names = list(dict.fromkeys(f.object for f in facts if f.object))
    return RoleAt(names, [*facts, *anchors] if names else [])


def _holds_from(fact: FactRecord) -> datetime:
    return fact.holds_from  # a sort key (``FactRecord.holds_from``)
