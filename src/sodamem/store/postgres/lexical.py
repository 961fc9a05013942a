"""BM25 on PostgreSQL, the very ranking the SQLite store's FTS5 indexes give (``store/fts.py``).

Terms come from FTS5's own tokenizer (``tokens.py``). Triggers log every change of an indexed column to
``fts_pending``; ``drain`` applies the log inside the writing transaction, before it commits, to the postings (term
frequency per row and column), the row lengths, and the per-user statistics (rows holding each term, rows, tokens):
one user's data never moves another's ranking, as with the SQLite store's per-user indexes.

``ranked`` scores like FTS5's ``bm25()``: for each query phrase (a quoted word of ``to_match_query``'s ``"a" OR
"b"``), ``idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * len / avglen))`` with k1 = 1.2, b = 0.75,
``idf = ln((N - n + 0.5) / (n + 0.5))`` (at least 1e-6), ``tf`` the phrase's occurrences in the row (all columns,
or the one a ``column : "word"`` filter names), ``len`` the row's tokens in all columns; the result is the negated
sum, lower is better, ties by row id. A quoted word that FTS5 splits into several tokens (a phrase) is scored as its
tokens, each on its own: PostgreSQL's store does not keep positions (``to_match_query`` makes such words only from
characters unicode61 treats as separators, which its word pattern already splits on).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

from sodamem.store.fts import COLUMNS
from sodamem.store.integrity import Problem, ProblemKind
from sodamem.store.postgres.connection import PgConnection
from sodamem.store.postgres.tokens import Fts5Tokenizer

K1 = 1.2
B = 0.75
_PHRASE = re.compile(r'(?:(\w+)\s*:\s*)?"((?:[^"]|"")*)"')


def drain(conn: PgConnection, tokenizer: Fts5Tokenizer) -> int:
    """Apply the change log to the index (inside the caller's transaction); return how many changes."""
    pending = conn.native('SELECT seq, tbl, op, rid, "user", c1, c2 FROM fts_pending ORDER BY seq').fetchall()
    if not pending:
        return 0
    texts: list[str | None] = []
    for row in pending:
        texts += [row[5], row[6]] if row[2] == "insert" else [None, None]
    terms = tokenizer.terms(texts)
    for i, (_, table, op, rid, user, _c1, _c2) in enumerate(pending):
        columns = [Counter(terms[2 * i]), Counter(terms[2 * i + 1])][: len(COLUMNS[table])]
        if op == "insert":
            _insert(conn, table, int(rid), str(user), columns)
        else:
            _delete(conn, table, int(rid), str(user))
    conn.native("DELETE FROM fts_pending WHERE seq <= %s", (pending[-1][0],))
    return len(pending)


def _insert(conn: PgConnection, table: str, rid: int, user: str, columns: list[Counter[str]]) -> None:
    length = sum(sum(c.values()) for c in columns)
    conn.native('INSERT INTO fts_docs (tbl, rid, "user", len) VALUES (%s, %s, %s, %s)', (table, rid, user, length))
    postings = [(table, user, term, rid, col, tf) for col, counts in enumerate(columns) for term, tf in counts.items()]
    if postings:
        conn.raw.cursor().executemany(
            'INSERT INTO fts_postings (tbl, "user", term, rid, col, tf) VALUES (%s, %s, %s, %s, %s, %s)', postings
        )
    held = sorted(set().union(*columns)) if columns else []
    if held:
        conn.native(
            'INSERT INTO fts_terms (tbl, "user", term, df) SELECT %s, %s, term, 1 FROM unnest(%s::text[]) AS term'
            ' ON CONFLICT (tbl, "user", term) DO UPDATE SET df = fts_terms.df + 1',
            (table, user, held),
        )
    conn.native(
        'INSERT INTO fts_totals (tbl, "user", n_rows, n_tokens) VALUES (%s, %s, 1, %s)'
        ' ON CONFLICT (tbl, "user") DO UPDATE SET n_rows = fts_totals.n_rows + 1,'
        " n_tokens = fts_totals.n_tokens + EXCLUDED.n_tokens",
        (table, user, length),
    )


def _delete(conn: PgConnection, table: str, rid: int, user: str) -> None:
    row = conn.native("DELETE FROM fts_docs WHERE tbl = %s AND rid = %s RETURNING len", (table, rid)).fetchone()
    if row is None:
        return
    held = _delete_postings(conn, table, rid)
    if held:
        conn.native(
            'UPDATE fts_terms SET df = df - 1 WHERE tbl = %s AND "user" = %s AND term = ANY(%s::text[])',
            (table, user, held),
        )
        conn.native(
            'DELETE FROM fts_terms WHERE tbl = %s AND "user" = %s AND term = ANY(%s::text[]) AND df <= 0',
            (table, user, held),
        )
    conn.native(
        'UPDATE fts_totals SET n_rows = n_rows - 1, n_tokens = n_tokens - %s WHERE tbl = %s AND "user" = %s',
        (int(row[0]), table, user),
    )


def _delete_postings(conn: PgConnection, table: str, rid: int) -> list[str]:
    rows = conn.native("DELETE FROM fts_postings WHERE tbl = %s AND rid = %s RETURNING term", (table, rid)).fetchall()
    return sorted({str(r[0]) for r in rows})


def phrases(match: str) -> list[tuple[str | None, str]]:
    """``(column or None, quoted text)`` of each phrase of an FTS5 query of quoted words joined by OR."""
    return [(m.group(1), m.group(2).replace('""', '"')) for m in _PHRASE.finditer(match)]


def ranked(
    conn: PgConnection,
    tokenizer: Fts5Tokenizer,
    table: str,
    user: str,
    match: str,
    limit: int,
    extra: str = "",
    params: Sequence[Any] = (),
) -> list[tuple[int, float]]:
    """``(row id, bm25)`` of the user's rows of ``table`` matching ``match``, best (lowest) first; ``extra``: a
    PostgreSQL condition on the table's row ``t`` (``%s`` placeholders, values in ``params``)."""
    wanted = phrases(match)
    if not wanted:
        return []
    column_of: dict[str | None, int] = {None: -1}
    column_of.update({name: i for i, name in enumerate(COLUMNS[table])})
    terms: list[tuple[str, int]] = []
    for (column, _), tokens in zip(wanted, tokenizer.terms([text for _, text in wanted]), strict=True):
        terms += [(token, column_of[column]) for token in tokens]
    if not terms:
        return []
    rows = conn.native(
        f"""
WITH q AS (SELECT term, col, count(*) AS mult FROM unnest(%(terms)s::text[], %(cols)s::int[]) AS q (term, col)
           GROUP BY term, col),
tot AS (SELECT n_rows::float8 AS n, n_tokens::float8 / n_rows AS avglen FROM fts_totals
        WHERE tbl = %(tbl)s AND "user" = %(user)s AND n_rows > 0),
hits AS (SELECT q.term, q.col, q.mult, p.rid, sum(p.tf)::float8 AS tf FROM q
         JOIN fts_postings p ON p.tbl = %(tbl)s AND p."user" = %(user)s AND p.term = q.term
              AND (q.col < 0 OR p.col = q.col)
         GROUP BY q.term, q.col, q.mult, p.rid),
idf AS (SELECT term, col, GREATEST(ln((tot.n - count(*) + 0.5) / (count(*) + 0.5)), 1e-6) AS idf
        FROM hits, tot GROUP BY term, col, tot.n)
SELECT h.rid, -sum(h.mult * idf.idf * h.tf * {K1 + 1} / (h.tf + {K1} * (1 - {B} + {B} * d.len / tot.avglen)))
       AS bm25
FROM hits h JOIN idf USING (term, col) JOIN fts_docs d ON d.tbl = %(tbl)s AND d.rid = h.rid CROSS JOIN tot
JOIN {table} t ON t.id = h.rid {extra}
GROUP BY h.rid ORDER BY bm25, h.rid LIMIT %(limit)s""",
        {
            "terms": [t for t, _ in terms],
            "cols": [c for _, c in terms],
            "tbl": table,
            "user": user,
            "limit": limit,
            **{f"p{i}": v for i, v in enumerate(params)},
        },
    ).fetchall()
    return [(int(r[0]), float(r[1])) for r in rows]


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
