"""'Where did I live before I started at Aldi?': the anchor names a value of another slot (an employer), so the
answer is the home that held when that one began (``state_anchor.anchored``); it answered from the home history
alone ("Leeds (before Bristol)"). An anchor of the asked slot ("before York") still reads that slot's history."""

from __future__ import annotations

from datetime import datetime

import pytest

from sodamem.answer.state_anchor import anchored

from .scenario_histories import History, check_answer, remembered

ASKED = datetime(2026, 1, 10)
MOVES: History = [
    ("2025-01-10T10:00", "I live in Leeds."),
    ("2025-03-10T10:00", "I moved to York."),
    ("2025-05-10T10:00", "I started at Aldi this week!"),
    ("2025-08-10T10:00", "I moved to Bristol."),
]
JOBS: History = [
    ("2025-01-10T10:00", "I live in Leeds."),
    ("2025-02-10T10:00", "I'm a cashier."),
    ("2025-04-10T10:00", "I'm a nurse now."),
    ("2025-08-10T10:00", "I moved to Bristol."),
]


@pytest.mark.parametrize(
    ("history", "question", "expected", "quotes"),
    [
        (
            MOVES,
            "Where did I live before I started at Aldi?",
            "York (before Aldi)",
            ["I moved to York", "I started at Aldi this week"],
        ),
        (
            MOVES,
            "Before I started at Aldi, where did I live?",
            "York (before Aldi)",
            ["I moved to York", "I started at Aldi this week"],
        ),
        (MOVES, "Where did I live before York?", "Leeds (before York)", ["I live in Leeds", "I moved to York"]),
        (JOBS, "Where did I live before I became a nurse?", "Leeds (before nurse)", ["I live in Leeds", "I'm a nurse"]),
        (JOBS, "What was my job before I became a nurse?", "cashier (before nurse)", ["I'm a cashier", "I'm a nurse"]),
        (
            JOBS,
            "What was my job before I moved to Bristol?",
            "nurse (before Bristol)",
            ["I'm a nurse", "I moved to Bristol"],
        ),
    ],
)
def test_a_state_before_an_anchor_of_any_slot(
    history: History, question: str, expected: str, quotes: list[str]
) -> None:
    with remembered(history) as memory:
        answer = memory.ask(question, now=ASKED, offline=True)
        check_answer(memory, answer, expected)
        assert [c.quote for c in answer.citations] == quotes


@pytest.mark.parametrize(
    ("history", "question", "expected"),
    [
        (
            [
                ("2025-01-10T10:00", "I work at Tesco."),
                ("2025-02-10T10:00", "My favorite city is Paris."),  # no move: no anchor
                ("2025-04-10T10:00", "I work at Aldi now."),
                ("2025-08-10T10:00", "I moved to Paris."),
            ],
            "Where did I work before I moved to Paris?",
            "Aldi (before Paris)",
        ),
        (
            [
                ("2025-01-10T10:00", "I live in London."),
                ("2025-02-10T10:00", "I started at Pizza Express."),  # "Pizza Express" is no "Pizza Hut"
                ("2025-04-10T10:00", "I moved to York."),
                ("2025-08-10T10:00", "I started at Pizza Hut."),
            ],
            "Where did I live before I started at Pizza Hut?",
            "York (before Pizza Hut)",
        ),
    ],
)
def test_the_anchor_is_a_home_employer_or_job_named_whole(history: History, question: str, expected: str) -> None:
    with remembered(history) as memory:
        check_answer(memory, memory.ask(question, now=ASKED, offline=True), expected)


def test_an_anchor_that_began_before_every_value_of_the_slot_settles_nothing() -> None:
    history: History = [("2025-01-10T10:00", "I started at Aldi in 2019."), ("2025-03-10T10:00", "I moved to York.")]
    with remembered(history) as memory:
        chain = [f for f in memory.facts(status="all") if f.predicate == "lives_in"]
        elsewhere = [f for f in memory.facts(status="all") if f.predicate == "works_at"]
        assert chain and elsewhere
        assert anchored("Where did I live before I started at Aldi?", chain, elsewhere) is None
        assert anchored("Where did I live after I started at Aldi?", chain, elsewhere) is None
