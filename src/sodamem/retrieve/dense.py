"""The embedding tunnel: dense rankings of turns and pieces, and the closest piece of a turn."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from sodamem.embed.base import Vectors
from sodamem.store.protocol import VectorSearch
from sodamem.store.rows import PieceRow
from sodamem.store.write_protocol import Store

PieceTurns = Callable[[Sequence[int]], Mapping[int, int]]  # piece pk -> its turn's pk


def dense_turns(index: VectorSearch, user: str, query: Vectors, limit: int) -> list[tuple[int, float]]:
    return index.search(user, "turns", query, limit)


def dense_pieces_by_turn(
    turn_of: PieceTurns, index: VectorSearch, user: str, query: Vectors, limit: int
) -> list[tuple[int, float]]:
    """Turns ranked by their closest piece, ``(turn_pk, cosine)`` best first. ``turn_of``: the turn of each piece
    (``TurnLookup.piece_turns``)."""
    hits = index.search(user, "pieces", query, limit)
    turns = turn_of([pk for pk, _ in hits])
    best: dict[int, float] = {}
    for piece_pk, score in hits:
        best.setdefault(turns[piece_pk], score)
    return list(best.items())


def dense_focus(
    store: Store, index: VectorSearch, user: str, query: Vectors, turn_pks: Sequence[int]
) -> dict[int, PieceRow]:
    """The piece of each turn closest to the query (exact float32 vectors: a few dozen rows)."""
    pieces_of = store.pieces_of_turns(user, turn_pks)
    vectors = index.exact_vectors(user, "pieces", [r.piece_pk for rows in pieces_of.values() for r in rows])
    q = query.reshape(-1)
    focus: dict[int, PieceRow] = {}
    for turn_pk, rows in pieces_of.items():
        candidates = [(r, float(vectors[r.piece_pk] @ q)) for r in rows if r.piece_pk in vectors]
        if candidates:
            focus[turn_pk] = max(candidates, key=lambda pair: pair[1])[0]
    return focus
