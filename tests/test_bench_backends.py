"""`bench locomo --db-backend postgres`: the same systems on SQLite and on a temporary PostgreSQL, side by side."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from sodamem.bench.cli import bench
from tests.postgres_server import PostgresCluster
from tests.test_bench_qa import fixture as locomo_fixture


@pytest.mark.slow
def test_both_backends_side_by_side(tmp_path: Path) -> None:
    pytest.importorskip("pgserver", reason="needs the postgres extra (pip install -e '.[postgres]')")
    args = ["locomo", "--data", str(locomo_fixture(tmp_path)), "--embedder", "fake", "--system", "bm25"]
    result = CliRunner().invoke(bench, [*args, "--db-backend", "postgres"])
    assert result.exit_code == 0, result.output
    row = next(line for line in result.output.splitlines() if line.startswith("| bm25 | 1.000 | 1.000 | +0.000"))
    assert "SQLite and PostgreSQL side by side" in result.output and row


@pytest.mark.slow
def test_perf_on_both_backends_side_by_side(tmp_path: Path, postgres_cluster: PostgresCluster) -> None:
    """`bench perf --db-backend postgres` on a tiny corpus: every figure on both stores, the parallel adds checked."""
    args = ["perf", "--data", str(locomo_fixture(tmp_path)), "--sizes", "60", "--embedder", "fake"]
    args += ["--queries", "10", "--adds", "10", "--parallel-adds", "5", "--out", str(tmp_path / "out")]
    result = CliRunner().invoke(bench, [*args, "--db-backend", "postgres", "--pg-url", postgres_cluster.url()])
    assert result.exit_code == 0, result.output
    rows = [line for line in result.output.splitlines() if line.startswith("| 60 (vectors) |")]
    assert [row.split(" | ")[1] for row in rows] == [
        "ingest", "search bm25", "search dense", "search sodamem", "add", "dense recall@10 vs exact (turns, pieces)",
    ]  # fmt: skip
    parallel = [line for line in result.output.splitlines() if line.startswith(("| sqlite |", "| postgres |"))]
    assert len(parallel) == 6 and all(line.endswith("| 0 | 0 | 0 |") for line in parallel), parallel
    assert (tmp_path / "out" / "perf-backends.json").exists()
    assert "PostgreSQL with synchronous_commit = on" in result.output  # the durability each figure has
    assert "Disk flush (an 8 kB write and fdatasync in the work folder), p50: " in result.output


@pytest.mark.slow
def test_perf_with_a_server_setting(tmp_path: Path, postgres_cluster: PostgresCluster) -> None:
    """`--pg-setting synchronous_commit=off` reaches every PostgreSQL connection, and the report says so."""
    args = ["perf", "--data", str(locomo_fixture(tmp_path)), "--sizes", "30", "--embedder", "none"]
    args += ["--queries", "10", "--adds", "10", "--parallel-adds", "0", "--db-backend", "postgres"]
    args += ["--pg-url", postgres_cluster.url(), "--pg-setting", "synchronous_commit=off"]
    result = CliRunner().invoke(bench, args)
    assert result.exit_code == 0, result.output
    assert "PostgreSQL with synchronous_commit = off" in result.output
    assert "a commit does not wait for the disk; a crash of the server" in result.output.replace("\n", " ")
    bad = CliRunner().invoke(bench, [*args[:-2], "--pg-setting", "synchronous_commit"])
    assert bad.exit_code != 0 and "NAME=VALUE" in bad.output
