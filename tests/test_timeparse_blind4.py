"""The fourth blind table (bench/time_phrases_blind4.py, written before reading the resolver or the other tables'
rows), scored row by row and as a whole, and the rules its misses led to, on phrasings it does not hold: chat
spellings of the days next to today, abbreviated weekdays alone, an abbreviated month's period, "by/for the weekend",
"first thing <day>", "<unit> just gone", years in words, a day's noun before a slashed date, more timetable verbs,
being open or closed before a holiday or a day; and the readings those rules and the new guards (a noun's possessive
before a weekday, an age after a possessive) must not make."""

from __future__ import annotations

import pytest

from sodamem.bench.time_phrases_blind4 import ROWS
from sodamem.bench.timeparse_eval import check_row, table_accuracy
from sodamem.ingest.timeparse import find_times
from tests.time_tables import TUE, check_table_shape
from tests.time_tables import iso as _iso
from tests.time_tables import spans as _spans


def test_blind4_table_shape() -> None:
    check_table_shape(ROWS, min_rows=130, min_negatives=15)


@pytest.mark.parametrize("row", ROWS, ids=[f"{row[0][:40]}@{row[1][:10]}" for row in ROWS])
def test_blind4_table_row(row: tuple[str, str, str | None, str | None, str | None]) -> None:
    assert check_row(row) is None, check_row(row)


def test_blind4_table_at_its_reached_level() -> None:
    accuracy, failures = table_accuracy(ROWS)
    assert accuracy == 1.0, failures


@pytest.mark.parametrize(
    ("text", "start", "end", "granularity"),
    [
        # chat spellings of the days next to today, with a part of the day too
        ("call me 2moro", "2024-05-15", "2024-05-16", "day"),
        ("tmrw night works", "2024-05-15T18:00", "2024-05-16T06:00", "day"),
        ("we spoke yesterdy", "2024-05-13", "2024-05-14", "day"),
        ("2nite is the night", "2024-05-14T18:00", "2024-05-15T06:00", "day"),
        # an abbreviated weekday alone: no English word, or capitalised inside a sentence
        ("the meeting moved to thurs", "2024-05-09", "2024-05-10", "day"),
        ("I'm flying out Fri.", "2024-05-17", "2024-05-18", "day"),
        ("we played on Sat", "2024-05-11", "2024-05-12", "day"),
        # an abbreviated month keeps its period; a misspelt one is read
        ("she was born Aug. 3rd, 1990", "1990-08-03", "1990-08-04", "day"),
        ("we met in feburary 2020", "2020-02-01", "2020-03-01", "month"),
        ("the call is wendsday", "2024-05-15", "2024-05-16", "day"),
        # by / for the weekend
        ("we went to the coast for the weekend", "2024-05-11", "2024-05-13", "week"),
        ("I'll have it done by the weekend", "2024-05-18", "2024-05-20", "week"),
        # first thing <day>; <unit or weekday> just gone
        ("first thing on Friday I'll call", "2024-05-17T06:00", "2024-05-17T12:00", "day"),
        ("I'll ring first thing next Monday", "2024-05-20T06:00", "2024-05-20T12:00", "day"),
        ("the month just gone was wet", "2024-04-01", "2024-05-01", "month"),
        ("Friday just gone we had a party", "2024-05-10", "2024-05-11", "day"),
        # years in words after a preposition
        ("since two thousand and five", "2005-01-01", "2006-01-01", "year"),
        ("back in nineteen ninety-eight", "1998-01-01", "1999-01-01", "year"),
        ("in twenty oh eight we moved", "2008-01-01", "2009-01-01", "year"),
        # a day's noun and its verb before a slashed date
        ("my birthday's 6/12", "2024-06-12", "2024-06-13", "day"),
        # more timetable verbs, being open or closed
        ("the show premieres on the 30th", "2024-05-30", "2024-05-31", "day"),
        ("the new album drops Friday", "2024-05-17", "2024-05-18", "day"),
        ("the pool is open Memorial Day", "2024-05-27", "2024-05-28", "day"),
        ("the gym was closed on Monday", "2024-05-13", "2024-05-14", "day"),
        ("are you free Christmas Eve?", "2024-12-24", "2024-12-25", "day"),
        ("NYE was wild", "2023-12-31", "2024-01-01", "day"),
        # "goes up" is no predicate before early/late
        ("prices go up late next year", "2025-09-01", "2026-01-01", "year"),
        ("the decade ended in the late nineties", "1997-01-01", "2000-01-01", "year"),
    ],
)
def test_blind4_rules(text: str, start: str, end: str, granularity: str) -> None:
    assert _spans(text) == [(_iso(start), _iso(end), granularity)]


@pytest.mark.parametrize(
    "text",
    [
        "I sat down with him",
        "Sat down and cried",
        "they wed in secret",
        "the Wed meeting ran long",
        "Mon, you have to try this",
        "my uncle's Friday fish fry is legendary",
        "Joe's Saturday league lost again",
        "she's in her late 20s",
        "my dad is in his mid-fifties",
        "twenty twenty vision",
        "in twenty five minutes",
        "it took twenty nineteen-hour days",
        "the score is 3/28",
        "first thing I did was call",
        "he's just gone",
    ],
)
def test_blind4_non_readings(text: str) -> None:
    assert _spans(text) == []


def test_a_pronoun_s_before_a_weekday_is_no_possessive() -> None:
    assert [m.spec.expression for m in find_times("it's Friday tomorrow", TUE)] == ["Friday", "tomorrow"]
