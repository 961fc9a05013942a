"""The shape every hand-resolved time-phrase table keeps (bench/time_phrases*.py), checked the same way for each."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sodamem.ingest.timeparse import find_times
from sodamem.model import TimeGranularity

Row = tuple[str, str, str | None, str | None, str | None]


def check_table_shape(rows: Sequence[Row], *, min_rows: int, min_negatives: int, distinct: bool = True) -> None:
    """Enough rows, rows without a time, and anchors; every anchor parses, every interval is forward and names a
    known granularity; ``distinct``: no phrase twice."""
    assert len(rows) >= min_rows
    assert sum(row[2] is None for row in rows) >= min_negatives
    assert len({row[1] for row in rows}) >= 6
    if distinct:
        assert len({row[0] for row in rows}) == len(rows), "duplicate phrases"
    for text, anchor, start, end, granularity in rows:
        datetime.fromisoformat(anchor)
        if start is not None and end is not None:
            assert datetime.fromisoformat(start) < datetime.fromisoformat(end), text
            assert granularity in {g.value for g in TimeGranularity}, text


TUE = datetime(2024, 5, 14, 9, 30)  # a Tuesday morning (week 13 .. 19 May 2024): the blind tables' tests' anchor


def spans(text: str, anchor: datetime = TUE) -> list[tuple[str, str, str]]:
    """Every time phrase ``find_times`` reads in ``text``, as (start, end, granularity)."""
    return [
        (m.spec.start.isoformat(), m.spec.end.isoformat(), m.spec.granularity.value) for m in find_times(text, anchor)
    ]


def iso(value: str) -> str:
    return datetime.fromisoformat(value).isoformat()
