"""The BM25 tunnel: lexical rankings of turns (and pieces), and the piece each turn's citation focuses on."""

from __future__ import annotations

from collections.abc import Sequence

from sodamem.retrieve.dense import PieceTurns
from sodamem.store.rows import PieceRow
from sodamem.store.write_protocol import Store


def bm25_turns(store: Store, user: str, match: str, limit: int) -> list[tuple[int, float]]:
    """``(turn_pk, score)`` best first; score is minus SQLite's bm25() so higher is better."""
    return [(row.rowid, -row.bm25) for row in store.search_turns(user, match, limit)]


def bm25_pieces_by_turn(
    store: Store, turn_of: PieceTurns, user: str, match: str, limit: int
) -> list[tuple[int, float]]:
    """Turns ranked by their best-matching piece, ``(turn_pk, score)`` best first. ``turn_of``: the turn of each
    piece (``TurnLookup.piece_turns``)."""
    rows = store.search_pieces(user, match, limit)
    turns = turn_of([r.rowid for r in rows])
    best: dict[int, float] = {}
    for row in rows:  # best first
        best.setdefault(turns[row.rowid], -row.bm25)
    return list(best.items())


def lexical_focus(store: Store, user: str, match: str, turn_pks: Sequence[int]) -> dict[int, PieceRow]:
    """The best-matching piece of each turn: the span a hit cites."""
    if not turn_pks:
        return {}
    rows = store.search_pieces(user, match, limit=len(turn_pks) * 50, turn_pks=turn_pks)
    pieces = store.pieces_by_pk(user, [r.rowid for r in rows])
    focus: dict[int, PieceRow] = {}
    for row in rows:
        piece = pieces[row.rowid]
        focus.setdefault(piece.turn_pk, piece)
    return focus
