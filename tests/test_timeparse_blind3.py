"""The third blind table (bench/time_phrases_blind3.py, written before reading the resolver or the other tables'
rows), scored row by row and as a whole."""

from __future__ import annotations

import pytest

from sodamem.bench.time_phrases_blind3 import ROWS
from sodamem.bench.timeparse_eval import check_row, table_accuracy
from tests.time_tables import check_table_shape


def test_blind3_table_shape() -> None:
    check_table_shape(ROWS, min_rows=150, min_negatives=15)


def test_blind3_table_at_its_blind_level_at_least() -> None:
    accuracy, failures = table_accuracy(ROWS)
    assert accuracy >= 164 / 177, failures
