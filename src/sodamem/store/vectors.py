"""Dense vectors kept in memory per (user, table) as int8 rows with a per-row scale, rebuilt when the store changed.

Why int8: at 100k turns a user has ~400k vectors (turns, pieces, facts); as float32 they took ~600 MB of the search
process (and as much again in transient copies while the matrix was built), against a budget of 800 MB with the
model loaded. int8 is a quarter of that. Brute force with numpy: the rows are widened to float32 a cache-sized
block at a time and multiplied by the query (BLAS, one thread), which costs no more than the float32 product did.
The ``k`` best are then rescored exactly from the float32 vectors in SQLite, so rankings and scores are float32's
(quantisation error, ~5e-4 in cosine, only decides which few candidates get rescored).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from sodamem.blas import one_blas_thread
from sodamem.embed.base import Vectors
from sodamem.store.in_lists import chunked

if TYPE_CHECKING:
    from sodamem.store.portable import PortableStore

TABLES = ("turns", "pieces", "facts", "entities")
# Rows widened to float32 per block: 1,024 x 384 x 4 B = 1.5 MB stays in a 2 MB L2 cache.
BLOCK_ROWS = 1024
# Rows read from SQLite per fetch while building (3 MB of blobs at a time, never the whole table).
FETCH_ROWS = 2048
# Approximate candidates rescored exactly: k * OVERSAMPLE, at least k + MIN_EXTRA.
OVERSAMPLE = 2
MIN_EXTRA = 32
# Exact vectors read for rescoring are kept for the next searches, up to this many rows per index (~30 MB at 384
# dimensions): reading them from SQLite was a fifth of a search's CPU at 1k turns (bench serve).
EXACT_CACHE_ROWS = 20_000
# A table of up to this many rows also keeps its exact float32 rows beside the codes (6 MB at 384 dimensions), within
# EXACT_CACHE_ROWS for the whole index: a search then scores every row exactly in one product. At 700 turns, picking
# and stacking the rescored rows cost ~3 ms of a ~35 ms search (bench serve); the product over all of them, 0.1 ms.
SMALL_TABLE_ROWS = 4096
# Rows that name a text but had no vector yet when the matrix was read (another process's add commits its turns,
# then their vectors), tracked by id up to this many; beyond, any older row gaining a vector forces a rebuild.
PENDING_ROWS = 512

# Row ids inside a matrix's id range that name a text without a vector of the model; None: more than PENDING_ROWS.
Pending = NDArray[np.int64] | None


@dataclass(frozen=True, slots=True)
class QuantizedMatrix:
    """``codes[i] * scales[i]`` approximates the vector of row ``ids[i]`` (ids ascending); ``marks[i]`` is a
    fingerprint of the row's text hash, to tell a deleted row from a new one that took its id. ``exact``: the
    float32 rows themselves, kept for small tables only (``SMALL_TABLE_ROWS``)."""

    ids: NDArray[np.int64]
    codes: NDArray[np.int8]
    scales: NDArray[np.float32]
    marks: NDArray[np.int64]
    exact: Vectors | None = None

    def taken(self, rows: NDArray[Any]) -> QuantizedMatrix:
        """The matrix of the given rows (a mask or positions), in that order."""
        exact = self.exact[rows] if self.exact is not None else None
        return QuantizedMatrix(self.ids[rows], self.codes[rows], self.scales[rows], self.marks[rows], exact)


def text_mark(embed_hash: str) -> int:
    """60 bits of a sha256 hex digest: enough to tell two texts apart, and an int64."""
    return int(embed_hash[:15], 16)


def quantize_into(vectors: Vectors, codes: NDArray[np.int8], scales: NDArray[np.float32]) -> None:
    """Symmetric per-row int8: each row's largest magnitude maps to 127 (a zero row keeps scale 0)."""
    np.divide(np.abs(vectors).max(axis=1, initial=0.0), 127.0, out=scales, casting="unsafe")
    scaled = vectors / np.where(scales > 0, scales, np.float32(1.0))[:, None]
    np.rint(scaled, out=scaled)
    np.copyto(codes, scaled, casting="unsafe")  # |scaled| <= 127 by construction


def quantize(vectors: Vectors) -> tuple[NDArray[np.int8], NDArray[np.float32]]:
    codes = np.empty(vectors.shape, dtype=np.int8)
    scales = np.empty(len(vectors), dtype=np.float32)
    quantize_into(np.asarray(vectors, dtype=np.float32), codes, scales)
    return codes, scales


def approximate_scores(
    codes: NDArray[np.int8], scales: NDArray[np.float32], query: Vectors, block_rows: int = BLOCK_ROWS
) -> NDArray[np.float32]:
    """``(codes * scales[:, None]) @ query`` without widening more than ``block_rows`` rows at a time."""
    n = len(codes)
    out = np.empty(n, dtype=np.float32)
    q = np.ascontiguousarray(query, dtype=np.float32).reshape(-1)
    block = np.empty((min(block_rows, n), codes.shape[1]), dtype=np.float32)
    for start in range(0, n, block_rows):
        part = codes[start : start + block_rows]
        wide = block[: len(part)]
        wide[...] = part
        np.matmul(wide, q, out=out[start : start + len(part)])
    out *= scales
    return out


def top_k(ids: NDArray[np.int64], scores: NDArray[np.float32], k: int) -> NDArray[np.intp]:
    """Positions of the ``k`` highest scores, best first, ties by ascending id."""
    k = min(k, len(ids))
    if k <= 0:
        return np.zeros(0, dtype=np.intp)
    n = len(ids)
    top = np.argpartition(scores, n - k)[n - k :] if k < n else np.arange(n)  # no negated copy of all scores
    return top[np.lexsort((ids[top], -scores[top]))]


class VectorIndex:
    def __init__(self, store: PortableStore, model: str, dim: int) -> None:
        self.store = store
        self.model = model
        self.dim = dim
        # (user, table) -> (store generation, the table's deletion count, matrix, its pending rows) when it was
        # built or extended
        self._matrices: dict[tuple[str, str], tuple[int, int, QuantizedMatrix, Pending]] = {}
        # (user, table) -> row id -> (its text mark, its exact vector): a row's vector depends on its text only,
        # so an entry is good while the matrix holds the row with the same mark (ids of deleted rows can be reused).
        self._exact: dict[tuple[str, str], dict[int, tuple[int, Vectors]]] = {}
        self._exact_rows = 0

    def quantized(self, user: str, table: str) -> QuantizedMatrix:
        """The compact matrix of ``user``'s rows of ``table``, brought up to date when the store has changed.

        An agent ingests a session, then searches, again and again: when rows were only added since the matrix
        was built (no vector gained by an older row), the new rows are appended instead of rebuilding everything
        (at 100k turns a rebuild takes seconds); rows deleted since (a forget) are dropped from it first."""
        key = (user, table)
        generation = self.store.generation
        cached = self._matrices.get(key)
        if cached is not None and cached[0] == generation:
            return cached[2]  # the common case, every search: no query to SQLite
        deletions = self._deletions(table)
        extended = None
        if cached is not None:
            kept = cached[2:] if cached[1] == deletions else self._pruned(user, table, cached[2])
            extended = self._extended(user, table, *kept) if kept is not None else None
        if extended is None:
            self._matrices.pop(key, None)  # let the stale one go before the new one is built
            extended = self._build(user, table)
        self._matrices[key] = (generation, deletions, *extended)
        return extended[0]

    def _keeps_exact(self, user: str, table: str, rows: int) -> bool:
        """Whether a matrix of ``rows`` rows keeps its float32 rows: a small table, while the index's other small
        tables hold fewer than EXACT_CACHE_ROWS with it (decided before the rows are copied)."""
        if rows > SMALL_TABLE_ROWS:
            return False
        others = (m[2] for k, m in self._matrices.items() if k != (user, table))
        return sum(len(m.ids) for m in others if m.exact is not None) + rows <= EXACT_CACHE_ROWS

    def matrix(self, user: str, table: str) -> tuple[NDArray[np.int64], Vectors]:
        """Exact float32 vectors of every row (read from SQLite, not kept): for small tables, e.g. facts."""
        count = self._count(user, table)
        ids = np.empty(count, dtype=np.int64)
        vectors = np.empty((count, self.dim), dtype=np.float32)
        filled = 0
        for chunk_ids, _, chunk in self._chunks(user, table):
            n = min(len(chunk_ids), count - filled)
            ids[filled : filled + n], vectors[filled : filled + n] = chunk_ids[:n], chunk[:n]
            filled += n
        return ids[:filled], vectors[:filled]

    def vectors_of(self, user: str, table: str, ids: Sequence[int]) -> dict[int, Vectors]:
        """Exact float32 vectors of the given rows that have one."""
        out: dict[int, Vectors] = {}
        for part in chunked(sorted({int(i) for i in ids})):
            rows = self.store.conn.execute(
                f"{self._select(table)} AND r.id IN ({','.join('?' * len(part))})", (self.model, user, *part)
            )
            for pk, blob in rows:
                out[int(pk)] = np.frombuffer(blob, dtype=np.float32)
        return out

    def exact_vectors(self, user: str, table: str, ids: Sequence[int]) -> dict[int, Vectors]:
        """What ``vectors_of`` returns, served from the rows read before while their text is unchanged."""
        matrix = self.quantized(user, table)
        wanted = np.unique(np.asarray(ids, dtype=np.int64))
        positions = np.searchsorted(matrix.ids, wanted)
        inside = positions < len(matrix.ids)
        inside[inside] = matrix.ids[positions[inside]] == wanted[inside]
        if matrix.exact is not None:  # every row with a vector is in the matrix
            return dict(zip(wanted[inside].tolist(), matrix.exact[positions[inside]], strict=True))
        marks = dict(zip(wanted[inside].tolist(), matrix.marks[positions[inside]].tolist(), strict=True))
        cache = self._exact.setdefault((user, table), {})
        out: dict[int, Vectors] = {}
        missing: list[int] = []
        for pk in wanted.tolist():
            entry = cache.get(pk)
            if entry is not None and pk in marks and entry[0] == marks[pk]:
                out[pk] = entry[1]
            else:
                missing.append(pk)
        if not missing:
            return out
        fetched = self.vectors_of(user, table, missing)
        out.update(fetched)
        if self._exact_rows + len(fetched) > EXACT_CACHE_ROWS:
            self._exact.clear()  # crude but bounded: a search at 100k turns touches a few hundred rows
            self._exact_rows = 0
            cache = self._exact.setdefault((user, table), {})
        for pk, vector in fetched.items():
            if pk in marks:
                self._exact_rows += pk not in cache
                cache[pk] = (marks[pk], vector)
        return out

    def search(self, user: str, table: str, query: Vectors, k: int) -> list[tuple[int, float]]:
        """The ``k`` rows with the highest cosine to ``query`` (a normalised vector), best first."""
        matrix = self.quantized(user, table)
        if len(matrix.ids) == 0 or k <= 0:
            return []
        q = np.ascontiguousarray(query, dtype=np.float32).reshape(-1)
        if matrix.exact is not None:
            with one_blas_thread():
                scores = matrix.exact @ q
            return [(int(matrix.ids[i]), float(scores[i])) for i in top_k(matrix.ids, scores, k)]
        # One BLAS thread for the product: on 2 cores, BLAS threads fighting the embedding model's threads made
        # search p95 5x worse (bench perf, 1k turns: 114 ms -> 19 ms with one thread).
        with one_blas_thread():
            approx = approximate_scores(matrix.codes, matrix.scales, q)
        candidates = matrix.ids[top_k(matrix.ids, approx, max(k * OVERSAMPLE, k + MIN_EXTRA))]
        exact = self.exact_vectors(user, table, candidates.tolist())
        cand_ids = np.array([pk for pk in candidates.tolist() if pk in exact], dtype=np.int64)
        if not len(cand_ids):
            return []
        scores = np.stack([exact[pk] for pk in cand_ids.tolist()]) @ q  # one product, as a brute force takes it
        return [(int(cand_ids[i]), float(scores[i])) for i in top_k(cand_ids, scores, k)]

    # -- building ---------------------------------------------------------------------------------------------

    def _select(self, table: str, columns: str = "r.id, e.vector") -> str:
        if table not in TABLES:
            raise ValueError(f"no vectors for {table!r}")
        return (
            f"SELECT {columns} FROM {table} r JOIN embeddings e ON e.model = ? AND e.text_hash = r.embed_hash"
            # "+r.user": not the (user, ...) indexes, which made SQLite walk every row of the user for an id
            # list (turns: 200 ids in 20 ms, not 3) and sort the whole table's blobs for the build.
            " WHERE +r.user = ?"
        )

    def _count(self, user: str, table: str) -> int:
        """An upper bound on the rows with a vector: the user's rows that name one."""
        if table not in TABLES:
            raise ValueError(f"no vectors for {table!r}")
        row = self.store.conn.execute(
            f"SELECT COUNT(*) FROM {table} WHERE user = ? AND embed_hash IS NOT NULL", (user,)
        ).fetchone()
        return int(row[0])

    def _chunks(self, user: str, table: str) -> Iterable[tuple[NDArray[np.int64], NDArray[np.int64], Vectors]]:
        cursor = self.store.conn.execute(f"{self._select(table, _MARKED)} ORDER BY r.id", (self.model, user))
        while rows := cursor.fetchmany(FETCH_ROWS):
            yield _unpack(rows, self.dim)

    def _deletions(self, table: str) -> int:
        if table not in TABLES:
            raise ValueError(f"no vectors for {table!r}")
        return self.store.deletions(table)

    def _pruned(self, user: str, table: str, matrix: QuantizedMatrix) -> tuple[QuantizedMatrix, Pending] | None:
        """``matrix`` without the rows deleted since it was built (a forget), and its pending rows: the ids and
        text hashes still stored are read, not their vectors, so this costs a fraction of a rebuild. None
        (rebuild) when a new row took a deleted row's id (SQLite reuses the largest ids) and so sits among the old
        ones."""
        last = int(matrix.ids[-1]) if len(matrix.ids) else 0
        rows = self.store.conn.execute(
            f"SELECT id, embed_hash FROM {table} WHERE +user = ? AND id <= ? AND embed_hash IS NOT NULL ORDER BY id",
            (user, last),
        ).fetchall()
        alive = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
        alive_marks = np.fromiter((text_mark(r[1]) for r in rows), dtype=np.int64, count=len(rows))
        keep = np.isin(matrix.ids, alive, assume_unique=True)
        kept_ids = matrix.ids[keep]
        at = np.searchsorted(alive, kept_ids)  # alive ids come in ascending order (rowid scan)
        if len(alive) and np.any(alive_marks[at] != matrix.marks[keep]):
            return None
        pending = _bounded(np.setdiff1d(alive, kept_ids, assume_unique=True))
        if keep.all():
            return matrix, pending
        return matrix.taken(keep), pending

    def _extended(
        self, user: str, table: str, matrix: QuantizedMatrix, pending: Pending
    ) -> tuple[QuantizedMatrix, Pending] | None:
        """``matrix`` with the rows added after its last id and the pending rows that have gained a vector since;
        None (rebuild) when an older row may have gained one that is not tracked (``pending`` None)."""
        last = int(matrix.ids[-1]) if len(matrix.ids) else 0
        conn = self.store.conn
        gained: list[Any] = []
        if pending is not None:  # a forget can lower the last id: rows above it come back as new rows, not here
            pending = pending[pending <= last]
        if pending is None:
            older = conn.execute(
                f"SELECT COUNT(*) FROM ({self._select(table)} AND r.id <= ?)", (self.model, user, last)
            ).fetchone()
            if int(older[0]) != len(matrix.ids):
                return None
        elif len(pending):
            for part in chunked(pending.tolist()):
                gained += conn.execute(
                    f"{self._select(table, _MARKED)} AND r.id IN ({','.join('?' * len(part))})",
                    (self.model, user, *part),
                ).fetchall()
        rows = conn.execute(
            f"{self._select(table, _MARKED)} AND r.id > ? ORDER BY r.id", (self.model, user, last)
        ).fetchall()
        top = int(rows[-1][0]) if rows else last
        named = conn.execute(
            f"SELECT id FROM {table} WHERE +user = ? AND id > ? AND id < ? AND embed_hash IS NOT NULL",
            (user, last, top),
        ).fetchall()
        # rows without a vector beyond the new last id are read again by the next extension's "id > last"
        waiting = np.setdiff1d(np.array([r[0] for r in named], dtype=np.int64), [r[0] for r in rows])
        if pending is not None:
            pending = _bounded(np.union1d(np.setdiff1d(pending, [r[0] for r in gained]), waiting))
        elif len(waiting):
            pending = None
        if not rows and not gained:
            return matrix, pending
        ids, marks, vectors = _unpack(gained + rows, self.dim)
        codes, scales = quantize(vectors)
        exact = None
        if matrix.exact is not None and self._keeps_exact(user, table, len(matrix.ids) + len(ids)):
            exact = np.concatenate([matrix.exact, vectors])
        # One transient copy of the matrix per ingest call, where a rebuild re-read every vector from SQLite.
        grown = QuantizedMatrix(
            np.concatenate([matrix.ids, ids]),
            np.concatenate([matrix.codes, codes]),
            np.concatenate([matrix.scales, scales]),
            np.concatenate([matrix.marks, marks]),
            exact,
        )
        if gained:  # their ids sit among the old ones: back into id order
            grown = grown.taken(np.argsort(grown.ids, kind="stable"))
        return grown, pending

    def _build(self, user: str, table: str) -> tuple[QuantizedMatrix, Pending]:
        """Preallocated and filled a chunk at a time: no list of every row, no stacked copy."""
        count = self._count(user, table)
        ids = np.empty(count, dtype=np.int64)
        codes = np.empty((count, self.dim), dtype=np.int8)
        scales = np.empty(count, dtype=np.float32)
        marks = np.empty(count, dtype=np.int64)
        exact = np.empty((count, self.dim), dtype=np.float32) if self._keeps_exact(user, table, count) else None
        filled = 0
        for chunk_ids, chunk_marks, chunk in self._chunks(user, table):
            n = min(len(chunk_ids), count - filled)
            ids[filled : filled + n] = chunk_ids[:n]
            marks[filled : filled + n] = chunk_marks[:n]
            quantize_into(chunk[:n], codes[filled : filled + n], scales[filled : filled + n])
            if exact is not None:
                exact[filled : filled + n] = chunk[:n]
            filled += n
        matrix = QuantizedMatrix(ids, codes, scales, marks, exact)
        if filled == count:
            return matrix, _NONE_PENDING
        # rows naming a text without a vector (yet): copy only the part that is used, and track them
        matrix = matrix.taken(np.arange(filled))
        last = int(matrix.ids[-1]) if filled else 0
        named = self.store.conn.execute(
            f"SELECT id FROM {table} WHERE +user = ? AND id < ? AND embed_hash IS NOT NULL", (user, last)
        ).fetchall()
        alive = np.array([r[0] for r in named], dtype=np.int64)
        return matrix, _bounded(np.setdiff1d(alive, matrix.ids))


_MARKED = "r.id, r.embed_hash, e.vector"
_NONE_PENDING: NDArray[np.int64] = np.zeros(0, dtype=np.int64)


def _bounded(pending: NDArray[np.int64]) -> Pending:
    return pending if len(pending) <= PENDING_ROWS else None


def _unpack(rows: Sequence[Any], dim: int) -> tuple[NDArray[np.int64], NDArray[np.int64], Vectors]:
    """``(id, embed_hash, vector blob)`` rows as arrays."""
    ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
    marks = np.fromiter((text_mark(r[1]) for r in rows), dtype=np.int64, count=len(rows))
    vectors = np.frombuffer(b"".join(r[2] for r in rows), dtype=np.float32).reshape(len(rows), dim)
    return ids, marks, vectors
