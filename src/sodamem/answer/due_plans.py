"""Plans whose day has come: "I start at Coastline on the 25th", asked after the 25th, says where the user works.

A dated plan to take up a state (to start at an employer, to move to a place) answers a current-state question once
its day is on or before the time asked and after the value that held before it began. Plans never compete in a
slot (``ingest/supersede.py``): whether one happened is only known later, so it is read here, at question time. A
later turn that names the plan's object with words of calling it off ("the Spotify thing fell through") keeps it
from counting; so does any statement of the slot said after the plan, which speaks for itself.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime

from sodamem import instants
from sodamem.records import FactRecord, SearchHit

# the plan's predicate -> the state it takes up ("started" only at an employer: "I start at Spotify on the 3rd", not
# "I'm starting a pottery class on March 3rd")
PLAN_STATES = {
    "started": "works_at",
    "works_at": "works_at",
    "moved": "lives_in",
    "lives_in": "lives_in",
    "housemate": "housemate",
}

CALLED_OFF = re.compile(
    r"\b(?:after\s+all|any\s?more|decided\s+not\s+to|cancel+(?:ed|led|s|ing)?|fell\s+through|falling\s+through|"
    r"call(?:ed|ing)?\s+(?:it\s+)?off|"
    r"pulled\s+out|backed\s+out|turned\s+(?:it\s+|them\s+)?down|declined|rescinded|withdr[ae]w\w*|on\s+hold|"
    r"postponed|delayed|pushed\s+back|not\s+happening|(?:didn'?t|did\s+not|won'?t|will\s+not|not)\s+"
    r"(?:get|take|go|happen|start|move|work\s+out)|changed\s+(?:my|our)\s+minds?)\b",
    re.IGNORECASE,
)


def due_plans(plans: Iterable[FactRecord], wanted: tuple[str, ...], asked_at: datetime) -> list[FactRecord]:
    """The dated plans among ``plans`` that take up one of the ``wanted`` states on or before ``asked_at``, the
    latest day first."""
    due = [
        f
        for f in plans
        if _due(f, asked_at) and f.polarity and f.object and PLAN_STATES.get(f.predicate) in wanted and _takes_up(f)
    ]
    return sorted(due, key=lambda f: instants.sort_key(f.occurred_start or ""), reverse=True)


def _takes_up(plan: FactRecord) -> bool:
    """Whether a plan names what it takes up: an employer for a start, a place (a name) for a move."""
    if plan.predicate == "started":
        return ("organization", plan.object) in plan.roles
    if plan.predicate == "moved":
        return (plan.object or "")[:1].isupper() or any(role == "location" for role, _ in plan.roles)
    return True


def due_endings(plans: Iterable[FactRecord], predicate: str, asked_at: datetime) -> list[FactRecord]:
    """The dated plans among ``plans`` that end a ``predicate`` value on or before ``asked_at`` ("Beckett is moving
    out at the end of the month": a planned denial of the housemate Beckett; "my last day there will be feb 25": of
    whichever employer, no value named)."""
    return [f for f in plans if _due(f, asked_at) and not f.polarity and f.predicate == predicate]


def _due(plan: FactRecord, asked_at: datetime) -> bool:
    """A plan, dated, whose day is on or before ``asked_at``."""
    return (
        plan.modality == "planned"
        and bool(plan.occurred_start)
        and instants.at_or_before(plan.occurred_start or "", asked_at)
    )


def begins_after(plan: FactRecord, said: Iterable[FactRecord]) -> bool:
    """Whether the plan's day comes after every fact of the slot in ``said`` began and was said (a statement made
    on or after that day speaks for itself: "First week at Coastline done")."""
    day = instants.sort_key(plan.occurred_start or "")
    return all(
        instants.sort_key(f.valid_from or f.mentioned_at) < day and instants.sort_key(f.mentioned_at) < day
        for f in said
    )


def called_off(plan: FactRecord, hits: Iterable[SearchHit]) -> bool:
    """Whether the user, after making the plan and before its day, said a sentence naming its object and calling it
    off ("The Spotify thing fell through", "I'm not going to Spotify after all"); not the assistant's "if the Spotify
    start gets pushed back", nor "my first Spotify paycheck got delayed" once the day has come."""
    name = re.compile(rf"(?<!\w){re.escape(plan.object or '')}(?!\w)", re.IGNORECASE)
    planned, day = instants.sort_key(plan.mentioned_at), instants.sort_key(plan.occurred_start or "")
    for hit in hits:
        said = instants.sort_key(hit.timestamp)
        if hit.speaker.lower() in _NOT_THE_USER or not planned < said <= day:
            continue
        if any(name.search(s) and CALLED_OFF.search(s) for s in _SENTENCE.findall(hit.turn_text)):
            return True
    return False


_NOT_THE_USER = frozenset({"assistant", "system"})
_SENTENCE = re.compile(r"[^.!?]+[.!?]*")


def latest_word(said: Iterable[FactRecord], plans: Iterable[FactRecord], asked_at: datetime) -> FactRecord | None:
    """Of one value's statements (``said``: "my roommate Carlos", "Carlos moved out") and its dated plans whose day
    has come ("Sam's moving in on May 1st", "Beckett is moving out at the end of the month"), the one that speaks
    last at ``asked_at``: a statement from when it began, a plan from its day. Whether the value holds is that
    fact's ``polarity``."""
    due = [p for p in plans if _due(p, asked_at)]
    timed = [(instants.sort_key(f.valid_from or f.mentioned_at), instants.sort_key(f.mentioned_at), f) for f in said]
    timed += [(instants.sort_key(p.occurred_start or ""), instants.sort_key(p.mentioned_at), p) for p in due]
    return max(timed, key=lambda t: (t[0], t[1]))[2] if timed else None
