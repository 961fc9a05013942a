"""Pseudo-relevance feedback: the words chosen from the first evidence, and its effect on a list question."""

from __future__ import annotations

import sqlite3
from datetime import datetime
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sodamem import Memory, Session, Turn
from sodamem.retrieve.feedback import candidate_terms, expansion_terms, index_stem
from sodamem.store import fts


def test_index_stems_are_sqlite_porter_tokens() -> None:
    words = "playing games tournaments generously organized hiking happiness running skies agreed".split()
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE f USING fts5(t, tokenize='porter unicode61 remove_diacritics 2')")
    conn.execute("CREATE VIRTUAL TABLE v USING fts5vocab(f, 'row')")
    conn.executemany("INSERT INTO f VALUES (?)", [(w,) for w in words])
    assert sorted(r[0] for r in conn.execute("SELECT term FROM v")) == sorted(index_stem(w) for w in words)


def test_candidate_terms_drop_stopwords_short_words_numbers_and_skipped_stems() -> None:
    terms = candidate_terms(["I won 3 tournaments at the Valorant finals, Nate!", "Tournament day"], {"nate", "final"})
    assert terms == {"won": "won", "tournament": "tournaments", "valor": "valorant", "dai": "day"}


def test_expansion_terms_by_hand() -> None:
    feedback = [
        ("I won the video game tournament in Boston", 1.0),
        ("Practising for the next tournament with my team", 0.5),
        ("My team flew to Boston", 0.25),
        ("Pizza night", 0.2),
    ]
    doc_freq = {"tournament": 3, "boston": 9, "team": 40, "won": 30, "pizza": 1}
    # tournament: (1 + 0.5) * log(101 / 4); boston: 1.25 * log(101 / 10); team: 0.75 * log(101 / 41); pizza: 1 turn
    words = expansion_terms(feedback, {"video", "game"}, doc_freq, 100, n_terms=3)
    assert words == ["tournament", "boston", "team"]
    assert expansion_terms(feedback, set(), doc_freq, 100, n_terms=3, min_docs=1)[:1] == ["tournament"]
    assert "pizza" in expansion_terms(feedback, set(), doc_freq, 100, n_terms=10, min_docs=1)
    assert expansion_terms(feedback, set(), {}, 100, n_terms=3) == []  # words the index lacks are never chosen
    assert expansion_terms([], set(), doc_freq, 100, n_terms=3) == []
    assert expansion_terms(feedback, set(), doc_freq, 100, n_terms=0) == []


@given(
    st.lists(st.tuples(st.text("abcde xyz", min_size=0, max_size=40), st.floats(0.01, 1.0)), min_size=0, max_size=6),
    st.integers(1, 5),
)
def test_expansion_terms_are_distinct_known_and_never_skipped(feedback: list[tuple[str, float]], n: int) -> None:
    known = {index_stem(w): 1 for text, _ in feedback for w in text.split()}
    words = expansion_terms(feedback, {"abc"}, known, 10, n_terms=n, min_docs=1)
    assert len(words) <= n and len(set(map(index_stem, words))) == len(words)
    assert all(index_stem(w) in known and index_stem(w) != index_stem("abc") for w in words)


def test_turn_term_counts_come_from_the_fts_index(tmp_path: Path) -> None:
    turns = (Turn(0, "Nate", "I won the tournament.", "s:0"), Turn(1, "Joanna", "Another tournament? Wow.", "s:1"))
    with Memory(tmp_path / "m.db", embedder="none") as memory:
        memory.ingest([Session("s", datetime(2024, 5, 1), turns)])
        memory.ingest([Session("other", datetime(2024, 5, 1), turns)], user="someone-else")
        counts, total = memory.store.turn_term_counts(memory.user, ["tournament", "won", "absent"])
        assert counts == {"tournament": 2, "won": 1} and total == 2  # the user's own counts, not everyone's
        assert memory.store.turn_term_counts(memory.user, ["absent", "won"]) == ({"won": 1}, 2)  # asked again
        memory.add("I won again, the tournament was easy.", session_id="s2", speaker="Nate")  # kept counts go
        assert memory.store.turn_term_counts(memory.user, ["tournament", "won", "easi"]) == (
            {"tournament": 3, "won": 2, "easi": 1},
            3,
        )
        with Memory(tmp_path / "m.db", embedder="none") as other:  # another connection's commit counts too
            other.forget(session_id="s2")
        assert memory.store.turn_term_counts(memory.user, ["tournament", "won"]) == ({"tournament": 2, "won": 1}, 2)


@pytest.fixture
def games_memory(tmp_path: Path) -> Memory:
    said = [
        "I won my first video game tournament last week!",
        "Practising hard for the next video game tournament.",
        "Another tournament win this weekend, my third video game trophy.",
        "I was in the final of a big Valorant tournament and I won!",
        "We had pizza after the movie.",
        "My turtles love the new tank.",
    ]
    sessions = [
        Session(
            f"s{i}", datetime(2024, 1, 1 + i), (Turn(0, "Nate", text, f"s{i}:0"), Turn(1, "Jo", "Nice!", f"s{i}:1"))
        )
        for i, text in enumerate(said)
    ]
    memory = Memory(tmp_path / "g.db", embedder="none")
    memory.ingest(sessions)
    return memory


def test_feedback_reaches_a_list_answer_that_shares_no_word_with_the_question(games_memory: Memory) -> None:
    question = "Which video games has Nate played?"  # a list question: it gathers items
    with games_memory:
        plain = [h.turn_id for h in games_memory.search(question, k=10, preset="no-prf")]
        fed = games_memory.search(question, k=10, preset="default", now=datetime(2024, 2, 1))
    # the Valorant turn says neither "video" nor "games": only the feedback word "tournament" reaches it
    assert "s3:0" not in plain
    assert "s3:0" in [h.turn_id for h in fed]
    assert "bm25_prf" in next(h for h in fed if h.turn_id == "s3:0").tunnels


def test_other_questions_get_feedback_too_unless_it_is_kept_for_gathering(games_memory: Memory) -> None:
    question = "When did Nate win a video game tournament?"  # asks for one thing: not a list question
    now = datetime(2024, 2, 1)
    with games_memory:
        plain = games_memory.search(question, k=8, preset="no-prf", now=now)
        fed = games_memory.search(question, k=8, now=now)
        gathering_only = games_memory.search(question, k=8, preset="default+feedback_gathering_only=true", now=now)
    assert all("bm25_prf" not in h.tunnels for h in plain)
    assert any("bm25_prf" in h.tunnels for h in fed)  # the second ranking is the answer, feedback included
    assert [h.turn_id for h in gathering_only] == [h.turn_id for h in plain]
    scores = [h.score for h in fed]
    assert scores == sorted(scores, reverse=True)


def test_expansion_terms_take_the_words_the_caller_already_found() -> None:
    feedback = [
        ("I won my first video game tournament", 1.0),
        ("I practise for the next tournament with my team", 0.7),
        ("Our team won the Valorant tournament", 0.5),
    ]
    skip = ["game"]
    doc_freq = {index_stem(w): 3 for text, _ in feedback for w in text.lower().split()}
    found = [candidate_terms([text], skip) for text, _ in feedback]
    expected = expansion_terms(feedback, skip, doc_freq, 100, n_terms=4)
    assert expected  # the case has words two feedback turns share ("tournament", "team", "won")
    assert expansion_terms(feedback, skip, doc_freq, 100, n_terms=4, terms=found) == expected


def test_kept_term_counts_follow_adds_and_forgets_exactly(tmp_path: Path) -> None:
    """After each write (this connection's or another's: adds to this user and to another, forgets), the counts
    kept across writes equal those a fresh count of the index gives, and the kept memo survives adds."""
    texts = [
        "I won the tournament!",
        "Running shoes for the tournament.",
        "We ran to the shops; the shops were shut.",
        "Wow, another win?",
        "Café crème at the Tournament café",
    ]
    stems = ["tournament", "won", "win", "run", "ran", "shop", "shut", "cafe", "creme", "absent"]
    with Memory(tmp_path / "m.db", embedder="none") as memory, Memory(tmp_path / "m.db", embedder="none") as other:
        memory.add(texts[0], session_id="a", speaker="Nate")
        memory.store.turn_term_counts(memory.user, stems[:3])  # a memo with some stems known, others not
        memo = memory.store._term_counts[memory.user]
        for step, text in enumerate(texts * 2):
            writer = memory if step % 2 else other
            writer.add(text, session_id=f"s{step % 3}", speaker="Joanna")
            other.add(text, session_id="x", speaker="Joanna", user="someone-else")
            if step == 6:
                other.forget(session_id="s1")
            kept = memory.store.turn_term_counts(memory.user, stems)
            fresh = fts.term_counts(memory.store.conn, memory.user, stems)
            total = memory.store.conn.execute("SELECT COUNT(*) FROM turns WHERE user = ?", (memory.user,)).fetchone()
            assert kept == (fresh, total[0]), step
            assert (memory.store._term_counts[memory.user] is memo) == (step < 6), step  # kept until the forget
