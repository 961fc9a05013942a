"""Speaker focus: which speakers a question names, the bonus it gives, and its effect on the memory's ranking."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sodamem import Memory, Session, Turn
from sodamem.retrieve.query import analyze_query
from sodamem.retrieve.speaker import combine_bonuses, named_speakers, speaker_bonus


def test_named_speakers_fold_case_and_possessives() -> None:
    speakers = {"Caroline", "Melanie", "user"}
    assert named_speakers("What did caroline's mother give her?", speakers) == {"Caroline"}
    assert named_speakers("What do Caroline and Melanie both like?", speakers) == {"Caroline", "Melanie"}
    assert named_speakers("What did she paint?", speakers) == frozenset()


def test_any_word_of_a_speaker_name_counts_but_not_a_prefix() -> None:
    assert named_speakers("Where does Snow live?", {"Jon Snow"}) == {"Jon Snow"}
    assert named_speakers("Where does Jonathan live?", {"Jon"}) == frozenset()


def test_stopword_speaker_names_are_never_named() -> None:
    assert named_speakers("What did you tell me about Rome?", {"me", "You", "Maya"}) == frozenset()
    assert named_speakers("What did Will cook?", {"Will", "Maya"}) == {"Will"}


def test_first_and_second_person_name_the_user_and_assistant_roles() -> None:
    roles = {"user", "assistant"}
    assert named_speakers("Where did I park my car?", roles) == {"user"}
    assert named_speakers("What did you suggest for dinner?", roles) == {"assistant"}
    assert named_speakers("What did you tell me about Rome?", roles) == roles  # both: no focus
    assert named_speakers("Where did I park?", {"User", "Assistant"}) == {"User"}
    assert named_speakers("Where did I park?", {"Maya", "Sam"}) == frozenset()  # names, not roles: no mapping
    assert named_speakers("Where does the user live?", roles) == {"user"}


def test_a_first_person_question_finds_the_user_s_own_words(tmp_path: Path) -> None:
    turns = (
        Turn(0, "assistant", "Where to park? Park at the station.", "p:0"),
        Turn(1, "user", "Thanks! In the end I parked on level 5 of the big garage behind the old market hall.", "p:1"),
        Turn(2, "assistant", "Level 5 has the covered spots, good choice.", "p:2"),
    )
    with Memory(tmp_path / "m.db", embedder="fake") as memory:
        memory.ingest([Session("p", datetime(2024, 5, 1), turns)])
        assert memory.search("Where did I park?", k=1)[0].turn_id == "p:1"
        # the focus is what puts the user's turn first: without it the assistant's short "Park at ..." wins
        assert memory.search("Where did I park?", k=1, preset="no-speaker")[0].turn_id != "p:1"


def test_bonus_only_when_the_focus_tells_turns_apart() -> None:
    speaker_of = {1: "Ann", 2: "Bob", 3: "Ann"}
    assert speaker_bonus(speaker_of, frozenset({"Ann"}), 1.0) == {1: 1.0, 3: 1.0}
    assert speaker_bonus(speaker_of, frozenset({"Ann", "Bob"}), 1.0) == {}  # names everyone: no signal
    assert speaker_bonus(speaker_of, frozenset(), 1.0) == {}
    assert speaker_bonus(speaker_of, frozenset({"Ann"}), 0.0) == {}


def test_combined_bonuses_multiply_their_factors() -> None:
    combined = combine_bonuses({1: 1.0, 2: 0.5}, {1: 0.5, 3: -0.5})
    assert combined == pytest.approx({1: 2.0, 2: 0.5, 3: -0.5})  # 2 x 1.5 = 3 -> +2


@given(
    st.dictionaries(st.integers(0, 5), st.floats(-0.9, 3.0)), st.dictionaries(st.integers(0, 5), st.floats(-0.9, 3.0))
)
def test_combining_is_order_independent(a: dict[int, float], b: dict[int, float]) -> None:
    assert combine_bonuses(a, b) == pytest.approx(combine_bonuses(b, a))


@pytest.mark.parametrize(
    "question",
    [
        "Which cities has John been to?",
        "How many games has John won?",
        "What do Jon and Gina both like?",
        "What kinds of books does Maya read?",
        "What hobbies do they have in common?",
    ],
)
def test_gathering_questions(question: str) -> None:
    assert analyze_query(question, datetime(2024, 1, 1)).gathers


@pytest.mark.parametrize(
    "question", ["What is John's favourite city?", "Where does Maya live?", "What was the name of his dog?"]
)
def test_single_item_questions(question: str) -> None:
    assert not analyze_query(question, datetime(2024, 1, 1)).gathers


def test_the_named_speaker_s_own_words_come_first(tmp_path: Path) -> None:
    turns = (
        Turn(0, "Bob", "I adopted a dog called Rex last spring.", "s:0"),
        Turn(1, "Ann", "I adopted a cat called Mochi, a dog would be too much.", "s:1"),
        Turn(2, "Bob", "Nice, pets are great company.", "s:2"),
    )
    with Memory(tmp_path / "m.db", embedder="fake") as memory:
        memory.ingest([Session("s", datetime(2024, 5, 1), turns)])
        focused = memory.search("Which pet did Ann adopt, a dog?", k=3)
        plain = memory.search("Which pet did Ann adopt, a dog?", k=3, preset="no-speaker")
    assert focused[0].turn_id == "s:1"
    assert any(line.startswith("bonus") for line in focused[0].explain)
    assert not any(line.startswith("bonus") for h in plain for line in h.explain)


def test_a_speaker_named_by_alias_is_focused_and_the_name_is_not_a_search_word(tmp_path: Path) -> None:
    turns = (
        Turn(0, "user", "Hi! I'm Maya.", "a:0"),
        Turn(1, "assistant", "Nice to meet you, Maya! Any leaving drinks planned?", "a:1"),
        Turn(2, "user", "Daniel organised the leaving drinks at the pub.", "a:2"),
        Turn(3, "assistant", "Maya, the drinks sound fun. Who organised the leaving cake?", "a:3"),
    )
    with Memory(tmp_path / "m.db", embedder="fake") as memory:
        memory.ingest([Session("a", datetime(2024, 5, 1), turns)])
        assert memory.store.speakers(memory.user) == {"user", "assistant"}
        hits = memory.search("Who organised Maya's leaving drinks?", k=4)
        assert hits[0].turn_id == "a:2"
        # "Maya" named the speaker "user" through the alias the user gave: the user's turns get the focus bonus
        assert any("bonus" in line for line in hits[0].explain)
        assert all("bonus" not in line for h in hits if h.speaker == "assistant" for line in h.explain)
