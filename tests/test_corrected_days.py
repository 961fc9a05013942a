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
