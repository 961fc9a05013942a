"""Composite English time expressions for the time resolver (pure, stdlib only).

Rule families, after the TimeML/TIMEX3 guidelines and HeidelTime's and SUTime's English rules (the conventions are
pinned down by ``sodamem/bench/time_phrases_grammar.py``):

* Before last / after next: "the week/weekend/fortnight/month/quarter/year/decade/century before last" is the calendar
  unit two back (a quarter at the year's granularity), "the month after next" two ahead; "the Friday/March/summer before
  last" is one period (a week, a year) before "last Friday/March/summer", "Friday after next" one after "next Friday";
  "the night before last / after next" is the night two days back / ahead.
* Parts of a period (TIMEX3 mod START/MID/END): early/mid/late, the beginning/start/middle/end of, the first/second
  half of + a week, month, season, year or decade. A week splits Mon-Tue/Wed-Thu/Fri-Sun, a month days 1-10/11-20/
  21-end, a season by its months, a year Jan-Apr/May-Aug/Sep-Dec, a decade years 0-3/4-6/7-9, a century years
  0-32/33-65/66-99; halves split evenly (a month at day 15). The granularity stays the period's.
* Ordinals in a month or year: "the first Monday of June", "the last weekend of August", "the second week of next
  month" (weeks are 7-day blocks from the 1st, or back from the end for "last"), "the last day of the year";
  next-to-last, second-to-last and penultimate count from the end.
* A day of the month alone, in digits or words, after on/by/until/before/after/around/since (in digits also after
  from/through/starting/beginning, and after coming/leaving/arriving): "on the 21st" is the latest 21st on or before the
  anchor's day (future: the first on or after); "on the 3rd of next month" names the month. "the week of the 15th / of
  June 5th / of Thanksgiving" is the Monday-to-Sunday week containing that day.
* Decades: "the 1990s", "the '90s", "the nineties", "the noughties" / "the aughts" (2000-2009) (two digits: the latest
  such decade begun by the anchor's year); "the 1900s" is the century once it is over (SUTime's XX00s), "the 2000s"
  said in 2023 the decade.
* Nights counted back ("two nights ago": the night starting two days before the anchor's day); "this time last
  year / next week / yesterday" is the anchor's day moved so (DAY); "in the new year" the year after the anchor's.
* Quarters ("the third quarter of 2023", "Q3"): three months at the year's granularity, as halves; one of no named
  year needs business words ("sales were flat in the third quarter"), since a game has quarters too. "last / this /
  next quarter" (no "the" before, no "of" after) is the calendar quarter before, containing or after the anchor's.
* Weekdays and seasons counted: "two Sundays ago" is the Sunday before last Sunday, "two summers ago" the summer
  before last summer, "three Fridays from now" two weeks after next Friday.
* A count of units from a named day is a day: "a week from today", "a year ago today", "three days after
  Christmas", "two weeks from Friday" (fuzzy counts and hours are left to the basic rules); British "a week today",
  "a fortnight tomorrow", "a week on Tuesday", "Tuesday week" and "Tuesday fortnight" count from today, tomorrow or
  next Tuesday.
* "this day last year" is "this time last year".

Composite rules resolve their inner phrase ("last Friday", "next month", "in 2022") through the basic rules.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from sodamem.ingest import timeguards, timeholidays
from sodamem.ingest import timewords as tw
from sodamem.ingest.timewords import Context, Span
from sodamem.model import TimeGranularity

G = TimeGranularity
_SEASON = "summer|winter|spring|fall|autumn"
_WEEKDAY = tw.alternation(tw.WEEKDAYS)
_DECADE_WORDS = {f"{stem}ties": tens for tens, stem in enumerate("twen thir for fif six seven eigh nine".split(), 2)}
_DECADE_WORDS |= {"noughties": 0, "naughties": 0, "aughts": 0}  # 2000-2009
_DECADE = rf"(?:(?:1\d|20)?\d0|['’]\d0)['’]?s|{tw.alternation(_DECADE_WORDS)}"
_YEAR = r"(?:19|20)\d\d(?!\d)"
_REL = r"(?:this|last|next|past|coming)"


# --- before last / after next


def _before_after(m: re.Match[str], c: Context) -> Span | None:
    what, back = m["x"].lower(), m["dir"].lower().startswith("before")
    sign = -1 if back else 1
    if what == "night":  # the night two days back / ahead
        low, high = tw.PARTS["night"]
        evening = c.day + timedelta(days=2 * sign)
        return evening + timedelta(hours=low), evening + timedelta(hours=high), G.DAY
    if what == "weekend":
        saturday = tw.floor(c.anchor, "week") + timedelta(days=5 + 14 * sign)
        return saturday, saturday + timedelta(days=2), G.WEEK
    if what == "fortnight":  # two calendar weeks, two fortnights back / ahead of this week
        monday = tw.floor(c.anchor, "week") + timedelta(weeks=-4 if back else 3)
        return monday, monday + timedelta(weeks=2), G.WEEK
    if what == "quarter":  # calendar quarters, two back / ahead of the anchor's
        start = tw.month_start((c.anchor.year * 12 + c.anchor.month - 1) // 3 * 3 + 6 * sign, c.anchor)
        return start, tw.add_months(start, 3), G.YEAR
    if what in ("week", "month", "year", "decade", "century"):
        start = tw.shift(tw.floor(c.anchor, what), what, 2 * sign)
        return start, tw.shift(start, what, 1), tw.UNIT_GRANULARITY[what]
    nearest = c.resolve(("last " if back else "next ") + m["x"])
    if nearest is None:
        return None
    start, end, gran = nearest
    if what in tw.WEEKDAYS:
        return start + timedelta(weeks=sign), end + timedelta(weeks=sign), gran
    return tw.add_months(start, 12 * sign), tw.add_months(end, 12 * sign), gran


_BEFORE_AFTER = (
    rf"\b(?:the\s+)?(?P<x>night|week(?:end)?|fortnight|month|quarter|year|decade|century|{_WEEKDAY}|{tw.MONTH_ALT}|{_SEASON})"
    r"\s+(?P<dir>before\s+last|after\s+next)\b"
)


# --- parts of a period: early/mid/late, the beginning/middle/end of, the first/second half of

# Month offsets of the thirds of a season, year, decade (years 0-3/4-6/7-9) and century (years 0-32/33-65/66-99).
_THIRD_MONTHS = {
    3: ((0, 1), (1, 2), (2, 3)),
    12: ((0, 4), (4, 8), (8, 12)),
    120: ((0, 48), (48, 84), (84, 120)),
    1200: ((0, 396), (396, 792), (792, 1200)),
}
_THIRDS = {"early": 0, "beginning": 0, "start": 0, "mid": 1, "middle": 1, "late": 2, "end": 2}
_PERIOD = (
    rf"{_REL}\s+(?:week|month|year|decade|{_SEASON}|{tw.MONTH_ALT})\b|the\s+(?:week|month|year|decade|century)\b"
    rf"|(?:the\s+)?(?:{_DECADE})|(?:the\s+)?(?:{_SEASON})(?:,?\s+(?:of\s+)?{_YEAR})?"
    rf"|(?:{tw.MONTH_ALT})(?:,?\s+(?:of\s+)?{_YEAR})?|{_YEAR}"
)
_PART_OF = (
    r"\b(?:(?P<prep>in|at|during|by|until|till|from|around|towards?|through)\s+)?(?:the\s+)?(?:very\s+)?"
    r"(?P<part>early|mid|late|(?:beginning|start|middle|end)\s+of|(?P<half>first|second|latter|front|back)\s+half\s+of)"
    rf"(?:\s+in)?[\s-]+(?P<rest>{_PERIOD})"  # "early in the year" is early this year
)
# "I was late last week", "we got up early this morning": early/late as a predicate, not a part of the period ("rent
# goes up early next month" is one).
_PREDICATE_BEFORE = re.compile(
    r"\b(?:am|is|are|was|were|be|been|being|too|so|very|quite|(?:g[eo]t\w*|wak\w*|woke|stay\w*)\s+up|run|ran|running"
    r"|get|got|getting|arrived?|came|come"
    r"|stay(?:ed)?|work(?:ed)?|woke|left|leave|start(?:ed)?|finish(?:ed)?|slept)\s+$|['’](?:m|re|s)\s+$",
    re.IGNORECASE,
)


def _inner_phrase(rest: str) -> str:
    """The phrase the basic rules resolve for a period after a part word ("the year" -> "this year")."""
    words = rest.lower().split()
    if words[0] == "the" and words[-1] in ("week", "month", "year", "decade", "century"):
        return "this " + words[-1]
    if re.fullmatch(_DECADE, words[-1]):
        return "the " + words[-1]
    if words[0] in ("this", "last", "next", "past", "coming"):
        return rest
    return "in " + rest


def narrow(span: Span, piece: int, pieces: int) -> Span | None:
    """Piece ``piece`` (from 0) of ``pieces`` (3: early/mid/late, 2: halves) of a week, month, season, year, decade or
    century span; None for other spans (and for halves of a week)."""
    start, end, gran = span
    if end - start == timedelta(weeks=1):
        if pieces != 3:
            return None
        low, high = ((0, 2), (2, 4), (4, 7))[piece]
        return start + timedelta(days=low), start + timedelta(days=high), gran
    months = (end.year - start.year) * 12 + end.month - start.month
    if start.day != 1 or end.day != 1 or (months != 1 and months not in _THIRD_MONTHS):
        return None
    if months == 1:
        days = (end - start).days
        low, high = ((0, 15), (15, days))[piece] if pieces == 2 else ((0, 10), (10, 20), (20, days))[piece]
        return start + timedelta(days=low), start + timedelta(days=high), gran
    low, high = ((0, months // 2), (months // 2, months))[piece] if pieces == 2 else _THIRD_MONTHS[months][piece]
    return tw.add_months(start, low), tw.add_months(start, high), gran


# An age, not a decade: "in his early thirties", "her late 20s"; a decade in words after a part needs "the".
_POSSESSIVE_BEFORE = re.compile(r"\b(?:my|your|his|her|our|their)\s+$", re.IGNORECASE)


def _part_of(m: re.Match[str], c: Context) -> Span | None:
    part = m["part"].lower().split()[0]
    if re.fullmatch(_DECADE, m["rest"].lower()) and (
        _POSSESSIVE_BEFORE.search(c.text, max(0, m.start() - 8), m.start())
        or (m["rest"][0].isalpha() and not m.group().lower().startswith(("the", "in the", "at the", "during the")))
    ):
        return None
    if (
        not m["prep"]
        and part in ("early", "late")
        and _PREDICATE_BEFORE.search(c.text, max(0, m.start() - 16), m.start())
    ):
        return None
    span = c.resolve(_inner_phrase(m["rest"]))
    if span is None:
        return None
    if m["half"]:
        return narrow(span, 0 if m["half"].lower() in ("first", "front") else 1, 2)
    return narrow(span, _THIRDS[part], 3)


# --- ordinals inside a month or year

_ORDINALS = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4, "fifth": 5}
_ORDINALS |= {"5th": 5, "last": -1, "final": -1, "penultimate": -2, "second to last": -2, "next to last": -2}
_ORDINAL = (  # "the" may go in chat: "last week of June", "first Monday of next month"
    r"\b(?:(?:on|in|during|over|for)\s+)?(?:the\s+)?"
    r"(?P<ord>(?:second|next)[\s-]+to[\s-]+last|first|1st|second|2nd|third|3rd|fourth|4th|fifth|5th|last|final"
    rf"|penultimate)\s+(?P<what>{_WEEKDAY}|week(?:end)?|day)\s+(?:of|in)\s+"
    rf"(?P<rest>{_REL}\s+(?:month|year|{tw.MONTH_ALT})\b|the\s+(?:month|year)\b"
    rf"|(?:{tw.MONTH_ALT})(?:,?\s+(?:of\s+)?{_YEAR})?|{_YEAR})"
)


def _ordinal(m: re.Match[str], c: Context) -> Span | None:
    container = c.resolve(_inner_phrase(m["rest"]))
    if container is None or container[2] not in (G.MONTH, G.YEAR):
        return None
    n, what = _ORDINALS[" ".join(m["ord"].lower().replace("-", " ").split())], m["what"].lower()
    span = _nth_in(container[0], container[1], n, what)
    bare_month = m["rest"].split()[0].lower() in tw.MONTHS and not re.search(r"\d", m["rest"])
    # a bare month: like a date without a year, the latest on or before the anchor's day (future: on or after)
    if span is not None and bare_month and ((span[0] < c.day) if c.future else (span[0] > c.day)):
        step = 12 if c.future else -12
        span = _nth_in(tw.add_months(container[0], step), tw.add_months(container[1], step), n, what)
    return span


def _nth_in(start: datetime, end: datetime, n: int, what: str) -> Span | None:
    """The ``n``-th (negative: from the end) day, 7-day week, weekday or weekend of [start, end)."""
    if what in ("day", "week"):
        length = timedelta(days=1 if what == "day" else 7)
        first = start + length * (n - 1) if n > 0 else end + length * n
        if first < start or first + length > end:
            return None
        return first, first + length, G.DAY if what == "day" else G.WEEK
    weekday = 5 if what == "weekend" else tw.WEEKDAYS[what]
    if n > 0:
        day = start + timedelta(days=(weekday - start.weekday()) % 7, weeks=n - 1)
    else:
        last = end - timedelta(days=1)
        day = last - timedelta(days=(last.weekday() - weekday) % 7, weeks=-n - 1)
    if not start <= day < end:
        return None
    return (day, day + timedelta(days=2), G.WEEK) if what == "weekend" else (day, day + timedelta(days=1), G.DAY)


# --- a day of the month alone

_DAY_OF_MONTH = (
    # after a preposition, "since" or a particle of coming and going ("heading back the 12th"), opening a sentence
    # ("the 28th was my birthday"), or with its month named ("the 1st of next month")
    r"\b(?:(?:on|by|until|till|before|after|around)\s+|(?:from|through|starting|beginning)\s+(?=the\s+\d)"
    r"|(?<=since\s)|(?<=back\s)"
    r"|(?<=home\s)|(?<=due\s)|(?<=coming\s)|(?<=leaving\s)|(?<=arriving\s)"
    r"|(?:^|(?<=[.!?]\s))(?=the\s+\S+\s+(?:was|is|will|works|suits)\b)"
    r"|(?=the\s+\S+\s+of\s+(?:this|last|next)\s+month))"
    rf"the\s+(?:(?P<day>3[01]|[12]\d|0?[1-9])(?:st|nd|rd|th)|(?P<dayword>{tw.ORDINAL_DAY_ALT}))"
    r"(?:\s+of\s+(?P<rel>this|last|next)\s+month)?"
    r"(?=\s*(?:$|[.,;:!?)]|(?:at|and|or|but|so|because|when|while|as|if|then|too|for|in|with|we|i|you|he|she|they"
    r"|it|my|our|this|last|next|was|is|will|works|suits"
    # the event's outcome said after its date ("surgery on the 27th went well"): past forms only, as a modal or a
    # present after it leaves the direction open ("dinner on the 22nd could be fun") and follows ordinals too ("on
    # the 3rd can of red bull", "the guy on the 3rd has a dog")
    r"|went|got|had|did|turned|ended|came\s+back|wasn['’]t)\b))"
)


def _day_of_month(m: re.Match[str], c: Context) -> Span | None:
    """On the 21st: the latest 21st on or before the anchor's day (future: the first on or after)."""
    day_number, this_month = tw.day_number(m["day"], m["dayword"]), c.anchor.year * 12 + c.anchor.month - 1
    if m["rel"]:
        months = [this_month + {"this": 0, "last": -1, "next": 1}[m["rel"].lower()]]
    else:
        months = [this_month + step for step in (range(4) if c.future else range(0, -4, -1))]
    for index in months:
        month_start = tw.month_start(index, c.anchor)
        day = month_start + timedelta(days=day_number - 1)
        if day.month != month_start.month:
            continue  # no 31st in April
        if m["rel"] or ((day >= c.day) if c.future else (day <= c.day)):
            return day, day + timedelta(days=1), G.DAY
    return None


# --- decades


def _decade(m: re.Match[str], c: Context) -> Span | None:
    """The 1990s; the '90s and the nineties: the latest such decade begun by the anchor's year. "The 1900s" is a
    century (as SUTime reads XX00s) once that century is over; "the 2000s" said in 2023 is the decade."""
    if timeguards.decade_names_no_time(c.text, m.start(), m.end()):
        return None
    words = (m["dec"] or m["dec4"]).lower()
    digits = re.sub(r"\D", "", words)
    if len(digits) == 4:
        first = int(digits)
        years = 100 if first % 100 == 0 and first + 100 <= c.anchor.year else 10
    else:
        tens = _DECADE_WORDS[words] if words in _DECADE_WORDS else int(digits[0])
        first, years = c.anchor.year - (c.anchor.year - 10 * tens) % 100, 10
    start = c.day.replace(year=first, month=1, day=1)
    return start, start.replace(year=first + years), G.YEAR


# --- a count of units from a named day: "a week from today", "a year ago today", "two days before Christmas"

_DAY_WORDS = ("today", "tonight", "tomorrow", "yesterday")
_SHIFTED = (
    rf"\b{tw.COUNT}{tw.UNIT}{tw.HALF_AFTER}\s+(?:(?P<ago>ago|back)\s+(?:today|tonight)"
    rf"|(?P<side>from|after|before)\s+(?P<base>{'|'.join(_DAY_WORDS)}|(?:(?:this|last|next)\s+)?(?:{_WEEKDAY})"
    rf"|{timeholidays.NAME_ALT})"
    # British: "a week today", "a fortnight tomorrow", "a week on Tuesday" (from next Tuesday); "Tuesday week" below
    rf"|(?P<brit>today|tomorrow|on\s+(?P<bwd>{_WEEKDAY})))\b"
)


def _shifted(m: re.Match[str], c: Context) -> Span | None:
    """The day ``N units`` before or after a day the basic rules resolve (today unless a base is named)."""
    _, count, fuzzy, half = tw.quantity(m)
    unit = tw.unit_name(m["unit"])
    if fuzzy or unit == "hour" or (m["brit"] and unit not in ("week", "fortnight", "month", "year")):
        return None
    base = ("next " + m["bwd"] if m["bwd"] else m["base"] or m["brit"] or "today").lower()
    ahead = c.future
    if base.split()[0] not in (*_DAY_WORDS, "this", "last", "next"):
        # a bare weekday or holiday needs its preposition to be read as a time; counted "from", it is the one a
        # future sentence would name ("a fortnight from Tuesday", as "a week from Monday")
        ahead = ahead or (m["side"] or "").lower() == "from"
        base = "on " + base
    day = c.phrase_resolver(base, c.anchor, ahead)
    if day is None or day[2] is not G.DAY:
        return None
    sign = -1 if m["ago"] or (m["side"] or "").lower() == "before" else 1
    start = tw.floor(tw.moved(tw.floor(day[0], "day"), unit, count, half, sign), "day")
    return start, start + timedelta(days=1), G.DAY


# --- the week of a day: "the week of the 15th", "the week of June 5th", "the week of Thanksgiving"

_DATE_WORDS = rf"(?:\d{{1,2}}(?:st|nd|rd|th)?|{tw.ORDINAL_DAY_ALT})"
_WEEK_OF = (
    rf"\b(?:(?:in|during|over|for|on|at)\s+)?the\s+(?P<unit>week(?:end)?)\s+of\s+(?P<rest>(?:the\s+{_DATE_WORDS}(?:\s+of\s+(?:{tw.MONTH_ALT}))?"
    rf"|(?:{tw.MONTH_ALT})\s+{_DATE_WORDS}|{_DATE_WORDS}\s+(?:of\s+)?(?:{tw.MONTH_ALT})|{timeholidays.NAME_ALT})"
    r"(?:,?\s+(?:19|20)\d\d)?)\b"  # "the week of 9 June 2023": the year belongs to the day
)


def _week_of(m: re.Match[str], c: Context) -> Span | None:
    """The Monday-to-Sunday week containing the day named after "the week of"; for "the weekend of", the weekend
    touching it (as for "Memorial Day weekend")."""
    rest = m["rest"]
    day = c.resolve(rest if rest[0].isdigit() or rest.split()[0].lower() in tw.MONTHS else "on " + rest)
    if day is None or day[2] is not G.DAY:
        return None
    if m["unit"].lower() == "weekend":
        saturday = timeholidays.saturday_near(tw.floor(day[0], "day"), "")
        return saturday, saturday + timedelta(days=2), G.WEEK
    monday = tw.floor(day[0], "week")
    return monday, monday + timedelta(weeks=1), G.WEEK


# --- weekdays and seasons counted: "two Sundays ago", "three Fridays from now", "two summers ago", "Tuesday week"

_WEEKDAYS_COUNTED = (
    rf"\b(?:(?P<n>{tw.NUM})\s+(?P<wd>{_WEEKDAY}|{_SEASON})s\s+(?P<dir>ago|back|from\s+now)\b"
    # "Tuesday week" / "Tuesday fortnight" (British): a week / two after next Tuesday
    rf"|(?P<wdw>{_WEEKDAY})\s+(?P<wk>week|fortnight)\b(?![\w'’-]))"
)


def _weekdays_counted(m: re.Match[str], c: Context) -> Span | None:
    """The n-th such weekday or season back (last Sunday, last summer is one ago) or ahead (next Friday is one from
    now)."""
    if m["wdw"]:
        day = c.resolve("next " + m["wdw"])
        step = timedelta(weeks=2 if m["wk"].lower() == "fortnight" else 1)
        return None if day is None else (day[0] + step, day[1] + step, day[2])
    n, _, fuzzy = tw.count(m["n"])
    if fuzzy or n < 1:
        return None
    back = not m["dir"].lower().startswith("from")
    nearest = c.resolve(("last " if back else "next ") + m["wd"])
    if nearest is None:
        return None
    sign = -1 if back else 1
    if m["wd"].lower() in tw.SEASONS:
        return (
            tw.add_months(nearest[0], 12 * sign * (n - 1)),
            tw.add_months(nearest[1], 12 * sign * (n - 1)),
            nearest[2],
        )
    step = timedelta(weeks=(n - 1) * sign)
    return nearest[0] + step, nearest[1] + step, nearest[2]


# --- the same time of another day ("this time last year"), nights counted back, "in the new year", quarters

_THIS_TIME = r"\bthis\s+(?:time|day)\s+(?:(?P<rel>last|next)\s+(?P<unit>week|month|year)|(?P<day>yesterday|tomorrow))\b"


def _this_time(m: re.Match[str], c: Context) -> Span:
    """The anchor's calendar day moved by a day, week, month or year (a day: "this time" is no finer in chat)."""
    if m["day"]:
        day = c.day + timedelta(days=1 if m["day"].lower() == "tomorrow" else -1)
    else:
        day = tw.shift(c.day, m["unit"].lower(), 1 if m["rel"].lower() == "next" else -1)
    return day, day + timedelta(days=1), G.DAY


_NIGHTS_AGO = rf"\b(?P<n>{tw.NUM})\s+nights?\s+ago\b"


def _nights_ago(m: re.Match[str], c: Context) -> Span | None:
    """The night (18:00 to 06:00) that starts N days before the anchor's day, as "last night" is one night ago."""
    n, _, fuzzy = tw.count(m["n"])
    if fuzzy or n < 1:
        return None
    low, high = tw.PARTS["night"]
    evening = c.day - timedelta(days=n)
    return evening + timedelta(hours=low), evening + timedelta(hours=high), G.DAY


def _new_year(m: re.Match[str], c: Context) -> Span:
    """ "in the new year": the calendar year after the anchor's."""
    start = c.day.replace(year=c.anchor.year + 1, month=1, day=1)
    return start, start.replace(year=start.year + 1), G.YEAR


_QUARTERS = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4, "last": 4}
_QUARTER = (
    r"\b(?:(?:in|during|for|over)\s+)?(?:the\s+(?P<q>first|1st|second|2nd|third|3rd|fourth|4th|last|final)\s+quarter"
    rf"|q(?P<qn>[1-4]))(?:\s+of\s+(?P<rest>{_REL}\s+year|the\s+year|{_YEAR})|\s+(?P<year>{_YEAR}))?\b"
    # "next quarter", "this quarter", "last quarter": calendar quarters from the anchor's ("the last quarter of ..." is
    # the ordinal above, or a game's)
    rf"|\b(?<!the\s)(?P<rel>{_REL})\s+quarter\b(?!\s+(?:of|mile|hour|inch|pound|note|century)\b)"
)
# A quarter of no named year is a business quarter only among business words ("the third quarter" of a game is not).
_BUSINESS = re.compile(
    r"\b(?:sales|revenue|earnings|profits?|fiscal|financial|quarterly|results|growth|numbers|budget|targets?|report)\b",
    re.IGNORECASE,
)


def _quarter(m: re.Match[str], c: Context) -> Span | None:
    """A quarter of a year, three months at the year's granularity (as halves keep it); with no year named, the
    anchor's year's, or the nearest one the tense points to."""
    if m["rel"]:
        step = {"last": -1, "past": -1, "this": 0}.get(m["rel"].lower(), 1)
        start = tw.month_start((c.anchor.year * 12 + c.anchor.month - 1) // 3 * 3 + 3 * step, c.anchor)
        return start, tw.add_months(start, 3), G.YEAR
    word = (m["q"] or "").lower()
    quarter = int(m["qn"]) if m["qn"] else _QUARTERS.get(word, 4)
    if m["rest"] or m["year"]:
        year_span = c.resolve(_inner_phrase(m["rest"] or m["year"]))
        if year_span is None or year_span[2] is not G.YEAR:
            return None
        year = year_span[0].year
    elif word in ("last", "final") or not (m["qn"] or _BUSINESS.search(c.text)):
        return None  # "the last quarter" is as often the previous one; "the third quarter" of a game
    else:
        year = c.anchor.year
        start = tw.month_start(year * 12 + 3 * (quarter - 1), c.anchor)
        if not c.future and start > c.anchor:
            year -= 1
        elif c.future and tw.add_months(start, 3) <= c.anchor:
            year += 1
    start = tw.month_start(year * 12 + 3 * (quarter - 1), c.anchor)
    return start, tw.add_months(start, 3), G.YEAR


RULES: tuple[tw.RuleEntry, ...] = (
    (_THIS_TIME, _this_time, r"this\s+(?:time|day)\s"),
    (_NIGHTS_AGO, _nights_ago, r"nights?\s+ago"),
    (r"\b(?:in|into|after|until|till|by|for)\s+the\s+new\s+year\b", _new_year, r"new\s+year"),
    (_QUARTER, _quarter, r"quarter|q[1-4]"),
    (
        _SHIFTED,
        _shifted,
        r"\b(?:(?:ago|back)\s+to|(?:day|week|wk|fortnight|month|mo|year|yr|decade|centur(?:y|ie))s?\s+(?:from|after|before)\s"
        r"|(?:week|fortnight|month|year)\s+(?:today|tomorrow|on\s))",
    ),
    (_BEFORE_AFTER, _before_after, r"before\s+last|after\s+next"),
    (_PART_OF, _part_of, r"\b(?:early|mid|late|(?:beginning|start|middle|end|half)\s+of)"),
    (_ORDINAL, _ordinal, r"(?:first|second|third|fourth|fifth|1st|2nd|3rd|4th|5th|last|final|penultimate)\s"),
    (_DAY_OF_MONTH, _day_of_month, r"\d(?:st|nd|rd|th)|the\s+(?:fi|se|th|fo|si|ei|ni|te|el|tw)"),
    (_WEEK_OF, _week_of, r"week(?:end)?\s+of\s"),
    (_WEEKDAYS_COUNTED, _weekdays_counted, r"[sy]\s+(?:ago|back|from|week|fortnight)\b"),
    (rf"\b(?:the\s+(?P<dec>{_DECADE})|(?P<dec4>(?:1\d|20)\d0['’]?s))\b", _decade, r"0['’]?s|ties|aughts"),
)
