"""The grammar table (bench/time_phrases_grammar.py) and the rule families behind it: before last / after next,
fortnights and decades, fractions, parts and ordinals of periods, days of the month, holidays, tense direction."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sodamem.bench import time_phrases, time_phrases_grammar
from sodamem.bench.time_phrases_grammar import ROWS
from sodamem.bench.timeparse_eval import check_row, table_accuracy
from sodamem.ingest.timeholidays import easter, holiday_dates, nth_weekday
from sodamem.ingest.timeparse import find_times, resolve_time
from tests.time_tables import check_table_shape

MON = datetime.fromisoformat(time_phrases_grammar.MON)  # Monday 2023-05-08 13:56
_ANCHORS = st.datetimes(min_value=datetime(1950, 1, 1), max_value=datetime(2090, 12, 31))


def _only(text: str, anchor: datetime, future: bool | None = None) -> tuple[datetime, datetime, str]:
    """The one mention of ``text`` (asserting there is exactly one) as (start, end, granularity)."""
    mentions = find_times(text, anchor, future=future)
    assert len(mentions) == 1, (text, anchor, mentions)
    spec = mentions[0].spec
    return spec.start, spec.end, spec.granularity.value


def _day(d: date | datetime) -> datetime:
    return datetime(d.year, d.month, d.day)


# --- the tables, at their targets


def test_grammar_table_shape() -> None:
    check_table_shape(ROWS, min_rows=80, min_negatives=5)


@pytest.mark.parametrize("row", ROWS, ids=[f"{row[0][:40]}@{row[1][:10]}" for row in ROWS])
def test_grammar_table_row(row: tuple[str, str, str | None, str | None, str | None]) -> None:
    assert check_row(row) is None, check_row(row)


@pytest.mark.parametrize(("rows", "target"), [(time_phrases.ROWS, 1.0), (time_phrases_grammar.ROWS, 0.95)])
def test_each_table_at_its_target(
    rows: list[tuple[str, str, str | None, str | None, str | None]], target: float
) -> None:
    accuracy, failures = table_accuracy(rows)
    print(f"accuracy {accuracy:.3f} over {len(rows)} rows")
    for line in failures:
        print("  FAIL", line)
    assert accuracy >= target


# --- holidays


@pytest.mark.parametrize(
    "sunday",
    [
        "1818-03-22",  # the earliest possible
        "1943-04-25",  # the latest possible
        "2000-04-23",
        "2008-03-23",
        "2011-04-24",
        "2016-03-27",
        "2018-04-01",
        "2019-04-21",
        "2021-04-04",
        "2022-04-17",
        "2023-04-09",
        "2024-03-31",
        "2025-04-20",
        "2038-04-25",
        "2285-03-22",
    ],
)
def test_easter_known_dates(sunday: str) -> None:
    expected = date.fromisoformat(sunday)
    assert easter(expected.year) == expected


def test_easter_is_a_sunday_between_march_22_and_april_25() -> None:
    for year in range(1583, 4100):
        day = easter(year)
        assert day.weekday() == 6, year
        assert date(year, 3, 22) <= day <= date(year, 4, 25), year


def test_easter_agrees_with_dateutil() -> None:
    dateutil_easter = pytest.importorskip("dateutil.easter")
    for year in range(1583, 4100):
        assert easter(year) == dateutil_easter.easter(year), year


@pytest.mark.parametrize(
    ("year", "expected"),
    [(2019, "2019-11-28"), (2021, "2021-11-25"), (2022, "2022-11-24"), (2023, "2023-11-23"), (2024, "2024-11-28")],
)
def test_thanksgiving_is_the_fourth_thursday_of_november(year: int, expected: str) -> None:
    assert holiday_dates(year)["thanksgiving"] == datetime.fromisoformat(expected)
    assert _only(f"Thanksgiving {year} was fun", MON)[0] == datetime.fromisoformat(expected)


def test_nth_weekday_holidays() -> None:
    days = holiday_dates(2023)
    assert days["mothers_day"] == datetime(2023, 5, 14)  # 2nd Sunday of May
    assert days["fathers_day"] == datetime(2023, 6, 18)  # 3rd Sunday of June
    assert days["labor_day"] == datetime(2023, 9, 4)  # 1st Monday of September
    assert days["memorial_day"] == datetime(2023, 5, 29)  # last Monday of May
    assert days["mlk_day"] == datetime(2023, 1, 16)
    assert days["good_friday"] == datetime(2023, 4, 7)
    assert days["black_friday"] == datetime(2023, 11, 24)
    for year in range(1950, 2100):
        thanksgiving, memorial = nth_weekday(year, 11, 3, 4), nth_weekday(year, 5, 0, -1)
        assert thanksgiving.weekday() == 3 and 22 <= thanksgiving.day <= 28
        assert memorial.weekday() == 0 and memorial.day >= 25


def test_holiday_direction() -> None:
    christmas_day = datetime(2023, 12, 25, 15)
    assert _only("We sang on Christmas", christmas_day)[0] == datetime(2023, 12, 25)  # on or before: today
    assert _only("Last Christmas was quiet", christmas_day)[0] == datetime(2022, 12, 25)  # strictly before
    assert _only("Next Christmas we travel", christmas_day)[0] == datetime(2024, 12, 25)  # strictly after
    assert _only("This Christmas is cozy", christmas_day)[0] == datetime(2023, 12, 25)
    assert _only("We will travel for Christmas", datetime(2023, 12, 26))[0] == datetime(2024, 12, 25)
    assert _only("We ate turkey on Thanksgiving", datetime(2023, 11, 22))[0] == datetime(2022, 11, 24)
    assert _only("We ate turkey on Thanksgiving", datetime(2023, 11, 23, 20))[0] == datetime(2023, 11, 23)
    assert _only("the Easter after next", datetime(2023, 5, 1))[0] == datetime(2025, 4, 20)
    assert _only("the weekend after Thanksgiving", datetime(2023, 12, 1))[:2] == (
        datetime(2023, 11, 25),
        datetime(2023, 11, 27),
    )


def test_holiday_names_need_a_time_reading() -> None:
    for text in ["We bought a Christmas tree.", "Thanksgiving dinner was great.", "I love Halloween costumes."]:
        assert find_times(text, MON) == [], text
    assert _only("Halloween was fun", MON)[0] == datetime(2022, 10, 31)
    assert _only("I've been sober since Easter", MON)[:2] == (datetime(2023, 4, 9), MON)


@settings(max_examples=200, deadline=None)
@given(_ANCHORS)
def test_last_and_next_thanksgiving_bracket_the_anchor(anchor: datetime) -> None:
    last, _, _ = _only("last Thanksgiving", anchor)
    upcoming, _, _ = _only("next Thanksgiving", anchor)
    today = _day(anchor)
    for day in (last, upcoming):
        assert day.month == 11 and day.weekday() == 3 and 22 <= day.day <= 28
    assert last < today < upcoming
    # strictly before/after: only the anchor's own Thanksgiving can lie between the two
    if upcoming.year - last.year == 2:
        first = date(last.year + 1, 11, 1)
        assert today == _day(first + timedelta(days=(3 - first.weekday()) % 7 + 21))
    else:
        assert upcoming.year - last.year == 1


# --- before last / after next


@settings(max_examples=200, deadline=None)
@given(_ANCHORS)
def test_before_last_and_after_next_step_two_units(anchor: datetime) -> None:
    today = _day(anchor)
    monday = today - timedelta(days=today.weekday())
    assert _only("the week before last", anchor) == (monday - timedelta(weeks=2), monday - timedelta(weeks=1), "week")
    assert _only("the week after next", anchor) == (monday + timedelta(weeks=2), monday + timedelta(weeks=3), "week")
    year, month0 = divmod(anchor.month - 1 + 2, 12)
    after_next = datetime(anchor.year + year, month0 + 1, 1)
    assert _only("the month after next", anchor)[:2] == (after_next, _next_month_start(after_next))
    assert _only("the year before last", anchor) == (
        datetime(anchor.year - 2, 1, 1),
        datetime(anchor.year - 1, 1, 1),
        "year",
    )
    last_friday = today - timedelta(days=(today.weekday() - 4) % 7 or 7)
    assert _only("the Friday before last", anchor)[0] == last_friday - timedelta(weeks=1)
    next_friday = today + timedelta(days=(4 - today.weekday()) % 7 or 7)
    assert _only("Friday after next", anchor)[0] == next_friday + timedelta(weeks=1)


def _next_month_start(first: datetime) -> datetime:
    return datetime(first.year + first.month // 12, first.month % 12 + 1, 1)


def test_before_last_on_yearly_names() -> None:
    assert _only("the summer before last", MON)[:2] == (datetime(2021, 6, 1), datetime(2021, 9, 1))
    assert _only("the winter before last", MON)[:2] == (datetime(2021, 12, 1), datetime(2022, 3, 1))
    assert _only("the March before last", MON)[:2] == (datetime(2022, 3, 1), datetime(2022, 4, 1))
    assert _only("the night before last", MON)[:2] == (datetime(2023, 5, 6, 18), datetime(2023, 5, 7, 6))


# --- counts: words, fortnights, decades, halves


def _number_words(n: int) -> str:
    ones = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen"
    ones += " seventeen eighteen nineteen"
    tens = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()
    names = ones.split()
    if n < 20:
        return names[n]
    return tens[n // 10] + (f"-{names[n % 10]}" if n % 10 else "")


@settings(max_examples=300, deadline=None)
@given(_ANCHORS, st.integers(min_value=2, max_value=99), st.booleans())
def test_n_days_ago_is_the_day_n_days_back(anchor: datetime, n: int, as_words: bool) -> None:
    count = _number_words(n) if as_words else str(n)
    day = _day(anchor) - timedelta(days=n)
    assert _only(f"It happened {count} days ago.", anchor) == (day, day + timedelta(days=1), "day")
    monday = _day(anchor - timedelta(weeks=n))
    monday -= timedelta(days=monday.weekday())
    assert _only(f"It happened {count} weeks ago.", anchor) == (monday, monday + timedelta(weeks=1), "week")


@settings(max_examples=200, deadline=None)
@given(_ANCHORS, st.integers(min_value=0, max_value=30))
def test_and_a_half_years_ago_is_the_month_that_far_back(anchor: datetime, n: int) -> None:
    months = anchor.year * 12 + anchor.month - 1 - (12 * n + 6)
    start = datetime(months // 12, months % 12 + 1, 1)
    text = "half a year ago" if n == 0 else f"{n} and a half years ago"
    assert _only(text, anchor) == (start, _next_month_start(start), "month")


def test_fractions_of_hours_and_durations() -> None:
    assert _only("in half an hour", MON)[:2] == (datetime(2023, 5, 8, 14), datetime(2023, 5, 8, 15))
    assert _only("an hour and a half ago", MON)[:2] == (datetime(2023, 5, 8, 12), datetime(2023, 5, 8, 13))
    assert _only("for a year and a half", MON) == (datetime(2021, 11, 8, 13, 56), MON, "month")
    assert _only("over the past two and a half years", MON) == (datetime(2020, 11, 8, 13, 56), MON, "month")
    assert find_times("1.25 years ago", MON) == []  # not "25 years ago"


def test_fortnights_and_decades() -> None:
    assert _only("two fortnights ago", MON)[:2] == (datetime(2023, 4, 10), datetime(2023, 4, 17))
    assert _only("over the past fortnight", MON) == (datetime(2023, 4, 24, 13, 56), MON, "week")
    assert _only("a decade ago", datetime(2020, 1, 1)) == (datetime(2010, 1, 1), datetime(2020, 1, 1), "year")
    assert _only("next decade", MON)[:2] == (datetime(2030, 1, 1), datetime(2040, 1, 1))
    assert _only("this decade", MON)[:2] == (datetime(2020, 1, 1), datetime(2030, 1, 1))


# --- parts and ordinals of periods, days of the month, decades


@pytest.mark.parametrize(
    ("whole", "thirds", "halves"),
    [
        ("last year", "{} last year", "the {} half of last year"),
        ("next month", "{} next month", "the {} half of next month"),
        ("this week", "{} this week", None),
        ("last summer", "{} last summer", "the {} half of last summer"),
        ("in 2019", "{} 2019", "the {} half of 2019"),
        ("the 1990s", "the {} 1990s", "the {} half of the 1990s"),
        ("the 1800s", "the {} 1800s", "the {} half of the 1800s"),
    ],
)
def test_thirds_and_halves_tile_the_period(whole: str, thirds: str, halves: str | None) -> None:
    start, end, granularity = _only(whole, MON)
    early, mid, late = (_only(thirds.format(part), MON) for part in ("early", "mid", "late"))
    assert (early[0], early[1], mid[1], late[1]) == (start, mid[0], late[0], end)
    assert early[0] < early[1] < mid[1] < late[1]
    assert {early[2], mid[2], late[2]} == {granularity}
    if halves is not None:
        first, second = (_only(halves.format(which), MON) for which in ("first", "second"))
        assert (first[0], first[1], second[1]) == (start, second[0], end) and first[0] < first[1] < second[1]


def test_part_words_as_predicates_are_not_parts() -> None:
    assert _only("I was late last week", MON) == (datetime(2023, 5, 1), datetime(2023, 5, 8), "week")
    assert _only("We got up early this week", MON) == (datetime(2023, 5, 8), datetime(2023, 5, 15), "week")
    assert _only("Early this week I ran", MON) == (datetime(2023, 5, 8), datetime(2023, 5, 10), "week")


@pytest.mark.parametrize("year", [2019, 2020, 2023, 2024])
def test_ordinal_weekdays_of_a_month(year: int) -> None:
    for month in ("January", "February", "June", "November"):
        first = _only(f"the first Monday of {month} {year}", MON)[0]
        last = _only(f"the last Friday of {month} {year}", MON)[0]
        penultimate = _only(f"the second-to-last Friday of {month} {year}", MON)[0]
        assert first.weekday() == 0 and first.day <= 7
        assert last.weekday() == 4 and (last + timedelta(days=7)).month != last.month
        assert penultimate == last - timedelta(weeks=1)


@settings(max_examples=200, deadline=None)
@given(_ANCHORS, st.integers(min_value=1, max_value=31), st.booleans())
def test_day_of_month_alone_is_the_nearest_by_tense(anchor: datetime, n: int, future: bool) -> None:
    suffix = {1: "st", 2: "nd", 3: "rd", 21: "st", 22: "nd", 23: "rd", 31: "st"}.get(n, "th")
    start, end, granularity = _only(f"We met on the {n}{suffix}.", anchor, future=future)
    today = _day(anchor)
    assert start.day == n and end - start == timedelta(days=1) and granularity == "day"
    assert start >= today if future else start <= today
    assert abs((start - today).days) < 124  # never further than the 4th month out
    # no nearer such day on the right side of the anchor
    step = 1 if future else -1
    between = [today + timedelta(days=k * step) for k in range(abs((start - today).days))]
    assert all(day.day != n for day in between)


def test_day_of_month_needs_a_date_reading() -> None:
    assert find_times("I'm on the 3rd floor.", MON) == []
    assert find_times("the 5th", MON) == []
    # a deadline looks ahead ("by" opens it; see sodamem.ingest.timedirection.past_in_clause for the past)
    assert _only("Pay it by the 15th, please.", MON)[0] == datetime(2023, 5, 15)


def test_decades_and_centuries() -> None:
    assert _only("the sixties", MON)[:2] == (datetime(1960, 1, 1), datetime(1970, 1, 1))
    assert _only("in the '80s", MON)[:2] == (datetime(1980, 1, 1), datetime(1990, 1, 1))
    assert _only("the 2000s", MON)[:2] == (datetime(2000, 1, 1), datetime(2010, 1, 1))
    assert _only("the 1800s", MON)[:2] == (datetime(1800, 1, 1), datetime(1900, 1, 1))
    assert find_times("She's in her 90s.", MON) == []


# --- tense decides the direction


@settings(max_examples=200, deadline=None)
@given(_ANCHORS)
def test_copula_tense_sets_the_direction(anchor: datetime) -> None:
    today = _day(anchor)
    ahead = _only("The recital is on June 9th.", anchor)[0]
    behind = _only("The recital was on June 9th.", anchor)[0]
    assert (ahead.month, ahead.day) == (behind.month, behind.day) == (6, 9)
    assert behind <= today <= ahead and ahead.year - behind.year in (0, 1)
    saturday_ahead = _only("The party is on Saturday.", anchor)[0]
    saturday_behind = _only("The party was on Saturday.", anchor)[0]
    assert saturday_ahead.weekday() == saturday_behind.weekday() == 5
    assert saturday_behind < today < saturday_ahead
    assert saturday_ahead - saturday_behind == timedelta(weeks=2 if today.weekday() == 5 else 1)


def test_local_verb_beats_cue_words_elsewhere_and_since_looks_back() -> None:
    assert _only("I'll tell you: it was on Friday.", MON)[0] == datetime(2023, 5, 5)
    assert _only("I'll tell you about Friday.", MON)[0] == datetime(2023, 5, 12)
    assert _only("I've run since March and I will go on", MON)[:2] == (datetime(2023, 3, 1), MON)
    assert _only("Our anniversary is in March.", MON)[0] == datetime(2024, 3, 1)
    assert _only("Our anniversary was in March.", MON)[0] == datetime(2023, 3, 1)
    assert _only("The recital is on June 9th.", MON, future=False)[0] == datetime(2022, 6, 9)  # forced wins
    assert find_times("I sat next to Mia on Friday", MON)[0].spec.start == datetime(2023, 5, 5)


# --- robustness


_GRAMMAR_TOKENS = st.lists(
    st.one_of(
        st.text(max_size=8),
        st.sampled_from(
            [
                " ",
                "the ",
                "on ",
                "is ",
                "was ",
                "since ",
                "week ",
                "Friday ",
                "March ",
                "summer ",
                "decade",
                "fortnight",
                "before last",
                "after next",
                "early ",
                "mid-",
                "late ",
                "end of ",
                "first half of ",
                "last ",
                "next ",
                "this ",
                "half an hour",
                "and a half ",
                "1.5 ",
                "twenty-five ",
                "years ago",
                "on the 31st",
                "the 3rd ",
                "Christmas",
                " Eve",
                "Easter",
                "Thanksgiving",
                " weekend",
                "Mother's Day",
                "the day after ",
                "the '90s",
                "1900s",
                "second-to-last ",
                " of ",
                "2019",
                "month",
                "year",
                "'s ",
                "will ",
            ]
        ),
    ),
    max_size=25,
).map("".join)


@settings(max_examples=400, deadline=None)
@given(
    _GRAMMAR_TOKENS,
    st.datetimes(min_value=datetime(1, 1, 1), timezones=st.sampled_from([None, UTC, timezone(timedelta(hours=-7))])),
    st.sampled_from([None, True, False]),
)
def test_grammar_rules_never_raise_and_keep_spans_literal(text: str, anchor: datetime, future: bool | None) -> None:
    mentions = find_times(text, anchor, future=future)
    previous_end = 0
    for m in mentions:
        assert text[m.char_start : m.char_end] == m.spec.expression
        assert m.spec.start < m.spec.end and m.spec.start.tzinfo is anchor.tzinfo
        assert m.char_start >= previous_end
        previous_end = m.char_end
    best = resolve_time(text, anchor, future=future)
    assert (best is None) == (not mentions)
