"""Dates given with their weekday, for the time resolver (pure, stdlib only).

"on Saturday the 14th", "Tuesday the 3rd", "Saturday, June 21st", "Friday 13 June": the date, not the weekday alone.
A day of the month without a month is the nearest such day in the text's direction (the anchor's day counting either
way) that falls on that weekday, within two years; a month and day without a year the nearest such date on that
weekday within seven years; a year named is kept. Where the weekday never fits, this rule stands aside (the weekday
and the date are then read apart).
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from sodamem.ingest import timewords as tw
from sodamem.ingest.timewords import Context, Span
from sodamem.model import TimeGranularity

G = TimeGranularity
_ORD = r"(?:st|nd|rd|th)"
_NUMBER = rf"(?:(?P<day>3[01]|[12]\d|0?[1-9]){_ORD}?|(?P<dayword>{tw.ORDINAL_DAY_ALT}))"
_DATED_WEEKDAY = (
    rf"\b(?:on\s+)?(?P<wd>{tw.alternation(tw.WEEKDAYS)}),?\s+(?:"
    rf"the\s+(?:(?P<tday>3[01]|[12]\d|0?[1-9]){_ORD}|(?P<tdayword>{tw.ORDINAL_DAY_ALT}))(?:\s+of\s+(?P<mon1>{tw.MONTH_ALT}))?"
    rf"|(?P<mon2>{tw.MONTH_ALT})\s+(?:the\s+)?{_NUMBER}"
    rf"|(?P<nday>3[01]|[12]\d|0?[1-9]){_ORD}?\s+(?:of\s+)?(?P<mon3>{tw.MONTH_ALT}))"
    rf"(?:,?\s+{tw.YEAR})?\b"
)


def _candidates(c: Context, day: int, month: int | None) -> list[datetime]:
    """Dates with that day (and month) from the anchor's month on, the text's way: months for two years, or years for
    seven."""
    sign = 1 if c.future else -1
    now = c.anchor.year * 12 + c.anchor.month - 1
    if month is None:
        indexes = [now + sign * k for k in range(25)]
    else:
        indexes = [(c.anchor.year + sign * k) * 12 + month - 1 for k in range(8)]
    found = []
    for index in indexes:
        start = tw.month_start(index, c.anchor)
        try:
            found.append(start.replace(day=day))
        except ValueError:
            continue
    return [d for d in found if (d >= c.day if c.future else d <= c.day)]


def _dated_weekday(m: re.Match[str], c: Context) -> Span | None:
    weekday = tw.WEEKDAYS[m["wd"].lower()]
    month_word = m["mon1"] or m["mon2"] or m["mon3"]
    month = tw.MONTHS[month_word.lower()] if month_word else None
    if month_word and month_word.lower() == "may" and not m["year"] and not re.search(r"\d", m.group()):
        return None
    day = tw.day_number(m["tday"] or m["day"] or m["nday"], m["tdayword"] or m["dayword"])
    if m["year"]:
        if month is None:
            return None
        found = c.day.replace(year=tw.year_number(m["year"], c.anchor), month=month, day=day)
    else:
        fitting = [d for d in _candidates(c, day, month) if d.weekday() == weekday]
        if not fitting:
            return None
        found = fitting[0]
    return found, found + timedelta(days=1), G.DAY


# a weekday, then "the" and a digit or an ordinal's first letters, a digit, or a month's first letters
_MONTH_STEMS = "|".join(name for name in tw.MONTHS if len(name) == 3)
_NEEDS = rf"day,?\s+(?:the\s+(?:\d|fi|se|th|fo|si|ei|ni|te|el|tw)|\d|(?:{_MONTH_STEMS})[a-z]*\s)"
RULES: tuple[tw.RuleEntry, ...] = ((_DATED_WEEKDAY, _dated_weekday, _NEEDS),)
