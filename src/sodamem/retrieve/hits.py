"""Turn ranked turn ids into cited SearchHits (span, time, neighbouring turns as context)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from sodamem.records import ContextTurn, SearchHit
from sodamem.store.rows import PieceRow, TurnRow
from sodamem.store.write_protocol import Store


def build_hits(
    store: Store,
    user: str,
    ranked: Sequence[tuple[int, float]],
    focus: Mapping[int, PieceRow],
    context_window: int = 1,
) -> list[SearchHit]:
    """``ranked`` is ``(turn_pk, score)`` best first; ``focus`` maps a turn to the piece it cites."""
    turns = store.turns_by_pk(user, [pk for pk, _ in ranked])
    windows = [
        (turns[pk].session_pk, turns[pk].index - context_window, turns[pk].index + context_window) for pk, _ in ranked
    ]
    around = store.turn_windows(user, windows) if context_window else [[] for _ in ranked]
    return [
        _hit(turns[pk], focus.get(pk), score, neighbours)
        for (pk, score), neighbours in zip(ranked, around, strict=True)
    ]


def _hit(turn: TurnRow, piece: PieceRow | None, score: float, neighbours: Sequence[TurnRow]) -> SearchHit:
    text = turn.text
    start, end = (piece.char_start, piece.char_end) if piece is not None else (0, len(text))
    index = turn.index
    context = tuple(
        ContextTurn(turn_index=r.index, turn_id=r.turn_id, speaker=r.speaker, text=r.text)
        for r in neighbours
        if r.index != index
    )
    return SearchHit(
        session_id=turn.session_id,
        turn_index=index,
        turn_id=turn.turn_id,
        speaker=turn.speaker,
        char_start=start,
        char_end=end,
        timestamp=turn.timestamp,
        text=text[start:end],
        score=round(score, 6),
        turn_text=text,
        caption=turn.caption,
        context=context,
    )
