"""Memory.forget: the text goes for good (tables, FTS, vectors, free pages, WAL), derived facts follow, slots heal."""

from __future__ import annotations

import io
import json
import sqlite3
from datetime import datetime
from pathlib import Path

import pytest

from sodamem import Memory
from sodamem.cli import main
from sodamem.errors import InputError, NotFoundError
from sodamem.model import Session, Turn

WHEN = datetime(2024, 5, 1, 19, 0)
CANARY = "Zqvxcanaryword"


def file_bytes(path: Path) -> bytes:
    data = b""
    for suffix in ("", "-wal", "-journal"):
        part = Path(str(path) + suffix)
        if part.exists():
            data += part.read_bytes()
    return data


def test_a_forgotten_canary_is_in_no_byte_of_the_database_its_wal_or_the_vectors(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    with Memory(path, embedder="fake") as memory:
        memory.add("I live in Leeds and I love tea.", session_id="keep", timestamp=WHEN)
        report = memory.add(
            [f"My locker code is {CANARY} and I moved to {CANARY}ville last week.", f"{CANARY} again, sorry."],
            session_id="secret",
            timestamp=WHEN,
        )
        assert report.facts_added >= 1 and report.embedded >= 2
        assert memory.search(CANARY, k=3)[0].session_id == "secret"
        with sqlite3.connect(path) as conn:
            vectors_before = conn.execute("SELECT COUNT(*) FROM embeddings").fetchone()[0]
        assert CANARY.encode() in file_bytes(path)
        forgotten = memory.forget(session_id="secret")
        outputs = [json.dumps(forgotten.to_dict())]
        assert forgotten.sessions == ["secret"] and len(forgotten.turns) == 2 and forgotten.files_scrubbed
        assert forgotten.counts["embeddings"] >= 3
        outputs += [json.dumps(h.to_dict()) for h in memory.search(CANARY, k=5)]
        outputs += [json.dumps(f.to_dict()) for f in memory.facts(status="all")]
        outputs += [json.dumps(memory.forget_log())]
        assert not any(CANARY.lower() in o.lower() for o in outputs)
        assert memory.search("Leeds", k=1)[0].session_id == "keep"
        with sqlite3.connect(path) as conn:
            vectors_after = conn.execute("SELECT COUNT(*) FROM embeddings").fetchone()[0]
        assert vectors_after == vectors_before - forgotten.counts["embeddings"]
        assert memory.check().ok, memory.check().problems
    raw = file_bytes(path).lower()
    assert CANARY.lower().encode() not in raw
    assert CANARY.lower().encode("utf-16-le") not in raw


def test_forgetting_the_newer_fact_makes_the_older_active_again_and_links_follow(memory_location: str) -> None:
    with Memory(memory_location, embedder="none") as memory:
        memory.add("I live in Leeds.", session_id="s1", timestamp=datetime(2024, 1, 1))
        memory.add("I moved to York.", session_id="s2", timestamp=datetime(2024, 3, 1))
        leeds = next(f for f in memory.facts(status="all") if f.text == "user lives in Leeds")
        assert leeds.status == "superseded" and leeds.valid_to is not None
        assert any(link.type == "SUPERSEDES" for link in leeds.links)
        memory.forget(session_id="s2")
        leeds = memory.fact(leeds.id)
        assert leeds.status == "active" and leeds.valid_to is None
        assert not [link for link in leeds.links if link.type in ("SUPERSEDES", "UPDATES", "CONTRADICTS")]
        assert [f.text for f in memory.facts(status="all")] == ["user lives in Leeds"]


def test_forgetting_one_turn_keeps_the_others_and_their_citations(memory_location: str) -> None:
    with Memory(memory_location, embedder="fake") as memory:
        memory.add(["I live in Leeds.", "I love tea.", "I work as a nurse."], session_id="s", timestamp=WHEN)
        report = memory.forget(turn_id="s:1", session_id="s")
        assert report.turns == ["s/s:1"] and report.sessions == []
        assert [(t.turn_index, t.text) for t in memory.session("s").turns] == [
            (0, "I live in Leeds."),
            (2, "I work as a nurse."),
        ]
        assert "user likes tea" not in {f.text for f in memory.facts(status="all")}
        added = memory.add("I moved to York.", session_id="s")  # indexes continue after the last one
        assert added.added[0].turn_index == 3 and added.added[0].turn_id == "s:3"
        assert memory.check().ok, memory.check().problems


def test_a_dry_run_counts_what_the_forget_then_removes_and_changes_nothing(memory_location: str) -> None:
    """Entities only the forgotten facts named and vectors only the forgotten texts used are found by deleting; the
    dry run deletes inside a savepoint it rolls back, so its counts are the real ones."""
    with Memory(memory_location, embedder="fake") as memory:
        memory.add(["I live in Leeds.", "My sister Priya lives in Bristol."], session_id="keep", timestamp=WHEN)
        memory.add(["My friend Tomasz moved to Gdansk.", "I love tea."], session_id="gone", timestamp=WHEN)
        before = memory.stats()
        dry = memory.forget(session_id="gone", dry_run=True)
        assert dry.dry_run and dry.sessions == ["gone"] and len(dry.turns) == 2
        assert dry.counts["turns"] == 2 and dry.counts["embeddings"] >= 2 and dry.counts["entities"] >= 1
        assert memory.stats() == before and memory.search("Gdansk", k=1)[0].session_id == "gone"
        assert memory.forget_log() == [] and memory.check().ok, memory.check().problems
        real = memory.forget(session_id="gone")
        assert real.counts == dry.counts
        assert memory.stats() != before and memory.check().ok, memory.check().problems


def test_forget_a_fact_keeps_its_turn(memory_location: str) -> None:
    with Memory(memory_location, embedder="none") as memory:
        memory.add("I love tea.", session_id="s", timestamp=WHEN)
        fact = memory.facts()[0]
        report = memory.forget(fact_id=fact.id)
        assert report.facts == [fact.id] and report.turns == []
        assert memory.facts(status="all") == [] and memory.session("s").turns[0].text == "I love tea."
        with pytest.raises(NotFoundError):
            memory.fact(fact.id)


def test_a_forgotten_fact_stays_forgotten_when_its_session_grows(memory_location: str) -> None:
    """A later add makes the session's facts again (here a new alias renames earlier subjects): the fact the user
    forgot is not among them, while its turn and the other facts are."""
    with Memory(memory_location, embedder="none") as memory:
        memory.add(["I live in Paris.", "I work at Acme Corp."], session_id="s", timestamp=WHEN)
        (paris,) = [f for f in memory.facts() if f.predicate == "lives_in"]
        assert memory.forget(fact_id=paris.id, dry_run=True).facts == [paris.id]
        memory.forget(fact_id=paris.id)
        again = memory.add("My sister Priya says hi. By the way, my name is Maya.", session_id="s")
        assert again.session_reextracted
        texts = {f.text for f in memory.facts(status="all")}
        assert not any("Paris" in text for text in texts) and any("Acme" in text for text in texts)
        assert memory.session("s").turns[0].text == "I live in Paris."
        memory.add("I moved to Paris again, I live in Paris.", session_id="s")  # said anew: a fact again
        assert [f.text for f in memory.facts() if f.predicate == "lives_in"] == ["Maya lives in Paris"]
        assert memory.check().ok, memory.check().problems


def test_forgetting_one_of_a_sentences_facts_keeps_its_siblings_when_the_session_grows(memory_location: str) -> None:
    with Memory(memory_location, embedder="none") as memory:
        memory.add("I love tea, coffee and cake.", session_id="s", timestamp=WHEN)
        liked = {f.object: f.id for f in memory.facts() if f.predicate == "likes"}
        assert {"tea", "coffee", "cake"} <= set(liked)
        memory.forget(fact_id=liked["tea"])
        assert memory.add("By the way, my name is Maya.", session_id="s").session_reextracted
        assert {f.object for f in memory.facts() if f.predicate == "likes"} == {"coffee", "cake"}


@pytest.mark.parametrize(
    ("said", "forgotten", "kept"),
    [
        ("I like tea and my sister Anna likes tea.", "user likes tea", "Anna likes tea"),  # one value, two subjects
        ("I love my mom's apple pie. I love jazz.", "user likes user's mom's apple pie", "Maya likes jazz"),  # renamed
    ],
)
def test_a_forgotten_fact_is_told_apart_from_its_neighbours_and_from_renaming(
    said: str, forgotten: str, kept: str
) -> None:
    with Memory(":memory:", embedder="none") as memory:
        memory.add(said, session_id="s", timestamp=WHEN)
        (gone,) = [f for f in memory.facts() if f.text == forgotten]
        memory.forget(fact_id=gone.id)
        assert memory.add("By the way, my name is Maya.", session_id="s").session_reextracted
        texts = {f.text for f in memory.facts(status="all")}
        assert kept in texts and not any(
            "apple pie" in t or (t.endswith(" likes tea") and "Anna" not in t) for t in texts
        )


def test_forget_before_a_date_and_everything_of_one_user_only(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    with Memory(path, embedder="none") as memory:
        memory.add("I live in Leeds.", session_id="old", timestamp=datetime(2023, 1, 1))
        memory.add("I love tea.", session_id="new", timestamp=datetime(2024, 6, 1))
        memory.add("I love jazz.", session_id="bob", timestamp=datetime(2023, 1, 1), user="bob")
        dry = memory.forget(before=datetime(2024, 1, 1), dry_run=True)
        assert dry.sessions == ["old"] and dry.dry_run and memory.session("old")
        memory.forget(before=datetime(2024, 1, 1))
        with pytest.raises(NotFoundError):
            memory.session("old")
        assert memory.session("new") and memory.session("bob", user="bob")
        memory.forget(everything=True)
        (mine,) = memory.stats()
        assert (mine.sessions, mine.turns, mine.pieces, mine.facts, mine.entities, mine.links) == (0, 0, 0, 0, 0, 0)
        (bob,) = [s for s in memory.stats(all_users=True) if s.user == "bob"]
        assert bob.turns == 1 and bob.facts == 1
        log = memory.forget_log()
        assert [entry["selector"] for entry in log] == [{"before": "2024-01-01T00:00:00"}, {"everything": True}]
        assert log[0]["counts"]["turns"] == 1 and log[0]["ids"]["sessions"] == ["old"]


@pytest.mark.parametrize(
    "kwargs",
    [{}, {"session_id": "s", "fact_id": 1}, {"everything": True, "before": WHEN}, {"fact_id": 1, "turn_id": "s:0"}],
)
def test_forget_needs_exactly_one_selector(memory_location: str, kwargs: dict[str, object]) -> None:
    with Memory(memory_location, embedder="none") as memory:
        memory.add("I love tea.", session_id="s", timestamp=WHEN)
        with pytest.raises(InputError, match="exactly one"):
            memory.forget(**kwargs)  # type: ignore[arg-type]
        assert len(memory.session("s").turns) == 1


def test_cli_forget_dry_run_then_for_real(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "m.db")
    base = ["--db", db, "--embedder", "none"]
    main([*base, "add", "--session", "s", "--at", "2024-05-01", "I love tea."])
    capsys.readouterr()
    main([*base, "forget", "--session", "s", "--dry-run", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert report["dry_run"] and report["turns"] == ["s/s:0"]
    main([*base, "forget", "--session", "s"])
    assert "forgot 1 sessions, 1 turns" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exit_info:
        main([*base, "forget", "--session", "s"])
    assert exit_info.value.code == 2 and "nothing to forget" in capsys.readouterr().err


def test_a_forgotten_last_turn_keeps_its_index_taken_through_an_export_and_import(tmp_path: Path) -> None:
    with Memory(tmp_path / "a.db", embedder="none") as memory:
        memory.add(["I love tea.", "I live in Leeds.", "I work as a nurse."], session_id="s", timestamp=WHEN)
        memory.forget(turn_id="s:2", session_id="s")
        lines = list(memory.export())
        assert memory.add("I moved to York.", session_id="s").added[0].turn_index == 3
    with Memory(tmp_path / "b.db", embedder="none") as restored:
        restored.import_dump(io.StringIO("".join(lines)))
        assert list(restored.export()) == lines
        added = restored.add("I moved to York.", session_id="s").added[0]
        assert (added.turn_index, added.turn_id) == (3, "s:3")


def test_a_forgotten_fact_stays_forgotten_when_its_session_is_ingested_again_with_replace(
    memory_location: str,
) -> None:
    """The marks follow the turns they were read from into the replacing copy, where a piece says the same words at
    the same place; a turn whose words changed is said anew and makes its facts again."""

    def session(*texts: str) -> Session:
        return Session("s", WHEN, tuple(Turn(i, "user", text, f"s:{i}") for i, text in enumerate(texts)))

    with Memory(memory_location, embedder="none") as memory:
        memory.ingest([session("I live in Paris.", "I work at Acme Corp.", "I love tea, coffee and cake.")])
        forgotten = [f for f in memory.facts() if f.predicate == "lives_in" or f.object == "tea"]
        assert len(forgotten) == 2
        for fact in forgotten:
            memory.forget(fact_id=fact.id)
        grown = session("I live in Paris.", "I work at Acme Corp.", "I love tea, coffee and cake.", "I have a cat.")
        assert memory.ingest([grown], replace=True).sessions_replaced == 1
        texts = {f.text for f in memory.facts(status="all")}
        assert not any("Paris" in t or t.endswith("likes tea") for t in texts), texts
        assert any("Acme" in t for t in texts) and any("coffee" in t for t in texts)
        assert memory.check().ok, memory.check().problems
        edited = session(
            "I live in Paris now.", "I work at Acme Corp.", "I love tea, coffee and cake.", "I have a cat."
        )
        memory.ingest([edited], replace=True)
        assert any("Paris" in f.text for f in memory.facts()) and not any(
            f.text.endswith("likes tea") for f in memory.facts(status="all")
        )
