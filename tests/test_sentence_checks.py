"""What a sentence must say to answer a question at all (``answer/sentence_checks.py``)."""

from __future__ import annotations

import pytest

from sodamem.answer.sentence_checks import (
    asks_a_duration,
    asks_an_age,
    ends_at_a_subject,
    is_kin,
    names_someone_new,
    says_a_duration,
    says_a_number,
    says_a_place,
    speaks_of_a_third_person,
    stems_of,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("My sister Marta is getting married on June 7th in Krakow.", True),
        ("And I started working at the BBC the day before yesterday.", True),
        ("I cycle home every day.", True),
        ("Mum's visit was lovely. She stayed for a week.", False),
        ("My mum is coming to visit on the 2nd of February.", False),
        ("We met in May.", False),
        ("Sam's bringing their cat Marmalade.", False),
        ("Sam got engaged to his girlfriend Leah!", False),
        ("I met my husband Dave in college.", True),
    ],
)
def test_a_place_is_said_after_a_preposition(text: str, expected: bool) -> None:
    assert says_a_place(text) is expected


def test_the_subject_follows_the_auxiliary_not_a_possessor() -> None:
    question = "Where does Joost work?"
    assert ends_at_a_subject(question[: question.index("Joost")])
    question = "Who was the flower girl at Marta's wedding?"
    assert not ends_at_a_subject(question[: question.index("Marta")])
    assert ends_at_a_subject("Where does my ")


def test_names_ages_and_people() -> None:
    asked = stems_of("Who was the flower girl at Marta's wedding?")
    assert names_someone_new("Ola was the flower girl.", asked)
    assert not names_someone_new("Marta's wedding was beautiful.", asked)
    assert not names_someone_new("I loved it.", asked)
    assert asks_an_age("How old is my brother?") and not asks_an_age("How long is the flight?")
    assert says_a_number("Ava just turned seven.") and not says_a_number("Sam is visiting next weekend.")
    assert is_kin("my mum") and not is_kin("dogs")
    assert speaks_of_a_third_person("She got a job in Rotterdam.")
    assert not speaks_of_a_third_person("I'm still at Fernhill.")


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("How long was I at Saltbush?", True),
        ("For how long did you live there?", True),
        ("How long ago did I move?", False),
    ],
)
def test_a_duration_question(question: str, asks: bool) -> None:
    assert asks_a_duration(question) is asks


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("been there nearly four years now", True),
        ("took exactly three weeks like they said", True),
        ("three nights gone, i didn't sleep", True),
        ("the contractor starts march 9", False),
    ],
)
def test_a_sentence_saying_a_duration(text: str, says: bool) -> None:
    assert says_a_duration(text) is says
