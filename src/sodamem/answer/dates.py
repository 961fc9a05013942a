"""Dates as a person says them, in LoCoMo's own form ("7 May 2023", "May 2023", "2023")."""

from __future__ import annotations

from datetime import datetime, timedelta

from sodamem.retrieve.temporal import calendar_unit, parse_iso


def _day(value: datetime) -> str:
    return f"{value.day} {value:%B %Y}"


def human_day(value: str) -> str:
    """``2023-05-08T13:56:00`` -> ``8 May 2023`` (LoCoMo's own form); unparsable values as given."""
    parsed = parse_iso(value)
    return _day(parsed) if parsed is not None else value


def human_span(start: str, end: str | None) -> str:
    """An interval as a person says it: ``7 May 2023``, ``May 2023``, ``2023`` or ``1 May 2023 to 7 May 2023``."""
    first = parse_iso(start)
    after = parse_iso(end) if end else None
    if first is None:
        return start
    if after is None or after <= first:
        return _day(first)
    last = after - timedelta(microseconds=1)
    if first.date() == last.date():
        return _day(first)
    whole_days = (first.hour, first.minute, after.hour, after.minute) == (0, 0, 0, 0)
    unit = calendar_unit(first, after) if whole_days else None
    if unit == "month":
        return f"{first:%B %Y}"
    if unit == "year":
        return f"{first.year}"
    return f"{_day(first)} to {_day(last)}"
