"""Relative time words anchored on the day they were said (answer/said_as.py)."""

from __future__ import annotations

from datetime import date, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sodamem.answer.said_as import anchored_phrase, said_as
from sodamem.ingest.timeparse import find_times
from sodamem.retrieve.pack import ResolvedTime, resolve_times

SAID = "2023-06-07T13:56:00"  # a Wednesday


def resolved(expression: str, said: str = SAID) -> ResolvedTime:
    [time] = resolve_times(expression, said)
    return time


@pytest.mark.parametrize(
    ("expression", "phrase"),
    [
        ("last week", "the week before 7 June 2023"),
        ("Last  Friday", "the Friday before 7 June 2023"),  # case and spacing as they stand in a message
        ("last fri", "the Friday before 7 June 2023"),  # abbreviations spelled out
        ("this past weekend", "the weekend before 7 June 2023"),
        ("next weekend", "the weekend after 7 June 2023"),
        ("this weekend", "the weekend after 7 June 2023"),  # said on a Wednesday: the side the resolver chose
        ("this week", "the week of 7 June 2023"),
        ("two weeks ago", "two weeks before 7 June 2023"),
        ("a few days ago", "a few days before 7 June 2023"),
        ("a couple of days ago", "a couple of days before 7 June 2023"),
        ("in two weeks", "two weeks after 7 June 2023"),
        # words naming one day and calendar names say themselves; vague words and the day itself have no anchor
        ("yesterday", None),
        ("last night", None),
        ("three days ago", None),
        ("in two days", None),
        ("this Friday", "the Friday after 7 June 2023"),  # the side is read from the date, not the word
        ("last month", None),
        ("two years ago", None),
        ("last summer", None),
        ("recently", None),
        ("the other day", None),
        ("today", None),
    ],
)
def test_relative_words_are_anchored_on_the_day_they_were_said(expression: str, phrase: str | None) -> None:
    assert anchored_phrase(resolved(expression), SAID) == phrase


def test_a_weekend_said_on_a_weekend_is_that_weekend() -> None:
    sunday = "2023-06-11T10:00:00"
    assert anchored_phrase(resolved("this weekend", sunday), sunday) == "the weekend of 11 June 2023"


def test_a_date_is_said_with_its_anchored_words_beside_it() -> None:
    friday = resolved("last Friday")
    assert said_as("2 June 2023", friday, SAID) == "2 June 2023 (the Friday before 7 June 2023)"
    assert said_as("May 2023", resolved("last month"), SAID) == "May 2023"
    assert said_as("7 June 2023", None, SAID) == "7 June 2023"


_WAYS = st.sampled_from(["last", "next", "this"])
_WHAT = st.sampled_from(["week", "weekend", "fortnight", "monday", "wednesday", "friday", "sunday"])


@given(st.dates(min_value=date(1990, 1, 1), max_value=date(2090, 1, 1)), _WAYS, _WHAT)
def test_the_phrase_reads_back_as_the_day_said_on_the_side_the_word_lies(day: date, way: str, what: str) -> None:
    said = datetime(day.year, day.month, day.day, 12)
    times = resolve_times(f"{way} {what}", said.isoformat())
    if not times:
        return  # a word the resolver does not read
    [time] = times
    phrase = anchored_phrase(time, said.isoformat())
    if phrase is None:
        return  # "this Wednesday" said on a Wednesday: the day itself
    assert phrase.endswith(f"{day.day} {day:%B %Y}")
    midnight = datetime(day.year, day.month, day.day)
    start, end = datetime.fromisoformat(time.start), datetime.fromisoformat(time.end)
    if " before " in phrase:
        assert end <= midnight + timedelta(hours=6)
    elif " after " in phrase:
        assert start >= midnight
    else:
        assert start <= said < end  # "the week of 7 June 2023" holds the day said
    # the resolver, on any later day, reads the anchor back as a time holding the day said
    [*_, anchor] = find_times(phrase, datetime(2100, 1, 1))
    assert anchor.spec.start <= midnight < anchor.spec.end
