"""Times said with different offsets are ordered as instants: forget-before, supersession, facts(as_of=)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from hypothesis import given
from hypothesis import strategies as st

from sodamem import Memory, instants

LONDON = ZoneInfo("Europe/London")
NEW_YORK = timezone(timedelta(hours=-5))
TOKYO = timezone(timedelta(hours=9))


@given(
    st.datetimes(timezones=st.sampled_from([UTC, NEW_YORK, TOKYO, timezone(timedelta(hours=14))])),
    st.datetimes(timezones=st.sampled_from([UTC, NEW_YORK, TOKYO, timezone(timedelta(hours=-12))])),
)
def test_sort_key_and_before_follow_the_instants_whatever_the_offsets(a: datetime, b: datetime) -> None:
    assert (instants.sort_key(a.isoformat()) < instants.sort_key(b.isoformat())) == (a < b)
    assert instants.before(a.isoformat(), b) == (a < b)
    assert instants.at_or_before(a.isoformat(), b) == (a <= b)


def test_naive_times_compare_as_wall_clocks_and_junk_is_never_before() -> None:
    assert instants.before("2026-01-01T10:00:00", datetime(2026, 1, 1, 11, tzinfo=TOKYO))
    assert not instants.before("not a time", datetime(2026, 1, 1))
    assert instants.sort_key("2026-01-01T10:00:00Z") == datetime(2026, 1, 1, 10)


def test_the_hour_the_clocks_go_back_keeps_its_order() -> None:
    """01:50 BST (00:50Z), then 01:10 GMT (01:10Z): Rome, said twenty minutes later, is where the user lives."""
    first = datetime(2026, 10, 25, 1, 50, tzinfo=LONDON)
    second = datetime(2026, 10, 25, 1, 10, tzinfo=LONDON, fold=1)
    assert first.isoformat() > second.isoformat() and first.astimezone(UTC) < second.astimezone(UTC)  # text misorders
    with Memory(":memory:", embedder="none") as memory:
        memory.add("I live in Paris.", session_id="s", timestamp=first)
        memory.add("I moved to Rome, I live in Rome now.", session_id="s", timestamp=second)
        (active,) = [f for f in memory.facts() if f.predicate == "lives_in"]
        assert active.text == "user lives in Rome"
        (paris,) = [f for f in memory.facts(status="superseded") if f.predicate == "lives_in"]
        assert paris.valid_to == active.valid_from
        between = datetime(2026, 10, 25, 1, 0, tzinfo=UTC)  # after Paris was said, before Rome
        assert [f.text for f in memory.facts(as_of=between) if f.predicate == "lives_in"] == ["user lives in Paris"]
        assert [f.text for f in memory.history(active.id) if f.predicate == "lives_in"] == [
            "user lives in Paris", "user lives in Rome"
        ]  # fmt: skip
        report = memory.forget(before=between)
        assert [t.text for t in memory.session("s").turns] == ["I moved to Rome, I live in Rome now."]
        assert report.turns == ["s/s:0"]


def test_forget_before_takes_the_turns_said_earlier_as_instants() -> None:
    noon = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
    with Memory(":memory:", embedder="none") as memory:
        memory.add("Said at 13:00Z in New York.", session_id="ny", timestamp=datetime(2026, 3, 1, 8, tzinfo=NEW_YORK))
        memory.add("Said at 11:00Z in Tokyo.", session_id="tokyo", timestamp=datetime(2026, 3, 1, 20, tzinfo=TOKYO))
        report = memory.forget(before=noon)
        assert report.sessions == ["tokyo"]
        assert [s.session_id for s in memory.sessions()] == ["ny"]


def test_times_within_a_century_of_the_calendars_ends_are_out_of_range_and_still_sort() -> None:
    assert instants.out_of_range(datetime(2026, 1, 1, tzinfo=TOKYO)) is None
    for edge in (datetime(1, 1, 1, tzinfo=timezone(timedelta(hours=14))), datetime(9999, 12, 31), datetime(50, 1, 1)):
        assert "out of range" in (instants.out_of_range(edge) or "")
    early, late = datetime(1, 1, 1, tzinfo=timezone(timedelta(hours=14))), datetime(9999, 12, 31, 23, tzinfo=NEW_YORK)
    assert instants.sort_key(early.isoformat()) == datetime.min and instants.sort_key(late.isoformat()) == datetime.max


def test_times_at_the_calendars_ends_can_be_asked_about() -> None:
    """facts(as_of=) and forget(before=) at the ends of the calendar answer, and never overflow (was a 500)."""
    with Memory(":memory:", embedder="none") as memory:
        memory.add("I live in Leeds.", session_id="s", timestamp=datetime(2026, 3, 1))
        last = datetime(9999, 12, 31, 23, tzinfo=timezone(timedelta(hours=-12)))
        assert [f.text for f in memory.facts(as_of=datetime(9999, 12, 31))] == ["user lives in Leeds"]
        assert [f.text for f in memory.facts(as_of=last)] == ["user lives in Leeds"]
        assert memory.facts(as_of=datetime(1, 1, 1, tzinfo=timezone(timedelta(hours=14)))) == []
        assert memory.forget(before=last, dry_run=True).sessions == ["s"]
