"""A person said to leave a post by name alone ("Dr Ferreira retired", "Delphine's last day was Friday") ends the
handed-on role they held (a dentist, a boss), not a partner's, a relative's or a friend's. Real rules, real store;
every answer cites the role and the leaving."""

from __future__ import annotations

from datetime import datetime

import pytest

from sodamem.model import FactKind
from sodamem.roles import LEFT_POST, PROMOTED_OUT

from .scenario_histories import check_answer, remembered

ASKED = datetime(2025, 12, 1, 12, 0)
DENTIST = ("2025-01-30T16:00", "my dentist Dr. Ferreira says i need a filling 🙃 is it normal for it to ache after")
RETIRED = ("2025-05-09T09:00", "Dr Ferreira retired, so i got moved to another practice. cleaning next week")


@pytest.mark.parametrize(
    ("said", "who"),
    [
        ("Dr Ferreira retired, so i got moved to another practice.", "Dr Ferreira"),
        ("so Delphine's last day was Friday and Rashida is running our team now.", "Delphine"),
        ("Finn quit the company last week.", "Finn"),
        ("Rafferty quit the band 😤 something about creative differences.", "Rafferty"),
        ("Finn left the company.", "Finn"),
        ("Finn retired.", "Finn"),
    ],
)
def test_a_leaving_said_by_name(said: str, who: str) -> None:
    with remembered([("2025-03-02T10:00", said)]) as memory:
        (left,) = [f for f in memory.facts() if f.predicate == LEFT_POST]
        assert left.kind == FactKind.EVENT and left.subject == who and left.sources


@pytest.mark.parametrize(
    "said",
    [
        "Finn quit smoking.",
        "Finn left the meeting early.",
        "Finn left.",  # the room, perhaps
        "Finn left work early today.",
        "Finn quit last minute.",
        "Sarah says Finn quit.",  # hearsay
        "Did Finn quit?",
    ],
)
def test_no_leaving_said(said: str) -> None:
    with remembered([("2025-03-02T10:00", said)]) as memory:
        assert not [f for f in memory.facts() if f.predicate == LEFT_POST]


@pytest.mark.parametrize(
    ("question", "expected", "quotes"),
    [
        ("Is Dr. Ferreira still my dentist?", "No", ["my dentist Dr. Ferreira", "Dr Ferreira retired"]),
        ("Who is Dr. Ferreira?", "user's former dentist", ["my dentist Dr. Ferreira", "Dr Ferreira retired"]),
        (
            "Who is my dentist?",
            "no one now (previously Dr. Ferreira)",
            ["my dentist Dr. Ferreira", "Dr Ferreira retired"],
        ),
    ],
)
def test_a_leaving_ends_the_post_held(question: str, expected: str, quotes: list[str]) -> None:
    with remembered([DENTIST, RETIRED]) as memory:
        answer = memory.ask(question, now=ASKED, offline=True)
        check_answer(memory, answer, expected)
        assert [c.quote for c in answer.citations] == quotes


def test_a_leaving_asked_of_before_it_was_said_ends_nothing() -> None:
    with remembered([DENTIST, RETIRED]) as memory:
        answer = memory.ask("Is Dr. Ferreira still my dentist?", now=datetime(2025, 4, 1), offline=True)
        check_answer(memory, answer, "Yes")


def test_a_leaving_ends_no_partner_and_no_friend() -> None:
    history = [
        ("2025-01-05T10:00", "My boyfriend Tom and my friend Ana came over."),
        ("2025-03-02T10:00", "Tom quit the company last week, and Ana retired."),
    ]
    with remembered(history) as memory:
        check_answer(memory, memory.ask("Is Tom still my boyfriend?", now=ASKED, offline=True), "Yes")
        check_answer(memory, memory.ask("Who is Ana?", now=ASKED, offline=True), "user's friend")


def test_a_new_holder_after_the_leaving_is_the_holder() -> None:
    history = [DENTIST, RETIRED, ("2025-06-01T10:00", "My dentist is Dr. Nakagawa now, she's lovely.")]
    with remembered(history) as memory:
        check_answer(memory, memory.ask("Who is my dentist?", now=ASKED, offline=True), "Dr. Nakagawa")


@pytest.mark.parametrize(
    ("said", "planned"),
    [
        ("Gerald announced his retirement this morning, effective at the end of the month.", True),
        ("Keanu just told me he's leaving the company for a startup.", True),
        ("Lena is retiring at the end of the month.", True),
        ("my team lead Oskar got promoted to director so we're getting a new lead", False),
    ],
)
def test_a_leaving_to_come_or_a_promotion_out(said: str, planned: bool) -> None:
    with remembered([("2025-03-02T10:00", said)]) as memory:
        (left,) = [f for f in memory.facts() if f.predicate in (LEFT_POST, PROMOTED_OUT)]
        assert (left.kind == FactKind.PLAN) is planned and left.sources
        assert (left.predicate == PROMOTED_OUT) is ("promoted" in said)


@pytest.mark.parametrize(
    "said", ["Lena might be leaving the company.", "Ana is leaving for Paris tomorrow.", "Tom is leaving us."]
)
def test_no_leaving_to_come(said: str) -> None:
    with remembered([("2025-03-02T10:00", said)]) as memory:
        assert not [f for f in memory.facts() if f.predicate == LEFT_POST]


def test_a_leaving_with_no_day_comes_after_a_notice_and_a_given_name_is_the_full_one() -> None:
    history = [
        ("2024-11-04T09:00", "Prepping for my 1:1 with my manager, Keanu Reyes. How do I frame it?"),
        ("2025-02-20T22:10", "Keanu just told me he's leaving the company for a startup."),
    ]
    with remembered(history) as memory:
        soon = memory.ask("Is Keanu still my manager?", now=datetime(2025, 2, 25), offline=True)
        check_answer(memory, soon, "Yes")
        later = memory.ask("Is Keanu still my manager?", now=datetime(2025, 4, 1), offline=True)
        check_answer(memory, later, "No")
        assert [c.quote for c in later.citations] == [
            "my manager, Keanu Reyes",
            "Keanu just told me he's leaving the company",
        ]


@pytest.mark.parametrize(
    "said",
    [
        "Henrik leaves on Friday for his holiday in Crete",  # a trip
        "Dr Ferreira said she's leaving early today",
        "Dr Patel is leaving the clinic at 4 today",
        "Keanu told me he's leaving for Tokyo tomorrow",
        "Lena is retiring her old car",
        "Dan left work yesterday and forgot his laptop",  # the end of a day
        "Dr Ferreira's last day was Friday before her maternity leave",
        "Emma's last day was so busy",
        "we were playing Monopoly and Tom quit lol",  # a game
    ],
)
def test_no_post_left(said: str) -> None:
    with remembered([("2025-03-02T10:00", said)]) as memory:
        assert not [f for f in memory.facts() if f.predicate == LEFT_POST]


def test_a_given_name_shared_by_two_people_ends_neither() -> None:
    history = [
        ("2025-01-05T10:00", "My boss Tom Harris is strict, and my nephew Tom Reed is staying with us."),
        ("2025-03-02T10:00", "Tom quit the company last week."),
    ]
    with remembered(history) as memory:
        check_answer(memory, memory.ask("Is Tom Harris still my boss?", now=ASKED, offline=True), "Yes")


def test_a_promotion_ends_a_boss_not_a_colleague() -> None:
    history = [
        ("2025-01-05T10:00", "My boss Oskar Lind and my coworker Jen Park are great."),
        ("2025-03-02T10:00", "Oskar got promoted to director. Jen got promoted to team lead."),
    ]
    with remembered(history) as memory:
        check_answer(memory, memory.ask("Is Oskar still my boss?", now=ASKED, offline=True), "No")
        check_answer(memory, memory.ask("Who is Jen Park?", now=ASKED, offline=True), "user's coworker")


def test_an_ending_and_a_return_in_one_message_leave_the_return() -> None:
    history = [
        ("2025-01-05T10:00", "My boyfriend Tom is sweet."),
        (
            "2025-03-02T10:00",
            "Tom and I broke up on Sunday but we got back together today, so my boyfriend Tom is back!",
        ),
    ]
    with remembered(history) as memory:
        check_answer(memory, memory.ask("Is Tom still my boyfriend?", now=ASKED, offline=True), "Yes")


def test_who_one_is_by_a_given_name_alone() -> None:
    manager = (
        "2025-01-14T19:20",
        "Could you help me draft a note to my line manager, Gerald Whitcombe, asking for Friday off?",
    )
    retiring = ("2025-03-10T12:10", "Gerald announced his retirement this morning, effective at the end of the month.")
    with remembered([manager]) as memory:
        check_answer(memory, memory.ask("Who is Gerald?", now=ASKED, offline=True), "user's line manager")
    with remembered([manager, retiring]) as memory:
        answer = memory.ask("Who is Gerald?", now=ASKED, offline=True)
        check_answer(memory, answer, "user's former line manager")
        assert [c.quote for c in answer.citations] == [
            "my line manager, Gerald Whitcombe",
            "Gerald announced his retirement",
        ]
