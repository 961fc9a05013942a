"""Bad input: a typed error naming the file, session and field, and a database left exactly as it was.

Every case starts from a SQLite file that already holds one good session.
"""

from __future__ import annotations

import io
import json
import socket
import sqlite3
from collections.abc import Iterator
from datetime import date, datetime
from pathlib import Path
from typing import Any

import pytest

from sodamem import InputError, Memory, Session, SessionConflictError, SodaMemError, Turn
from sodamem.answer.ask import ask
from sodamem.cli import main
from sodamem.ingest.messages import read_jsonl
from sodamem.migrate import migrate

TS = "2023-05-08T13:56:00"

COUNTED_TABLES = (
    "sessions",
    "turns",
    "pieces",
    "facts",
    "entities",
    "links",
    "fact_sources",
    "fact_roles",
    "turns_fts_u1",
    "pieces_fts_u1",
    "facts_fts_u1",
    # FTS5 shadow tables: one docsize row per indexed row, so a stale or missing index entry shows here.
    "turns_fts_u1_docsize",
    "pieces_fts_u1_docsize",
)


def record(session_id: str, *texts: str, **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "session_id": session_id,
        "timestamp": TS,
        "turns": [{"speaker": "user" if i % 2 == 0 else "assistant", "text": t} for i, t in enumerate(texts)],
    }
    body.update(extra)
    return body


GOOD = record("good-1", "My sister Ana lives in Lisbon.", "Lisbon is lovely in spring.")
NEW = record("new-1", "I started learning the cello.", "How exciting!")


def jsonl(*records: Any) -> bytes:
    return "".join(json.dumps(r) + "\n" for r in records).encode()


def as_json(data: Any) -> bytes:
    return json.dumps(data).encode()


def snapshot(db: Path) -> dict[str, Any]:
    """Counts of every table plus the full rows of the core tables, read through a fresh connection."""
    conn = sqlite3.connect(db)
    try:
        state: dict[str, Any] = {
            table: conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0] for table in COUNTED_TABLES
        }
        for table in ("sessions", "turns", "pieces"):
            state[f"{table} rows"] = conn.execute(f"SELECT * FROM {table} ORDER BY id").fetchall()
        state["lisbon matches"] = conn.execute(
            "SELECT count(*) FROM turns_fts_u1 WHERE turns_fts_u1 MATCH 'lisbon'"
        ).fetchone()[0]
        state["cello matches"] = conn.execute(
            "SELECT count(*) FROM pieces_fts_u1 WHERE pieces_fts_u1 MATCH 'cello'"
        ).fetchone()[0]
        return state
    finally:
        conn.close()


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "mem.db"
    good = tmp_path / "good.jsonl"
    good.write_bytes(jsonl(GOOD))
    with Memory(path) as memory:
        report = memory.ingest(good)
    assert report.sessions_added == 1
    return path


@pytest.fixture
def memory(db: Path) -> Iterator[Memory]:
    with Memory(db) as mem:
        yield mem


@pytest.fixture
def before(db: Path) -> dict[str, Any]:
    state = snapshot(db)
    assert state["sessions"] == 1 and state["turns"] == 2 and state["pieces"] == 2
    assert state["turns_fts_u1_docsize"] == 2 and state["lisbon matches"] == 2
    return state


HUGE = "word " * 2_000_000  # 10 MB of text in one turn

# (id, file name, bytes, format, session named in the error, field named in the error, words in the message)
BAD_INPUTS: list[tuple[str, str, bytes, str, str | None, str | None, str]] = [
    ("malformed-json", "s.json", b'[{"session_id": "new-1", "timestamp": ', "auto", None, None, "malformed JSON"),
    ("malformed-json-object", "s.json", b'{"session_id": "new-1",\n', "auto", None, "line 1", "malformed JSON"),
    ("jsonl-bad-line", "s.jsonl", jsonl(NEW) + b"{not json}\n", "auto", None, "line 2", "malformed JSON"),
    ("list-of-numbers", "s.json", b"[1, 2, 3]", "auto", None, "item 0", "unrecognised format"),
    ("list-of-numbers-as-json", "s.json", b"[1, 2, 3]", "json", None, "item 0", "expected a JSON object"),
    ("top-level-string", "s.json", b'"hello"', "auto", None, "item 0", "unrecognised format"),
    ("jsonl-line-is-a-list", "s.jsonl", jsonl(NEW, [1, 2]), "auto", None, "line 2", "expected a JSON object"),
    ("turns-not-a-list", "s.jsonl", jsonl({**NEW, "turns": "hello"}), "auto", "new-1", "turns", "expected a JSON list"),
    (
        "turn-not-an-object",
        "s.jsonl",
        jsonl({**NEW, "turns": ["hello"]}),
        "auto",
        "new-1",
        "turns[0]",
        "expected a JSON object",
    ),
    (
        "speaker-missing",
        "s.jsonl",
        jsonl({**NEW, "turns": [{"text": "hi"}]}),
        "auto",
        "new-1",
        "turns[0].speaker",
        "missing",
    ),
    (
        "text-not-a-string",
        "s.jsonl",
        jsonl({**NEW, "turns": [{"speaker": "u", "text": 42}]}),
        "auto",
        "new-1",
        "turns[0].text",
        "expected a string",
    ),
    (
        "session-id-missing",
        "s.json",
        as_json([{"timestamp": TS, "turns": []}]),
        "json",
        None,
        "item 0: session_id",
        "missing",
    ),
    ("non-utf8", "s.jsonl", jsonl(NEW)[:-3] + b"caf\xe9\n", "auto", None, None, "not valid UTF-8"),
    ("huge-turn", "s.jsonl", jsonl(record("new-1", HUGE)), "auto", "new-1", "turns[0].text", "the limit is"),
    ("nul-in-text", "s.jsonl", jsonl(record("new-1", "a\x00b")), "auto", "new-1", "turns[0].text", "NUL"),
    ("empty-session", "s.jsonl", jsonl({**NEW, "turns": []}), "auto", "new-1", "turns", "at least one turn"),
    (
        "missing-timestamp",
        "s.jsonl",
        jsonl({k: v for k, v in NEW.items() if k != "timestamp"}),
        "auto",
        "new-1",
        "timestamp",
        "missing",
    ),
    (
        "unparseable-timestamp",
        "s.jsonl",
        jsonl({**NEW, "timestamp": "last Tuesday"}),
        "auto",
        "new-1",
        "timestamp",
        "not an ISO 8601 timestamp",
    ),
    (
        "impossible-timestamp",
        "s.json",
        as_json([{**NEW, "timestamp": "2023-02-30T10:00:00"}]),
        "auto",
        "new-1",
        "timestamp",
        "ISO 8601",
    ),
    (
        "unparseable-turn-timestamp",
        "s.jsonl",
        jsonl({**NEW, "turns": [{"speaker": "u", "text": "hi", "timestamp": "noon"}]}),
        "auto",
        "new-1",
        "turns[0].timestamp",
        "ISO 8601",
    ),
    ("duplicate-session-ids", "s.jsonl", jsonl(NEW, NEW), "auto", "new-1", "session_id", "duplicate session id"),
    (
        "duplicate-session-ids-json",
        "s.json",
        as_json([NEW, record("new-1", "other")]),
        "auto",
        "new-1",
        "session_id",
        "duplicate session id",
    ),
    ("empty-json-file", "s.json", b"", "auto", None, None, "empty"),
    ("blank-json-file", "s.json", b"  \n\n ", "auto", None, None, "empty"),
    ("empty-jsonl-file", "s.jsonl", b"", "auto", None, None, "no sessions"),
    ("empty-json-list", "s.json", b"[]", "auto", None, None, "no sessions"),
    (
        "valid-then-bad",
        "s.jsonl",
        jsonl(NEW, {**record("new-2", "fine"), "timestamp": "soon"}),
        "auto",
        "new-2",
        "timestamp",
        "ISO 8601",
    ),
    (
        "user-padded-with-spaces",
        "s.jsonl",
        jsonl(NEW, {**record("new-2", "fine"), "user": " maya "}),
        "auto",
        "new-2",
        "user",
        "spaces at its ends",
    ),
    (
        "time-past-the-calendar",
        "s.jsonl",
        jsonl(NEW, {**record("new-2", "fine"), "timestamp": "0001-01-01T00:00:00+14:00"}),
        "auto",
        "new-2",
        "timestamp",
        "out of range",
    ),
    (
        "turn-time-past-the-calendar",
        "s.jsonl",
        jsonl(
            {
                **record("new-2", "fine"),
                "turns": [{"speaker": "u", "text": "x", "timestamp": "9999-12-31T23:00:00-12:00"}],
            }
        ),
        "auto",
        "new-2",
        "turns[0].timestamp",
        "out of range",
    ),
    (
        "valid-then-bad-json",
        "s.json",
        as_json([NEW, record("new-2", "ok", "x\x00")]),
        "auto",
        "new-2",
        "turns[1].text",
        "NUL",
    ),
    (
        "locomo-valid-then-bad-date",
        "l.json",
        as_json(
            [
                {
                    "sample_id": "conv-1",
                    "conversation": {
                        "session_1_date_time": "1:56 pm on 8 May, 2023",
                        "session_1": [{"speaker": "A", "dia_id": "D1:1", "text": "Hi."}],
                        "session_2_date_time": "25:99 pm on 9 May, 2023",
                        "session_2": [{"speaker": "A", "dia_id": "D2:1", "text": "Hi again."}],
                    },
                }
            ]
        ),
        "auto",
        "conv-1_session_2",
        "session_2_date_time",
        "impossible date",
    ),
    (
        "longmemeval-differing-copies",
        "m.json",
        as_json(
            [
                {
                    "question_id": f"q{n}",
                    "haystack_session_ids": ["shared"],
                    "haystack_dates": ["2023/05/30 (Tue) 23:40"],
                    "haystack_sessions": [[{"role": "user", "content": f"copy {n}"}]],
                }
                for n in (1, 2)
            ]
        ),
        "auto",
        "shared",
        "session_id",
        "duplicate session id",
    ),
]


@pytest.mark.parametrize(
    ("name", "content", "fmt", "session", "field", "words"),
    [pytest.param(*case[1:], id=case[0]) for case in BAD_INPUTS],
)
def test_bad_input_raises_a_typed_error_and_changes_nothing(
    tmp_path: Path,
    db: Path,
    memory: Memory,
    before: dict[str, Any],
    name: str,
    content: bytes,
    fmt: str,
    session: str | None,
    field: str | None,
    words: str,
) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(InputError) as info:
        memory.ingest(path, format=fmt)
    error = info.value
    message = str(error)
    assert type(error) is InputError
    assert error.file == str(path)
    assert str(path) in message
    assert error.session == session
    if session is not None:
        assert repr(session) in message
    assert error.field == field
    if field is not None:
        assert repr(field) in message
    assert words in message
    assert "\n" not in message
    assert not memory.store.conn.in_transaction
    assert snapshot(db) == before
    # The memory is still usable after the refusal.
    assert [h.session_id for h in memory.search("Lisbon", mode="bm25")] == ["good-1", "good-1"]


def test_non_utf8_error_gives_the_byte_offset(tmp_path: Path, memory: Memory) -> None:
    path = tmp_path / "latin1.jsonl"
    content = jsonl(NEW)[:-3] + b"caf\xe9\n"
    path.write_bytes(content)
    with pytest.raises(InputError) as info:
        memory.ingest(path)
    offset = content.index(b"\xe9")
    assert f"byte {offset}" in str(info.value)


def test_missing_file_is_an_input_error(tmp_path: Path, db: Path, memory: Memory, before: dict[str, Any]) -> None:
    path = tmp_path / "nope.jsonl"
    with pytest.raises(InputError) as info:
        memory.ingest(path)
    assert info.value.file == str(path)
    assert "cannot read" in str(info.value)
    assert snapshot(db) == before


def test_hand_built_sessions_are_checked_too(db: Path, memory: Memory, before: dict[str, Any]) -> None:
    ok = Session(session_id="hand-1", timestamp=datetime(2023, 5, 9), turns=(Turn(0, "u", "fine", "t0"),))
    empty = Session(session_id="hand-2", timestamp=datetime(2023, 5, 9), turns=())
    with pytest.raises(InputError) as info:
        memory.ingest([ok, empty])
    assert (info.value.session, info.value.field) == ("hand-2", "turns")
    misnumbered = Session(session_id="hand-3", timestamp=datetime(2023, 5, 9), turns=(Turn(1, "u", "x", "t1"),))
    with pytest.raises(InputError):
        memory.ingest([ok, misnumbered])
    with pytest.raises(InputError) as info:
        memory.ingest([ok, ok])
    assert "duplicate" in str(info.value)
    with pytest.raises(InputError, match="expected a Session"):
        memory.ingest([ok, {"session_id": "hand-5"}])  # type: ignore[list-item]
    ancient = Session(session_id="hand-4", timestamp=datetime(1, 1, 1), turns=(Turn(0, "u", "x", "t0"),))
    with pytest.raises(InputError, match="out of range") as info:
        memory.ingest([ok, ancient])
    assert (info.value.session, info.value.field) == ("hand-4", "timestamp")
    assert snapshot(db) == before


def test_times_and_dates_of_the_wrong_type_are_input_errors(memory: Memory) -> None:
    for call, field in (
        (lambda: memory.facts(as_of=date(2026, 1, 1)), "as_of"),  # type: ignore[arg-type]
        (lambda: memory.forget(before="2026-01-01"), "before"),  # type: ignore[arg-type]
        (lambda: memory.add("hi", session_id="s", timestamp="2026-01-01"), "timestamp"),  # type: ignore[arg-type]
    ):
        with pytest.raises(InputError, match="expected a datetime") as info:
            call()
        assert info.value.field == field


# -- re-ingesting a stored session id --------------------------------------------------------------------------

CHANGED_GOOD = record("good-1", "My sister Ana moved to Porto.", "Porto has great bridges.")


def test_conflicting_reingest_raises_and_changes_nothing(
    tmp_path: Path, db: Path, memory: Memory, before: dict[str, Any]
) -> None:
    path = tmp_path / "changed.jsonl"
    path.write_bytes(jsonl(NEW, CHANGED_GOOD))  # a new session first: it must not be written either
    with pytest.raises(SessionConflictError) as info:
        memory.ingest(path)
    assert info.value.session == "good-1"
    assert "'good-1'" in str(info.value)
    assert "replace" in str(info.value)
    assert isinstance(info.value, InputError)
    assert snapshot(db) == before


def test_replace_swaps_in_the_new_content(tmp_path: Path, db: Path, memory: Memory, before: dict[str, Any]) -> None:
    path = tmp_path / "changed.jsonl"
    path.write_bytes(jsonl(NEW, CHANGED_GOOD))
    report = memory.ingest(path, replace=True)
    assert (report.sessions_added, report.sessions_replaced, report.sessions_unchanged) == (1, 1, 0)
    stored = memory.session("good-1")
    assert [t.text for t in stored.turns] == ["My sister Ana moved to Porto.", "Porto has great bridges."]
    assert memory.search("Lisbon", mode="bm25") == []
    assert {h.session_id for h in memory.search("Porto", mode="bm25")} == {"good-1"}
    after = snapshot(db)
    assert after["sessions"] == 2 and after["turns"] == 4 and after["pieces"] == 4
    assert after["turns_fts_u1_docsize"] == after["turns"]
    assert after["pieces_fts_u1_docsize"] == after["pieces"]
    assert after["lisbon matches"] == 0
    memory.store.conn.execute("INSERT INTO turns_fts_u1 (turns_fts_u1) VALUES ('integrity-check')")
    memory.store.conn.execute("INSERT INTO pieces_fts_u1 (pieces_fts_u1) VALUES ('integrity-check')")


def test_replace_is_not_needed_for_an_identical_session(
    tmp_path: Path, db: Path, memory: Memory, before: dict[str, Any]
) -> None:
    path = tmp_path / "same.json"
    path.write_bytes(as_json([GOOD]))  # the same content in the other generic layout
    report = memory.ingest(path, replace=True)
    assert (report.sessions_added, report.sessions_replaced, report.sessions_unchanged) == (0, 0, 1)
    assert snapshot(db) == before


def test_same_session_id_for_another_user_is_no_conflict(tmp_path: Path, memory: Memory) -> None:
    path = tmp_path / "other_user.jsonl"
    path.write_bytes(jsonl(CHANGED_GOOD))
    report = memory.ingest(path, user="someone-else")
    assert report.sessions_added == 1
    assert memory.session("good-1").turns[0].text == "My sister Ana lives in Lisbon."
    assert memory.session("good-1", user="someone-else").turns[0].text == "My sister Ana moved to Porto."


def test_identical_reingest_is_idempotent(tmp_path: Path, db: Path, memory: Memory) -> None:
    path = tmp_path / "two.jsonl"
    path.write_bytes(jsonl(NEW, record("new-2", "Second session.", "Indeed.")))
    first = memory.ingest(path)
    assert (first.sessions_added, first.sessions_unchanged, first.turns_added) == (2, 0, 4)
    state = snapshot(db)
    second = memory.ingest(path)
    assert second.sessions_added == 0
    assert second.sessions_replaced == 0
    assert second.sessions_unchanged == 2
    assert (second.turns_added, second.pieces_added) == (0, 0)
    assert snapshot(db) == state


# -- bugs found while writing these tests, now fixed ---------------------------------------------


def test_conflict_error_names_the_file(tmp_path: Path, memory: Memory) -> None:
    path = tmp_path / "changed.jsonl"
    path.write_bytes(jsonl(CHANGED_GOOD))
    with pytest.raises(SessionConflictError) as info:
        memory.ingest(path)
    assert info.value.file == str(path)
    assert str(path) in str(info.value)


DEEP = b"[" * 100_000 + b"]" * 100_000


@pytest.mark.parametrize(
    ("name", "content", "field"),
    [
        ("deep.json", b"[" * 100_000, None),
        ("deep.json", b'{"a": ' + DEEP + b"}", None),  # an object first: read as JSON lines or one document?
        ("deep.jsonl", jsonl(NEW) + b'{"a": ' + DEEP + b"}\n", "line 2"),
    ],
)
def test_deeply_nested_json_is_an_input_error(
    tmp_path: Path, db: Path, memory: Memory, before: dict[str, Any], name: str, content: bytes, field: str | None
) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(InputError, match="nested too deeply") as info:
        memory.ingest(path)
    assert (info.value.file, info.value.field) == (str(path), field)
    assert snapshot(db) == before
    with pytest.raises(InputError, match="nested too deeply") as info:
        read_jsonl(io.StringIO('{"text": "a"}\n{"text": "b", "caption": ' + DEEP.decode() + "}\n"))
    assert info.value.field == "line 2"


def test_lone_surrogate_escape_is_an_input_error(
    tmp_path: Path, db: Path, memory: Memory, before: dict[str, Any]
) -> None:
    path = tmp_path / "surrogate.jsonl"
    path.write_bytes(jsonl(NEW).replace(b"cello", b"cello \\ud83d"))
    try:
        with pytest.raises(InputError) as info:
            memory.ingest(path)
    finally:
        assert snapshot(db) == before
    assert (info.value.session, info.value.field) == ("new-1", "turns[0].text")


# -- the command line ------------------------------------------------------------------------------------------


def run_cli(args: list[str]) -> int | str | None:
    """Run ``sodamem.cli.main``; return the exit code (None when it returns without exiting)."""
    try:
        main(args)
    except SystemExit as exc:
        return exc.code
    return None


CLI_CASES = [case for case in BAD_INPUTS if case[0] != "huge-turn"]


@pytest.mark.parametrize(
    ("name", "content", "fmt"),
    [pytest.param(case[1], case[2], case[3], id=case[0]) for case in CLI_CASES],
)
def test_cli_bad_input_exits_2_with_one_error_line(
    tmp_path: Path,
    db: Path,
    before: dict[str, Any],
    capsys: pytest.CaptureFixture[str],
    name: str,
    content: bytes,
    fmt: str,
) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(SystemExit) as info:
        main(["--db", str(db), "ingest", "--format", fmt, str(path)])
    assert info.value.code == 2
    out, err = capsys.readouterr()
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error:")
    assert str(path) in lines[0]
    assert "Traceback" not in out + err
    assert snapshot(db) == before


def test_cli_conflict_exits_2_and_replace_succeeds(
    tmp_path: Path, db: Path, before: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "changed.jsonl"
    path.write_bytes(jsonl(CHANGED_GOOD))
    assert run_cli(["--db", str(db), "ingest", str(path)]) == 2
    out, err = capsys.readouterr()
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:")
    assert "'good-1'" in lines[0] and "--replace" in lines[0]
    assert "Traceback" not in out + err
    assert snapshot(db) == before

    assert run_cli(["--db", str(db), "ingest", "--replace", "--json", str(path)]) is None
    report = json.loads(capsys.readouterr().out)
    assert (report["sessions_replaced"], report["sessions_added"]) == (1, 0)
    assert snapshot(db)["lisbon matches"] == 0


def test_cli_reingest_is_idempotent(tmp_path: Path, db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "two.jsonl"
    path.write_bytes(jsonl(NEW, record("new-2", "Second session.")))
    assert run_cli(["--db", str(db), "ingest", "--json", str(path)]) is None
    first = json.loads(capsys.readouterr().out)
    assert first["sessions_added"] == 2
    state = snapshot(db)
    assert run_cli(["--db", str(db), "ingest", "--json", str(path)]) is None
    second = json.loads(capsys.readouterr().out)
    assert (second["sessions_added"], second["sessions_unchanged"], second["turns_added"]) == (0, 2, 0)
    assert snapshot(db) == state


def test_cli_missing_file_exits_2(tmp_path: Path, db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "absent.json"
    assert run_cli(["--db", str(db), "ingest", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and str(path) in err


def test_cli_conflict_error_names_the_file(tmp_path: Path, db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "changed.jsonl"
    path.write_bytes(jsonl(CHANGED_GOOD))
    assert run_cli(["--db", str(db), "ingest", str(path)]) == 2
    assert str(path) in capsys.readouterr().err


def test_cli_deeply_nested_json_exits_2(tmp_path: Path, db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "deep.json"
    path.write_bytes(b"[" * 100_000)
    assert run_cli(["--db", str(db), "ingest", str(path)]) == 2
    assert capsys.readouterr().err.startswith("error:")


def test_typed_errors_share_a_base_class() -> None:
    assert issubclass(SessionConflictError, InputError)
    assert issubclass(InputError, SodaMemError)
    error = InputError("missing", file="f.json", session="s", field="turns")
    assert str(error) == "file f.json, session 's', field 'turns': missing"


@pytest.mark.parametrize(
    "args",
    [
        ["search", "Lisbon"],
        ["ask", "Where does Maya live?"],
        ["facts"],
        ["history", "1"],
        ["show", "turn", "good-1:0"],
        ["export"],
        ["stats"],
        ["check"],
        ["forget", "--session", "good-1"],
        ["keys", "list"],
        ["keys", "revoke", "1"],
    ],
    ids=lambda args: " ".join(args[:2]),
)
def test_cli_commands_that_only_read_refuse_a_missing_database_and_create_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    # a mistyped --db must not be answered from an empty memory made on the spot ("not in memory", "no facts")
    path = tmp_path / "typo.db"
    assert run_cli(["--db", str(path), "--embedder", "none", *args]) == 2
    out, err = capsys.readouterr()
    assert len(err.splitlines()) == 1 and err.startswith("error:") and f"no database at {path}" in err
    assert "Traceback" not in out + err
    assert not path.exists()


BEYOND_64_BITS = str(1 << 70)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["history", BEYOND_64_BITS], f"no fact {BEYOND_64_BITS}"),
        (["show", "piece", BEYOND_64_BITS], f"no piece {BEYOND_64_BITS}"),
        (["forget", "--fact", BEYOND_64_BITS], f"no fact {BEYOND_64_BITS}"),
        (["keys", "revoke", BEYOND_64_BITS], f"no key with id {BEYOND_64_BITS}"),
        (["search", "Lisbon", "--k", BEYOND_64_BITS], "field 'k': must be from 1 to 10000"),
    ],
    ids=lambda value: " ".join(value[:2]) if isinstance(value, list) else "",
)
def test_cli_numbers_past_64_bits_are_not_found_or_refused_and_change_nothing(
    db: Path, before: dict[str, Any], capsys: pytest.CaptureFixture[str], args: list[str], words: str
) -> None:
    assert run_cli(["--db", str(db), "--embedder", "none", *args]) == 2
    out, err = capsys.readouterr()
    assert len(err.splitlines()) == 1 and err.startswith("error:") and words in err and "Traceback" not in out
    assert snapshot(db) == before


def test_cli_commands_that_write_start_a_database(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    history = tmp_path / "history.jsonl"
    history.write_bytes(jsonl(NEW))
    for name, args in [
        ("ingest.db", ["ingest", str(history)]),
        ("add.db", ["add", "--session", "s1", "I live in Porto."]),
        ("keys.db", ["keys", "create", "--user", "maya"]),
    ]:
        assert run_cli(["--db", str(tmp_path / name), "--embedder", "none", *args]) is None, name
        assert (tmp_path / name).exists()
    capsys.readouterr()
    assert run_cli(["--db", str(tmp_path / "add.db"), "--embedder", "none", "facts", "--json"]) is None
    assert "Porto" in capsys.readouterr().out


def test_migrating_from_a_missing_database_is_refused_and_creates_nothing(tmp_path: Path) -> None:
    source, target = tmp_path / "typo.db", tmp_path / "copy.db"
    with pytest.raises(InputError, match="no database at") as info:
        migrate(source, target)
    assert info.value.field == "--from"
    assert not source.exists() and not target.exists()


@pytest.mark.parametrize("text", ["", "   ", "???", "\n-\t"])
def test_a_query_or_question_without_words_is_refused(db: Path, text: str) -> None:
    # ranked by the memory's priors alone, the hits of an empty query would answer a question nobody asked
    with Memory(db) as memory:
        with pytest.raises(InputError) as search_error:
            memory.search(text)
        with pytest.raises(InputError) as ask_error:
            ask(memory, text, offline=True)
    assert (search_error.value.field, ask_error.value.field) == ("query", "question")
    assert "no words" in str(search_error.value)


def test_the_cli_refuses_a_question_without_words_with_exit_2(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for args in (["ask", " ? "], ["search", ""]):
        assert run_cli(["--db", str(db), *args]) == 2
        err = capsys.readouterr().err
        assert len(err.splitlines()) == 1 and err.startswith("error:") and "no words" in err


def test_cli_show_session_refuses_a_session_option(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(["--db", str(db), "show", "session", "good-1", "--session", "other"]) == 2
    assert "--session narrows a turn or a piece" in capsys.readouterr().err
    assert run_cli(["--db", str(db), "show", "session", "good-1"]) in (0, None)  # None: click returned normally


def test_cli_serve_refuses_a_port_in_use_before_saying_it_serves(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert run_cli(["--db", str(tmp_path / "m.db"), "serve", "--no-auth", "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert f"cannot listen on 127.0.0.1:{port}" in err and "serving" not in err
