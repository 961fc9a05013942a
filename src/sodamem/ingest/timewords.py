"""Vocabulary and calendar arithmetic for :mod:`sodamem.ingest.timeparse` (pure, stdlib only)."""

from __future__ import annotations

from calendar import monthrange
from collections.abc import Iterable
from datetime import datetime, timedelta

from sodamem.model import TimeGranularity

_NUMBER_NAMES = (
    "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen "
    "eighteen nineteen twenty"
).split()
NUMBERS: dict[str, int] = {word: i for i, word in enumerate(_NUMBER_NAMES, start=1)} | {"a": 1, "an": 1}
# Fuzzy counts as (low, high) units: "a few days ago" is the days 2..4 before the anchor; durations use ``high``.
FUZZY: dict[str, tuple[int, int]] = {"couple": (1, 3), "few": (2, 4), "several": (3, 7)}

_MONTH_NAMES = (
    ("january", "jan"),
    ("february", "feb"),
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
}
# Abbreviations count only after last/next/this ("last Fri"); "on sun" or "wed" alone is too often something else.
WEEKDAY_ABBREVIATIONS: dict[str, int] = {
    name: i
    for i, names in enumerate(["mon", "tue tues", "wed", "thu thur thurs", "fri", "sat", "sun"])
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
    "month": TimeGranularity.MONTH,
    "year": TimeGranularity.YEAR,
}


def alternation(words: Iterable[str]) -> str:
    """A regex alternation trying longer words first ("seventeen" before "seven")."""
    return "|".join(sorted(words, key=lambda w: (-len(w), w)))


NUM = r"(?:\d{1,3}|(?:a\s+)?couple(?:\s+of)?|(?:a\s+)?few|several|" + alternation(NUMBERS) + ")"
MONTH_ALT = alternation(MONTHS)
WEEKDAY_ALT = alternation(WEEKDAYS | WEEKDAY_ABBREVIATIONS)
UNIT = r"(?P<unit>hour|day|week|month|year)s?"
YEAR = r"(?P<year>(?:19|20)\d\d)(?!\d)"


def count(words: str) -> tuple[int, int, bool]:
    """``(low, high, fuzzy)`` for a quantity matched by :data:`NUM`; exact counts have ``low == high``."""
    tokens = words.lower().split()
    for name, (low, high) in FUZZY.items():
        if name in tokens:
            return low, high, True
    n = int(tokens[0]) if tokens[0].isdigit() else NUMBERS[tokens[0]]
    return n, n, False


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
    """The start of the hour/day/week (Monday)/month/year that contains ``dt``."""
    if unit == "hour":
        return dt.replace(minute=0, second=0, microsecond=0)
    day = day_start(dt)
    if unit == "day":
        return day
    if unit == "week":
        return day - timedelta(days=day.weekday())
    return day.replace(day=1) if unit == "month" else day.replace(month=1, day=1)


def shift(dt: datetime, unit: str, n: int) -> datetime:
    """``dt`` moved by ``n`` units (calendar arithmetic for months and years)."""
    if unit == "hour":
        return dt + timedelta(hours=n)
    if unit == "day":
        return dt + timedelta(days=n)
    if unit == "week":
        return dt + timedelta(weeks=n)
    return add_months(dt, n * 12 if unit == "year" else n)
