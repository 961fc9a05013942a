"""The words people wrap a question in ask nothing: the offline reader reads the bare question, and the answer
keeps the question as asked."""

from __future__ import annotations

from datetime import datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sodamem.answer.question_form import plain_question

from .scenario_histories import check_answer, remembered


@pytest.mark.parametrize(
    ("asked", "bare"),
    [
        ("Remind me, who is Imogen?", "Who is Imogen?"),
        ("and who is ama to me", "Who is ama"),
        ("Who is Saoirse, dear?", "Who is Saoirse?"),
        ("who's Tariq again?", "Who's Tariq?"),
        ("Is Finn still my boss, please?", "Is Finn still my boss?"),
        ("Can you remind me who my dentist is?", "Who is my dentist?"),
        ("So who is my boss now?", "Who is my boss now?"),
        ("Who's my trainer right now?", "Who's my trainer now?"),
        ("Who is my boss in this moment?", "Who is my boss now?"),
        # words that ask something stay
        ("Did I break up with Tom again?", "Did I break up with Tom again?"),
        ("Who did Ana give the book to me?", "Who did Ana give the book to me?"),
        ("So?", "So?"),
        ("Who is married to me?", "Who is married to me?"),  # "to me" asks here
        ("Who was it that used to live next door to me?", "Who was it that used to live next door to me?"),
        ("Remind me what Ana's surname is", "What is Ana's surname?"),
        ("Who is my boss?", "Who is my boss?"),
    ],
)
def test_the_bare_question(asked: str, bare: str) -> None:
    assert plain_question(asked) == bare


_WORDS = st.sampled_from(
    ["so", "and", "remind me,", "who", "is", "Ana", "my", "boss", "to", "me", "again", ", dear", "?"]
)


@given(st.lists(_WORDS, min_size=1, max_size=8).map(" ".join))
def test_a_bare_question_is_bare_and_never_empty(text: str) -> None:
    once = plain_question(text)
    assert plain_question(once) == once
    assert once.strip()


def test_a_wrapped_question_is_answered_as_the_bare_one_and_kept_as_asked() -> None:
    with remembered([("2025-01-20T10:05", "My granddaughter Saoirse is coming to stay for half term.")]) as memory:
        answer = memory.ask("Who is Saoirse, dear?", now=datetime(2025, 6, 1), offline=True)
        check_answer(memory, answer, "user's granddaughter")
        assert answer.question == "Who is Saoirse, dear?"
