"""Scoring of :func:`sodamem.ingest.timeparse.resolve_time` against tables of hand-resolved phrases, and its speed.

A row is ``(text, anchor_iso, expected_start_iso, expected_end_iso, granularity)``; the expected values are all
``None`` where the text has no time expression. ``future`` is always inferred from the text. The tables:
``time_phrases.py`` (the basic conventions), ``time_phrases_grammar.py`` (written from English temporal grammar:
TimeML/TIMEX3, HeidelTime, SUTime) and ``time_phrases_heldout.py`` (dialogue phrasings written blind, before reading
the resolver: a stand-in for a held-out table) and ``time_phrases_blind2.py`` (a second blind table, written after
the first had been fixed against), ``time_phrases_blind3.py`` (a third, written after the second had been) and
``time_phrases_blind4.py`` (a fourth, written after the third had been), ``time_phrases_blind5.py`` (a fifth,
written after the fourth had been) and ``time_phrases_blind6.py`` (a sixth, written after the fifth had been).
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from datetime import datetime

from sodamem.bench import (
    time_phrases,
    time_phrases_blind2,
    time_phrases_blind3,
    time_phrases_blind4,
    time_phrases_blind5,
    time_phrases_blind6,
    time_phrases_grammar,
    time_phrases_heldout,
)
from sodamem.ingest.timeparse import find_times, resolve_time

Row = tuple[str, str, str | None, str | None, str | None]


def check_row(row: Row) -> str | None:
    """``None`` when ``resolve_time`` gives the row's interval and granularity, else a line saying what it gave."""
    text, anchor_iso, start_iso, end_iso, granularity = row
    mention = resolve_time(text, datetime.fromisoformat(anchor_iso))
    got = None if mention is None else (mention.spec.start, mention.spec.end, mention.spec.granularity.value)
    expected = None
    if start_iso is not None and end_iso is not None:
        expected = (datetime.fromisoformat(start_iso), datetime.fromisoformat(end_iso), granularity)
    if got == expected:
        return None
    shown = "None" if mention is None else f"{mention.spec.expression!r} -> {_show(got)}"
    return f"{text!r} @ {anchor_iso}: expected {_show(expected)}, got {shown}"


def table_accuracy(rows: Iterable[Row]) -> tuple[float, list[str]]:
    """The share of rows resolved exactly (start, end and granularity), and one line per failing row."""
    rows = list(rows)
    failures = [line for line in map(check_row, rows) if line is not None]
    return (1.0 - len(failures) / len(rows) if rows else 1.0), failures


def _show(value: tuple[datetime, datetime, str | None] | None) -> str:
    if value is None:
        return "None"
    start, end, granularity = value
    return f"[{start.isoformat()}, {end.isoformat()}) {granularity}"


def table_accuracies() -> dict[str, tuple[int, float]]:
    """Rows and accuracy of each hand-resolved table, by name ("basic", "grammar", "heldout", "blind2",
    "blind3", "blind4", "blind5", "blind6")."""
    tables = {
        "basic": time_phrases.ROWS,
        "grammar": time_phrases_grammar.ROWS,
        "heldout": time_phrases_heldout.ROWS,
        "blind2": time_phrases_blind2.ROWS,
        "blind3": time_phrases_blind3.ROWS,
        "blind4": time_phrases_blind4.ROWS,
        "blind5": time_phrases_blind5.ROWS,
        "blind6": time_phrases_blind6.ROWS,
    }
    return {name: (len(rows), table_accuracy(rows)[0]) for name, rows in tables.items()}


def resolver_throughput(pieces: Sequence[tuple[str, datetime]], rounds: int = 3) -> float:
    """Pieces per second through ``find_times`` alone, the best of ``rounds`` passes (shared machines drift)."""
    best = 0.0
    for _ in range(rounds):
        started = time.perf_counter()
        for text, anchor in pieces:
            find_times(text, anchor)
        elapsed = time.perf_counter() - started
        best = max(best, len(pieces) / elapsed if elapsed > 0 else 0.0)
    return best
