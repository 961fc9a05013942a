"""Export and import: a dump round-trips byte for byte, holds one user in domain terms; a bad one changes nothing."""

from __future__ import annotations

import io
import json
import re
import sqlite3
import sys
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sodamem import InputError, Memory, NotFoundError, SessionConflictError
from sodamem.cli import main
from sodamem.demo import example_history_path
from tests.conftest import make_session


@pytest.fixture(scope="module")
def history_lines() -> list[str]:
    """The bundled example history, extracted by the offline rules, with fake vectors (so NEIGHBOR links too)."""
    with Memory(":memory:", embedder="fake") as memory:
        memory.ingest(example_history_path())
        return list(memory.export())


def records(lines: Iterable[str], kind: str) -> list[dict[str, Any]]:
    return [r for r in map(json.loads, lines) if r.get("record") == kind]


def line_number(lines: list[str], kind: str) -> int:
    """The 1-based line number of the first record of a kind."""
    return next(i for i, line in enumerate(lines, start=1) if json.loads(line).get("record") == kind)


def without_ingest_times(lines: Iterable[str]) -> list[str]:
    return [re.sub(r'"ingested_at":"[^"]*"', '"ingested_at":""', line) for line in lines]


# -- round trips -------------------------------------------------------------------------------------------------


def test_export_import_export_is_byte_identical(history_lines: list[str]) -> None:
    facts = records(history_lines, "fact")
    assert {f["status"] for f in facts} == {"active", "superseded"}
    assert any(f["valid_to"] for f in facts)
    link_types = {link["type"] for link in records(history_lines, "link")}
    assert {"SUPERSEDES", "NEIGHBOR", "DERIVED_FROM", "MENTIONS"} <= link_types
    assert json.loads(history_lines[0]) == {"format": "sodamem-dump", "version": 1, "user": "default"}
    with Memory(":memory:", embedder="none") as target:
        report = target.import_dump(io.StringIO("".join(history_lines)))
        assert (report.sessions, report.facts, report.links) == (11, len(facts), len(records(history_lines, "link")))
        assert not report.unchanged
        assert "".join(target.export()) == "".join(history_lines)


def test_the_imported_memory_reads_and_searches_like_the_original(tmp_path: Path) -> None:
    with Memory(":memory:", embedder="fake") as source, Memory(tmp_path / "copy.db", embedder="fake") as target:
        source.ingest(example_history_path())
        report = target.import_dump(io.StringIO("".join(source.export())))
        assert report.embedded > 0
        assert target.embed_missing() == 0  # every stored embedding hash found its vector
        assert [f.to_dict() for f in target.facts(status="all")] == [f.to_dict() for f in source.facts(status="all")]
        superseded = target.facts(status="superseded")[0]
        assert [f.to_dict() for f in target.history(superseded.id)] == [
            f.to_dict() for f in source.history(superseded.id)
        ]
        question = "where does Maya work now?"
        assert [h.to_dict() for h in target.search(question, k=5)] == [h.to_dict() for h in source.search(question)[:5]]
        # Content hashes are ingestion's: ingesting the original file again is recognised as identical.
        again = target.ingest(example_history_path())
        assert (again.sessions_unchanged, again.sessions_added) == (11, 0)


def test_turn_times_survive_the_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "timed.jsonl"
    sessions = [
        {
            "session_id": "timed",
            "timestamp": "2024-05-01T09:00:00",
            "turns": [
                {"speaker": "user", "text": "I adopted a cat named Miso.", "timestamp": "2024-05-01T09:00:00"},
                {"speaker": "assistant", "text": "Lovely!", "timestamp": "2024-05-01T09:01:00"},
            ],
        },
        {"session_id": "untimed", "timestamp": "2024-05-02T09:00:00", "turns": [{"speaker": "user", "text": "Hi."}]},
    ]
    path.write_text("".join(json.dumps(s) + "\n" for s in sessions), encoding="utf-8")
    with Memory(":memory:", embedder="none") as source, Memory(":memory:", embedder="none") as target:
        source.ingest(path)
        lines = list(source.export())
        turns = [s["turns"] for s in records(lines, "session")]
        assert [t["timestamp"] for t in turns[0]] == ["2024-05-01T09:00:00", "2024-05-01T09:01:00"]
        assert [t["timestamp"] for t in turns[1]] == [None]
        target.import_dump(io.StringIO("".join(lines)))
        assert target.ingest(path).sessions_unchanged == 2
        assert list(target.export()) == lines


def test_a_gap_left_by_a_forgotten_turn_round_trips() -> None:
    with Memory(":memory:", embedder="none") as source, Memory(":memory:", embedder="none") as target:
        source.ingest(example_history_path())
        # What forgetting one turn leaves: the other turns keep their indexes (here a turn no fact cites).
        source.store.conn.execute(
            "DELETE FROM turns WHERE id = (SELECT t.id FROM turns t JOIN sessions s ON s.id = t.session_pk"
            " WHERE s.session_id = 's02' AND t.idx = 1)"
        )
        lines = list(source.export())
        assert [t["index"] for t in records(lines, "session")[1]["turns"]][:3] == [0, 2, 3]
        target.import_dump(io.StringIO("".join(lines)))
        assert list(target.export()) == lines
        assert target.turn("s02:2").turn_index == 2


def test_an_export_holds_one_user_and_imports_under_another_name(memory_location: str) -> None:
    with Memory(memory_location, embedder="none") as memory:
        memory.ingest([make_session("bob-1", ["My sister Ana lives in Zanzibar.", "Nice!"])], user="bob")
        memory.ingest(example_history_path())  # the file's user: "default"
        memory.ingest([make_session("bob-2", ["I moved to Quito last month."], when="2024-04-01T10:00:00")], user="bob")
        maya = list(memory.export())
        bob = list(memory.export(user="bob"))
        assert not any(word in "".join(maya) for word in ("bob-", "Zanzibar", "Quito"))
        assert [s["session_id"] for s in records(bob, "session")] == ["bob-1", "bob-2"]
        assert records(bob, "fact") and json.loads(bob[0])["user"] == "bob"
        with Memory(":memory:", embedder="none") as alone:  # the same as a database that never held bob
            alone.ingest(example_history_path())
            assert without_ingest_times(alone.export()) == without_ingest_times(maya)
        report = memory.import_dump(io.StringIO("".join(bob)), user="carol")
        assert (report.user, report.sessions) == ("carol", 2)
        carol = list(memory.export(user="carol"))
        assert json.loads(carol[0])["user"] == "carol" and carol[1:] == bob[1:]
        assert list(memory.export(user="bob")) == bob and list(memory.export()) == maya


def test_a_fact_forgotten_by_id_stays_forgotten_after_export_and_import(memory_location: str) -> None:
    """The dump carries the forgotten fact's mark (its piece and a hash, never its text), so a restored memory does
    not make the fact again when its session grows."""
    with Memory(memory_location, embedder="none") as memory:
        memory.add(["I live in Paris.", "I work at Acme Corp."], session_id="s", timestamp=datetime(2026, 3, 1))
        (paris,) = [f for f in memory.facts() if f.predicate == "lives_in"]
        memory.forget(fact_id=paris.id)
        lines = list(memory.export())
        marks = records(lines, "forgotten")
        assert len(marks) == 1 and marks[0]["piece"] == ["s", 0, 0] and "Paris" not in json.dumps(marks)
        assert json.loads(lines[-1])["forgotten"] == 1
        doubled = [*lines[:-2], lines[-2], *lines[-2:]]  # the mark twice (the end count is checked after)
        with pytest.raises(InputError, match="the same forgotten fact twice"):
            memory.import_dump(io.StringIO("".join(doubled)), user="twice")
        memory.import_dump(io.StringIO("".join(lines)), user="restored")
        assert list(memory.export(user="restored"))[1:] == lines[1:]  # the round trip keeps the marks
        memory.add("By the way, my name is Maya.", session_id="s", user="restored")
        assert not any("Paris" in f.text for f in memory.facts(status="all", user="restored"))


def test_a_user_that_holds_memory_takes_only_the_same_dump_again(history_lines: list[str]) -> None:
    text = "".join(history_lines)
    with Memory(":memory:", embedder="none") as target:
        target.import_dump(io.StringIO(text))
        again = target.import_dump(io.StringIO(text))
        assert again.unchanged and again.sessions == 0
        other = re.sub(r'"ingested_at":"[^"]*"', '"ingested_at":"2020-01-01T00:00:00+00:00"', text, count=1)
        with pytest.raises(SessionConflictError) as conflict:
            target.import_dump(io.StringIO(other))
        assert conflict.value.session == "s01"
        target.ingest([make_session("b-1", ["I like tea."])], user="bob")
        with pytest.raises(InputError) as refused:
            target.import_dump(io.StringIO(text), user="bob")
        assert refused.value.field == "user" and not isinstance(refused.value, SessionConflictError)
        assert list(target.export()) == history_lines


def test_exporting_a_user_with_nothing_is_an_error() -> None:
    with Memory(":memory:", embedder="none") as memory, pytest.raises(NotFoundError, match="holds nothing"):
        memory.export(user="nobody")


texts = st.one_of(
    st.sampled_from(
        [
            "I live in Leeds.",
            "I moved to York last month.",
            "My sister Ana loves tea.",
            "I don't eat meat anymore.",
            "Line one\u2028line two: I work at Acme 😅.",
        ]
    ),
    st.text(st.characters(codec="utf-8", exclude_characters="\x00"), min_size=1, max_size=40),
)


@given(st.lists(st.lists(texts, min_size=1, max_size=4), min_size=1, max_size=3))
@settings(max_examples=25, deadline=None)
def test_any_history_round_trips(conversations: list[list[str]]) -> None:
    start = datetime(2024, 1, 1, 9, 0)
    sessions = [
        make_session(f"s{i}", said, when=(start + timedelta(days=i)).isoformat())
        for i, said in enumerate(conversations)
    ]
    with Memory(":memory:", embedder="none") as source, Memory(":memory:", embedder="none") as target:
        source.ingest(sessions)
        lines = list(source.export())
        target.import_dump(io.StringIO("".join(lines)))
        assert list(target.export()) == lines


# -- bad dumps ---------------------------------------------------------------------------------------------------


def change(kind: str, edit: Callable[[dict[str, Any]], None]) -> Callable[[list[str]], str]:
    """A dump whose first record of ``kind`` (``header`` for line 1) went through ``edit``."""

    def build(lines: list[str]) -> str:
        number = 1 if kind == "header" else line_number(lines, kind)
        record = json.loads(lines[number - 1])
        edit(record)
        changed = list(lines)
        changed[number - 1] = json.dumps(record, ensure_ascii=False) + "\n"
        return "".join(changed)

    return build


def first_source(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def edit(fact: dict[str, Any]) -> None:
        if key.startswith("piece"):
            fact["sources"][0]["piece"][int(key[-1])] = value
        else:
            fact["sources"][0][key] = value

    return edit


def move_last_entity_after_the_first_fact(lines: list[str]) -> str:
    last_entity = line_number(lines, "fact") - 1
    moved = [*lines[: last_entity - 1], lines[last_entity], lines[last_entity - 1], *lines[last_entity + 1 :]]
    return "".join(moved)


Where = Callable[[list[str]], int]  # the line an error must name, from the broken dump's lines


def first(kind: str) -> Where:
    return lambda lines: line_number(lines, kind)


HEADER: Where = lambda lines: 1  # noqa: E731
LAST: Where = len
AFTER_FIRST_FACT: Where = lambda lines: line_number(lines, "fact") + 1  # noqa: E731

# (id, how the dump is broken, the line at fault or None, the field after "line N, " or None, words)
BAD_DUMPS: list[tuple[str, Callable[[list[str]], str], Where | None, str | None, str]] = [
    ("empty", lambda lines: "", None, None, "empty"),
    ("cut-mid-line", lambda lines: "".join(lines)[: len("".join(lines[:5])) + 40], LAST, None, "malformed JSON"),
    ("cut-at-a-line-end", lambda lines: "".join(lines[:-3]), None, None, "no 'end' line"),
    ("not-a-dump", lambda lines: example_history_path().read_text("utf-8"), HEADER, "format", "not a SodaMem dump"),
    ("wrong-version", change("header", lambda h: h.update(version=2)), HEADER, "version", "unsupported version"),
    ("user-padded", change("header", lambda h: h.update(user=" maya ")), HEADER, "user", "spaces at its ends"),
    (
        "session-time",
        change("session", lambda s: s.update(timestamp="2026-03-02 19:05")),
        first("session"),
        "timestamp",
        "ISO 8601",
    ),
    (
        "piece-outside-turn",
        change("session", lambda s: s["turns"][0].update(pieces=[[0, 100_000]])),
        first("session"),
        "turns[0].pieces[0]",
        "not a span",
    ),
    (
        "turn-index-repeats",
        change("session", lambda s: s["turns"][1].update(index=0)),
        first("session"),
        "turns[1].index",
        "increase",
    ),
    (
        "fact-month-13",
        change("fact", lambda f: f.update(valid_from="2026-13-01T00:00:00")),
        first("fact"),
        "valid_from",
        "ISO 8601",
    ),
    (
        "fact-said-on-30-february",
        change("fact", lambda f: f.update(mentioned_at="2026-02-30T10:00:00")),
        first("fact"),
        "mentioned_at",
        "ISO 8601",
    ),
    (
        "fact-occurred-nope",
        change("fact", lambda f: f.update(occurred_start="nope")),
        first("fact"),
        "occurred_start",
        "ISO 8601",
    ),
    (
        "link-time-garbage",
        change("link", lambda link: link.update(created_at="zzz")),
        first("link"),
        "created_at",
        "ISO 8601",
    ),
    (
        "fact-missing-session",
        change("fact", lambda f: f.update(session_id="nope")),
        first("fact"),
        "session_id",
        "nope",
    ),
    (
        "source-missing-session",
        change("fact", first_source("piece0", "nope")),
        first("fact"),
        "sources[0].piece",
        "nope",
    ),
    (
        "source-missing-turn",
        change("fact", first_source("piece1", 999)),
        first("fact"),
        "sources[0].piece",
        "no turn 999",
    ),
    (
        "source-missing-piece",
        change("fact", first_source("piece2", 99)),
        first("fact"),
        "sources[0].piece",
        "no piece 99",
    ),
    (
        "quote-not-the-text",
        change("fact", first_source("quote", "I'm 43")),
        first("fact"),
        "sources[0].quote",
        "cited text",
    ),
    (
        "source-outside-piece",
        change("fact", first_source("char_end", 10_000)),
        first("fact"),
        "sources[0]",
        "not inside",
    ),
    ("no-sources", change("fact", lambda f: f.update(sources=[])), first("fact"), "sources", "at least one"),
    ("unknown-subject", change("fact", lambda f: f.update(subject="Nobody")), first("fact"), "subject", "no entity"),
    ("unknown-kind", change("fact", lambda f: f.update(kind="rumour")), first("fact"), "kind", "unknown value"),
    ("polarity-not-bool", change("fact", lambda f: f.update(polarity=1)), first("fact"), "polarity", "true or false"),
    ("missing-field", change("fact", lambda f: f.pop("status")), first("fact"), "status", "missing"),
    (
        "unknown-field",
        change("entity", lambda e: e.update(colour="red")),
        first("entity"),
        None,
        "unknown field 'colour'",
    ),
    (
        "link-missing-fact",
        change("link", lambda link: link.update(src={"fact": 9999})),
        first("link"),
        "src.fact",
        "no fact",
    ),
    ("end-count", change("end", lambda e: e.update(facts=e["facts"] + 1)), LAST, "facts", "holds"),
    ("out-of-order", move_last_entity_after_the_first_fact, AFTER_FIRST_FACT, "record", "after a fact record"),
    ("after-end", lambda lines: "".join([*lines, lines[-2]]), LAST, None, "after the 'end' line"),
]


def table_counts(db: Path) -> dict[str, int]:
    conn = sqlite3.connect(db)
    try:
        tables = ("sessions", "turns", "pieces", "facts", "entities", "entity_aliases", "links", "embeddings")
        return {t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in tables}
    finally:
        conn.close()


@pytest.fixture
def kept_db(tmp_path: Path) -> Path:
    """A database that already holds another user's memory, which a refused import must leave alone."""
    path = tmp_path / "kept.db"
    with Memory(path, embedder="fake") as memory:
        memory.ingest([make_session("k-1", ["I live in Oslo.", "Nice."])], user="keep")
    return path


@pytest.mark.parametrize(
    ("broken", "where", "field", "words"), [c[1:] for c in BAD_DUMPS], ids=[c[0] for c in BAD_DUMPS]
)
def test_a_bad_dump_is_refused_and_changes_nothing(
    history_lines: list[str],
    kept_db: Path,
    tmp_path: Path,
    broken: Callable[[list[str]], str],
    where: Where | None,
    field: str | None,
    words: str,
) -> None:
    text = broken(history_lines)
    path = tmp_path / "bad.jsonl"
    path.write_text(text, encoding="utf-8")
    before = table_counts(kept_db)
    with Memory(kept_db, embedder="fake") as memory:
        kept = list(memory.export(user="keep"))
        with pytest.raises(InputError) as info:
            memory.import_dump(path, user="restored")
        assert list(memory.export(user="keep")) == kept
    assert table_counts(kept_db) == before
    error = info.value
    assert error.file == str(path) and words in error.message, error
    if where is None:
        assert error.field is None
        return
    broken_lines = text.removesuffix("\n").split("\n")
    line = f"line {where(broken_lines)}"
    assert error.field == (f"{line}, {field}" if field else line), error


def test_a_dump_that_is_not_utf8_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "latin1.jsonl"
    path.write_bytes(b'{"format":"sodamem-dump","version":1,"user":"caf\xe9"}\n')
    with Memory(":memory:", embedder="none") as memory, pytest.raises(InputError, match="UTF-8"):
        memory.import_dump(path)


# -- the command line --------------------------------------------------------------------------------------------


def run_cli(args: list[str]) -> int | str | None:
    """Run ``sodamem.cli.main``; return the exit code (None when it returns without exiting)."""
    try:
        main(args)
    except SystemExit as exc:
        return exc.code
    return None


def test_cli_export_import_round_trip(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first, second, dump = tmp_path / "first.db", tmp_path / "second.db", tmp_path / "dump.jsonl"
    assert run_cli(["--db", str(first), "ingest", str(example_history_path())]) is None
    assert run_cli(["--db", str(first), "export", "--output", str(dump)]) is None
    capsys.readouterr()
    assert run_cli(["--db", str(second), "import", str(dump), "--user", "maya", "--json"]) is None
    report = json.loads(capsys.readouterr().out)
    assert (report["user"], report["sessions"], report["unchanged"]) == ("maya", 11, False)
    assert run_cli(["--db", str(second), "export", "--user", "maya"]) is None
    exported = capsys.readouterr().out.split("\n")
    assert exported[1:] == dump.read_text("utf-8").split("\n")[1:]
    assert run_cli(["--db", str(second), "import", str(dump), "--user", "maya"]) is None
    assert "nothing changed" in capsys.readouterr().out


def test_cli_import_reads_stdin(
    history_lines: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO("".join(history_lines).encode()), encoding="utf-8"))
    assert run_cli(["--db", str(tmp_path / "in.db"), "--embedder", "none", "import", "-"]) is None
    assert "11 sessions" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["export", "--user", "nobody"], "holds nothing"),
        (["import", "BAD"], "no 'end' line"),
        (["import", "MISSING"], "cannot read"),
    ],
)
def test_cli_errors_exit_2_with_one_line(
    history_lines: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], words: str
) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text("".join(history_lines[:4]), encoding="utf-8")
    args = [{"BAD": str(bad), "MISSING": str(tmp_path / "missing.jsonl")}.get(a, a) for a in args]
    Memory(tmp_path / "cli.db", embedder="none").close()  # an empty memory: not a mistyped path
    assert run_cli(["--db", str(tmp_path / "cli.db"), "--embedder", "none", *args]) == 2
    out, err = capsys.readouterr()
    assert len(err.splitlines()) == 1 and err.startswith("error:") and words in err
    assert "Traceback" not in out + err
