"""Dense search on PostgreSQL with pgvector: cosine distance (``<=>``) over the ``embedding vector`` column of the
shared ``embeddings`` cache, joined to one user's rows.

Two ways, the faster for the user's size:

* **exact** for a user with fewer than ``EXACT_BELOW`` rows of the table (their row count is the lexical index's,
  ``fts_totals``): every one of the user's vectors is compared, in the database;
* **HNSW** above that, where the model's dimension has an index (migration ``0006_hnsw_indexes``): the ``CANDIDATES``
  nearest cached texts of that size come from the index (``hnsw.ef_search`` as large, so the index explores at
  least that many), are joined to the user's rows of the table (the cache is shared by every user and table, so
  many candidates are filtered out), and ranked by their exact distance. When fewer than ``k`` rows survive the
  filter, the exact scan answers instead: a filtered approximate search never returns fewer rows than asked.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from sodamem.embed.base import Vectors
from sodamem.store.in_lists import chunked
from sodamem.store.postgres.connection import PgConnection
from sodamem.store.postgres.schema import HNSW_DIMS

TABLES = ("turns", "pieces", "facts", "entities")
EXACT_BELOW = 5_000  # rows of the table the user holds: below, the exact scan
CANDIDATES = 1_000  # texts the HNSW index yields (pgvector's largest hnsw.ef_search)


def vector_literal(vector: Vectors) -> str:
    """pgvector's text form of a float32 vector, each value written so that it reads back to the same float32."""
    return "[" + ",".join(repr(float(v)) for v in np.asarray(vector, dtype=np.float32).reshape(-1)) + "]"


class PgVectorSearch:
    """``VectorSearch`` (store/protocol.py) over one model's vectors in PostgreSQL."""

    def __init__(self, conn: PgConnection, model: str, dim: int) -> None:
        self.conn, self.model, self.dim = conn, model, dim
        self._ef_set = False
        self.exact_below = EXACT_BELOW

    def search(self, user: str, table: str, query: Vectors, k: int) -> list[tuple[int, float]]:
        """``(row id, cosine)`` of the ``k`` nearest of the user's rows, best first (ties by id)."""
        _check(table)
        if k <= 0:
            return []
        if self.dim in HNSW_DIMS and k <= CANDIDATES and self._rows(user, table) >= self.exact_below:
            found = self._approximate(user, table, query, k)
            if len(found) == k:
                return found
        return self.search_exact(user, table, query, k)

    def search_exact(self, user: str, table: str, query: Vectors, k: int) -> list[tuple[int, float]]:
        """Every one of the user's vectors compared: the reference the approximate search is measured against."""
        _check(table)
        rows = self.conn.native(
            f"SELECT r.id, 1 - (e.embedding <=> %(q)s::vector) FROM {table} r JOIN embeddings e"
            ' ON e.model = %(m)s AND e.text_hash = r.embed_hash WHERE r."user" = %(u)s'
            " ORDER BY e.embedding <=> %(q)s::vector, r.id LIMIT %(k)s",
            {"q": vector_literal(query), "m": self.model, "u": user, "k": k},
        ).fetchall()
        return [(int(pk), float(score)) for pk, score in rows]

    def _approximate(self, user: str, table: str, query: Vectors, k: int) -> list[tuple[int, float]]:
        if not self._ef_set:
            self.conn.native(f"SET hnsw.ef_search = {CANDIDATES}")  # this connection's searches; writes unaffected
            self._ef_set = True
        dim = self.dim
        rows = self.conn.native(
            f"WITH near AS MATERIALIZED (SELECT text_hash, model, embedding::vector({dim}) <=> %(q)s::vector({dim})"
            f" AS d FROM embeddings WHERE dim = {dim} ORDER BY embedding::vector({dim}) <=> %(q)s::vector({dim})"
            f" LIMIT {CANDIDATES})"
            f' SELECT r.id, 1 - near.d FROM near CROSS JOIN LATERAL (SELECT id, "user" FROM {table} r'
            " WHERE substr(r.embed_hash, 1, 16) = substr(near.text_hash, 1, 16) AND r.embed_hash = near.text_hash"
            # OFFSET 0 keeps the user test outside: the rows of one text are found by its hash, whatever the
            # planner's statistics say (right after a large ingest they say the tables are empty)
            ' OFFSET 0) r WHERE near.model = %(m)s AND r."user" = %(u)s ORDER BY near.d, r.id LIMIT %(k)s',
            {"q": vector_literal(query), "m": self.model, "u": user, "k": k},
        ).fetchall()
        return [(int(pk), float(score)) for pk, score in rows]

    def _rows(self, user: str, table: str) -> int:
        row = self.conn.native('SELECT n_rows FROM fts_totals WHERE tbl = %s AND "user" = %s', (table, user)).fetchone()
        return 0 if row is None else int(row[0])

    def vectors_of(self, user: str, table: str, ids: Sequence[int]) -> dict[int, Vectors]:
        """The stored float32 vectors of the given rows that have one."""
        _check(table)
        out: dict[int, Vectors] = {}
        for part in chunked(sorted({int(i) for i in ids})):
            rows = self.conn.native(
                f"SELECT r.id, e.vector FROM {table} r JOIN embeddings e"
                ' ON e.model = %s AND e.text_hash = r.embed_hash WHERE r."user" = %s AND r.id = ANY(%s)',
                (self.model, user, part),
            ).fetchall()
            out.update({int(pk): np.frombuffer(bytes(blob), dtype=np.float32) for pk, blob in rows})
        return out

    def exact_vectors(self, user: str, table: str, ids: Sequence[int]) -> dict[int, Vectors]:
        return self.vectors_of(user, table, ids)


def _check(table: str) -> None:
    if table not in TABLES:
        raise ValueError(f"no vectors for {table!r}")
