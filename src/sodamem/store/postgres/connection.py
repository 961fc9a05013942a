"""A psycopg connection that runs the portable store modules' statements (``store/connection.py``) on PostgreSQL.

The translation is small and fixed: ``?`` placeholders become ``%s``; the column ``user`` (a reserved word in
PostgreSQL) is quoted; ``INSERT OR IGNORE`` becomes ``ON CONFLICT DO NOTHING``; SQLite's null-safe ``IS [NOT] ?``
becomes ``IS [NOT] DISTINCT FROM``; an insert into a table with an ``id`` returns it (``lastrowid``); SQLite's
two-argument ``max(a, b)`` becomes ``GREATEST``; a unary ``+`` that only keeps SQLite's planner off an index is
dropped; ``True``/``False`` are stored as 1/0 as SQLite stores them. Statements are translated once and kept.
Rows read by position or by column name, like ``sqlite3.Row``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from typing import Any

import psycopg
from psycopg.rows import RowMaker

_TABLES_WITH_ID = frozenset({"sessions", "turns", "pieces", "entities", "facts", "links", "forget_log", "api_keys"})
_STRING = re.compile(r"'(?:[^']|'')*'")
_USER = re.compile(r'(?<![\w"])user(?![\w"])')
_PLACEHOLDER = re.compile(r"\?(?!\d)")
_OR_IGNORE = re.compile(r"^\s*INSERT\s+OR\s+IGNORE\s+INTO", re.IGNORECASE)
_INSERT_INTO = re.compile(r"^\s*INSERT\s+(?:OR\s+IGNORE\s+)?INTO\s+(\w+)", re.IGNORECASE)
_MAX_OF_TWO = re.compile(r"\bmax\((\w+), \(")
_IS_NOT_VALUE = re.compile(r"\bIS\s+NOT\s+(?=\?)", re.IGNORECASE)
_IS_VALUE = re.compile(r"\bIS\s+(?=\?)", re.IGNORECASE)
_UNARY_PLUS = re.compile(r"(?<=\s)\+(?=[A-Za-z_])")


@lru_cache(maxsize=2048)
def translate(sql: str) -> tuple[str, bool]:
    """PostgreSQL's text of a portable statement, and whether it returns the inserted row's id."""
    strings: list[str] = []

    def keep(match: re.Match[str]) -> str:
        strings.append(match.group())
        return f"\x00{len(strings) - 1}\x00"

    text = _STRING.sub(keep, sql)  # literals are left exactly as written
    text = text.replace("%", "%%")
    text = _IS_NOT_VALUE.sub("IS DISTINCT FROM ", text)
    text = _IS_VALUE.sub("IS NOT DISTINCT FROM ", text)
    text = _PLACEHOLDER.sub("%s", text)
    text = _UNARY_PLUS.sub("", text)
    text = _USER.sub('"user"', text)
    text = _MAX_OF_TWO.sub(r"GREATEST(\1, (", text)
    ignore = _OR_IGNORE.match(text) is not None
    if ignore:
        text = _OR_IGNORE.sub("INSERT INTO", text) + " ON CONFLICT DO NOTHING"
    insert = _INSERT_INTO.match(sql)
    returns_id = insert is not None and insert.group(1) in _TABLES_WITH_ID
    if returns_id:
        text += " RETURNING id"
    text = re.sub(r"\x00(\d+)\x00", lambda m: strings[int(m.group(1))].replace("%", "%%"), text)
    return text, returns_id


class Row(tuple[Any, ...]):
    """A row by position (``row[0]``) or by column name (``row["id"]``)."""

    _names: dict[str, int]

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            return tuple.__getitem__(self, self._names[key])
        return tuple.__getitem__(self, key)

    def keys(self) -> list[str]:
        return list(self._names)


def row_factory(cursor: psycopg.Cursor[Any]) -> RowMaker[Row]:
    names = {d.name: i for i, d in enumerate(cursor.description or ())}
    kind = type("Row", (Row,), {"_names": names})

    def make(values: Sequence[Any]) -> Row:
        row: Row = kind(values)
        return row

    return make


def _params(values: Sequence[Any]) -> tuple[Any, ...]:
    return tuple(int(v) if isinstance(v, bool) else v for v in values)


class PgCursor:
    def __init__(self, cursor: psycopg.Cursor[Row], returns_id: bool) -> None:
        self._cursor = cursor
        self._lastrowid: int | None = None
        if returns_id:
            row = cursor.fetchone()
            self._lastrowid = None if row is None else int(row[0])

    @property
    def lastrowid(self) -> int | None:
        return self._lastrowid

    @property
    def rowcount(self) -> int:
        return self._cursor.rowcount

    def fetchone(self) -> Any:
        return self._cursor.fetchone() if self._cursor.description is not None else None

    def fetchall(self) -> list[Any]:
        return self._cursor.fetchall() if self._cursor.description is not None else []

    def fetchmany(self, size: int) -> list[Any]:
        return self._cursor.fetchmany(size) if self._cursor.description is not None else []

    def __iter__(self) -> Iterator[Any]:
        return iter(self.fetchall())


class PgConnection:
    """``execute`` / ``executemany`` of portable statements on one psycopg connection (``raw``)."""

    def __init__(self, raw: psycopg.Connection[Any]) -> None:
        self.raw: psycopg.Connection[Any] = raw

    def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> PgCursor:
        text, returns_id = translate(sql)
        cursor = self.raw.cursor(row_factory=row_factory)
        cursor.execute(text, _params(parameters))
        return PgCursor(cursor, returns_id)

    def executemany(self, sql: str, parameters: Iterable[Sequence[Any]], /) -> PgCursor:
        text, _ = translate(sql)
        cursor = self.raw.cursor(row_factory=row_factory)
        cursor.executemany(text, [_params(p) for p in parameters])
        return PgCursor(cursor, False)

    def native(self, sql: str, parameters: Sequence[Any] | dict[str, Any] = ()) -> PgCursor:
        """A statement written for PostgreSQL (``%s`` placeholders), run as it is."""
        cursor = self.raw.cursor(row_factory=row_factory)
        cursor.execute(sql, parameters)
        return PgCursor(cursor, False)

    @property
    def in_transaction(self) -> bool:
        return self.raw.info.transaction_status != psycopg.pq.TransactionStatus.IDLE
