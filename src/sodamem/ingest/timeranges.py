"""Ranges of two time expressions for the time resolver (pure, stdlib only).

"from June 1st to June 5th", "from Monday to Wednesday", "between May and July", "from 2015 to 2018", "from the 3rd
until the 5th": one interval from the start of the first to the end of the second, when both sides resolve on their
own (a bare side is read as after "on" or "in": "between May and July" is "in May" to "in July") at the same
granularity. The first side takes the direction the text gives it; the second is read against the anchor too, unless
that puts it before the first ("from Monday to Wednesday" said on a Tuesday, looking back), and then as the first one
on or after the first side's start. The range replaces whatever expressions it covers.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime

from sodamem.ingest.timewords import Span

Resolver = Callable[[str, datetime, bool], Span | None]
Found = tuple[int, int, Span]

_RANGE = re.compile(
    r"\b(?:from|between)\s+(?P<a>(?:[\w'’]+\s+){0,3}?[\w'’]+)"
    r"(?:\s+(?:to|until|till|through|thru|and)\s+|\s*[-–]\s*)(?=[\w'’])",
    re.IGNORECASE,
)
_WORD = re.compile(r"[\w'’]+(?:\s+|$)")


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
        first = _whole(m["a"], anchor, direction(m.start("a"), m.end("a")), resolve)
        if first is None:
            continue
        second = _second(text, m.end(), first, anchor, direction(m.start("a"), m.end("a")), resolve)
        if second is None:
            continue
        start, end = m.start(), second[1]
        found = [f for f in found if f[1] <= start or f[0] >= end]
        found.append((start, end, (first[0], second[2][1], first[2])))
        found.sort(key=lambda f: f[0])
    return found
