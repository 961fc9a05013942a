"""The embedding queue after an add, on both stores: ``texts_to_embed_else_dequeue`` reads what the add's turns still
lack a vector for (turns, pieces, facts, their entities) and takes the turns off the queue only when nothing is
missing; on PostgreSQL that is one statement (``store/postgres/embed_queue.py``), which must read what the portable
reads do."""

from __future__ import annotations

from datetime import datetime

from sodamem import Memory
from sodamem.store import live

WHEN = datetime(2024, 3, 1, 10)
TEXTS = ["I live in Leeds. My sister Anna works at the museum.", "We adopted a dog called Rex. He is three."]


def _turns(memory: Memory, session_id: str) -> list[int]:
    stored = memory.store.stored_session(memory.user, session_id)
    assert stored is not None
    return [t.turn_pk for t in stored.turns]


def test_an_add_of_texts_cached_already_leaves_nothing_queued(memory_location: str) -> None:
    with Memory(memory_location, embedder="fake") as memory:
        first = memory.add(TEXTS, session_id="a", timestamp=WHEN)
        assert first.embedded >= 4  # the turns and their pieces at least
        again = memory.add(TEXTS, session_id="b", timestamp=WHEN)  # the same texts: every vector is cached
        assert again.embedded == 0
        assert memory.store.queued_turns() == []


def test_texts_still_missing_are_read_and_the_turns_stay_queued_until_embedded(memory_location: str) -> None:
    with Memory(memory_location, embedder="fake") as memory:
        memory.add(TEXTS[:1], session_id="a", timestamp=WHEN)
        assert memory.embedder is not None
        model = memory.embedder.name
    # A process without an embedder stores turns and dies before their vectors: one new text, one cached already.
    with Memory(memory_location, embedder="none") as memory:
        memory.add(TEXTS[1:], session_id="b", timestamp=WHEN)
        memory.add(TEXTS[:1], session_id="c", timestamp=WHEN)
        new, cached = _turns(memory, "b"), _turns(memory, "c")
        store = memory.store
        assert sorted(store.queued_turns()) == sorted(new + cached)
        portable = live.texts_to_embed(store.conn, model, new)
        assert portable and {kind for kind, _ in portable.values()} >= {"turn", "piece"}
        assert store.texts_to_embed(model, new) == portable
        assert store.texts_to_embed_else_dequeue(model, new, memory.user) == portable
        assert sorted(store.queued_turns()) == sorted(new + cached)  # something was missing: still queued
        assert store.texts_to_embed_else_dequeue(model, cached, memory.user) == {}
        assert store.queued_turns() == new  # nothing was missing: off the queue
        if type(store).__name__ == "PostgresStore":  # the dequeue skipped the flush; the session's setting stays
            assert store.conn.native("SHOW synchronous_commit").fetchone()[0] == "on"
    with Memory(memory_location, embedder="fake") as memory:  # opening embeds what is left
        assert memory.store.queued_turns() == []
        assert memory.store.texts_to_embed(model, new) == {}
        assert memory.check().ok, memory.check().problems


def test_facts_and_their_entities_are_read_as_the_portable_reads_do(memory_location: str) -> None:
    with Memory(memory_location, embedder="none") as memory:
        memory.add(TEXTS, session_id="a", timestamp=WHEN)
        turns = _turns(memory, "a")
        missing = memory.store.texts_to_embed("some-model", turns)
        assert missing == live.texts_to_embed(memory.store.conn, "some-model", turns)
        assert {kind for kind, _ in missing.values()} == {"turn", "piece", "fact", "entity"}
