"""``bench packs``: the first evidence pack's gold recall, from the memory's search and from flat BM25."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from sodamem.bench.cli import bench
from sodamem.bench.locomo import load_locomo
from sodamem.bench.packs import PackRow, PackRun, render_packs_markdown, run_pack_recall
from tests.test_bench_qa import fixture


def test_a_budget_that_holds_the_conversation_holds_every_gold_turn(tmp_path: Path) -> None:
    units, _ = load_locomo(fixture(tmp_path))
    run = run_pack_recall(units, dataset="fixture", embedder="fake", budgets=(2_000,))
    scored = [r for r in run.rows if r.category != "adversarial"]
    assert len(scored) == 2 * 4  # two systems, four scored questions
    assert all(r.gold == 1 and r.gold_found == 1 for r in scored)
    assert {r.turns for r in scored if r.system == "sodamem"} == {5}  # the dense tunnel ranks every turn
    paint = [r for r in run.rows if r.qid.endswith("#1")]  # "What did Melanie paint?" -> "a sunrise"
    assert [r.answer_in_pack for r in paint] == [True, True]
    assert all(r.tokens <= 2_000 for r in run.rows)


def test_a_small_budget_keeps_what_ranks_first_and_what_fits(tmp_path: Path) -> None:
    units, _ = load_locomo(fixture(tmp_path))
    run = run_pack_recall(units, dataset="fixture", embedder="fake", systems=("bm25",), budgets=(25, 40))
    by_question = {(r.qid, r.budget): r for r in run.rows}
    research = by_question["conv-x#3", 40]  # "researching" is said once, in D2:2: a header and one line fit
    assert (research.gold_found, research.turns, research.facts) == (1, 1, 0) and research.tokens <= 40
    assert all(r.turns == 0 and r.gold_found == 0 for r in run.rows if r.budget == 25)  # no header + line fits


def test_questions_without_gold_evidence_are_left_out_of_the_recall_means(tmp_path: Path) -> None:
    units, _ = load_locomo(fixture(tmp_path))
    run = run_pack_recall(units, dataset="fixture", embedder="fake", systems=("sodamem",), budgets=(2_000,))
    adversarial = next(r for r in run.rows if r.category == "adversarial")
    assert adversarial.gold == 0 and adversarial.gold_share is None and adversarial.answer_in_pack is None
    overall = next(line for line in run.summary() if line["category"] == "all")
    assert overall["questions"] == 5
    assert overall["gold_share"] == 1.0  # the four questions with gold ids, not diluted by the fifth
    assert overall["turns"] == 5.0


def test_summary_means_and_the_markdown_table() -> None:
    rows = tuple(
        PackRow("q1", "u", "temporal", "bm25", 500, 2, g, a, turns=4, facts=1, tokens=t, guarded=g == 2)
        for g, a, t in ((1, True, 400), (2, False, 480))
    )
    rows = (rows[0], replace(rows[1], qid="q2"))

    run = PackRun("d", "fake", ("bm25",), (500,), rows, 1.0)
    line = next(x for x in run.summary() if x["category"] == "temporal")
    assert line["gold_share"] == pytest.approx(0.75)
    assert line["all_gold"] == pytest.approx(0.5) and line["any_gold"] == 1.0
    assert line["answer_in_pack"] == pytest.approx(0.5) and line["tokens"] == pytest.approx(440)
    assert line["guarded"] == pytest.approx(0.5)
    table = render_packs_markdown(run, "T")
    assert "| temporal | bm25 | 2 | 0.750 | 0.500 | 1.000 | 0.500 | 0.500 | 4.0 | 1.0 | 440.0 |" in table


def test_an_unknown_system_or_budget_is_refused(tmp_path: Path) -> None:
    units, _ = load_locomo(fixture(tmp_path))
    with pytest.raises(ValueError, match="unknown pack system"):
        run_pack_recall(units, dataset="f", embedder="fake", systems=("dense",))
    with pytest.raises(ValueError, match="positive"):
        run_pack_recall(units, dataset="f", embedder="fake", budgets=(0,))


def test_the_command_prints_the_table_and_writes_json(tmp_path: Path) -> None:
    data, out = fixture(tmp_path), tmp_path / "packs.json"
    args = ["packs", "--data", str(data), "--embedder", "fake", "--budgets", "300,2000", "--json", str(out)]
    result = CliRunner().invoke(bench, args)
    assert result.exit_code == 0, result.output
    assert "## 300 tokens" in result.output and "| all | sodamem | 4 |" in result.output
    saved = json.loads(out.read_text("utf-8"))
    assert saved["budgets"] == [300, 2000] and len(saved["rows"]) == 4 * 2 * 2  # adversarial left out by default
    sampled = CliRunner().invoke(bench, [*args[:-2], "--sample", "2", "--with-adversarial"])
    assert sampled.exit_code == 0, sampled.output
    assert "| all | bm25 | 2 |" in sampled.output


@pytest.mark.parametrize(
    "extra, problem",
    [(["--budgets", "0"], "positive"), (["--budgets", "x"], "comma-separated"), (["--sample-skip", "2"], "--sample")],
)
def test_bad_options_exit_2_naming_the_problem(tmp_path: Path, extra: list[str], problem: str) -> None:
    result = CliRunner().invoke(bench, ["packs", "--data", str(fixture(tmp_path)), "--embedder", "fake", *extra])
    assert result.exit_code == 2 and problem in result.output


def test_the_speaker_guard_is_counted_where_it_would_abstain(tmp_path: Path) -> None:
    """ "What did Caroline paint?": only Melanie painted, so the guard answers "not in memory" before any reading."""
    path = fixture(tmp_path)
    data = json.loads(path.read_text("utf-8"))
    data[0]["qa"].append({"question": "What did Caroline paint?", "adversarial_answer": "a sunrise", "category": 5})
    path.write_text(json.dumps(data), "utf-8")
    units, _ = load_locomo(path)
    run = run_pack_recall(units, dataset="fixture", embedder="fake", budgets=(500,))
    guarded = {(r.qid, r.system) for r in run.rows if r.guarded}
    assert ("conv-x#5", "sodamem") in guarded  # (BM25's hits hold no turn of Caroline's: it does not know her)
    assert {qid for qid, _ in guarded} == {"conv-x#5"}  # the answerable questions reach the reader
