"""The regressions a fresh-eyes review of the thirty-sixth session's change found, each kept as a case (real rules
extractor, offline reader; scripts in the session's scratch review36 folder)."""

from __future__ import annotations

from datetime import datetime

import pytest

from sodamem import Memory
from sodamem.answer.activities import asks_for_sports
from sodamem.answer.state import state_predicates
from sodamem.answer.yes_no import ended_by_now, says_it_ended
from sodamem.ingest.timeparse import find_times

from .scenario_histories import ABSTAIN, History, answered, check_answer


@pytest.mark.parametrize(
    ("sentence", "question"),
    [
        # what one belongs to, at a place or with someone: still an ending once its day has passed
        ("I'm leaving my job at Acme on Friday.", "Do I still work at Acme?"),
        ("I'm quitting my role at Deloitte at the start of July.", "Do I still work at Deloitte?"),
        ("I'm stopping therapy with Dr Green in two weeks.", "Do I still have therapy with Dr Green?"),
    ],
)
def test_an_ending_ahead_at_a_place_still_ends(sentence: str, question: str) -> None:
    assert ended_by_now(sentence, question, datetime(2026, 1, 10), datetime(2026, 12, 1))


@pytest.mark.parametrize(
    ("sentence", "question"),
    [
        ("Worked my last shift at the pub before my holiday, back in two weeks", "Do I still work at the pub?"),
        ("Taught my last class at the dojo for a while, off to Japan for a month", "Do I still teach at the dojo?"),
        ("Had our last rehearsal with the band before the gig tomorrow", "Am I still in the band?"),
        ("I got my guitar from Dave, he sold it to me for fifty quid", "Do I still have my guitar?"),
        ("Puffin needed so much work that I nearly sold it", "Do I still have Puffin?"),
        ("the shop sold it before I could buy it, Puffin is still mine", "Do I still have Puffin?"),
        ("my shift at the cafe is finally over, so tired", "Do I still work at the cafe?"),
        ("Leo's now over six feet and still loves basketball", "Does Leo still play basketball?"),
    ],
)
def test_a_break_a_seller_or_an_adverb_is_no_ending(sentence: str, question: str) -> None:
    assert not says_it_ended(sentence, question)


@pytest.mark.parametrize(
    "text",
    [
        "I do a lot of writing for work",
        "I do a lot of cooking for the kids",
        "I do painting and decorating",
        "I've done a marathon for charity",
        "I play football on Saturday against Leeds",
        "I play football on the Xbox most nights",
        "I play drums in a band, it's my job",
        "When I was young I play piano every day, my mum made me",
        "I'm playing football right now",
        "I've played football since I was five but my knee is wrecked so that's it",
    ],
)
def test_no_pastime_kept_up(text: str) -> None:
    with Memory(":memory:", embedder="none") as memory:
        memory.add([{"role": "user", "text": text}], session_id="s", timestamp=datetime(2026, 3, 1, 10))
        assert not [f for f in memory.facts() if f.predicate == "practises"]


@pytest.mark.parametrize(
    "text",
    [
        "you may remember I broke my wrist in June",
        "I may not have gone in June",
        "she may well have left in June",
        "I may be wrong but I think we moved in June",
        "it may sound silly but I cried at the wedding in June",
        "I may as well tell you, I quit in June",
    ],
)
def test_may_of_a_saying_looks_back(text: str) -> None:
    (june,) = find_times(text, datetime(2024, 8, 10))
    assert june.spec.start == datetime(2024, 6, 1)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Got my sister a job at Tesco", []),  # "Got ..." opens no clause of the speaker's but a promotion
        ("Got an interview for a job at Google", []),
        ("I got promoted to deputy sunday editor", [("job", "deputy sunday editor")]),  # a day inside the title
        ("I'm thinking of joining Google as an engineer next year", []),
        ("Joined Tinder as a joke", []),
        ("I joined Dr Patel as a patient", []),
    ],
)
def test_no_job_from_a_got_a_hedge_or_a_joke(text: str, expected: list[tuple[str, str]]) -> None:
    with Memory(":memory:", embedder="none") as memory:
        memory.add([{"role": "user", "text": text}], session_id="s", timestamp=datetime(2024, 5, 10, 10))
        assert [(f.predicate, f.object) for f in memory.facts() if f.predicate in ("job", "works_at")] == expected


def test_mixed_questions_ask_for_every_pastime() -> None:
    assert not asks_for_sports("What sport or hobby do I do?")
    assert not asks_for_sports("What hobbies and sports do I do?")
    assert state_predicates("What is my company's name?") == ("works_at",)


TOM_MIGHT: History = [
    ("2026-01-10T10:00", "Tom lives in York."),
    ("2026-05-10T10:00", "Tom told me he might move to Leeds in July."),
]
TEAMS: History = [
    ("2026-01-10T10:00", "I live in Dublin."),
    ("2026-05-01T10:00", "I'm moving to Galway on June 1st."),
    ("2026-05-20T10:00", "ugh our move to Teams got delayed again, IT is hopeless"),
]
ROLE_MOVED: History = [
    ("2026-01-10T10:00", "I work at Globex."),
    ("2026-05-01T10:00", "I'm starting at Acme on June 3rd."),
    ("2026-05-20T10:00", "good news, my role at Acme has been moved to the platform team"),
]
OFFER_IF: History = [
    ("2026-01-10T10:00", "I work at Globex."),
    ("2026-04-05T10:00", "Terrafirma Ltd offered me the job. I start on May 4th if I accept."),
]
DIAGNOSED: History = [("2024-05-10T10:00", "I was diagnosed with diabetes back in 2019")]
BRACES_OFF: History = [("2024-05-10T10:00", "I finally got my braces off last month")]
COLD: History = [("2024-05-10T10:00", "I had a cold last week, all better now")]
SISTERS_PUPPY: History = [("2024-05-10T10:00", "My sister got a puppy called Rolo in May")]
TOFFEE_FOR_YEARS: History = [("2024-05-10T10:00", "We've had Toffee for years, she's a good girl.")]
BOUGHT_THE_VAN: History = [("2024-05-10T10:00", "Bought my van in March, best decision.")]
HYGIENIST: History = [("2024-03-01T10:00", "I work at Brightsmile Dental as a hygienist.")]
SISTER_RESIGNED: History = [
    *HYGIENIST,
    ("2024-05-10T10:00", "My sister resigned from Tesco. My last day is June 30th, then the school hols start"),
]
LANDLORD: History = [*HYGIENIST, ("2024-05-10T10:00", "Gave notice to my landlord, my last day is June 30th")]
STRAVA: History = [*HYGIENIST, ("2024-05-10T10:00", "I joined Strava as a premium member")]
CASES = [
    ("got-undated", DIAGNOSED, "2024-08-01", "How long have I had diabetes?", ABSTAIN),  # not "since 10 May 2024"
    ("braces-off", BRACES_OFF, "2024-08-01", "How long have I had braces?", ABSTAIN),
    ("had-a-cold", COLD, "2024-08-01", "How long have I had a cold?", ABSTAIN),
    ("someone-elses-puppy", SISTERS_PUPPY, "2024-08-01", "How long have I had Rolo?", ABSTAIN),
    ("a-span-said", TOFFEE_FOR_YEARS, "2024-08-01", "How long have we had Toffee?", "for years"),
    ("got-without-i", BOUGHT_THE_VAN, "2024-08-01", "How long have I had my van?", "about 5 months (since March 2024)"),
    ("someone-elses-notice", SISTER_RESIGNED, "2024-07-05", "Where do I work?", "Brightsmile Dental"),
    ("notice-to-a-landlord", LANDLORD, "2024-07-05", "Where do I work?", "Brightsmile Dental"),
    ("joined-as-no-job", STRAVA, "2024-07-05", "Where do I work?", "Brightsmile Dental"),
    ("a-hedged-move-told-of", TOM_MIGHT, "2026-08-20", "Where does Tom live?", "York"),
    ("another-move-delayed", TEAMS, "2026-07-01", "Where do I live?", "Galway (previously Dublin)"),
    ("a-role-moved", ROLE_MOVED, "2026-07-01", "Where do I work?", "Acme (previously Globex)"),
    ("an-offer-if-accepted", OFFER_IF, "2026-06-01", "Where do I work?", "Globex"),
]


@pytest.mark.parametrize(("history", "now", "question", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_answer_or_abstain(
    scenario_memories: dict[int, Memory], history: History, now: str, question: str, expected: str | None
) -> None:
    check_answer(*answered(scenario_memories, history, now, question), expected)
