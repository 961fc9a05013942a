"""Soft temporal bonus: evidence inside the question's time window scores more, evidence near it a little less.

Never a filter and never negative: a question that says "two months ago" about a three-month-old event still
gives that event a bonus, only a smaller one than an event inside the window, and far larger than one a year off.
Pure; times are compared as given, except that when naive and aware datetimes meet, the aware ones lose their
tzinfo (naive times are the dialogue's own wall clock, see ``sodamem.model``).
"""

from __future__ import annotations

import math
from datetime import datetime

from sodamem import instants
from sodamem.model import TimeGranularity, TimeSpec

_DAY_SECONDS = 86400.0


def parse_iso(value: str | None) -> datetime | None:
    """``datetime.fromisoformat`` that returns None for None, empty or malformed text (a trailing Z is read)."""
    return instants.parse(value) if value else None


def calendar_unit(first: datetime, after: datetime) -> str | None:
    """``"month"`` or ``"year"`` when ``[first, after)`` is exactly one calendar month or year (both on the 1st;
    the caller checks they fall at midnight), else None. Shared by the formatters of the pack and the reader."""
    if first.day != 1 or after.day != 1:
        return None
    next_month = (first.year + first.month // 12, first.month % 12 + 1)
    if (after.year, after.month) == next_month:
        return "month"
    if (first.month, after.month, after.year) == (1, 1, first.year + 1):
        return "year"
    return None


def evidence_interval(
    occurred_start: str | None, occurred_end: str | None, mentioned_at: str | None
) -> tuple[datetime, datetime | None] | None:
    """The time a piece of evidence is about: when it occurred, else when it was said (an instant); None if neither."""
    start = parse_iso(occurred_start)
    if start is not None:
        end = parse_iso(occurred_end)
        if end is not None:
            aligned_start, aligned_end = _align(start, end)
            end = end if aligned_end > aligned_start else None
        return start, end
    said = parse_iso(mentioned_at)
    return (said, None) if said is not None else None


def distance_days(evidence_start: datetime, evidence_end: datetime | None, window: TimeSpec) -> float:
    """Days between the evidence interval [start, end) (an instant when end is None) and the window; 0 on overlap."""
    start, end, w_start, w_end = _align(evidence_start, evidence_end or evidence_start, window.start, window.end)
    if end < start:
        start, end = end, start
    if end <= w_start and not (start == end == w_start):
        gap = (w_start - end).total_seconds()
    elif start >= w_end:
        gap = (start - w_end).total_seconds()
    else:
        return 0.0
    return max(0.0, gap / _DAY_SECONDS)


def temporal_bonus(
    evidence_start: datetime,
    evidence_end: datetime | None,
    window: TimeSpec,
    *,
    weight: float = 1.0,
    decay_days: float = 30.0,
) -> float:
    """``weight`` when the evidence overlaps the window, else ``weight * exp(-distance_days / decay_days)``.

    Always in ``[0, max(weight, 0)]``; ``decay_days <= 0`` means no bonus outside the window.
    """
    if weight <= 0 or math.isnan(weight):
        return 0.0
    distance = distance_days(evidence_start, evidence_end, window)
    if distance == 0.0:
        return weight
    if decay_days <= 0:
        return 0.0
    return weight * math.exp(-distance / decay_days)


def window_decay_days(window: TimeSpec, minimum: float = 30.0) -> float:
    """A decay that scales with the window: at least ``minimum``, at least the window's length, twice for vague."""
    length = (window.end - window.start).total_seconds() / _DAY_SECONDS
    scale = 2.0 if window.granularity is TimeGranularity.VAGUE else 1.0
    return max(minimum, length) * scale


def bonus_for(
    occurred_start: str | None,
    occurred_end: str | None,
    mentioned_at: str | None,
    window: TimeSpec,
    *,
    weight: float = 1.0,
    decay_days: float = 30.0,
) -> float:
    """:func:`temporal_bonus` for stored ISO text (a fact's occurred_*, else a timestamp); 0 if it has no time."""
    interval = evidence_interval(occurred_start, occurred_end, mentioned_at)
    if interval is None:
        return 0.0
    return temporal_bonus(interval[0], interval[1], window, weight=weight, decay_days=decay_days)


def _align(*times: datetime) -> tuple[datetime, ...]:
    """The times as given when all are naive or all aware; else all naive (wall clock)."""
    if len({t.tzinfo is None for t in times}) == 1:
        return times
    return tuple(t.replace(tzinfo=None) for t in times)
