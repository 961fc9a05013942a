"""An Embedder wrapper that keeps vectors in an SQLite file keyed by (model, sha256 of text).

Benchmarks use it so that fresh memories (one per conversation or question) never embed a text twice across
runs; the memory's own store has its own cache table as well. The key's model is the inner embedder's ``name``
(two models never share a row); an asymmetric model's query vectors (e5's ``"query: "`` side) are kept under
``<name>|query``, apart from the same text embedded as a stored passage.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from sodamem.embed.base import Embedder, Vectors, embed_queries

#: Appended to the model name for the query side of an asymmetric model.
QUERY_SUFFIX = "|query"


class CachedEmbedder:
    def __init__(self, inner: Embedder, path: str | Path) -> None:
        self.inner = inner
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._conn = sqlite3.connect(str(path), isolation_level=None)
        self._conn.execute("PRAGMA journal_mode = WAL")
        self._conn.execute(
            "CREATE TABLE IF NOT EXISTS vectors (model TEXT, text_hash TEXT, vector BLOB,"
            " PRIMARY KEY (model, text_hash)) WITHOUT ROWID"
        )
        self.hits = 0
        self.misses = 0

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def dim(self) -> int:
        return self.inner.dim

    def embed(self, texts: Sequence[str]) -> Vectors:
        return self._embed(texts, self.name, self.inner.embed)

    def embed_queries(self, texts: Sequence[str]) -> Vectors:
        """Query vectors: cached apart when the inner model encodes queries differently, else the same as embed."""
        if getattr(self.inner, "embed_queries", None) is None:
            return self.embed(texts)
        return self._embed(texts, f"{self.name}{QUERY_SUFFIX}", lambda batch: embed_queries(self.inner, batch))

    def _embed(self, texts: Sequence[str], model: str, compute: Callable[[Sequence[str]], Vectors]) -> Vectors:
        digests = [hashlib.sha256(t.encode("utf-8")).hexdigest() for t in texts]
        found = self._lookup(model, list(dict.fromkeys(digests)))
        todo = list(dict.fromkeys(d for d in digests if d not in found))
        if todo:
            first_text = {d: t for d, t in zip(digests, texts, strict=True)}
            vectors = compute([first_text[d] for d in todo])
            rows = [(model, d, vectors[i].astype(np.float32).tobytes()) for i, d in enumerate(todo)]
            self._conn.execute("BEGIN")
            self._conn.executemany("INSERT OR IGNORE INTO vectors VALUES (?, ?, ?)", rows)
            self._conn.execute("COMMIT")
            found.update({d: vectors[i].astype(np.float32) for i, d in enumerate(todo)})
        self.hits += len(texts) - len(todo)
        self.misses += len(todo)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack([found[d] for d in digests]).astype(np.float32)

    def _lookup(self, model: str, digests: list[str]) -> dict[str, Vectors]:
        found: dict[str, Vectors] = {}
        for start in range(0, len(digests), 500):
            chunk = digests[start : start + 500]
            marks = ",".join("?" * len(chunk))
            for digest, blob in self._conn.execute(
                f"SELECT text_hash, vector FROM vectors WHERE model = ? AND text_hash IN ({marks})", (model, *chunk)
            ):
                found[digest] = np.frombuffer(blob, dtype=np.float32)
        return found

    def close(self) -> None:
        self._conn.close()
