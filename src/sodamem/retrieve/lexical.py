"""The BM25 tunnel: lexical hits on pieces and turns, one cited hit per turn, with neighbouring turns as context."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from sodamem.records import ContextTurn, SearchHit
from sodamem.retrieve.fts_query import to_match_query
from sodamem.store.sqlite import SQLiteStore


@dataclass(frozen=True, slots=True)
class LexicalSettings:
    candidates_per_k: int = 8  # FTS rows fetched per requested hit, from each index
    piece_weight: float = 1.0  # a matching piece focuses the citation and adds its BM25 score
    turn_weight: float = 1.0
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
    for row in store.search_turns(user, match, limit):
        turn_scores[row.rowid] = turn_scores.get(row.rowid, 0.0) - settings.turn_weight * row.bm25
    piece_rows = store.search_pieces(user, match, limit)
    pieces = store.pieces_by_pk(user, [r.rowid for r in piece_rows])
    best_piece: dict[int, sqlite3.Row] = {}
    for row in piece_rows:  # best first
        piece = pieces[row.rowid]
        turn_pk = int(piece["turn_pk"])
        if turn_pk not in best_piece:
            best_piece[turn_pk] = piece
            turn_scores[turn_pk] = turn_scores.get(turn_pk, 0.0) - settings.piece_weight * row.bm25
    ranked = sorted(turn_scores.items(), key=lambda item: (-item[1], item[0]))[:k]
    turns = store.turns_by_pk(user, [pk for pk, _ in ranked])
    return [_hit(store, user, turns[pk], best_piece.get(pk), score, settings.context_window) for pk, score in ranked]


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
