"""A careful writer's life changes: an offer of "the job" taken with its first day said after it, a move announced
with no place and the place arrived in, a home said again as "the city", a pastime said with where it is, and a past
verb's day ("I accepted on the 8th of May") read back whatever later sentences plan."""

from __future__ import annotations

from datetime import datetime

import pytest

from sodamem import Memory
from sodamem.answer.state import state_predicates
from sodamem.ingest.timeparse import find_times
from sodamem.records import FactRecord

from .scenario_histories import History, answered, check_answer, made_memories


@pytest.fixture(scope="module")
def scenario_memories():  # type: ignore[no-untyped-def]
    yield from made_memories()


def facts_of(*turns: tuple[str, str]) -> list[FactRecord]:
    memory = Memory(":memory:", embedder="none")
    for i, (when, text) in enumerate(turns):
        memory.add([{"role": "user", "text": text}], session_id=f"s{i}", timestamp=datetime.fromisoformat(when))
    return memory.facts(status="all")


def days(text: str, said: str) -> list[str]:
    return [f"{m.spec.start:%Y-%m-%d}" for m in find_times(text, datetime.fromisoformat(said))]


def test_a_past_verb_reads_its_day_back_whatever_comes_after() -> None:
    said = "2026-05-20T18:45"
    assert days("I accepted on the 8th of May, after some haggling. I start on the 1st of July.", said) == [
        "2026-05-08",
        "2026-07-01",
    ]
    assert days("She graduated on the 8th of May. We leave on the 1st of July.", said)[0] == "2026-05-08"
    # planning verbs and verbs before "for"/"to" still look ahead
    assert days("We booked it for the 8th of May. I start on the 1st of July.", said)[0] == "2027-05-08"
    assert days("They moved it to the 8th of May. I start on the 1st of July.", said)[0] == "2027-05-08"
    assert days("I've decided on the 8th of May. I start on the 1st of July.", said)[0] == "2027-05-08"


def test_a_stay_booked_from_a_day_is_ahead() -> None:
    said = "2026-04-18T09:30"
    assert days("We've booked a gîte in the Dordogne from July 11th for the summer holiday.", said) == ["2026-07-11"]
    assert days("I booked the flights on Monday.", said) == ["2026-04-13"]  # the booking's own day
    assert days("They have invited me to an interview on the 22nd.", said) == ["2026-04-22"]
    assert days("They invited me to a party on Saturday.", said) == ["2026-04-11"]  # an invitation past
    assert days("moving july 25. truck's booked.", said) == ["2026-07-25"]  # a going verb opening a sentence
    assert days("Driving home on Friday was awful.", said) == ["2026-04-17"]  # ... in a past sentence


def test_the_city_is_the_one_named_before_it() -> None:
    facts = facts_of(
        (
            "2026-03-10T19:05",
            "I work at Nordvik Survey here in Trondheim, and I have lived in the city for about seven years now.",
        )
    )
    homes = [f.object for f in facts if f.predicate == "lives_in"]
    assert homes and set(homes) == {"Trondheim"}
    assert not [
        f for f in facts_of(("2026-03-10T19:05", "I have lived in the city for years.")) if f.object == "the city"
    ]


def test_a_long_pastime_is_said_without_where() -> None:
    facts = facts_of(
        ("2026-07-12T11:20", "I have also started bouldering at a climbing gym near the harbour called Kletterhuset.")
    )
    assert [(f.predicate, f.object) for f in facts] == [("started", "bouldering")]


def test_an_offer_of_the_job_taken_starts_on_its_day() -> None:
    facts = facts_of(
        (
            "2026-05-20T18:45",
            "The interview at Havbrink went well, and Havbrink offered me the job the following week. I accepted on "
            "the 8th of May. I start on the 1st of July.",
        )
    )
    (works,) = [f for f in facts if f.predicate == "works_at"]
    assert (works.object, works.modality, works.polarity) == ("Havbrink", "planned", True)
    assert works.occurred_start is not None and works.occurred_start.startswith("2026-07-01")


def test_an_offer_from_a_person_or_not_taken_is_no_employer() -> None:
    offered = "2026-05-20T18:45", "Marco offered me the job the following week. I accepted on the 8th of May."
    assert not [f for f in facts_of(offered) if f.predicate == "works_at"]
    declined = "2026-05-20T18:45", "Havbrink Energy offered me the job last week, but I turned it down."
    assert not [f for f in facts_of(declined) if f.predicate == "works_at"]


def test_names_with_central_european_letters() -> None:
    facts = facts_of(("2026-04-19T20:10", "My sister Ioana got a job at Aerolinia Carpatică in Kraków."))
    assert [(f.subject, f.object) for f in facts if f.predicate == "works_at"] == [("Ioana", "Aerolinia Carpatică")]


def test_a_move_then_the_place_arrived_in() -> None:
    facts = facts_of(
        (
            "2026-07-12T11:20",
            "Good morning. We have moved! We drove down from Trondheim with the cat and arrived in Stavanger on "
            "Saturday the 27th of June.",
        )
    )
    homes = [f for f in facts if f.predicate == "lives_in"]
    assert [(f.object, f.polarity) for f in homes] == [("Stavanger", True)]
    assert homes[0].valid_from is not None and homes[0].valid_from.startswith("2026-06-27")
    trip = "2026-07-12T11:20", "We arrived in Rome on Saturday and the hotel is lovely."
    assert not [f for f in facts_of(trip) if f.predicate == "lives_in"]
    someone_else = "2026-07-12T11:20", "We have moved! My sister arrived in Leeds on Friday to help."
    assert not [f for f in facts_of(someone_else) if f.predicate == "lives_in"]
    helper = "2026-07-12T11:20", "We have moved! We drove down and Tom arrived in Leeds on Friday."
    assert not [f for f in facts_of(helper) if f.predicate == "lives_in"]
    holiday = "2026-07-12T11:20", "We have moved! Well, for the holiday: we arrived in Nice on Saturday."
    assert not [f for f in facts_of(holiday) if f.predicate == "lives_in"]


def test_an_employer_question_asks_no_job_title() -> None:
    assert state_predicates("Which company do I work for now?") == ("works_at",)
    assert state_predicates("Who do I work for?") == ("works_at",)
    assert state_predicates("Where do I work?") == ("works_at", "job")
    assert state_predicates("What is my job now?") == ("job", "works_at")


CHANGING: History = [
    ("2026-03-10T19:05", "I work as a cartographic technician at Nordvik Survey here in Trondheim."),
    (
        "2026-05-20T18:45",
        "The interview went well, and Havbrink Energy offered me the job the following week. I accepted on the 8th "
        "of May. I start on the 1st of July.",
    ),
    ("2026-05-20T18:47", "My last day at Nordvik Survey will be Friday the 26th of June."),
    (
        "2026-07-12T11:20",
        "We have moved! We drove down from Trondheim and arrived in Stavanger on Saturday the 27th of June.",
    ),
]
GRAZ: History = [
    (
        "2026-03-15T16:30",
        "I've decided to apply for a master's at the University of Graz. The deadline is the 31st of this month.",
    ),
    (
        "2026-04-19T20:10",
        "The application went in on the 29th. AND they've invited me to an online interview next Friday.",
    ),
    ("2026-06-10T12:45", "GUESS WHO GOT IN. The acceptance email came on the 2nd, I read it at the pharmacy counter."),
    (
        "2026-10-25T18:20",
        "Hello from Graz!!! The flat is great, although Liesl moved out last week to live with her girlfriend.",
    ),
]
HOLIDAY: History = [
    (
        "2026-06-01T21:15",
        "We've had to postpone the Dordogne holiday. The owner was nice about it, we're going from August 8th instead.",
    ),
    ("2026-07-12T19:30", "Lotte's started at a summer art camp, and Jasper swam 25 metres on Wednesday!"),
]
TENURE: History = [
    ("2026-03-05T22:40", "im a baker at harbourlight bakery in dunedin, been there like 3 yrs now. pay is ok"),
    ("2026-05-16T13:00", "GOT THE APPRENTICESHIP!!! handed in notice at the bakery, my last day there is the 29th"),
]
READING: History = [
    ("2023-05-27T10:00", "I started reading The Lean Startup, it's great so far."),
    ("2023-06-10T10:00", "I've been reading a lot lately, I finished two novels last week."),
]
CASES = [
    # a hit naming the thing and saying no time is dated by the day it was said, not by another hit's time
    ("no-time-said-keeps-its-day", READING, "2023-07-01", "When did I start reading The Lean Startup?", "27 May 2023"),
    # a span is read from the words saying it, not answered with the employer (nor abstained on once it ended)
    ("how-long-at-an-ended-job", TENURE, "2026-11-03", "how long did i work at harbourlight bakery?", "3 yrs"),
    # a hit naming Graz with its time said of something else ("Liesl moved out last week") dates no interview
    (
        "the-thing-asked-not-the-place",
        GRAZ,
        "2026-10-26",
        "When was my Graz interview?",
        "24 April 2026 (the Friday after 19 April 2026)",
    ),
    ("the-email-not-the-place", GRAZ, "2026-10-26", "When did I get the acceptance email from Graz?", "2 June 2026"),
    # ... but a time in the sentence going on about it does
    ("the-sentence-after", HOLIDAY, "2026-07-14", "When does our Dordogne holiday start?", "8 August 2026"),
    ("before-the-first-day", CHANGING, "2026-06-04", "Which company do I work for now?", "Nordvik Survey"),
    (
        "after-the-first-day",
        CHANGING,
        "2026-10-04",
        "Which company do I work for now?",
        "Havbrink Energy (previously Nordvik Survey)",
    ),
    ("the-day-accepted", CHANGING, "2026-10-04", "When did I accept the job offer from Havbrink?", "8 May 2026"),
    (
        "the-place-arrived-in",
        CHANGING,
        "2026-10-04",
        "Which city do I live in now?",
        "Stavanger (previously Trondheim)",
    ),
]


@pytest.mark.parametrize(("history", "now", "question", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_answer(
    scenario_memories: dict[int, Memory], history: History, now: str, question: str, expected: str | None
) -> None:
    check_answer(*answered(scenario_memories, history, now, question), expected)


def test_an_offer_followed_by_its_start_is_taken() -> None:
    taken = (
        "2026-04-05T10:00",
        "The interview at Terrafirma went well. Terrafirma offered me the job! I start on May 4th.",
    )
    (works,) = [f for f in facts_of(taken) if f.predicate == "works_at"]
    assert (works.object, works.modality) == ("Terrafirma", "planned")
    assert works.occurred_start is not None and works.occurred_start.startswith("2026-05-04")
    person = "2026-04-05T10:00", "Marco offered me the job! I start on May 4th."  # a name, not said as a firm
    assert not [f for f in facts_of(person) if f.predicate == "works_at"]
    unsure = "2026-04-05T10:00", "Terrafirma Ltd offered me the job, but I'm not sure. I start on May 4th at Kelp."
    assert not [f for f in facts_of(unsure) if f.predicate == "works_at" and f.object == "Terrafirma"]
    turned_down = "2026-04-05T10:00", "Terrafirma Ltd offered me the job. I turned it down."
    assert not [f for f in facts_of(turned_down) if f.predicate == "works_at"]
