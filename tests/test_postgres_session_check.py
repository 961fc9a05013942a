"""An add's check, on PostgreSQL, that its session is still as the add saw it (``PgWrites.session_as_seen``): the
server compares the seen session with the stored one under the lock, rather than the client reading it back. It
must pass exactly when ``StoredSession`` equality would (a false alarm costs a read; a miss, a lost update), and a
failed check writes nothing."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

import pytest

from sodamem import Memory
from sodamem.model import Message
from sodamem.store.live import SessionChanged, StoredSession

pytestmark = pytest.mark.slow

pytest.importorskip("psycopg", reason="PostgreSQL tests need psycopg (pip install -e '.[postgres]')")

WHEN = datetime(2024, 5, 1, 9, 30)


def _check(memory: Memory, seen: StoredSession, *, then_write: str | None = None) -> None:
    with memory.store.writing(memory.user) as writes:
        assert writes.session_as_seen(memory.user, "chat", seen) is seen
        if then_write is not None:
            writes.set_session_hash(seen.session_pk, then_write)


def test_the_server_passes_the_session_as_stored_and_refuses_any_change(postgres_url: str) -> None:
    with Memory(postgres_url, embedder="none") as memory:
        memory.add(
            [
                Message("Ana", 'Caf\u00e9 "Lua" \\ back\\slash, \u00fcber-na\u00efve \U0001f408', timestamp=WHEN),
                Message("Ben", "a picture", caption="a cat on a windowsill \u2014 \U0001f408", timestamp=WHEN),
                Message("Ana", "plain"),
            ],
            session_id="chat",
        )
        memory.forget(turn_id="chat:2")  # leaves next_index past the turns
        seen = memory.store.stored_session(memory.user, "chat")
        assert seen is not None and seen.next_index == 3 and len(seen.turns) == 2
        assert seen.turns[0].caption is None and seen.turns[1].caption is not None
        _check(memory, seen)  # as stored, unicode, quotes, backslashes and a missing caption included
        first = seen.turns[0]
        changes = [
            replace(seen, next_index=seen.next_index + 1),
            replace(seen, timestamp="2000-01-01T00:00:00"),
            replace(seen, source="other"),
            replace(seen, turns=seen.turns[:1]),
            replace(seen, turns=(*seen.turns, replace(first, turn_pk=first.turn_pk + 100, index=5))),
            replace(seen, turns=(replace(first, text=first.text + " "), *seen.turns[1:])),
            replace(seen, turns=(replace(first, caption=""), *seen.turns[1:])),
            replace(seen, turns=(replace(first, turn_id="x"), *seen.turns[1:])),
            replace(seen, turns=(replace(first, speaker="Ben"), *seen.turns[1:])),
            replace(seen, turns=(replace(first, timestamp="2024-05-01T09:30:01"), *seen.turns[1:])),
            replace(seen, turns=seen.turns[::-1]),
            replace(seen, session_pk=seen.session_pk + 1000),
        ]
        for changed in changes:
            with pytest.raises(SessionChanged):
                _check(memory, changed, then_write="written")  # the write queued behind the check is not made
        assert memory.store.session_hash(memory.user, "chat") != "written"
        _check(memory, seen, then_write="written")
        assert memory.store.session_hash(memory.user, "chat") == "written"


def test_an_add_after_another_writer_forgot_a_turn_continues_past_it(postgres_url: str) -> None:
    """The remembered session still holds the forgotten turn: the server's check refuses it and the add is worked
    out again on the session as stored."""
    with Memory(postgres_url, embedder="none") as memory, Memory(postgres_url, embedder="none") as other:
        memory.add(["I live in Leeds.", "I love tea."], session_id="chat", timestamp=WHEN)
        other.forget(turn_id="chat:1")
        report = memory.add("I moved to York.", session_id="chat", timestamp=WHEN)
        assert [t.turn_index for t in report.added] == [2]
        assert memory._seen_sessions.get(memory.user, "chat") == memory.store.stored_session(memory.user, "chat")
        assert [t.text for t in memory.session("chat").turns] == ["I live in Leeds.", "I moved to York."]
        assert memory.check().ok


def test_a_refused_check_read_inside_the_transaction_logs_nothing(
    postgres_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A refusal seen at a read inside the transaction (an add that makes facts reads as it writes them) ends the
    pipeline with statements still queued: they are read and dropped, not reported by psycopg on the way out."""
    with Memory(postgres_url, embedder="none") as memory:
        memory.add("I live in Leeds.", session_id="chat", timestamp=WHEN)
        seen = memory.store.stored_session(memory.user, "chat")
        assert seen is not None
        caplog.set_level("WARNING", logger="psycopg")
        with pytest.raises(SessionChanged), memory.store.writing(memory.user) as writes:
            writes.session_as_seen(memory.user, "chat", replace(seen, next_index=seen.next_index + 1))
            writes.set_session_hash(seen.session_pk, "written")
            writes.piece_pks_of_session(seen.session_pk)  # a read: the refusal surfaces here
        assert [r.getMessage() for r in caplog.records if r.name.startswith("psycopg")] == []
        assert memory.store.session_hash(memory.user, "chat") != "written"
