"""Paired comparison of two QA runs on the same questions, with bootstrap intervals (``bench/qa_paired.py``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from sodamem.bench.cli import bench
from sodamem.bench.qa_paired import paired, paired_runs, paired_with_offline, render_paired
from tests.test_bench_qa_table import run_json


def test_the_same_scores_differ_by_nothing() -> None:
    p = paired([0.2, 1.0, 0.0, 0.5], [0.2, 1.0, 0.0, 0.5], resamples=500)
    assert (p.difference, p.difference_low, p.difference_high) == (0.0, 0.0, 0.0)
    assert (p.ratio, p.ratio_low, p.ratio_high) == (1.0, 1.0, 1.0)
    assert (p.wins_a, p.wins_b, p.ties) == (0, 0, 4)


def test_a_constant_gain_has_a_point_interval_and_a_wide_one_holds_zero() -> None:
    p = paired([0.6, 0.8, 0.5], [0.1, 0.3, 0.0], resamples=500)
    assert p.difference == pytest.approx(0.5)
    assert p.difference_low == pytest.approx(0.5) and p.difference_high == pytest.approx(0.5)
    assert p.wins_a == 3
    noisy = paired([1, 0, 1, 0, 0, 1], [0, 1, 0, 1, 1, 0], resamples=2_000)  # half wins each way
    assert noisy.difference_low < 0 < noisy.difference_high


def test_a_zero_baseline_has_no_ratio() -> None:
    p = paired([1.0, 0.0], [0.0, 0.0], resamples=200)
    assert p.ratio is None and p.ratio_low is None and "| – |" in render_paired([p])


def test_the_same_seed_gives_the_same_interval() -> None:
    a, b = [0.1, 0.9, 0.4, 0.3, 0.7], [0.2, 0.5, 0.4, 0.0, 0.9]
    assert paired(a, b, seed=3) == paired(a, b, seed=3)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 1), st.floats(0, 1)), min_size=1, max_size=30))
def test_the_interval_lies_within_the_questions_differences(pairs: list[tuple[float, float]]) -> None:
    a, b = [x for x, _ in pairs], [y for _, y in pairs]
    p = paired(a, b, resamples=300)
    differences = [x - y for x, y in pairs]
    assert min(differences) - 1e-9 <= p.difference_low <= p.difference_high <= max(differences) + 1e-9
    assert p.wins_a + p.wins_b + p.ties == len(pairs)


@pytest.mark.parametrize("a, b, problem", [([1.0], [1.0, 0.0], "same questions"), ([], [], "no question")])
def test_bad_input_is_refused(a: list[float], b: list[float], problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        paired(a, b)


def test_runs_are_joined_by_question_and_compared_with_their_offline_reader(tmp_path: Path) -> None:
    own = run_json(tmp_path, "own", "--answerer", "llm-fake", "--budget", "300")
    flat = run_json(tmp_path, "flat", "--answerer", "llm-fake", "--budget", "300", "--evidence", "bm25")
    run_own, run_flat = (json.loads(p.read_text("utf-8")) for p in (own, flat))
    p = paired_runs(run_own, run_flat)
    assert p.questions == 4  # categories 1-4 only
    assert p.mean_a == pytest.approx(run_own["summary"]["overall"]["score"])
    offline = paired_with_offline(run_own)
    assert offline is not None and offline.mean_b == pytest.approx(run_own["summary"]["overall"]["baseline_score"])
    run_flat["results"] = run_flat["results"][1:]
    with pytest.raises(ValueError, match="different questions"):
        paired_runs(run_own, run_flat)

    result = CliRunner().invoke(bench, ["qa-table", "--paired", str(own), str(flat)])
    assert result.exit_code == 0, result.output
    assert "difference [95%]" in result.output and "offline reader, same questions" in result.output
    assert result.output.count("| fake-model · memory evidence") == 3  # the table's row, vs offline, vs the other


def test_runs_on_different_questions_are_refused_by_the_command(tmp_path: Path) -> None:
    own = run_json(tmp_path, "own", "--answerer", "llm-fake", "--budget", "300")
    small = run_json(tmp_path, "small", "--answerer", "llm-fake", "--budget", "300", "--sample", "2")
    result = CliRunner().invoke(bench, ["qa-table", "--paired", str(own), str(small)])
    assert result.exit_code == 2 and "different questions" in result.output
