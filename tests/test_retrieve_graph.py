"""The graph/entity tunnel over a memory built by the rules extractor: reach, hops, decay, link types, scoping."""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from datetime import datetime

import pytest

from sodamem import Memory, Session, Turn
from sodamem.retrieve.graph import GraphSettings, Hit, facts_to_turns, graph_hits, walk_facts
from sodamem.store.facts import link_neighbors
from sodamem.store.sqlite import SQLiteStore

SESSIONS = {
    "s0": ("2024-01-10T10:00:00", ["Priya lives in London.", "Lovely city."]),
    "s1": ("2024-03-01T10:00:00", ["My sister Priya loves climbing.", "Nice!"]),
    "s2": ("2024-04-01T10:00:00", ["Priya moved to Leeds last month.", "Cool."]),
    "s3": ("2024-04-10T10:00:00", ["Sam lives in Leeds.", "Small world."]),
    "s4": ("2024-04-20T10:00:00", ["Sam hates spicy food.", "Noted."]),
    "s5": ("2024-05-01T10:00:00", ["I adopted a cat named Luna.", "Cute!"]),
    "s6": ("2024-05-02T10:00:00", ["The weather was awful today.", "Sorry to hear."]),
}


def session(sid: str, when: str, texts: list[str], user: str = "") -> Session:
    turns = tuple(Turn(i, "assistant" if i % 2 else "Maya", text, f"{sid}:{i}") for i, text in enumerate(texts))
    return Session(sid, datetime.fromisoformat(when), turns, user=user)


@pytest.fixture
def memory(memory_location: str) -> Iterator[Memory]:
    mem = Memory(memory_location, embedder="none", extractor="rules")
    mem.ingest([session(sid, when, texts) for sid, (when, texts) in SESSIONS.items()])
    mem.ingest([session("o1", "2024-03-01T10:00:00", ["Priya lives in Paris.", "Ok."], user="other")])
    yield mem
    mem.close()


def entity(memory: Memory, name: str, user: str = "default") -> int:
    row = memory.store.conn.execute("SELECT id FROM entities WHERE user = ? AND name = ?", (user, name)).fetchone()
    assert row is not None, name
    return int(row[0])


def fact(memory: Memory, text: str, user: str = "default") -> int:
    row = memory.store.conn.execute("SELECT id FROM facts WHERE user = ? AND text = ?", (user, text)).fetchone()
    assert row is not None, text
    return int(row[0])


def degree(memory: Memory, name: str) -> int:
    sql = "SELECT count(DISTINCT src_id) FROM links WHERE type = 'MENTIONS' AND dst_kind = 'entity' AND dst_id = ?"
    return int(memory.store.conn.execute(sql, (entity(memory, name),)).fetchone()[0])


def turn_ids(memory: Memory, hits: Sequence[Hit], user: str = "default") -> list[str]:
    turns = memory.store.turns_by_pk(user, [h.turn_pk for h in hits])
    return [turns[h.turn_pk].turn_id for h in hits]


def by_turn(memory: Memory, hits: Sequence[Hit]) -> dict[str, Hit]:
    return dict(zip(turn_ids(memory, hits), hits, strict=True))


def from_priya(memory: Memory, settings: GraphSettings | None = None) -> list[Hit]:
    return graph_hits(memory.store, "default", entity_pks=[entity(memory, "Priya")], settings=settings)


def test_entity_reaches_its_turns_and_not_unrelated_ones(memory: Memory) -> None:
    direct = turn_ids(memory, from_priya(memory, GraphSettings(max_hops=0)))
    assert direct == ["s1:0", "s2:0", "s0:0"]  # the superseded London fact lands last, at half weight
    reached = turn_ids(memory, from_priya(memory))
    assert reached[:3] == direct  # expansion only ever adds below the direct hits
    assert "s6:0" not in reached  # no fact, no entity: the graph cannot reach it
    assert not any(t.endswith(":1") for t in reached)  # the assistant's replies hold no facts


def test_hop_limits_and_traces(memory: Memory) -> None:
    reach = {h: set(turn_ids(memory, from_priya(memory, GraphSettings(max_hops=h)))) for h in (0, 1, 2, 3)}
    assert reach[0] == {"s0:0", "s1:0", "s2:0"}
    # Priya -> "Priya moved to Leeds" -> Leeds -> "Sam lives in Leeds";
    # Priya -> "Maya's sister is Priya" -> Maya -> "Maya adopted a cat named Luna".
    assert reach[1] == reach[0] | {"s3:0", "s5:0"}
    assert reach[2] == reach[1] | {"s4:0"}  # ... -> Sam -> "Sam dislikes spicy food"
    assert reach[3] == reach[2]
    hits = by_turn(memory, from_priya(memory))
    assert [hits[t].hop for t in ("s2:0", "s3:0", "s4:0")] == [0, 1, 2]
    assert hits["s2:0"].via == ("entity:Priya", f"fact:{hits['s2:0'].fact_pk}", "hop:0")
    assert hits["s3:0"].via[0] == "entity:Priya" and "via:Leeds" in hits["s3:0"].via
    assert hits["s4:0"].via[-3:] == ("via:Sam", f"fact:{fact(memory, 'Sam dislikes spicy food')}", "hop:2")


def test_scores_by_hand(memory: Memory) -> None:
    hits = by_turn(memory, from_priya(memory))
    assert hits["s2:0"].score == pytest.approx(1.0)  # MENTIONS weight 1; Priya's 5 facts are within fan_out
    assert hits["s0:0"].score == pytest.approx(0.5)  # superseded_factor
    # A bridge through Leeds (3 facts) is damped by 1/sqrt(3 - 1) and decays by 0.5.
    leeds = 1.0 / math.sqrt(degree(memory, "Leeds") - 1) * 0.5
    assert degree(memory, "Leeds") == 3
    assert hits["s3:0"].score == pytest.approx(leeds)
    assert hits["s4:0"].score == pytest.approx(leeds / math.sqrt(degree(memory, "Sam") - 1) * 0.5)
    slower = by_turn(memory, from_priya(memory, GraphSettings(hop_decay=0.25)))
    assert slower["s2:0"].score == pytest.approx(1.0)
    assert slower["s3:0"].score == pytest.approx(leeds / 2)
    assert slower["s4:0"].score == pytest.approx(hits["s4:0"].score / 4)


def test_link_weights_and_fan_out(memory: Memory) -> None:
    no_mentions = GraphSettings(link_weights={"MENTIONS": 0.0, "DERIVED_FROM": 1.0})
    assert from_priya(memory, no_mentions) == []
    half_landing = by_turn(memory, from_priya(memory, GraphSettings(link_weights={"MENTIONS": 1, "DERIVED_FROM": 0.5})))
    assert half_landing["s2:0"].score == pytest.approx(0.5)
    assert from_priya(memory, GraphSettings(link_weights={"MENTIONS": 1.0})) == []  # no DERIVED_FROM: no landing
    # One fact per entity, the most recent active one; Priya's 5 facts damp it by sqrt(1/5).
    one = from_priya(memory, GraphSettings(fan_out=1, max_hops=0))
    assert turn_ids(memory, one) == ["s2:0"]
    assert one[0].score == pytest.approx(math.sqrt(1 / 5))


def test_head_facts_and_slot_links(memory: Memory) -> None:
    leeds = fact(memory, "Priya lives in Leeds")
    london = fact(memory, "Priya lives in London")
    facts = walk_facts(memory.store, "default", entity_pks=[], fact_pks=[(leeds, 8.0)])
    assert (facts[0].fact_pk, facts[0].score, facts[0].hop) == (leeds, 1.0, 0)  # scores normalised to the best
    older = next(f for f in facts if f.fact_pk == london)
    assert older.hop == 1 and older.status == "superseded" and "SUPERSEDES" in older.via
    # SUPERSEDES 0.8 * decay 0.5 * superseded 0.5, plus the bridge through Priya (5 facts): 1/2 * 0.5 * 0.5.
    assert older.score == pytest.approx(0.2 + 0.125)
    hits = facts_to_turns(memory.store, "default", facts)
    assert turn_ids(memory, hits)[0] == "s2:0"
    assert hits[0].via == ("fact:" + str(leeds), "hop:0")
    lower = walk_facts(memory.store, "default", entity_pks=[], fact_pks=[(leeds, 8.0), (london, 2.0)])
    assert {f.fact_pk: f.score for f in lower}[london] == pytest.approx(0.25 * 0.5)  # its own head score, halved


def test_neighbor_links_are_walked_both_ways(memory: Memory) -> None:
    luna = fact(memory, "Maya adopted a cat named Luna")
    spicy = fact(memory, "Sam dislikes spicy food")
    with memory.store.transaction() as c:
        link_neighbors(c, "default", [(spicy, luna)])
    facts = walk_facts(memory.store, "default", entity_pks=[], fact_pks=[(luna, 1.0)], settings=GraphSettings())
    reached = {f.fact_pk: f for f in facts}
    assert reached[spicy].hop == 1 and reached[spicy].via[-2:] == ("NEIGHBOR", f"fact:{spicy}")
    assert reached[spicy].score == pytest.approx(0.6 * 0.5)


def test_invalid_facts_are_never_walked(memory: Memory) -> None:
    moved = fact(memory, "Priya moved to Leeds")
    lives = fact(memory, "Priya lives in Leeds")
    memory.store.conn.execute("UPDATE facts SET status = 'invalid' WHERE id IN (?, ?)", (moved, lives))
    reached = set(turn_ids(memory, from_priya(memory)))
    assert "s2:0" not in reached and "s3:0" not in reached  # the Leeds bridge went with them
    with pytest.raises(ValueError):
        GraphSettings(statuses=("active", "invalid"))


def test_scoped_by_user(memory: Memory) -> None:
    theirs = entity(memory, "Priya", user="other")
    assert graph_hits(memory.store, "default", entity_pks=[]) == []
    assert graph_hits(memory.store, "default", entity_pks=[10_000]) == []
    assert graph_hits(memory.store, "default", entity_pks=[theirs]) == []
    other_fact = fact(memory, "Priya lives in Paris", user="other")
    assert walk_facts(memory.store, "default", entity_pks=[], fact_pks=[(other_fact, 1.0)]) == []
    hits = graph_hits(memory.store, "other", entity_pks=[theirs, entity(memory, "Priya")])
    assert turn_ids(memory, hits, user="other") == ["o1:0"]


def test_two_head_entities_add_up(memory: Memory) -> None:
    heads = [entity(memory, "Priya"), entity(memory, "Leeds")]
    hits = by_turn(memory, graph_hits(memory.store, "default", entity_pks=heads, settings=GraphSettings()))
    assert hits["s2:0"].score == pytest.approx(2.0)  # its facts name both heads
    assert hits["s3:0"].score == pytest.approx(1.0) and hits["s3:0"].hop == 0


def test_work_is_bounded(memory: Memory) -> None:
    if not isinstance(memory.store, SQLiteStore):
        pytest.skip("counts statements through SQLite's trace callback")
    priya = entity(memory, "Priya")
    statements: list[str] = []
    memory.store.conn.set_trace_callback(statements.append)
    try:
        graph_hits(memory.store, "default", entity_pks=[priya], settings=GraphSettings(max_hops=2))
    finally:
        memory.store.conn.set_trace_callback(None)
    # Head names, degrees, facts; per hop: two link reads, mentions, degrees, bridge names, bridge facts; landing.
    assert len(statements) == 3 + 2 * 6 + 1
    assert all("user = 'default'" in s for s in statements)  # every statement is scoped (bound values shown)
