"""Rule-based recognition and resolution of English time expressions (pure: no I/O, stdlib only).

``find_times(text, anchor)`` finds expressions such as "yesterday", "three weeks ago", "last summer",
"on May 8th, 2023" or "since 2019" and resolves each to a :class:`TimeSpec` [start, end) relative to ``anchor``
(the session timestamp); intervals keep the anchor's tzinfo, or its lack of one. Matching is case-insensitive.
Composite families (before last / after next, parts and ordinals of periods, days of the month, decades, quarters)
are in :mod:`sodamem.ingest.timegrammar`, holidays in :mod:`sodamem.ingest.timeholidays`, slashed dates in
:mod:`sodamem.ingest.timenumeric`, dates with their weekday ("Saturday the 14th") in :mod:`sodamem.ingest.timedates`,
chat phrasings ("first thing Monday", "the weekend just gone", years in words) in :mod:`sodamem.ingest.timechat`,
ranges of two expressions ("from June 1st to June 5th") in :mod:`sodamem.ingest.timeranges`, clock times narrowing a
day ("Monday at 8pm"), ranges of days ("the 3rd-5th", "Tue-Thu"), ISO weeks and dotted dates in
:mod:`sodamem.ingest.timeclock`, halves of a year ("H1"), centuries by ordinal, "come June", "earlier this
afternoon", "tomorrow week" and "two weeks ago Sunday" in :mod:`sodamem.ingest.timeperiods`, spoken and office phrasings
("same time next week", "midweek", "the run-up to Christmas", "EOD Friday") in :mod:`sodamem.ingest.timespeech`, the
direction an
expression looks in (tense, cue words) in :mod:`sodamem.ingest.timedirection`, and the readings that are no time ("a
Sunday league", "temps in the 60s", "Friday Night Lights") in :mod:`sodamem.ingest.timeguards`. Conventions (the
tables ``sodamem/bench/time_phrases.py``, ``time_phrases_grammar.py``, ``time_phrases_heldout.py``,
``time_phrases_blind2.py``, ``time_phrases_blind3.py``, ``time_phrases_blind4.py``, ``time_phrases_blind5.py`` and
``time_phrases_blind6.py`` pin them down):

* Weeks start on Monday; a weekend is Saturday 00:00 to Monday 00:00 (granularity WEEK).
* "N hours/days/weeks/fortnights/months/years/decades/centuries ago|back" (digits, one..ninety-nine in words, a/an;
  chat abbreviations hr/wk/mo/yr) is the whole unit containing anchor - N (a fortnight is two weeks and resolves to
  a week; a decade to a calendar decade, 2010-2019; a century to a calendar one, 1900-1999). Halves count in the
  next finer unit and resolve to it: "a year and a half ago" is the month 18 months back, "in half an hour" the hour
  containing anchor + 30 minutes.
  Fuzzy counts are VAGUE and widened: "a couple of" covers the units 1..3 ago, "a few" 2..4, "several" 3..7
  ("a few days ago" on May 8 = [May 4, May 7)), and so are ranges ("two or three weeks ago", "2-3 days", "a month
  or two ago"). "in N units" / "N units from now": the unit containing anchor + N; hedges change nothing ("in like
  two weeks", "a week or so ago").
  "two weekends ago" is the weekend of the week two weeks back.
* Durations: "for N units", "(over) the past/last N units" = [anchor - N, anchor) ("for" in a future context:
  [anchor, anchor + N)); fuzzy counts use their upper bound, and a plural with no count is "a few" ("in the coming
  weeks" = [anchor, anchor + 4 weeks), VAGUE). Outside a future context "in N units" after
  first/only/once/not/n't ("first time in two years", "haven't talked in days") is such a duration too.
  "since X" = [start of X, anchor). Both keep the granularity of the unit / of X.
* Parts of a day (granularity DAY, narrowed interval): morning 06-12, afternoon 12-18, evening 18-24, night 18-06
  ("last night" = yesterday 18:00 to today 06:00), after a weekday too ("last Tuesday night").
* Weekdays: "last Monday" is the most recent Monday strictly before the anchor's day, "next Monday" the first strictly
  after it, "this Monday" the Monday of the anchor's week; "(on) Monday" = last, or next in a future context.
  Abbreviations ("last Tues", "next Fri") count after last/next/this; alone only where they are no English word
  ("thurs", "Tues") or capitalised inside a sentence ("the game is on Sat.", "we're leaving Wed"; never "Mon"/"Sun").
* Chat spellings and misspellings stand for their words: "tmrw", "2moro", "tommorow", "yday", "tonite", "febuary",
  "wensday"; an abbreviated month may keep its period ("Sept. 6th", "Jan. 15").
* "last/this/next week|weekend|fortnight|month|year|decade|century": calendar units (a fortnight is two calendar
  weeks: "last fortnight" the two before the anchor's week); "(this) coming weekend" the first one still ahead;
  "over/on/for the weekend": the current weekend on Sat/Sun, else the previous one (future: the coming one); "by the
  weekend" the coming one.
* Months: "in March" = the most recent March not after the anchor's month (future: the first not before it);
  "last/next March" strictly before/after the anchor's month; "early/mid/late March" = days 1-10/11-20/21-end.
* Seasons are northern meteorological (spring Mar-May, summer Jun-Aug, fall Sep-Nov, winter Dec-Feb, named by the year
  of its December). "last summer" = the most recent one that ended by the anchor (so in July 2023 it is summer
  2022); "next summer" the first that starts after the anchor; "this summer" the one containing the anchor, else
  the one of the anchor's year; "in the summer" the most recent one begun (future: the current or the next).
* Dates without a year: the most recent such date on or before the anchor's day (future: on or after); with "last /
  this / next year" after them ("the 3rd of March last year"), in that year. ISO
  "2023-05-08" and "2023/05/08" are read; slashed dates are US month/day ("8/5/2023" is August 5), day/month only
  where the first number cannot be a month (:mod:`sodamem.ingest.timenumeric`). An impossible date ("31 April
  2022") is dropped, leaving whatever shorter expression still stands ("April 2022").
* Two-digit years: "back in '08", "the summer of '69" (the latest such year up to ten years past the anchor's).
* A bare year, month or season needs a preposition ("in 2019", "by June", "since March"), or a verb of spending
  ("we spent the summer in Maine", "spent March in Spain"); a lowercase "may" needs
  one too, or a day with an ordinal, or a year (so "this may take" and "those 2 may be" are not dates).
* Vague: "recently", "lately", "(the) last time" = the 30 days before the anchor; "the other day" = the 7 days
  before the anchor's day; "earlier/later today|this week|month|year" run from the unit's start to the anchor
  or from the anchor to the unit's end.
* ``future=None`` infers the direction of ambiguous expressions from cue words anywhere in the text (will, 'll,
  going to, planning, next, tomorrow, soon, start date, scheduled for, a present progressive with a personal subject
  "we're grilling on Labor Day", questions about plans "are you free Saturday?", proposals "can we meet ...?", "see
  you", a simple-present timetable that is no habit "he graduates in May", an imperative opening the text "text me
  Monday", "does Friday work?", a short question with no verb "drinks Saturday?", ...), overridden by the verb
  right before the expression, a clock time between skipped ("the recital is on June 9th", "we're off on MLK Day",
  "the gig's at 8pm on Saturday", "the launch slipped to Q4", "the fair runs the 3rd-5th": ahead; "it was on
  Friday": back; "at my aunt's" is a place, not "is"), or a simple-present timetable verb ("the movers come on
  5/20"), or, for an expression opening its clause, the verb right after it ("Father's Day is coming up", "the 28th
  was my birthday", "on the 15th we close", "Sunday I ran"; a possessive "'s" is no verb; a verb of thinking or a
  habit decides nothing); with none of those, a present copula earlier in the clause and no past form after it (a
  participle right after it is a state: "we're slammed") looks ahead ("it's my birthday on Sunday"). True/False
  force it. An expression after "since" always looks back; one after "by" (a deadline: "I need it by Friday") looks
  ahead unless its clause is in the past ("we had it done by Friday", "By Monday it had stopped").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta

from sodamem.ingest import (
    timechat,
    timeclock,
    timedates,
    timedirection,
    timegrammar,
    timeguards,
    timeholidays,
    timenumeric,
    timeperiods,
    timeranges,
    timespeech,
)
from sodamem.ingest import timewords as tw
from sodamem.ingest.timewords import Context, Span
from sodamem.model import TimeGranularity, TimeSpec

G = TimeGranularity


@dataclass(frozen=True, slots=True)
class TimeMention:
    spec: TimeSpec  # start, end (exclusive), granularity, expression (the literal matched words)
    char_start: int  # text[char_start:char_end] == spec.expression
    char_end: int


_F = re.IGNORECASE | re.ASCII
_REL = r"(?P<rel>this\s+past|this\s+coming|last|next|nxt|this|past|upcoming|coming)"
_BACK = {"last", "past", "this past"}
_AHEAD = {"next", "nxt", "coming", "this coming", "upcoming"}
_UNITS_WEEKEND = tw.UNIT.replace("day|", "day|weekend|")
_DAY = rf"(?:(?P<day>3[01]|[12]\d|0?[1-9])(?P<ord>st|nd|rd|th)?|(?P<dayword>{tw.ORDINAL_DAY_ALT}))"
# Spending a period names it as a time, like a preposition: "we spent the summer in Maine", "spent March in Spain".
_SPEND = r"spen(?:d|ds|t|ding)(?:\s+(?:all|most)\s+of)?"
# "the fall of last year", "March of next year": the season or month of that calendar year.
_OF_RELATIVE_YEAR = r"\s+of\s+(?P<yrel>last|this|next)\s+year"
_YEAR_STEP = {"last": -1, "this": 0, "next": 1}
# "the 3rd of March last year", "March 3rd next year": the date in that calendar year.
_DATE_YEAR_REL = r"\s+(?:of\s+)?(?P<yrel>last|this|next)\s+year"
# Hedges between "in" and a count change nothing: "in like two weeks", "in about a month".
_HEDGE = r"(?:(?:like|about|around|roughly|approximately|maybe|just|only|another)\s+)"
_DURATION_BEFORE = re.compile(r"(?:\b(?:first|only|once|twice|times?|never|not)\b|n't\b)[\w\s'-]{0,30}$", _F)


def _norm(words: str | None) -> str:
    return " ".join(words.lower().split()) if words else ""


_DAY_SPELLING_ALT = tw.alternation(tw.DAY_SPELLINGS)
_TOMORROW_ALT = tw.alternation(["tomorrow", *(w for w, day in tw.DAY_SPELLINGS.items() if day == "tomorrow")])
_YESTERDAY_ALT = tw.alternation(["yesterday", *(w for w, day in tw.DAY_SPELLINGS.items() if day == "yesterday")])


def _relative_day(m: re.Match[str], c: Context) -> Span | None:
    if timeguards.title_cased(c.text, m.start(), m.end()):
        return None  # "we rewatched The Day After Tomorrow"
    words = _norm(m.group())
    first = words.split(" ", 1)[0]
    if first in tw.DAY_SPELLINGS:  # "tmrw night", "tonite": the word it stands for
        words = " ".join([tw.DAY_SPELLINGS[first], *words.split(" ")[1:]])
    if words.startswith("the day"):
        offset = -2 if "before" in words else 2
    else:
        offset = -1 if words.startswith(("yesterday", "last")) else 1 if words.startswith("tomorrow") else 0
    last = words.rsplit(" ", 1)[-1]
    part = "night" if last == "tonight" else last if last in tw.PARTS else None
    day = c.day + timedelta(days=offset)
    if part is None:
        return day, day + timedelta(days=1), G.DAY
    low, high = tw.PARTS[part]
    return day + timedelta(hours=low), day + timedelta(hours=high), G.DAY


def _duration(c: Context, unit: str, n: int, half: bool, gran: G, ahead: bool) -> Span:
    end = tw.moved(c.anchor, unit, n, half, 1 if ahead else -1)
    return (c.anchor, end, gran) if ahead else (end, c.anchor, gran)


def _container(unit: str, half: bool) -> str:
    """The unit a count of ``unit`` resolves to: a fortnight ago is in a week, a year and a half ago in a month."""
    return tw.HALF_CONTAINER[unit] if half else tw.CONTAINER.get(unit, unit)


def _counted(m: re.Match[str], c: Context) -> Span | None:
    """N units ago/back/from now, in N units, for N units; halves too ("a year and a half ago", "in half an hour")."""
    low, high, fuzzy, half = tw.quantity(m)
    if m["or_n"]:  # "a month or two ago": the units between, fuzzy
        low, high, fuzzy, half = min(low, tw.count(m["or_n"])[0]), max(high, tw.count(m["or_n"])[1]), True, False
    unit, direction, prep = tw.unit_name(m["unit"]), _norm(m["dir"]), _norm(m["prep"])
    if half and unit == "weekend":
        return None
    container = _container(unit, half)
    gran = G.VAGUE if fuzzy else tw.UNIT_GRANULARITY.get(container, G.WEEK)
    if prep == "for" and not direction and unit != "weekend":
        return _duration(c, unit, high, half, gran, c.future)
    if (
        prep == "in"
        and not (direction or c.future)
        and _DURATION_BEFORE.search(c.text, max(0, m.start() - 48), m.start())
    ):
        return _duration(c, unit, high, half, gran, False)  # "the first time in two years", "haven't talked in days"
    if not direction and prep != "in":
        return None
    sign = -1 if direction in ("ago", "back") else 1
    if unit == "weekend":  # "two weekends ago": the weekend of the week two weeks back
        if sign > 0:
            return None
        sats = sorted(tw.floor(c.anchor - timedelta(weeks=n), "week") + timedelta(days=5) for n in (low, high))
        return sats[0], sats[1] + timedelta(days=2), G.VAGUE if fuzzy else G.WEEK
    ends = sorted(tw.floor(tw.moved(c.anchor, unit, n, half, sign), container) for n in (low, high))
    return ends[0], tw.shift(ends[1], container, 1), gran


def _period(m: re.Match[str], c: Context) -> Span | None:
    """(for/over/in) the past/last/next/coming (N) units ("the past year and a half", "the last decade")."""
    word, unit = m["pl"].lower(), tw.unit_name(m["unit"])
    _, high, fuzzy, half = tw.quantity(m)
    if not (m["n"] or half) and m.group()[m.end("unit") : m.end("unit") + 1].lower() == "s":
        high, fuzzy = tw.FUZZY["few"][1], True  # "in the coming weeks", "over the past months": a few
    elif not (m["n"] or half) and (not m["the"] or unit in ("hour", "day") or word == "next"):
        return None  # "last week" is a calendar week, "the next day" is relative to the story
    gran = G.VAGUE if fuzzy else tw.UNIT_GRANULARITY[_container(unit, half)]
    return _duration(c, unit, high, half, gran, word in ("next", "coming"))


def _weekday(m: re.Match[str], c: Context) -> Span | None:
    name, today, rel = m["wd"].lower(), c.anchor.weekday(), _norm(m["rel"])
    if not rel and timeguards.recurrence_before(c.text, m.start()):
        return None  # "every Sunday", "every other Tuesday"
    if name not in tw.WEEKDAYS and not (
        rel or timeguards.abbreviated_weekday_alone(c.text, m.start("wd"), m.end("wd"))
    ):
        return None
    if not (rel or m["on"] or m["part"]) and timeguards.weekday_names_no_day(c.text, m.start(), m.end()):
        return None
    wanted = tw.WEEKDAYS.get(name, tw.WEEKDAY_ABBREVIATIONS.get(name, 0))
    if rel == "this":
        delta = wanted - today
    elif rel in _AHEAD or (rel not in _BACK and c.future):
        delta = (wanted - today) % 7 or 7
    else:
        delta = -((today - wanted) % 7 or 7)
    day = c.day + timedelta(days=delta)
    if m["part"]:  # "last Tuesday night", "Saturday morning": the part of that day
        if not rel and timeguards.weekday_part_is_a_title(c.text, m.start("part"), m.end()):
            return None
        low, high = tw.PARTS[m["part"].lower()]
        return day + timedelta(hours=low), day + timedelta(hours=high), G.DAY
    return day, day + timedelta(days=1), G.DAY


def _calendar(m: re.Match[str], c: Context) -> Span | None:
    """last/this/next week|weekend|fortnight|month|year|decade|century; over/on/at/during the weekend."""
    unit, rel = tw.unit_name(m["u"]), _norm(m["rel"])
    step = -1 if rel in _BACK else 1 if rel in _AHEAD else 0
    if unit == "weekend":
        if m["over"]:  # "by the weekend" is one still ahead
            step = 0 if m["over"][:2].lower() == "by" or c.future or c.anchor.weekday() >= 5 else -1
        elif rel in ("coming", "this coming", "upcoming"):  # the first weekend still ahead: this week's before Saturday
            step = 0 if c.anchor.weekday() < 5 else 1
        saturday = tw.floor(c.anchor, "week") + timedelta(days=5 + 7 * step)
        return saturday, saturday + timedelta(days=2), G.WEEK
    if m["over"]:
        return None
    if unit == "fortnight":  # two calendar weeks: the two before this week, this and the next, the two after it
        monday = tw.floor(c.anchor, "week") + timedelta(weeks={-1: -2, 0: 0, 1: 1}[step])
        return monday, monday + timedelta(weeks=2), G.WEEK
    start = tw.shift(tw.floor(c.anchor, unit), unit, step)
    return start, tw.shift(start, unit, 1), tw.UNIT_GRANULARITY[unit]


def _edge(m: re.Match[str], c: Context) -> Span:
    """earlier/later today|this week|month|year."""
    unit = (m["u"] or "day").lower()
    start = tw.floor(c.anchor, unit)
    if m["el"].lower() == "earlier":
        return start, c.anchor, G.VAGUE
    return c.anchor, tw.shift(start, unit, 1), G.VAGUE


def _vague(m: re.Match[str], c: Context) -> Span:
    if "other" in m.group().lower():
        return c.day - timedelta(days=7), c.day, G.VAGUE
    return c.anchor - timedelta(days=30), c.anchor, G.VAGUE


def _named_year(m: re.Match[str], c: Context) -> int:
    """The year a season or month names: "2019", "'19", or "of last/this/next year"."""
    if m["yrel"]:
        return c.anchor.year + _YEAR_STEP[m["yrel"].lower()]
    return tw.year_number(m["year"], c.anchor)


def _month_index(c: Context) -> int:
    return c.anchor.year * 12 + c.anchor.month - 1


def _season(m: re.Match[str], c: Context) -> Span | None:
    first, now, rel = tw.SEASONS[m["s"].lower()] - 1, _month_index(c), _norm(m["rel"])
    begun = now - (now - first) % 12  # the latest one that has started by the anchor's month
    if m["year"] or m["yrel"]:
        k = _named_year(m, c) * 12 + first
    elif rel in _BACK:
        k = now - 3 - (now - 3 - first) % 12
    elif rel in _AHEAD:
        k = now + 1 + (first - now - 1) % 12
    elif rel == "this":
        k = begun if now - begun < 3 else c.anchor.year * 12 + first
    elif m["in"] or tw.since_before(c.text, m.start()) is not None:
        k = begun + 12 if c.future and now - begun >= 3 else begun
    else:
        return None
    return tw.month_start(k, c.anchor), tw.month_start(k + 3, c.anchor), G.SEASON


def _month(m: re.Match[str], c: Context) -> Span | None:
    month, now, rel = tw.MONTHS[m["mon"].lower()] - 1, _month_index(c), _norm(m["rel"])
    modifier = _norm(m["mod1"] or m["mod2"])
    if m["mon"] == "may" and not (m["year"] or m["in"] or m["yrel"]):
        return None  # the modal verb
    if m["in"] and timeguards.month_ends_an_event_name(c.text, m.start()):
        return None
    if m["year"] or m["yrel"]:
        k = _named_year(m, c) * 12 + month
    elif rel in _BACK:
        k = now - 1 - (now - 1 - month) % 12
    elif rel in _AHEAD:
        k = now + 1 + (month - now - 1) % 12
    elif rel == "this":
        k = c.anchor.year * 12 + month
    elif m["in"] or modifier or tw.since_before(c.text, m.start()) is not None:
        k = now + (month - now) % 12 if c.future else now - (now - month) % 12
    else:
        return None
    start, end = tw.month_start(k, c.anchor), tw.month_start(k + 1, c.anchor)
    if modifier:
        lo, hi = {"early": (0, 10), "mid": (10, 20), "late": (20, 31)}[modifier]
        start, end = start + timedelta(days=lo), min(end, start + timedelta(days=hi))
    return start, end, G.MONTH


def _date(m: re.Match[str], c: Context) -> Span | None:
    names = m.groupdict()
    month = int(m["mnum"]) if names.get("mnum") else tw.MONTHS[m["mon"].lower()]
    if names.get("mon") == "may" and not (m["year"] or m["on"] or m["ord"]):
        return None  # "those 2 may be", "you may 3 times"
    if names.get("dayword") and "of" in names and not m["of"]:
        return None  # "the first March for Science": an ordinal in words before a month needs "of"
    day_of_month = tw.day_number(names.get("day"), names.get("dayword"))
    if m["year"]:
        day = c.day.replace(year=tw.year_number(m["year"], c.anchor), month=month, day=day_of_month)
    elif names.get("yrel"):
        day = c.day.replace(year=c.anchor.year + _YEAR_STEP[m["yrel"].lower()], month=month, day=day_of_month)
    else:
        day = tw.nearest_date(c, month, day_of_month)
    return day, day + timedelta(days=1), G.DAY


def _year(m: re.Match[str], c: Context) -> Span | None:
    if not m["prep"] and tw.since_before(c.text, m.start()) is None:
        return None
    start = c.day.replace(year=tw.year_number(m["year"], c.anchor), month=1, day=1)
    return start, start.replace(year=start.year + 1), G.YEAR


_MONTH_PREFIXES = "jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec"
_RULES: tuple[tw.RuleEntry, ...] = (
    (
        rf"\b(?:the\s+day\s+(?:before\s+(?:{_YESTERDAY_ALT})|after\s+(?:{_TOMORROW_ALT}))|last\s+night|tonight|this\s+(?:morning|afternoon|"
        rf"evening)|(?:yesterday|today|tomorrow|{_DAY_SPELLING_ALT})(?:\s+(?:morning|afternoon|evening|night))?)\b",
        _relative_day,
        None,
    ),
    (
        rf"\b(?:(?P<prep>in|for)\s+{_HEDGE}?)?{tw.COUNT}{_UNITS_WEEKEND}{tw.HALF_AFTER}"
        rf"(?:\s+or\s+(?:so|(?P<or_n>{tw.NUM})))?(?:\s+(?P<dir>ago|back|from\s+now))?\b",
        _counted,
        # a unit word ending a word: the costliest family, run on a third of the texts that pass the first check
        r"(?:hour|hr|day|week|weekend|wk|fortnight|month|mo|year|yr|decade|centur(?:y|ie))s?\b",
    ),
    (
        rf"\b(?:(?:for|over|in|during|within)\s+)?(?:(?P<the>the|these)\s+)?(?P<pl>past|last|next|coming)\s+"
        rf"{tw.COUNT}?{tw.UNIT}{tw.HALF_AFTER}\b(?!\s+of\b)",
        _period,
        r"past|last|next|coming",
    ),
    (
        rf"\b(?:{_REL}\s+|(?P<on>on)\s+)?(?P<wd>{tw.WEEKDAY_ALT})(?:\s+(?P<part>morning|afternoon|evening|night))?\b",
        _weekday,
        r"\b(?:(?:mon|tues|wednes|thurs|fri|satur|sun|tuse|wens|wends|wedns|thrus)day|(?:last|next|nxt|this|past|coming)\s+\w"
        r"|(?:tues?|thu(?:rs?)?|weds?|fri|sat)\b|(?:mon|sun)\.?\s+(?:at|@)\s|thursdy|thurday|satuday|saturdy|tuesdy)",
    ),
    (
        rf"\b(?:{_REL}\s+|(?P<over>(?:over|on|at|during|by|for|{_SPEND})\s+the)\s+)(?P<u>weekend|week|wk|fortnight|month|year|yr|decade|century)\b",
        _calendar,
        r"week|wk|fortnight|month|year|yr|decade|century",
    ),
    (r"\b(?P<el>earlier|later)\s+(?:this\s+(?P<u>week|month|year)|today)\b", _edge, r"earlier|later"),
    (r"\b(?:recently|lately|(?:the\s+)?last\s+time|the\s+other\s+day)\b", _vague, r"recent|lately|time|other"),
    (
        rf"\b(?:{_REL}\s+|(?P<in>(?:in|during|over|by|until|through|{_SPEND})\s+(?:the\s+)?))?"
        rf"(?P<s>summer|winter|spring|fall|autumn)(?:,?\s+(?:of\s+)?{tw.YEAR}|{_OF_RELATIVE_YEAR})?\b",
        _season,
        r"summer|winter|spring|fall|autumn",
    ),
    (
        rf"\b(?:{_REL}\s+|(?P<in>(?:back\s+)?(?:in|during|by|until|till|through|from|of|{_SPEND})\s+"
        rf"(?:(?P<mod1>early|mid|late)[\s-]+)?)|(?P<mod2>early|mid|late)[\s-]+)?"
        rf"(?P<mon>{tw.MONTH_ALT})(?:,?\s+(?:of\s+)?{tw.YEAR}|{_OF_RELATIVE_YEAR})?\b"
        rf"(?!\s+(?:the\s+)?(?:\d|{tw.ORDINAL_DAY_ALT}))",  # "until July 3rd" is a date, not "until July"
        _month,
        _MONTH_PREFIXES,
    ),
    (
        rf"\b(?:(?P<on>on)\s+)?(?:the\s+)?{_DAY}\s+(?P<of>of\s+)?(?P<mon>{tw.MONTH_ALT})(?:,?\s+{tw.YEAR}|{_DATE_YEAR_REL})?\b",
        _date,
        _MONTH_PREFIXES,
    ),
    (  # an abbreviated month may keep its period: "Sept. 6th", "Jan. 15"
        rf"\b(?:(?P<on>on)\s+)?(?P<mon>{tw.MONTH_ALT})\.?\s+(?:the\s+)?{_DAY}(?:,?\s+{tw.YEAR}|{_DATE_YEAR_REL})?\b",
        _date,
        _MONTH_PREFIXES,
    ),
    (
        r"\b(?:(?P<on>on)\s+)?(?P<year>(?:19|20)\d\d)(?P<sep>[-/])(?P<mnum>1[0-2]|0?[1-9])(?P=sep)"
        r"(?P<day>3[01]|[12]\d|0?[1-9])(?P<ord>)(?!\d)",
        _date,
        r"\d[-/]\d",
    ),
    (
        rf"\b(?:(?P<prep>(?:back\s+)?(?:in|during|from|until|till|by|around)|the\s+year)\s+)?{tw.YEAR}"
        r"(?![-/:]\d)\b",
        _year,
        r"(?:19|20)\d\d|['’]\d\d",
    ),
)
_RULES += timegrammar.RULES + timeholidays.RULES + timenumeric.RULES + timedates.RULES + timechat.RULES
_RULES += timeclock.RULES + timeperiods.RULES + timespeech.RULES
_COMPILED = tuple(
    (re.compile(pattern, _F), rule, re.compile(needs, re.ASCII) if needs else None) for pattern, rule, needs in _RULES
)
# Every rule needs one of these words or a digit; most sentences have none, and are done after one search.
_TRIGGER = re.compile(
    r"\d|"
    + tw.trie([*tw.TRIGGER_WORDS, *timeholidays.TRIGGER_WORDS, *timeperiods.TRIGGER_WORDS, *timespeech.TRIGGER_WORDS])
)


def find_times(text: str, anchor: datetime, *, future: bool | None = None) -> list[TimeMention]:
    """All time expressions of ``text``, resolved against ``anchor``, in text order and not overlapping.

    Where candidates overlap the longest wins ("since last year" over "last year"). Never raises; expressions
    that cannot be resolved (Feb 30, years out of range) are left out. An expression after "since" looks back; with
    ``future=None`` one right after "is"/"are"/"'s" looks ahead and one after "was"/"were" back.
    """
    lowered = text.lower()
    if not _TRIGGER.search(lowered):
        return []
    day = tw.day_start(anchor)
    cue = timedirection.Cue(text)  # the direction the cue words give: searched only if a rule asks (most do not)
    found: list[tuple[int, int, Span]] = []
    for pattern, rule, needs in _COMPILED:
        if needs is not None and not needs.search(lowered):
            continue
        for m in pattern.finditer(text):
            start = m.start()
            since = tw.since_before(text, start)
            fixed = False if since is not None else future
            ctx = Context(text, anchor, day, timedirection.Direction(text, start, m.end(), cue, fixed), _phrase)
            try:
                span = rule(m, ctx)
            except (ValueError, OverflowError):
                continue
            if span is None:
                continue
            lo, hi, gran = span
            if since is not None and lo < anchor:
                start, hi = since, anchor
            if lo < hi:
                found.append((start, m.end(), (lo, hi, gran)))
    found.sort(key=lambda f: (f[0] - f[1], f[0]))
    taken: list[tuple[int, int, Span]] = []
    for item in found:
        if all(item[1] <= other[0] or item[0] >= other[1] for other in taken):
            taken.append(item)
    taken.sort(key=lambda f: f[0])
    if "from " in lowered or "between " in lowered:  # "from June 1st to June 5th": one range

        def direction(s: int, e: int) -> bool:
            return timedirection.Direction(text, s, e, cue, future)()

        taken = timeranges.join_ranges(text, taken, anchor, direction, _phrase)
    if timeclock.clock_may_join(lowered):  # "Monday at 8pm", "at midday tomorrow": the hour of that day
        taken = timeclock.narrow_to_clock(text, taken)
    return [TimeMention(TimeSpec(lo, hi, gran, text[s:e]), s, e) for s, e, (lo, hi, gran) in taken]


def _phrase(phrase: str, anchor: datetime, future: bool) -> Span | None:
    """The resolution of ``phrase`` when one expression covers all of it (composite rules build on it)."""
    mentions = find_times(phrase, anchor, future=future)
    if len(mentions) != 1 or (mentions[0].char_start, mentions[0].char_end) != (0, len(phrase)):
        return None
    spec = mentions[0].spec
    return spec.start, spec.end, spec.granularity


def resolve_time(text: str, anchor: datetime, *, future: bool | None = None) -> TimeMention | None:
    """The most specific mention of ``text``: non-vague before vague, then the shortest interval, then the first."""
    mentions = find_times(text, anchor, future=future)
    if not mentions:
        return None
    return min(mentions, key=lambda m: (m.spec.granularity is G.VAGUE, m.spec.end - m.spec.start, m.char_start))
