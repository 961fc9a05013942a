"""A psycopg connection that runs the portable store modules' statements (``store/connection.py``) on PostgreSQL.

The translation is small and fixed: ``?`` placeholders become ``%s``; the column ``user`` (a reserved word in
PostgreSQL) is quoted; ``INSERT OR IGNORE`` becomes ``ON CONFLICT DO NOTHING``; SQLite's null-safe ``IS [NOT] ?``
becomes ``IS [NOT] DISTINCT FROM``; an insert into a table with an ``id`` returns it (``lastrowid``); SQLite's
two-argument ``max(a, b)`` becomes ``GREATEST``; a unary ``+`` that only keeps SQLite's planner off an index is
dropped; ``True``/``False`` are stored as 1/0 as SQLite stores them. Statements are translated once and kept.
Rows read by position or by column name, like ``sqlite3.Row``.

Inside ``pipelined()`` (a write transaction) statements are sent without waiting for their results (psycopg's
pipeline mode): a result is waited for only when it is read (a row, ``lastrowid``, ``rowcount``), so the writes
whose results nobody reads share a round trip with the next read. An error then surfaces at that read or at the
commit, and the transaction is rolled back whole, as it would have been at the statement.

The connection also notes whether a statement since ``begin_logging()`` may have written to the lexical change log
(``may_log``), so that a transaction that logged nothing commits without reading the log back (``lexical.drain``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from functools import lru_cache
from typing import Any

import psycopg
from psycopg import generators
from psycopg.rows import RowMaker

from sodamem.store.fts import COLUMNS

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
_WRITES = re.compile(r"\b(?:INSERT|UPDATE|DELETE|MERGE|TRUNCATE|COPY|CALL|DO)\b", re.IGNORECASE)
_TARGETS = re.compile(
    r"\b(INSERT\s+(?:OR\s+IGNORE\s+)?INTO|UPDATE|DELETE\s+FROM)\s+(?:ONLY\s+)?\"?(\w+)", re.IGNORECASE
)
_PLAIN_WRITES = re.compile(r"\bDO\s+(?:UPDATE|NOTHING)\b", re.IGNORECASE)  # ON CONFLICT's: the insert's own table
# The tables whose row changes the lexical log triggers record, the log itself, and sessions, whose deletes cascade
# to turns, pieces and facts (schema.py). Another table's writes reach none of them: its triggers write only
# links, the embedding queue and sequences.
_LOGGED = frozenset({*COLUMNS, "fts_pending"})


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


@lru_cache(maxsize=2048)
def may_log(sql: str) -> bool:
    """Whether a statement (either dialect) may add to the lexical change log: it writes to a logged table, deletes
    sessions, or writes in a way this does not follow (MERGE, TRUNCATE, COPY, CALL, DO). A statement that writes
    only through a function it calls is not seen: none of the store's does."""
    text = _PLAIN_WRITES.sub("", _STRING.sub("''", sql))
    if not _WRITES.search(text):
        return False
    targets = _TARGETS.findall(text)
    verbs = len(_WRITES.findall(text))
    if verbs > len(targets):
        return True  # a write whose target is not read here
    return any(
        table.lower() in _LOGGED or (table.lower() == "sessions" and verb.upper().startswith("DELETE"))
        for verb, table in targets
    )


class Row(tuple[Any, ...]):
    """A row by position (``row[0]``) or by column name (``row["id"]``)."""

    _names: dict[str, int]

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            return tuple.__getitem__(self, self._names[key])
        return tuple.__getitem__(self, key)

    def keys(self) -> list[str]:
        return list(self._names)


@lru_cache(maxsize=512)
def _row_kind(names: tuple[str, ...]) -> type[Row]:
    """One row class per column list, made once: making one per statement cost ~0.08 ms a statement."""
    return type("Row", (Row,), {"_names": {name: i for i, name in enumerate(names)}})


def row_factory(cursor: psycopg.Cursor[Any]) -> RowMaker[Row]:
    result = cursor.pgresult  # its field names, not ``description`` (which builds a column object for each)
    names = tuple((result.fname(i) or b"").decode() for i in range(result.nfields)) if result is not None else ()
    kind = _row_kind(names)

    def make(values: Sequence[Any]) -> Row:
        row: Row = kind(values)
        return row

    return make


def _params(values: Sequence[Any]) -> tuple[Any, ...]:
    return tuple(int(v) if isinstance(v, bool) else v for v in values)


def _sync(raw: psycopg.Connection[Any], pipeline: psycopg.Pipeline) -> None:
    """Send what is queued and read every result up to here. ``Pipeline.sync()`` alone stops sending once its own
    queue is empty, even where libpq still holds part of a large statement the socket did not take, and then waits
    for results the server cannot send (psycopg#685; a batch of 256 vectors hung so): everything goes out first."""
    raw.wait(generators.send(raw.pgconn))
    pipeline.sync()


class PgCursor:
    """A statement's result; in a pipeline, waited for when first read."""

    def __init__(self, cursor: psycopg.Cursor[Row], returns_id: bool, pipeline: psycopg.Pipeline | None = None) -> None:
        self._cursor = cursor
        self._returns_id = returns_id
        self._lastrowid: int | None = None
        self._pipeline = pipeline

    def _result(self) -> psycopg.Cursor[Row]:
        if self._pipeline is not None:
            if self._cursor.pgresult is None:
                _sync(self._cursor.connection, self._pipeline)
            self._pipeline = None
        if self._returns_id:
            self._returns_id = False
            row = self._cursor.fetchone()
            self._lastrowid = None if row is None else int(row[0])
        return self._cursor

    @property
    def lastrowid(self) -> int | None:
        self._result()
        return self._lastrowid

    @property
    def rowcount(self) -> int:
        return self._result().rowcount

    def _rows(self) -> psycopg.Cursor[Row] | None:
        """The cursor if its statement returned rows (an INSERT without RETURNING returns none)."""
        cursor = self._result()
        result = cursor.pgresult
        return cursor if result is not None and result.status == psycopg.pq.ExecStatus.TUPLES_OK else None

    def fetchone(self) -> Any:
        cursor = self._rows()
        return cursor.fetchone() if cursor is not None else None

    def fetchall(self) -> list[Any]:
        cursor = self._rows()
        return cursor.fetchall() if cursor is not None else []

    def fetchmany(self, size: int) -> list[Any]:
        cursor = self._rows()
        return cursor.fetchmany(size) if cursor is not None else []

    def __iter__(self) -> Iterator[Any]:
        return iter(self.fetchall())


class PgConnection:
    """``execute`` / ``executemany`` of portable statements on one psycopg connection (``raw``)."""

    def __init__(self, raw: psycopg.Connection[Any]) -> None:
        self.raw: psycopg.Connection[Any] = raw
        self._pipeline: psycopg.Pipeline | None = None
        self.logged = False  # a statement since begin_logging() may have written to the lexical change log

    def begin_logging(self) -> None:
        """From here, note the statements that may write to the lexical change log (``may_log``)."""
        self.logged = False

    @contextmanager
    def pipelined(self) -> Iterator[None]:
        """Statements of the block are queued, and sent when a result is read or the block ends."""
        with self.raw.pipeline() as pipeline:
            self._pipeline = pipeline
            try:
                yield
            except BaseException:
                # The results still queued are read here, their errors dropped (behind a failed statement the server
                # skipped the rest): the error that ended the block is the one raised, and leaving the pipeline
                # finds nothing to report (psycopg would log "error ignored terminating" for each such block).
                with suppress(psycopg.Error):
                    _sync(self.raw, pipeline)
                raise
            finally:
                self._pipeline = None

    def forget_prepared(self) -> None:
        """Empty psycopg's cache of prepared statements, and the server's with it (psycopg sends DEALLOCATE ALL
        before the next statement). After a statement failed in a pipeline, the statements queued behind it were
        skipped, the preparation of any among them included, but psycopg may still count them prepared when the
        failure ends the pipeline before their results are read: their next run would fail (``prepared statement
        "_pg3_5" does not exist``). psycopg offers no public call for this (it is pinned below 3.4)."""
        self.raw._prepared.clear()

    def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> PgCursor:
        text, returns_id = translate(sql)
        self.logged = self.logged or may_log(sql)
        cursor = self.raw.cursor(row_factory=row_factory)
        cursor.execute(text, _params(parameters))
        return PgCursor(cursor, returns_id, self._pipeline)

    def executemany(self, sql: str, parameters: Iterable[Sequence[Any]], /) -> PgCursor:
        text, _ = translate(sql)
        self.logged = self.logged or may_log(sql)
        cursor = self.raw.cursor(row_factory=row_factory)
        cursor.executemany(text, [_params(p) for p in parameters])
        return PgCursor(cursor, False, self._pipeline)

    def native(self, sql: str, parameters: Sequence[Any] | dict[str, Any] = (), *, logs: bool = True) -> PgCursor:
        """A statement written for PostgreSQL (``%s`` placeholders), run as it is. ``logs=False``: the caller knows
        that it adds nothing to the lexical change log, whatever it writes (the indexed turn insert)."""
        self.logged = self.logged or (logs and may_log(sql))
        cursor = self.raw.cursor(row_factory=row_factory)
        cursor.execute(sql, parameters)
        return PgCursor(cursor, False, self._pipeline)

    @property
    def in_transaction(self) -> bool:
        # in a pipeline the server may not have seen the queued BEGIN yet: the connection would still say idle
        return self._pipeline is not None or self.raw.info.transaction_status != psycopg.pq.TransactionStatus.IDLE
