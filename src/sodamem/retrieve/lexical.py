"""The BM25 tunnel: lexical hits on pieces and turns, one cited hit per turn, with neighbouring turns as context."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from sodamem.records import ContextTurn, SearchHit
from sodamem.retrieve.fts_query import to_match_query
from sodamem.store.sqlite import FtsRow, SQLiteStore


@dataclass(frozen=True, slots=True)
class LexicalSettings:
    candidates_per_k: int = 8  # FTS rows fetched per requested hit
    turn_weight: float = 1.0
    # Piece BM25 added to a turn's score. 0 by default: on the LoCoMo dev split it lowered turn recall@10
    # (0.639 -> 0.622), since short pieces win on length normalisation. Pieces still choose the cited span.
    piece_weight: float = 0.0
    context_window: int = 1  # neighbouring turns (each side) returned as context


def bm25_search(
    store: SQLiteStore, user: str, query: str, k: int = 10, settings: LexicalSettings | None = None
) -> list[SearchHit]:
    settings = settings or LexicalSettings()
    match = to_match_query(query)
    if match is None or k <= 0:
        return []
    limit = max(k * settings.candidates_per_k, 50)
    turn_scores: dict[int, float] = {}
    if settings.turn_weight:
        for row in store.search_turns(user, match, limit):
            turn_scores[row.rowid] = -settings.turn_weight * row.bm25
    if settings.piece_weight:
        for turn_pk, bm25 in _best_piece_per_turn(store, user, store.search_pieces(user, match, limit)).values():
            turn_scores[turn_pk] = turn_scores.get(turn_pk, 0.0) - settings.piece_weight * bm25
    ranked = sorted(turn_scores.items(), key=lambda item: (-item[1], item[0]))[:k]
    turn_pks = [pk for pk, _ in ranked]
    turns = store.turns_by_pk(user, turn_pks)
    focus = _focus_pieces(store, user, match, turn_pks)
    return [_hit(store, user, turns[pk], focus.get(pk), score, settings.context_window) for pk, score in ranked]


def _best_piece_per_turn(store: SQLiteStore, user: str, rows: list[FtsRow]) -> dict[int, tuple[int, float]]:
    """``turn_pk -> (turn_pk, bm25 of its best piece)`` from piece hits ordered best first."""
    pieces = store.pieces_by_pk(user, [r.rowid for r in rows])
    best: dict[int, tuple[int, float]] = {}
    for row in rows:
        turn_pk = int(pieces[row.rowid]["turn_pk"])
        best.setdefault(turn_pk, (turn_pk, row.bm25))
    return best


def _focus_pieces(store: SQLiteStore, user: str, match: str, turn_pks: list[int]) -> dict[int, sqlite3.Row]:
    """The best-matching piece of each turn: the span a hit cites (the whole turn when no piece matches)."""
    rows = store.search_pieces(user, match, limit=len(turn_pks) * 50, turn_pks=turn_pks)
    pieces = store.pieces_by_pk(user, [r.rowid for r in rows])
    focus: dict[int, sqlite3.Row] = {}
    for row in rows:
        piece = pieces[row.rowid]
        focus.setdefault(int(piece["turn_pk"]), piece)
    return focus


def _hit(
    store: SQLiteStore, user: str, turn: sqlite3.Row, piece: sqlite3.Row | None, score: float, window: int
) -> SearchHit:
    text = str(turn["text"])
    start, end = (int(piece["char_start"]), int(piece["char_end"])) if piece is not None else (0, len(text))
    index = int(turn["idx"])
    context = tuple(
        ContextTurn(turn_index=int(r["idx"]), turn_id=str(r["turn_id"]), speaker=str(r["speaker"]), text=str(r["text"]))
        for r in store.session_turns(user, int(turn["session_pk"]), index - window, index + window)
        if int(r["idx"]) != index
    )
    return SearchHit(
        session_id=str(turn["session_id"]),
        turn_index=index,
        turn_id=str(turn["turn_id"]),
        speaker=str(turn["speaker"]),
        char_start=start,
        char_end=end,
        timestamp=str(turn["timestamp"]),
        text=text[start:end],
        score=round(score, 6),
        turn_text=text,
        caption=turn["caption"],
        context=context,
    )
