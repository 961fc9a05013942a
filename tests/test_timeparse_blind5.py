"""The fifth blind table (bench/time_phrases_blind5.py, written before reading the resolver or the other tables'
rows), scored row by row and as a whole, and the rules its misses led to, on phrasings it does not hold: halves of a
year ("H1", "H2"), plan verbs that move a date ahead, "the noughties" / "the aughts", centuries by ordinal, "today /
tomorrow week", "come <month / season>", "earlier / later this <part of a day>", "arvo", chat spellings ("tomoz",
"nxt", "satuday", "Weds", "fri"), a clock time narrowing a day, an imperative or a short verbless question looking
ahead, a participle after a present copula, ranges of days and weekdays, ISO weeks, dotted dates, "a week ago
Friday", more holidays and holiday phrasings; and the readings those rules and the new guards (a weekday as a first
name, a weekday's compound noun) must not make."""

from __future__ import annotations

import pytest

from sodamem.bench.time_phrases_blind5 import ROWS
from sodamem.bench.timeparse_eval import check_row, table_accuracy
from tests.time_tables import check_table_shape
from tests.time_tables import iso as _iso
from tests.time_tables import spans as _spans


def test_blind5_table_shape() -> None:
    check_table_shape(ROWS, min_rows=150, min_negatives=20)


@pytest.mark.parametrize("row", ROWS, ids=[f"{row[0][:40]}@{row[1][:10]}" for row in ROWS])
def test_blind5_table_row(row: tuple[str, str, str | None, str | None, str | None]) -> None:
    assert check_row(row) is None, check_row(row)


def test_blind5_table_at_its_reached_level() -> None:
    accuracy, failures = table_accuracy(ROWS)
    assert accuracy == 1.0, failures


@pytest.mark.parametrize(
    ("text", "start", "end", "granularity"),
    [
        # halves of a year; plan verbs that move a date ahead
        ("we'll ship it in H2", "2024-07-01", "2025-01-01", "year"),
        ("H1 2023 was rough", "2023-01-01", "2023-07-01", "year"),
        ("our H1 numbers were solid", "2024-01-01", "2024-07-01", "year"),
        ("the release got pushed back to Q4", "2024-10-01", "2025-01-01", "year"),
        ("the rollout wraps up in Q1", "2025-01-01", "2025-04-01", "year"),
        # decades and centuries
        ("music from the aughts", "2000-01-01", "2010-01-01", "year"),
        ("she lived there in the late noughties", "2007-01-01", "2010-01-01", "year"),
        ("a castle from the twelfth century", "1100-01-01", "1200-01-01", "year"),
        ("in the 21st century", "2000-01-01", "2100-01-01", "year"),
        # a week on from a day; "come <month / season>"; edges of a part of the day
        ("the parcel comes tomorrow week", "2024-05-22", "2024-05-23", "day"),
        ("come December we'll be in Spain", "2024-12-01", "2025-01-01", "month"),
        ("it gets cold come winter", "2024-12-01", "2025-03-01", "season"),
        ("I had a call earlier this morning", "2024-05-14T06:00", "2024-05-14T09:30", "vague"),
        ("I'll swing by later this afternoon", "2024-05-14T09:30", "2024-05-14T18:00", "vague"),
        # chat spellings
        ("can we do tomorrow arvo", "2024-05-15T12:00", "2024-05-15T18:00", "day"),
        ("see ya tomoz", "2024-05-15", "2024-05-16", "day"),
        ("let's catch up nxt month", "2024-06-01", "2024-07-01", "month"),
        ("see you satuday", "2024-05-18", "2024-05-19", "day"),
        ("the quiz is on Weds", "2024-05-15", "2024-05-16", "day"),
        ("it's due fri", "2024-05-17", "2024-05-18", "day"),
        # a clock time narrows a day to the hour from it
        ("tomorrow at 7:30pm works", "2024-05-15T19:30", "2024-05-15T20:30", "day"),
        ("let's meet Friday @ 10am", "2024-05-17T10:00", "2024-05-17T11:00", "day"),
        ("dinner is tonight at 9", "2024-05-14T21:00", "2024-05-14T22:00", "day"),
        ("the call is at 14:00 tomorrow", "2024-05-15T14:00", "2024-05-15T15:00", "day"),
        ("I was at 3 parties on Friday", "2024-05-10", "2024-05-11", "day"),
        # an imperative, a question whether a time suits, a short verbless question look ahead
        ("text me Thursday", "2024-05-16", "2024-05-17", "day"),
        ("does Monday work for you?", "2024-05-20", "2024-05-21", "day"),
        ("lunch Wednesday?", "2024-05-15", "2024-05-16", "day"),
        ("Anything fun on Saturday?", "2024-05-11", "2024-05-12", "day"),
        # a participle after a present copula is a state
        ("I'm swamped on Friday", "2024-05-17", "2024-05-18", "day"),
        # ranges of days and weekdays
        ("we're away the 3rd-5th of June", "2024-06-03", "2024-06-06", "day"),
        ("the course runs Jun 10-14", "2024-06-10", "2024-06-15", "day"),
        ("we're away from the 1st to the 4th of July", "2024-07-01", "2024-07-05", "day"),
        ("we're open Thu-Sat", "2024-05-16", "2024-05-19", "day"),
        ("I'm off Fri-Sun next week", "2024-05-24", "2024-05-27", "day"),
        # ISO weeks, dotted dates
        ("it's due in 2024-W21", "2024-05-20", "2024-05-27", "week"),
        ("she was born 07.03.1990", "1990-03-07", "1990-03-08", "day"),
        # weeks back from a day
        ("two weeks ago Sunday", "2024-04-28", "2024-04-29", "day"),
        ("a week ago yesterday", "2024-05-06", "2024-05-07", "day"),
        # holidays
        ("we fasted on Holy Thursday", "2024-03-28", "2024-03-29", "day"),
        ("Indigenous Peoples' Day was quiet", "2023-10-09", "2023-10-10", "day"),
        ("we spent a lovely Christmas Day", "2023-12-25", "2023-12-26", "day"),
        ("she's home Easter Monday", "2025-04-21", "2025-04-22", "day"),
        # a weekday before "I", or before a name and "and", is still a day
        ("Sunday I went hiking", "2024-05-12", "2024-05-13", "day"),
        ("Friday Sarah and I went out", "2024-05-10", "2024-05-11", "day"),
    ],
)
def test_blind5_rules(text: str, start: str, end: str, granularity: str) -> None:
    assert _spans(text) == [(_iso(start), _iso(end), granularity)]


@pytest.mark.parametrize(
    "text",
    [
        "the H2 fuel cell car",
        "an h1 heading",
        "a 19th-century novel",
        "they come March",
        "read pages 10-12",
        "the 3-5 year olds",
        "see section 2.1.2024 of the draft",
        "version 1.2.2023 is out",
        "I met Sunday Rose at the gym",
        "he skipped Sunday mass",
        "we got the Sunday Times",
        "we had a Christmas party",
        "she won 1st-3rd place",
        "the 1st-2nd grade teacher",
    ],
)
def test_blind5_non_readings(text: str) -> None:
    assert _spans(text) == []
