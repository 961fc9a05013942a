"""Ranges of two time expressions for the time resolver (pure, stdlib only).

"from June 1st to June 5th", "from Monday to Wednesday", "between May and July", "from 2015 to 2018", "from the 3rd
until the 5th": one interval from the start of the first to the end of the second, when both sides resolve on their
own (a bare side is read as after "on" or "in": "between May and July" is "in May" to "in July") at the same
granularity. The first side takes the direction the text gives it; the second is read against the anchor too, unless
that puts it before the first ("from Monday to Wednesday" said on a Tuesday, looking back), and then as the first one
on or after the first side's start. A bare day of the month before a side that names its month takes that month
("from the 3rd to the 7th of March" is March 3-7). The range replaces whatever expressions it covers.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime, timedelta

from sodamem.ingest.timewords import MONTH_ALT, Span, add_months, day_start

Resolver = Callable[[str, datetime, bool], Span | None]
Found = tuple[int, int, Span]

_RANGE = re.compile(
    r"\b(?:from|between)\s+(?P<a>(?:[\w'’]+\s+){0,3}?[\w'’]+)"
    r"(?:\s+(?:to|until|till|through|thru|and)\s+|\s*[-–]\s*)(?=[\w'’])",
    re.IGNORECASE,
)
_WORD = re.compile(r"[\w'’]+(?:\s+|$)")
_BARE_DAY = re.compile(r"(?:the\s+)?(?P<d>3[01]|[12]\d|0?[1-9])(?:st|nd|rd|th)?", re.IGNORECASE)
_NAMES_A_MONTH = re.compile(rf"\b(?:{MONTH_ALT})\b|\b(?:19|20)\d\d\b", re.IGNORECASE)


def _in_month_of(first: Span, phrase: str, text: str, second: Found) -> Span:
    """``first`` moved into the month of ``second`` when ``phrase`` is a bare day and the second side names a month."""
    bare = _BARE_DAY.fullmatch(phrase)
    if (
        bare is None
        or not _NAMES_A_MONTH.search(text, second[0], second[1])
        or second[2][1] - second[2][0] > timedelta(days=1)
    ):
        return first
    last = day_start(second[2][0])
    try:
        day = last.replace(day=int(bare["d"]))
        if day > last:
            day = add_months(last.replace(day=1), -1).replace(day=int(bare["d"]))
    except ValueError:
        return first
    return day, day + timedelta(days=1), first[2]


def _whole(phrase: str, anchor: datetime, future: bool, resolve: Resolver) -> Span | None:
    """``phrase`` resolved as one expression, bare or after "on" / "in"."""
    for words in (phrase, "on " + phrase, "in " + phrase):
        span = resolve(words, anchor, future)
        if span is not None:
            return span
    return None


def _second(text: str, at: int, first: Span, anchor: datetime, future: bool, resolve: Resolver) -> Found | None:
    """The longest phrase of one to four words from ``at`` that resolves, when it ends after ``first`` starts and has
    its granularity."""
    ends, position = [], at
    for _ in range(4):
        word = _WORD.match(text, position)
        if word is None:
            break
        position = word.end()
        ends.append(at + len(text[at:position].rstrip()))
    for end in reversed(ends):
        phrase = text[at:end]
        span = _whole(phrase, anchor, future, resolve)
        if span is None:
            continue
        if span[1] <= first[0]:
            span = _whole(phrase, first[0], True, resolve) or span
        # the longest phrase decides: "from May to June 5th" is no range of months
        return (at, end, span) if span[2] is first[2] and span[1] > first[0] else None
    return None


def join_ranges(
    text: str, found: list[Found], anchor: datetime, direction: Callable[[int, int], bool], resolve: Resolver
) -> list[Found]:
    """``found`` (in text order, not overlapping) with each range of two expressions made one (see the module)."""
    for m in _RANGE.finditer(text):
        # the direction from "from": "the cabin is ours from the 2nd to the 4th" (after "from" a day looks back)
        first = _whole(m["a"], anchor, direction(m.start(), m.end("a")), resolve)
        if first is None:
            continue
        second = _second(text, m.end(), first, anchor, direction(m.start(), m.end("a")), resolve)
        if second is None:
            continue
        first = _in_month_of(first, m["a"], text, second)
        start, end = m.start(), second[1]
        found = [f for f in found if f[1] <= start or f[0] >= end]
        found.append((start, end, (first[0], second[2][1], first[2])))
        found.sort(key=lambda f: f[0])
    return found
