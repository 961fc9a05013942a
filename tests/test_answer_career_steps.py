"""A career and a household told over months, as people say them: a promotion without "I" ("Got promoted to senior
dentist today!"), notice handed in with a bare last day, a firm joined in a job, a fiancée first said as a
girlfriend, and how long a pet has been had (real rules extractor, offline reader)."""

from __future__ import annotations

from datetime import datetime

import pytest

from sodamem import Memory

from .scenario_histories import History, answered, check_answer

DENTIST: History = [
    ("2026-02-01T10:00", "I'm a junior dentist at Brightsmile Clinic in Derby."),
    ("2026-02-03T10:00", "My girlfriend Priya is a midwife."),
    ("2026-02-10T10:00", "We adopted a beagle called Toffee last weekend."),
    ("2026-03-01T10:00", "Got promoted to senior dentist today!"),
    ("2026-03-15T10:00", "Priya and I are getting married next June."),
    ("2026-06-10T10:00", "Handed in my notice at Brightsmile, my last day is June 30th."),
    ("2026-06-20T10:00", "I'm joining Trent Dental as a partner from July 6th."),
]
CASES = [
    ("promoted-without-i", DENTIST, "2026-03-10", "What is my job?", "senior dentist (previously junior dentist)"),
    ("before-the-new-firm", DENTIST, "2026-06-25", "Where do I work?", "Brightsmile Clinic"),
    ("joined-as-come", DENTIST, "2026-08-01", "Where do I work?", "Trent Dental (previously Brightsmile Clinic)"),
    ("a-fiancee-said-as-girlfriend", DENTIST, "2026-08-01", "Who is my fiancée?", "Priya"),
    (
        "how-long-had",
        DENTIST,
        "2026-08-01",
        "How long have we had Toffee?",
        "about 6 months (since 7 February 2026 to 8 February 2026 (the weekend before 10 February 2026))",
    ),
]


@pytest.mark.parametrize(("history", "now", "question", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_answer_or_abstain(
    scenario_memories: dict[int, Memory], history: History, now: str, question: str, expected: str | None
) -> None:
    check_answer(*answered(scenario_memories, history, now, question), expected)


def facts(text: str) -> list[tuple[str, str | None, str, bool]]:
    with Memory(":memory:", embedder="none") as memory:
        memory.add([{"role": "user", "text": text}], session_id="s", timestamp=datetime(2026, 6, 10, 10))
        return [
            (f.predicate, f.object, f.modality, f.polarity)
            for f in memory.facts()
            if f.predicate in ("job", "works_at")
        ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Got promoted to senior dentist today!", [("job", "senior dentist", "asserted", True)]),
        ("Handed in my notice, my last day is June 30th.", [("works_at", None, "planned", False)]),
        ("I resigned! My last day is the 30th.", [("works_at", None, "planned", False)]),
        ("Term ends soon, my last day is June 30th.", []),  # no notice given: a school's, a holiday's
        ("My first day is July 6th.", []),
        (
            "I joined Monzo as a designer last month.",
            [("job", "designer", "asserted", True), ("works_at", "Monzo", "asserted", True)],
        ),
        ("I joined Tom as a volunteer.", []),  # a person
        ("I joined the choir as a tenor.", []),
        ("I'm not joining Monzo as a designer after all.", []),
    ],
)
def test_career_steps_said_casually(text: str, expected: list[tuple[str, str | None, str, bool]]) -> None:
    assert sorted(facts(text), key=str) == sorted(expected, key=str)
