"""Dense search on PostgreSQL with pgvector: cosine distance (``<=>``) over the ``embedding vector`` column of the
shared ``embeddings`` cache, joined to one user's rows and ordered in the database. An exact scan: per-user row
counts stay small enough that it beats keeping an approximate index per model and dimension (no HNSW yet)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from sodamem.embed.base import Vectors
from sodamem.store.in_lists import chunked
from sodamem.store.postgres.connection import PgConnection

TABLES = ("turns", "pieces", "facts", "entities")


def vector_literal(vector: Vectors) -> str:
    """pgvector's text form of a float32 vector, each value written so that it reads back to the same float32."""
    return "[" + ",".join(repr(float(v)) for v in np.asarray(vector, dtype=np.float32).reshape(-1)) + "]"


class PgVectorSearch:
    """``VectorSearch`` (store/protocol.py) over one model's vectors in PostgreSQL."""

    def __init__(self, conn: PgConnection, model: str, dim: int) -> None:
        self.conn, self.model, self.dim = conn, model, dim

    def search(self, user: str, table: str, query: Vectors, k: int) -> list[tuple[int, float]]:
        """``(row id, cosine)`` of the ``k`` nearest of the user's rows, best first (ties by id)."""
        _check(table)
        if k <= 0:
            return []
        rows = self.conn.native(
            f"SELECT r.id, 1 - (e.embedding <=> %(q)s::vector) FROM {table} r JOIN embeddings e"
            ' ON e.model = %(m)s AND e.text_hash = r.embed_hash WHERE r."user" = %(u)s'
            " ORDER BY e.embedding <=> %(q)s::vector, r.id LIMIT %(k)s",
            {"q": vector_literal(query), "m": self.model, "u": user, "k": k},
        ).fetchall()
        return [(int(pk), float(score)) for pk, score in rows]

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
