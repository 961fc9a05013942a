"""Typed access to one JSON object of a dump line: every failure is an ``InputError`` naming the line and field."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from enum import StrEnum
from typing import Any

from sodamem import instants
from sodamem.errors import InputError
from sodamem.ingest.formats.common import check_encodable

ErrorAt = Callable[[str], InputError]


class LineFields:
    """A JSON object read from line ``line``; ``path`` locates it inside that line's record (``turns[3]``)."""

    def __init__(self, data: Any, line: int, path: str = "", session: str | None = None) -> None:
        self.line, self.path, self.session = line, path, session
        if not isinstance(data, dict):
            raise self.error(f"expected a JSON object, got {json_type(data)}")
        self.data: dict[str, Any] = data

    def field(self, key: str | None = None) -> str:
        """``line 7``, ``line 7, turns[3].text``: how errors name a place in the dump."""
        path = ".".join(p for p in (self.path, key) if p)
        return f"line {self.line}, {path}" if path else f"line {self.line}"

    def error(self, message: str, key: str | None = None) -> InputError:
        return InputError(message, session=self.session, field=self.field(key))

    def error_at(self, key: str) -> ErrorAt:
        return lambda message: self.error(message, key)

    def expect(self, *keys: str) -> None:
        """Exactly these keys: an unknown one is a typo or a newer format, both better refused than dropped."""
        unknown = sorted(set(self.data) - set(keys))
        if unknown:
            raise self.error(f"unknown field {unknown[0]!r}")
        for key in keys:
            if key not in self.data:
                raise self.error("missing", key)

    def nested(self, value: Any, path: str) -> LineFields:
        return LineFields(value, self.line, f"{self.path}.{path}" if self.path else path, self.session)

    def text(self, key: str, *, nonempty: bool = False) -> str:
        return string(self.data.get(key), self.error_at(key), self.field(key), nonempty=nonempty)

    def optional_text(self, key: str) -> str | None:
        return None if self.data.get(key) is None else self.text(key)

    def integer(self, key: str) -> int:
        return whole_number(self.data.get(key), self.error_at(key))

    def boolean(self, key: str) -> bool:
        value = self.data.get(key)
        if not isinstance(value, bool):
            raise self.error(f"expected true or false, got {json_type(value)}", key)
        return value

    def items(self, key: str) -> list[Any]:
        value = self.data.get(key)
        if not isinstance(value, list):
            raise self.error(f"expected a JSON list, got {json_type(value)}", key)
        return value

    def strings(self, key: str) -> tuple[str, ...]:
        values = tuple(
            string(v, self.error_at(f"{key}[{i}]"), self.field(f"{key}[{i}]")) for i, v in enumerate(self.items(key))
        )
        if len(set(values)) != len(values):
            raise self.error("holds a value twice", key)
        return values

    def choice(self, key: str, allowed: type[StrEnum]) -> str:
        value = self.text(key)
        if value not in {member.value for member in allowed}:
            raise self.error(f"unknown value {value!r}; expected one of {', '.join(m.value for m in allowed)}", key)
        return value

    def optional_choice(self, key: str, allowed: type[StrEnum]) -> str | None:
        return None if self.data.get(key) is None else self.choice(key, allowed)

    def time(self, key: str) -> str:
        """A time exactly as ``datetime.isoformat()`` writes it: session content hashes are computed from it."""
        value = self.text(key)
        try:
            canonical = datetime.fromisoformat(value).isoformat()
        except ValueError:
            canonical = None
        if canonical != value:
            raise self.error(f"expected an ISO 8601 time like 2024-05-01T09:30:00, got {value!r}", key)
        problem = instants.out_of_range(datetime.fromisoformat(value))
        if problem is not None:
            raise self.error(problem, key)
        return value

    def optional_time(self, key: str) -> str | None:
        return None if self.data.get(key) is None else self.time(key)


def string(value: Any, error: ErrorAt, field: str, *, nonempty: bool = False) -> str:
    if not isinstance(value, str):
        raise error(f"expected a string, got {json_type(value)}")
    if nonempty and not value.strip():
        raise error("is empty")
    return check_encodable(value, session=None, field=field)


def whole_number(value: Any, error: ErrorAt) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise error(f"expected a whole number >= 0, got {json_type(value)}")
    return value


def json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return f"the number {value}"
    return {float: "a number", dict: "an object", list: "a list", str: "a string"}.get(
        type(value), type(value).__name__
    )
