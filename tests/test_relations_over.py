"""Relations said as over: "my old boss Finn", "my former boss Finn", "Finn was my boss", "Finn is no longer my
boss", "my ex Sarah". Each is a denial in that relation's slot, so it ends "my boss Finn" said before; "Who is
Finn?" reads "user's former boss" and "Who is my boss?" no one now. "My old friend" still is one; "my late husband"
is said with its word. Real rules, real store."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

import pytest

from sodamem import Memory
from sodamem.answer.llm_loop import answer_with_llm
from sodamem.llm.fake_server import FakeChatServer
from sodamem.model import FactKind
from sodamem.records import FactRecord

from .scenario_histories import History, check_answer, remembered
from .test_answer_llm import make_client, plan, read

ASKED = datetime(2026, 1, 10, 12, 0)


def relation_facts(*said: str) -> list[FactRecord]:
    history = [(f"2025-0{i + 1}-01T10:00", text) for i, text in enumerate(said)]
    with remembered(history) as memory:
        return [f for f in memory.facts(status="all") if f.kind == FactKind.RELATION]


@pytest.mark.parametrize(
    ("said", "relation"),
    [
        ("My old boss Finn called me yesterday.", "boss"),
        ("My former boss Finn called me.", "boss"),
        ("Had coffee with my ex-boss Finn.", "boss"),
        ("Finn was my manager at Tesco.", "manager"),
        ("Finn is no longer my boss.", "boss"),
        ("Finn isn't my coach anymore, I train alone now.", "coach"),
        ("Finn is not my therapist any more.", "therapist"),
        ("Finn stopped being my teacher in May.", "teacher"),
        ("my ex Finn texted me again", "partner"),
        ("My previous landlord, Finn, kept the deposit.", "landlord"),
    ],
)
def test_a_relation_said_as_over_is_a_denial(said: str, relation: str) -> None:
    (fact,) = relation_facts(said)
    assert (fact.predicate, fact.subject, fact.object) == (relation, "user", "Finn")
    assert fact.denies and fact.status == "active"
    assert fact.text == f"Finn is no longer user's {relation}"


@pytest.mark.parametrize(
    ("said", "text"),
    [
        ("My old friend Finn visited.", "user's friend is Finn"),  # an old friend still is one
        ("My boss Finn is great.", "user's boss is Finn"),
        ("My late husband Finn loved jazz.", "user's late husband is Finn"),
    ],
)
def test_a_relation_that_holds_or_a_late_one_is_said_as_such(said: str, text: str) -> None:
    (fact,) = relation_facts(said)
    assert fact.text == text and not fact.denies


@pytest.mark.parametrize(
    "said", ["Is Finn no longer your boss?", "Finn is not my boss, Sarah is.", "Finn is no longer my neighbour's son."]
)
def test_no_ending_is_read_from_a_question_a_correction_or_another_relation(said: str) -> None:
    assert not [f for f in relation_facts(said) if f.denies]


def test_an_ending_said_later_supersedes_the_relation_and_a_return_ends_the_ending() -> None:
    facts = relation_facts("My boss Finn is great.", "I quit last week, Finn is no longer my boss.")
    held, ended = sorted(facts, key=lambda f: f.valid_from or "")
    assert held.text == "user's boss is Finn" and held.status == "superseded" and held.valid_to == ended.valid_from
    assert ended.denies and ended.status == "active"
    again = relation_facts("My boss Finn is great.", "Finn is no longer my boss.", "My boss Finn hired me back!")
    assert [f.text for f in again if f.status == "active"] == ["user's boss is Finn"]


ENDED: History = [
    ("2025-03-01T10:00", "My boss Finn signed off my leave."),
    ("2025-06-01T10:00", "I quit the agency, so Finn is no longer my boss."),
]


@pytest.fixture(scope="module")
def ended() -> Iterator[Memory]:
    with remembered(ENDED) as memory:
        yield memory


def test_who_the_person_is_says_the_relation_is_over(ended: Memory) -> None:
    answer = ended.ask("Who is Finn?", now=ASKED, offline=True)
    check_answer(ended, answer, "user's former boss")
    assert [c.quote for c in answer.citations] == ["My boss Finn", "Finn is no longer my boss"]  # held, then ended


def test_who_holds_the_relation_now_is_no_one(ended: Memory) -> None:
    answer = ended.ask("Who is my boss?", now=ASKED, offline=True)
    check_answer(ended, answer, "no one now (previously Finn)")


def test_the_llm_loop_asks_the_model_about_a_relation_that_is_over(ended: Memory) -> None:
    with FakeChatServer([plan("answer"), read("Your former boss [E1]", ["E1"])]) as server:
        answer = answer_with_llm(ended, "Who is Finn?", make_client(server), now=ASKED)
        asked = len(server.chat_requests)
    assert asked >= 1 and "offline_relation" not in answer.flags
