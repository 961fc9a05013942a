"""Yes/no questions about what holds now: endings said many ways ("I dropped the ceramics class", "I've decided to
leave the band"), what was only supposed or suggested ("Ruben keeps telling me I should move to Antwerp"), a value
that does not hold ("Do I live in York?" while Leeds does), and a housemate asked by name."""

from __future__ import annotations

from datetime import datetime

import pytest

from sodamem import Memory
from sodamem.answer.yes_no import described_as, ended_by_now, only_supposed, says_it_ended

from .scenario_histories import ABSTAIN, History, answered, check_answer

CERAMICS: History = [
    ("2025-09-20T11:00", "I signed up for a ceramics class at the Clay Co-op, Thursday nights."),
    ("2025-11-23T13:00", "Also I dropped the ceramics class, I couldn't make Thursdays work."),
]
LISBON: History = [
    ("2026-02-15T21:10", "We had a trip to Lisbon booked for April 14th, we might have to cancel it."),
    ("2026-03-08T13:00", "We did cancel Lisbon in the end, got most of the money back."),
]
BAND: History = [
    ("2026-05-09T20:00", "In band news, I play trumpet in the Harmonie Sint-Cecilia, we have a concert on the 30th."),
    ("2026-06-20T10:00", "I've decided to leave the band. I can't do Tuesday rehearsals anymore."),
]
POTTERY: History = [
    ("2026-01-10T10:00", "I go to a pottery class on Mondays."),
    ("2026-03-10T10:00", "I stopped going to pottery, too expensive."),
]
SUPPOSED: History = [
    ("2026-01-10T10:00", "If I had a spare million I'd buy a little cottage in Daylesford."),
    (
        "2026-05-09T20:00",
        "My colleague Ruben keeps telling me I should move to Antwerp. He's from Antwerp, so, biased.",
    ),
]
SAID: History = [
    ("2026-01-10T10:00", "We adopted a greyhound called Bolt last week!"),
    ("2026-01-12T10:00", "We're moving to Antwerp in March, the flat is booked."),
]
HOME: History = [
    ("2025-09-01T14:00", "My sister lives in York."),
    ("2025-09-06T14:00", "I live in Leeds with my roommate Beckett."),
    ("2025-10-11T16:30", "Beckett moved out last week, he's with his girlfriend now."),
]
# the ending is said among many other turns, and an assistant's words say nothing of the user
BUSY_MONTHS: History = [
    ("2026-02-15T21:10", "We had a trip to Lisbon booked for April 14th, we might have to cancel it."),
    *[
        (f"2026-02-{day}T10:00", f"Work was busy on day {day}, lots of meetings about the Lisbon office.")
        for day in range(16, 28)
    ],
    ("2026-03-08T13:00", "We did cancel Lisbon in the end, got most of the money back."),
    *[(f"2026-03-{day}T10:00", f"Another busy day {day}, the team in Lisbon is great.") for day in range(10, 20)],
]
SOLD: History = [
    ("2026-01-25T10:00", "our old Alto is also dying so factor that in"),
    ("2026-03-30T19:00", "and we sold the Alto last week!! to our driver's cousin."),
]
CHOIR: History = [
    ("2026-01-12T20:10", "I sing in a choir, it's on wednesdays at 7."),
    ("2026-03-01T21:00", "the sad bit is i had to leave the choir. sang my last concert with them on the 14th"),
]
WORK: History = [
    ("2025-09-06T14:00", "I work at Hollis Construction as a site manager."),
    ("2025-09-07T14:00", "I live in Ancoats in Manchester."),
]
SOLD_BESIDE: History = [
    ("2026-01-10T10:00", "I drive an old Yaris to work, it's fine."),
    ("2026-03-21T10:36", "sold my car today btw, the old yaris. there was no point keeping it."),
]
REHOMED: History = [
    ("2026-05-04T17:00", "Her cat Luna moved in with us too."),
    ("2026-08-20T22:00", "and we rehomed luna :( she and our other cat never got along"),
]
REHOMED_FROM_A_RESCUE: History = [
    ("2026-01-10T10:00", "I have a cat called Miso."),
    ("2026-02-10T10:00", "We just rehomed a second cat from Cats Protection, Miso is not impressed!"),
]
SOLD_ONE_KEPT_ANOTHER: History = [
    ("2026-01-10T10:00", "We have a car and a bike."),
    ("2026-02-10T10:00", "Sold my bike last week, the car is enough for me now."),
]
GIVEN_TO: History = [
    ("2026-03-10T19:05", "I need care for Pemberton, my Hermann's tortoise, while we are away."),
    ("2026-10-03T16:00", "Sad news. We have given Pemberton to Joakim's son Eskil, who has a heated greenhouse."),
]
GAVE_IT_A_COAT: History = [
    ("2026-03-10T19:05", "I have a boat called Gannet."),
    ("2026-10-03T16:00", "I gave Gannet a fresh coat of paint and gave a talk to the sailing club."),
]
SOLD_BY_NAME: History = [
    ("2026-03-10T19:05", "I have a boat called Gannet."),
    ("2026-10-03T16:00", "Sold Gannet last Saturday, no time for her anymore."),
]
DROPPED_A_DOING: History = [
    ("2026-04-02T07:50", "also welding night course. mondays since march 9."),
    ("2026-04-28T21:05", "dropped welding. too tired after shifts. last class april 20."),
]
DROPPED_EVERYTHING: History = [
    ("2026-04-02T07:50", "I go to a welding night course on Mondays."),
    ("2026-04-28T21:05", "I dropped everything and drove to the hospital, my welding course can wait a week."),
]
CAT_TO_PARENTS: History = [
    ("2026-03-15T16:30", "Someone has to feed Pătrunjel (my cat, orange) while I'm away."),
    ("2026-08-23T21:00", "Also, Pătrunjel moves to my parents' in Turda next weekend. I'm trying not to cry."),
]
STOPPING_AHEAD: History = [
    ("2026-04-06T12:20", "i also started sax lessons in feb. teacher is mr pillay"),
    ("2026-06-19T09:45", "and i'm stopping sax lessons at the end of june. no point with the move."),
]
LENT_FOR_A_WHILE: History = [
    ("2026-03-10T19:05", "I have a dog called Rex."),
    ("2026-05-10T19:05", "I gave Rex to my neighbour for the weekend while we were away."),
]
VISITING: History = [
    ("2026-03-10T19:05", "I have a cat called Pip."),
    ("2026-05-10T19:05", "Pip went to my parents for the weekend while we were in Rome."),
]
DROPPED_GOGGLES: History = [
    ("2026-03-10T19:05", "I go swimming every week."),
    ("2026-05-10T19:05", "I dropped swimming goggles in the pool, lol."),
]
BIKE_LEFT_AT_THE_SHOP: History = [
    ("2026-03-10T19:05", "I bought a road bike, a blue Bianchi."),
    ("2026-05-08T19:05", "I'm leaving my bike at the shop on Monday, the gears are slipping."),
]
SMOKE_FREE: History = [
    ("2025-05-01T09:00", "trying to quit smoking, day 3 lol"),
    ("2025-10-20T09:00", "smoke free since oct 6!! using patches this time, way better"),
]
GLUTEN_FREE: History = [
    ("2025-05-01T09:00", "I eat a lot of bread."),
    ("2025-10-20T09:00", "Went gluten free last month, feel great."),
]
TRYING_DAIRY_FREE: History = [
    ("2025-05-01T09:00", "I love cheese."),
    ("2025-10-20T09:00", "I'm trying to go dairy free."),
]
SMOKE_FREE_HOTEL: History = [
    ("2025-05-01T09:00", "I smoke about ten a day."),
    ("2025-10-20T09:00", "The hotel is smoke free, so annoying."),
]
SUGAR_FREE_GUM: History = [
    ("2025-05-01T09:00", "I eat way too much sugar."),
    ("2025-10-20T09:00", "I chew sugar free gum at work."),
]
FREE_ON_SATURDAY: History = [
    ("2025-05-01T09:00", "My flatmate Tom pays half the rent."),
    ("2025-10-20T09:00", "Tom is free on Saturday if you want to meet."),
]
CASES = [
    ("smoke-free", SMOKE_FREE, "2026-01-01", "Do I still smoke?", "No"),
    ("gluten-free", GLUTEN_FREE, "2026-01-01", "Do I eat gluten?", "No"),
    ("trying-to-go-dairy-free", TRYING_DAIRY_FREE, "2026-01-01", "Do I eat dairy?", "Yes"),
    ("free-on-a-day", FREE_ON_SATURDAY, "2026-01-01", "Do I still live with Tom?", "Yes"),
    ("a-place-smoke-free", SMOKE_FREE_HOTEL, "2026-01-01", "Do I still smoke?", "Yes"),
    ("a-thing-sugar-free", SUGAR_FREE_GUM, "2026-01-01", "Do I eat sugar?", "Yes"),
    ("left-somewhere-is-kept", BIKE_LEFT_AT_THE_SHOP, "2026-10-01", "Do I still have my bike?", "Yes"),
    ("lent-for-a-while", LENT_FOR_A_WHILE, "2026-10-01", "Do I still have Rex?", "Yes"),
    ("visiting-for-a-while", VISITING, "2026-10-01", "Do I still have Pip?", "Yes"),
    ("dropped-a-thing", DROPPED_GOGGLES, "2026-10-01", "Do I still go swimming?", "Yes"),
    ("a-dated-ending-passed", STOPPING_AHEAD, "2026-09-04", "Do I still take sax lessons?", "No"),
    ("a-dated-ending-to-come", STOPPING_AHEAD, "2026-06-20", "Do I still take sax lessons?", "Yes"),
    ("dropped-a-doing", DROPPED_A_DOING, "2026-10-16", "Am I still doing the welding course?", "No"),
    (
        "dropped-everything-is-no-ending",
        DROPPED_EVERYTHING,
        "2026-05-01",
        "Do I still go to the welding course?",
        "Yes",
    ),
    ("gone-to-live-with-the-parents", CAT_TO_PARENTS, "2026-10-26", "Do I still have Pătrunjel?", "No"),
    ("given-to-someone", GIVEN_TO, "2026-10-04", "Do I still have Pemberton?", "No"),
    ("given-a-coat-is-kept", GAVE_IT_A_COAT, "2026-10-04", "Do I still have Gannet?", "Yes"),
    ("sold-by-name", SOLD_BY_NAME, "2026-10-04", "Do I still have Gannet?", "No"),
    ("rehomed-from-a-rescue-is-adopting", REHOMED_FROM_A_RESCUE, "2026-03-01", "Do I still have Miso?", "Yes"),
    ("the-thing-beside-is-kept", SOLD_ONE_KEPT_ANOTHER, "2026-03-01", "Do I still have a car?", "Yes"),
    ("sold-named-beside", SOLD_BESIDE, "2026-04-30", "Do I still have my Yaris?", "No"),
    ("rehomed-by-name", REHOMED, "2026-08-30", "Do we still have Luna?", "No"),
    ("dropped-the-class", CERAMICS, "2025-12-16", "Do I still take the ceramics class?", "No"),
    ("did-cancel", LISBON, "2026-04-05", "Are we still going to Lisbon in April?", "No"),
    ("decided-to-leave-the-band", BAND, "2026-07-14", "Do I still play in the Harmonie Sint-Cecilia?", "No"),
    ("stopped-going", POTTERY, "2026-04-05", "Do I still go to pottery?", "No"),
    ("only-if", SUPPOSED, "2026-06-01", "Do I have a cottage in Daylesford?", ABSTAIN),
    ("only-suggested", SUPPOSED, "2026-06-01", "Are we moving to Antwerp?", ABSTAIN),
    ("said-plainly", SAID, "2026-02-01", "Do we have a greyhound?", "Yes"),
    ("moving-plainly", SAID, "2026-02-01", "Are we moving to Antwerp?", "Yes"),
    ("cancelled-among-many", BUSY_MONTHS, "2026-04-05", "Are we still going to Lisbon in April?", "No"),
    ("sold-it", SOLD, "2026-06-22", "Do we still have the Alto?", "No"),
    ("had-to-leave", CHOIR, "2026-04-20", "Am I still in the choir?", "No"),
    ("another-city", HOME, "2025-12-16", "Do I live in York?", "No, Leeds"),  # York: where the sister lives
    ("the-short-name", WORK, "2025-12-16", "Do I work at Hollis?", "Yes"),
    ("a-bigger-place", WORK, "2025-12-16", "Do I live in Manchester?", "Ancoats"),  # no "No" to what may hold it
    ("housemate-left", HOME, "2025-12-16", "Does Beckett still live with me?", "No"),
]


@pytest.mark.parametrize(("history", "now", "question", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_answer_or_abstain(
    scenario_memories: dict[int, Memory], history: History, now: str, question: str, expected: str | None
) -> None:
    check_answer(*answered(scenario_memories, history, now, question), expected)


@pytest.mark.parametrize(
    ("sentence", "question", "supposed"),
    [
        ("Ruben keeps telling me I should move to Antwerp.", "Are we moving to Antwerp?", True),
        ("If I had the money I'd buy a cottage in Daylesford.", "Do I have a cottage?", True),
        ("Maybe a retired racing greyhound someday?", "Do we have a greyhound?", True),
        ("We're moving to Antwerp in March.", "Are we moving to Antwerp?", False),
        ("We adopted a greyhound, and maybe a cat later.", "Do we have a greyhound?", False),  # the cat is supposed
        ("If it rains we stay in.", "Would Melanie enjoy Vivaldi?", False),  # a question that itself supposes
    ],
)
def test_only_supposed(sentence: str, question: str, supposed: bool) -> None:
    assert only_supposed(sentence, question) is supposed


def test_leaving_a_thing_somewhere_ends_nothing_once_its_day_passes() -> None:
    said, now = datetime(2026, 5, 8, 19), datetime(2026, 6, 1)
    assert not ended_by_now("I'm leaving my bike at the shop on Monday.", "Do I still have my bike?", said, now)
    assert not ended_by_now("I'm leaving my bike with Tom on Monday.", "Do I still have my bike?", said, now)
    assert ended_by_now("I'm leaving the choir on Monday.", "Am I still in the choir?", said, now)
    assert ended_by_now("I'm quitting the choir at the end of May.", "Am I still in the choir?", said, now)


def test_an_ending_names_what_it_ended_after_going_to() -> None:
    assert says_it_ended("I stopped going to pottery, too expensive.", "Do I still go to pottery?")
    assert not says_it_ended("I stopped going to the gym.", "Do I still go to pottery?")


def test_a_group_said_beside_its_name_describes_it() -> None:
    said = ["In band news, I play trumpet in the Harmonie Sint-Cecilia."]
    assert described_as("Do I still play in the Harmonie Sint-Cecilia?", said) == {"band"}
    assert described_as("Do I still play in the Harmonie Sint-Cecilia?", ["I met Harmonie at the club."]) == set()


def test_the_assistants_words_do_not_answer_the_users_yes_no() -> None:
    with Memory(":memory:", embedder="fake") as memory:
        said = datetime(2026, 4, 2, 18, 20)
        memory.add(
            [
                {"role": "user", "text": "We're kind of thinking about a second dog eventually. Nothing decided."},
                {"role": "assistant", "text": "Greyhounds are famously lazy indoors, they can be great companions."},
            ],
            session_id="s1",
            timestamp=said,
        )
        answer = memory.ask("Do we have a greyhound?", now=datetime(2026, 4, 5), offline=True)
        assert answer.abstained, answer.answer


def test_a_when_answer_takes_the_time_of_the_clause_that_says_the_question() -> None:
    with Memory(":memory:", embedder="fake") as memory:
        text = "we're going to nigeria! mum turns 70 on 25 july. flights booked, we fly out on the 21st"
        memory.add([{"role": "user", "text": text}], session_id="s1", timestamp=datetime(2026, 7, 4, 17, 0))
        answer = memory.ask("What day do we fly out to Nigeria?", now=datetime(2026, 7, 6), offline=True)
        assert "21 July 2026" in answer.answer, answer.answer


@pytest.mark.parametrize(
    ("sentence", "question", "ended"),
    [
        ("Puffin's gone, sold it to a guy from Cobh.", "Do I still have Puffin?", True),  # named before "it"
        ("I loved Puffin but sold it on Monday to Ed.", "Do I still have Puffin?", True),
        ("Puffin? I sold him on the idea of kayaking.", "Do I still have Puffin?", False),
        ("Sang my last concert with the choir on Saturday, bittersweet.", "Am I still singing in the choir?", True),
        ("I played my final game for Rovers yesterday.", "Do I still play for Rovers?", True),
        ("Played my last match of the season with the club.", "Do I still play for the club?", False),
        ("Had my last lesson before the holidays with the choir.", "Am I still in the choir?", False),
        ("I played my last game for Rovers.", "Did I play my last game for Rovers?", False),  # asks the ending
    ],
)
def test_a_thing_sold_by_its_pronoun_and_a_last_time_end_it(sentence: str, question: str, ended: bool) -> None:
    assert says_it_ended(sentence, question) is ended
