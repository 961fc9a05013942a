"""``sodamem bench serve``: a real server process under a few seconds of concurrent clients (slow tier)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from sodamem.cli import cli

pytest.importorskip("uvicorn")
pytest.importorskip("httpx")


@pytest.mark.slow
def test_bench_serve_smoke() -> None:
    args = ["bench", "serve", "--embedder", "fake", "--seconds", "3", "--searchers", "2", "--adders", "1", "--json"]
    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    for name in (
        "data", "turns", "embedder", "workers", "threads", "elapsed_s", "healthz_s", "cold_start_s",
        "first_search_ms", "ops", "errors", "adds_acked", "adds_stored", "adds_lost", "adds_duplicated",
        "server_cpu_pct", "load_cpu_pct", "server_exit",
    ):  # fmt: skip
        assert name in report, name
    assert report["data"] == "demo history" and report["embedder"] == "fake" and report["turns"] > 0
    ops = {o["op"]: o for o in report["ops"]}
    assert set(ops) == {"search", "add"}
    for op in ops.values():
        for name in ("clients", "ok", "errors", "per_second", "p50_ms", "p95_ms", "p99_ms", "max_ms", "statuses"):
            assert name in op, name
    assert ops["search"]["clients"] == 2 and ops["search"]["ok"] > 0 and ops["search"]["per_second"] > 0
    assert ops["add"]["ok"] > 0
    assert report["errors"] == 0 and ops["search"]["errors"] == 0 and ops["add"]["errors"] == 0
    assert report["adds_acked"] == ops["add"]["ok"] == report["adds_stored"]
    assert report["adds_lost"] == 0 and report["adds_duplicated"] == 0
    assert 0 < report["cold_start_s"] < 120 and report["healthz_s"] <= report["cold_start_s"]
    assert 2.5 < report["elapsed_s"] < 60
    assert report["server_tracebacks"] == 0


@pytest.mark.slow
def test_bench_serve_max_requests_and_text() -> None:
    args = ["bench", "serve", "--embedder", "fake", "--seconds", "30", "--max-requests", "20", "--searchers", "1"]
    args += ["--adders", "1", "--askers", "1"]
    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "| search | 1 |" in result.stdout and "| ask | 1 |" in result.stdout
    assert "0 lost, 0 duplicated" in result.stdout
