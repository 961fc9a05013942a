"""GraphLookup: the graph tunnel's reads kept across searches, exactly right after adds, supersession, forgets,
entity merges and writes by another connection (every walk compared with one that asks the store afresh)."""

from __future__ import annotations

import tempfile
from datetime import datetime, timedelta
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sodamem import Memory, Session, Turn
from sodamem.retrieve.graph import GraphSettings, graph_hits, walk_facts
from sodamem.retrieve.graph_lookup import GraphLookup
from sodamem.store.facts import link_neighbors
from sodamem.store.protocol import GraphReads

START = datetime(2024, 1, 10, 10)
SAID = (
    "Priya lives in London.",
    "My sister Priya loves climbing.",
    "Priya moved to Leeds last month.",
    "Sam lives in Leeds.",
    "Sam hates spicy food.",
    "I adopted a cat named Luna.",
    "Priya works at Google.",
    "Priya now works at Amazon.",
    "Sam moved to York.",
    "I love spicy food.",
    "I'm cutting down on spicy food.",
    "Luna loves climbing with Sam.",
)
SETTINGS = (
    GraphSettings(statuses=("active",)),
    GraphSettings(statuses=("active", "superseded"), superseded_factor=1.0),
    GraphSettings(statuses=("active", "superseded"), fan_out=2, frontier=3, max_bridges=1, max_facts=5),
)


def walks(reads: GraphReads, memory: Memory, user: str = "default") -> list[object]:
    """Every walk and landing from each entity, each fact, all entities and all facts at once, under SETTINGS."""
    conn = memory.store.conn
    entities = [int(r[0]) for r in conn.execute("SELECT id FROM entities WHERE user = ? ORDER BY id", (user,))]
    facts = [int(r[0]) for r in conn.execute("SELECT id FROM facts WHERE user = ? ORDER BY id", (user,))]
    heads: list[tuple[list[int], list[tuple[int, float]]]] = [([e], []) for e in entities]
    heads += [([], [(f, 1.0)]) for f in facts]
    heads += [(entities, [(f, 1.0 + i % 3) for i, f in enumerate(facts)]), (entities[:2], [(f, 2.0) for f in facts])]
    found: list[object] = []
    for graph in SETTINGS:
        for entity_pks, fact_pks in heads:
            found.append(walk_facts(reads, user, entity_pks=entity_pks, fact_pks=fact_pks, settings=graph))
            found.append(graph_hits(reads, user, entity_pks=entity_pks, fact_pks=fact_pks, settings=graph))
    return found


def assert_kept_walks_are_fresh(memory: Memory, path: Path) -> GraphLookup:
    """The searcher's lookup (handed on from before the last write, where nothing was deleted) walks exactly as
    the store does, and as a store opened afresh does; asked twice (the second time from its memo)."""
    lookup = memory.searcher.graph_lookup()
    with Memory(path, embedder="none") as fresh:
        truth = walks(fresh.store, memory)
    assert walks(memory.store, memory) == truth
    assert walks(lookup, memory) == truth
    assert walks(lookup, memory) == truth
    return lookup


def say(memory: Memory, number: int, text: str, session_id: str = "live") -> None:
    memory.add([{"speaker": "Maya", "text": text, "timestamp": START + timedelta(days=number)}], session_id=session_id)


def test_kept_across_adds_and_supersession_dropped_by_a_forget(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    with Memory(path, embedder="none") as memory:
        turns = tuple(Turn(i, "Maya", text, f"s:{i}") for i, text in enumerate(SAID[:6]))
        memory.ingest([Session("s", START, turns)])
        first = assert_kept_walks_are_fresh(memory, path)
        assert memory.searcher.graph_lookup() is first  # unchanged store: the same lookup
        # "Priya moved to Leeds last month", said after "Priya lives in London", is the newer word
        assert {f.text: f.status for f in memory.facts(status="all")}["Priya lives in Leeds"] == "active"
        say(memory, 40, "Priya moved to York.")  # supersedes "Priya lives in Leeds", read as active before
        statuses = {f.text: f.status for f in memory.facts(status="all")}
        assert statuses["Priya lives in Leeds"] == "superseded" and statuses["Priya lives in York"] == "active"
        second = memory.searcher.graph_lookup()
        assert second is not first and second._users["default"].names  # handed on: nothing was deleted
        assert_kept_walks_are_fresh(memory, path)
        with memory.store.transaction() as conn:  # a NEIGHBOR link between two facts read before
            link_neighbors(
                conn, "default", [(fact_pk(memory, "Sam dislikes spicy food"), fact_pk(memory, "Priya lives in York"))]
            )
        assert_kept_walks_are_fresh(memory, path)
        with Memory(path, embedder="none") as other:  # another connection's add, seen through data_version
            say(other, 41, "Sam moved to Bristol.")
        assert memory.searcher.graph_lookup()._users["default"].names
        assert_kept_walks_are_fresh(memory, path)
        memory.forget(turn_id="live:0")  # "Priya lives in Leeds" is current again
        assert memory.searcher.graph_lookup()._users == {}  # a fact was deleted: nothing is handed on
        assert {f.text: f.status for f in memory.facts(status="all")}["Priya lives in Leeds"] == "active"
        assert_kept_walks_are_fresh(memory, path)
        with Memory(path, embedder="none") as other:  # another connection's forget
            other.forget(fact_id=fact_pk(memory, "Sam lives in Leeds"))
        assert_kept_walks_are_fresh(memory, path)


def test_users_are_kept_apart(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    with Memory(path, embedder="none") as memory:
        memory.ingest([Session("s", START, (Turn(0, "Maya", SAID[0], "s:0"),))])
        memory.ingest([Session("s", START, (Turn(0, "Maya", SAID[2], "s:0"),), user="other")])
        lookup = memory.searcher.graph_lookup()
        for user in ("default", "other", "default"):
            with Memory(path, embedder="none") as fresh:
                assert walks(lookup, memory, user) == walks(fresh.store, memory, user)
        assert set(lookup._users) == {"default", "other"}


def fact_pk(memory: Memory, text: str) -> int:
    row = memory.store.conn.execute("SELECT id FROM facts WHERE text = ?", (text,)).fetchone()
    assert row is not None, text
    return int(row[0])


_STEP = st.one_of(
    st.tuples(st.just("add"), st.sampled_from(SAID), st.sampled_from(["a", "b"])),
    st.tuples(st.just("other add"), st.sampled_from(SAID), st.sampled_from(["a", "c"])),
    st.tuples(st.just("forget turn"), st.integers(0, 20), st.just("")),
    st.tuples(st.just("forget fact"), st.integers(0, 20), st.just("")),
    st.tuples(st.just("neighbors"), st.integers(0, 20), st.just("")),
)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_STEP, min_size=2, max_size=7))
def test_any_history_of_writes_walks_as_a_fresh_store(steps: list[tuple[str, object, str]]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "m.db"
        with Memory(path, embedder="none") as memory:
            for number, (step, value, session_id) in enumerate(steps):
                conn = memory.store.conn
                turns = [str(r[0]) for r in conn.execute("SELECT turn_id FROM turns ORDER BY id")]
                facts = [int(r[0]) for r in conn.execute("SELECT id FROM facts ORDER BY id")]
                if step == "add":
                    say(memory, number, str(value), session_id)
                elif step == "other add":
                    with Memory(path, embedder="none") as other:
                        say(other, number, str(value), session_id)
                elif step == "forget turn" and turns:
                    memory.forget(turn_id=turns[int(str(value)) % len(turns)])
                elif step == "forget fact" and facts:
                    memory.forget(fact_id=facts[int(str(value)) % len(facts)])
                elif step == "neighbors" and len(facts) > 1:
                    at = int(str(value)) % len(facts)
                    with memory.store.transaction() as c:
                        link_neighbors(c, "default", [(facts[at], facts[at - 1])])
                assert_kept_walks_are_fresh(memory, path)
