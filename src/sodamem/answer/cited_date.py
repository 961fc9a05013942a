"""A when-question's answer dated by the evidence the reader cites.

Small models answer "When did ..." by retelling the event ("She went to the support group [E3].") or with a time
word that means nothing without its message's date ("last week [E3]"). The memory knows when each cited item
happened: a cited fact's occurrence, else the time a cited turn's words resolve to, else the day it was said (the
offline reader's order of preference, ``offline._Reader._when``). An answer that states no calendar date of its own
is said as that date, and the model's words are kept as the answer's detail. An answer that states a date keeps
it: this dates answers, it does not overrule them. The model still chooses the evidence; the memory says its date.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sodamem.answer.dates import human_day, human_span
from sodamem.answer.spans import question_kind
from sodamem.retrieve.pack import EvidenceItem
from sodamem.retrieve.query import analyze_query

_MONTH = (
    r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|"
    r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?"
)
# A year, a month's name or an ISO date: the answer already says when, on the calendar. ("may" as a verb counts
# too: such an answer is kept as the model wrote it, the cautious side.)
_CALENDAR = re.compile(rf"\b(?:1[89]\d\d|20\d\d|{_MONTH})\b|\b\d{{4}}-\d{{2}}(?:-\d{{2}})?\b", re.IGNORECASE)
_BRACKETS = re.compile(r"\[[^\]]*\]")


@dataclass(frozen=True, slots=True)
class CitedDate:
    text: str  # the date as a person says it: "7 May 2023", "May 2023", "1 May 2023 to 7 May 2023"
    item: EvidenceItem  # the cited item it comes from
    how: str  # "occurred" (a fact's occurrence), "resolved" (a turn's time words), "said" (the day it was said)


def asks_for_a_date(question: str, now: datetime) -> bool:
    """A when-question whose answer is a point or span in time (not "how long", not "how many days")."""
    return analyze_query(question, now).asks_when and question_kind(question) not in ("how_long", "how_many")


def states_a_date(answer: str) -> bool:
    """Whether ``answer`` (outside its bracketed ids and notes) names a year, a month or an ISO date."""
    return _CALENDAR.search(_BRACKETS.sub(" ", answer)) is not None


def cited_date(cited: Sequence[EvidenceItem]) -> CitedDate | None:
    """The date of the cited items, first cited first: a fact's occurrence, else a turn's first resolved time
    word, else the day the first item was said. None without items."""
    for item in cited:
        if item.kind == "fact" and item.occurred_start:
            return CitedDate(human_span(item.occurred_start, item.occurred_end), item, "occurred")
    for item in cited:
        if item.kind == "turn" and item.times:
            first = item.times[0]
            return CitedDate(human_span(first.start, first.end), item, "resolved")
    if not cited:
        return None
    return CitedDate(human_day(cited[0].timestamp), cited[0], "said")
