"""Ranges of days of one month said in chat: "going 26 to 29 june" (no ordinals, the month after), "august, the 8th
to the 15th" (the month first); counts that are no days stay out ("3 to 5 people", "pages 3 to 7")."""

from __future__ import annotations

from datetime import date, datetime

import pytest

from sodamem.ingest.timeparse import find_times

SAID = datetime(2026, 5, 10, 12)


def days(text: str) -> list[tuple[str, date, date]]:
    return [(m.spec.expression, m.spec.start.date(), m.spec.end.date()) for m in find_times(text, SAID, future=True)]


@pytest.mark.parametrize(
    ("text", "expression", "first", "after_last"),
    [
        ("going 26 to 29 june", "26 to 29 june", date(2026, 6, 26), date(2026, 6, 30)),
        (
            "we booked it for august, the 8th to the 15th, around reine",
            "for august, the 8th to the 15th",
            date(2026, 8, 8),
            date(2026, 8, 16),
        ),
        ("in august, the 8th to the 15th", "august, the 8th to the 15th", date(2026, 8, 8), date(2026, 8, 16)),
    ],
)
def test_a_range_of_days_in_a_named_month(text: str, expression: str, first: date, after_last: date) -> None:
    assert days(text) == [(expression, first, after_last)]


@pytest.mark.parametrize(
    "text", ["3 to 5 people", "pages 3 to 7", "it went 2 to 1", "kids aged 7 to 11", "kids aged 7 to 11 september"]
)
def test_counts_are_no_days(text: str) -> None:
    assert all(" to " not in expression for expression, _, _ in days(text))


@pytest.mark.parametrize(
    ("text", "expression"),
    [
        ("We played Leeds in April, 3-1 to us.", "in April"),
        ("I started at Acme in March, 9-5 every weekday.", "in March"),
        ("In October, 5-6 of us went hiking.", "In October"),
    ],
)
def test_a_month_then_a_count_is_the_month(text: str, expression: str) -> None:
    assert [expression] == [m.spec.expression for m in find_times(text, SAID)]
