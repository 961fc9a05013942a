"""Clock times, ranges of days, ISO weeks and dotted dates for the time resolver (pure, stdlib only).

* A clock time next to a day narrows it to the hour from that time, [h:mm, h:mm + 1 hour), at DAY: "Monday at 8pm",
  "tomorrow at 7:30am", "March 2nd at 11am", "at midday tomorrow", "at 4pm on the 9th", "tonight at 9". "noon" /
  "midday" is 12:00. An hour without am/pm is read in the afternoon or evening when the day is narrowed to one
  ("tonight at 9" is 21:00), else 1-6 as pm and 7-12 as they stand (a heuristic: "Monday at 8" is the morning).
  Only "at" / "@" joins a clock time to a day (:func:`narrow_to_clock`, run after the rules).
* A range of days of the month, "the 3rd-5th", "the 12th until the 15th", "Aug 4-8", "8-12 March", runs from the first
  day's midnight to the midnight after the last (DAY); the first day is read as "on the 3rd" / "on Aug 4" would be,
  and a last day before the first is in the next month. A dash range needs an ordinal on its second day or a month
  ("pages 3-7", "a 3-1 win" are none); one with to/till/until/through needs ordinals on both.
* A range of weekdays with a dash or a word, "Tue-Thu", "Fri-Sun next week", "Tuesday thru Thursday": from the first
  day, as "on Monday" (or the named week's) is read, through the second; with a word, an abbreviation before it must
  be capitalised ("sat through the film" is a verb).
* ISO weeks, "2024-W21" / "2024W21": Monday to Monday (WEEK).
* Dotted dates are day.month.year, "07.03.1990" (the European order dots are written in); a four-digit year is needed,
  so section numbers ("3.4"), scores ("4.5") and versions ("v1.2.2023") are none.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from sodamem.ingest import timewords as tw
from sodamem.ingest.timewords import Context, Span
from sodamem.model import TimeGranularity

G = TimeGranularity
Found = tuple[int, int, Span]

CLOCK = (
    r"(?:(?P<h>1[0-2]|0?[1-9])(?::(?P<mi>[0-5]\d))?\s*(?P<ap>[ap])\.?m\b\.?"
    r"|(?P<h24>[01]?\d|2[0-3]):(?P<mi24>[0-5]\d)(?![\d:])"
    r"|(?P<hb>1[0-2]|0?[1-9])(?![\d:.,/]|\s*(?:%|percent|people|of|or|to|and|-))"
    r"|(?P<noon>noon|midday))"
)
_CLOCK_AFTER = re.compile(rf"\s+(?:at|@)\s+{CLOCK}", re.IGNORECASE)
_CLOCK_BEFORE = re.compile(rf"\b(?:at|@)\s+{CLOCK}\s+(?:on\s+)?$", re.IGNORECASE)


def _hour_minute(m: re.Match[str], evening: bool) -> tuple[int, int]:
    """The hour and minute of a :data:`CLOCK` match (``evening``: the day was narrowed to its afternoon or night)."""
    if m["noon"]:
        return 12, 0
    if m["h24"]:
        return int(m["h24"]), int(m["mi24"])
    if m["ap"]:
        hour = int(m["h"]) % 12 + (12 if m["ap"].lower() == "p" else 0)
        return hour, int(m["mi"] or 0)
    hour = int(m["hb"])
    if hour < 12 and (evening or hour <= 6):
        hour += 12
    return hour, 0


def narrow_to_clock(text: str, found: list[Found]) -> list[Found]:
    """``found`` with each day (or part of one) that a clock time joins ("Monday at 8pm", "at midday tomorrow")
    narrowed to the hour from that time, the clock's words taken into the expression."""
    out: list[Found] = []
    for index, (start, end, (lo, hi, gran)) in enumerate(found):
        if gran is not G.DAY or hi - lo > timedelta(days=1):
            out.append((start, end, (lo, hi, gran)))
            continue
        after = _CLOCK_AFTER.match(text, end)
        before = None if after else _CLOCK_BEFORE.search(text, max(0, start - 24), start)
        clock = after or before
        next_start = found[index + 1][0] if index + 1 < len(found) else len(text)
        previous_end = out[-1][1] if out else 0
        if clock is None or (after and after.end() > next_start) or (before and before.start() < previous_end):
            out.append((start, end, (lo, hi, gran)))
            continue
        hour, minute = _hour_minute(clock, lo.hour >= 12)
        at = tw.floor(lo, "day") + timedelta(hours=hour, minutes=minute)
        if at < lo:
            at += timedelta(days=1)  # "tonight at 1am"
        if not lo <= at < hi:
            out.append((start, end, (lo, hi, gran)))
            continue
        span = (at, at + timedelta(hours=1), G.DAY)
        out.append((before.start(), end, span) if before else (start, after.end() if after else end, span))
    return out


# --- ranges of days of the month and of weekdays

_D = r"(?:3[01]|[12]\d|0?[1-9])"
_ORD = r"(?:st|nd|rd|th)"
_WORD_SEP = r"\s+(?:to|till|til|until|through|thru)\s+"
_DAY_RANGE = (
    rf"\b(?:(?:on|for)\s+)?(?:(?P<mon0>{tw.MONTH_ALT})\.?\s+(?P<a0>{_D}){_ORD}?\s*[-–]\s*(?P<b0>{_D})(?P<o0>{_ORD})?"
    # "august, the 8th to the 15th": the month said first
    rf"|(?:(?P<monb>{tw.MONTH_ALT}),?\s+)?"
    rf"(?:the\s+)?(?P<a>{_D})(?P<oa>{_ORD})?(?P<sep>\s*[-–]\s*|{_WORD_SEP})(?:the\s+)?(?P<b>{_D})(?P<ob>{_ORD})?"
    rf"(?:\s+(?:of\s+)?(?P<mon>{tw.MONTH_ALT}))?)\b(?![-/.:]\d)"
    # ranks and grades are no days: "1st-3rd place", "the 1st-2nd grade teacher"
    r"(?!\s+(?:grade|graders?|place|floor|year|round|gen\w*|edition|period|quarter|half|century|row|class|team)s?\b)"
)


_AGES_BEFORE = re.compile(r"\b(?:aged|ages|age|between)\s*$", re.IGNORECASE)


def _day_range(m: re.Match[str], c: Context) -> Span | None:
    if m["mon0"]:
        month, first, last = m["mon0"], int(m["a0"]), int(m["b0"])
    else:
        month, first, last = m["mon"] or m["monb"], int(m["a"]), int(m["b"])
        words = m["sep"].strip() not in ("-", "–", "")
        ordinals = bool(m["oa"] and m["ob"])
        if m["monb"] and not m["mon"] and not ordinals:
            return None  # "in April, 3-1 to us", "since January, 3-4 times a week": a month, then a count
        if words and not ordinals and not (m["mon"] and last > first):
            return None  # "3 to 5 people", "10 to 4 April"; "26 to 29 june" is days
        if words and not ordinals and _AGES_BEFORE.search(c.text, 0, m.start()):
            return None  # "kids aged 7 to 11 september through july"
        if not (m["ob"] or month or (words and m["oa"])):
            return None  # "pages 3-7", "a 3-1 win"
    if month and month.lower() == "may" and month[0] == "m":
        return None
    day = c.resolve(f"on {month} {first}" if month else f"on the {first}{_ordinal_suffix(first)}")
    if day is None or day[2] is not G.DAY or last == first:
        return None
    start = tw.floor(day[0], "day")
    if last > first:
        end = start + timedelta(days=last - first + 1)
    else:  # "the 30th-2nd": into the next month
        end = tw.add_months(start.replace(day=1), 1).replace(day=last) + timedelta(days=1)
    if end.month != start.month and last > first and end.day != 1:
        return None  # "Feb 20-31"
    return start, end, G.DAY


def _ordinal_suffix(n: int) -> str:
    """The ordinal suffix of ``n`` ("st" for 1 and 21, "th" for 11)."""
    if 10 <= n % 100 <= 20:
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


_WEEKDAY_INDEX = tw.WEEKDAYS | tw.WEEKDAY_ABBREVIATIONS | {"weds": 2}
_WEEKDAY_NAMES = "monday tuesday wednesday thursday friday saturday sunday".split()
_WEEKDAY_RANGE = (
    rf"\b(?:(?:on|from)\s+)?(?P<w1>{tw.WEEKDAY_ALT})\.?(?:\s*[-–]\s*|(?P<word>{_WORD_SEP}))(?P<w2>{tw.WEEKDAY_ALT})\b\.?"
    r"(?:\s+(?P<rel>next|this|last)\s+week\b)?"
)


def _weekday_range(m: re.Match[str], c: Context) -> Span | None:
    first, last = _WEEKDAY_INDEX[m["w1"].lower()], _WEEKDAY_INDEX[m["w2"].lower()]
    if first == last:
        return None
    if m["word"] and not (m["w1"].lower() in tw.WEEKDAYS or m["w1"][0].isupper()):
        return None  # "sat through Monday's lecture": a verb, not "Sat."
    if m["rel"]:
        monday = tw.floor(c.anchor, "week") + timedelta(weeks={"next": 1, "this": 0, "last": -1}[m["rel"].lower()])
        start = monday + timedelta(days=first)
    else:
        day = c.resolve("on " + _WEEKDAY_NAMES[first])
        if day is None:
            return None
        start = tw.floor(day[0], "day")
    return start, start + timedelta(days=(last - first) % 7 + 1), G.DAY


# --- ISO weeks and dotted dates

_ISO_WEEK = r"\b(?:(?:in|during|for|by)\s+)?(?P<y>(?:19|20)\d\d)-?W(?P<w>[0-5]\d)\b"


def _iso_week(m: re.Match[str], c: Context) -> Span | None:
    monday = date.fromisocalendar(int(m["y"]), int(m["w"]), 1)
    start = c.day.replace(year=monday.year, month=monday.month, day=monday.day)
    return start, start + timedelta(weeks=1), G.WEEK


_DOTTED = (
    r"\b(?:(?:on|dated|from|since|until|by)\s+)?(?<![\d.])(?P<d>3[01]|[12]\d|0?[1-9])\.(?P<mo>1[0-2]|0?[1-9])\."
    r"(?P<y>(?:19|20)\d\d)(?!\d|\.\d)"
)
_VERSION_BEFORE = re.compile(r"(?:\bv|version\s+|release\s+|section\s+|§\s*)$", re.IGNORECASE)


def _dotted(m: re.Match[str], c: Context) -> Span | None:
    if _VERSION_BEFORE.search(c.text, max(0, m.start("d") - 10), m.start("d")):
        return None
    start = c.day.replace(year=int(m["y"]), month=int(m["mo"]), day=int(m["d"]))
    return start, start + timedelta(days=1), G.DAY


RULES: tuple[tw.RuleEntry, ...] = (
    (
        _DAY_RANGE,
        _day_range,
        r"\d(?:st|nd|rd|th)?\s*[-–]\s*\d|\d(?:st|nd|rd|th)?\s+(?:to|till|til|until|through|thru)\s",
    ),
    (
        _WEEKDAY_RANGE,
        _weekday_range,
        r"(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?(?:\s*[-–]\s*|\s+(?:to|till|til|until|through|thru)\s+)"
        r"(?:mon|tue|wed|thu|fri|sat|sun)",
    ),
    (_ISO_WEEK, _iso_week, r"\d-?w\d"),
    (_DOTTED, _dotted, r"\d\.\d{1,2}\.\d"),
)


def clock_may_join(lowered: str) -> bool:
    """The cheap check before :func:`narrow_to_clock`: an "at" or "@", and a digit or noon."""
    return ("at " in lowered or "@" in lowered) and (
        "noon" in lowered or "midday" in lowered or any(ch.isdigit() for ch in lowered)
    )
