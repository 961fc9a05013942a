"""`bench qa-table`: QA runs side by side, priced on a flash model, and F1 against tokens."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from sodamem.bench.cli import bench
from sodamem.bench.qa_table import TableRow, plot_lines, render_table, table_rows
from sodamem.llm.prices import cost_usd
from tests.test_bench_qa import fixture as locomo_fixture


def run_json(tmp_path: Path, name: str, *extra: str) -> Path:
    out = tmp_path / f"{name}.json"
    args = ["locomo", "--qa", "--data", str(locomo_fixture(tmp_path)), "--embedder", "fake", "--json", str(out)]
    result = CliRunner().invoke(bench, [*args, *extra])
    assert result.exit_code == 0, result.output
    return out


def test_runs_side_by_side(tmp_path: Path) -> None:
    own = run_json(tmp_path, "own", "--answerer", "llm-fake", "--budget", "300")
    flat = run_json(tmp_path, "flat", "--answerer", "llm-fake", "--budget", "300", "--evidence", "bm25")
    offline = run_json(tmp_path, "offline")
    runs = [json.loads(p.read_text("utf-8")) for p in (own, flat, offline)]
    rows = table_rows(runs, "gemini-2.5-flash")
    assert [r.label for r in rows] == [
        "fake-model · memory evidence · full prompt · 300 tok · 3 planner steps",
        "fake-model · bm25 evidence · full prompt · 300 tok · 3 planner steps",
        "offline reader · 1000 tok",
    ]
    first = runs[0]["summary"]
    assert rows[0].f1 == first["overall"]["score"] and rows[0].questions == 5
    assert rows[0].by_category["2"] == first["categories"]["2"]["score"]
    tokens = first["answer_tokens"]
    expected = cost_usd("gemini-2.5-flash", round(tokens["input"]["mean"]), round(tokens["output"]["mean"])).usd
    assert rows[0].flash_usd == expected > 0
    assert rows[2].tokens_in == 0 and rows[2].flash_usd == 0 and rows[2].fallbacks == 0
    assert rows[0].reread == rows[0].cited == 5
    table = render_table(rows)
    assert table.count("\n") == 4 and "5 of 5" in table

    plot = tmp_path / "f1.png"
    result = CliRunner().invoke(bench, ["qa-table", str(own), str(flat), str(offline), "--plot", str(plot)])
    assert result.exit_code == 0, result.output
    assert "bm25 evidence" in result.output and plot.read_bytes().startswith(b"\x89PNG")


def row(series: str, budget: int, tokens: float, f1: float, offline_f1: float | None = 0.12) -> TableRow:
    return TableRow(
        label=f"{series} · {budget} tok", series=series, budget=budget, questions=60, f1=f1, by_category={},
        adversarial=None, offline_f1=offline_f1, tokens_in=tokens, tokens_out=0.0 if tokens == 0 else 50.0,
        seconds=1.0, fallbacks=0, cited=0, reread=0, unknown_ids=0, flash_usd=0.0,
    )  # fmt: skip


def test_the_plot_draws_one_line_per_model_and_evidence_through_its_budgets() -> None:
    rows = [
        row("m · memory", 2000, 2400, 0.24),
        row("m · bm25", 500, 950, 0.27),
        row("m · memory", 500, 900, 0.23),
        row("m · bm25", 2000, 2420, 0.26),
        row("offline reader", 1000, 0, 0.12, offline_f1=None),
    ]
    lines, offline = plot_lines(rows)
    assert [line.series for line in lines] == ["m · memory", "m · bm25"]
    assert lines[0].points == ((950.0, 0.23, 500), (2450.0, 0.24, 2000))  # fewest tokens first
    assert offline == 0.12
    # runs scored on different questions have different offline readers: no one line for them
    assert plot_lines([row("a", 500, 900, 0.2, offline_f1=0.1), row("b", 500, 900, 0.2, offline_f1=0.3)])[1] is None


def test_a_file_that_is_not_a_qa_run_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "retrieval.json"
    bad.write_text(json.dumps({"systems": {}}), "utf-8")
    result = CliRunner().invoke(bench, ["qa-table", str(bad)])
    assert result.exit_code == 2 and "not a QA run's JSON" in result.output


def test_a_run_with_a_list_budget_says_so_in_its_label_and_notes(tmp_path: Path) -> None:
    sized = run_json(tmp_path, "sized", "--answerer", "llm-fake", "--budget", "300", "--list-budget", "900")
    run = json.loads(sized.read_text("utf-8"))
    assert run["notes"]["list_budget_tokens"] == 900
    [row] = table_rows([run], "gemini-2.5-flash")
    assert row.label == "fake-model · memory evidence · full prompt · 300 tok (lists 900) · 3 planner steps"
