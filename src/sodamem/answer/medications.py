"""The asker's medicines now ("What medication am I on?", "What meds do I take now?", "Am I still on amlodipine?"):
those whose latest start (``started_medication``, ``ingest/extract/rules_medication.py``) was said after their latest
stop, by the time asked, latest first. "What blood pressure medication am I on now?" keeps those whose turns say
"blood pressure", and one switched to from such a one ("switched me from amlodipine to ramipril" says no purpose, the
amlodipine's start did); where none is, the sentences answer.

Pure reading over the memory's facts and search.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from sodamem import instants
from sodamem.memory import Memory
from sodamem.model import TimeSpec
from sodamem.records import FactRecord

_STARTED, _STOPPED = "started_medication", "stopped_medication"
_MEDICINES = r"(?:medications?|meds|medicines?|pills|tablets|prescriptions?|drugs)"
# "What medication am I on?", "Which meds do I take now?", "What blood pressure medication am I on now?"
_ASKS_WHICH = re.compile(
    rf"^\s*(?:what|which)\s+(?P<purpose>(?:[\w-]+\s+){{0,3}}?){_MEDICINES}\s+(?:am\s+I|do\s+I|I['’]m|have\s+I\s+been)"
    r"\s+(?:currently\s+|still\s+|now\s+)?(?:on|taking|take|prescribed)\b(?![^?]*\b(?:before|in\s+\w+\s+\d{4}|last\s+year)\b)",
    re.IGNORECASE,
)
# "What medication am I on for my thyroid?": what it is for, said after (anchored: one match at most)
_FOR = re.compile(
    r"\bfor\s+(?:my|the|his|her)?\s*(?P<what>[a-z][a-z -]*?)\s*(?:now|currently|these\s+days)?\s*\??\s*$", re.I
)
# "What medication was I on in January?", "Which meds did I take last year?": those taken at some time the question
# names (with no time named, the sentences answer)
_ASKS_WHICH_THEN = re.compile(
    rf"^\s*(?:what|which)\s+(?P<purpose>(?:[\w-]+\s+){{0,3}}?){_MEDICINES}\s+(?:was\s+I|were\s+we|did\s+I|had\s+I\s+been)"
    r"\s+(?:on|taking|take|(?P<given>prescribed|given|started\s+on|put\s+on))\b",
    re.IGNORECASE,
)
# "Was I on sertraline in March?", "Was I still taking melatonin last summer?", "Did I take ibuprofen in May?"
_ASKS_STILL_THEN = re.compile(
    r"^\s*(?:(?:was\s+I|were\s+we)\s+(?:still\s+)?(?:on|taking)|did\s+I\s+(?:still\s+)?take)\s+(?:the\s+)?"
    r"(?P<med>[A-Za-z][a-z-]+)\b",
    re.IGNORECASE,
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
    memory: Memory, user: str, asker: str, question: str, asked_at: datetime, window: TimeSpec | None = None
) -> MedicationReading | None:
    """The reading of a medication question; None when the question asks none, no medicine was said, or none said
    is for the purpose asked (the sentences decide then). ``window``: the time the question names ("in January"),
    which a question in the past tense asks of."""
    which_then, still_then = _ASKS_WHICH_THEN.match(question), _ASKS_STILL_THEN.match(question)
    if window is not None and (which_then or still_then):
        return _read_then(_events(memory, user, asker, asked_at), window, still_then, which_then)
    which, still = _ASKS_WHICH.match(question), _ASKS_STILL.match(question)
    if which is None and still is None:
        return None
    said = _events(memory, user, asker, asked_at)  # read once: the purpose check below looks at them all again
    latest = _latest_events(said)
    if still is not None:
        event = latest.get(_key(still["med"]))
        if event is None:
            return None  # never said: the sentences decide
        return MedicationReading("Yes" if event.predicate == _STARTED else "No", (event,))
    if which is None:
        return None
    events = list(latest.values())
    after = _FOR.search(question)
    words = _purpose_words(" ".join([which["purpose"], after["what"] if after else ""]))
    if words:  # "What blood pressure medication am I on?": those for it, a switch's new one taking the old one's
        said_for = _turns_saying(memory, user, words, asked_at)
        started_for = {_key(str(f.object)) for f in said if f.predicate == _STARTED and _turns(f) & said_for}
        events = [e for e in events if _for_it(e, said_for, started_for, said)]
    taking = [e for e in events if e.predicate == _STARTED]
    stopped = [e for e in events if e.predicate == _STOPPED]
    if taking:
        # latest said first; those said in one turn in the order said ("metformin and insulin")
        taking.sort(key=lambda e: (instants.sort_key(e.mentioned_at), *_said_before(e)), reverse=True)
        return MedicationReading(", ".join(str(e.object) for e in taking), tuple(taking))
    if stopped:
        names = ", ".join(dict.fromkeys(str(e.object) for e in stopped))
        return MedicationReading(f"none now (previously {names})", tuple(stopped))
    return None


def _read_then(
    said: list[FactRecord], window: TimeSpec, still: re.Match[str] | None, which: re.Match[str] | None
) -> MedicationReading | None:
    """ "What medication was I on in January?" (``which``): each medicine taken at some time in ``window`` (taken as
    it began, or started in it), by when each start and stop happened (``_happened``), cited by the start that makes
    it so. "Was I on sertraline in March?" (``still``): Yes or No, citing its last start or stop by then. A stop said
    by a span the window begins in ("last year") leaves it open: not listed, and no Yes or No. Purposes are not read
    here: the sentences decide."""
    by_medicine: dict[str, list[_Happened]] = {}
    for happened in sorted(_happened(said), key=lambda h: (instants.sort_key(h.when), h.event.predicate == _STOPPED)):
        by_medicine.setdefault(_key(str(happened.event.object)), []).append(happened)
    start, end = window.start, window.end
    taken: dict[str, FactRecord] = {}
    began: dict[str, FactRecord] = {}  # those started within the window
    open_then: set[str] = set()  # stopped at a time not known to be before the window
    for key, events in by_medicine.items():
        before = [h for h in events if instants.before(h.when, start)]
        during = [
            h.event
            for h in events
            if not instants.before(h.when, start) and instants.before(h.when, end) and h.event.predicate == _STARTED
        ]
        if before and before[-1].event.predicate == _STARTED:
            taken[key] = before[-1].event
        elif during:
            taken[key] = during[0]
        elif before and not instants.at_or_before(before[-1].until, start):
            open_then.add(key)
        if during:
            began[key] = during[0]
    if still is not None:
        key = _key(still["med"])
        if key in taken:
            return MedicationReading("Yes", (taken[key],))
        # none said by then: "I'm on propranolol", said in June, may have held in February too (the sentences decide)
        known = [h.event for h in by_medicine.get(key, []) if instants.before(h.when, end)]
        return MedicationReading("No", (known[-1],)) if known and key not in open_then else None
    if which is None or _purpose_words(which["purpose"]) or _FOR.search(which.string):
        return None
    if which["given"] or re.search(r"\bnew\b", which["purpose"], re.IGNORECASE):
        # "What medication was I prescribed in March?", "What new meds was I on in March?": those started then
        taken = began
    if not taken:
        return None
    chosen = {e.id for e in taken.values()}
    cited = [h.event for events in by_medicine.values() for h in events if h.event.id in chosen]
    return MedicationReading(", ".join(str(e.object) for e in cited), tuple(cited))


@dataclass(frozen=True, slots=True)
class _Happened:
    """When a start or stop happened, as stored text: from ``when`` to ``until`` (the same, but for a stop said by a
    span: "I came off it last year")."""

    when: str
    until: str
    event: FactRecord


def _happened(events: list[FactRecord]) -> list[_Happened]:
    """When each start or stop happened: the time its words name, else when it was said. A stop named by a span
    ("last year", "this month") happened no earlier than a start of the same medicine said before it within that
    span: "I came off the citalopram last year", after "I'm on citalopram" said that June, was after June."""
    starts = [e for e in events if e.predicate == _STARTED]
    timed = []
    for event in events:
        when = event.occurred_start or event.mentioned_at
        until = when
        if event.predicate == _STOPPED and event.occurred_end:
            until = event.occurred_end
            earlier_said = [
                s.occurred_start or s.mentioned_at
                for s in starts
                if _key(str(s.object)) == _key(str(event.object))
                and instants.sort_key(s.mentioned_at) < instants.sort_key(event.mentioned_at)
            ]
            within = [t for t in earlier_said if instants.sort_key(t) < instants.sort_key(until)]
            when = max([when, *within], key=instants.sort_key)
        timed.append(_Happened(when, until, event))
    return timed


def _said_before(event: FactRecord) -> tuple[int, int]:
    """A key, for a reverse sort, that puts a later turn first and, within a turn, what was said first first
    ("metformin and insulin": metformin, then insulin)."""
    source = event.sources[0]
    return source.turn_index, -source.char_end


def _key(medicine: str) -> str:
    """A medicine as compared: "Statins" and "statin" are one."""
    return medicine.lower().removesuffix("s")


def _latest_events(events: list[FactRecord]) -> dict[str, FactRecord]:
    """Each medicine's latest start or stop among ``events`` (a stop wins a tie: "switched from X to X")."""
    ordered = sorted(events, key=lambda f: (instants.sort_key(f.mentioned_at), f.predicate == _STOPPED))
    return {_key(str(f.object)): f for f in ordered}


def _events(memory: Memory, user: str, asker: str, asked_at: datetime) -> list[FactRecord]:
    """The asker's medicine starts and stops said by ``asked_at``."""
    return [
        f
        for f in memory.facts(status="all", subject=asker, user=user)
        if f.predicate in (_STARTED, _STOPPED)
        and f.object
        and f.affirms
        and f.sources
        and instants.at_or_before(f.mentioned_at, asked_at)
    ]


# words of a question that name no purpose: "What other medication ...", "What kind of meds ..."
_NOT_A_PURPOSE = frozenset("my the a an for of kind kinds sort type types other current daily new prescription".split())


def _purpose_words(purpose: str) -> list[str]:
    return [w for w in re.findall(r"[a-z]+", purpose.lower()) if w not in _NOT_A_PURPOSE]


def _turns_saying(memory: Memory, user: str, words: list[str], asked_at: datetime) -> set[tuple[str, int]]:
    """The turns that say every word of the purpose asked ("blood pressure"), as (session, turn)."""
    return {
        (hit.session_id, hit.turn_index)
        for hit in memory.search(" ".join(words), k=20, user=user, now=asked_at)
        if all(re.search(rf"\b{re.escape(w)}", hit.turn_text, re.IGNORECASE) for w in words)
    }


def _turns(fact: FactRecord) -> set[tuple[str, int]]:
    return {(s.session_id, s.turn_index) for s in fact.sources}


def _for_it(event: FactRecord, said_for: set[tuple[str, int]], started_for: set[str], events: list[FactRecord]) -> bool:
    """Whether a medicine's event is for the purpose: its turns say it (``said_for``), or it was switched to in a
    turn that stopped one whose own start said it (``started_for``: "switched me from amlodipine to ramipril")."""
    turns = _turns(event)
    if turns & said_for:
        return True
    return any(f.predicate == _STOPPED and _turns(f) & turns and _key(str(f.object)) in started_for for f in events)
