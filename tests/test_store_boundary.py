"""SQL lives in store/: the other layers ask the store in domain terms (``MemoryStore``, store/protocol.py).

The scan reads each module's syntax tree: calls of ``.execute`` / ``.executemany`` / ``.executescript`` and string
literals (f-strings included, docstrings excluded) shaped like SQL statements. Bench harnesses, and the two caches
that keep their own SQLite files (not the memory store), are allowed their SQL.
"""

from __future__ import annotations

import ast
import re
import sqlite3
import typing
from collections.abc import Iterator
from pathlib import Path

import pytest

from sodamem.store import protocol, write_protocol
from sodamem.store.protocol import EntityLookups, EvidenceReads, GraphReads, MemoryStore, RankingReads, TurnLookups
from sodamem.store.sqlite import SQLiteStore
from sodamem.store.write_protocol import Store, Writes

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "sodamem"

# Outside store/, these may hold SQL (paths relative to src/sodamem; a folder allows everything under it).
SQL_ALLOWED = {
    "bench/": "benchmark and crash/many-process harnesses read and break the store directly to check it",
    "embed/cache.py": "the benchmarks' embedding cache: its own SQLite file, not the memory store",
    "llm/replay.py": "the LLM reply cache: its own SQLite file, not the memory store",
}

# Modules of the layers above the store that touch a database connection (import sqlite3 for its row or connection
# types, read ``.conn``, or hold the connection of ``store.transaction()``): none. They read through ``MemoryStore``
# and write through ``Writes`` (``store.writing()``, store/write_protocol.py), so either backend serves them.
CONNECTION_HOLDERS: dict[str, str] = {}
GUARDED_LAYERS = ("answer/", "dump/", "ingest/", "retrieve/", "server/", "memory.py", "keys.py")

_CALLS = {"execute", "executemany", "executescript"}
_STATEMENTS = re.compile(
    # Statements (the write and schema ones in any case), then clauses of a fragment handed to a store function.
    r"(?i:\bINSERT\s+(?:OR\s+\w+\s+)?INTO\s+\w+|\bDELETE\s+FROM\s+\w+\s+WHERE\b|\bUPDATE\s+\w+\s+SET\s+\w+\s*="
    r"|\b(?:CREATE|DROP)\s+(?:VIRTUAL\s+)?(?:TABLE|INDEX|TRIGGER|VIEW)\b|\bPRAGMA\s+\w+|\bBEGIN\s+IMMEDIATE\b)"
    r"|\bSELECT\b[\s\S]*?\bFROM\b|\bDELETE\s+FROM\b|\bWITH\s+\w+\s*(?:\([^)]*\))?\s+AS\s*\("
    r"|\b(?:WHERE|AND|OR|ON)\s+(?:\w+\.)?\w+\s*(?:IN\s*\(|(?:=|!=|<>|<=|>=|<|>)\s*\?|IS\s+(?:NOT\s+)?NULL\b)"
    r"|\bJOIN\s+\w+(?:\s+AS)?\s+\w+\s+ON\b|\b(?:ORDER|GROUP)\s+BY\b"
)


def _relative(path: Path) -> str:
    return path.relative_to(PACKAGE).as_posix()


def _allowed(relative: str) -> bool:
    return any(relative == key or (key.endswith("/") and relative.startswith(key)) for key in SQL_ALLOWED)


def _modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if not _relative(p).startswith("store/"))


def _docstrings(tree: ast.Module) -> set[int]:
    """The ids of the docstring nodes (module, class and function docstrings are prose, not SQL)."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def _string_text(node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):  # an f-string: its literal parts, a placeholder for each value
        return "".join(str(v.value) if isinstance(v, ast.Constant) else "{}" for v in node.values)
    return None


def sql_in(source: str) -> list[str]:
    """Each SQL call or statement in a module's source: ``line: what``."""
    tree = ast.parse(source)
    skip = _docstrings(tree)
    found: list[str] = []
    inside_fstring: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            inside_fstring.update(id(v) for v in node.values)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _CALLS:
            found.append(f"{node.lineno}: .{node.func.attr}(...)")
        if id(node) in skip or id(node) in inside_fstring:
            continue
        text = _string_text(node)
        if text is not None and (match := _STATEMENTS.search(text)):
            found.append(f"{getattr(node, 'lineno', 0)}: {match.group()[:60]!r}")
    return found


def _touches_a_connection(source: str) -> bool:
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import) and any(a.name == "sqlite3" for a in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and node.module == "sqlite3":
            return True
        if isinstance(node, ast.Attribute) and node.attr == "conn":
            return True
        if isinstance(node, ast.withitem) and node.optional_vars is not None:
            call = node.context_expr
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "transaction":
                return True
    return False


def _sources() -> Iterator[tuple[str, str]]:
    for path in _modules():
        yield _relative(path), path.read_text(encoding="utf-8")


def test_no_sql_outside_store() -> None:
    offenders = {
        relative: found for relative, source in _sources() if not _allowed(relative) and (found := sql_in(source))
    }
    assert offenders == {}, "SQL belongs in store/ (ask the store in domain terms):\n" + "\n".join(
        f"src/sodamem/{relative}: {', '.join(found)}" for relative, found in sorted(offenders.items())
    )


def test_the_allowed_files_still_hold_sql() -> None:
    """An allow-listed file whose SQL has gone must leave the list (so it cannot quietly grow back)."""
    for key in (k for k in SQL_ALLOWED if not k.endswith("/")):
        assert sql_in((PACKAGE / key).read_text(encoding="utf-8")), f"{key} holds no SQL: take it off SQL_ALLOWED"


def test_the_layers_above_the_store_touch_a_connection_only_where_listed() -> None:
    touching = {r for r, source in _sources() if r.startswith(GUARDED_LAYERS) and _touches_a_connection(source)}
    assert touching - set(CONNECTION_HOLDERS) == set(), "ask the store through MemoryStore (store/protocol.py)"
    assert set(CONNECTION_HOLDERS) - touching == set(), "no longer touches a connection: take it off the list"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ('conn.execute("SELECT 1")', 1),
        ("rows = db.executemany(sql, params)", 1),
        ('sql = "SELECT id FROM facts WHERE user = ?"', 1),
        ('sql = f"SELECT id FROM {table} WHERE id IN ({marks})"', 1),
        ('sql = ("SELECT id, name" " FROM entities")', 1),
        ('x = "insert or ignore into links VALUES (?)"', 1),
        ('x = "UPDATE facts SET status = ?"', 1),
        ('x = "DELETE FROM turns"', 1),
        ('x = "delete from links where id = ?"', 1),
        ('extra = f" AND t.status IN ({marks})"', 1),
        ('extra = " AND p.user = ?"', 1),
        ('x = " JOIN pieces p ON p.id = fs.piece_pk"', 1),
        ('help = "Delete from the memory every turn of a session."', 0),
        ('help = "Order by time; SELECT mode only."', 0),
        ('x = "WITH ids (id) AS (VALUES (?)) SELECT 1"', 1),
        ('x = "PRAGMA data_version"', 1),
        ('def f() -> None:\n    """Select the turns from the session; delete nothing."""', 0),
        ('message = "select a mode: bm25, dense"', 0),
        ('label = "Update the settings"', 0),
    ],
)
def test_the_scan_sees_sql(source: str, expected: int) -> None:
    assert len(sql_in(source)) == expected


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("import sqlite3", True),
        ("from sqlite3 import Row", True),
        ("rows = read(memory.store.conn)", True),
        ("with store.transaction() as conn:\n    write(conn)", True),
        ("with store.transaction():\n    pass", False),
        ("facts = store.facts_of_turn(user, session_id, 0)", False),
    ],
)
def test_the_scan_sees_connections(source: str, expected: bool) -> None:
    assert _touches_a_connection(source) is expected


def test_sqlite_store_is_a_memory_store() -> None:
    store = SQLiteStore()
    try:
        for interface in (Store, MemoryStore, GraphReads, EvidenceReads, RankingReads, EntityLookups, TurnLookups):
            assert isinstance(store, interface), interface.__name__
        with store.writing() as writes:
            assert isinstance(writes, Writes)
        assert isinstance(store.vector_index("fake", 8), protocol.VectorSearch)
    finally:
        store.close()


@pytest.mark.parametrize("interface", [MemoryStore, Store, Writes], ids=lambda i: i.__name__)
def test_the_interface_names_no_database_types(interface: type) -> None:
    """What a second backend implements: plain values and typed rows, no sqlite3 connections or rows."""
    for name in dir(interface):
        member = getattr(interface, name)
        if name.startswith("_") or not callable(member):
            continue
        hints = typing.get_type_hints(member, {**vars(protocol), **vars(write_protocol)})
        named = [h for h in hints.values() if sqlite3.__name__ in repr(h)]
        assert named == [], f"{interface.__name__}.{name} names {named}"
        assert "sql" not in " ".join(hints).lower(), f"{interface.__name__}.{name} takes SQL"
