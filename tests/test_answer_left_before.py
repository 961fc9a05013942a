"""'Where did I work before <the next thing>?' after an employer was left and no employer said since
(``StateReader._left_before``): the one left, cited with where it was said and where it was left; the reader
abstained ("denied"), as it still does for what holds now."""

from __future__ import annotations

from datetime import datetime

import pytest

from .scenario_histories import History, remembered

ASKED = datetime(2026, 1, 10)
CHATIME: History = [
    ("2025-09-15T10:00", "also working weekends at chatime (bubble tea) for money"),
    ("2025-12-05T10:00", "quit chatime. the manager was awful"),
    ("2025-12-05T10:05", "yes!! got a new job instead, 12 hrs a week"),  # no workplace said
]
# the same, with the next workplace said
LIBRARY: History = [*CHATIME[:2], ("2025-12-05T10:05", "yes!! got a job at the uni library instead, 12 hrs a week")]
SHOPS: History = [
    ("2025-01-10T10:00", "I work at Tesco now."),
    ("2025-05-10T10:00", "I work at Aldi now, better pay."),
    ("2025-09-10T10:00", "I quit Aldi last week."),
]


@pytest.mark.parametrize(
    ("history", "question", "expected", "quotes"),
    [
        (
            CHATIME,
            "Where did I work before the new job?",
            "Chatime",
            ["also working weekends at chatime", "quit chatime"],
        ),
    ],
)
def test_the_employer_left_is_the_one_before(history: History, question: str, expected: str, quotes: list[str]) -> None:
    memory = remembered(history)
    try:
        answer = memory.ask(question, now=ASKED, offline=True)
        assert answer.answer == expected and "read:state" in answer.flags
        assert [c.quote for c in answer.citations] == quotes
    finally:
        memory.close()


@pytest.mark.parametrize(
    ("history", "question"),
    [
        (CHATIME, "Where do I work now?"),  # nothing holds now
        (CHATIME, "Where did I work before Chatime?"),
        (CHATIME, "Where did I work before I started at Chatime?"),  # the value named past the phrase's start
        (CHATIME, "Where did I work before 2020?"),  # a time, not the next thing
        (SHOPS, "Where did I work before Tesco?"),  # a value of the history: not the one left since
        # a quit of a firm never said as one's employer names none ("i quit instagram")
        (
            [("2025-11-20T10:00", "big move: i quit hartwell. going freelance")],
            "Where did I work before I went freelance?",
        ),
    ],
)
def test_what_holds_now_or_before_a_named_value_is_not_said(history: History, question: str) -> None:
    memory = remembered(history)
    try:
        answer = memory.ask(question, now=ASKED, offline=True)
        assert answer.abstained and "abstain:denied" in answer.flags
    finally:
        memory.close()


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Where did I work before the library job?", "Chatime (before uni library)"),
        ("Where do I work now?", "uni library (previously Chatime)"),
    ],
)
def test_with_the_next_workplace_said_the_history_answers(question: str, expected: str) -> None:
    with remembered(LIBRARY) as memory:
        answer = memory.ask(question, now=ASKED, offline=True)
    assert answer.answer == expected and "read:state" in answer.flags


def test_a_denial_said_without_leaving_names_no_employer_before() -> None:
    memory = remembered([("2025-11-20T10:00", "I don't work at Google, I'm a nurse.")])
    try:
        answer = memory.ask("Where did I work before I became a nurse?", now=ASKED, offline=True)
        assert answer.answer != "Google"
    finally:
        memory.close()


MOVED: History = [
    ("2025-01-10T10:00", "I work at Tesco in Bristol."),
    ("2025-06-10T10:00", "I moved to Leeds last week."),
]


def test_a_clause_after_before_asks_the_state_before_it_not_the_state_it_names() -> None:
    """ "Where did I work before I moved to Leeds?" asks an employer (the move names a home, not a job)."""
    with remembered(MOVED) as memory:
        answer = memory.ask("Where did I work before I moved to Leeds?", now=ASKED, offline=True)
        lived = memory.ask("Where did I live before I moved to Leeds?", now=ASKED, offline=True)
    # the employer that held when the move began, cited with the move (``state_anchor``)
    assert answer.answer == "Tesco (before Leeds)"
    assert [c.quote for c in answer.citations] == ["I work at Tesco in Bristol", "I moved to Leeds last week"]
    assert lived.abstained  # no home is known before Leeds


@pytest.mark.parametrize(
    ("history", "question", "expected"),
    [
        (MOVED, "Before I moved to Leeds, where did I work?", "Tesco (before Leeds)"),
        (MOVED, "Before I moved to Leeds where did I work?", "Tesco (before Leeds)"),
        (
            [("2025-01-10T10:00", "I live in York."), ("2025-06-10T10:00", "I just moved to Leeds!")],
            "Before I moved to Leeds, where did I live?",
            "York (before Leeds)",
        ),
    ],
)
def test_a_clause_may_come_first(history: History, question: str, expected: str) -> None:
    with remembered(history) as memory:
        assert memory.ask(question, now=ASKED, offline=True).answer == expected
