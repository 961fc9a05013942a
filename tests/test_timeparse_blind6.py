"""The sixth blind table (bench/time_phrases_blind6.py, written before reading the resolver or the other tables'
rows), scored row by row and as a whole, and the rules its misses led to, on phrasings it does not hold: "same time
<...>", "midweek", "the run-up / lead-up / build-up to <holiday>", "the other week", "next <unit / weekday> but one",
deadlines ("EOD", "COB", "end of play", "by <day>"), "the past N weekends", timetable verbs of returning and renewing,
"the day after tmrw", "<holiday> just gone", "a week last <weekday>", "<weekday> fortnight", ranges of weekdays with
"thru" / "through", "a dozen", "a hundred", "two-ish", "earlier / later in the <unit>", "the other night", "<weekday>
coming / last", "end of month", "EOW", "the back half of", "a fortnight from Tuesday", "the <unit> after this", a
date with "last / next year"; and the readings the new guards (a recurrence, "man Friday", a weekday before a
person's verb, a title, "at the end of the day") must not make.

Blind, the resolver (0e6ff55) got 149 of the 187 rows (79.7%). General rules brought it to 174; the other 13 rows
broke conventions the resolver documents and the older tables pin ("a couple of" is 1..3 units, vague; "the past /
next N units" keep their unit's granularity; "recently" is the 30 days before the anchor) and were corrected to them
(see the table's docstring and docs/bench.md). Main resolves all 187.
"""

from __future__ import annotations

import pytest

from sodamem.bench.time_phrases_blind6 import ROWS
from sodamem.bench.timeparse_eval import check_row, table_accuracy
from tests.time_tables import check_table_shape
from tests.time_tables import iso as _iso
from tests.time_tables import spans as _spans


def test_blind6_table_shape() -> None:
    check_table_shape(ROWS, min_rows=150, min_negatives=20)


@pytest.mark.parametrize(
    "row",
    ROWS,
    ids=[f"{row[0][:40]}@{row[1][:10]}" for row in ROWS],
)
def test_blind6_table_row(row: tuple[str, str, str | None, str | None, str | None]) -> None:
    assert check_row(row) is None, check_row(row)


def test_blind6_table_resolves_every_row() -> None:
    accuracy, failures = table_accuracy(ROWS)
    assert accuracy == 1.0 and len(ROWS) == 187, failures


@pytest.mark.parametrize(
    ("text", "start", "end", "granularity"),
    [
        # "same time <...>" is "this time <...>"
        ("same time next month?", "2024-06-14", "2024-06-15", "day"),
        ("same time last year we were in Crete", "2023-05-14", "2023-05-15", "day"),
        # midweek: a named week's, or the tense's (said on a Tuesday)
        ("it poured midweek last week", "2024-05-08", "2024-05-10", "week"),
        ("let's do mid-week next week", "2024-05-22", "2024-05-24", "week"),
        ("we'll meet midweek", "2024-05-15", "2024-05-17", "week"),
        ("it rained midweek", "2024-05-08", "2024-05-10", "week"),
        # the run-up / lead-up / build-up to a holiday; the other week
        ("the lead-up to Thanksgiving was hectic", "2023-11-16", "2023-11-23", "vague"),
        ("we'll be swamped in the build-up to Halloween", "2024-10-24", "2024-10-31", "vague"),
        ("I saw him the other week", "2024-04-22", "2024-05-13", "vague"),
        # next <unit / weekday> but one
        ("I'm away next week but one", "2024-05-27", "2024-06-03", "week"),
        ("the vote is next Friday but one", "2024-05-24", "2024-05-25", "day"),
        ("we'll renovate next year but one", "2026-01-01", "2027-01-01", "year"),
        # deadlines, ahead unless the clause is in the past
        ("send it COB Wednesday", "2024-05-15", "2024-05-16", "day"),
        ("I need it by end of play tomorrow", "2024-05-15", "2024-05-16", "day"),
        ("the draft is due EOD today", "2024-05-14", "2024-05-15", "day"),
        ("we had wrapped up by close of business Friday", "2024-05-10", "2024-05-11", "day"),
        ("have it done by Thursday", "2024-05-16", "2024-05-17", "day"),
        ("we'd finished by Thursday", "2024-05-09", "2024-05-10", "day"),
        ("Friday EOD works", "2024-05-17", "2024-05-18", "day"),
        ("end of day Monday at the latest", "2024-05-20", "2024-05-21", "day"),
        ("I'll call tomorrow first thing", "2024-05-15T06:00", "2024-05-15T12:00", "day"),
        ("at the end of the day Friday won", "2024-05-10", "2024-05-11", "day"),  # the idiom: no deadline, a past day
        ("By Monday it had stopped raining", "2024-05-13", "2024-05-14", "day"),
        ("by the 20th we need a plan", "2024-05-20", "2024-05-21", "day"),
        ("we have to be moved out by Christmas", "2024-12-25", "2024-12-26", "day"),
        ("I'm planning a shoot, inspired by autumn", "2024-09-01", "2024-12-01", "season"),
        # the past N weekends: up to the Monday that ended the latest
        ("over the past two weekends I've been painting", "2024-05-04", "2024-05-13", "vague"),
        # timetable verbs of returning and renewing look ahead
        ("the kids go back on the 3rd", "2024-06-03", "2024-06-04", "day"),
        ("my contract renews on the 1st", "2024-06-01", "2024-06-02", "day"),
        ("did you go back on Friday?", "2024-05-10", "2024-05-11", "day"),
        # chat spellings after "the day after / before"; a holiday just gone
        ("the day after 2moro", "2024-05-16", "2024-05-17", "day"),
        ("the day before yday", "2024-05-12", "2024-05-13", "day"),
        ("THE DAY AFTER TOMORROW!!", "2024-05-16", "2024-05-17", "day"),
        ("how was Easter just gone?", "2024-03-31", "2024-04-01", "day"),
        # British: weeks before last <weekday>, <weekday> fortnight
        ("it was two weeks last Friday", "2024-04-26", "2024-04-27", "day"),
        ("the party is Friday fortnight", "2024-05-31", "2024-06-01", "day"),
        # ranges of weekdays with a word
        ("I'm off Monday through Wednesday next week", "2024-05-20", "2024-05-23", "day"),
        ("we're away Wed thru Fri", "2024-05-15", "2024-05-18", "day"),
        # earlier / later in the <unit>; the other night; a weekday before coming / next / last (British)
        ("we'll know later in the week", "2024-05-14T09:30", "2024-05-20", "vague"),
        ("it rained earlier in the month", "2024-05-01", "2024-05-14T09:30", "vague"),
        ("I saw her the other night", "2024-05-07", "2024-05-14", "vague"),
        ("the match is on Saturday coming", "2024-05-18", "2024-05-19", "day"),
        ("we met Friday last", "2024-05-10", "2024-05-11", "day"),
        # end of <unit> without its article, EOW / EOM; EOD with an abbreviated weekday; front / back half
        ("the report is due end of month", "2024-05-21", "2024-06-01", "month"),
        ("I need it by EOW", "2024-05-17", "2024-05-20", "week"),
        ("send it EOD Fri", "2024-05-17", "2024-05-18", "day"),
        ("sales pick up in the back half of the year", "2024-07-01", "2025-01-01", "year"),
        # counted from a bare weekday: the one ahead; "-ish" counts; the <unit> after this
        ("a fortnight from Tuesday", "2024-06-04", "2024-06-05", "day"),
        ("three weeks from Friday", "2024-06-07", "2024-06-08", "day"),
        ("that was two-ish weeks ago", "2024-04-29", "2024-05-06", "week"),
        ("I'm away the weekend after this", "2024-05-25", "2024-05-27", "week"),
        # a date in a year named relative to the anchor's
        ("it was the 3rd of March last year", "2023-03-03", "2023-03-04", "day"),
        ("the reunion is June 8th next year", "2025-06-08", "2025-06-09", "day"),
        # a holiday in a year named relative to the anchor's; a part of the day before / after a holiday
        ("we're hosting Christmas Day next year", "2025-12-25", "2025-12-26", "day"),
        ("I was sick the morning after Halloween", "2023-11-01T06:00", "2023-11-01T12:00", "day"),
        ("we went to church on Mothering Sunday", "2024-03-10", "2024-03-11", "day"),  # the holiday, not a Sunday
        # a dozen
        ("that was half a dozen years ago", "2018-01-01", "2019-01-01", "year"),
        ("a dozen weeks ago", "2024-02-19", "2024-02-26", "week"),
        ("a hundred years ago", "1924-01-01", "1925-01-01", "year"),
        ("the shop opens in a hundred days", "2024-08-22", "2024-08-23", "day"),
    ],
)
def test_blind6_rules(text: str, start: str, end: str, granularity: str) -> None:
    assert _spans(text) == [(_iso(start), _iso(end), granularity)]


@pytest.mark.parametrize(
    "text",
    [
        "we swim every Thursday",
        "every other Friday we do pizza",
        "each Monday morning I run",
        "he's my man Friday",
        "Friday said she'd come",
        "the Super Bowl Sunday party",
        "I loved the novel The Day Before Yesterday",
        "we had a midweek game",
        "they wed thru the spring",
        "the geometry exam",
        "the eom figures",
        "the week after this happened",
        "the month after this, we moved",
    ],
)
def test_blind6_non_readings(text: str) -> None:
    assert _spans(text) == []
