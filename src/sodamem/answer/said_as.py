"""A resolved date said with the words it was resolved from: "21 January 2022 (the Friday before 23 January 2022)".

A memory that turns "last Friday", said on 23 January 2022, into 21 January 2022 has made a reading: the person
asking cannot see which words it read, or on what day. So a when-answer that comes from a relative time word says
that word anchored on the day it was said, in the form people (and LoCoMo's annotators) write it: "the week before
9 June 2023", "two days before 8 May 2023", "the weekend after 3 June 2022". The side ("before", "after", "of") is
the one the resolver chose, read from the resolved interval, so the phrase never disagrees with the date beside it.
Only words whose reading was a choice are anchored: weeks and weekends (the calendar week, or the last seven days?),
weekdays ("last Friday" said on a Saturday) and vague counts of days ("a few days ago"). Words that name one day
("yesterday", "three days ago") and calendar names ("last May", "two years ago": "May 2023") say themselves; vague
words with no unit ("recently", "the other day") have nothing to anchor.
"""

from __future__ import annotations

import re
from datetime import timedelta

from sodamem.answer.dates import human_day
from sodamem.ingest import timewords as tw
from sodamem.retrieve.pack import ResolvedTime
from sodamem.retrieve.temporal import parse_iso

_DAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_UNITS = ("week", "weekend", "fortnight")
_COUNT = r"\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
_VAGUE_COUNT = r"a\s+few|a\s+couple\s+of|a\s+couple|several"
_LAST_NEXT_THIS = re.compile(
    rf"(?:last|next|this(?:\s+past|\s+coming)?)\s+(?P<what>{'|'.join(_UNITS)}|{tw.WEEKDAY_ALT})"
)
_COUNTED = re.compile(
    rf"(?P<ahead>in\s+)?(?:(?P<count>{_COUNT})\s+(?P<unit>(?:{'|'.join(_UNITS)})s?)"
    rf"|(?P<vague>{_VAGUE_COUNT})\s+(?P<days>days?))(?(ahead)|\s+(?:ago|back))"
)


def _named(words: str) -> str | None:
    """What the phrase calls the time the words name: "the Friday", "the week", "two weeks", "a few days"; None for
    words that leave no choice ("yesterday", "three days ago": one day) or that this does not read."""
    if match := _LAST_NEXT_THIS.fullmatch(words):
        what = match["what"]
        weekday = tw.WEEKDAYS.get(what, tw.WEEKDAY_ABBREVIATIONS.get(what))  # the resolver's own spellings
        return f"the {_DAY_NAMES[weekday] if weekday is not None else what}"
    if match := _COUNTED.fullmatch(words):
        if match["vague"]:
            return f"{' '.join(match['vague'].split())} {match['days']}"
        return f"{match['count']} {match['unit']}"
    return None


def anchored_phrase(time: ResolvedTime, said_at: str) -> str | None:
    """``time`` (a relative time word of a message, resolved) anchored on ``said_at`` (ISO), the moment the message
    was said: "last week" on 2023-06-09 -> "the week before 9 June 2023"; None for words this does not anchor
    (vague words, calendar names, the day itself)."""
    named = _named(" ".join(time.expression.lower().split()))
    start, end, said = parse_iso(time.start), parse_iso(time.end), parse_iso(said_at)
    if named is None or start is None or end is None or said is None:
        return None
    day = said.replace(hour=0, minute=0, second=0, microsecond=0, tzinfo=None)
    start, end = start.replace(tzinfo=None), end.replace(tzinfo=None)
    if end <= day:
        side = "before"
    elif start >= day + timedelta(days=1):
        side = "after"
    elif named in ("the week", "the weekend"):
        side = "of"  # "this week": the week holding the day said
    else:
        return None
    return f"{named} {side} {human_day(said_at)}"


def said_as(date_text: str, time: ResolvedTime | None, said_at: str) -> str:
    """``date_text`` with ``time``'s words anchored on ``said_at`` beside it, when they can be (else as given)."""
    phrase = anchored_phrase(time, said_at) if time is not None else None
    return f"{date_text} ({phrase})" if phrase else date_text
