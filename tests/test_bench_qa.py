"""LoCoMo QA bench on a tiny LoCoMo-shaped fixture: scores per category, category 5, markdown, the CLI, the plot."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from sodamem.answer.types import Answer
from sodamem.bench.cli import bench
from sodamem.bench.locomo import load_locomo
from sodamem.bench.qa import category_number, render_qa_markdown, run_locomo_qa, score_answer, scoring_text


def fixture(tmp_path: Path) -> Path:
    sample: dict[str, Any] = {
        "sample_id": "conv-x",
        "conversation": {
            "speaker_a": "Caroline",
            "speaker_b": "Melanie",
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": [
                {"speaker": "Caroline", "dia_id": "D1:1", "text": "I went to the LGBTQ support group yesterday."},
                {"speaker": "Melanie", "dia_id": "D1:2", "text": "I painted a sunrise over the lake last week."},
                {"speaker": "Caroline", "dia_id": "D1:3", "text": "I live in Boston now."},
            ],
            "session_2_date_time": "2:10 pm on 20 June, 2023",
            "session_2": [
                {"speaker": "Melanie", "dia_id": "D2:1", "text": "We went camping in the mountains with the kids."},
                {"speaker": "Caroline", "dia_id": "D2:2", "text": "I am researching adoption agencies."},
            ],
        },
        "qa": [
            {
                "question": "When did Caroline go to the LGBTQ support group?",
                "answer": "7 May 2023",
                "evidence": ["D1:1"],
                "category": 2,
            },
            {"question": "What did Melanie paint?", "answer": "a sunrise", "evidence": ["D1:2"], "category": 4},
            {
                "question": "Where did Melanie go camping and with whom?",
                "answer": "mountains, kids",
                "evidence": ["D2:1"],
                "category": 1,
            },
            {
                "question": "What is Caroline researching?",
                "answer": "adoption agencies; adoption",
                "evidence": ["D2:2"],
                "category": 3,
            },
            {"question": "What is the capital of Peru?", "adversarial_answer": "Lima", "evidence": [], "category": 5},
        ],
    }
    path = tmp_path / "locomo.json"
    path.write_text(json.dumps([sample]), "utf-8")
    return path


def test_qa_run_scores_every_category(tmp_path: Path) -> None:
    units, _ = load_locomo(fixture(tmp_path))
    run = run_locomo_qa(units, "fake")
    assert len(run.results) == 5
    summary = run.summary()
    assert set(summary["categories"]) == {"1", "2", "3", "4", "5"}
    assert summary["score_name"] == "f1"
    for data in summary["categories"].values():
        assert 0.0 <= data["score"] <= 1.0
        assert data["judge_accuracy"] is None and data["baseline_score"] is None
    assert summary["categories"]["2"]["score"] >= 0.5  # "7 May 2023" (how it was derived is in Answer.detail)
    assert summary["categories"]["5"]["score"] == 1.0  # the unrelated question abstains
    assert summary["overall"]["questions"] == 4  # categories 1-4
    overall = sum(summary["categories"][c]["score"] for c in "1234") / 4  # one question per category
    assert summary["overall"]["score"] == overall
    assert summary["usd_per_question"]["answer"] == {"mean": 0.0, "median": 0.0}
    assert summary["answer_tokens"]["total"]["mean"] == 0.0 and summary["judge_tokens"] is None
    assert 0 <= summary["abstention_rate"] <= 1 and summary["evidence_tokens"]["mean"] > 0
    markdown = render_qa_markdown(run)
    for name in ("multi-hop", "temporal", "open-domain", "single-hop", "adversarial", "overall"):
        assert name in markdown
    assert "judge accuracy" not in markdown  # not judged
    json.dumps(run.to_dict())


def test_category_5_scores_abstention() -> None:
    abstained = Answer("q", "not in memory", abstained=True)
    guessed = Answer("q", "Lima")
    assert score_answer(abstained, None, 5) == 1.0
    assert score_answer(guessed, "Lima", 5) == 0.0
    assert score_answer(guessed, "Lima", 4) == 1.0
    assert category_number("temporal") == 2 and category_number("5") == 5


def test_citations_are_removed_before_scoring() -> None:
    cited = Answer("q", "She painted a sunrise [E1, E3]. Then a lake [E2].")
    assert scoring_text(cited) == "She painted a sunrise. Then a lake."
    assert score_answer(cited, "a sunrise", 4) == score_answer(
        Answer("q", "She painted a sunrise. Then a lake."), "a sunrise", 4
    )
    assert scoring_text(Answer("q", "not in memory", abstained=True)) == "Not mentioned in the conversation"


def test_cli_locomo_qa_writes_json_report_and_plot(tmp_path: Path) -> None:
    out, report, plot = tmp_path / "qa.json", tmp_path / "qa.md", tmp_path / "qa.png"
    args = ["--data", str(fixture(tmp_path)), "--embedder", "fake", "--json", str(out), "--report", str(report)]
    result = CliRunner().invoke(bench, ["locomo", "--qa", *args, "--plot", str(plot)])
    assert result.exit_code == 0, result.output
    assert "overall (1-4)" in result.output and "offline answerer" in result.output
    assert "answering used no LLM: 0 tokens and $0 per question" in result.output
    data = json.loads(out.read_text("utf-8"))
    assert data["summary"]["questions"] == 5 and len(data["results"]) == 5
    assert data["notes"]["budget_tokens"] == 1000 and data["notes"]["llm_calls"] == {}
    assert data["published"][0]["label"] == "reference design (flash model)"
    assert "overall (1-4)" in report.read_text("utf-8")
    assert plot.read_bytes().startswith(b"\x89PNG")
    alias = CliRunner().invoke(bench, ["qa-locomo", "--data", str(fixture(tmp_path)), "--embedder", "fake"])
    assert alias.exit_code == 0, alias.output
    table = result.output.split("- answering used")[0]
    assert "| **overall (1-4)** |" in table  # the split kept the table and dropped the timings below it
    assert alias.output.split("- answering used")[0] == table


def test_cli_qa_rejects_retrieval_options(tmp_path: Path) -> None:
    result = CliRunner().invoke(bench, ["locomo", "--qa", "--data", str(fixture(tmp_path)), "--system", "bm25"])
    assert result.exit_code == 2 and "--system" in result.output


def test_a_citation_rereads_only_when_its_quote_is_the_stored_span() -> None:
    from sodamem import Memory
    from sodamem.answer.types import AnswerCitation
    from sodamem.bench.qa import _rereads
    from tests.conftest import make_session

    with Memory(":memory:", embedder="fake") as memory:
        memory.ingest([make_session("s1", ["I moved to Lisbon last spring."], when="2024-03-01T10:00")])
        turn_id = memory.session("s1").turns[0].turn_id
        good = AnswerCitation("E1", "s1", 0, turn_id, 11, 17, "Lisbon")
        assert _rereads(memory, good)
        assert not _rereads(memory, AnswerCitation("E1", "s1", 0, turn_id, 11, 17, "Porto"))
        assert not _rereads(memory, AnswerCitation("E1", "s1", 0, turn_id, 10, 17, "Lisbon"))
        assert not _rereads(memory, AnswerCitation("E1", "s9", 0, "s9:0", 11, 17, "Lisbon"))
