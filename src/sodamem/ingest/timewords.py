"""Vocabulary, calendar arithmetic and the rule context shared by the time resolver's modules (pure, stdlib only).

The rules live in :mod:`sodamem.ingest.timeparse` (the basic families), :mod:`sodamem.ingest.timegrammar` (before
last / after next, parts and ordinals of periods, days of the month, decades, quarters),
:mod:`sodamem.ingest.timeholidays`, :mod:`sodamem.ingest.timenumeric` (slashed dates), :mod:`sodamem.ingest.timedates`
(dates with their weekday) and :mod:`sodamem.ingest.timeranges` (ranges); the direction of an expression in
:mod:`sodamem.ingest.timedirection`, the guards against readings that are no time in :mod:`sodamem.ingest.timeguards`.
"""

from __future__ import annotations

import re
from calendar import monthrange
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from sodamem.model import TimeGranularity

Span = tuple[datetime, datetime, TimeGranularity]  # [start, end) and how fine it is


@dataclass(frozen=True, slots=True)
class Context:
    """What a rule resolves against: the whole text, the anchor (session time) and the inferred direction."""

    text: str
    anchor: datetime
    day: datetime  # midnight of the anchor's day
    # Whether ambiguous expressions look ahead; asked only by the rules that need it (the cue words are costly).
    direction: Callable[[], bool]
    # Resolves a phrase on its own against (anchor, future): the span of the one expression covering all of it.
    phrase_resolver: Callable[[str, datetime, bool], Span | None]

    @property
    def future(self) -> bool:
        return self.direction()

    def resolve(self, phrase: str) -> Span | None:
        return self.phrase_resolver(phrase, self.anchor, self.future)


Rule = Callable[[re.Match[str], Context], Span | None]
# A rule family: (pattern, rule, needs). ``needs``, when set, is a cheap regex that the lowercased text must contain
# for the pattern to have a chance (a literal every match carries); it spares most texts the costly pattern.
RuleEntry = tuple[str, Rule, str | None]


_ONES = "one two three four five six seven eight nine".split()
_NUMBER_NAMES = [*_ONES, *"ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split()]
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
NUMBERS: dict[str, int] = (
    {word: i for i, word in enumerate(_NUMBER_NAMES, start=1)}
    | {word: 10 * i for i, word in enumerate(_TENS, start=2)}
    | {"a": 1, "an": 1}
)
# Fuzzy counts as (low, high) units: "a few days ago" is the days 2..4 before the anchor; durations use ``high``.
FUZZY: dict[str, tuple[int, int]] = {"couple": (1, 3), "few": (2, 4), "several": (3, 7)}

_MONTH_NAMES = (
    ("january", "jan"),
    ("february", "feb", "febuary", "feburary"),  # the common misspellings too
    ("march", "mar"),
    ("april", "apr"),
    ("may",),
    ("june", "jun"),
    ("july", "jul"),
    ("august", "aug"),
    ("september", "sept", "sep"),
    ("october", "oct"),
    ("november", "nov"),
    ("december", "dec"),
)
MONTHS: dict[str, int] = {name: i for i, names in enumerate(_MONTH_NAMES, start=1) for name in names}
WEEKDAYS: dict[str, int] = {
    name: i for i, name in enumerate("monday tuesday wednesday thursday friday saturday sunday".split())
} | {"tuseday": 1, "tuesdy": 1, "wensday": 2, "wendsday": 2, "wednsday": 2, "thrusday": 3, "thursdy": 3, "thurday": 3}
WEEKDAYS |= {"satuday": 5, "saturdy": 5}  # and their common misspellings
# Chat spellings and misspellings of the days next to today, as the words they stand for ("see you tmrw", "tonite").
DAY_SPELLINGS: dict[str, str] = {
    **dict.fromkeys(
        "tmrw tmr tmrow 2moro 2morrow 2mrw tomorow tommorow tommorrow tomorrw tomoz 2moz".split(), "tomorrow"
    ),
    **dict.fromkeys("yday yesterdy yesturday".split(), "yesterday"),
    **dict.fromkeys("tonite 2nite".split(), "tonight"),
}
# Abbreviations count only after last/next/this ("last Fri"); "on sun" or "wed" alone is too often something else.
WEEKDAY_ABBREVIATIONS: dict[str, int] = {
    name: i
    for i, names in enumerate(["mon", "tue tues", "wed weds", "thu thur thurs", "fri", "sat", "sun"])
    for name in names.split()
}
# Northern meteorological seasons by their first month; a winter is named by the year of its December.
SEASONS: dict[str, int] = {"spring": 3, "summer": 6, "fall": 9, "autumn": 9, "winter": 12}
# Parts of a day as hours after the day's midnight (night runs into the next morning).
PARTS: dict[str, tuple[int, int]] = {"morning": (6, 12), "afternoon": (12, 18), "evening": (18, 24), "night": (18, 30)}
UNIT_GRANULARITY: dict[str, TimeGranularity] = {
    "hour": TimeGranularity.INSTANT,
    "day": TimeGranularity.DAY,
    "week": TimeGranularity.WEEK,
    "fortnight": TimeGranularity.WEEK,
    "month": TimeGranularity.MONTH,
    "year": TimeGranularity.YEAR,
    "decade": TimeGranularity.YEAR,  # a calendar decade (2010-2019) is ten whole years
    "century": TimeGranularity.YEAR,  # a calendar century (1900-1999), as "the 1900s"
}
# "N units ago" resolves to the unit containing the point; a fortnight ago is a point in a calendar week.
CONTAINER: dict[str, str] = {"fortnight": "week"}
# "a year and a half", "half an hour": the half in a finer unit, and the (finer) unit whose container is resolved.
HALF: dict[str, tuple[str, int]] = {
    "century": ("year", 50),
    "decade": ("year", 5),
    "year": ("month", 6),
    "month": ("day", 15),
    "fortnight": ("week", 1),
    "week": ("hour", 84),
    "day": ("hour", 12),
    "hour": ("minute", 30),
}
HALF_CONTAINER: dict[str, str] = {
    "century": "decade",  # the next finer unit: "half a century ago" is a decade
    "decade": "year",
    "year": "month",
    "month": "week",
    "fortnight": "week",
    "week": "day",
    "day": "hour",
    "hour": "hour",
}


def alternation(words: Iterable[str]) -> str:
    """A regex alternation trying longer words first ("seventeen" before "seven")."""
    return "|".join(sorted(words, key=lambda w: (-len(w), w)))


_Trie = dict[str, "_Trie"]


def trie(words: Iterable[str]) -> str:
    """A regex finding any of ``words`` (lowercase literals), shaped as a prefix tree: one branch per letter instead
    of one try per word at every position. For pre-checks: a word that is a prefix of another stands for both."""
    tree: _Trie = {}
    for word in words:
        node = tree
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}

    def branch(node: _Trie) -> str:
        if "" in node:
            return ""
        options = [re.escape(char) + branch(child) for char, child in sorted(node.items())]
        return options[0] if len(options) == 1 else "(?:" + "|".join(options) + ")"

    return branch(tree)


NUM = (
    r"(?:(?<!\.)\d{1,3}|(?:a\s+)?couple(?:\s+of)?|(?:a\s+)?few|several|(?:half\s+)?an?\s+dozen|"
    rf"(?:an?|{alternation(_ONES)})\s+hundred|"
    rf"(?:{alternation(_TENS)})[\s-]+(?:{alternation(_ONES)})|{alternation(NUMBERS)})(?:-?ish\b)?"  # "two-ish", "3ish"
)
# A count with an optional half before a unit: "3", "two and a half", "1.5", "half a"; then UNIT, then HALF_AFTER
# ("a year and a half"). Groups: n (absent for "half a"), half0, half1, unit, half2; :func:`quantity` reads them.
_AND_A_HALF = r"\s+and\s+a\s+half"
# A range ("two or three", "2-3", "two to three") is fuzzy: the units n..n2 (see :func:`quantity`).
COUNT = (
    rf"(?:(?P<n>{NUM})(?:\s*(?:-|–|\s(?:or|to)\s)\s*(?P<n2>{NUM}))?(?P<half1>{_AND_A_HALF}|\.5)?\s+"
    r"|(?P<half0>(?:a\s+)?half(?:\s+an?)?\s+))"
)
# Chat abbreviations ("2 yrs ago", "3 wks", "6 mos"; "mo" only plural: "in a mo" is a moment) stand for the unit.
UNIT = r"(?P<unit>hour|hr|day|week|wk|fortnight|month|mo(?=s\b)|year|yr|decade|century|centuries)s?"
_ABBREVIATED_UNITS = {"hr": "hour", "wk": "week", "mo": "month", "yr": "year", "centuries": "century"}
HALF_AFTER = rf"(?P<half2>{_AND_A_HALF})?"
_ORDINAL_NAMES = (
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth fourteenth"
    " fifteenth sixteenth seventeenth eighteenth nineteenth twentieth"
).split()
# The words (besides digits) that the basic and composite rules need: the resolver's first pre-check.
TRIGGER_WORDS = [
    *"day night hour week fortnight month year decade ago summer winter spring fall autumn recent lately time".split(),
    *"morning evening afternoon tonight tomorrow twenties thirties forties fifties sixties seventies eighties".split(),
    *"nineties noughties naughties aughts wk yr centur quarter".split(),
    *"tmr tmw 2mor 2mr tomo tomm tonite 2nite yesterd yestur".split(),  # chat spellings (:data:`DAY_SPELLINGS`)
    *("nineteen", "twenty t", "twenty-t", "twenty e", "twenty f", "twenty s", "twenty n", "twenty o", "two thousand"),
    *(name for name in MONTHS | WEEKDAY_ABBREVIATIONS if len(name) == 3),
    *(f"the {word}" for word in [*_ORDINAL_NAMES, "twenty", "thirt"]),  # "on the first", "on the twenty-first"
]
MONTH_ALT = alternation(MONTHS)
WEEKDAY_ALT = alternation(WEEKDAYS | WEEKDAY_ABBREVIATIONS)
# Four digits, or an apostrophe and two ("back in '08", "the summer of '69"): see :func:`year_number`.
YEAR = r"(?P<year>(?:19|20)\d\d|['’]\d\d)(?!\d)"
_SINCE = re.compile(r"\b(?:ever\s+)?since\s+$", re.IGNORECASE | re.ASCII)


def year_number(words: str, anchor: datetime) -> int:
    """The year of a :data:`YEAR` match; "'08" is the latest year ending in 08 up to ten years past the anchor's (so
    "'69" is 1969, and "the class of '27" said in 2024 is 2027)."""
    if len(words) == 4:
        return int(words)
    year = anchor.year - anchor.year % 100 + int(words[1:])
    return year if year <= anchor.year + 10 else year - 100


# Days of the month in words: "the fifth of June", "June twenty-first", "on the first".
ORDINAL_DAYS: dict[str, int] = (
    {word: i for i, word in enumerate(_ORDINAL_NAMES, start=1)}
    | {f"twenty {word}": 20 + i for i, word in enumerate(_ORDINAL_NAMES[:9], start=1)}
    | {"thirtieth": 30, "thirty first": 31}
)
ORDINAL_DAY_ALT = (
    rf"(?:twenty[\s-]+(?:{alternation(_ORDINAL_NAMES[:9])})|thirty[\s-]+first|thirtieth"
    rf"|{alternation(_ORDINAL_NAMES)})(?![\w-])"
)


def day_number(digits: str | None, words: str | None) -> int:
    """The day of the month of a match: digits ("21") or an ordinal in words ("twenty-first")."""
    if digits:
        return int(digits)
    return ORDINAL_DAYS[" ".join((words or "").lower().replace("-", " ").split())]


def unit_name(word: str) -> str:
    """The unit a :data:`UNIT` word names, abbreviations and plurals aside ("yrs" -> "year")."""
    word = word.lower()
    return _ABBREVIATED_UNITS.get(word, word)


def count(words: str) -> tuple[int, int, bool]:
    """``(low, high, fuzzy)`` for a quantity matched by :data:`NUM`; exact counts have ``low == high``."""
    tokens = words.lower().replace("-", " ").removesuffix("ish").split()
    for name, (low, high) in FUZZY.items():
        if name in tokens:
            return low, high, True
    if tokens[-1] == "dozen":  # "a dozen", "half a dozen"
        n = 6 if tokens[0] == "half" else 12
    elif tokens[-1] == "hundred":  # "a hundred", "two hundred"
        n = 100 * NUMBERS[tokens[0]]
    else:
        n = int(tokens[0]) if tokens[0].isdigit() else sum(NUMBERS[token] for token in tokens)
    return n, n, False


def quantity(m: re.Match[str]) -> tuple[int, int, bool, bool]:
    """``(low, high, fuzzy, half)`` of a :data:`COUNT` (optional) + UNIT + :data:`HALF_AFTER` match.

    "half a year" is 0 whole units and a half, "the past year and a half" 1 and a half; fuzzy counts take no half.
    """
    half = bool(m["half0"] or m["half1"] or m["half2"])
    if m["n"] is None:
        return (0, 0, False, half) if m["half0"] else (1, 1, False, half)
    low, high, fuzzy = count(m["n"])
    if m["n2"]:  # "two or three weeks ago": the units between, fuzzy
        low, high, fuzzy = min(low, count(m["n2"])[0]), max(high, count(m["n2"])[1]), True
    return low, high, fuzzy, half and not fuzzy


def nearest_date(c: Context, month: int, day: int) -> datetime:
    """The most recent month/day on or before the anchor's day (future: on or after); Feb 29 looks up to 8 years."""
    for step in range(9):
        year = c.anchor.year + (step if c.future else -step)
        try:
            candidate = c.day.replace(year=year, month=month, day=day)
        except ValueError:
            continue
        if (candidate >= c.day) if c.future else (candidate <= c.day):
            return candidate
    raise ValueError(f"no date {month}/{day} near {c.anchor}")


def since_before(text: str, start: int) -> int | None:
    """Where a "since"/"ever since" directly before ``start`` begins."""
    m = _SINCE.search(text, max(0, start - 16), start)
    return m.start() if m else None


def day_start(dt: datetime) -> datetime:
    return dt.replace(hour=0, minute=0, second=0, microsecond=0)


def add_months(dt: datetime, n: int) -> datetime:
    """``dt`` moved by ``n`` calendar months, the day clamped to the target month (Mar 31 - 1 = Feb 28/29)."""
    year, month0 = divmod(dt.month - 1 + n, 12)
    year += dt.year
    return dt.replace(year=year, month=month0 + 1, day=min(dt.day, monthrange(year, month0 + 1)[1]))


def month_start(index: int, like: datetime) -> datetime:
    """Midnight of the first of month ``index`` (= year * 12 + month - 1), with ``like``'s tzinfo."""
    return day_start(like).replace(year=index // 12, month=index % 12 + 1, day=1)


def floor(dt: datetime, unit: str) -> datetime:
    """The start of the hour/day/week (Monday)/month/year/decade (2010, 2020, ...)/century that contains ``dt``."""
    if unit == "hour":
        return dt.replace(minute=0, second=0, microsecond=0)
    day = day_start(dt)
    if unit == "day":
        return day
    if unit == "week":
        return day - timedelta(days=day.weekday())
    if unit in ("decade", "century"):
        return day.replace(year=day.year - day.year % (10 if unit == "decade" else 100), month=1, day=1)
    return day.replace(day=1) if unit == "month" else day.replace(month=1, day=1)


_DELTAS = {
    "minute": timedelta(minutes=1),
    "hour": timedelta(hours=1),
    "day": timedelta(days=1),
    "week": timedelta(weeks=1),
    "weekend": timedelta(weeks=1),  # "(the first time) in two weekends": a duration of two weeks
    "fortnight": timedelta(weeks=2),
}
_MONTHS_IN = {"month": 1, "year": 12, "decade": 120, "century": 1200}


def shift(dt: datetime, unit: str, n: int) -> datetime:
    """``dt`` moved by ``n`` units (calendar arithmetic for months, years and decades)."""
    if unit in _DELTAS:
        return dt + _DELTAS[unit] * n
    return add_months(dt, n * _MONTHS_IN[unit])


def moved(dt: datetime, unit: str, n: int, half: bool, sign: int) -> datetime:
    """``dt`` moved by ``n`` (and a half, when ``half``) units, backwards for ``sign`` -1."""
    dt = shift(dt, unit, sign * n)
    if half:
        finer, amount = HALF[unit]
        dt = shift(dt, finer, sign * amount)
    return dt
