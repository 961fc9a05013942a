"""The store's retrieval reads (store/retrieval_reads.py, store/graph_reads.py): answers, and scoping by user."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

import pytest

from sodamem import Memory, Session, Turn
from sodamem.store.facts import add_alias
from sodamem.store.rows import FactTurn, TurnText


def _session(sid: str, texts: list[str], user: str = "") -> Session:
    turns = tuple(Turn(i, "assistant" if i % 2 else "user", text, f"{sid}:{i}") for i, text in enumerate(texts))
    return Session(sid, datetime(2024, 5, 1, 10), turns, user=user)


@pytest.fixture
def memory(memory_location: str) -> Iterator[Memory]:
    mem = Memory(memory_location, embedder="none", extractor="rules")
    mem.ingest([_session("s0", ["Priya lives in London.", "Lovely city."])])
    mem.ingest([_session("o0", ["Priya lives in Paris.", "Nice."], user="other")])
    yield mem
    mem.close()


def _fact(memory: Memory, user: str) -> int:
    facts = memory.facts(user=user)
    assert len(facts) == 1
    return facts[0].id


def _turn(memory: Memory, user: str, turn_id: str) -> int:
    return int(memory.store.turns_by_turn_id(user, turn_id)[0].turn_pk)


def test_fact_reads_answer_for_their_user_only(memory: Memory) -> None:
    store, mine, theirs = memory.store, _fact(memory, "default"), _fact(memory, "other")
    turn = _turn(memory, "default", "s0:0")
    assert store.source_turns("default", [mine, theirs]) == {mine: turn}
    assert store.derived_turns("default", [mine, theirs]) == [FactTurn(mine, turn)]
    assert store.fact_statuses("default", [mine, theirs], ("active",)) == {mine: "active"}
    assert store.fact_statuses("default", [mine], ("superseded",)) == {}
    assert [row.rowid for row in store.search_facts("default", '"london"', 10, ("active",))] == [mine]
    assert store.search_facts("default", '"paris"', 10, ("active",)) == []
    assert store.search_facts("default", '"london"', 10, ("superseded",)) == []


def test_turn_texts(memory: Memory) -> None:
    mine, theirs = _turn(memory, "default", "s0:0"), _turn(memory, "other", "o0:0")
    assert memory.store.turn_texts("default", [mine, theirs]) == {
        mine: TurnText("Priya lives in London.", None, "user")
    }


def test_turns_said_by_takes_every_turn_or_the_latest_of_one_users_speakers(memory: Memory) -> None:
    memory.ingest([_session("s1", ["I moved to Leeds.", "Great.", "And I got a cat.", "Lovely!"])])
    store = memory.store
    said = [_turn(memory, "default", t) for t in ("s0:0", "s1:0", "s1:2")]
    assert store.turns_said_by("default", ["user"]) == said  # id order, the other user's "o0:0" never among them
    assert store.turns_said_by("default", ["user"], latest=2) == said[1:]
    assert store.turns_said_by("default", ["user"], latest=10) == said
    assert store.turns_said_by("default", ["user", "assistant"], latest=1) == [_turn(memory, "default", "s1:3")]
    assert store.turns_said_by("default", ["user"], latest=0) == []
    assert store.turns_said_by("default", [], latest=5) == []
    assert store.turns_said_by("other", ["user"], latest=5) == [_turn(memory, "other", "o0:0")]


def test_speaker_entities(memory: Memory) -> None:
    store = memory.store
    assert store.speaker_entities("default", ["user", "assistant"]) == {}
    with store.transaction() as conn:
        add_alias(conn, "default", "user", "Maya")
    maya = store.speaker_entities("default", ["user", "assistant", ""])
    assert list(maya) == ["user"]
    assert store.entity_names("default", list(maya.values())) == {maya["user"]: "Maya"}
    assert store.speaker_entities("other", ["user"]) == {}


def test_graph_reads_of_an_entity(memory: Memory) -> None:
    store, fact = memory.store, _fact(memory, "default")
    mentioned = {m.entity_pk for m in store.entities_mentioned("default", [fact])}
    names = store.entity_names("default", sorted(mentioned))
    assert sorted(names.values()) == ["London", "Priya"]
    assert store.mention_counts("default", sorted(mentioned), ("active",)) == dict.fromkeys(mentioned, 1)
    assert store.facts_mentioning("default", sorted(mentioned), ("active",), 5) == {
        e: [(fact, "active")] for e in sorted(mentioned)
    }
    assert store.entity_names("other", sorted(mentioned)) == {}
    assert store.fact_links_from("default", [fact], ("active", "superseded")) == []
