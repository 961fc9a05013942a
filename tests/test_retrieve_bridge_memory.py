"""The bridge tunnel, the near-duplicate discount and the name-free dense query, end to end on a small memory."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sodamem import Memory, Session, Turn
from sodamem.embed.base import Vectors
from sodamem.embed.fake import FakeEmbedder


class Recording(FakeEmbedder):
    """The fake embedder, remembering every text it was asked to embed."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: list[str] = []

    def embed(self, texts: Sequence[str]) -> Vectors:
        self.asked += list(texts)
        return super().embed(texts)


def session(sid: str, day: int, lines: Sequence[tuple[str, str]]) -> Session:
    turns = tuple(Turn(i, who, text, f"{sid}:{i}") for i, (who, text) in enumerate(lines))
    return Session(sid, datetime(2024, 5, day), turns)


HISTORY = [
    session("a", 1, [("Melanie", "I painted a lake sunrise last year."), ("Caroline", "Lovely colours!")]),
    session("b", 2, [("Melanie", "Here is my horse painting."), ("Caroline", "So good.")]),
    session("c", 3, [("Melanie", "We went camping by the lake."), ("Caroline", "Sounds fun.")]),
    session("d", 4, [("Caroline", "I painted a sunset too."), ("Melanie", "Here is my horse painting.")]),
]


def test_the_bridge_tunnel_reaches_turns_near_the_first_evidence_and_explains_it() -> None:
    with Memory(":memory:", embedder=FakeEmbedder()) as memory:
        memory.ingest(HISTORY)
        hits = memory.search(
            "What has Melanie painted?", k=8, preset="default+weight.bridge=0.6+bridge_tail_only=false"
        )
        plain = memory.search("What has Melanie painted?", k=8)
    bridged = [h for h in hits if any(line.startswith("bridge hop 0") for line in h.explain)]
    assert bridged, "some hit should be reached by the bridge tunnel"
    assert all("bridge" in h.tunnels for h in bridged)
    assert not any("bridge" in h.tunnels for h in plain)  # by default only below rank 10, and k is 8


def test_the_near_duplicate_discount_lowers_a_copy_of_a_better_turn() -> None:
    with Memory(":memory:", embedder=FakeEmbedder()) as memory:
        memory.ingest(HISTORY)
        hits = memory.search("horse painting", k=8, preset="default+duplicate_penalty=0.5+duplicate_cosine=0.95")
    copies = [h for h in hits if "horse painting" in h.turn_text]
    assert len(copies) == 2
    second = copies[1]
    assert any(line.startswith("near-duplicate x0.500") for line in second.explain)
    assert not any(line.startswith("near-duplicate") for line in copies[0].explain)


def test_dense_drop_names_embeds_the_question_without_the_speakers_names() -> None:
    embedder = Recording()
    with Memory(":memory:", embedder=embedder) as memory:
        memory.ingest(HISTORY)
        embedder.asked.clear()
        memory.search(
            "What has Melanie painted?", k=3, now=datetime(2024, 6, 1), preset="default+dense_drop_names=false"
        )
        assert "What has painted?" not in embedder.asked
        embedder.asked.clear()
        memory.search("What has Melanie painted?", k=3, now=datetime(2024, 6, 1))  # on by default
        assert embedder.asked == ["What has painted?"]  # the whole question only where a mechanism asks with it
        embedder.asked.clear()
        memory.search("What has Melanie painted?", k=20, now=datetime(2024, 6, 1))  # the bridge feeds ranks 11+
        assert sorted(embedder.asked) == ["What has Melanie painted?", "What has painted?"]
        embedder.asked.clear()
        memory.search("Where is the lake?", k=3)  # no name: one embedding
        assert embedder.asked == ["Where is the lake?"]


def test_the_bridge_in_the_tail_keeps_the_default_head_and_the_tail_settings_reorder_below_it() -> None:
    question = "What has Melanie painted?"
    with Memory(":memory:", embedder=FakeEmbedder()) as memory:
        memory.ingest(HISTORY)
        plain = [h.turn_id for h in memory.search(question, k=8)]
        tail = [
            h.turn_id
            for h in memory.search(question, k=8, preset="default+weight.bridge=0.6+bridge_tail_only=true+tail_head=2")
        ]
        bridged = [
            h.turn_id
            for h in memory.search(question, k=8, preset="default+weight.bridge=0.6+tail_head=2+bridge_tail_only=false")
        ]
        decayed = memory.search(
            question, k=8, preset="default+weight.bridge=0+tail_head=2+tail_pool=8+tail_session_decay=0.5"
        )
    assert tail[:2] == plain[:2]
    assert tail[2:] == [t for t in bridged if t not in plain[:2]][: len(tail) - 2]
    assert [h.turn_id for h in decayed[:2]] == plain[:2]
    assert sorted(h.turn_id for h in decayed) == sorted(plain)
    assert all(any(line.startswith("tail x") for line in h.explain) for h in decayed[2:])


def test_bridge_seeds_from_distinct_sessions_still_reach_turns_beside_the_evidence() -> None:
    preset = "default+weight.bridge=0.6+bridge_tail_only=false+bridge_seeds=2+bridge_distinct_sessions=true"
    with Memory(":memory:", embedder=FakeEmbedder()) as memory:
        memory.ingest(HISTORY)
        hits = memory.search("What has Melanie painted?", k=8, preset=preset)
    assert any("bridge" in h.tunnels for h in hits)


POTTERY = [
    session(
        "p",
        5,
        [
            ("Caroline", "Wow, pottery! What did you make at the pottery class?"),
            ("Melanie", "A blue bowl and a cup for my kids."),
        ],
    ),
    *(session(f"q{i}", 6 + i, [("Melanie", f"The pottery class number {i} was fun.")]) for i in range(6)),
]


def test_answer_pairing_lifts_the_reply_to_an_asking_turn_below_the_head_only() -> None:
    question = "What did Melanie make at the pottery class?"
    with Memory(":memory:", embedder=FakeEmbedder()) as memory:
        memory.ingest(POTTERY)
        plain = memory.search(question, k=8, preset="default+tail_head=2")
        paired = memory.search(question, k=8, preset="default+tail_head=2+answer_pair_share=2.0")
    assert [h.turn_text for h in paired[:2]] == [h.turn_text for h in plain[:2]]
    answer = [h for h in paired if h.turn_text.startswith("A blue bowl")]
    before = (
        [h.turn_text for h in plain].index("A blue bowl and a cup for my kids.")
        if any(h.turn_text.startswith("A blue bowl") for h in plain)
        else len(plain)
    )
    assert answer and any(line.startswith("answer to") for line in answer[0].explain)
    assert [h.turn_text for h in paired].index(answer[0].turn_text) < before


def test_a_tail_tunnel_weight_leaves_the_head_and_short_searches_as_they_were() -> None:
    question = "What has Melanie painted?"
    with Memory(":memory:", embedder=FakeEmbedder()) as memory:
        memory.ingest(HISTORY)
        plain = memory.search(question, k=8, preset="default+tail_head=2")
        tailed = memory.search(question, k=8, preset="default+tail_head=2+tail_tunnel=entity+tail_tunnel_weight=2.0")
        short = memory.search(question, k=2, preset="default+tail_head=2+tail_tunnel=entity+tail_tunnel_weight=2.0")
    assert [h.turn_text for h in tailed[:2]] == [h.turn_text for h in plain[:2]]
    assert [h.turn_text for h in short] == [h.turn_text for h in plain[:2]]
    assert not any("entity" in h.tunnels for h in tailed[:2])
    assert any("entity" in h.tunnels for h in tailed[2:])
