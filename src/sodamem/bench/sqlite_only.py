"""The harnesses that read, time or break the SQLite file itself (WAL size, traced statements, leftovers after a
kill, the int8 vector matrices) need the SQLite store behind a ``Memory``."""

from __future__ import annotations

from sodamem.memory import Memory
from sodamem.store.portable import PortableStore
from sodamem.store.sqlite import SQLiteStore
from sodamem.store.vectors import VectorIndex


def sqlite_store(memory: Memory) -> SQLiteStore:
    store = memory.store
    if not isinstance(store, SQLiteStore):
        raise TypeError(f"this harness reads the SQLite file directly; the memory is on {type(store).__name__}")
    return store


def portable_store(memory: Memory) -> PortableStore:
    """The store behind ``memory`` as its connection runs portable SQL (either backend)."""
    store = memory.store
    if not isinstance(store, PortableStore):
        raise TypeError(f"no portable connection behind {type(store).__name__}")
    return store


def sqlite_index(memory: Memory) -> VectorIndex:
    index = memory.searcher.index
    if not isinstance(index, VectorIndex):
        raise ValueError("measuring the vector index needs an embedder and the SQLite store")
    return index
