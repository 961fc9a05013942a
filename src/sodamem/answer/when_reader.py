"""The offline reader's when-answers ("When did I move to Bristol?") and how-long-ago answers.

A dated fact among the top hits answers, when it shares a word with the question and names what the question names
(besides the asker and the people talking); else the time words of the top hit that names it (as the speaker
corrected them, ``answer/corrections.py``); else the day that hit was said. A how-long-ago answer is the span from
that day to the day asked: "5 days ago, 20 March 2026".
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from sodamem import instants
from sodamem.answer.cited_date import source_time
from sodamem.answer.corrections import corrected_time
from sodamem.answer.dates import human_day, human_span
from sodamem.answer.evidence_view import EvidenceView, overlap
from sodamem.answer.said_as import said_as
from sodamem.answer.types import AnswerCitation
from sodamem.ingest.timeparse import find_times
from sodamem.memory import Memory
from sodamem.porter import stem
from sodamem.records import SearchHit
from sodamem.retrieve.pack import EvidenceItem, ResolvedTime
from sodamem.retrieve.temporal import parse_iso

TOP_HITS = 5  # how deep the when-reader looks for a dated fact
UNDATED_DETAIL = "the day it was said"  # a date read from no time word, only from when it was said
_HOW_LONG_AGO = re.compile(
    r"\bhow\s+(?:long|many\s+(?:days|weeks|months|years))\s+ago\b|\bhow\s+long\s+has\s+it\s+been\s+since\b",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Dated:
    text: str  # "9 September 2026 (the Wednesday before 12 September 2026)"
    start: str  # ISO: where the span said starts
    citations: list[AnswerCitation]
    detail: str  # which words the date was read from, said when


# "How long have we had Toffee?", "How long have I owned the van?": the span since it was got (the asker's own
# things only: another's is dated by their words, which ``GOT_IT`` does not read)
_HOW_LONG_HAD = re.compile(r"^\s*how\s+long\s+have\s+(?:I|we)\s+(?:had|owned|kept)\b", re.IGNORECASE)
# the words that say a thing was got: "We adopted a beagle called Toffee", "bought my van", "got Miso from a rescue"
# (said by the asker of themselves: "We adopted ...", "I finally bought ...", "I was diagnosed with ...", not "My
# sister got a puppy")
GOT_IT = re.compile(
    r"(?:^|\b[Ii]|\b[Ww]e)(?:['’]ve)?(?:\s+(?:just|finally|recently|also|have|had))?\s*"
    r"(?i:got|bought|adopted|rescued|inherited|were\s+given|was\s+given|picked\s+up|brought\s+home|welcomed"
    r"|was\s+diagnosed|got\s+diagnosed)\b"
    r"(?!\s+(?:rid|back|home|off|over|up|ill|sick|married|engaged|divorced)\b|[^.!?]*\boff\b)",  # "got my braces off"
)


def asks_how_long_had(question: str) -> bool:
    return _HOW_LONG_HAD.search(question) is not None


def asks_how_long_ago(question: str) -> bool:
    """ "How long ago did I move?", "How many weeks ago ...", "How long has it been since ..."."""
    return _HOW_LONG_AGO.search(question) is not None


def date_of(
    memory: Memory,
    user: str,
    question: str,
    evidence: EvidenceView,
    content: set[str],
    named: set[str],
    *,
    ahead: bool = False,
    speaker: str | None = None,
) -> Dated | None:
    """When what the question asks about happened (``content``: the question's word stems; ``named``: those
    naming someone or something other than the asker and the people talking; ``ahead``: the question asks when
    something is or will be, so the latest word on it counts). None when the question asks when a thing is or was
    and no top hit names that thing: "When is Sam's wedding?" is not dated by "Sam is visiting next weekend"."""
    # the asker's own words, where the question asks of them and they say a time of what it names ("When am I going
    # to Porto?" is not the assistant's "Late June is great weather for Porto"); else anyone's ("Your flight to Oslo
    # is now on June 9th", said by the assistant tracking it)
    mine = [h for h in evidence.hits if h.speaker == speaker][:TOP_HITS]
    timed = [h for h in mine if _times_in_sentences(evidence, h, content, 1)]  # a time said with the question's words
    hits = mine if timed else evidence.hits[:TOP_HITS]
    thing = _WHEN_IS_THING.match(question)
    anyones = evidence.hits[:TOP_HITS]  # "When was my talk?" is dated by "I'm presenting" said beside "talks"
    if thing is not None and not any(overlap({stem(thing["thing"].lower())}, h.turn_text) for h in anyones):
        return None
    top = {(h.session_id, h.turn_index) for h in hits}
    dated = [i for i in evidence.items if i.kind == "fact" and i.occurred_start and (i.session_id, i.turn_index) in top]
    # a dated fact sharing no word with the question dates something else ("When are we flying to Lisbon?" is
    # not the "next year" of a plan to move); nor one not naming what it names ("When do I start at Spotify?" is
    # not dated by "I started keto")
    dated = [i for i in dated if overlap(content, evidence.fact_words(i))]
    if named:
        dated = [i for i in dated if overlap(named, evidence.fact_words(i))]
    # the top hit naming what the question names that says most of the question ("We got back yesterday" to "When
    # did we get back from Lisbon?", not the booking); the best-ranked among equals
    naming = [(n, h) for n, h in enumerate(hits) if named and overlap(named, h.turn_text)]

    # among hits saying as much, one saying a time in a sentence with the thing asked ("invited me to an interview
    # on the 22nd", not "The interview went well ... I accepted on the 8th of May"); then a past question reads the
    # latest (the plan is said before it is done: "we're taking my stuff down on the 4th", then "we moved on the 11th
    # in the end"); else the best-ranked
    thing_words = content - named - _LIGHT_VERBS  # the words of the thing asked, less its names
    strong = thing_words

    def said_as_much(p: tuple[int, SearchHit]) -> tuple[int, bool, datetime | int, int]:
        latest = instants.sort_key(p[1].timestamp) if not ahead and _PAST.match(question) else 0
        timed = bool(strong) and bool(_times_in_sentences(evidence, p[1], strong, 1))
        return overlap(content, p[1].turn_text), timed, latest, -p[0]

    hit = max(naming, key=said_as_much)[1] if naming else _saying_more(hits, content, strong, said_as_much)
    # a hit naming the place or person only, its times said of other things ("Hello from Graz! ... Liesl moved out
    # last week" to "When was my Graz interview?"): the hit whose sentence says the thing asked with a time ("they've
    # invited me to an online interview next Friday"), if one does
    said_of_it = _times_in_sentences(evidence, hit, content, 1) or _times_in_sentences(
        evidence, hit, strong, 1, following=True
    )
    # (a hit saying no time at all is dated by the day it was said: "I started reading The Lean Startup")
    timed_hit = evidence.turn_item(hit)
    if naming and strong and not ahead and timed_hit is not None and timed_hit.times and not said_of_it:
        saying = [h for h in hits if _times_in_sentences(evidence, h, strong, 1)]
        hit = max(saying, key=lambda h: overlap(strong, h.turn_text), default=hit)  # the best-ranked among equals
    turn = evidence.turn_item(hit)
    times = turn.times if turn is not None else ()
    if ahead:
        # "When is my dentist appointment?": the latest hit whose sentence says about as much of it, with a time
        # there ("the dentist moved to the 14th of February"; not "Lisbon was amazing. ... next year")
        enough = max(1, overlap(content, hit.turn_text) - 1)
        # a hit not naming what the question names counts by a word of substance ("the move got pushed to May
        # 20th" to "When am I moving to Montreal?"), not by "going" ("Femke's going to run the bakery next month")
        strong = content - _LIGHT_VERBS  # named words count here
        near = [
            (h, _times_in_sentences(evidence, h, content if overlap(named, h.turn_text) else strong, enough))
            for h in hits
        ]
        latest = max(
            ((h, t) for h, t in near if t),
            key=lambda p: (instants.sort_key(p[0].timestamp), p[0].turn_index),
            default=None,
        )
        if latest is not None:
            hit, times = latest
            turn = evidence.turn_item(hit)
    rank = {item.id: n for n, item in enumerate(evidence.items)}
    best = max(dated, key=lambda i: (overlap(content, evidence.fact_words(i)), -rank[i.id]), default=None)
    if best is not None and times and overlap(content, hit.turn_text) > overlap(content, evidence.fact_words(best)):
        best = None  # the best hit says more of the question, with a time ("I stopped last weekend")
    if best is not None and ahead and times and _later(hit.timestamp, hit.turn_index, best):
        best = None  # "When is ...?": a later word on it ("Sorry, her birthday is the 3rd of February")
    if best is not None:
        time = source_time(best, evidence.items)
        expression = time.expression if time is not None else None
        assert best.occurred_start is not None
        when = said_as(human_span(best.occurred_start, best.occurred_end), time, best.timestamp)
        citations = [evidence.item_citation(best), *evidence.words_citation(best, expression)]
        return Dated(when, best.occurred_start, citations, said_detail(expression, best.timestamp))
    if turn is not None and times:
        said = _best_said(times, hit.turn_text, content, thing_words)
        first = _ahead_of(said, turn.timestamp) if ahead else said
        fixed = corrected_time(memory, user, hit.session_id, hit.turn_index, first)
        if fixed is not None:  # "I hurt my knee on Thursday." "Sorry, it was Wednesday, not Thursday."
            when = said_as(human_span(fixed.time.start, fixed.time.end), fixed.time, fixed.turn.timestamp)
            cited = [evidence.hit_citation(hit, turn.id), fixed.citation()]
            return Dated(when, fixed.time.start, cited, said_detail(fixed.time.expression, fixed.turn.timestamp))
        when = said_as(human_span(first.start, first.end), first, turn.timestamp)
        cited = [evidence.hit_citation(hit, turn.id), *evidence.hit_words_citation(hit, turn.id, first.expression)]
        return Dated(when, first.start, cited, said_detail(first.expression, turn.timestamp))
    cited = [evidence.hit_citation(hit, turn.id if turn else "")]
    return Dated(human_day(hit.timestamp), hit.timestamp, cited, f"{UNDATED_DETAIL}, in session {hit.session_id}")


# "When is Sam's wedding?", "When was the concert?", "When is my dentist appointment?": when a thing is, by its noun
_WHEN_IS_THING = re.compile(
    r"^\s*when\s+(?:is|was|will\s+be|['’]s)\s+(?:(?:the|my|our|his|her|their|[A-Z][\w-]*['’]s)\s+)?"
    r"(?:[\w-]+\s+){0,2}(?P<thing>[a-z][\w-]*)\s*\??\s*$",
    re.IGNORECASE,
)
_LIGHT_VERBS = frozenset(stem(w) for w in "go going get getting have having do doing make take come be".split())
_AHEAD = re.compile(r"^\s*when\s+(?:is|am|are|will|'s|do\s+(?:I|we|you)\s+have)\b", re.IGNORECASE)


_PAST = re.compile(r"^\s*when\s+did\b", re.IGNORECASE)


def _saying_more(
    hits: list[SearchHit],
    content: set[str],
    strong: set[str],
    said_as_much: Callable[[tuple[int, SearchHit]], tuple[int, bool, datetime | int, int]],
) -> SearchHit:
    """With nothing named, the top hit, unless another says more of the question with a time in a sentence saying
    it ("the corolla's done. sold it last sat" over "my car is an old corolla", to "When did I sell the corolla?")."""
    said, ranked = max((said_as_much(p), p) for p in enumerate(hits))
    best, top = ranked[1], hits[0]
    if best is top or not strong or not said[1]:
        return top
    return best if overlap(content, best.turn_text) > overlap(content, top.turn_text) else top


def asks_when_ahead(question: str) -> bool:
    """ "When is my dentist appointment?", "When will we fly?": a time that is or will be, which a later word may
    have moved."""
    return _AHEAD.search(question) is not None


def _ahead_of(time: ResolvedTime, said_at: str) -> ResolvedTime:
    """A time asked about as ahead ("When is ...?") read forward from when it was said, where the words allow it:
    "the dentist moved to the 14th of February", said in January, is this February, not the last."""
    said, ends = parse_iso(said_at), parse_iso(time.end)
    if said is None or ends is None or instants.sort_key(time.end) > instants.sort_key(said_at):
        return time
    found = [m for m in find_times(time.expression, said, future=True) if m.spec.end > said]
    if not found:
        return time
    spec = found[0].spec
    return ResolvedTime(time.expression, spec.start.isoformat(), spec.end.isoformat())


def _later(timestamp: str, turn_index: int, fact: EvidenceItem) -> bool:
    said = (instants.sort_key(timestamp), turn_index)
    return said > (instants.sort_key(fact.timestamp), fact.turn_index)


def _times_in_sentences(
    evidence: EvidenceView, hit: SearchHit, content: set[str], enough: int, *, following: bool = False
) -> tuple[ResolvedTime, ...]:
    """The hit's times said in a sentence that says at least ``enough`` of the question's words (``following``: or
    in the sentence right after one, which goes on about it: "we had to postpone the Dordogne holiday. The owner
    was nice about it, we're going from August 8th instead")."""
    turn = evidence.turn_item(hit)
    if turn is None:
        return ()
    said = _SENTENCE.findall(hit.turn_text)
    saying = [n for n, s in enumerate(said) if overlap(content, s) >= enough]
    sentences = [
        said[n] for n in sorted(set(saying) | ({n + 1 for n in saying if n + 1 < len(said)} if following else set()))
    ]
    return tuple(t for t in turn.times if any(t.expression in s for s in sentences))


_SENTENCE = re.compile(r"[^.!?]+[.!?]*")
_CLAUSE = re.compile(r"[^.!?,;]+?(?=[.!?,;]|\s(?:and|but|so)\s|$)")


def _best_said(times: tuple[ResolvedTime, ...], text: str, content: set[str], thing: set[str]) -> ResolvedTime:
    """Of a turn's times, the one whose clause says most of the question ("we fly out on the 21st", not "mum turns
    70 on 25 july", to "What day do we fly out?"); among equals, the one said with the thing asked (``thing``: the
    question's words less its names: "surgery on the 27th", not "tank has been limping for like a week", to "When
    was Tank's surgery?"); then the first."""
    clauses = [m.group() for m in _CLAUSE.finditer(text)]

    def said_with(time: ResolvedTime, words: set[str]) -> int:
        return max((overlap(words, c) for c in clauses if time.expression in c), default=0)

    return max(times, key=lambda t: (said_with(t, content), said_with(t, thing), -times.index(t)))


def time_ago(start: str, now: datetime) -> str:
    """The span from ``start`` (ISO) to ``now`` in the unit a person would use: "5 days ago", "7 weeks ago",
    "3 months ago", "2 years ago"; "today" for none."""
    began = parse_iso(start)
    if began is None:
        return "some time ago"
    days = (now.date() - began.date()).days
    if days <= 0:
        return "today" if days == 0 else "not yet"
    for unit, size, below in (("day", 1, 14), ("week", 7, 61), ("month", 30, 730)):
        if days < below:
            count = round(days / size)
            return f"{count} {unit}{'' if count == 1 else 's'} ago"
    years = round(days / 365)
    return f"{years} year{'' if years == 1 else 's'} ago"


def said_detail(expression: str | None, said_at: str) -> str:
    said = human_day(said_at)
    if expression:
        return f"from '{' '.join(expression.split())}', said {said}"
    return f"said {said}"
