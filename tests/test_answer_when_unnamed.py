"""A when-question naming nothing by a capital ("When did I sell the corolla?") is dated by the hit that says more of
it with a time in a sentence saying it, not by the top hit that only names the thing (real rules extractor)."""

from __future__ import annotations

from sodamem import Memory

from .scenario_histories import History, answered, check_answer

COROLLA: History = [
    ("2026-01-10T10:00", "my car is an old corolla that drinks petrol lol"),
    (
        "2026-05-12T10:00",
        "they give me a starter kit. but i need a different car, the corolla's done. sold it last sat for 3200 to "
        "some uni student.",
    ),
]


def test_the_hit_saying_more_with_a_time_dates_it(scenario_memories: dict[int, Memory]) -> None:
    memory, answer = answered(scenario_memories, COROLLA, "2026-06-01", "When did I sell the corolla?")
    check_answer(memory, answer, "9 May 2026 (the Saturday before 12 May 2026)")
    assert "last sat" in [c.quote for c in answer.citations]  # the words the day was read from


def test_the_top_hit_keeps_a_question_the_others_say_no_more_of(scenario_memories: dict[int, Memory]) -> None:
    memory, answer = answered(scenario_memories, COROLLA, "2026-06-01", "When did I mention my car drinks petrol?")
    check_answer(memory, answer, "10 January 2026")
