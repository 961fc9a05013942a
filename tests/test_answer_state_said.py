"""A state question read from sentences must find the state said there: "Who is my flatmate?" is not "Dad rang",
"Who do I live with?" not "I sing in the Harbour Choir", "Where do I work?" not the choir (real rules extractor,
offline reader)."""

from __future__ import annotations

from datetime import datetime

import pytest

from sodamem import Memory
from sodamem.answer.state import state_predicates
from sodamem.answer.state_sentences import state_sentences
from sodamem.answer.support import Sentence
from sodamem.records import SearchHit
from sodamem.retrieve.query import analyze_query

from .scenario_histories import ABSTAIN, History, answered, check_answer

CASUAL: History = [
    ("2026-03-01T10:00", "I sing in the Harbour Choir on Wednesdays."),
    ("2026-06-01T10:00", "Sang my last concert with the choir on Saturday, bittersweet."),
    ("2026-03-02T10:00", "I have a kayak called Puffin."),
    ("2026-06-02T10:00", "Puffin's gone, sold it to a guy from Cobh."),
    ("2026-03-03T10:00", "Dad rang. hes moving to York in July."),
    ("2026-03-04T10:00", "new flatmate moved in on the 2nd, oksana. shes nice"),
    ("2026-03-05T10:00", "I applied for a GIS analyst position at Terrafirma."),
    ("2026-04-05T10:00", "Terrafirma offered me the job! I start on May 4th."),
]
JOINED: History = [
    ("2026-03-01T10:00", "I sing in the Harbour Choir on Wednesdays."),
    ("2026-03-03T10:00", "Two weeks in at Octavia Labs and I love the team."),
]
CASES = [
    ("a-flatmate-not-named", CASUAL, "2026-07-01", "Who is my flatmate?", ABSTAIN),  # was "Dad rang"
    ("a-last-concert", CASUAL, "2026-07-01", "Am I still singing in the choir?", "No"),
    ("sold-it", CASUAL, "2026-07-01", "Do I still have Puffin?", "No"),
    ("a-job-said", JOINED, "2026-04-01", "Where do I work?", "Octavia Labs"),
]


@pytest.mark.parametrize(("history", "now", "question", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_answer_or_abstain(
    scenario_memories: dict[int, Memory], history: History, now: str, question: str, expected: str | None
) -> None:
    check_answer(*answered(scenario_memories, history, now, question), expected)


def test_whom_i_live_with_is_read_from_a_sentence_about_a_home(scenario_memories: dict[int, Memory]) -> None:
    _, answer = answered(scenario_memories, CASUAL, "2026-07-01", "Who do I live with?")
    assert [c.quote for c in answer.citations] == ["new flatmate moved in on the 2nd, oksana."]  # not the choir


def test_a_companys_product_asks_no_employer() -> None:
    assert state_predicates("Which company's headphones did John choose for gaming?") == ()
    assert state_predicates("Which company do I work for?") == ("works_at",)


def said(text: str) -> Sentence:
    hit = SearchHit("s", 0, "s:0", "user", 0, len(text), "2026-05-01T10:00:00", text, 1.0, text)
    return Sentence(0, hit, 0, len(text), text, 1.0, 1.0)


def test_the_askers_job_is_said_in_job_words_or_at_a_firm() -> None:
    question = "Where do I work?"
    sentences = [said("I sing in the Harbour Choir on Wednesdays."), said("I am still at Deloitte, loving it.")]
    kept, _ = state_sentences(question, sentences, analyze_query(question, datetime(2026, 6, 1)), {"user"})
    assert [s.text for s in kept] == ["I am still at Deloitte, loving it."]
    kept, why = state_sentences(question, sentences[:1], analyze_query(question, datetime(2026, 6, 1)), {"user"})
    assert (kept, why) == ([], "no state said")
