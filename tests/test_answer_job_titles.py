"""A job title through a career change, as people say it: the title said with a start ("Starting at Talkdesk on June
1st as a design lead") comes due on its day; a title said with its employer ends when that employer is left ("I quit
Bean There") or another takes its place, and one said alone ("I'm a nurse") outlives any employer; a start called off
takes its title with it; "What is my job?" is the title held, not the employer (real rules extractor, offline
reader)."""

from __future__ import annotations

from datetime import datetime

import pytest

from sodamem import Memory
from sodamem.ingest.extract.rules_vocabulary import a_or_an

from .scenario_histories import ABSTAIN, History, answered, check_answer

DESIGNER: History = [
    ("2026-03-02T09:00", "I work as a UX designer at Farfetch, started there in January."),
    (
        "2026-05-20T18:00",
        "Big news: I quit Farfetch, my last day was Friday. Starting at Talkdesk on June 1st as a design lead.",
    ),
]
BARISTA: History = [
    ("2026-01-05T09:00", "I'm a barista at Bean There."),
    ("2026-04-02T09:00", "I quit Bean There today, going back to uni in September."),
]
TEACHER: History = [
    ("2026-01-05T09:00", "I'm a teacher at Hillside Primary."),
    ("2026-03-02T09:00", "I got the job at Oakfield Academy! I start there as head of maths on April 20th."),
]
CALLED_OFF: History = [
    ("2026-01-05T09:00", "I'm a teacher at Hillside Primary."),
    ("2026-03-02T09:00", "I'm starting at Monzo as a product manager next month!"),
    ("2026-03-20T09:00", "Ugh, the Monzo job fell through. Staying at Hillside for now."),
]
NURSE: History = [
    ("2026-01-05T09:00", "I'm a nurse at St James's."),
    ("2026-04-02T09:00", "I'm starting at the Royal Free next month."),
]
NURSE_ANYWHERE: History = [
    ("2026-01-05T09:00", "I'm a nurse."),
    ("2026-04-02T09:00", "I started at Royal Free Hospital last week."),
]
QUIT_MY_JOB: History = [
    ("2026-01-05T09:00", "I'm a nurse."),
    ("2026-04-02T09:00", "I quit my job at the hospital yesterday."),
]
CASES = [
    ("title-come-due", DESIGNER, "2026-11-30", "What is my job?", "design lead (previously UX designer)"),
    ("title-asked-as-title", DESIGNER, "2026-11-30", "What is my job title?", "design lead (previously UX designer)"),
    (
        "living-is-the-title",
        DESIGNER,
        "2026-11-30",
        "What do I do for a living?",
        "design lead (previously UX designer)",
    ),
    ("employer-still-the-employer", DESIGNER, "2026-11-30", "Where do I work?", "Talkdesk (previously Farfetch)"),
    ("between-jobs", DESIGNER, "2026-05-25", "What is my job?", ABSTAIN),  # left Farfetch, Talkdesk not begun
    ("title-ended-with-employer", BARISTA, "2026-11-30", "What is my job?", ABSTAIN),
    ("title-held-before-leaving", BARISTA, "2026-11-30", "What was my job in March?", "barista"),
    ("head-of-said-with-there", TEACHER, "2026-05-01", "What is my job?", "head of maths (previously teacher)"),
    # "I got the job at Oakfield Academy!" is the employer from then: the title said with Hillside is over
    (
        "title-before-its-day",
        TEACHER,
        "2026-04-01",
        "What is my job?",
        "Oakfield Academy (previously Hillside Primary)",
    ),
    ("start-called-off", CALLED_OFF, "2026-11-30", "What is my job?", "teacher"),
    ("new-employer-ends-its-title", NURSE, "2026-11-30", "What is my job?", "Royal Free (previously St James's)"),
    ("untied-title-outlives-employer", NURSE_ANYWHERE, "2026-11-30", "What is my job?", "nurse"),
    ("new-employer-for-where", NURSE, "2026-11-30", "Where do I work?", "Royal Free (previously St James's)"),
    ("quit-my-job-ends-title", QUIT_MY_JOB, "2026-11-30", "What is my job?", ABSTAIN),
]


@pytest.mark.parametrize(("history", "now", "question", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_answer_or_abstain(
    scenario_memories: dict[int, Memory], history: History, now: str, question: str, expected: str | None
) -> None:
    check_answer(*answered(scenario_memories, history, now, question), expected)


def jobs(text: str) -> list[tuple[str | None, str, str]]:
    with Memory(":memory:", embedder="none") as memory:
        memory.add([{"role": "user", "text": text}], session_id="s", timestamp=datetime(2026, 5, 20, 10))
        return [(f.object, f.modality, f.text) for f in memory.facts() if f.predicate == "job"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Starting at Talkdesk on June 1st as a design lead.",
            [("design lead", "planned", "user plans to work as a design lead")],
        ),
        (
            "I'm starting at Monzo as a product manager next month.",
            [("product manager", "planned", "user plans to work as a product manager")],
        ),
        (
            "I started at Google as a software engineer in March.",
            [("software engineer", "asserted", "user works as a software engineer")],
        ),
        (
            "I start there as head of maths on April 20th.",
            [("head of maths", "planned", "user plans to work as a head of maths")],
        ),
        (
            "I'm starting as an HR manager on the 3rd.",
            [("HR manager", "planned", "user plans to work as an HR manager")],
        ),
        ("I work as a UX designer at Farfetch.", [("UX designer", "asserted", "user works as a UX designer")]),
        ("I started as a volunteer at Oxfam.", []),  # no job's word
        ("I start at Aviva as planned on Monday.", []),
        ("I'm not starting at Monzo as a product manager after all.", []),
    ],
)
def test_a_title_said_with_a_start(text: str, expected: list[tuple[str, str, str]]) -> None:
    assert jobs(text) == expected


@pytest.mark.parametrize(
    ("noun", "expected"),
    [
        ("engineer", "an engineer"),
        ("UX designer", "a UX designer"),
        ("HR manager", "an HR manager"),
        ("SEO specialist", "an SEO specialist"),
        ("university lecturer", "a university lecturer"),
        ("hourly worker", "an hourly worker"),
        ("nurse", "a nurse"),
        ("one-man band", "a one-man band"),
    ],
)
def test_the_article_follows_the_first_sound(noun: str, expected: str) -> None:
    assert a_or_an(noun) == expected
