"""``IN (...)`` lists that stay under SQLite's bound on host parameters."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TypeVar

_Item = TypeVar("_Item")
# Host parameters per ``IN (...)`` list: well under SQLite's limit (32,766 since 3.32; 999 on older builds).
IN_LIST_CHUNK = 500


def chunked(items: Sequence[_Item], size: int = IN_LIST_CHUNK) -> Iterator[list[_Item]]:
    """``items`` a chunk at a time, for ``IN (...)`` lists that stay under SQLite's bound on parameters."""
    for start in range(0, len(items), size):
        yield list(items[start : start + size])


def marks(items: Sequence[object]) -> str:
    """One ``?`` per item, comma-separated: the inside of an ``IN (...)`` list."""
    return ",".join("?" * len(items))
