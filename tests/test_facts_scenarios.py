"""The four failure modes SodaMem exists to fix, as dialogues with expected facts (real rules extractor)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from sodamem import Memory, Session, Turn
from sodamem.records import FactRecord


def session(session_id: str, when: str, *user_lines: str, speaker: str = "Maya") -> Session:
    turns = []
    for line in user_lines:
        turns.append(Turn(len(turns), speaker, line, f"{session_id}:{len(turns)}"))
        turns.append(Turn(len(turns), "assistant", "Noted.", f"{session_id}:{len(turns)}"))
    return Session(session_id, datetime.fromisoformat(when), tuple(turns))


def by_predicate(facts: list[FactRecord], predicate: str) -> list[FactRecord]:
    return [f for f in facts if f.predicate == predicate]


def test_currency_newer_statements_supersede_and_history_stays(memory_location: str) -> None:
    with Memory(memory_location, embedder="none") as memory:
        memory.ingest(
            [
                session("march", "2024-03-01T19:00:00", "I love spicy food.", "I live in Leeds."),
                session("may", "2024-05-10T19:00:00", "I'm cutting down on spicy food.", "I moved to Manchester."),
                session("june", "2024-06-02T19:00:00", "I live in Manchester now."),
            ]
        )
        active = memory.facts()
        likes = by_predicate(active, "likes")
        assert [(f.object, f.polarity) for f in likes] == [("spicy food", False)]
        lives = by_predicate(active, "lives_in")
        assert [f.object for f in lives] == ["Manchester"]
        chain = memory.history(lives[0].id)
        # "I moved to Manchester" (May) replaces Leeds; "I live in Manchester now" (June) restates it.
        assert [f.object for f in chain] == ["Leeds", "Manchester", "Manchester"]
        assert [f.status for f in chain] == ["superseded", "superseded", "active"]
        assert chain[0].valid_to == chain[1].valid_from == "2024-05-10T19:00:00"
        outgoing = [[link.type for link in f.links if link.direction == "out"] for f in chain]
        assert outgoing == [[], ["SUPERSEDES"], ["UPDATES"]]
        flip = memory.history(likes[0].id)
        assert [f.polarity for f in flip] == [True, False]
        assert any(link.type == "CONTRADICTS" and link.direction == "out" for link in flip[-1].links)
        # As of April, Leeds still held and spicy food was still loved.
        april = memory.facts(as_of=datetime(2024, 4, 1))
        assert {f.object for f in by_predicate(april, "lives_in")} == {"Leeds"}
        assert [f.polarity for f in by_predicate(april, "likes")] == [True]


def test_relative_dates_resolve_against_the_session_time(memory_location: str) -> None:
    with Memory(memory_location, embedder="none") as memory:
        memory.ingest(
            [
                session(
                    "s", "2024-05-08T13:56:00", "I visited Lisbon last weekend.", "I adopted a puppy two months ago."
                ),
            ]
        )
        facts = memory.facts()
        visited = next(f for f in facts if f.predicate == "visited")
        assert (visited.occurred_start, visited.occurred_end) == ("2024-05-04T00:00:00", "2024-05-06T00:00:00")
        adopted = next(f for f in facts if f.predicate == "adopted")
        assert adopted.occurred_start == "2024-03-01T00:00:00" and adopted.occurred_granularity == "month"


def test_a_time_is_read_among_its_quotes_words(memory_location: str) -> None:
    """ "in July" alone is the last July; in "he's moving to Leeds in July", said in May, it is this one."""
    with Memory(memory_location, embedder="none") as memory:
        memory.ingest([session("s", "2024-05-08T13:56:00", "My brother Tom told me he's moving to Leeds in July.")])
        moved = next(f for f in memory.facts() if f.predicate == "moved")
        assert (moved.subject, moved.object, moved.modality) == ("Tom", "Leeds", "reported")
        assert (moved.occurred_start, moved.occurred_expression) == ("2024-07-01T00:00:00", "in July")


def test_every_fact_cites_the_literal_words(memory_location: str) -> None:
    history = Path(__file__).resolve().parents[1] / "src" / "sodamem" / "examples" / "history.jsonl"
    with Memory(memory_location, embedder="none") as memory:
        memory.ingest(history)
        facts = memory.facts(status="all")
        assert len(facts) >= 20
        for fact in facts:
            assert fact.sources, fact
            for source in fact.sources:
                turn = memory.turn(source.turn_id)
                assert turn.text[source.char_start : source.char_end] == source.quote


def test_association_follows_entities_across_sessions(memory_location: str) -> None:
    with Memory(memory_location, embedder="none") as memory:
        memory.ingest(
            [
                session("a", "2024-03-01T10:00:00", "My sister Priya loves climbing."),
                session("b", "2024-03-20T10:00:00", "Priya moved to Bristol last month."),
            ]
        )
        about_priya = memory.facts(subject="Priya")
        assert {f.predicate for f in about_priya} >= {"likes", "moved"}
        assert memory.facts(subject="Maya's sister") == about_priya  # the alias reaches the same entity
        sessions = {s.session_id for f in about_priya for s in f.sources}
        assert sessions == {"a", "b"}


def test_replacing_a_session_recomputes_its_slots(memory_location: str) -> None:
    with Memory(memory_location, embedder="none") as memory:
        memory.ingest(
            [
                session("a", "2024-03-01T10:00:00", "I live in Leeds."),
                session("b", "2024-04-01T10:00:00", "I live in York."),
            ]
        )
        memory.ingest([session("b", "2024-04-01T10:00:00", "I like tea.")], replace=True)
        lives = by_predicate(memory.facts(), "lives_in")
        assert [(f.object, f.status, f.valid_to) for f in lives] == [("Leeds", "active", None)]


LINES = [
    "I live in Leeds.",
    "I live in York.",
    "I live in Bath.",
    "I love spicy food.",
    "I'm cutting down on spicy food.",
    "I work at Northwind Bank.",
    "I work at Lumen Health.",
    "I'm vegetarian.",
    "I'm pescatarian now.",
]


def _state(memory: Memory) -> tuple[set[tuple[str, str | None, bool, str, str | None]], set[tuple[str, str, str]]]:
    facts = memory.facts(status="all")
    key = {f.id: (f.sources[0].session_id, f.sources[0].quote) for f in facts}
    states = {(f.predicate, f.object, f.polarity, f.status, f.valid_to) for f in facts}
    chains = {(link.type, *key[f.id], *key[link.fact_id]) for f in facts for link in f.links if link.direction == "out"}
    return states, chains  # type: ignore[return-value]


@settings(max_examples=25, deadline=None)
@given(
    st.lists(st.tuples(st.integers(1, 28), st.sampled_from(LINES)), min_size=2, max_size=6, unique_by=lambda x: x[0]),
    st.randoms(use_true_random=False),
)
def test_ingestion_order_does_not_matter(plan: list[tuple[int, str]], rng: object) -> None:
    sessions = [session(f"s{day:02d}", f"2024-03-{day:02d}T12:00:00", line) for day, line in plan]
    shuffled = list(sessions)
    rng.shuffle(shuffled)  # type: ignore[attr-defined]
    with Memory(":memory:", embedder="none") as in_order, Memory(":memory:", embedder="none") as any_order:
        in_order.ingest(sessions)
        for one in shuffled:  # one session at a time, as separate ingests
            any_order.ingest([one])
        assert _state(in_order) == _state(any_order)
