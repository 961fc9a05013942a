"""Shared checks for importers: every failure becomes an ``InputError`` naming the session and field."""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Mapping
from datetime import datetime
from typing import Any

from sodamem import instants
from sodamem.errors import InputError

MAX_TURN_CHARS = 1_000_000
"""A turn longer than this is refused: it is almost certainly a file pasted by mistake, not dialogue."""


def json_line(line: str, number: int) -> Any:
    """One line of a JSON-lines file, parsed; malformed or too deeply nested JSON is an ``InputError`` naming it."""
    try:
        return json.loads(line)
    except json.JSONDecodeError as exc:
        raise InputError(f"malformed JSON at column {exc.colno}: {exc.msg}", field=f"line {number}") from None
    except RecursionError:
        raise InputError("JSON nested too deeply", field=f"line {number}") from None


def require_mapping(value: Any, *, session: str | None, field: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise InputError(f"expected a JSON object, got {_json_type(value)}", session=session, field=field)
    return value


def require_list(value: Any, *, session: str | None, field: str) -> list[Any]:
    if not isinstance(value, list):
        raise InputError(f"expected a JSON list, got {_json_type(value)}", session=session, field=field)
    return value


def require_str(
    record: Mapping[str, Any], key: str, *, session: str | None, field: str | None = None, nonempty: bool = True
) -> str:
    name = field or key
    if key not in record:
        raise InputError("missing", session=session, field=name)
    value = record[key]
    if not isinstance(value, str):
        raise InputError(f"expected a string, got {_json_type(value)}", session=session, field=name)
    if nonempty and not value.strip():
        raise InputError("is empty", session=session, field=name)
    return check_encodable(value, session=session, field=name)


def check_encodable(value: str, *, session: str | None, field: str) -> str:
    """Refuse lone surrogates (a JSON escape like "\\ud83d" without its pair): not storable as UTF-8 text."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InputError(
            f"contains an unpaired surrogate at character {exc.start} (a broken \\u escape)",
            session=session,
            field=field,
        ) from None
    return value


def optional_str(record: Mapping[str, Any], key: str, *, session: str | None, field: str | None = None) -> str | None:
    if record.get(key) is None:
        return None
    return require_str(record, key, session=session, field=field)


def parse_time(value: str, parser: Callable[[str], datetime], *, session: str | None, field: str) -> datetime:
    try:
        when = parser(value)
    except ValueError as exc:
        raise InputError(str(exc), session=session, field=field) from None
    return check_time(when, session=session, field=field)


def free_turn_id(session_id: str, index: int, taken: Collection[str]) -> str:
    """A turn's default id: ``<session>:<index>``, or the next such id not ``taken`` (by another turn's own id)."""
    number = index
    while f"{session_id}:{number}" in taken:
        number += 1
    return f"{session_id}:{number}"


def check_time(when: datetime, *, session: str | None, field: str) -> datetime:
    """``when``, when it can be the time something was said (not within a century of the calendar's ends)."""
    problem = instants.out_of_range(when)
    if problem is not None:
        raise InputError(problem, session=session, field=field)
    return when


def check_turn_text(text: str, *, session: str | None, field: str, max_chars: int = MAX_TURN_CHARS) -> str:
    if len(text) > max_chars:
        raise InputError(
            f"turn text is {len(text):,} characters; the limit is {max_chars:,}", session=session, field=field
        )
    if "\x00" in text:
        raise InputError("turn text contains a NUL character", session=session, field=field)
    return check_encodable(text, session=session, field=field)


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    return {
        dict: "an object",
        list: "a list",
        str: "a string",
        bool: "a boolean",
        int: "a number",
        float: "a number",
    }.get(type(value), type(value).__name__)
