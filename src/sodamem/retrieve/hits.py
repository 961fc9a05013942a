"""Turn ranked turn ids into cited SearchHits (span, time, neighbouring turns as context)."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence

from sodamem.records import ContextTurn, SearchHit
from sodamem.store.sqlite import SQLiteStore


def build_hits(
    store: SQLiteStore,
    user: str,
    ranked: Sequence[tuple[int, float]],
    focus: Mapping[int, sqlite3.Row],
    context_window: int = 1,
) -> list[SearchHit]:
    """``ranked`` is ``(turn_pk, score)`` best first; ``focus`` maps a turn to the piece it cites."""
    turns = store.turns_by_pk(user, [pk for pk, _ in ranked])
    return [_hit(store, user, turns[pk], focus.get(pk), score, context_window) for pk, score in ranked]


def _hit(
    store: SQLiteStore, user: str, turn: sqlite3.Row, piece: sqlite3.Row | None, score: float, window: int
) -> SearchHit:
    text = str(turn["text"])
    start, end = (int(piece["char_start"]), int(piece["char_end"])) if piece is not None else (0, len(text))
    index = int(turn["idx"])
    neighbours = store.session_turns(user, int(turn["session_pk"]), index - window, index + window) if window else []
    context = tuple(
        ContextTurn(turn_index=int(r["idx"]), turn_id=str(r["turn_id"]), speaker=str(r["speaker"]), text=str(r["text"]))
        for r in neighbours
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
