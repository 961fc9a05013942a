"""Pastimes kept up, said as habits ("I play rugby", "I've played rugby for ten years"), and the hobby reader that
lists them with what was started; sports questions list sports only (real rules extractor)."""

from __future__ import annotations

from datetime import datetime

import pytest

from sodamem import Memory
from sodamem.pastimes import is_pastime, pastime_name

from .scenario_histories import ABSTAIN, History, answered, check_answer


def practised(text: str) -> list[str]:
    with Memory(":memory:", embedder="none") as memory:
        memory.add([{"role": "user", "text": text}], session_id="s", timestamp=datetime(2026, 3, 1, 10))
        return [f.object or "" for f in memory.facts() if f.predicate == "practises"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I play rugby on Sundays.", ["rugby"]),
        ("I play the piano most evenings.", ["piano"]),
        ("I do yoga twice a week.", ["yoga"]),
        ("I do a bit of boxing on Saturdays.", ["boxing"]),
        ("I go climbing every Thursday with Mia.", ["climbing"]),
        ("I've played rugby for ten years.", ["rugby"]),
        ("I've been playing the cello since I was six.", ["cello"]),
        ("I'm doing pilates these days.", ["pilates"]),
        ("I still play netball.", ["netball"]),
        # no habit that holds now
        ("I played hockey at school.", []),
        ("I'm playing tennis with Jo tomorrow.", []),
        ("I don't play golf any more.", []),
        ("I used to do judo.", []),
        ("I might do yoga.", []),
        ("I do like cycling though.", []),
        ("I do the cooking at home.", []),
        ("I go to yoga on Mondays.", []),  # a going, read by the going rules
        ("I've played rugby.", []),  # once, or ever: no habit said
        ("I play with my kids after work.", []),
    ],
)
def test_a_habit_kept_up_is_a_pastime(text: str, expected: list[str]) -> None:
    assert practised(text) == expected


def test_pastime_names_drop_what_follows_and_an_amount() -> None:
    assert pastime_name("the piano most evenings") == "piano"
    assert pastime_name("a bit of boxing on Saturdays") == "boxing"
    assert is_pastime("climbing every Thursday") and is_pastime("the piano most evenings")


HABITS: History = [
    ("2026-03-01T10:00", "I've played rugby for ten years."),
    ("2026-03-02T10:00", "I play the piano most evenings."),
    ("2026-03-03T10:00", "I also started pottery classes last week."),
    ("2026-03-04T10:00", "My sister plays netball."),
]
QUIT_SINCE: History = [*HABITS, ("2026-05-01T10:00", "I quit rugby, my knees are done.")]
SALSA_OVER: History = [
    ("2026-01-10T10:00", "I've been doing salsa on Tuesday nights since January."),
    (
        "2026-05-28T10:00",
        "Anyway, salsa is officially over, my last class was the 26th of May, and I've started tennis lessons.",
    ),
]
ARTS_ONLY: History = [("2026-03-03T10:00", "I also started pottery classes last week.")]
CASES = [
    ("habits-and-starts", HABITS, "2026-04-01", "What hobbies am I doing these days?", "pottery classes, piano, rugby"),
    ("sports-only", HABITS, "2026-04-01", "What sports do I play?", "rugby"),
    ("a-habit-ended", QUIT_SINCE, "2026-06-01", "What hobbies am I doing these days?", "pottery classes, piano"),
    ("over-in-its-own-clause", SALSA_OVER, "2026-07-01", "What sport do I do?", "tennis lessons"),
    ("officially-over", SALSA_OVER, "2026-07-01", "Am I still doing salsa?", "No"),
    ("no-sport-said", ARTS_ONLY, "2026-04-01", "What sports do I play?", ABSTAIN),
]


@pytest.mark.parametrize(("history", "now", "question", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_answer_or_abstain(
    scenario_memories: dict[int, Memory], history: History, now: str, question: str, expected: str | None
) -> None:
    check_answer(*answered(scenario_memories, history, now, question), expected)
