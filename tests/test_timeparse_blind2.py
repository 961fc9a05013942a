"""The second blind table (bench/time_phrases_blind2.py, written before reading the resolver or the other tables'
rows), scored row by row and as a whole, and the rules its misses led to, on phrasings it does not hold: nights
counted back, "this time last year", quarters, "the new year", slashed dates, a day of the month alone, the verb after
a clause-opening expression; and the readings those rules must not make."""

from __future__ import annotations

from datetime import datetime

import pytest

from sodamem.bench import time_phrases_blind2
from sodamem.bench.time_phrases_blind2 import ROWS
from sodamem.bench.timeparse_eval import check_row, table_accuracy
from sodamem.ingest.timeparse import find_times
from tests.time_tables import check_table_shape


def test_blind2_table_shape() -> None:
    check_table_shape(ROWS, min_rows=120, min_negatives=15)


@pytest.mark.parametrize("row", ROWS, ids=[f"{row[0][:40]}@{row[1][:10]}" for row in ROWS])
def test_blind2_table_row(row: tuple[str, str, str | None, str | None, str | None]) -> None:
    assert check_row(row) is None, check_row(row)


def test_blind2_table_at_its_reached_level() -> None:
    accuracy, failures = table_accuracy(ROWS)
    assert accuracy == 1.0, failures


TUE = datetime.fromisoformat(time_phrases_blind2.TUE)  # Tuesday 2024-05-14 09:30


def _spans(text: str, anchor: datetime = TUE) -> list[tuple[str, str, str]]:
    return [
        (m.spec.start.isoformat(), m.spec.end.isoformat(), m.spec.granularity.value) for m in find_times(text, anchor)
    ]


@pytest.mark.parametrize(
    ("text", "start", "end", "granularity"),
    [
        # nights counted back, the same time of another day
        ("three nights ago", "2024-05-11T18:00:00", "2024-05-12T06:00:00", "day"),
        ("this time yesterday", "2024-05-13", "2024-05-14", "day"),
        ("this time next month", "2024-06-14", "2024-06-15", "day"),
        # quarters keep the year's granularity, as halves do
        ("in Q2 2023", "2023-04-01", "2023-07-01", "year"),
        ("the fourth quarter of last year", "2023-10-01", "2024-01-01", "year"),
        ("revenue grew in the first quarter", "2024-01-01", "2024-04-01", "year"),
        ("after the new year", "2025-01-01", "2026-01-01", "year"),
        # slashed dates: month first, day first only when the first number cannot be a month
        ("the report is due 6/3", "2024-06-03", "2024-06-04", "day"),
        ("on 12/25/19", "2019-12-25", "2019-12-26", "day"),
        ("dated 31/1", "2024-01-31", "2024-02-01", "day"),
        # a day of the month opening a sentence or after a particle of coming and going
        ("the 15th was rainy", "2024-04-15", "2024-04-16", "day"),
        ("we're flying home the 20th", "2024-05-20", "2024-05-21", "day"),
        # the verb after a clause-opening expression, or a timetable verb before it, sets the direction
        ("Thanksgiving we went to Ohio", "2023-11-23", "2023-11-24", "day"),
        ("Saturday I'm at the lake", "2024-05-18", "2024-05-19", "day"),
        ("Saturday we hiked", "2024-05-11", "2024-05-12", "day"),
        ("Grandpa turns 80 in March", "2025-03-01", "2025-04-01", "month"),
        # a decade followed by a function word is still a time
        ("back in the 90s when I was a kid", "1990-01-01", "2000-01-01", "year"),
        ("the 80s were loud", "1980-01-01", "1990-01-01", "year"),
    ],
)
def test_generalised_rules(text: str, start: str, end: str, granularity: str) -> None:
    def iso(value: str) -> str:
        return datetime.fromisoformat(value).isoformat()

    assert _spans(text) == [(iso(start), iso(end), granularity)], text


@pytest.mark.parametrize(
    "text",
    [
        "a Monday kind of mood",
        "the Sunday paper is on the porch",
        "Wednesday's child is full of woe",
        "a Christmas in July party",
        "highs in the 80s all along the coast",
        "the 90s band played a reunion show",
        "the 80s music was better",
        "the store is open 24/7",
        "add 1/2 cup of milk",
        "the third quarter of the game was wild",
        "she scored 3/4 on the quiz",
        "Friday night's board game session was a nice break",
    ],
)
def test_generalised_rules_leave_these_alone(text: str) -> None:
    spans = _spans(text)
    if text.startswith("Friday night"):  # a possessive, not "is": still last Friday night, not the next one
        assert spans == [("2024-05-10T18:00:00", "2024-05-11T06:00:00", "day")]
    else:
        assert spans == [], text
