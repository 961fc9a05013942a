"""Taking up a job or a home, said the ways people announce them (``rules_taking_up``), and a name after a word
that opens a sentence ("So Sam is moving")."""

from __future__ import annotations

from datetime import datetime

import pytest

from sodamem.ingest.extract.base import Extraction, SessionView, TurnView
from sodamem.ingest.extract.rules import RulesExtractor
from sodamem.ingest.extract.rules_case import capital_i
from sodamem.ingest.pieces import split_pieces
from sodamem.model import FactKind, Modality

K, M = FactKind, Modality
A, P = M.ASSERTED, M.PLANNED
SPEAKER = "user"
Fact = tuple[FactKind, str, str, str | None, Modality, bool]


def extract(*texts: str) -> Extraction:
    turns = tuple(TurnView(i, f"s:{i}", SPEAKER, t, tuple(split_pieces(t))) for i, t in enumerate(texts))
    return RulesExtractor().extract(SessionView("s", datetime(2025, 3, 1, 10, 0), turns, (SPEAKER,)))


def facts(*texts: str) -> set[Fact]:
    return {(f.kind, f.predicate, f.subject, f.object, f.modality, f.polarity) for f in extract(*texts).facts}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "I'm Marcus by the way, site manager at Hollis Construction here in Brisbane.",
            {
                (K.STATE, "works_at", SPEAKER, "Hollis Construction", A, True),
                (K.ATTRIBUTE, "job", SPEAKER, "site manager", A, True),
            },
        ),
        (
            "For context I'm Zainab, backend dev at Northwind Analytics, been there three years.",
            {
                (K.STATE, "works_at", SPEAKER, "Northwind Analytics", A, True),
                (K.ATTRIBUTE, "job", SPEAKER, "backend dev", A, True),
            },
        ),
        ("Two weeks in at Octopus and I'm loving it honestly.", {(K.STATE, "works_at", SPEAKER, "Octopus", A, True)}),
        ("Took the Coastline job. Handed in my notice today.", {(K.STATE, "works_at", SPEAKER, "Coastline", A, True)}),
        ("I accepted the offer from Zalando!", {(K.STATE, "works_at", SPEAKER, "Zalando", A, True)}),
        # working for oneself is the job, said with the subject left out too (a dev probe's miss)
        (
            "big move: i quit hartwell. going freelance, doing bookkeeping for small businesses",
            {(K.ATTRIBUTE, "job", SPEAKER, "freelance", A, True)},
        ),
        ("I'm self-employed now.", {(K.ATTRIBUTE, "job", SPEAKER, "self-employed", A, True)}),
        ("Went freelance in May.", {(K.ATTRIBUTE, "job", SPEAKER, "freelance", A, True)}),
        ("I quit meat. going vegan, eating beans mostly", {(K.ATTRIBUTE, "diet", SPEAKER, "vegan", A, True)}),
        # the firm by the name it is called, and a job said with its subject left out (dev probes' misses)
        (
            "im a backend dev at a fintech in lisbon called Paylo",
            {(K.STATE, "works_at", SPEAKER, "Paylo", A, True), (K.ATTRIBUTE, "job", SPEAKER, "backend dev", A, True)},
        ),
        ("also working weekends at chatime (bubble tea)", {(K.STATE, "works_at", SPEAKER, "Chatime", A, True)}),
        ("Working for Google now, it's wild", {(K.STATE, "works_at", SPEAKER, "Google", A, True)}),
        # a job taken with "a" or "my" (the first read nothing)
        ("I got a Saturday job at Tesco.", {(K.STATE, "works_at", SPEAKER, "Tesco", A, True)}),
        ("I got a part-time job at the Lantern Cafe", {(K.STATE, "works_at", SPEAKER, "Lantern Cafe", A, True)}),
        (
            "I finally landed a new job as a line cook at Rosemary's Kitchen!",
            {
                (K.STATE, "works_at", SPEAKER, "Rosemary's Kitchen", A, True),
                (K.ATTRIBUTE, "job", SPEAKER, "line cook", A, True),
            },
        ),
        ("Sam moved in last Thursday with her cat.", {(K.RELATION, "housemate", SPEAKER, "Sam", A, True)}),
        ("So Sam's moving in on May 1st!", {(K.PLAN, "housemate", SPEAKER, "Sam", P, True)}),
        ("My partner Sam moved in with me last month.", {(K.RELATION, "housemate", SPEAKER, "Sam", A, True)}),
        (
            "The Montreal move is set for April 28, I booked the movers.",
            {(K.PLAN, "moved", SPEAKER, "Montreal", P, True)},
        ),
        (
            "I'm moving to Rotterdam, found a flat. I move on November 1st.",
            {(K.PLAN, "moved", SPEAKER, "Rotterdam", P, True)},
        ),
        ("So Sam is moving to Leeds.", {(K.PLAN, "moved", "Sam", "Leeds", P, True)}),
        # employers and jobs said in passing
        (
            "I'm a pharmacy tech at Brightwater Pharmacy here in Halifax, been there three years.",
            {
                (K.ATTRIBUTE, "job", SPEAKER, "pharmacy tech", A, True),
                (K.STATE, "works_at", SPEAKER, "Brightwater Pharmacy", A, True),
                (K.STATE, "lives_in", SPEAKER, "Halifax", A, True),
            },
        ),
        (
            "I also work part time as a barista at Copper Kettle Café.",
            {(K.STATE, "works_at", SPEAKER, "Copper Kettle Café", A, True)},
        ),
        (
            "I got a research assistant position at the Sonoran Water Lab on campus!",
            {
                (K.STATE, "works_at", SPEAKER, "Sonoran Water Lab", A, True),
                (K.ATTRIBUTE, "job", SPEAKER, "research assistant", A, True),
            },
        ),
        ("I've accepted a job with the City of Ghent!", {(K.STATE, "works_at", SPEAKER, "City of Ghent", A, True)}),
        (
            "My title is technically 'graduate research technician', HR says.",
            {(K.ATTRIBUTE, "job", SPEAKER, "graduate research technician", A, True)},
        ),
        (
            "Title's clinical pharmacy assistant, like the posting said.",
            {(K.ATTRIBUTE, "job", SPEAKER, "clinical pharmacy assistant", A, True)},
        ),
        (
            "We made it! We're officially in Moncton, been here a week now.",
            {(K.STATE, "lives_in", SPEAKER, "Moncton", A, True)},
        ),
        ("I've been seeing someone new. His name's Santiago.", {(K.RELATION, "dating", SPEAKER, "Santiago", A, True)}),
        (
            "Lingvara (a localisation company) offered me project manager and i took it.",
            {
                (K.STATE, "works_at", SPEAKER, "Lingvara", A, True),
                (K.ATTRIBUTE, "job", SPEAKER, "project manager", A, True),
            },
        ),
        (
            "i got offered head chef at the Lantern Room in Carlton. and i said yes.",
            {
                (K.STATE, "works_at", SPEAKER, "Lantern Room", A, True),
                (K.ATTRIBUTE, "job", SPEAKER, "head chef", A, True),
            },
        ),
        (
            "i got a research assistant contract at the Universidad de Valparaíso, starting august 3.",
            {(K.STATE, "works_at", SPEAKER, "Universidad de Valparaíso", A, True)},
        ),
        (
            "so much happened. we moved to viña del mar on the 27th of june! tiny flat near the estero",
            {(K.STATE, "lives_in", SPEAKER, "Viña del Mar", A, True)},
        ),
        (
            "so priya's just moving into my flat in Brunswick instead",
            {(K.STATE, "lives_in", SPEAKER, "Brunswick", A, True)},
        ),
        ("I live up on Cerro Alegre, it's steep.", {(K.STATE, "lives_in", SPEAKER, "Cerro Alegre", A, True)}),
        (
            "thanks. home is a share house in Brunswick with my housemate Yusuf.",
            {(K.STATE, "lives_in", SPEAKER, "Brunswick", A, True)},
        ),
        (
            "We signed a lease on a flat in Fitzroy North, we move on the 20th.",
            {(K.PLAN, "moved", SPEAKER, "Fitzroy North", P, True)},
        ),
        ("And Priya lives in Leeds.", {(K.STATE, "lives_in", "Priya", "Leeds", A, True)}),
    ],
)
def test_announcement_gives_fact(text: str, expected: set[Fact]) -> None:
    assert expected <= facts(text), facts(text)


@pytest.mark.parametrize(
    "text",
    [
        "I got the offer from Zalando, still deciding.",  # an offer only got is no job
        "Didn't get the Monzo job, gutted.",
        "If I take the Monzo job I'd have to move.",
        "Lucy moved in with her boyfriend in Stockport.",  # someone else's home
        "We moved in last week and it's chaos.",  # a home, no housemate
        "My friend Tom, a teacher at Hillcrest, says hi.",  # no self-introduction
        "So now I'm an asthmatic runner, cool cool.",  # a runner for fun
        "I got a summer job offer at Tesco.",
        "I got an offer from Zalando, still deciding.",
        "I do freelance work on weekends.",
        # a second review's finds: a state as its sentence's subject, a time, a parent, a place or a person called
        "going freelance sounds scary",
        "Working at Amazon as an intern was brutal.",
        "Working at Christmas",
        "Working for Dad",
        "I got a job from Indeed.",
        "Working at home today.",
        "Working with Sam on the deck today.",
        "Is it worth going freelance?",
        "freelance rates are brutal",
        "going to the gym later",
        "We got a new job at the Smith house, painting the fence.",  # a task at a house
        "We got a new job at the Old Smith house.",
        "I accepted an offer from Vodafone to upgrade my phone.",  # "an offer": a deal as often as a job
        "I landed a gig at the Blue Note next month.",  # a night's booking
        "I got a job with Dad at the garage.",
        "I got a London job.",  # the capital word names no employer
        "I got the Saturday job at Boots.",
        "I need to get a job at a bank.",
        "If I take a job at Monzo I'd have to move.",
        "Google offered me a job as an engineer but I turned it down.",
        "we moved to town last year.",
        "our old house in Leeds was cold.",
        "my flat in Brunswick is on Airbnb while we're on holiday.",
    ],
)
def test_no_job_or_housemate_for_the_speaker(text: str) -> None:
    got = facts(text)
    assert not {f for f in got if f[2] == SPEAKER and f[1] in ("works_at", "housemate", "job")}, got


def test_a_move_day_said_alone_dates_the_move_named_before_it() -> None:
    (move,) = [
        f
        for f in extract("I'm moving to Rotterdam, found a flat. I move on November 1st.").facts
        if f.object == "Rotterdam" and f.time_expression
    ]
    assert move.time_expression == "on November 1st"


def test_here_in_a_place_on_a_trip_is_no_home() -> None:
    assert not {f for f in facts("I'm here in Rome for a conference, the hotel is lovely.") if f[1] == "lives_in"}
    for stay in (
        "We've been in Rome two weeks now for the conference.",
        "We've been in Rome for two weeks, back home on Friday.",
        "I've been in Sales for two years.",
    ):
        assert not {f for f in facts(stay) if f[1] == "lives_in"}, stay


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("i work at Google now", (K.STATE, "works_at", SPEAKER, "Google", A, True)),
        ("ok so i moved to Berlin last week", (K.STATE, "lives_in", SPEAKER, "Berlin", A, True)),
        ("i'm a nurse at St Mary's", (K.STATE, "works_at", SPEAKER, "St Mary's", A, True)),
    ],
)
def test_a_lower_case_i_is_the_speaker_and_quotes_stay_as_typed(text: str, expected: Fact) -> None:
    out = extract(text)
    assert expected in {(f.kind, f.predicate, f.subject, f.object, f.modality, f.polarity) for f in out.facts}
    for fact in out.facts:
        assert fact.char_start is not None and text[fact.char_start : fact.char_start + len(fact.quote)] == fact.quote
        assert fact.quote.startswith("i")


def test_an_i_inside_other_words_stays_lower_case() -> None:
    assert (
        capital_i("i.e. the Wi-Fi, pi and (i) but i'm here, i said")
        == "i.e. the Wi-Fi, pi and (i) but I'm here, I said"
    )


@pytest.mark.parametrize(
    ("text", "ends", "day"),
    [
        ("Last day at Hollis is the 15th and I start at Coastline on the 25th.", "Hollis", "on the 15th"),
        ("handed in my notice at lunch, my last day there will be feb 25.", None, "feb 25"),
    ],
)
def test_a_last_day_ahead_is_a_dated_ending(text: str, ends: str | None, day: str) -> None:
    (ending,) = [f for f in extract(text).facts if f.predicate == "works_at"]
    assert (ending.object, ending.polarity, ending.modality, ending.time_expression) == (ends, False, P, day)


def test_a_last_day_past_ends_now() -> None:
    (ending,) = [f for f in extract("Last day at Hollis was Friday.").facts if f.predicate == "works_at"]
    assert (ending.object, ending.polarity, ending.modality) == ("Hollis", False, A)


def test_a_home_said_plainly_is_not_replaced_by_its_flat() -> None:
    """ "we live in Manchester now ... our new flat in Ancoats": Manchester is the home said (the bundled example)."""
    said = facts("We did it, we live in Manchester now! Writing this from a sea of boxes in our new flat in Ancoats.")
    assert (K.STATE, "lives_in", SPEAKER, "Manchester", A, True) in said
    assert not {f for f in said if f[1] == "lives_in" and f[3] == "Ancoats"}


@pytest.mark.parametrize(
    ("text", "job"),
    [
        ("I'm a nurse at a hospital in a town called Hove.", "nurse"),
        ("I'm a teacher at a school in a place called Hove.", "teacher"),
        ("I'm a waiter at a restaurant with a chef called Marco.", "waiter"),  # a person called
    ],
)
def test_a_town_called_by_its_name_is_no_employer(text: str, job: str) -> None:
    got = facts(text)
    assert (K.ATTRIBUTE, "job", SPEAKER, job, A, True) in got
    assert not {f for f in got if f[1] == "works_at"}, got


@pytest.mark.parametrize("text", ["going vegan is not for me", "Going keto worked wonders for my dad."])
def test_a_diet_as_its_sentences_subject_is_none_of_the_speakers(text: str) -> None:
    assert not {f for f in facts(text) if f[1] == "diet"}, facts(text)


@pytest.mark.parametrize(
    ("text", "predicate", "value"),
    [
        ("I'm going freelance in March.", "job", "freelance"),
        ("Going freelance from January!", "job", "freelance"),
        ("I'm going vegan next month.", "diet", "vegan"),
        ("going vegan tomorrow lol", "diet", "vegan"),
    ],
)
def test_a_change_with_a_time_to_come_is_a_plan(text: str, predicate: str, value: str) -> None:
    got = {f for f in facts(text) if f[1] == predicate}
    assert got == {(K.PLAN, predicate, SPEAKER, value, P, True)}, facts(text)


@pytest.mark.parametrize(
    ("text", "predicate", "value"),
    [
        ("I'm going freelance.", "job", "freelance"),
        ("I went vegan in March.", "diet", "vegan"),
        ("I've been going vegan since March", "diet", "vegan"),
    ],
)
def test_a_change_said_now_or_past_holds(text: str, predicate: str, value: str) -> None:
    assert (K.ATTRIBUTE, predicate, SPEAKER, value, A, True) in facts(text), facts(text)


@pytest.mark.parametrize(
    ("text", "employer"),
    [
        ("I work at Tesco in Bristol.", "Tesco"),
        ("I work at Google in London now.", "Google"),
        ("I work at Tesco on weekends.", "Tesco"),
        ("I work at Bank of America in Charlotte.", "Bank of America"),
        ("I work at St. Mary's Hospital in Leeds.", "St. Mary's Hospital"),
        ("I work at The Ivy in London.", "The Ivy"),
    ],
)
def test_an_employer_then_where_or_when_one_works_there(text: str, employer: str) -> None:
    assert {f[3] for f in facts(text) if f[1] == "works_at"} == {employer}, facts(text)


@pytest.mark.parametrize(
    ("text", "employer"),
    [
        ("yes!! got a job at the uni library instead, 12 hrs a week", "uni library"),
        ("I got a job at the local library.", "local library"),
        ("I got a new job at the hospital in town", "hospital"),
        ("got my dream job at Pixar", "Pixar"),
        ("landed a role at Deloitte!", "Deloitte"),
    ],
)
def test_a_job_got_at_a_definite_workplace_or_said_alone(text: str, employer: str) -> None:
    assert {f[3] for f in facts(text) if f[1] == "works_at"} == {employer}, facts(text)


@pytest.mark.parametrize(
    "text",
    [
        "I got a job at a cafe near home.",
        "I got a job at the same place.",
        "I got a job at the moment",
        "I started a new job at the weekend",
        "got a cold at the weekend",
    ],
)
def test_no_workplace_from_an_indefinite_place_or_a_time(text: str) -> None:
    assert not {f for f in facts(text) if f[1] == "works_at"}, facts(text)


@pytest.mark.parametrize(
    "text", ["I work at Christmas in a toy shop", "I work at Easter every year on my uncle's farm"]
)
def test_a_holiday_before_where_one_works_is_no_employer(text: str) -> None:
    assert not {f for f in facts(text) if f[1] == "works_at"}, facts(text)


@pytest.mark.parametrize("text", ["I'm going vegan on Mondays", "I'm going vegan at last"])
def test_a_habit_is_no_plan_to_come(text: str) -> None:
    assert not {f for f in facts(text) if f[0] == K.PLAN}, facts(text)
