"""The terms of a text exactly as the SQLite store's full-text indexes hold them, for the PostgreSQL store's BM25.

SQLite's FTS5 tokenizer ``porter unicode61 remove_diacritics 2`` (``store/fts.py``) decides what a token is (its
Unicode tables), how it folds and how the porter step stems (FTS5's own variant: ``bli -> ble``, ``logi -> log``).
Rather than a copy that drifts on some word, the PostgreSQL store asks that very tokenizer: an in-memory FTS5 table
in the standard library's ``sqlite3``, read back through ``fts5vocab``. Nothing is stored there: each batch is
rolled back.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Sequence

from sodamem.store.fts import TOKENIZER


class Fts5Tokenizer:
    """``terms(texts)``: for each text, its index terms in order (repeats kept: their count is the frequency)."""

    def __init__(self) -> None:
        self._conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        self._conn.execute(f"CREATE VIRTUAL TABLE doc USING fts5(t, tokenize='{TOKENIZER}')")
        self._conn.execute("CREATE VIRTUAL TABLE doc_terms USING fts5vocab(doc, 'instance')")
        self._lock = threading.Lock()

    def terms(self, texts: Sequence[str | None]) -> list[list[str]]:
        out: list[list[str]] = [[] for _ in texts]
        rows = [(i, t) for i, t in enumerate(texts) if t]
        if not rows:
            return out
        with self._lock:
            self._conn.execute("BEGIN")
            try:
                self._conn.executemany("INSERT INTO doc (rowid, t) VALUES (?, ?)", rows)
                for term, doc in self._conn.execute("SELECT term, doc FROM doc_terms ORDER BY doc, offset"):
                    out[int(doc)].append(str(term))
            finally:
                self._conn.execute("ROLLBACK")
        return out

    def close(self) -> None:
        self._conn.close()
