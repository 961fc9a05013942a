"""The asker's hobbies and sports now (``answer/activities.py``): started, joined or signed up for, less what a later
sentence ended; a plan or a start ahead is none yet. Histories are told message by message, as an agent adds them."""

from __future__ import annotations

import pytest

from sodamem import Memory
from sodamem.answer.activities import asks_for_activities, is_pastime

from .scenario_histories import ABSTAIN, History, answered, check_answer, made_memories


@pytest.fixture(scope="module")
def scenario_memories():  # type: ignore[no-untyped-def]
    yield from made_memories()


CAREFUL: History = [
    ("2026-03-10T19:05", "I have signed up for a ten-week pottery course at the community studio."),
    ("2026-05-20T18:45", "I should also tell you that I have given up the pottery course."),
    ("2026-07-12T11:20", "I have also started bouldering at a climbing gym near the harbour called Kletterhuset."),
    (
        "2026-10-03T16:00",
        "I am still bouldering twice a week. I would like to start a sign language course in January.",
    ),
]
CASUAL: History = [
    ("2026-03-05T22:40", "also i started roller derby!! first practice was tues just gone, im so bad at it"),
    ("2026-08-08T19:30", "also i officially quit derby. started ukulele lessons at the community centre instead"),
]
CHATTY: History = [
    ("2026-06-10T12:45", "Anyway, salsa is officially over, and I've started tennis lessons, two evenings a week."),
    (
        "2026-10-25T18:20",
        "I've given up on tennis, honestly, there's no court near the flat, but I joined the university choir.",
    ),
]
NO_PASTIME: History = [
    ("2026-03-01T09:00", "I started a new job at Brightwater on Monday."),
    ("2026-03-02T09:00", "I started looking for a flat near the office."),
]

CASES = [
    ("started-one", CAREFUL, "2026-10-04", "What sport or hobby am I doing these days?", "bouldering"),
    ("ended-is-gone", CAREFUL, "2026-06-01", "What hobby am I doing at the moment?", ABSTAIN),
    ("a-plan-is-none-yet", CAREFUL, "2026-10-04", "What hobby am I doing these days?", "bouldering"),
    ("as-of-before-the-end", CASUAL, "2026-05-04", "What sport do I do?", "roller derby"),
    ("the-new-one-after-quitting", CASUAL, "2026-11-03", "what hobby am i doing these days?", "ukulele lessons"),
    ("given-up-on", CHATTY, "2026-10-26", "What hobby am I doing at the moment?", "university choir"),
    ("before-giving-up", CHATTY, "2026-07-01", "What sport do I do?", "tennis lessons"),
    ("a-job-is-no-pastime", NO_PASTIME, "2026-04-01", "What hobby am I doing these days?", ABSTAIN),
]


@pytest.mark.parametrize(("history", "now", "question", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_answer_or_abstain(
    scenario_memories: dict[int, Memory], history: History, now: str, question: str, expected: str | None
) -> None:
    check_answer(*answered(scenario_memories, history, now, question), expected)


def test_questions_asking_for_pastimes() -> None:
    for question in (
        "What sport or hobby am I doing these days?",
        "what hobby am i doing these days?",
        "What sport do I do?",
        "Which activities am I doing at the moment?",
        "What instrument do I play?",
        "What do I do for exercise these days?",
    ):
        assert asks_for_activities(question), question
    for question in ("What sport does Tom do?", "When did I start tennis?", "Do I still do salsa?", "What do I do?"):
        assert not asks_for_activities(question), question


def test_pastimes_by_their_words() -> None:
    for what in ("bouldering", "tennis lessons", "the university choir", "ukulele lessons at the community centre"):
        assert is_pastime(what), what
    for what in ("a new job", "looking for a flat", "a ten-week course", "the team", "therapy"):
        assert not is_pastime(what), what
