"""Relations said as over: "my old boss Finn", "my former boss Finn", "Finn was my boss", "Finn is no longer my
boss", "my ex Sarah". Each is a denial in that relation's slot, so it ends "my boss Finn" said before; "Who is
Finn?" reads "user's former boss" and "Who is my boss?" no one now. "My old friend" still is one; "my late husband"
is said with its word. Real rules, real store."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Any

import pytest

from sodamem import Memory
from sodamem.answer.llm_loop import answer_with_llm
from sodamem.llm.fake_server import FakeChatServer, FakeReply
from sodamem.model import FactKind
from sodamem.records import FactRecord

from .scenario_histories import History, check_answer, remembered
from .test_answer_llm import id_of_line, make_client, plan, read, user_message

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
        ("My ex, Finn, called.", "partner"),
        ("I never want to see my ex Finn again.", "partner"),
        ("my ex-boyfriend called Finn texted", "boyfriend"),
        ("My previous landlord, Finn, kept the deposit.", "landlord"),
        ("Finn was my girlfriend in college.", "girlfriend"),
        ("I told my old boss Finn I was leaving.", "boss"),  # a noun phrase says it whatever the verb
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
    ],
)
def test_a_relation_that_holds_is_said_as_such(said: str, text: str) -> None:
    (fact,) = relation_facts(said)
    assert fact.text == text and not fact.denies


@pytest.mark.parametrize(
    "said",
    [
        "Is Finn no longer your boss?",
        "Finn is not my boss, Sarah is.",
        "Finn is no longer my neighbour's son.",
        # a name-like word before the role, or after a bare "ex", names no one
        "My former English teacher Mrs. Hall retired.",
        "I met my former Google colleague Finn.",
        "I sold my previous Honda.",
        "My ex Tinder date was weird.",
        "My ex Cambridge roommate Tom called.",
        # a wish, a hope, hearsay, a denial
        "I wish Finn was my coach.",
        "I hope Finn is no longer my boss by June.",
        "Sarah told me Finn is no longer my boss.",
        "I never said Finn was my boss.",
        "I didn't say Finn was my boss.",
        "I can't believe Finn is no longer my coach.",
        "According to Sarah, Finn is no longer my boss.",
        "I bumped into my ex Uber driver.",
        # "was" of that one time, or still so
        "Finn was my coach for the session today.",
        "Finn was my boss at the time and he still is.",
        "Finn was my boss and I still miss him.",
    ],
)
def test_no_ending_is_read_where_none_is_said(said: str) -> None:
    assert not [f for f in relation_facts(said) if f.denies], [f.text for f in relation_facts(said)]


@pytest.mark.parametrize("said", ["Finn was my partner for the quiz.", "Sam was my partner for the quiz."])
def test_was_my_partner_for_an_evening_names_no_partner_and_ends_no_marriage(said: str) -> None:
    history = [("2025-01-01T10:00", "My husband Finn is a chef."), ("2025-02-01T10:00", said)]
    with remembered(history) as memory:
        relations = [f for f in memory.facts(status="all") if f.kind == FactKind.RELATION]
        assert [(f.text, f.status) for f in relations] == [("user's husband is Finn", "active")]
        check_answer(memory, memory.ask("Who is my husband?", now=ASKED, offline=True), "Finn")


def test_a_late_wife_is_said_so_and_ends_the_wife() -> None:
    history = [("2025-01-01T10:00", "My wife Ana is lovely."), ("2025-02-01T10:00", "My late wife Ana loved roses.")]
    with remembered(history) as memory:
        check_answer(memory, memory.ask("Who is my wife?", now=ASKED, offline=True), "no one now (previously Ana)")
        check_answer(memory, memory.ask("Who is Ana?", now=ASKED, offline=True), "user's late wife")
    with remembered([("2025-01-01T10:00", "My late husband Finn loved fishing.")]) as memory:
        check_answer(memory, memory.ask("Who is my husband?", now=ASKED, offline=True), "previously Finn")


def test_repeated_mentions_update_each_other() -> None:
    facts = relation_facts("My boss Finn is great.", "My boss Finn gave me Friday off.")
    older, newer = sorted(facts, key=lambda f: f.valid_from or "")
    assert (older.status, newer.status) == ("superseded", "active") and older.text == newer.text


def test_a_relation_known_only_as_over_says_who_was_not_that_no_one_is() -> None:
    with remembered([("2025-01-01T10:00", "My old boss Finn was nice.")]) as memory:
        check_answer(memory, memory.ask("Who is my boss?", now=ASKED, offline=True), "previously Finn")


def test_the_new_holder_said_as_my_role_is_name_answers() -> None:
    said = "My new boss is Inês, she is very direct but fair, more than my former boss Vasco."
    with remembered([("2025-01-01T10:00", said)]) as memory:
        check_answer(memory, memory.ask("Who is my boss now?", now=ASKED, offline=True), "Inês")


@pytest.mark.parametrize(
    ("said", "text"),
    [
        ("My boss is Finn.", "user's boss is Finn"),
        ("My sister is Ana and she lives in Porto.", "user's sister is Ana"),
        ("My manager is Ms. Patel.", "user's manager is Ms. Patel"),
        ("My boss is Grace, she is fair.", "user's boss is Grace"),
        ("My boss is Grace.", "user's boss is Grace"),  # "grace" is a word, but Grace a listed given name
    ],
)
def test_my_relation_is_a_name(said: str, text: str) -> None:
    assert [f.text for f in relation_facts(said)] == [text]


@pytest.mark.parametrize(
    "said",
    [
        "My mum is Irish.",
        "My boss is Finn's friend.",
        "My husband is Catholic.",
        "My husband is Navy, so we move a lot.",  # an English word, and no pronoun after it
        "My mum is Nepali.",
        "My wife is Colombian.",
        "My dog is Labrador.",
        "If my boss is Finn, I quit.",
    ],
)
def test_my_relation_is_no_name(said: str) -> None:
    assert relation_facts(said) == []


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
    def reader(body: dict[str, Any]) -> FakeReply:
        line = id_of_line(user_message(body), "no longer my boss")
        return read(f"Your former boss [{line}]", [line])

    with FakeChatServer([plan("answer")], responder=reader) as server:
        answer = answer_with_llm(ended, "Who is Finn?", make_client(server), now=ASKED)
        asked = len(server.chat_requests)
    assert asked >= 1 and "offline_relation" not in answer.flags
    assert answer.answer.startswith("Your former boss") and [c.quote for c in answer.citations] == [
        "I quit the agency, so Finn is no longer my boss."
    ]


@pytest.mark.parametrize(
    ("history", "question", "expected", "quotes"),
    [
        (["My boss Finn is great."], "Is Finn my boss?", "Yes", ["My boss Finn"]),
        (
            ["My boss Finn is great.", "Finn is no longer my boss."],
            "Is Finn still my boss?",
            "No",
            ["My boss Finn", "Finn is no longer my boss"],
        ),
        (["My old boss Finn was strict."], "Is Finn my boss?", "No", ["My old boss Finn"]),
        (
            ["My boyfriend Tom is sweet.", "Tom and I broke up last week."],
            "Is Tom still my boyfriend?",
            "No",
            ["My boyfriend Tom", "Tom and I broke up last week"],
        ),
    ],
)
def test_whether_a_relation_holds_is_read_off_the_latest_relation_fact(
    history: list[str], question: str, expected: str, quotes: list[str]
) -> None:
    said = [(f"2025-0{i + 1}-01T10:00", text) for i, text in enumerate(history)]
    with remembered(said) as memory:
        answer = memory.ask(question, now=ASKED, offline=True)
        check_answer(memory, answer, expected)
        assert [c.quote for c in answer.citations] == quotes


def test_whether_a_relation_holds_is_asked_of_its_time() -> None:
    said = [("2025-01-01T10:00", "My boss Finn is great."), ("2025-06-01T10:00", "Finn is no longer my boss.")]
    with remembered(said) as memory:
        then = memory.ask("Is Finn still my boss?", now=datetime(2025, 3, 1), offline=True)
        check_answer(memory, then, "Yes")


@pytest.mark.parametrize(
    ("said", "question", "expected"),
    [
        (["My old boss Finn was strict.", "My manager Grace is nice."], "Who is my boss?", "Grace"),
        (["My boss Finn is strict."], "Who is my manager?", "Finn"),
        (["My manager Grace is nice."], "Is Grace my boss?", "Yes"),
        (["My manager Finn is strict.", "My boss Grace is fair."], "Who is my boss?", "Grace"),
        # one holder of the role at a time, whatever its word: the one said since
        (["My manager Finn is strict.", "My boss Grace is fair."], "Who is my manager?", "Grace"),
        (
            ["My boss Finn is strict.", "Finn is no longer my manager."],
            "Who is my boss?",
            "no one now (previously Finn)",
        ),
        (["My boss Finn is strict.", "Finn is no longer my manager."], "Who is Finn?", "user's former manager"),
        (["My boss Finn is strict.", "Finn isn't my manager anymore."], "Is Finn my boss?", "No"),
    ],
)
def test_a_manager_is_the_boss_asked_of_and_ends_as_one(said: list[str], question: str, expected: str) -> None:
    history = [(f"2025-0{i + 1}-01T10:00", text) for i, text in enumerate(said)]
    with remembered(history) as memory:
        answer = memory.ask(question, now=ASKED, offline=True)
        check_answer(memory, answer, expected)
        assert {c.quote for c in answer.citations} >= ({"My boss Finn"} if "My boss Finn is strict." in said else set())
