"""`bench locomo --db-backend postgres`: the same systems on SQLite and on a temporary PostgreSQL, side by side."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from sodamem.bench.cli import bench
from tests.test_bench_qa import fixture as locomo_fixture


@pytest.mark.slow
def test_both_backends_side_by_side(tmp_path: Path) -> None:
    pytest.importorskip("pgserver", reason="needs the postgres extra (pip install -e '.[postgres]')")
    args = ["locomo", "--data", str(locomo_fixture(tmp_path)), "--embedder", "fake", "--system", "bm25"]
    result = CliRunner().invoke(bench, [*args, "--db-backend", "postgres"])
    assert result.exit_code == 0, result.output
    row = next(line for line in result.output.splitlines() if line.startswith("| bm25 | 1.000 | 1.000 | +0.000"))
    assert "SQLite and PostgreSQL side by side" in result.output and row
