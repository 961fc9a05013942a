"""The sixth blind table (bench/time_phrases_blind6.py, written before reading the resolver or the other tables'
rows), scored row by row and as a whole."""

from __future__ import annotations

import pytest

from sodamem.bench.time_phrases_blind6 import ROWS
from sodamem.bench.timeparse_eval import check_row, table_accuracy
from tests.time_tables import check_table_shape


def test_blind6_table_shape() -> None:
    check_table_shape(ROWS, min_rows=150, min_negatives=20)


@pytest.mark.parametrize("row", ROWS, ids=[f"{row[0][:40]}@{row[1][:10]}" for row in ROWS])
def test_blind6_table_row(row: tuple[str, str, str | None, str | None, str | None]) -> None:
    assert check_row(row) is None, check_row(row)


def test_blind6_table_at_its_reached_level() -> None:
    accuracy, failures = table_accuracy(ROWS)
    assert accuracy >= 0.95, "\n".join(failures)
