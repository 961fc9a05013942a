from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sodamem.bench.time_phrases import MON, ROWS
from sodamem.bench.timeparse_eval import check_row, table_accuracy
from sodamem.ingest.timeparse import TimeMention, find_times, resolve_time
from tests.time_tables import check_table_shape

ANCHOR = datetime.fromisoformat(MON)  # Monday 2023-05-08 13:56


def _interval(mention: TimeMention | None) -> tuple[str, str, str] | None:
    if mention is None:
        return None
    return mention.spec.start.isoformat(), mention.spec.end.isoformat(), mention.spec.granularity.value


def check_mentions(text: str, mentions: list[TimeMention]) -> None:
    previous_end = 0
    for m in mentions:
        assert text[m.char_start : m.char_end] == m.spec.expression
        assert m.spec.expression and m.spec.expression == m.spec.expression.strip()
        assert m.spec.start < m.spec.end
        assert m.char_start >= previous_end, "mentions overlap or are out of order"
        previous_end = m.char_end


# --- the table


def test_table_shape() -> None:
    check_table_shape(ROWS, min_rows=100, min_negatives=10, distinct=False)


@pytest.mark.parametrize("row", ROWS, ids=[f"{row[0][:40]}@{row[1][:10]}" for row in ROWS])
def test_table_row(row: tuple[str, str, str | None, str | None, str | None]) -> None:
    assert check_row(row) is None, check_row(row)


def test_table_accuracy() -> None:
    accuracy, failures = table_accuracy(ROWS)
    print(f"time phrase accuracy: {accuracy:.3f} over {len(ROWS)} rows")
    for line in failures:
        print("  FAIL", line)
    assert accuracy >= 0.95


def test_table_spans() -> None:
    for text, anchor, *_ in ROWS:
        check_mentions(text, find_times(text, datetime.fromisoformat(anchor)))


# --- spans, several mentions, resolution choices


def test_span_is_the_literal_words() -> None:
    text = "Hey!  I saw him Last   Friday, at the park."
    [m] = find_times(text, ANCHOR)
    assert m.spec.expression == "Last   Friday"
    assert (m.char_start, m.char_end) == (16, 29)
    assert text[m.char_start : m.char_end] == m.spec.expression


def test_several_mentions_in_order() -> None:
    text = "Yesterday I booked a trip for next Friday; we talked about last summer and 2 weeks ago, since 2019."
    mentions = find_times(text, ANCHOR)
    check_mentions(text, mentions)
    assert [m.spec.expression for m in mentions] == [
        "Yesterday",
        "next Friday",
        "last summer",
        "2 weeks ago",
        "since 2019",
    ]
    assert _interval(mentions[1]) == ("2023-05-12T00:00:00", "2023-05-13T00:00:00", "day")
    assert _interval(mentions[4]) == ("2019-01-01T00:00:00", ANCHOR.isoformat(), "year")


def test_longest_candidate_wins() -> None:
    for text, expression in [
        ("since last year", "since last year"),
        ("the day before yesterday", "the day before yesterday"),
        ("in the summer of 2019", "in the summer of 2019"),
        ("over the past 3 weeks", "over the past 3 weeks"),
        ("earlier this year", "earlier this year"),
        ("on May 8th, 2021", "on May 8th, 2021"),
    ]:
        assert [m.spec.expression for m in find_times(text, ANCHOR)] == [expression]


def test_resolve_time_prefers_the_most_specific() -> None:
    m = resolve_time("Recently, last week, on Tuesday, I went out.", ANCHOR)
    assert m is not None and m.spec.expression == "on Tuesday"
    assert _interval(m) == ("2023-05-02T00:00:00", "2023-05-03T00:00:00", "day")
    vague_only = resolve_time("Lately I started in 2019.", ANCHOR)
    assert vague_only is not None and vague_only.spec.expression == "in 2019"
    assert resolve_time("Nothing to see here.", ANCHOR) is None


def test_future_forced_and_inferred() -> None:
    def day(text: str, future: bool | None = None) -> str | None:
        m = resolve_time(text, ANCHOR, future=future)
        return None if m is None else m.spec.start.date().isoformat()

    assert day("on Friday") == "2023-05-05"
    assert day("on Friday", future=True) == "2023-05-12"
    assert day("I will go on Friday") == "2023-05-12"
    assert day("I will go on Friday", future=False) == "2023-05-05"
    assert day("I was going to go on Friday") == "2023-05-05"
    assert day("She sat next to me on Friday") == "2023-05-05"
    assert day("We're planning a trip in March") == "2024-03-01"
    assert day("We took a trip in March") == "2023-03-01"
    assert day("on May 20", future=True) == "2023-05-20"
    assert day("on May 20") == "2022-05-20"
    assert day("I'll stay for two weeks") == "2023-05-08"  # [anchor, anchor + 2 weeks)
    assert day("in the summer", future=True) == "2023-06-01"
    assert day("in the summer") == "2022-06-01"
    assert day("Start date is the 20th of May") == "2023-05-20"  # a start date, a schedule, a booking: ahead
    assert day("The exam is scheduled for May 20") == "2023-05-20"
    assert day("It was scheduled for May 20") == "2022-05-20"


def test_keeps_the_anchors_timezone() -> None:
    tz = timezone(timedelta(hours=-5))
    m = resolve_time("I saw her yesterday", ANCHOR.replace(tzinfo=tz))
    assert m is not None
    assert m.spec.start == datetime(2023, 5, 7, tzinfo=tz)
    assert m.spec.start.tzinfo is tz and m.spec.end.tzinfo is tz


def test_invalid_dates_and_slashed_numbers_that_are_no_dates_are_skipped() -> None:
    for text in [
        *("on February 30", "2023-02-30", "on 2/30", "on 13/13/2023", "the 5th", "on February 29, 2023"),
        *("open 24/7", "a 24/7 diner", "add 3/4 cup of flour", "2/3 of the class", "a 50/50 chance", "rated it 4/5"),
    ]:
        assert find_times(text, ANCHOR) == [], text
    # an impossible day with a usable month and year falls back to the month
    assert [_interval(m) for m in find_times("on 31 April 2022", ANCHOR)] == [
        ("2022-04-01T00:00:00", "2022-05-01T00:00:00", "month")
    ]


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("We met 8/5/2023.", "2023-08-05"),  # US month/day
        ("05/08/2023", "2023-05-08"),
        ("born 3/4/98", "1998-03-04"),  # a two-digit year like '98
        ("the invoice dated 13/2", "2023-02-13"),  # day/month where the first number cannot be a month
        ("we moved in on 4/28", "2023-04-28"),  # no year: the latest on or before the anchor's day
        ("the movers come on 5/20", "2023-05-20"),  # a timetable verb: the first on or after it
    ],
)
def test_slashed_dates_are_month_first(text: str, day: str) -> None:
    assert [m.spec.start for m in find_times(text, ANCHOR)] == [datetime.fromisoformat(day)], text


def test_modal_may_is_not_a_month() -> None:
    assert find_times("this may work, and they may 3 times fail", ANCHOR) == []
    assert [m.spec.expression for m in find_times("I moved in may", ANCHOR)] == ["in may"]
    assert [m.spec.expression for m in find_times("This May was warm", ANCHOR)] == ["This May"]


def test_anchors_at_the_ends_of_time_do_not_raise() -> None:
    text = "yesterday, tomorrow, in 20 years, 20 years ago, last winter, next week, since 1999, on Feb 29"
    for anchor in (datetime.min, datetime.max, datetime(1, 1, 1, 12), datetime(9999, 12, 31, 12)):
        check_mentions(text, find_times(text, anchor))


# --- properties

_ANCHORS = st.datetimes(
    min_value=datetime(1, 1, 1), timezones=st.sampled_from([None, UTC, timezone(timedelta(hours=9))])
)
_TIMEY = st.lists(
    st.one_of(
        st.text(max_size=12),
        st.sampled_from(
            [
                " ",
                "  ",
                ", ",
                ". ",
                "\n",
                "since ",
                "ever since ",
                "in ",
                "on ",
                "the ",
                "last ",
                "next ",
                "this ",
                "past ",
                "for ",
                "a ",
                "a couple of ",
                "few ",
                "several ",
                "twenty ",
                "3 ",
                "31 ",
                "0 ",
                "999 ",
                "days ",
                "weeks",
                "weekends ",
                "months ",
                "year ",
                "hours ",
                "ago",
                "back",
                "from now",
                "Monday",
                "fri",
                "weekend",
                "summer",
                "winter ",
                "fall",
                "May",
                "may",
                "Feb ",
                "29th",
                "of ",
                "2019",
                "1900",
                "2024-02-29",
                "2023/13/01",
                "yesterday",
                "tonight",
                "night",
                "the other day",
                "recently",
                "earlier ",
                "later ",
                "today",
                "early ",
                "mid-",
                "first time ",
                "n't ",
                "will ",
            ]
        ),
    ),
    max_size=30,
).map("".join)


@settings(max_examples=300, deadline=None)
@given(st.text(), _ANCHORS, st.sampled_from([None, True, False]))
def test_find_times_never_raises_on_arbitrary_text(text: str, anchor: datetime, future: bool | None) -> None:
    check_mentions(text, find_times(text, anchor, future=future))


@settings(max_examples=500, deadline=None)
@given(_TIMEY, _ANCHORS, st.sampled_from([None, True, False]))
def test_find_times_invariants_on_time_like_text(text: str, anchor: datetime, future: bool | None) -> None:
    mentions = find_times(text, anchor, future=future)
    check_mentions(text, mentions)
    for m in mentions:
        assert m.spec.start.tzinfo is anchor.tzinfo
    best = resolve_time(text, anchor, future=future)
    assert (best is None) == (not mentions)
    assert best is None or best in mentions


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("Biscuit had surgery on Friday, she's recovering.", 18),  # a later clause's present does not move it ahead
        ("Biscuit had surgery on Friday and is recovering.", 18),
        ("We went to the lake on Saturday, we're going again soon.", 19),
        ("I've got a dentist appointment on Friday.", 25),  # "'ve got" is no past event
    ],
)
def test_a_past_event_in_the_clause_keeps_a_weekday_behind(text: str, day: int) -> None:
    said = datetime(2024, 10, 20, 12)  # a Sunday
    mention = resolve_time(text, said)
    assert mention is not None and mention.spec.start == datetime(2024, 10, day)


def test_a_start_said_ahead_looks_ahead() -> None:
    """ "junior QA tester, starting march 2nd" said on 3 February is this March; "I started on March 2nd" last."""
    said = datetime(2026, 2, 3)
    (ahead,) = find_times("junior QA tester, starting march 2nd", said)
    assert ahead.spec.start == datetime(2026, 3, 2)
    (back,) = find_times("I started on March 2nd", said)
    assert back.spec.start == datetime(2025, 3, 2)
    (day,) = find_times("i start on the 19th", said)
    assert day.spec.start == datetime(2026, 2, 19)
