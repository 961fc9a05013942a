"""SQLite's query planner statistics (``ANALYZE``), refreshed as the memory grows.

Without statistics SQLite assumes an equality on an indexed column matches a handful of rows, so every
``WHERE user = ? AND id IN (...)`` (turn texts, mentions, rows of candidates: dozens a search) is read through the
index on ``user``: all of the user's turns, 20-30 ms a query at 100k turns, against 3 ms through the listed rowids.
With ``sqlite_stat1`` the planner sees that one user holds every row and takes the rowids. The statistics are
refreshed when the turns have grown past twice what they describe (and past ``MIN_TURNS``), so a growing memory
analyzes a logarithmic number of times; ``analysis_limit`` bounds each run to a sample of each index.
"""

from __future__ import annotations

import sqlite3

MIN_TURNS = 1000  # below this every plan reads few rows anyway
ANALYSIS_LIMIT = 1000  # rows sampled per index (PRAGMA analysis_limit): statistics need not be exact


def analyzed_turns(conn: sqlite3.Connection) -> int:
    """How many turns the statistics describe (0 when there are none)."""
    if conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'").fetchone() is None:
        return 0
    row = conn.execute("SELECT stat FROM sqlite_stat1 WHERE tbl = 'turns' LIMIT 1").fetchone()
    return int(str(row[0]).split()[0]) if row is not None else 0


def statistics_stale(conn: sqlite3.Connection) -> bool:
    """Whether the turns (by their highest id: no count of a large table) passed ``MIN_TURNS`` and twice what the
    statistics describe."""
    (highest,) = conn.execute("SELECT COALESCE(MAX(id), 0) FROM turns").fetchone()
    return int(highest) >= max(MIN_TURNS, 2 * analyzed_turns(conn))


def analyze(conn: sqlite3.Connection) -> None:
    conn.execute(f"PRAGMA analysis_limit = {ANALYSIS_LIMIT}")
    conn.execute("ANALYZE")
