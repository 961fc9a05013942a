"""``sodamem check``: a sound database passes; each way of breaking one by raw SQL is named."""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import pytest

from sodamem import Memory
from sodamem.cli import main
from sodamem.demo import example_history_path
from sodamem.store.integrity import MAX_EXAMPLES, CheckReport, ProblemKind, check_database

Corruption = Callable[[sqlite3.Connection], None]


@pytest.fixture(scope="module")
def sound_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("check") / "sound.db"
    with Memory(path, embedder="fake") as memory:
        report = memory.ingest(example_history_path())
        assert report.facts_added > 0 and report.embedded > 0
    return path


@pytest.fixture
def db(sound_db: Path, tmp_path: Path) -> Path:
    """A private copy of the sound database (closed, so its WAL is checkpointed into the one file)."""
    return Path(shutil.copy(sound_db, tmp_path / "copy.db"))


def corrupt(path: Path, *statements: str) -> None:
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA foreign_keys = ON")  # as the store runs: deletes cascade unless a test turns it off
    try:
        for statement in statements:
            conn.execute(statement)
    finally:
        conn.close()


def check(path: Path) -> CheckReport:
    with Memory(path) as memory:
        return memory.check()


def one_value(path: Path, sql: str) -> int:
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute(sql).fetchone()[0])
    finally:
        conn.close()


# -- a sound database ------------------------------------------------------------------------------------------


def test_sound_database_passes_every_check(db: Path) -> None:
    report = check(db)
    assert report.ok, report.problems
    assert report.problems == ()
    for name in ("sqlite_integrity", "foreign_keys", "turns_fts", "pieces_fts", "facts_fts", "entities_fts"):
        assert name in report.checks
    assert {"piece_spans", "fact_sources", "source_quotes", "turn_order", "links", "slots", "vectors"} <= set(
        report.checks
    )


def test_check_changes_nothing(db: Path) -> None:
    before = db.read_bytes()
    assert check(db).ok
    assert check(db).ok
    assert db.read_bytes() == before


def test_a_database_without_an_embedder_needs_no_vectors(tmp_path: Path) -> None:
    with Memory(tmp_path / "lexical.db", embedder="none") as memory:
        memory.ingest(example_history_path())
        report = memory.check()
    assert report.ok, report.problems


# -- each corruption is named -------------------------------------------------------------------------------


def _change_a_piece(conn: sqlite3.Connection) -> None:
    # Same length (the CHECK constraint holds), other characters; the trigger keeps the FTS index in step.
    conn.execute("UPDATE pieces SET text = 'Z' || substr(text, 2) WHERE id = (SELECT max(id) FROM pieces)")


def _misquote_a_source(conn: sqlite3.Connection) -> None:
    conn.execute(
        "UPDATE fact_sources SET quote = 'Q' || substr(quote, 2) WHERE rowid = (SELECT min(rowid) FROM fact_sources)"
    )


def _shift_a_source(conn: sqlite3.Connection) -> None:
    conn.execute(
        "UPDATE fact_sources SET char_start = char_start + 1, char_end = char_end + 1"
        " WHERE rowid = (SELECT min(rowid) FROM fact_sources)"
    )


def _unsource_a_fact(conn: sqlite3.Connection) -> None:
    conn.execute("DELETE FROM fact_sources WHERE fact_pk = (SELECT min(id) FROM facts)")


def _drop_a_vector(conn: sqlite3.Connection) -> None:
    conn.execute("DELETE FROM embeddings WHERE text_hash = (SELECT embed_hash FROM turns ORDER BY id LIMIT 1)")


def _drop_a_piece_vector(conn: sqlite3.Connection) -> None:
    conn.execute("DELETE FROM embeddings WHERE text_hash = (SELECT embed_hash FROM pieces ORDER BY id DESC LIMIT 1)")


def _empty_a_session(conn: sqlite3.Connection) -> None:
    conn.execute("DELETE FROM facts WHERE session_pk = (SELECT min(id) FROM sessions)")
    conn.execute("DELETE FROM turns WHERE session_pk = (SELECT min(id) FROM sessions)")


def _dangle_a_link(conn: sqlite3.Connection) -> None:
    conn.execute(
        "INSERT INTO links (user, type, src_kind, src_id, dst_kind, dst_id)"
        " SELECT 'default', 'SUPERSEDES', 'fact', 999999, 'fact', min(id) FROM facts"
    )


def _slot_link_to_a_piece(conn: sqlite3.Connection) -> None:
    conn.execute(
        "INSERT INTO links (user, type, src_kind, src_id, dst_kind, dst_id)"
        " SELECT 'default', 'UPDATES', 'fact', (SELECT min(id) FROM facts), 'piece', min(id) FROM pieces"
    )


def _reactivate_a_superseded_fact(conn: sqlite3.Connection) -> None:
    conn.execute(
        "UPDATE facts SET status = 'active', valid_to = NULL"
        " WHERE id = (SELECT min(id) FROM facts WHERE status = 'superseded' AND slot IS NOT NULL AND polarity = 1"
        " AND modality = 'asserted')"
    )


def _orphan_turns(conn: sqlite3.Connection) -> None:
    conn.execute("PRAGMA foreign_keys = OFF")
    conn.execute("DELETE FROM sessions WHERE id = (SELECT min(id) FROM sessions)")


CORRUPTIONS: list[tuple[str, Corruption, ProblemKind, str]] = [
    ("piece-text", _change_a_piece, ProblemKind.PIECE_SPAN, "is not its turn's text"),
    ("source-quote", _misquote_a_source, ProblemKind.SOURCE_QUOTE, "is not the text at chars"),
    ("source-offsets", _shift_a_source, ProblemKind.SOURCE_QUOTE, "is not the text at chars"),
    ("fact-without-source", _unsource_a_fact, ProblemKind.FACT_WITHOUT_SOURCE, "has no source"),
    ("turn-vector", _drop_a_vector, ProblemKind.MISSING_VECTORS, "turns have no vector"),
    ("piece-vector", _drop_a_piece_vector, ProblemKind.MISSING_VECTORS, "pieces have no vector"),
    ("empty-session", _empty_a_session, ProblemKind.TURN_ORDER, "has no turns"),
    ("dangling-link", _dangle_a_link, ProblemKind.DANGLING_LINK, "fact 999999 does not exist"),
    ("slot-link-kind", _slot_link_to_a_piece, ProblemKind.DANGLING_LINK, "not two facts"),
    ("two-active-in-a-slot", _reactivate_a_superseded_fact, ProblemKind.SLOT_STATUS, "holds 2 active facts affirming"),
    ("orphan-turns", _orphan_turns, ProblemKind.FOREIGN_KEY, "of turns point at missing rows of sessions"),
]


@pytest.mark.parametrize(("damage", "kind", "words"), [pytest.param(c[1], c[2], c[3], id=c[0]) for c in CORRUPTIONS])
def test_each_corruption_is_named(db: Path, damage: Corruption, kind: ProblemKind, words: str) -> None:
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("PRAGMA foreign_keys = ON")
    try:
        damage(conn)
    finally:
        conn.close()
    report = check(db)
    assert not report.ok
    assert kind in report.kinds(), report.problems
    assert any(words in p.message for p in report.problems if p.kind is kind), report.problems


def test_exactly_the_damaged_piece_is_reported(db: Path) -> None:
    corrupt(db, "UPDATE pieces SET text = 'Z' || substr(text, 2) WHERE id = 7")
    problems = check(db).problems
    assert [(p.kind, p.message.split(" (")[0]) for p in problems] == [(ProblemKind.PIECE_SPAN, "piece 7")]


def test_missing_vectors_are_counted_and_embed_missing_repairs_them(db: Path) -> None:
    turns = one_value(db, "SELECT count(*) FROM turns")
    corrupt(db, "DELETE FROM embeddings")
    problems = check(db).problems
    assert {p.kind for p in problems} == {ProblemKind.MISSING_VECTORS}
    assert any(p.message.startswith(f"{turns} turns have no vector under") for p in problems), problems
    with Memory(db) as memory:
        assert memory.embed_missing() > 0
        assert memory.check().ok


def test_an_unknown_recorded_embedder_is_a_problem(db: Path) -> None:
    corrupt(db, "UPDATE settings SET value = 'no-such-model' WHERE key = 'embedder'")
    conn = sqlite3.connect(db)
    try:
        report = check_database(conn)
    finally:
        conn.close()
    assert report.kinds() == {ProblemKind.EMBEDDER_SETTING}


@pytest.mark.parametrize(
    ("table", "statements"),
    [
        pytest.param(
            "turns",
            ["DROP TRIGGER turns_fts_log_update", "UPDATE turns SET caption = 'zebra' WHERE id = 3"],
            id="turn-updated-without-trigger",
        ),
        pytest.param(
            "pieces",
            [
                "INSERT INTO pieces_fts_u1 (pieces_fts_u1, rowid, text)"
                " SELECT 'delete', id, text FROM pieces WHERE id = 5"
            ],
            id="row-removed-from-index",
        ),
        pytest.param("turns", ["DELETE FROM turns_fts_u1_data WHERE id > 10"], id="shadow-table-written"),
        pytest.param(
            "facts", ["DROP TRIGGER facts_fts_log_delete", "DELETE FROM facts"], id="facts-deleted-without-trigger"
        ),
        pytest.param(
            "entities",
            [
                "DROP TRIGGER entities_fts_log_update",
                # an entity no fact is about: a renamed subject would move its facts' slots too (check names that)
                "UPDATE entities SET name = name || ' zebra'"
                " WHERE id = (SELECT min(id) FROM entities WHERE id NOT IN (SELECT subject_pk FROM facts))",
            ],
            id="entity-renamed-without-trigger",
        ),
    ],
)
def test_a_stale_or_damaged_fts_index_is_named(db: Path, table: str, statements: list[str]) -> None:
    corrupt(db, *statements)
    report = check(db)
    fts = [p for p in report.problems if p.kind is ProblemKind.FTS_INDEX]
    assert [p.message.split(" does not")[0] for p in fts] == [f"full-text index {table}_fts of user 'default'"], (
        report.problems
    )
    assert "rebuild" in fts[0].message
    # SQLite >= 3.44 also checks FTS5 indexes in PRAGMA integrity_check; nothing else may be reported.
    assert report.kinds() <= {ProblemKind.FTS_INDEX, ProblemKind.SQLITE_INTEGRITY}


def test_rebuilding_the_fts_index_repairs_it(db: Path) -> None:
    corrupt(db, "DELETE FROM turns_fts_u1_data WHERE id > 10")
    assert not check(db).ok
    assert run_check(db, "--repair") == 0
    assert check(db).ok


def test_a_damaged_sqlite_index_is_named(db: Path) -> None:
    # The index's definition no longer matches its b-tree: SQLite's own integrity_check finds the missing rows.
    corrupt(
        db,
        "PRAGMA writable_schema = ON",
        "UPDATE sqlite_master SET sql = 'CREATE INDEX turns_user_turn_id ON turns (turn_id, user)'"
        " WHERE name = 'turns_user_turn_id'",
        "PRAGMA writable_schema = OFF",
    )
    problems = check(db).problems
    assert {p.kind for p in problems} == {ProblemKind.SQLITE_INTEGRITY}
    assert "missing from index turns_user_turn_id" in problems[0].message
    assert len(problems) <= MAX_EXAMPLES + 1


def test_many_problems_of_a_kind_are_summarised(db: Path) -> None:
    pieces = one_value(db, "SELECT count(*) FROM pieces")
    corrupt(db, "UPDATE pieces SET text = upper(text) WHERE text != upper(text)")
    damaged = [p for p in check(db).problems if p.kind is ProblemKind.PIECE_SPAN]
    assert len(damaged) == MAX_EXAMPLES + 1
    more = int(damaged[-1].message.split()[1])
    assert 0 < more <= pieces - MAX_EXAMPLES


# -- the command line ------------------------------------------------------------------------------------------


def run_check(db: Path, *extra: str) -> int:
    try:
        main(["--db", str(db), "check", *extra])
    except SystemExit as exit_:
        return int(exit_.code or 0)
    return 0


def test_cli_sound_database_exits_0(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_check(db) == 0
    out = capsys.readouterr().out
    assert "sound" in out and str(db) in out
    assert run_check(db, "--json") == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["ok"] is True and payload["problems"] == []


def test_cli_problems_exit_1_and_are_listed(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    corrupt(db, "DELETE FROM turns_fts_u1_data WHERE id > 10", "DELETE FROM fact_sources WHERE fact_pk = 1")
    assert run_check(db) == 1
    out, err = capsys.readouterr()
    assert "[fts_index] full-text index turns_fts" in out
    assert "[fact_without_source] fact 1 has no source" in out
    assert "Traceback" not in out + err
    assert run_check(db, "--json") == 1
    payload = json.loads(capsys.readouterr().out)
    assert payload["ok"] is False
    assert {"fts_index", "fact_without_source"} <= {p["kind"] for p in payload["problems"]}


def test_cli_check_of_a_file_that_is_no_database_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("not a database\n" * 100)
    assert run_check(path) == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and str(path) in err and len(err.splitlines()) == 1


def test_cli_check_of_a_missing_file_exits_2_and_creates_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "typo.db"
    assert run_check(path) == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and "no database at" in err and str(path) in err
    assert not path.exists()


def test_repair_gives_a_user_who_lost_their_index_number_a_full_index_again(db: Path) -> None:
    """With its ``fts_users`` row gone, a user's rows are in no index (search finds nothing, the next write would
    index only itself): check names the user, and --repair indexes every row of theirs again."""
    with Memory(db) as memory:
        before = [hit.turn_id for hit in memory.search("Lumen", k=3, mode="bm25")]
    assert before
    with Memory(db, user="bob") as memory:  # a later number, so the lost one is not reused
        memory.add("I sail on Lumen Lake.", session_id="b", timestamp=datetime(2024, 1, 1))
    corrupt(db, "DELETE FROM fts_users WHERE user = 'default'")
    report = check(db)
    assert any("users with rows but no full-text index: ['default']" in p.message for p in report.problems)
    assert run_check(db, "--repair") == 0
    assert check(db).ok, check(db).problems
    with Memory(db) as memory:
        assert [hit.turn_id for hit in memory.search("Lumen", k=3, mode="bm25")] == before
    with Memory(db, user="bob") as memory:
        assert [hit.session_id for hit in memory.search("Lumen", k=3, mode="bm25")] == ["b"]
    conn = sqlite3.connect(db)
    try:  # the lost number's indexes held the user's words: they are gone
        assert not conn.execute("SELECT name FROM sqlite_master WHERE name LIKE '%\\_u1%' ESCAPE '\\'").fetchall()
    finally:
        conn.close()
