"""Times as SodaMem orders them: stored ISO 8601 strings compared as instants, never as text.

A time with an offset is an instant; a naive one is the dialogue's local wall-clock time. Two times compare as
instants when both carry an offset, else as wall-clock times. Text order is wrong as soon as offsets differ: a
message said at 01:10+00:00 is later than one said at 01:50+01:00, and "13:00-05:00" is later than "12:00+00:00"
although its text sorts first. Forget-before, supersession and ``facts(as_of=)`` all order by these rules, as
``Memory.at`` does.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sodamem.errors import InputError

# SQL compares times as text, so a query first narrows by text with this much slack on either side (offsets span
# -12:00 to +14:00), then compares the rows it found exactly.
TEXT_SLACK = timedelta(days=2)


def text_bound(when: datetime, slack: timedelta) -> str:
    """``when + slack`` as ISO text for such a narrowing; past either end of the calendar, that end."""
    try:
        return (when + slack).isoformat()
    except OverflowError:
        return (datetime.max if slack > timedelta(0) else datetime.min).isoformat()


def parse(timestamp: str) -> datetime | None:
    """The time of an ISO 8601 string (``Z`` for UTC), None when it is not one."""
    text = timestamp.strip()
    if text.endswith(("Z", "z")):
        text = text[:-1] + "+00:00"
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        return None


def sort_key(timestamp: str, unknown: datetime = datetime.min) -> datetime:
    """A key that sorts times by instant (an offset's time as UTC wall clock; a naive time as it stands).
    Unparseable text sorts as ``unknown``."""
    when = parse(timestamp)
    if when is None:
        return unknown
    return when if when.tzinfo is None else _utc(when)  # within hours of the calendar's ends: that end


# A time must stay this far from either end of the calendar Python represents (years 1 to 9999): converted to UTC,
# and with the time words said at it resolved ("a decade ago", "next century"), it must still be a time.
EDGE_YEARS = 100


def out_of_range(when: datetime) -> str | None:
    """Why ``when`` cannot be a time a message was said at, or None when it can."""
    try:
        instant = when.astimezone(UTC) if when.tzinfo is not None else when
    except OverflowError:
        instant = None
    if instant is None or not EDGE_YEARS <= instant.year <= 9999 - EDGE_YEARS:
        return f"{when.isoformat()} is out of range: times must lie in the years {EDGE_YEARS} to {9999 - EDGE_YEARS}"
    return None


def comparable(a: datetime, b: datetime) -> tuple[datetime, datetime]:
    """``a`` and ``b`` as they compare: instants when both carry an offset (as naive UTC, so a time hours from the
    calendar's ends compares too), else wall-clock times."""
    if a.tzinfo is not None and b.tzinfo is not None:
        return _utc(a), _utc(b)
    return a.replace(tzinfo=None), b.replace(tzinfo=None)


def _utc(when: datetime) -> datetime:
    try:
        return when.astimezone(UTC).replace(tzinfo=None)
    except OverflowError:
        return datetime.min if when.year == 1 else datetime.max


def before(timestamp: str, when: datetime) -> bool:
    """Whether ``timestamp`` is strictly earlier than ``when``; an unknown time is not."""
    pair = _against(timestamp, when)
    return pair is not None and pair[0] < pair[1]


def at_or_before(timestamp: str, when: datetime) -> bool:
    """Whether ``timestamp`` is ``when`` or earlier; an unknown time is not."""
    pair = _against(timestamp, when)
    return pair is not None and pair[0] <= pair[1]


def _against(timestamp: str, when: datetime) -> tuple[datetime, datetime] | None:
    said = parse(timestamp) if timestamp else None
    return None if said is None else comparable(said, when)


def require_time(value: object, field: str) -> datetime:
    """``value`` when it is a datetime (a date, or an ISO string, is refused naming ``field``)."""
    if not isinstance(value, datetime):
        raise InputError(f"expected a datetime, got {type(value).__name__}", field=field)
    return value
