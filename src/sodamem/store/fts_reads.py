"""Reads through the SQLite store's per-user FTS5 indexes (``store/fts.py``): BM25 rankings of turns, pieces, facts
and entity names, and the term counts of the feedback query. Mixed into ``SQLiteStore``; the PostgreSQL store
answers the same questions from its own postings (``store/postgres/lexical.py``)."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

from sodamem.store import fts
from sodamem.store.in_lists import marks
from sodamem.store.rows import FtsRow

_MAX_KEPT_TERMS = 200_000  # stems remembered per user; beyond that the memo starts afresh


@dataclass(slots=True)
class _TermMemo:
    """What ``turn_term_counts`` knows of one user's turns, as of store generation ``generation``."""

    generation: int
    deletions: int  # turn deletions ever made, when it was read: a forget starts a fresh memo
    last_turn: int  # the highest turn id counted
    total: int  # the user's turns
    known: dict[str, int]  # stem -> turns holding it (0: none)


class SQLiteFtsReads:
    conn: sqlite3.Connection
    # user -> what is known of its term counts: fts5vocab counts a stem by walking its doclist, ~90 stems per search
    # (the feedback query's candidates), a tenth of a search's CPU at 700 turns. Turns are never updated in place,
    # so a write that deleted no turn (an add) leaves every count right but for the turns it added: those are
    # counted apart (``fts.count_terms_after``) and the memo kept, instead of asking fts5vocab again after every add.
    _term_counts: dict[str, _TermMemo]

    @property
    def generation(self) -> int:
        raise NotImplementedError  # SQLiteStore's

    def deletions(self, table: str) -> int:
        raise NotImplementedError  # PortableStore's

    def search_turns(self, user: str, match: str, limit: int) -> list[FtsRow]:
        return self._fts("turns", user, match, limit)

    def turn_term_counts(self, user: str, stems: Sequence[str]) -> tuple[dict[str, int], int]:
        """How many of the user's turns hold each index stem (those held by none are absent), and how many turns
        the user has: the user's own statistics, like those of the user's BM25 index."""
        memo = self._term_memo(user)
        known = memo.known
        unknown = [stem for stem in dict.fromkeys(stems) if stem not in known]
        if unknown:
            found = fts.term_counts(self.conn, user, unknown)
            known.update((stem, found.get(stem, 0)) for stem in unknown)
        return {stem: known[stem] for stem in stems if known[stem]}, memo.total

    def _term_memo(self, user: str) -> _TermMemo:
        generation = self.generation
        memo = self._term_counts.get(user)
        if memo is not None and memo.generation == generation:
            return memo
        deletions = self.deletions("turns")
        if memo is None or memo.deletions != deletions or len(memo.known) > _MAX_KEPT_TERMS:
            total, last = fts.turn_totals(self.conn, user)
            memo = self._term_counts[user] = _TermMemo(generation, deletions, last, total, {})
            return memo
        added, last = fts.count_terms_after(self.conn, user, memo.last_turn)
        if added:
            memo.total += added
            memo.last_turn = last
            known = memo.known
            for stem, turns in fts.counted_terms(self.conn):
                if stem in known:
                    known[stem] += turns
        memo.generation = generation
        return memo

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
