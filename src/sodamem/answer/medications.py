"""The asker's medicines now ("What medication am I on?", "What meds do I take now?", "Am I still on amlodipine?"):
those whose latest start (``started_medication``, ``ingest/extract/rules_medication.py``) was said after their latest
stop, by the time asked, latest first. "What blood pressure medication am I on now?" keeps those whose turns say
"blood pressure" where any does: a switch ("switched me from amlodipine to ramipril") leaves the new one's turn without
the words, and then every one that holds answers.

Pure reading over the memory's facts and search.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from sodamem import instants
from sodamem.memory import Memory
from sodamem.records import FactRecord

_STARTED, _STOPPED = "started_medication", "stopped_medication"
_MEDICINES = r"(?:medications?|meds|medicines?|pills|tablets|prescriptions?|drugs)"
# "What medication am I on?", "Which meds do I take now?", "What blood pressure medication am I on now?"
_ASKS_WHICH = re.compile(
    rf"^\s*(?:what|which)\s+(?P<purpose>(?:[\w-]+\s+){{0,3}}?){_MEDICINES}\s+(?:am\s+I|do\s+I|I['’]m|have\s+I\s+been)"
    r"\s+(?:currently\s+|still\s+|now\s+)?(?:on|taking|take|prescribed)\b(?![^?]*\b(?:before|in\s+\w+\s+\d{4}|last\s+year)\b)",
    re.IGNORECASE,
)
# "What medication am I on for my thyroid?": what it is for, said after
_FOR = re.compile(
    r"\bfor\s+(?:my|the|his|her)?\s*(?P<what>[a-z][a-z -]*?)\s*(?:now|currently|these\s+days)?\s*\??\s*$", re.I
)
# "Am I still on amlodipine?", "Do I still take melatonin?", "Am I taking sertraline?"
_ASKS_STILL = re.compile(
    r"^\s*(?:am\s+I|do\s+I|are\s+we)\s+(?:still\s+)?(?:on|taking|take)\s+(?:the\s+)?(?P<med>[A-Za-z][a-z-]+)\s*"
    r"(?:now|any\s?more|these\s+days)?\s*\??\s*$",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class MedicationReading:
    """The answer's text and the facts it rests on."""

    text: str
    cited: tuple[FactRecord, ...]


def read_medications(
    memory: Memory, user: str, asker: str, question: str, asked_at: datetime
) -> MedicationReading | None:
    """The reading of a medication question; None when the question asks none or no medicine was said."""
    which, still = _ASKS_WHICH.match(question), _ASKS_STILL.match(question)
    if which is None and still is None:
        return None
    latest = _latest_events(memory, user, asker, asked_at)
    if still is not None:
        event = latest.get(still["med"].lower())
        if event is None:
            return None  # never said: the sentences decide
        return MedicationReading("Yes" if event.predicate == _STARTED else "No", (event,))
    taking = [e for e in latest.values() if e.predicate == _STARTED]
    stopped = [e for e in latest.values() if e.predicate == _STOPPED]
    purpose = " ".join(
        [which["purpose"].strip() if which is not None else "", *(m["what"] for m in _FOR.finditer(question))]
    ).strip()
    if which is not None and purpose:
        said_for = _turns_saying(memory, user, purpose)
        for_it = [e for e in taking if any((src.session_id, src.turn_index) in said_for for src in e.sources)]
        taking = for_it or taking
    if taking:
        taking.sort(key=lambda e: instants.sort_key(e.mentioned_at), reverse=True)
        return MedicationReading(", ".join(e.object or "" for e in taking), tuple(taking))
    if stopped:
        names = ", ".join(dict.fromkeys(e.object or "" for e in stopped))
        return MedicationReading(f"none now (previously {names})", tuple(stopped))
    return None


def _latest_events(memory: Memory, user: str, asker: str, asked_at: datetime) -> dict[str, FactRecord]:
    """Each medicine's latest start or stop said by ``asked_at`` (a stop wins a tie: "switched from X to X")."""
    events = [
        f
        for f in memory.facts(status="all", subject=asker, user=user)
        if f.predicate in (_STARTED, _STOPPED)
        and f.object
        and f.affirms
        and f.sources
        and instants.at_or_before(f.mentioned_at, asked_at)
    ]
    events.sort(key=lambda f: (instants.sort_key(f.mentioned_at), f.predicate == _STOPPED))
    return {f.object.lower(): f for f in events if f.object}


def _turns_saying(memory: Memory, user: str, purpose: str) -> set[tuple[str, int]]:
    """The turns that say every word of the purpose asked ("blood pressure"), as (session, turn)."""
    words = [w for w in re.findall(r"[a-z]+", purpose.lower()) if w not in ("my", "the", "a", "for", "of")]
    if not words:
        return set()
    return {
        (hit.session_id, hit.turn_index)
        for hit in memory.search(" ".join(words), k=20, user=user)
        if all(re.search(rf"\b{re.escape(w)}", hit.turn_text, re.IGNORECASE) for w in words)
    }
