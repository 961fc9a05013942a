"""The lexical index on PostgreSQL: the postings and statistics from which ``ranking.py`` computes the very BM25 the
SQLite store's FTS5 indexes give (``store/fts.py``).

Terms come from FTS5's own tokenizer (``tokens.py``). The turns and pieces an ingest or an add stores are indexed by
the statement that inserts them (``turn_writes.py``). Triggers log every other change of an indexed column to
``fts_pending``; ``drain`` applies the log inside the writing transaction, before it commits, to the postings (term
frequency per row and column, with the row's length), the row lengths, and the per-user statistics (rows and tokens
per table; rows holding each term for turns only, whose term counts ``term_counts`` and a turns search read: for
other tables the ranking counts a term's rows from its postings): one user's data never moves another's ranking, as
with the SQLite store's per-user indexes.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sodamem.store.fts import COLUMNS
from sodamem.store.integrity import Problem, ProblemKind
from sodamem.store.postgres.connection import PgConnection
from sodamem.store.postgres.tokens import Fts5Tokenizer

COUNTED = frozenset({"turns"})  # tables whose per-term row counts fts_terms keeps (upkeep on every write)


def drain(conn: PgConnection, tokenizer: Fts5Tokenizer, *, along: str = "") -> int:
    """Apply the change log to the index (inside the caller's transaction); return how many changes.

    Only the net effect is applied, in a few set-wise statements whatever the number of changes: a row whose first
    logged change is a delete loses what the index held for it, and a row whose last logged change is an insert is
    indexed with those values (an insert then a delete of one row in one transaction cancel out). The log is read
    and emptied by one statement: every row it holds then is this transaction's own (writers drain before they
    commit, and other writers' uncommitted rows are not seen). ``along``: a data-modifying statement without
    parameters that the caller's transaction also runs, sent as part of that statement (one statement less)."""
    with_along = f"WITH along AS ({along}) " if along else ""
    pending = sorted(
        conn.native(with_along + 'DELETE FROM fts_pending RETURNING seq, tbl, op, rid, "user", c1, c2').fetchall()
    )
    if not pending:
        return 0
    first: dict[tuple[str, int], str] = {}
    last: dict[tuple[str, int], tuple[str, str, str | None, str | None]] = {}
    for _, table, op, rid, user, c1, c2 in pending:
        key = (str(table), int(rid))
        first.setdefault(key, str(op))
        last[key] = (str(op), str(user), c1, c2)
    _delete_rows(conn, [key for key, op in first.items() if op == "delete"])
    inserts = [(table, rid, user, c1, c2) for (table, rid), (op, user, c1, c2) in last.items() if op == "insert"]
    _insert_rows(conn, tokenizer, inserts)
    return len(pending)


@dataclass(slots=True)
class IndexRows:
    """What indexing some rows adds, each row named by ``ref`` (its id, or whatever stands for it until known):
    ``docs`` (table, ref, user, length), ``postings`` (table, user, term, ref, column, tf, length), ``terms``
    (table, user, term, rows holding it; counted tables only) and ``totals`` (table, user, rows, tokens), the last two
    in key order (concurrent upserts then lock alike)."""

    docs: list[tuple[str, Any, str, int]]
    postings: list[tuple[str, str, str, Any, int, int, int]]
    terms: list[tuple[str, str, str, int]]
    totals: list[tuple[str, str, int, int]]


def index_rows(tokenizer: Fts5Tokenizer, rows: Sequence[tuple[str, Any, str, str | None, str | None]]) -> IndexRows:
    """The index rows of ``(table, ref, user, column 1, column 2)`` rows (the columns of ``COLUMNS[table]``)."""
    texts: list[str | None] = []
    for _, _, _, c1, c2 in rows:
        texts += [c1, c2]
    terms = tokenizer.terms(texts)
    docs: list[tuple[str, Any, str, int]] = []
    postings: list[tuple[str, str, str, Any, int, int, int]] = []
    df: Counter[tuple[str, str, str]] = Counter()
    totals: dict[tuple[str, str], list[int]] = {}
    for i, (table, ref, user, _, _) in enumerate(rows):
        columns = [Counter(terms[2 * i]), Counter(terms[2 * i + 1])][: len(COLUMNS[table])]
        length = sum(sum(c.values()) for c in columns)
        docs.append((table, ref, user, length))
        for col, counts in enumerate(columns):
            postings += [(table, user, term, ref, col, tf, length) for term, tf in counts.items()]
        if table in COUNTED:
            df.update((table, user, term) for term in set().union(*columns))
        total = totals.setdefault((table, user), [0, 0])
        total[0] += 1
        total[1] += length
    return IndexRows(
        docs,
        postings,
        [(*key, n) for key, n in sorted(df.items())],
        [(*key, n, tokens) for key, (n, tokens) in sorted(totals.items())],
    )


# The per-user statistics' upserts (CTEs), from the rows ``terms`` and ``totals`` of a jsonb CTE ``j``: this module's
# statement and the turn insert's (``turn_writes.py``) share them.
STATISTICS_CTES = """
terms AS (INSERT INTO fts_terms (tbl, "user", term, df)
    SELECT e->>0, e->>1, e->>2, (e->>3)::int FROM j, jsonb_array_elements(j.j->'terms') WITH ORDINALITY AS x (e, n)
    ORDER BY n
    ON CONFLICT (tbl, "user", term) DO UPDATE SET df = fts_terms.df + EXCLUDED.df),
totals AS (INSERT INTO fts_totals (tbl, "user", n_rows, n_tokens)
    SELECT e->>0, e->>1, (e->>2)::bigint, (e->>3)::bigint
    FROM j, jsonb_array_elements(j.j->'totals') WITH ORDINALITY AS x (e, n) ORDER BY n
    ON CONFLICT (tbl, "user") DO UPDATE SET
    n_rows = fts_totals.n_rows + EXCLUDED.n_rows, n_tokens = fts_totals.n_tokens + EXCLUDED.n_tokens)
"""


def _insert_rows(
    conn: PgConnection, tokenizer: Fts5Tokenizer, rows: list[tuple[str, int, str, str | None, str | None]]
) -> None:
    if not rows:
        return
    index = index_rows(tokenizer, rows)
    # One statement, its rows in one jsonb parameter: psycopg adapts a Python list element by element, which cost
    # an add more client time than the statements (json.dumps is C); jsonb rather than json, whose elements
    # PostgreSQL parses again for each field read from them (a fifth of the statement's time).
    conn.native(
        """
WITH j AS (SELECT %s::jsonb AS j),
docs AS (INSERT INTO fts_docs (tbl, rid, "user", len)
    SELECT e->>0, (e->>1)::bigint, e->>2, (e->>3)::int FROM j, jsonb_array_elements(j.j->'docs') e),
postings AS (INSERT INTO fts_postings (tbl, "user", term, rid, col, tf, len)
    SELECT e->>0, e->>1, e->>2, (e->>3)::bigint, (e->>4)::smallint, (e->>5)::int, (e->>6)::int
    FROM j, jsonb_array_elements(j.j->'postings') e),"""
        + STATISTICS_CTES
        + "SELECT NULL",
        (json.dumps({"docs": index.docs, "postings": index.postings, "terms": index.terms, "totals": index.totals}),),
    )


def _delete_rows(conn: PgConnection, keys: list[tuple[str, int]]) -> None:
    """Take what the index holds for these rows out of it (rows it does not hold are passed over)."""
    if not keys:
        return
    tables, rids = _columns(keys, 2)
    gone = conn.native(
        "DELETE FROM fts_docs d USING unnest(%s::text[], %s::bigint[]) AS k (tbl, rid)"
        ' WHERE d.tbl = k.tbl AND d.rid = k.rid RETURNING d.tbl, d."user", d.len',
        (tables, rids),
    ).fetchall()
    if not gone:
        return
    held = conn.native(
        "DELETE FROM fts_postings p USING unnest(%s::text[], %s::bigint[]) AS k (tbl, rid)"
        ' WHERE p.tbl = k.tbl AND p.rid = k.rid RETURNING p.tbl, p."user", p.term, p.rid',
        (tables, rids),
    ).fetchall()
    df = Counter((str(t), str(u), str(term)) for t, u, term, _ in {tuple(r) for r in held} if t in COUNTED)
    if df:
        terms = _columns([(*key, n) for key, n in sorted(df.items())], 4)
        conn.native(
            "UPDATE fts_terms f SET df = f.df - k.n FROM unnest(%s::text[], %s::text[], %s::text[], %s::int[])"
            ' AS k (tbl, "user", term, n) WHERE f.tbl = k.tbl AND f."user" = k."user" AND f.term = k.term',
            terms,
        )
        conn.native(
            'DELETE FROM fts_terms f USING unnest(%s::text[], %s::text[], %s::text[]) AS k (tbl, "user", term)'
            ' WHERE f.tbl = k.tbl AND f."user" = k."user" AND f.term = k.term AND f.df <= 0',
            terms[:3],
        )
    totals: dict[tuple[str, str], list[int]] = {}
    for table, user, length in gone:
        total = totals.setdefault((str(table), str(user)), [0, 0])
        total[0] += 1
        total[1] += int(length)
    conn.native(
        "UPDATE fts_totals f SET n_rows = f.n_rows - k.n, n_tokens = f.n_tokens - k.tokens"
        ' FROM unnest(%s::text[], %s::text[], %s::bigint[], %s::bigint[]) AS k (tbl, "user", n, tokens)'
        ' WHERE f.tbl = k.tbl AND f."user" = k."user"',
        _columns([(*key, n, tokens) for key, (n, tokens) in sorted(totals.items())], 4),
    )


def _columns(rows: Sequence[Sequence[Any]], width: int) -> tuple[list[Any], ...]:
    """Rows as one list per column (for ``unnest``)."""
    return tuple([row[i] for row in rows] for i in range(width))


def term_counts(conn: PgConnection, user: str, stems: Sequence[str]) -> dict[str, int]:
    """How many of the user's turns hold each stem (stems held by none are absent)."""
    if not stems:
        return {}
    rows = conn.native(
        "SELECT term, df FROM fts_terms WHERE tbl = 'turns' AND \"user\" = %s AND term = ANY(%s::text[])",
        (user, sorted(set(stems))),
    ).fetchall()
    return {str(term): int(df) for term, df in rows}


def check_index(conn: PgConnection) -> list[Problem]:
    """The index against the tables: every indexed row has its row length, no row lacks one, and the change log
    is empty (it is drained before every commit)."""
    found: list[str] = []
    for table in COLUMNS:
        missing = conn.native(
            f"SELECT count(*) FROM {table} t WHERE NOT EXISTS"
            " (SELECT 1 FROM fts_docs d WHERE d.tbl = %s AND d.rid = t.id)",
            (table,),
        ).fetchone()
        stale = conn.native(
            "SELECT count(*) FROM fts_docs d WHERE d.tbl = %s"
            f" AND NOT EXISTS (SELECT 1 FROM {table} t WHERE t.id = d.rid)",
            (table,),
        ).fetchone()
        if int(missing[0]):
            found.append(f"{table}: {int(missing[0])} rows not indexed")
        if int(stale[0]):
            found.append(f"{table}: {int(stale[0])} index rows without their row")
    pending = conn.native("SELECT count(*) FROM fts_pending").fetchone()
    if int(pending[0]):
        found.append(f"{int(pending[0])} changes not applied to the index")
    return [Problem(ProblemKind.FTS_INDEX, text) for text in found]
