"""`bench qa-table`: QA runs side by side, priced on a flash model, and F1 against tokens."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from sodamem.bench.cli import bench
from sodamem.bench.qa_table import render_table, table_rows
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
        "fake-model · memory evidence · 300 tok · 3 planner steps",
        "fake-model · bm25 evidence · 300 tok · 3 planner steps",
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


def test_a_file_that_is_not_a_qa_run_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "retrieval.json"
    bad.write_text(json.dumps({"systems": {}}), "utf-8")
    result = CliRunner().invoke(bench, ["qa-table", str(bad)])
    assert result.exit_code == 2 and "not a QA run's JSON" in result.output
