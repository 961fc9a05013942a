"""`sodamem bench histories`: small histories told to fresh memories, their questions judged by keywords, counts per
kind (never a question or an answer printed), a run compared with an earlier one, and bad files refused with exit 2.
The real offline reader and store; the fake embedder."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from sodamem.bench.histories import HistoryQuestion, judged, load_histories, run_histories
from sodamem.cli import main
from sodamem.errors import InputError

PROBE: dict[str, Any] = {
    "histories": [
        {
            "id": "h1",
            "turns": [
                {"when": "2025-01-05T10:00", "text": "My boss Finn is strict."},
                {"when": "2025-05-05T10:00", "text": "Omar replaced Finn as my boss."},
            ],
            "questions": [
                {"qid": "q1", "question": "Who is my boss?", "now": "2025-06-01T12:00", "kind": "role_now",
                 "accept": [["omar"]]},
                {"qid": "q2", "question": "Who was my boss before Omar?", "now": "2025-06-01T12:00",
                 "kind": "role_past", "accept": [["finn"]]},
                {"qid": "q3", "question": "Is Finn still my boss?", "now": "2025-06-01T12:00", "kind": "yes_no",
                 "accept": [["no"]]},
                {"qid": "q4", "question": "What is my dentist's name?", "now": "2025-06-01T12:00",
                 "kind": "abstain", "accept": [], "abstain": True},
            ],
        }
    ]
}  # fmt: skip


def question(kind: str, accept: list[list[str]], *, abstain: bool = False) -> HistoryQuestion:
    return HistoryQuestion("q", "?", datetime(2025, 1, 1), kind, tuple(map(tuple, accept)), abstain)


@pytest.mark.parametrize(
    ("q", "answer", "abstained", "right"),
    [
        (question("who_is", [["former", "boss"], ["ex"]]), "user's former boss", False, True),
        (question("who_is", [["former", "boss"], ["ex"]]), "next door", False, False),  # "ex" is a whole word only
        (question("who_is", [["former", "boss"], ["ex"]]), "my ex", False, True),
        (question("who_is", [["boss"]]), "user's boss", True, False),  # abstained
        (question("yes_no", [["no"]]), "No, not since May", False, True),
        (question("yes_no", [["no"]]), "Yes, though not now", False, False),  # the first of yes/no decides
        (question("yes_no", [["no"]]), "I know", False, False),
        (question("abstain", [], abstain=True), "not in memory", True, True),
        (question("abstain", [], abstain=True), "Finn", False, False),
    ],
)
def test_an_answer_is_judged_by_its_keywords(q: HistoryQuestion, answer: str, abstained: bool, right: bool) -> None:
    assert judged(q, answer, abstained) is right


def test_each_history_is_told_and_asked_offline(tmp_path: Path) -> None:
    path = tmp_path / "probe.json"
    path.write_text(json.dumps(PROBE))
    results = run_histories(load_histories(path), embedder="fake")
    assert [(r.qid, r.correct) for r in results] == [("q1", True), ("q2", True), ("q3", True), ("q4", True)]
    assert all(r.citations for r in results if not r.abstained)


def test_the_command_prints_counts_only_and_compares_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, first, second = tmp_path / "probe.json", tmp_path / "a.json", tmp_path / "b.json"
    path.write_text(json.dumps(PROBE))
    main(["bench", "histories", str(path), "--embedder", "fake", "--json", str(first)])
    out = capsys.readouterr().out
    assert "| role_now | 1 | 1 |" in out and "| all | 4 | 4 |" in out
    assert "Omar" not in out and "Who is" not in out  # a sealed probe stays sealed
    run = json.loads(first.read_text())
    assert run["summary"]["all"] == {"right": 4, "asked": 4}
    run["results"][0]["correct"] = False  # as if the earlier run had got q1 wrong
    first.write_text(json.dumps(run))
    main(["bench", "histories", str(path), "--embedder", "fake", "--json", str(second), "--against", str(first)])
    assert "role_now: 1 / 0" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("content", "says"),
    [
        ("not json", "not a readable JSON file"),
        ({"histories": []}, "at least one history"),
        ({"histories": [{"id": "h1", "questions": []}]}, "field 'turns': missing"),
        (
            {"histories": [{"id": "h1", "turns": [{"when": "yesterday", "text": "hi"}], "questions": []}]},
            "Invalid isoformat",
        ),
        (
            {
                "histories": [
                    {
                        "id": "h1",
                        "turns": [{"when": "2025-01-01T10:00", "text": "hi"}],
                        "questions": [{"qid": "q", "question": "Who?", "now": "2025-02-01", "kind": "who_is"}],
                    }
                ]
            },
            "accepts no answer",
        ),
    ],
)
def test_a_bad_file_is_refused_naming_the_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: object, says: str
) -> None:
    path = tmp_path / "probe.json"
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    with pytest.raises(InputError, match=says):
        load_histories(path)
    with pytest.raises(SystemExit) as exited:
        main(["bench", "histories", str(path), "--embedder", "fake"])
    assert exited.value.code == 2
    assert says in capsys.readouterr().err
