"""A bulk ingest leaves each full-text index in one segment; compacting never changes a search."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from sodamem import Memory
from sodamem.ingest.formats import load_sessions
from sodamem.store import fts
from sodamem.store.sqlite import SQLiteStore

EXAMPLE = Path(__file__).parents[1] / "src" / "sodamem" / "examples" / "history.jsonl"
QUESTIONS = ("Where does Maya live?", "What is Maya's dog called?", "When is the trip to Lisbon?", "spicy food")
NOW = datetime(2026, 4, 1)


def ranked(memory: Memory) -> list[list[tuple[str, str, int, int, float]]]:
    return [
        [(h.session_id, h.turn_id, h.char_start, h.char_end, round(h.score, 12)) for h in memory.search(q, now=NOW)]
        for q in QUESTIONS
    ]


def test_ingest_compacts_and_compacting_keeps_every_result(tmp_path: Path) -> None:
    sessions = load_sessions(EXAMPLE, "auto")
    assert len(sessions) > 4
    with Memory(tmp_path / "m.db", user="maya", embedder="fake") as memory:
        assert isinstance(memory.store, SQLiteStore)
        memory.ingest(sessions[:-1], user="maya")
        assert set(fts.segment_counts(memory.store.conn, "maya").values()) == {1}
        # Live adds write a segment per transaction.
        for i, turn in enumerate(sessions[-1].turns):
            memory.add([{"id": f"t{i}", "speaker": turn.speaker, "text": turn.text}], session_id="live")
        assert max(fts.segment_counts(memory.store.conn, "maya").values()) > 1
        before = ranked(memory)
        memory.store.compact_text_index(["maya", "nobody"])
        assert set(fts.segment_counts(memory.store.conn, "maya").values()) == {1}
        assert ranked(memory) == before
        assert fts.segment_counts(memory.store.conn, "nobody") == {}
