"""Pronouns through the public API: facts the rules read through "he"/"she"/"they"/"his"/"her"/"their", and the
offline reader answering about relatives ("Where does my brother live?") with the words that name them cited."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

import pytest

from sodamem import Memory, Session, Turn
from sodamem.answer.offline import answer_offline
from sodamem.answer.types import Answer

NOW = datetime(2024, 6, 1)


def chat(memory: Memory, session_id: str, *turns: str | tuple[str, str]) -> None:
    """Store one session; a bare string is said by the user, a pair is (speaker, text)."""
    said = [("user", t) if isinstance(t, str) else t for t in turns]
    memory.ingest(
        [
            Session(
                session_id,
                datetime(2024, 5, 1, 19),
                tuple(Turn(i, who, text, f"{session_id}:{i}") for i, (who, text) in enumerate(said)),
            )
        ]
    )


@pytest.fixture()
def memory() -> Iterator[Memory]:
    with Memory(":memory:", embedder="fake") as mem:
        yield mem


def ask(memory: Memory, question: str) -> Answer:
    answer = answer_offline(memory, question, now=NOW)
    for c in answer.citations:  # every citation is a literal span of its turn
        turn = memory.turn(c.turn_id, session_id=c.session_id)
        assert turn.text[c.char_start : c.char_end] == c.quote
    return answer


def quotes(answer: Answer) -> list[str]:
    return [c.quote for c in answer.citations]


def facts_of(memory: Memory, predicate: str) -> list[tuple[str, str | None]]:
    return [(f.subject, f.object) for f in memory.facts() if f.predicate == predicate]


def test_he_after_my_brother_tom_answers_where_my_brother_lives(memory: Memory) -> None:
    chat(memory, "s1", "I live in Manchester. My brother Tom came over. He lives in Leeds now.", ("assistant", "Nice!"))
    answer = ask(memory, "Where does my brother live?")
    assert answer.answer == "Leeds"
    assert quotes(answer) == ["My brother Tom", "He lives in Leeds now"]
    by_name = ask(memory, "Where does Tom live?")
    assert by_name.answer == "Leeds" and quotes(by_name) == ["My brother Tom", "He lives in Leeds now"]
    assert ask(memory, "Where do I live?").answer == "Manchester"


def test_she_after_a_role_answers_what_my_aunt_does(memory: Memory) -> None:
    chat(memory, "s1", "My aunt is such a kind person. She works as a nurse.", ("assistant", "Lovely."))
    answer = ask(memory, "What does my aunt do?")
    assert answer.answer == "nurse"
    assert quotes(answer) == ["My aunt", "She works as a nurse"]


def test_my_sister_moved_to_paris_and_she_loves_it(memory: Memory) -> None:
    chat(memory, "s1", "My sister moved to Paris last year. She loves it there.", ("assistant", "Wow."))
    answer = ask(memory, "Where does my sister live?")
    assert answer.answer == "Paris"
    assert quotes(answer) == ["My sister moved to Paris last year"]
    assert facts_of(memory, "moved") == [("user's sister", "Paris")]


def test_she_across_adjacent_turns_of_the_user(memory: Memory) -> None:
    chat(memory, "s1", "My boss Priya is great.", "She lives in Bristol.", ("assistant", "Cool."))
    answer = ask(memory, "Where does my boss live?")
    assert answer.answer == "Bristol"
    assert quotes(answer) == ["My boss Priya", "She lives in Bristol"]
    assert {c.turn_index for c in answer.citations} == {0, 1}


def test_she_along_a_chain_of_sentences_and_turns(memory: Memory) -> None:
    chat(memory, "s1", "My sister Anna visited.", "She stayed a week. She lives in York.", ("assistant", "Nice."))
    answer = ask(memory, "Where does my sister live?")
    assert answer.answer == "York"
    assert quotes(answer) == ["My sister Anna", "She lives in York"]


def test_they_after_my_parents(memory: Memory) -> None:
    chat(memory, "s1", "My parents are retired. They live in Valencia.", ("assistant", "Sunny!"))
    answer = ask(memory, "Where do my parents live?")
    assert answer.answer == "Valencia"
    assert quotes(answer) == ["My parents", "They live in Valencia"]


def test_his_wife_is_toms_wife(memory: Memory) -> None:
    chat(memory, "s1", "My brother Tom came over. His wife Anna works as a teacher.", ("assistant", "Nice."))
    assert ("Tom", "Anna") in facts_of(memory, "wife")
    answer = ask(memory, "What does Tom's wife do?")
    assert answer.answer == "teacher"
    # "His wife Anna" names her; the words naming "his" are cited with it
    assert quotes(answer) == ["My brother Tom", "His wife Anna", "His wife Anna works as a teacher"]


def test_her_husband_is_priyas_husband(memory: Memory) -> None:
    chat(memory, "s1", "My friend Priya called. Her husband works as a pilot.", ("assistant", "Oh!"))
    answer = ask(memory, "What does Priya's husband do?")
    assert answer.answer == "pilot"
    assert quotes(answer) == ["My friend Priya", "Her husband works as a pilot"]


def test_their_dog_is_my_grandparents_dog(memory: Memory) -> None:
    chat(memory, "s1", "My grandparents came for lunch. Their dog Rex loves the beach.", ("assistant", "Cute."))
    assert ("user's grandparents", "Rex") in facts_of(memory, "dog")
    assert ("Rex", "the beach") in facts_of(memory, "likes")


def test_no_fact_when_another_speaker_talks_in_between(memory: Memory) -> None:
    chat(memory, "s1", "My brother Tom came over.", ("assistant", "How is he?"), "He lives in Leeds now.")
    assert facts_of(memory, "lives_in") == []
    answer = ask(memory, "Where does my brother live?")
    assert not any(c.id.startswith("F") for c in answer.citations)  # no fact: no state answer


def test_she_reaches_over_an_assistants_reply_to_the_users_own_words(memory: Memory) -> None:
    """An assistant's reply between two of the user's turns does not end the user's story; a name it says is read
    too, and one it says that could be meant as well stops the pronoun (precision over recall)."""
    chat(
        memory, "s1", "My sister Priya says hi.", ("assistant", "How lovely! What is she up to?"), "She lives in Rome."
    )
    assert facts_of(memory, "lives_in") == []  # the assistant's own "she" competes
    chat(memory, "s2", "My brother Tom came over.", ("assistant", "Nice! What did you do?"), "He lives in Leeds now.")
    assert facts_of(memory, "lives_in") == [("Tom", "Leeds")]
    chat(memory, "s3", "My dad Mark came over.", ("assistant", "Did Sam come too?"), "He lives in York now.")
    assert ("Mark", "York") not in facts_of(memory, "lives_in")  # Sam could be meant


def test_no_fact_when_two_men_could_be_meant(memory: Memory) -> None:
    chat(memory, "s1", "My brother and my dad came over. He lives in Leeds now.", ("assistant", "Nice."))
    assert facts_of(memory, "lives_in") == []


def test_no_fact_for_they_after_one_person(memory: Memory) -> None:
    chat(memory, "s1", "My boss called. They live in Leeds.", ("assistant", "Ok."))
    assert facts_of(memory, "lives_in") == []


def test_the_state_reader_never_gives_my_own_home_for_my_brothers(memory: Memory) -> None:
    chat(memory, "s1", "I live in Manchester. My brother Tom came over.", ("assistant", "Nice."))
    answer = ask(memory, "Where does my brother live?")
    # no fact says where the brother lives: the user's own lives_in fact is not the answer (the sentence reader may
    # still read a sentence, but cites no fact)
    assert not any(c.id.startswith("F") for c in answer.citations)
    assert ask(memory, "Where do I live?").citations[0].id.startswith("F")
