"""A memory seen at a past time (``Memory.at``): searches, facts and answers as they stood then."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

from sodamem import InputError, Memory, NotFoundError
from sodamem.answer.ask import ask
from sodamem.ingest.timestamps import parse_as_of
from sodamem.retrieve.cutoff import said_by
from tests.test_bad_input import run_cli
from tests.test_live_add import EXAMPLE

MARCH_5 = datetime(2026, 3, 5)  # after s01 (2 March: Leeds, Northwind Bank), before the move to Manchester (April)


@pytest.fixture
def memory(memory_location: str) -> Iterator[Memory]:
    """The example history, on each backend (PostgreSQL in the slow tier)."""
    with Memory(memory_location, embedder="none") as mem:
        mem.ingest(EXAMPLE)
        yield mem


def test_said_by_compares_instants_or_wall_clocks() -> None:
    assert said_by("2026-03-02T19:05:00", MARCH_5) and not said_by("2026-03-05T00:00:01", MARCH_5)
    assert said_by("2026-03-05T00:00:00", MARCH_5)  # said at the very time: known
    assert said_by("2026-03-05T01:00:00+02:00", datetime(2026, 3, 5, tzinfo=UTC))  # 23:00 UTC the day before
    assert not said_by("2026-03-05T01:00:00", datetime(2026, 3, 5, tzinfo=timezone(timedelta(hours=5))))
    assert not said_by(None, MARCH_5) and not said_by("someday", MARCH_5)


def test_answers_and_facts_are_those_of_the_time(memory: Memory) -> None:
    then = memory.at(MARCH_5)
    answer = ask(then, "Where does Maya live now?", offline=True)
    assert answer.answer == "Leeds" and [c.quote for c in answer.citations] == ["I live in Leeds"]
    assert ask(memory, "Where does Maya live now?", offline=True).answer == "Manchester (previously Leeds)"
    held = {f.text for f in then.facts()}
    assert "Maya lives in Leeds" in held and not any("Manchester" in text for text in held)
    assert all(said_by(f.mentioned_at, MARCH_5) for f in then.facts(status="all"))
    leeds = next(f for f in memory.facts(status="all") if f.text == "Maya lives in Leeds")
    manchester = next(f for f in memory.facts(status="all") if f.text.startswith("Maya lives in Manchester"))
    assert leeds.status == "superseded" and [f.id for f in then.history(leeds.id)] == [leeds.id]
    seen = then.fact(leeds.id)  # as it stood then: active, no end, no link to the April fact
    assert (seen.status, seen.valid_to) == ("active", None) and manchester.id not in {x.fact_id for x in seen.links}
    assert leeds.id not in {f.id for f in then.facts(status="superseded")}
    with pytest.raises(NotFoundError):
        then.history(manchester.id)
    with pytest.raises(NotFoundError):
        then.fact(manchester.id)
    pack = then.evidence("Where does Maya live?", budget_tokens=500)
    leeds_items = [i for i in pack.items if i.kind == "fact" and i.text == "Maya lives in Leeds"]
    assert leeds_items and all(i.status == "active" for i in leeds_items)  # replaced only in April


def test_a_fact_replaced_later_by_any_slot_link_is_active_then(memory: Memory) -> None:
    """The diet facts are replaced by UPDATES and CONTRADICTS links, not SUPERSEDES: on 20 March each fact said by
    then that only a later one replaced is active, with no end."""
    then = memory.at(datetime(2026, 3, 20))
    replaced = [f for f in memory.facts(status="superseded") if said_by(f.mentioned_at, datetime(2026, 3, 20))]
    kinds = {link.type for f in replaced for link in f.links if link.direction == "in"}
    assert {"UPDATES", "CONTRADICTS"} & kinds
    for fact in replaced:
        newer = [x.fact_id for x in fact.links if x.direction == "in"]
        if newer and not any(said_by(memory.fact(n).mentioned_at, datetime(2026, 3, 20)) for n in newer):
            seen = then.fact(fact.id)
            assert (seen.status, seen.valid_to) == ("active", None), fact.text
    assert any(f.predicate == "diet" for f in then.facts(status="active"))


def test_searches_read_only_what_was_said_by_then_and_keep_k(memory: Memory) -> None:
    then = memory.at(MARCH_5)
    hits = then.search("Manchester Leeds work dog", k=5)
    assert len(hits) == 5 and all(said_by(h.timestamp, MARCH_5) for h in hits)
    assert any(not said_by(h.timestamp, MARCH_5) for h in memory.search("Manchester Leeds work dog", k=5))
    first = min(s.timestamp for s in memory.sessions())
    assert [s.timestamp for s in then.sessions()] == [
        s.timestamp for s in memory.sessions() if s.timestamp <= "2026-03-05"
    ]
    assert first == then.sessions()[0].timestamp
    later = next(s for s in memory.sessions() if s.timestamp > "2026-03-05")
    with pytest.raises(NotFoundError):
        then.session(later.session_id)
    with pytest.raises(NotFoundError):
        then.turn(memory.session(later.session_id).turns[0].turn_id)


def test_a_hits_context_holds_no_turn_said_later(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", embedder="none") as memory:
        memory.add("I live in Oslo and I love skiing.", session_id="chat", timestamp=datetime(2026, 5, 1, 10))
        memory.add(
            "Oslo is great for skiing.", session_id="chat", speaker="assistant", timestamp=datetime(2026, 5, 1, 10, 1)
        )
        memory.add("I moved to Bergen, code PINEAPPLE.", session_id="chat", timestamp=datetime(2026, 6, 1))
        hits = memory.at(datetime(2026, 5, 15)).search("Oslo skiing", k=5)
        assert hits and all("PINEAPPLE" not in c.text for h in hits for c in h.context)
        assert any("PINEAPPLE" in c.text for h in memory.search("Oslo skiing", k=5) for c in h.context)


def test_a_view_is_read_only_and_leaves_the_memory_as_it_is(memory: Memory) -> None:
    then = memory.at(MARCH_5)
    for write in (
        lambda: then.add("I moved to York.", session_id="s99"),
        lambda: then.forget(session_id="s01", dry_run=True),
        lambda: then.export(),
    ):
        with pytest.raises(InputError, match="seen at 2026-03-05T00:00:00"):
            write()
    assert memory.cutoff is None and then.store is memory.store
    assert then.at(datetime(2027, 1, 1)).cutoff == MARCH_5  # a view never sees past its own time
    with memory.at(MARCH_5) as closed:
        closed.search("Leeds", k=1)
    assert memory.search("Leeds", k=1)  # closing a view leaves the memory's store open
    with pytest.raises(InputError, match="field 'when': expected a datetime, got str"):
        memory.at("2026-03-05")  # type: ignore[arg-type]
    assert len(memory.search("Manchester", k=20)) > len(then.search("Manchester", k=20))


def test_cli_ask_and_search_as_of(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    base = ["--db", str(tmp_path / "m.db"), "--embedder", "none"]
    assert run_cli([*base, "ingest", str(EXAMPLE)]) in (0, None)
    capsys.readouterr()
    assert run_cli([*base, "ask", "Where does Maya live now?", "--as-of", "2026-03-05", "--json"]) in (0, None)
    assert json.loads(capsys.readouterr().out)["answer"] == "Leeds"
    assert run_cli([*base, "search", "Manchester", "--as-of", "early March"]) == 2
    assert "--as-of" in capsys.readouterr().err
    # A bare date is the end of that day: the trip told at 21:15 on 12 March is known "as of 2026-03-12".
    trip = "When is the birthday trip to Lisbon?"
    assert run_cli([*base, "ask", trip, "--as-of", "2026-03-12", "--json"]) in (0, None)
    assert json.loads(capsys.readouterr().out)["answer"] == "28 March 2026"
    assert run_cli([*base, "ask", trip, "--as-of", "2026-03-12T12:00:00", "--json"]) in (0, None)
    assert json.loads(capsys.readouterr().out)["abstained"]


def test_a_bare_as_of_date_is_the_end_of_that_day() -> None:
    assert parse_as_of("2026-03-12") == parse_as_of("2026/03/12") == datetime(2026, 3, 12, 23, 59, 59, 999999)
    assert parse_as_of("2026-03-12T08:00:00+01:00") == datetime(2026, 3, 12, 8, tzinfo=timezone(timedelta(hours=1)))
    assert parse_as_of(None) is None
    assert parse_as_of("2026-03-12T12") == parse_as_of("20260312T120000") == datetime(2026, 3, 12, 12)
    assert parse_as_of("2026/03/12 (Thu)") == parse_as_of("20260312") == datetime(2026, 3, 12, 23, 59, 59, 999999)
    assert parse_as_of("2026-03-12 12") == datetime(2026, 3, 12, 12)


def test_what_was_told_only_later_is_not_in_memory_then(memory: Memory) -> None:
    """The trip to Lisbon is told on 12 March: on 10 March it is unknown (no turn of it ranks or seeds another
    tunnel, and Lisbon is no known name), on 20 March it is dated and cited."""
    question = "When is the birthday trip to Lisbon?"
    assert ask(memory.at(datetime(2026, 3, 10)), question, offline=True).abstained
    assert memory.at(datetime(2026, 3, 10)).search("Lisbon", k=5, mode="bm25") == []
    later = ask(memory.at(datetime(2026, 3, 20)), question, offline=True)
    assert later.answer == "28 March 2026" and "on the 28th of March" in [c.quote for c in later.citations]
