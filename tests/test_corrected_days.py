"""A day said alone to correct a date keeps the date's month: "the 15th of august, sorry, the 22nd" is the 22nd of
August, not of the month it was said in; in an answer read from the sentence and in a fact's time alike."""

from __future__ import annotations

from datetime import datetime

from sodamem import Memory


def told(text: str) -> Memory:
    memory = Memory(":memory:", embedder="none")
    memory.add([{"role": "user", "text": text}], session_id="s1", timestamp=datetime(2026, 2, 2, 20, 15))
    return memory


def test_an_answer_reads_the_corrected_day_in_the_dates_month() -> None:
    with told("they've set the wedding for the 15th of august, sorry, the 22nd, i keep mixing them up") as memory:
        answer = memory.ask("When is the wedding?", now=datetime(2026, 3, 1), offline=True)
        assert answer.answer == "22 August 2026"


def test_a_facts_time_takes_the_corrected_day_in_the_dates_month() -> None:
    with told("I start at Spotify on March 3rd, no wait, the 5th.") as memory:
        [start] = [f for f in memory.facts() if f.predicate == "started"]
        assert start.occurred_start == "2026-03-05T00:00:00"


def test_a_corrected_weekday_is_no_month() -> None:
    with told("I hurt my knee on Thursday. Sorry, it was Wednesday, not Thursday.") as memory:
        answer = memory.ask("When did I hurt my knee?", now=datetime(2026, 2, 10), offline=True)
        assert answer.answer.startswith("28 January 2026")


def test_a_sentence_opening_with_a_lead_and_a_day_corrects_the_day_before() -> None:
    said = "They have invited me to an interview on the 22nd. Sorry, the 23rd: they moved it to the Thursday."
    with told(said) as memory:  # said on 2 February: an invitation standing looks ahead
        answer = memory.ask("When is my interview?", now=datetime(2026, 2, 10), offline=True)
        assert answer.answer == "23 February 2026"
    with told("interview's on the 2nd. wait no the 9th, the 2nd is fenellas bday lol") as memory:
        answer = memory.ask("when was my interview?", now=datetime(2026, 3, 1), offline=True)
        assert answer.answer == "9 February 2026"


def test_a_lead_and_no_day_corrects_nothing() -> None:
    with told("The party is on the 12th. Sorry, the wifi is bad here.") as memory:
        answer = memory.ask("When is the party?", now=datetime(2026, 2, 3), offline=True)
        assert answer.answer == "12 February 2026"


def test_a_capitalised_month_then_a_corrected_day() -> None:
    said = "My friend Crina starts on the 4th of May, sorry, the 11th, they pushed it back a week."
    with told(said) as memory:
        answer = memory.ask("When does Crina start?", now=datetime(2026, 4, 1), offline=True)
        assert answer.answer == "11 May 2026"


def test_a_lead_alone_then_a_day_alone_corrects_the_day_before() -> None:
    with told("yes. moving july 25. no wait. 26th. truck's booked sunday.") as memory:
        answer = memory.ask("When am I moving?", now=datetime(2026, 3, 1), offline=True)
        assert answer.answer == "26 July 2026"  # a going verb opening the sentence looks ahead
    with told("moving july 25. sorry. the dog ate my sock.") as memory:
        answer = memory.ask("When am I moving?", now=datetime(2026, 3, 1), offline=True)
        assert answer.answer == "25 July 2026"
