"""Taking up a job or a home, said the ways people announce them (``rules_taking_up``), and a name after a word
that opens a sentence ("So Sam is moving")."""

from __future__ import annotations

from datetime import datetime

import pytest

from sodamem.ingest.extract.base import Extraction, SessionView, TurnView
from sodamem.ingest.extract.rules import RulesExtractor
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
