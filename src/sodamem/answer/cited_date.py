"""A when-question's LLM answer said as a date: the date it states, else the date of the evidence it cites.

Small models answer "When did ..." with a sentence around the date ("Maria donated her old car to a homeless
shelter on 21 December 2022."), which LoCoMo's token F1 and a person reading a list of answers both take as noise
around the answer, or with no date at all: the event retold ("She went to the support group [E3].") or a time word
that means nothing without its message's date. So, as the offline reader does (``Answer.detail``):

* an answer that states a calendar date (a year, a month's name, an ISO date) is cut to those words, "21 December
  2022" (a span stays whole: "1 May 2023 to 7 May 2023"), citing what the model cited; the model's sentence becomes
  the answer's detail. The model's date is kept as it wrote it: this dates answers, it does not overrule them. It
  is only widened: a single day that starts a span of several days in a cited item ("2022-09-05" from "last week
  [last week = 2022-09-05..2022-09-11]") is said as that span, which is all the evidence says (flag
  ``answer_widened_to_cited_span``);
* a date read from a relative time word of a cited turn (or of a cited fact's source turn, when the evidence holds
  it: the offline reader's rule too) is said with that word anchored on the day it was said,
  "21 January 2022 (the Friday before 23 January 2022)" (``answer/said_as.py``, flag ``date_said_as_relative``):
  the reader sees which words the date was read from;
* an answer that states none is said as the date of the evidence it cites: a cited fact's occurrence, else the
  first time word of a cited turn, resolved, else the day the first cited item was said (the offline reader's
  order of preference, ``offline._Reader._when``). The model still chooses the evidence; the memory says its date.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from sodamem.answer.dates import human_day, human_span
from sodamem.answer.said_as import anchored_phrase
from sodamem.answer.spans import question_kind
from sodamem.ingest import timewords as tw
from sodamem.ingest.timeparse import TimeMention, find_times
from sodamem.retrieve.pack import EvidenceItem, ResolvedTime
from sodamem.retrieve.query import when_cues
from sodamem.retrieve.temporal import parse_iso

_YEAR = r"(?:1[89]|20)\d\d"
_ISO = r"\d{4}-\d{2}(?:-\d{2})?"
# A year, a month's name (the resolver's own words) or an ISO date in a time expression the resolver found: it
# says when, on the calendar.
_CALENDAR = re.compile(rf"\b(?:{_YEAR}|{tw.MONTH_ALT})\b|\b{_ISO}\b", re.IGNORECASE)
_YEAR_OR_ISO = re.compile(rf"\b{_ISO}\b|\b{_YEAR}\b")
_ENDS_WITH_YEAR = re.compile(rf"\b{_YEAR}$")
_BRACKETS = re.compile(r"\[[^\]]*\]")
_SPAN_JOIN = re.compile(r"\s*(?:to|until|through|-|–|and)\s*", re.IGNORECASE)
# Words around a date that are part of the answer: "the week before 9 June 2023" (the resolver leaves such
# anaphora alone), a year after a day the resolver stopped at ("the weekend of 8 July, 2023").
_RELATIVE_TO = re.compile(
    r"(?:\b(?:the|a|an|one|two|three|four|few|couple\s+of)\s+)?\b(?:days?|nights?|weeks?|weekends?|months?|years?)\s+"
    r"(?:before|after|prior\s+to|of)\s+$",
    re.IGNORECASE,
)
_YEAR_AFTER = re.compile(rf",?\s+{_YEAR}\b")
_WH_WORD = re.compile(r"\b(?:who|whom|whose|where|when|why|how|what|which)\b", re.IGNORECASE)
_LEAD = re.compile(r"(?:on|in|at|around|about|from)\s+", re.IGNORECASE)  # "on 15 June 2023": the date is the answer


@dataclass(frozen=True, slots=True)
class CitedDate:
    text: str  # the date as a person says it: "7 May 2023", "May 2023", "1 May 2023 to 7 May 2023"
    item: EvidenceItem  # the cited item it comes from
    how: str  # "occurred" (a fact's occurrence), "resolved" (a turn's time words), "said" (the day it was said)
    time: ResolvedTime | None = None  # the time word it was resolved from, if any ("last week")


@dataclass(frozen=True, slots=True)
class DatedAnswer:
    text: str  # the date words, without ids
    cited: tuple[str, ...]  # the ids the date rests on
    flag: str  # "answer_cut_to_date", or "date_from_citation:<how>"
    anchored: str | None = None  # the relative time word it was read from, anchored: "the week before 9 June 2023"


def date_answer(
    answer: str, cited: Sequence[EvidenceItem], now: datetime, evidence: Sequence[EvidenceItem] = ()
) -> DatedAnswer | None:
    """A when-answer (``answer`` without its ids) said as a date (see the module docstring); None when neither its
    own words nor its cited items give one. ``evidence``: everything the answer was read from, where a cited fact's
    source turn may be (the time word its occurrence was read from is anchored as a turn's is)."""
    stated = stated_date(answer, now)
    if stated is not None:
        mentions = find_times(stated, now)
        wider = span_starting_on(mentions, cited, evidence)
        if wider is not None:
            return _said_as(DatedAnswer(wider.text, (wider.item.id,), "answer_widened_to_cited_span"), wider)
        return _said_as(
            DatedAnswer(stated, tuple(i.id for i in cited), "answer_cut_to_date"),
            _read_from(mentions, cited, evidence),
        )
    dated = cited_date(cited, evidence)
    if dated is None:
        return None
    return _said_as(DatedAnswer(dated.text, (dated.item.id,), f"date_from_citation:{dated.how}"), dated)


def _said_as(answer: DatedAnswer, source: CitedDate | None) -> DatedAnswer:
    """``answer`` with the time word its date was read from anchored beside it, when ``source`` has one."""
    phrase = anchored_phrase(source.time, source.item.timestamp) if source and source.time else None
    if phrase is None:
        return answer
    return DatedAnswer(f"{answer.text} ({phrase})", answer.cited, answer.flag, phrase)


def _read_from(
    mentions: Sequence[TimeMention], cited: Sequence[EvidenceItem], evidence: Sequence[EvidenceItem]
) -> CitedDate | None:
    """The time word of a cited item (a turn's own, a fact's source turn's) whose interval holds the whole of the
    stated date (its ``mentions``), first cited first."""
    if not mentions:
        return None
    first = min(m.spec.start for m in mentions).replace(tzinfo=None)
    last = max(m.spec.end for m in mentions).replace(tzinfo=None)
    for item in cited:
        for time in _times_of(item, evidence):
            start, end = parse_iso(time.start), parse_iso(time.end)
            if start and end and start.replace(tzinfo=None) <= first and last <= end.replace(tzinfo=None):
                how = "resolved" if item.kind == "turn" else "occurred"
                return CitedDate(human_span(time.start, time.end), item, how, time)
    return None


def source_time(fact: EvidenceItem, evidence: Sequence[EvidenceItem]) -> ResolvedTime | None:
    """The time word of ``fact``'s source turn that its occurrence was read from (the one starting where the
    occurrence starts), when that turn is among ``evidence``; None for a turn or a fact without either."""
    if fact.kind != "fact" or not fact.occurred_start:
        return None
    for item in evidence:
        if item.kind == "turn" and (item.session_id, item.turn_index) == (fact.session_id, fact.turn_index):
            return next((t for t in item.times if t.start == fact.occurred_start), None)
    return None


def _times_of(item: EvidenceItem, evidence: Sequence[EvidenceItem]) -> tuple[ResolvedTime, ...]:
    """A turn's resolved time words; the one a fact's occurrence was read from."""
    if item.kind == "turn":
        return item.times
    time = source_time(item, evidence)
    return (time,) if time is not None else ()


def asks_for_a_date(question: str) -> bool:
    """A when-question whose answer is a point or span in time (not "how long", not "how many days"): its first
    wh-word asks for a time ("When did ...", "In which month ...", "Since when ..."). A question that asks for
    something else first is not one, though a time word follows ("What schools did John play in, and how many years
    ...?", "Who did Maya meet when she was in Rome?")."""
    cues = when_cues(question)
    if not cues or question_kind(question) in ("how_long", "how_many"):
        return False
    first = _WH_WORD.search(question)
    return first is None or any(start <= first.start() < end for start, end in cues)


def states_a_date(answer: str) -> bool:
    """Whether ``answer`` (outside its bracketed ids and notes) names a year, a month or an ISO date."""
    return _CALENDAR.search(_BRACKETS.sub(" ", answer)) is not None


def cited_date(cited: Sequence[EvidenceItem], evidence: Sequence[EvidenceItem] = ()) -> CitedDate | None:
    """The date of the cited items, first cited first: a fact's occurrence (with the time word of its source turn
    in ``evidence`` it was read from), else a turn's first resolved time word, else the day the first item was said.
    None without items."""
    for item in cited:
        if item.kind == "fact" and item.occurred_start:
            time = source_time(item, evidence)
            return CitedDate(human_span(item.occurred_start, item.occurred_end), item, "occurred", time)
    for item in cited:
        if item.kind == "turn" and item.times:
            first = item.times[0]
            return CitedDate(human_span(first.start, first.end), item, "resolved", first)
    if not cited:
        return None
    return CitedDate(human_day(cited[0].timestamp), cited[0], "said")


def span_starting_on(
    mentions: Sequence[TimeMention], cited: Sequence[EvidenceItem], evidence: Sequence[EvidenceItem] = ()
) -> CitedDate | None:
    """The span of several days a cited item gives (a fact's occurrence, a turn's resolved time word) that starts
    on the one day the stated date (its ``mentions``) names, first cited first; None when that is not one day or
    no item does.

    A small model reads "crashed last week [last week = 2022-09-05..2022-09-11]" and answers "2022-09-05": the
    evidence says that week, not that Monday, so the answer says the week, as the offline reader does."""
    if len(mentions) != 1 or mentions[0].spec.end - mentions[0].spec.start != timedelta(days=1):
        return None
    day = mentions[0].spec.start.date()
    for item in cited:
        if item.kind == "fact":
            spans: list[tuple[str, str, ResolvedTime | None]] = [
                (item.occurred_start or "", item.occurred_end or "", source_time(item, evidence))
            ]
        else:
            spans = [(t.start, t.end, t) for t in item.times]
        for start, end, time in spans:
            first, after = parse_iso(start), parse_iso(end)
            if first and after and first.date() == day and after - first > timedelta(days=1):
                how = "occurred" if item.kind == "fact" else "resolved"
                return CitedDate(human_span(start, end), item, how, time)
    return None


def stated_date(answer: str, now: datetime) -> str | None:
    """The calendar date ``answer`` states, as its own words: the first time expression naming a year, a month or an
    ISO date, with the next one when only "to", "until", "-" or "and" stands between them, else a bare year or ISO
    date; None if it states none."""
    dated = [m for m in find_times(answer, now) if states_a_date(m.spec.expression)]
    if not dated:
        # a bare year or ISO date the resolver reads only after a cue word ("... the community center 2022.")
        bare = _YEAR_OR_ISO.search(answer)
        return bare.group() if bare else None
    start, end = dated[0].char_start, dated[0].char_end
    for mention in dated[1:]:
        if not _SPAN_JOIN.fullmatch(answer[end : mention.char_start]):
            break
        end = mention.char_end
    if (year := _YEAR_AFTER.match(answer, end)) and not _ENDS_WITH_YEAR.search(answer, start, end):
        end = year.end()
    if before := _RELATIVE_TO.search(answer[:start]):
        start = before.start()
    elif lead := _LEAD.match(answer, start):
        start = lead.end()
    return answer[start:end]
