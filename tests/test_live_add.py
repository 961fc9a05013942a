"""Memory.add: messages appended as they arrive, facts equal to ingesting the finished session, conflicts refused."""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sodamem import Memory
from sodamem.bench.live_equivalence import compare, replay_messages
from sodamem.bench.stress import SENTENCES  # rule-extractable sentences; later names change earlier facts
from sodamem.cli import main
from sodamem.errors import InputError, MessageConflictError
from sodamem.ingest.formats import load_sessions
from sodamem.ingest.seen_sessions import SeenSessions
from sodamem.model import Message, Session, Turn
from tests.conftest import LOCOMO_DEV

EXAMPLE = Path(__file__).parents[1] / "src" / "sodamem" / "examples" / "history.jsonl"
WHEN = datetime(2024, 5, 1, 19, 0)


def table_counts(path: Path) -> dict[str, int]:
    with sqlite3.connect(path) as conn:
        return {
            t: int(conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0])
            for t in (
                "sessions",
                "turns",
                "pieces",
                "facts",
                "links",
                "entities",
                "turns_fts_u1",
                "fts_pending",
                "embeddings",
            )
        }


def test_a_new_session_starts_and_grows_with_indexes_and_ids_continuing(memory_location: str) -> None:
    with Memory(memory_location, embedder="none") as memory:
        first = memory.add("I live in Leeds.", session_id="chat", timestamp=WHEN)
        second = memory.add(
            [{"role": "assistant", "text": "Noted."}, {"speaker": "user", "text": "I moved to York.", "id": "m7"}],
            session_id="chat",
            timestamp=datetime(2024, 6, 1),
        )
        assert first.session_created and not second.session_created
        assert [(t.turn_index, t.turn_id) for t in first.added + second.added] == [
            (0, "chat:0"),
            (1, "chat:1"),
            (2, "m7"),
        ]
        session = memory.session("chat")
        assert [t.text for t in session.turns] == ["I live in Leeds.", "Noted.", "I moved to York."]
        assert session.turns[2].timestamp == "2024-06-01T00:00:00"
        hits = memory.search("Where does the user live?", k=3)
        assert hits and hits[0].turn_text[hits[0].char_start : hits[0].char_end] == hits[0].text
        statuses = {f.text: f.status for f in memory.facts(status="all")}
        assert statuses["user lives in Leeds"] == "superseded"
        assert statuses["user lives in York"] == "active"


def test_without_a_session_id_messages_join_the_session_of_their_day(memory_location: str) -> None:
    with Memory(memory_location, embedder="none") as memory:
        morning = memory.add("I live in Leeds.", timestamp=datetime(2024, 5, 1, 9, 30))
        evening = memory.add(
            [{"role": "user", "text": "I moved to York.", "timestamp": "2024-05-01T22:15:00"}, "I got a dog."],
            timestamp=datetime(2024, 5, 2, 8, 0),  # the second message's time; the first names the day
        )
        next_day = memory.add("My dog is called Rex.", timestamp=datetime(2024, 5, 2, 7, 0))
        assert (morning.session_id, morning.session_created) == ("2024-05-01", True)
        assert (evening.session_id, evening.session_created) == ("2024-05-01", False)
        assert [t.turn_id for t in evening.added] == ["2024-05-01:1", "2024-05-01:2"]
        assert [t.timestamp for t in evening.added] == ["2024-05-01T22:15:00", "2024-05-02T08:00:00"]
        assert (next_day.session_id, next_day.session_created) == ("2024-05-02", True)
        assert [len(memory.session(day).turns) for day in ("2024-05-01", "2024-05-02")] == [3, 1]
        statuses = {f.text: f.status for f in memory.facts(status="all")}
        assert statuses["user lives in York"] == "active" and statuses["user lives in Leeds"] == "superseded"


def test_a_message_sent_again_after_midnight_is_recognised_by_its_id(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", embedder="none") as memory:
        first = memory.add(
            [{"role": "user", "text": "I moved to Bristol.", "id": "x1"}], timestamp=datetime(2024, 5, 1, 23, 59)
        )
        again = memory.add(
            [{"role": "user", "text": "I moved to Bristol.", "id": "x1"}], timestamp=datetime(2024, 5, 2, 0, 1)
        )
        assert (first.session_id, again.session_id, again.unchanged, again.added) == (
            "2024-05-01",
            "2024-05-01",
            ["x1"],
            [],
        )
        with pytest.raises(InputError, match="field 'timestamp': expected a datetime, got str"):
            memory.add("hello", timestamp="2024-05-02")  # type: ignore[arg-type]
        assert [s.session_id for s in memory.sessions()] == ["2024-05-01"]


def test_a_day_session_is_the_day_in_the_time_zone_the_message_was_given_in(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", embedder="none") as memory:
        late = memory.add([{"role": "user", "text": "Off to bed.", "timestamp": "2024-05-01T23:30:00-05:00"}])
        assert late.session_id == "2024-05-01"  # 04:30 on 2 May in UTC, but the speaker's evening of 1 May
        with pytest.raises(InputError, match="session_id"):
            memory.add("hello", session_id="  ")


def _racing(memory: Memory, other: Memory, message: dict[str, str]) -> None:
    """Make ``memory``'s next add read its session, then let ``other`` add ``message`` to that session before the add
    takes its write lock (the add works out its rows from the session read outside the lock)."""
    memory._seen_sessions = SeenSessions()  # read, not remembered from this memory's last add
    read = memory.store.stored_session

    def stale_read(user: str, session_id: str) -> object:
        seen = read(user, session_id)
        other.add(message, session_id=session_id, timestamp=WHEN)
        memory.store.stored_session = read  # type: ignore[method-assign]  # once
        return seen

    memory.store.stored_session = stale_read  # type: ignore[method-assign]


def test_an_add_whose_session_another_writer_grew_meanwhile_is_worked_out_again(memory_location: str) -> None:
    """The rows an add planned from a session another process has grown since are made again under the lock: the
    turns continue after the other writer's, and the facts are those of the finished session."""
    with Memory(memory_location, embedder="none") as memory, Memory(memory_location, embedder="none") as other:
        memory.add("I live in Leeds.", session_id="chat", timestamp=WHEN)
        _racing(memory, other, {"speaker": "user", "text": "Hi! I'm Maya.", "id": "m1"})
        report = memory.add({"speaker": "user", "text": "I moved to York.", "id": "m2"}, session_id="chat")
        assert [(t.turn_index, t.turn_id) for t in report.added] == [(2, "m2")]
        assert [t.text for t in memory.session("chat").turns] == [
            "I live in Leeds.",
            "Hi! I'm Maya.",
            "I moved to York.",
        ]
        statuses = {f.text: f.status for f in memory.facts(status="all")}
        with Memory(embedder="none") as in_turn:
            for text, message_id in (("I live in Leeds.", None), ("Hi! I'm Maya.", "m1"), ("I moved to York.", "m2")):
                in_turn.add({"speaker": "user", "text": text, "id": message_id or "chat:0"}, session_id="chat")
            assert statuses == {f.text: f.status for f in in_turn.facts(status="all")}
        assert statuses["Maya lives in Leeds"] == "superseded" and statuses["Maya lives in York"] == "active"
        assert memory.check().ok
        # the other writer stored the id first with other content: refused under the lock, nothing written
        _racing(memory, other, {"speaker": "user", "text": "I love tea.", "id": "m3"})
        with pytest.raises(MessageConflictError):
            memory.add({"speaker": "user", "text": "I love coffee.", "id": "m3"}, session_id="chat")
        assert [t.text for t in memory.session("chat").turns][-1] == "I love tea."


def test_an_add_planned_from_a_remembered_session_another_writer_changed_is_worked_out_again(
    memory_location: str,
) -> None:
    """An add plans from the session as this memory's last add left it; another writer's add, or forget, since is
    seen under the lock: the add is worked out again on the session as stored, and never skipped as a repeat."""
    with Memory(memory_location, embedder="none") as memory, Memory(memory_location, embedder="none") as other:
        memory.add({"speaker": "user", "text": "I live in Leeds.", "id": "m0"}, session_id="chat", timestamp=WHEN)
        remembered = memory._seen_sessions.get(memory.user, "chat")
        assert remembered is not None and remembered == memory.store.stored_session(memory.user, "chat")
        other.add({"speaker": "user", "text": "Hi! I'm Maya.", "id": "m1"}, session_id="chat", timestamp=WHEN)
        report = memory.add({"speaker": "user", "text": "I moved to York.", "id": "m2"}, session_id="chat")
        assert [(t.turn_index, t.turn_id) for t in report.added] == [(2, "m2")]
        statuses = {f.text: f.status for f in memory.facts(status="all")}
        assert statuses["Maya lives in Leeds"] == "superseded" and statuses["Maya lives in York"] == "active"
        assert memory._seen_sessions.get(memory.user, "chat") == memory.store.stored_session(memory.user, "chat")
        other.forget(session_id="chat")
        again = memory.add({"speaker": "user", "text": "I moved to York.", "id": "m2"}, session_id="chat")
        assert again.unchanged == [] and [t.turn_id for t in again.added] == ["m2"]
        assert [t.text for t in memory.session("chat").turns] == ["I moved to York."]
        assert memory.check().ok


def test_same_id_same_content_is_a_no_op_other_content_a_conflict_and_nothing_written(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    with Memory(path, embedder="none") as memory:
        memory.add(Message("user", "I love tea.", id="a1"), session_id="s", timestamp=WHEN)
        before = table_counts(path)
        again = memory.add(Message("user", "I love tea.", id="a1"), session_id="s", timestamp=WHEN)
        assert again.added == [] and again.unchanged == ["a1"]
        assert table_counts(path) == before
        with pytest.raises(MessageConflictError, match="other content"):
            memory.add(
                [Message("user", "I love coffee.", id="a2"), Message("user", "I hate tea.", id="a1")],
                session_id="s",
            )
        assert table_counts(path) == before  # the first message of the refused batch did not land either


def test_a_default_id_steps_past_one_a_caller_gave(tmp_path: Path) -> None:
    """A message without an id is ``<session>:<index>`` unless a caller's own id took that: then the next free one,
    never a conflict over an id the caller did not give."""
    with Memory(tmp_path / "m.db", embedder="none") as memory:
        memory.add(Message("user", "I love tea.", id="chat:2"), session_id="chat", timestamp=WHEN)
        for text in ("first", "second", "third"):
            memory.add(text, session_id="chat")
        turns = memory.session("chat").turns
        assert [(t.turn_index, t.turn_id, t.text) for t in turns] == [
            (0, "chat:2", "I love tea."), (1, "chat:1", "first"), (2, "chat:3", "second"), (3, "chat:4", "third")
        ]  # fmt: skip
        # an id given later in the same batch is stepped past too
        memory.add(["plain", {"speaker": "user", "text": "mine", "id": "chat:5"}], session_id="chat")
        assert [(t.turn_id, t.text) for t in memory.session("chat").turns[4:]] == [
            ("chat:6", "plain"),
            ("chat:5", "mine"),
        ]


@pytest.mark.parametrize(
    ("messages", "field"),
    [
        ([{"speaker": "user"}], "messages[0].text"),
        ([{"speaker": "user", "text": "   "}], "messages[0].text"),
        ([{"text": "hi"}], "messages[0].speaker"),
        ([{"speaker": "user", "text": "hi", "mood": "happy"}], "messages[0]"),
        ([{"speaker": "user", "text": "hi", "timestamp": "yesterday-ish"}], "messages[0].timestamp"),
        ([{"speaker": "user", "text": "hi", "timestamp": "0001-01-01T00:00:00+14:00"}], "messages[0].timestamp"),
        (
            [Message("user", "hi", timestamp=datetime(9999, 12, 31, 23, tzinfo=timezone(timedelta(hours=-12))))],
            "messages[0].timestamp",
        ),
        ([{"speaker": "user", "text": 3}], "messages[0].text"),
        ([{"speaker": "user", "text": "a\x00b"}], "messages[0].text"),
        ([], "messages"),
        ([{"speaker": "user", "text": "a", "id": "x"}, {"speaker": "user", "text": "b", "id": "x"}], "messages[1].id"),
        ([{"speaker": "user", "text": "a", "id": "x"}, {"speaker": "user", "text": "a", "id": "x"}], "messages[1].id"),
        (  # an id stored already, twice in the batch
            [
                {"speaker": "user", "text": "I live in Leeds.", "id": "x"},
                {"speaker": "user", "text": "I live in Leeds.", "id": "x"},
            ],
            "messages[1].id",
        ),
    ],
)
def test_bad_messages_name_the_field_and_write_nothing(tmp_path: Path, messages: list[object], field: str) -> None:
    path = tmp_path / "m.db"
    with Memory(path, embedder="none") as memory:
        memory.add(Message("user", "I live in Leeds.", id="kept"), session_id="s", timestamp=WHEN)
        before = table_counts(path)
        with pytest.raises(InputError) as err:
            memory.add(messages, session_id="s")  # type: ignore[arg-type]
        assert err.value.field == field and not isinstance(err.value, MessageConflictError)  # a 400, not a 409
        assert table_counts(path) == before


def test_message_by_message_facts_equal_whole_sessions_on_the_example_history() -> None:
    sessions = load_sessions(EXAMPLE, "auto")
    with Memory(embedder="none") as whole, Memory(embedder="none") as live:
        whole.ingest(sessions)
        replay_messages(live, sessions)
        outcome = compare(whole, live)
        assert outcome.facts_whole > 20  # the history has facts, superseded ones and links among them
        assert any(f.status == "superseded" for f in whole.facts(status="all"))
        assert outcome.differences == 0, outcome


# Sentences whose pronoun names a person of the message before: added one at a time, they must read it.
FOLLOWING = ("She lives in Rome now.", "He works as a chef.", "My brother Tom came over.")


@st.composite
def sessions_and_splits(draw: st.DrawFn) -> tuple[list[Session], list[int]]:
    n_sessions = draw(st.integers(1, 3))
    sessions = []
    for s in range(n_sessions):
        texts = draw(st.lists(st.sampled_from(SENTENCES + FOLLOWING), min_size=1, max_size=7))
        speakers = draw(st.lists(st.sampled_from(["Maya", "user", "assistant", "Jon"]), min_size=len(texts),
                                 max_size=len(texts)))  # fmt: skip
        turns = tuple(Turn(i, sp, text, f"s{s}:{i}") for i, (sp, text) in enumerate(zip(speakers, texts, strict=True)))
        sessions.append(Session(f"s{s}", datetime(2024, 1 + 2 * s, 5, 10, 0), turns))
    per_add = draw(st.lists(st.integers(1, 3), min_size=n_sessions, max_size=n_sessions))
    return sessions, per_add


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sessions_and_splits())
def test_property_facts_made_turn_by_turn_equal_the_whole_sessions(case: tuple[list[Session], list[int]]) -> None:
    sessions, per_add = case
    with Memory(embedder="none") as whole, Memory(embedder="none") as live:
        whole.ingest(sessions)
        for session, size in zip(sessions, per_add, strict=True):
            replay_messages(live, [session], per_add=size)
        assert compare(whole, live).differences == 0


@pytest.mark.parametrize(
    "texts",
    [
        ("Jon went hiking last weekend.", "I met Jon at the gym."),  # Jon is a name only once seen mid-sentence
        ("I love spicy food.", "Jon went to Paris.", "Hi! I'm Maya.", "I met Jon at the gym."),
        ("My sister loves tea.", "My sister Sarah moved to Leeds.", "Sarah went to Paris last week."),
        ("My sister Priya says hi.", "She lives in Rome."),  # the pronoun's antecedent is in the message before
        ("My brother Tom came over.", "He lives in Leeds now.", "He works as a chef."),
    ],
)
def test_turns_that_change_earlier_facts_give_the_whole_session_facts(texts: tuple[str, ...]) -> None:
    session = Session("s", WHEN, tuple(Turn(i, "user", t, f"s:{i}") for i, t in enumerate(texts)))
    with Memory(embedder="none") as whole, Memory(embedder="none") as live:
        whole.ingest([session])
        replay_messages(live, [session])
        outcome = compare(whole, live)
        assert outcome.facts_whole >= len(texts) - 1 and outcome.differences == 0, outcome


def test_a_later_alias_makes_the_session_facts_again(tmp_path: Path) -> None:
    """'I'm Maya' after facts about 'user': the earlier facts are renamed exactly as a whole ingest names them."""
    turns = ("I love spicy food.", "I live in Leeds.", "Hi! I'm Maya.")
    with Memory(embedder="none") as live:
        reports = [live.add(text, session_id="s", timestamp=WHEN) for text in turns]
        assert reports[-1].session_reextracted
        texts = {f.text for f in live.facts()}
        assert "Maya lives in Leeds" in texts, texts


def test_vectors_land_right_after_the_add_and_a_crash_before_them_is_repaired_at_open(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    with Memory(path, embedder="fake") as memory:
        report = memory.add("I live in Leeds.", session_id="s", timestamp=WHEN)
        assert report.embedded >= 2  # the turn and its piece at least
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT COUNT(*) FROM embed_queue").fetchone()[0] == 0
    # A process that stores the turn but dies before embedding (here: one without an embedder) leaves it queued.
    with Memory(path, embedder="none") as memory:
        memory.add("I moved to York.", session_id="s")
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT COUNT(*) FROM embed_queue").fetchone()[0] == 1
    with Memory(path, embedder="fake") as memory:
        assert memory.check().ok, memory.check().problems
        hits = memory.search("York", k=1, mode="dense")
        assert hits[0].text.startswith("I moved to York")
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT COUNT(*) FROM embed_queue").fetchone()[0] == 0


def test_a_search_sees_what_another_connection_added_and_forgot(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    with Memory(path, embedder="fake") as searcher, Memory(path, embedder="fake") as writer:
        writer.add("I live in Leeds.", session_id="a", timestamp=WHEN)
        assert [h.session_id for h in searcher.search("Leeds zebra", k=5)] == ["a"]
        writer.add("The zebra at the zoo was asleep.", session_id="b", timestamp=WHEN)
        assert {h.session_id for h in searcher.search("Leeds zebra", k=5)} == {"a", "b"}
        assert {h.session_id for h in searcher.search("zebra", k=5, mode="dense")} >= {"b"}
        writer.forget(session_id="b")
        assert [h.session_id for h in searcher.search("Leeds zebra", k=5)] == ["a"]
        assert "b" not in {h.session_id for h in searcher.search("zebra", k=5, mode="dense")}


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        main(args)
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_cli_add_text_and_jsonl(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "m.db")
    base = ["--db", db, "--embedder", "none"]
    code, out, _ = run_cli([*base, "add", "--session", "s", "--at", "2024-05-01T10:00", "I live in Leeds."], capsys)
    assert code == 0 and "added s · turn s:0 (#0)" in out
    stream = tmp_path / "m.jsonl"
    stream.write_text(
        json.dumps({"role": "assistant", "text": "Noted."}) + "\n\n" + json.dumps({"text": "I moved to York."}) + "\n"
    )
    code, out, _ = run_cli([*base, "add", "--session", "s", "--jsonl", str(stream), "--json"], capsys)
    report = json.loads(out)
    assert code == 0 and [t["turn_index"] for t in report["added"]] == [1, 2]
    assert [t["speaker"] for t in report["added"]] == ["assistant", "user"]
    stream.write_text('{"text": "fine"}\n{"text": }\n')
    code, out, err = run_cli([*base, "add", "--session", "s", "--jsonl", str(stream)], capsys)
    assert code == 2 and "line 2" in err and "Traceback" not in err
    code, _, err = run_cli([*base, "add", "--session", "s", "--id", "s:0", "I live in Hull."], capsys)
    assert code == 2 and "other content" in err
    code, _, err = run_cli([*base, "add", "--session", "s"], capsys)
    assert code == 2 and "TEXT or --jsonl" in err
    with Memory(db, embedder="none") as memory:
        assert len(memory.session("s").turns) == 3
    code, out, _ = run_cli([*base, "add", "--at", "2024-05-03T08:00", "Back from Hull."], capsys)
    assert code == 0 and "added 2024-05-03 · turn 2024-05-03:0 (#0)" in out


@pytest.mark.slow
@pytest.mark.skipif(not LOCOMO_DEV.exists(), reason="LoCoMo dev split not present")
def test_message_by_message_facts_equal_whole_sessions_on_the_dev_split() -> None:
    sessions = load_sessions(LOCOMO_DEV, "auto")
    with Memory(embedder="none") as whole, Memory(embedder="none") as live:
        whole.ingest(sessions)
        replay_messages(live, sessions)
        outcome = compare(whole, live)
    assert outcome.facts_whole > 300 and outcome.differences == 0, outcome


def test_two_relatives_named_alike_stay_two_people_and_an_unnamed_one_takes_her_name() -> None:
    """ "my sister Hannah", later "my sister Ines": two sisters, each with her own facts (the role alias "my sister"
    was once merging Hannah into Ines). "my sister moved to Paris" before any name still becomes the named sister."""
    with Memory(embedder="none") as memory:
        for text in ("My sister Hannah is married to Tom.", "My sister Ines lives in Porto."):
            memory.add(text, session_id="s", timestamp=WHEN)
        by_subject = {(f.subject, f.predicate, f.object) for f in memory.facts()}
        assert ("Hannah", "spouse", "Tom") in by_subject and ("Ines", "lives_in", "Porto") in by_subject
        assert not any(subject == "Ines" and predicate == "spouse" for subject, predicate, _ in by_subject)
    with Memory(embedder="none") as memory:
        for text in ("My brother moved to Paris.", "My brother Luke is a chef."):
            memory.add(text, session_id="s", timestamp=WHEN)
        assert ("Luke", "lives_in", "Paris") in {(f.subject, f.predicate, f.object) for f in memory.facts()}
