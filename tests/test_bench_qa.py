"""LoCoMo QA bench on a tiny LoCoMo-shaped fixture: scores per category, category 5, markdown, the CLI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from sodamem.answer.types import Answer
from sodamem.bench.cli import bench
from sodamem.bench.locomo import load_locomo
from sodamem.bench.qa import category_number, render_qa_markdown, run_locomo_qa, score_answer


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
    for data in summary["categories"].values():
        assert 0.0 <= data["f1"] <= 1.0
    assert summary["categories"]["2"]["f1"] >= 0.5  # "7 May 2023" (how it was derived is in Answer.detail)
    assert summary["categories"]["5"]["f1"] == 1.0  # the unrelated question abstains
    assert summary["usd_per_question"] == 0.0
    assert 0 <= summary["abstention_rate"] <= 1 and summary["mean_evidence_tokens"] > 0
    markdown = render_qa_markdown(run)
    for name in ("multi-hop", "temporal", "open-domain", "single-hop", "adversarial", "overall"):
        assert name in markdown
    json.dumps(run.to_dict())


def test_category_5_scores_abstention() -> None:
    abstained = Answer("q", "not in memory", abstained=True)
    guessed = Answer("q", "Lima")
    assert score_answer(abstained, None, 5) == 1.0
    assert score_answer(guessed, "Lima", 5) == 0.0
    assert score_answer(guessed, "Lima", 4) == 1.0
    assert category_number("temporal") == 2 and category_number("5") == 5


def test_cli(tmp_path: Path) -> None:
    out = tmp_path / "qa.json"
    result = CliRunner().invoke(
        bench, ["qa-locomo", "--data", str(fixture(tmp_path)), "--embedder", "fake", "--json", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert "overall (1-4)" in result.output
    assert json.loads(out.read_text("utf-8"))["summary"]["questions"] == 5
