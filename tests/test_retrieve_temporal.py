"""The soft temporal bonus: full inside the window, decaying outside, never negative, never a filter."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sodamem.model import TimeGranularity, TimeSpec
from sodamem.retrieve.query import analyze_query
from sodamem.retrieve.temporal import (
    bonus_for,
    calendar_unit,
    distance_days,
    evidence_interval,
    parse_iso,
    temporal_bonus,
    window_decay_days,
)

JULY = TimeSpec(datetime(2023, 7, 1), datetime(2023, 8, 1), TimeGranularity.MONTH, "in July")


def test_two_months_ago_finds_a_three_month_old_event() -> None:
    now = datetime(2023, 9, 15, 12)
    window = analyze_query("What did Caroline do two months ago?", now).window
    assert window is not None
    three_months_old = temporal_bonus(datetime(2023, 6, 15, 10), None, window)
    year_off = temporal_bonus(datetime(2022, 9, 15, 10), None, window)
    inside = temporal_bonus(datetime(2023, 7, 20), None, window)
    assert inside == 1.0
    assert 0.3 < three_months_old < inside
    assert 0.0 <= year_off < 0.01 < three_months_old


def test_overlap_gets_the_full_weight() -> None:
    assert temporal_bonus(datetime(2023, 7, 1), None, JULY, weight=2.5) == 2.5  # the start is inside
    assert temporal_bonus(datetime(2023, 6, 1), datetime(2023, 7, 2), JULY) == 1.0  # an interval reaching in
    assert temporal_bonus(datetime(2023, 6, 1), datetime(2023, 9, 1), JULY) == 1.0  # an interval around it


def test_decay_outside() -> None:
    before = temporal_bonus(datetime(2023, 6, 1), None, JULY, decay_days=30)
    assert before == pytest.approx(math.exp(-30 / 30))
    after = temporal_bonus(datetime(2023, 8, 11), None, JULY, decay_days=10)
    assert after == pytest.approx(math.exp(-10 / 10))
    interval_before = temporal_bonus(datetime(2023, 5, 1), datetime(2023, 6, 1), JULY)
    assert interval_before == pytest.approx(math.exp(-1))  # distance from the interval's end


def test_bonus_decreases_with_distance() -> None:
    bonuses = [temporal_bonus(datetime(2023, 8, 1) + timedelta(days=d), None, JULY) for d in (1, 5, 30, 90, 365)]
    assert bonuses == sorted(bonuses, reverse=True)
    assert all(b > 0 for b in bonuses)


def test_never_negative() -> None:
    assert temporal_bonus(datetime(2023, 7, 5), None, JULY, weight=-1.0) == 0.0
    assert temporal_bonus(datetime(2023, 7, 5), None, JULY, weight=0.0) == 0.0
    assert temporal_bonus(datetime(2020, 1, 1), None, JULY, decay_days=0) == 0.0
    assert temporal_bonus(datetime(2023, 7, 5), None, JULY, decay_days=0) == 1.0


def test_mixed_naive_and_aware_times_compare_as_wall_clock() -> None:
    assert temporal_bonus(datetime(2023, 7, 5, tzinfo=UTC), None, JULY) == 1.0
    assert distance_days(datetime(2023, 8, 3, tzinfo=UTC), None, JULY) == pytest.approx(2.0)


@given(
    st.datetimes(min_value=datetime(1990, 1, 1), max_value=datetime(2050, 1, 1)),
    st.integers(min_value=0, max_value=400),
    st.floats(min_value=-5, max_value=5, allow_nan=False),
    st.floats(min_value=0, max_value=400, allow_nan=False),
)
def test_bonus_is_bounded(start: datetime, length_days: int, weight: float, decay: float) -> None:
    end = start + timedelta(days=length_days) if length_days else None
    bonus = temporal_bonus(start, end, JULY, weight=weight, decay_days=decay)
    assert 0.0 <= bonus <= max(weight, 0.0)


def test_parse_iso() -> None:
    assert parse_iso("2023-06-09T14:00:00") == datetime(2023, 6, 9, 14)
    assert parse_iso("2023-06-09T14:00:00Z") == datetime(2023, 6, 9, 14, tzinfo=UTC)
    assert parse_iso("") is None
    assert parse_iso(None) is None
    assert parse_iso("yesterday") is None


def test_evidence_interval_prefers_occurred() -> None:
    assert evidence_interval("2023-06-08", "2023-06-09", "2023-06-09T14:00") == (
        datetime(2023, 6, 8),
        datetime(2023, 6, 9),
    )
    assert evidence_interval(None, None, "2023-06-09T14:00") == (datetime(2023, 6, 9, 14), None)
    assert evidence_interval("2023-06-08", "2023-06-01", None) == (datetime(2023, 6, 8), None)  # a bad end
    assert evidence_interval("garbage", None, None) is None


def test_bonus_for_stored_text() -> None:
    assert bonus_for("2023-07-10T00:00:00", "2023-07-11T00:00:00", "2023-09-01T10:00:00", JULY) == 1.0
    assert bonus_for(None, None, "2023-07-10T10:00:00", JULY, weight=0.5) == 0.5
    assert bonus_for(None, None, None, JULY) == 0.0


def test_window_decay_days() -> None:
    assert window_decay_days(JULY) == 31.0
    assert window_decay_days(JULY, minimum=60) == 60.0
    year = TimeSpec(datetime(2022, 1, 1), datetime(2023, 1, 1), TimeGranularity.YEAR)
    assert window_decay_days(year) == 365.0
    vague = TimeSpec(datetime(2023, 8, 1), datetime(2023, 8, 31), TimeGranularity.VAGUE)
    assert window_decay_days(vague) == 60.0


@pytest.mark.parametrize(
    ("first", "after", "unit"),
    [
        (datetime(2023, 5, 1), datetime(2023, 6, 1), "month"),
        (datetime(2023, 12, 1), datetime(2024, 1, 1), "month"),
        (datetime(2023, 1, 1), datetime(2024, 1, 1), "year"),
        (datetime(2023, 5, 1), datetime(2023, 7, 1), None),
        (datetime(2023, 5, 2), datetime(2023, 6, 1), None),
        (datetime(2023, 3, 1), datetime(2024, 4, 1), None),
    ],
)
def test_calendar_unit(first: datetime, after: datetime, unit: str | None) -> None:
    assert calendar_unit(first, after) == unit
