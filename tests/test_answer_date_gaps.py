"""The span between two of the asker's dated events (``answer/date_gaps.py``): each event dated as its own
when-question, the difference in the unit asked, with both days cited."""

from __future__ import annotations

from datetime import datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sodamem import Memory
from sodamem.answer.date_gaps import Gap, asks_a_gap, gap_text

from .scenario_histories import ABSTAIN, History, answered, check_answer, made_memories


@pytest.fixture(scope="module")
def scenario_memories():  # type: ignore[no-untyped-def]
    yield from made_memories()


def test_a_gap_question_is_two_when_questions() -> None:
    gap = asks_a_gap("How many days after arriving in Stavanger did I start at Havbrink?")
    assert gap == Gap("days", "after", "When did I arriving in Stavanger?", "When did I start at Havbrink?")
    gap = asks_a_gap("How many weeks before the wedding did we fly out?")
    assert gap == Gap("weeks", "before", "When was the wedding?", "When did we fly out?")
    assert asks_a_gap("How long after moving did I start?") == Gap(
        "days", "after", "When did I moving?", "When did I start?"
    )
    assert asks_a_gap("How many days did I spend in Rome?") is None
    assert asks_a_gap("When did I start at Havbrink?") is None


def test_the_gap_in_the_unit_asked() -> None:
    after = Gap("days", "after", "", "")
    assert gap_text(after, datetime(2026, 6, 27), datetime(2026, 7, 1)) == "4 days (27 June 2026 to 1 July 2026)"
    assert gap_text(after, datetime(2026, 7, 1), datetime(2026, 6, 27)) is None  # the later event came first
    assert gap_text(Gap("weeks", "after", "", ""), datetime(2026, 6, 1), datetime(2026, 6, 15)).startswith("2 weeks")
    assert gap_text(Gap("months", "after", "", ""), datetime(2026, 1, 31), datetime(2026, 3, 1)).startswith("1 month ")
    before = Gap("days", "before", "", "")  # "How many days before the wedding did we fly?": wedding first
    assert (
        gap_text(before, datetime(2026, 9, 12), datetime(2026, 9, 10))
        == "2 days (10 September 2026 to 12 September 2026)"
    )


@given(st.dates(), st.integers(min_value=0, max_value=4000))
def test_days_after_are_the_calendar_difference(start: object, days: int) -> None:
    first = datetime.combine(start, datetime.min.time())  # type: ignore[arg-type]
    try:
        second = first.fromordinal(first.toordinal() + days)
    except ValueError:
        return  # past year 9999
    text = gap_text(Gap("days", "after", "", ""), first, second)
    assert text is not None and text.split()[0] == str(days)


MOVE_AND_JOB: History = [
    ("2026-06-25T20:00", "job offer. service manager. harbourmaster marine, lunenburg. start aug 3. took it."),
    ("2026-06-25T20:04", "yes. moving to lunenburg july 25. no wait. 26th. truck's booked sunday."),
]
CASES = [
    (
        "days-between",
        MOVE_AND_JOB,
        "2026-10-16",
        "How many days after moving to Lunenburg did I start the new job?",
        "8 days (26 July 2026 to 3 August 2026)",
    ),
    ("one-undated", MOVE_AND_JOB, "2026-10-16", "How many days after my wedding did I start the new job?", ABSTAIN),
]


@pytest.mark.parametrize(("history", "now", "question", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_answer(scenario_memories: dict[int, Memory], history: History, now: str, question: str, expected: str) -> None:
    check_answer(*answered(scenario_memories, history, now, question), expected)
