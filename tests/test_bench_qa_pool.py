"""`bench qa-pool`: runs of one configuration on disjoint slices joined into one run (``bench/qa_pool.py``)."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from sodamem.bench.cli import bench
from sodamem.bench.qa_pool import pool_runs, run_from_dict
from sodamem.bench.qa_types import QAResult, QARun
from tests.test_bench_qa_table import run_json

FAKE = ("--answerer", "llm-fake", "--budget", "300")
COMPARED = ("questions", "overall", "categories", "answer_tokens", "evidence_tokens", "fallbacks", "citations",
            "abstention_rate", "usd_per_question")  # fmt: skip


def _flat(value: Any, prefix: str = "") -> dict[str, Any]:
    """Nested dicts as one level of ``a.b`` keys (``pytest.approx`` compares flat mappings only)."""
    if not isinstance(value, dict):
        return {prefix: value}
    return {k: v for key, item in value.items() for k, v in _flat(item, f"{prefix}.{key}").items()}


def _same(pooled: dict[str, Any], expected: dict[str, Any], keys: tuple[str, ...]) -> None:
    for key in keys:
        assert _flat(pooled[key]) == pytest.approx(_flat(expected[key])), key


def _pool(tmp_path: Path, *runs: Path) -> Any:
    out = tmp_path / "pooled.json"
    return CliRunner().invoke(bench, ["qa-pool", *map(str, runs), "--json", str(out)]), out


def test_two_slices_pooled_summarise_like_the_run_over_both(tmp_path: Path) -> None:
    whole = run_json(tmp_path, "whole", *FAKE, "--sample", "5")
    head = run_json(tmp_path, "head", *FAKE, "--sample", "2")
    tail = run_json(tmp_path, "tail", *FAKE, "--sample", "3", "--sample-skip", "2")
    result, out = _pool(tmp_path, head, tail)
    assert result.exit_code == 0, result.output
    assert "| fake-model · memory evidence" in result.output  # the pooled run's table row
    pooled, expected = json.loads(out.read_text("utf-8")), json.loads(whole.read_text("utf-8"))
    _same(pooled["summary"], expected["summary"], COMPARED)
    assert pooled["notes"]["pooled_from"] == [
        {"run": "head.json", "questions": 2, "sample": 2, "sample_skip": 0},
        {"run": "tail.json", "questions": 3, "sample": 3, "sample_skip": 2},
    ]
    # the pooled file is a QA run like any other: qa-table --paired reads it against the whole run
    table = CliRunner().invoke(bench, ["qa-table", "--paired", str(out), str(whole)])
    assert table.exit_code == 0, table.output
    assert "+0.000 [+0.000, +0.000]" in table.output


def test_overlapping_slices_and_different_configurations_are_refused(tmp_path: Path) -> None:
    whole = run_json(tmp_path, "whole", *FAKE, "--sample", "5")
    head = run_json(tmp_path, "head", *FAKE, "--sample", "2")
    result, out = _pool(tmp_path, whole, head)
    assert result.exit_code == 2 and "is in both whole.json and head.json" in result.output
    other = run_json(
        tmp_path, "other", "--answerer", "llm-fake", "--budget", "500", "--sample", "2", "--sample-skip", "3"
    )
    result, out = _pool(tmp_path, head, other)
    assert result.exit_code == 2 and "budget_tokens: 500 against 300" in result.output
    assert not out.exists()
    bad = tmp_path / "bad.json"
    bad.write_text('{"summary": {}}', "utf-8")
    result, _ = _pool(tmp_path, head, bad)
    assert result.exit_code == 2 and "not a QA run" in result.output and "Traceback" not in result.output


def _result(index: int, category: str, score: float, tokens: int) -> QAResult:
    return QAResult(
        qid=f"q{index}", unit_id="u", category=category, question="?", gold="g", answer="a", abstained=score == 0,
        score=score, evidence_tokens=tokens, usd=0.0, input_tokens=tokens, output_tokens=tokens // 10, citations=1,
        seconds=1.0, flags=["fallback:no_citations"] if tokens % 3 == 0 else [], baseline_score=score / 2,
    )  # fmt: skip


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from("12345"), st.floats(0, 1), st.integers(1, 2_000)), min_size=2, max_size=20),
    st.data(),
)
def test_any_split_pools_back_to_the_whole_runs_summary(
    rows: list[tuple[str, float, int]], data: st.DataObject
) -> None:
    results = [_result(i, category, score, tokens) for i, (category, score, tokens) in enumerate(rows)]
    whole = QARun("LoCoMo", "llm", None, results, seconds=float(len(results)), overall_categories=("1", "2", "3", "4"))
    cuts = sorted(data.draw(st.sets(st.integers(1, len(results) - 1), max_size=3)))
    bounds = [0, *cuts, len(results)]
    parts = [
        QARun("LoCoMo", "llm", None, results[a:b], seconds=float(b - a), overall_categories=("1", "2", "3", "4"))
        for a, b in itertools.pairwise(bounds)
    ]
    pooled = pool_runs([part.to_dict() for part in parts]).summary()
    expected = whole.summary()
    _same(pooled, expected, (*COMPARED, "seconds", "seconds_per_question"))


def test_a_run_written_before_the_summary_named_its_overall_categories_reads_as_locomo_1_to_4() -> None:
    run = QARun("LoCoMo", "offline", None, [_result(0, "5", 1.0, 10), _result(1, "1", 0.5, 10)])
    run.overall_categories = ("1", "2", "3", "4")
    data = run.to_dict()
    del data["summary"]["overall_categories"]
    assert run_from_dict(data).summary()["overall"] == run.summary()["overall"]


def test_focused_runs_are_labelled_and_never_pooled_with_whole_turn_runs(tmp_path: Path) -> None:
    focused = run_json(tmp_path, "focused", *FAKE, "--sample", "2", "--focus-tokens", "25")
    whole = run_json(tmp_path, "whole", *FAKE, "--sample", "3", "--sample-skip", "2")
    assert json.loads(focused.read_text("utf-8"))["notes"]["focus_tokens"] == 25
    table = CliRunner().invoke(bench, ["qa-table", str(focused)])
    assert "fake-model · memory evidence (lines cut to 25 tok) · full prompt" in table.output
    result, _ = _pool(tmp_path, focused, whole)
    assert result.exit_code == 2 and "focus_tokens: None against 25" in result.output


def test_runs_taking_the_offline_readers_states_never_pool_with_runs_that_do_not(tmp_path: Path) -> None:
    taking = run_json(tmp_path, "taking", *FAKE, "--sample", "2", "--offline-states")
    plain = run_json(tmp_path, "plain", *FAKE, "--sample", "3", "--sample-skip", "2")
    assert json.loads(taking.read_text("utf-8"))["notes"]["offline_states"] is True
    # off, the option leaves no note: a run from before it existed pools with one made after
    assert "offline_states" not in json.loads(plain.read_text("utf-8"))["notes"]
    result, _ = _pool(tmp_path, plain, taking)
    assert result.exit_code == 2 and "offline_states: True against None" in result.output


def test_runs_taking_the_offline_relations_never_pool_with_runs_that_do_not(tmp_path: Path) -> None:
    taking = run_json(tmp_path, "taking", *FAKE, "--sample", "2")  # on by default
    asking = run_json(tmp_path, "asking", *FAKE, "--sample", "3", "--sample-skip", "2", "--no-offline-relations")
    assert json.loads(taking.read_text("utf-8"))["notes"]["offline_relations"] is True
    # off, the option leaves no note: a run from before it existed (when no answer was taken) pools with one made after
    assert "offline_relations" not in json.loads(asking.read_text("utf-8"))["notes"]
    result, _ = _pool(tmp_path, asking, taking)
    assert result.exit_code == 2 and "offline_relations: True against None" in result.output
