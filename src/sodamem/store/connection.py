"""The part of a DB-API connection the portable store modules use (``facts.py``, ``live.py``, ``forget.py``, the
read mixins, dumps, keys): ``sqlite3.Connection`` has it, and so does the PostgreSQL store's connection
(``store/postgres/connection.py``), which runs the same statements through PostgreSQL.

The statements those modules write are the portable subset both stores run: ``?`` placeholders, the column
``user``, ``INSERT OR IGNORE``, ``lastrowid`` after an insert; the PostgreSQL connection translates these few.
Rows are read by position or by column name.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Protocol


class Cursor(Protocol):
    @property
    def lastrowid(self) -> int | None: ...

    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...

    def fetchmany(self, size: int) -> list[Any]: ...

    def __iter__(self) -> Iterator[Any]: ...


class Connection(Protocol):
    def execute(self, sql: str, parameters: Sequence[Any] = ..., /) -> Cursor: ...

    def executemany(self, sql: str, parameters: Iterable[Sequence[Any]], /) -> Cursor: ...

    @property
    def in_transaction(self) -> bool: ...
