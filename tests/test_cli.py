from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sodamem.demo import demo_questions, example_history_path


def run_cli(*args: str, db: Path | None = None, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    base = [sys.executable, "-m", "sodamem"]
    if db is not None:
        base += ["--db", str(db)]
    return subprocess.run([*base, *args], capture_output=True, text=True, timeout=300, check=False, env=env)


@pytest.fixture(scope="module")
def example_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("cli") / "example.db"
    done = run_cli("ingest", str(example_history_path()), "--json", db=db)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["sessions_added"] == 11 and report["turns_added"] > 100
    return db


def test_search_json_results_cite_their_source(example_db: Path) -> None:
    done = run_cli("search", "climbing gym Aisha recommended", "--k", "3", "--json", db=example_db)
    assert done.returncode == 0, done.stderr
    payload = json.loads(done.stdout)
    results = payload["results"]
    assert len(results) == 3
    keys = {"session_id", "turn_index", "turn_id", "speaker", "char_start", "char_end", "timestamp", "text", "score"}
    for result in results:
        assert keys <= result.keys()
        assert result["turn_text"][result["char_start"] : result["char_end"]] == result["text"]
    assert results[0]["turn_id"] == "s04:8"


def test_human_search_output(example_db: Path) -> None:
    done = run_cli("search", "Lisbon", "--k", "2", db=example_db)
    assert done.returncode == 0
    assert "Lisbon" in done.stdout and " 1. " in done.stdout and "chars " in done.stdout


def test_show_turn_session_piece_and_stats(example_db: Path) -> None:
    turn = json.loads(run_cli("show", "turn", "s04:8", "--json", db=example_db).stdout)
    assert "The Arch" in turn["text"] and turn["session_id"] == "s04"
    session = json.loads(run_cli("show", "session", "s04", "--json", db=example_db).stdout)
    assert session["turns"][8]["text"] == turn["text"]
    piece = json.loads(run_cli("show", "piece", "s04:8#0", "--json", db=example_db).stdout)
    assert turn["text"][piece["char_start"] : piece["char_end"]] == piece["text"]
    stats = json.loads(run_cli("stats", "--json", db=example_db).stdout)
    assert stats["users"][0]["sessions"] == 11
    assert stats["users"][0]["pieces"] >= stats["users"][0]["turns"]


def test_missing_records_exit_2_without_traceback(example_db: Path) -> None:
    done = run_cli("show", "turn", "no-such-turn", db=example_db)
    assert done.returncode == 2
    assert done.stderr.startswith("error:") and "Traceback" not in done.stderr


def test_reingest_is_idempotent(example_db: Path) -> None:
    done = run_cli("ingest", str(example_history_path()), db=example_db)
    assert done.returncode == 0
    assert "0 sessions added" in done.stdout and "11 unchanged" in done.stdout


@pytest.mark.parametrize(
    ("embedder", "floor"),
    [
        ("fake", 6),
        # The README's `make demo`: the CLI's default embedder, the local MiniLM, offline.
        pytest.param(None, 5, marks=pytest.mark.slow),
    ],
)
def test_demo_runs_offline_and_finds_the_answers(embedder: str | None, floor: int) -> None:
    env = {k: v for k, v in os.environ.items() if k != "SODAMEM_EMBEDDER"}
    env["HF_HUB_OFFLINE"] = "1"
    if embedder is not None:
        env["SODAMEM_EMBEDDER"] = embedder
    done = run_cli("demo", "--json", env=env)
    assert done.returncode == 0, done.stderr
    payload = json.loads(done.stdout)
    assert payload["embedder"] == ("all-MiniLM-L6-v2" if embedder is None else "fake-64")
    questions = demo_questions()
    assert [a["question"] for a in payload["answers"]] == [q.question for q in questions]
    found = 0
    for answer, question in zip(payload["answers"], questions, strict=True):
        ids = {r["turn_id"] for r in answer["results"]}
        found += bool(ids & set(question.expected_turn_ids))
        assert all(r["turn_text"][r["char_start"] : r["char_end"]] == r["text"] for r in answer["results"])
    changes = {(c["current"]["predicate"], c["current"]["object"]): c["replaced"] for c in payload["changes"]}
    assert [f["object"] for f in changes[("lives_in", "Manchester")]] == ["Leeds"]
    assert [f["object"] for f in changes[("works_at", "Lumen Health")]] == ["Northwind Bank"]
    # Regression floors, one below what was measured when this was written (fake 7 of 8 in the top 3, MiniLM 6).
    assert found >= floor


def test_demo_answers_each_question_with_the_offline_reader_and_cites() -> None:
    done = run_cli("demo", "--json", env={**os.environ, "SODAMEM_EMBEDDER": "fake"})
    assert done.returncode == 0, done.stderr
    answers = {a["question"]: a["answer"] for a in json.loads(done.stdout)["answers"]}
    assert answers["Where does Maya live now?"]["answer"] == "Manchester (previously Leeds)"
    assert answers["When was Priya's birthday trip to Lisbon?"]["answer"] == "28 March 2026"
    # "Maya" is the speaker "user" (she said "I'm Maya"): her name does not pick the sentence, "dog" does
    assert answers["What is the name of Maya's dog?"]["answer"] == "Biscuit"
    assert answers["Who organised Maya's leaving drinks?"]["answer"] == "Daniel"  # "who": a name
    assert answers["Is Maya vegetarian or pescatarian now?"]["answer"].startswith("pescatarian")
    # the question already names where she works: it asks for the job, not the employer
    assert "product manager" in answers["What job did Maya get at Lumen Health?"]["answer"]
    for answer in answers.values():
        assert answer["abstained"] or answer["citations"]
        for citation in answer["citations"]:
            assert citation["char_end"] - citation["char_start"] == len(citation["quote"])
