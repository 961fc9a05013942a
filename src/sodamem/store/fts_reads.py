"""Reads through the SQLite store's per-user FTS5 indexes (``store/fts.py``): BM25 rankings of turns, pieces, facts
and entity names, and the term counts of the feedback query. Mixed into ``SQLiteStore``; the PostgreSQL store
answers the same questions from its own postings (``store/postgres/lexical.py``)."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from sodamem.store import fts
from sodamem.store.in_lists import marks
from sodamem.store.rows import FtsRow

_MAX_KEPT_TERMS = 200_000  # stems remembered per user; beyond that the memo starts afresh


class SQLiteFtsReads:
    conn: sqlite3.Connection
    # user -> (store generation, turns, stem -> turns holding it): fts5vocab counts a stem by walking its doclist,
    # ~90 stems per search (the feedback query's candidates), a tenth of a search's CPU at 700 turns.
    _term_counts: dict[str, tuple[int, int, dict[str, int]]]

    @property
    def generation(self) -> int:
        raise NotImplementedError  # SQLiteStore's

    def search_turns(self, user: str, match: str, limit: int) -> list[FtsRow]:
        return self._fts("turns", user, match, limit)

    def turn_term_counts(self, user: str, stems: Sequence[str]) -> tuple[dict[str, int], int]:
        """How many of the user's turns hold each index stem (those held by none are absent), and how many turns
        the user has: the user's own statistics, like those of the user's BM25 index."""
        generation = self.generation
        kept = self._term_counts.get(user)
        if kept is None or kept[0] != generation or len(kept[2]) > _MAX_KEPT_TERMS:
            total = int(self.conn.execute("SELECT COUNT(*) FROM turns WHERE user = ?", (user,)).fetchone()[0])
            kept = self._term_counts[user] = (generation, total, {})
        _, total, known = kept
        unknown = [stem for stem in dict.fromkeys(stems) if stem not in known]
        if unknown:
            found = fts.term_counts(self.conn, user, unknown)
            known.update((stem, found.get(stem, 0)) for stem in unknown)
        return {stem: known[stem] for stem in stems if known[stem]}, total

    def search_pieces(
        self, user: str, match: str, limit: int, *, turn_pks: Sequence[int] | None = None
    ) -> list[FtsRow]:
        """Piece hits, optionally only within the given turns."""
        if turn_pks is None:
            return self._fts("pieces", user, match, limit)
        marks = ",".join("?" * len(turn_pks))
        return self._fts("pieces", user, match, limit, f" AND t.turn_pk IN ({marks})", tuple(turn_pks))

    def _fts(
        self, table: str, user: str, match: str, limit: int, extra: str = "", params: tuple[int, ...] = ()
    ) -> list[FtsRow]:
        return [FtsRow(rowid, bm25) for rowid, bm25 in fts.ranked(self.conn, table, user, match, limit, extra, params)]

    def search_facts(self, user: str, match: str, limit: int, statuses: Sequence[str]) -> list[FtsRow]:
        """The user's facts with one of ``statuses`` matching the full-text query ``match``, best first."""
        status_in = f" AND t.status IN ({marks(statuses)})"
        rows = fts.ranked(self.conn, "facts", user, match, limit, status_in, statuses)
        return [FtsRow(pk, bm25) for pk, bm25 in rows]

    def entities_named_with(self, user: str, word: str, limit: int) -> list[int]:
        """The user's entities whose name holds ``word`` (as the entities index tokenises it), best first."""
        match = f'name : "{word.replace(chr(34), "")}"'
        return [pk for pk, _ in fts.ranked(self.conn, "entities", user, match, limit)]
