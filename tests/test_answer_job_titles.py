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
PUSHED: History = [
    ("2026-01-05T09:00", "I'm a teacher at Hillside Primary."),
    ("2026-04-02T09:00", "I start at Monzo as a product manager on June 1st!"),
    ("2026-05-20T09:00", "My start date got pushed back a month."),
]
SAME_FIRM: History = [
    ("2026-01-05T09:00", "I'm a barista at Bean There."),
    ("2026-04-02T09:00", "I've worked at Bean There Coffee for two years now."),
]
LIFEGUARD: History = [
    ("2026-01-05T09:00", "I'm a student at Leeds Uni."),
    ("2026-04-02T09:00", "I'll be working as a lifeguard this summer."),
]
QUIT_MY_JOB: History = [
    ("2026-01-05T09:00", "I'm a nurse."),
    ("2026-04-02T09:00", "I quit my job at the hospital yesterday."),
]
BACK_AT_WORK: History = [
    *BARISTA,
    ("2026-06-01T09:00", "Went back to work at Bean There on Monday, the new manager is lovely."),
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
    ("untied-title-outlives-employer", NURSE_ANYWHERE, "2026-11-30", "What is my job title?", "nurse"),
    # ... while "What is my job?" names the newer of the two, the firm started at
    ("firm-started-since-a-title", NURSE_ANYWHERE, "2026-11-30", "What is my job?", "Royal Free Hospital"),
    ("start-pushed-back", PUSHED, "2026-06-15", "What is my job?", "teacher"),
    ("same-firm-named-longer", SAME_FIRM, "2026-11-30", "What is my job?", "barista"),
    ("a-summer-job-is-no-title", LIFEGUARD, "2026-12-01", "What is my job?", "student"),
    ("new-employer-for-where", NURSE, "2026-11-30", "Where do I work?", "Royal Free (previously St James's)"),
    # a title said alone outlives a job quit that names no employer: it may have been a second one
    ("quit-my-job-keeps-lone-title", QUIT_MY_JOB, "2026-11-30", "What is my job?", "nurse"),
    ("title-asked-in-the-past", BARISTA, "2026-11-30", "What was my job?", "barista"),
    # a yes/no question of the title: it ended with the employer quit, cited with the quitting
    ("still-the-title-after-quitting", BARISTA, "2026-11-30", "Do I still work as a barista?", "No"),
    ("still-the-title-before-quitting", BARISTA, "2026-03-01", "Do I still work as a barista?", "Yes"),
    # back at the employer quit: the title holds again
    ("still-the-title-back-at-work", BACK_AT_WORK, "2026-11-30", "Do I still work as a barista?", "Yes"),
    ("where-back-at-work", BACK_AT_WORK, "2026-11-30", "Where do I work?", "Bean There"),
    # the title asked with no state word: the same reading
    ("am-i-still-the-title-after-quitting", BARISTA, "2026-11-30", "Am I still a barista?", "No"),
    ("am-i-still-the-title-before-quitting", BARISTA, "2026-03-01", "Am I still a barista?", "Yes"),
    ("am-i-still-the-title-back-at-work", BACK_AT_WORK, "2026-11-30", "Am I still a barista?", "Yes"),
    # back at the firm the title was said with: the title, not the firm, is the job
    ("the-job-back-at-work", BACK_AT_WORK, "2026-11-30", "What is my job?", "barista"),
    # moving to another employer may keep the job: no "No" from that alone
    ("still-the-title-at-a-new-employer", NURSE, "2026-11-30", "Do I still work as a nurse?", "Yes"),
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
        ("I went back to work at Costa.", ["Costa"]),
        ("Went back to work for Deloitte after the baby.", ["Deloitte"]),
        ("I'm back working at Costa.", ["Costa"]),
        ("Back at Costa as a shift supervisor now!", ["Costa"]),
        ("I started back at Costa as a supervisor.", ["Costa"]),
        ("Costa rehired me!", ["Costa"]),
        ("Costa hired me back as a shift supervisor.", ["Costa"]),
        # a visit, a lift, a partner, a club, a holiday, someone else's, a maybe, a wish, a question, a denial, long ago
        ("I went back to Costa for a flat white.", []),
        ("I'm back at Costa, the usual table.", []),
        ("Costa took me back.", []),
        ("Uber took me back home.", []),
        ("She rehired me.", []),
        ("Started back at Slimming World on Monday.", []),
        ("I went back to work at Christmas.", []),
        ("My sister started back at Tesco as a cashier.", []),
        ("I might go back to work at Costa.", []),
        ("If Costa rehired me I'd be thrilled.", []),
        ("Should I go back to work at Costa?", []),
        ("I'm not going back to work at Costa.", []),
        ("I never went back to work at Costa.", []),
        ("When I went back to work at Costa after uni, I was only 22.", []),
        ("Years ago Costa rehired me.", []),
        ("I'm back working at Costa from next week.", []),
        ("I went back to work for Amazon over Christmas for extra cash.", []),
    ],
)
def test_back_at_an_employer(text: str, expected: list[str]) -> None:
    with Memory(":memory:", embedder="none") as memory:
        memory.add([{"role": "user", "text": text}], session_id="s", timestamp=datetime(2026, 5, 20, 10))
        said = [f.object for f in memory.facts() if f.predicate == "works_at" and f.affirms]
    assert said == expected


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
        ("Starting as a DJ at my mate's bar on Friday, just a one-off gig.", []),
        ("Starting as a lifeguard at the lido in July, just for the summer.", []),
        (
            "I start at Google as a software engineer this summer.",
            [("software engineer", "planned", "user plans to work as a software engineer")],
        ),
        ("Starting as a manager was the hardest thing I've ever done.", []),
        ("I started at Tesco as a cashier when I was 16.", []),
        ("I started at Google as an intern in 2019.", []),
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
        ("NASA engineer", "a NASA engineer"),  # an acronym said as a word
        ("ux researcher", "a ux researcher"),
        ("hr manager", "an hr manager"),
        ("uninsured driver", "an uninsured driver"),
        ("urologist", "a urologist"),
        ("8th grade teacher", "an 8th grade teacher"),
        ("X-ray technician", "an X-ray technician"),
    ],
)
def test_the_article_follows_the_first_sound(noun: str, expected: str) -> None:
    assert a_or_an(noun) == expected
