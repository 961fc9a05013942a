"""BM25 on PostgreSQL from the lexical index's postings and statistics (``lexical.py``): FTS5's ``bm25()``.

``ranked`` scores like FTS5's ``bm25()``: for each query phrase (a quoted word of ``to_match_query``'s ``"a" OR
"b"``), ``idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * len / avglen))`` with k1 = 1.2, b = 0.75,
``idf = ln((N - n + 0.5) / (n + 0.5))`` (at least 1e-6), ``tf`` the phrase's occurrences in the row (all columns,
or the one a ``column : "word"`` filter names), ``len`` the row's tokens in all columns; the result is the negated
sum, lower is better, ties by row id. A quoted word that FTS5 splits into several tokens (a phrase) is scored as its
tokens, each on its own: PostgreSQL's store does not keep positions (``to_match_query`` makes such words only from
characters unicode61 treats as separators, which its word pattern already splits on).

One statement per search, in one of three shapes. Each posting brings its row's length (no probe of ``fts_docs`` per
matching row), and each query term's postings are read through the ``(tbl, user, term)`` index (a ``LATERAL`` join,
so the plan does not hang on statistics that lag a large ingest):

* a turns search on all columns reads each term's row count ``n`` from ``fts_terms`` (kept on write for turns);
* any other search counts each term's rows from the postings it reads;
* a search among a few given rows (``within``: the pieces of the turns a search found, for the span each cites)
  reads only those rows' postings and counts each term's rows in the index (for a one-column table, an index-only
  count), rather than reading every posting of every term (at 100,000 turns ~3,500 rows for two words).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from sodamem.store.fts import COLUMNS
from sodamem.store.postgres.connection import PgConnection
from sodamem.store.postgres.lexical import COUNTED
from sodamem.store.postgres.tokens import Fts5Tokenizer

K1 = 1.2
B = 0.75
_PHRASE = re.compile(r'(?:(\w+)\s*:\s*)?"((?:[^"]|"")*)"')

_SCORE = f"h.mult * h.idf * h.tf * {K1 + 1} / (h.tf + {K1} * (1 - {B} + {B} * h.len / tot.avglen))"
_HEAD = """
WITH q AS (SELECT term, col, count(*) AS mult FROM unnest(%(terms)s::text[], %(cols)s::int[]) AS q (term, col)
           GROUP BY term, col),
tot AS (SELECT n_rows::float8 AS n, n_tokens::float8 / n_rows AS avglen FROM fts_totals
        WHERE tbl = %(tbl)s AND "user" = %(user)s AND n_rows > 0),"""
# ``{filter}``: the join to the table where the caller filters on its row ``t``
_TAIL = f"""
SELECT h.rid, -sum({_SCORE}) AS bm25 FROM h CROSS JOIN tot {{filter}}
GROUP BY h.rid ORDER BY bm25, h.rid LIMIT %(limit)s"""
_IDF = "GREATEST(ln((tot.n - {n} + 0.5) / ({n} + 0.5)), 1e-6)"


def _postings(q: str) -> str:
    """Each row's occurrences of the term of ``q`` (in its column, or all), with the row's length."""
    return f"""(SELECT rid, sum(tf)::float8 AS tf, min(len) AS len FROM fts_postings
         WHERE tbl = %(tbl)s AND "user" = %(user)s AND term = {q}.term AND ({q}.col < 0 OR col = {q}.col)
         GROUP BY rid) p"""


_COUNTED = (
    _HEAD
    + f"""
idf AS (SELECT q.term, q.col, q.mult, {_IDF.format(n="f.df")} AS idf
        FROM q JOIN fts_terms f ON f.tbl = %(tbl)s AND f."user" = %(user)s AND f.term = q.term CROSS JOIN tot),
h AS (SELECT idf.mult, idf.idf, p.rid, p.tf, p.len FROM idf CROSS JOIN LATERAL {_postings("idf")})"""
    + _TAIL
)
_COUNTING = (
    _HEAD
    + f"""
hits AS (SELECT q.term, q.col, q.mult, p.rid, p.tf, p.len FROM q CROSS JOIN LATERAL {_postings("q")}),
idf AS (SELECT term, col, {_IDF.format(n="count(*)")} AS idf FROM hits, tot GROUP BY term, col, tot.n),
h AS (SELECT hits.mult, idf.idf, hits.rid, hits.tf, hits.len FROM hits JOIN idf USING (term, col))"""
    + _TAIL
)
# ``{count}``: a term's rows among the postings ``f`` of the user's table; ``{within}``: the ids of the rows ranked
_WITHIN = (
    _HEAD
    + f"""
idf AS MATERIALIZED (SELECT q.term, q.col, q.mult, {_IDF.format(n="c.n")} AS idf FROM q CROSS JOIN tot
        CROSS JOIN LATERAL (SELECT {{count}} AS n FROM fts_postings f
                            WHERE f.tbl = %(tbl)s AND f."user" = %(user)s AND f.term = q.term) c),
h AS (SELECT idf.mult, idf.idf, p.rid, sum(p.tf)::float8 AS tf, min(p.len) AS len
      FROM ({{within}}) w JOIN fts_postings p ON p.tbl = %(tbl)s AND p.rid = w.id
      JOIN idf ON idf.term = p.term AND (idf.col < 0 OR p.col = idf.col)
      WHERE p."user" = %(user)s GROUP BY p.rid, idf.term, idf.col, idf.mult, idf.idf)"""
    + _TAIL
)


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
    *,
    within: str = "",
) -> list[tuple[int, float]]:
    """``(row id, bm25)`` of the user's rows of ``table`` matching ``match``, best (lowest) first. ``extra``: a
    PostgreSQL condition on the table's row ``t``; ``within``: a query of the ids of the only rows to rank, for a
    few rows (``%(p0)s``... placeholders in either, values in ``params``)."""
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
    if within:
        # one column: every posting of a term is a row holding it, counted from the index alone
        count = "count(*)" if len(COLUMNS[table]) == 1 else "count(DISTINCT f.rid)"
        if len(COLUMNS[table]) > 1:
            count += " FILTER (WHERE q.col < 0 OR f.col = q.col)"
        sql = _WITHIN.replace("{count}", count).replace("{within}", within)
    else:
        sql = _COUNTED if table in COUNTED and all(col < 0 for _, col in terms) else _COUNTING
    # the index holds only rows of the table: it is joined only to filter on its rows
    sql = sql.replace("{filter}", f"JOIN {table} t ON t.id = h.rid {extra}" if extra else "")
    rows = conn.native(
        sql,
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
