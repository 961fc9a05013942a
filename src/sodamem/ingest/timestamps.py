"""Parsing of the timestamp formats the importers meet. Raise ``ValueError`` with a readable reason."""

from __future__ import annotations

import re
from datetime import datetime, time

from sodamem.ingest.timewords import MONTHS

_LOCOMO = re.compile(
    r"^\s*(?P<hour>\d{1,2}):(?P<minute>\d{2})\s*(?P<ampm>am|pm)\s+on\s+(?P<day>\d{1,2})\s+"
    r"(?P<month>[A-Za-z]+),?\s+(?P<year>\d{4})\s*$",
    re.IGNORECASE,
)
_LONGMEMEVAL = re.compile(
    r"^\s*(?P<year>\d{4})/(?P<month>\d{1,2})/(?P<day>\d{1,2})\s*(?:\([A-Za-z]+\))?\s*"
    r"(?:(?P<hour>\d{1,2}):(?P<minute>\d{2}))?\s*$"
)


def parse_iso(value: str) -> datetime:
    """ISO 8601 (``2023-05-08T13:56:00``, ``...Z``, ``...+02:00``, or a bare date)."""
    text = value.strip()
    if not text:
        raise ValueError("empty timestamp")
    if text.endswith(("Z", "z")):
        text = text[:-1] + "+00:00"
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(f"not an ISO 8601 timestamp: {value!r}") from None


def parse_locomo(value: str) -> datetime:
    """LoCoMo's ``1:56 pm on 8 May, 2023``."""
    match = _LOCOMO.match(value)
    if not match:
        raise ValueError(f"not a LoCoMo date_time like '1:56 pm on 8 May, 2023': {value!r}")
    month = MONTHS.get(match["month"].lower())
    if month is None:
        raise ValueError(f"unknown month {match['month']!r} in {value!r}")
    hour = int(match["hour"]) % 12 + (12 if match["ampm"].lower() == "pm" else 0)
    try:
        return datetime(int(match["year"]), month, int(match["day"]), hour, int(match["minute"]))
    except ValueError as exc:
        raise ValueError(f"impossible date {value!r}: {exc}") from None


def parse_longmemeval(value: str) -> datetime:
    """LongMemEval's ``2023/05/30 (Tue) 23:40``."""
    match = _LONGMEMEVAL.match(value)
    if not match:
        raise ValueError(f"not a LongMemEval date like '2023/05/30 (Tue) 23:40': {value!r}")
    try:
        return datetime(
            int(match["year"]),
            int(match["month"]),
            int(match["day"]),
            int(match["hour"] or 0),
            int(match["minute"] or 0),
        )
    except ValueError as exc:
        raise ValueError(f"impossible date {value!r}: {exc}") from None


def parse_any(value: str) -> datetime:
    """Try every known format; used for user-supplied times such as ``--now``."""
    for parser in (parse_iso, parse_locomo, parse_longmemeval):
        try:
            return parser(value)
        except ValueError:
            continue
    raise ValueError(f"unrecognised timestamp {value!r} (use ISO 8601, e.g. 2023-05-08T13:56)")


def parse_given_time(value: str | None, field: str) -> datetime | None:
    """A time a caller gave (``--now``, ``as_of``...): None stays None; a bad one raises ``InputError`` naming
    ``field``."""
    from sodamem.errors import InputError

    if value is None:
        return None
    try:
        return parse_any(value)
    except ValueError as exc:
        raise InputError(str(exc), field=field) from None


# A date with no time of day: ISO ("2026-03-05", "20260305"), or LongMemEval's ("2026/03/05", "2026/03/05 (Thu)").
_BARE_DATE = re.compile(r"^\s*(?:\d{4}-\d{2}-\d{2}|\d{8}|\d{4}/\d{1,2}/\d{1,2}(?:\s*\([A-Za-z]+\))?)\s*$")


def parse_as_of(value: str | None, field: str = "as_of") -> datetime | None:
    """An ``as_of`` time a caller gave: a bare date ("2026-03-05", "2026/03/05") means the end of that day, what
    was known by then, in the CLI, over HTTP and MCP, and on the page alike; a time means itself."""
    when = parse_given_time(value, field)
    if when is None or value is None or not _BARE_DATE.match(value):
        return when
    return datetime.combine(when.date(), time.max, tzinfo=when.tzinfo)
