"""Roles that change hands ("Omar replaced Finn as my boss", "My boss Finn quit today", "I now report to Luis"),
the holder asked of now (the last one said to begin, for a role one has one of) and at another time ("Who was my
boss before Omar?", "Who was I dating in March?"). Real rules, real store; every answer cites its turns."""

from __future__ import annotations

from datetime import datetime

import pytest

from sodamem import Memory
from sodamem.answer.relation_at import role_at
from sodamem.model import FactKind

from .scenario_histories import check_answer, remembered

ASKED = datetime(2025, 12, 1, 12, 0)


def relations(memory: Memory) -> list[tuple[str, str | None, bool, str]]:
    return [
        (f.predicate, f.object, f.denies, f.text) for f in memory.facts(status="all") if f.kind == FactKind.RELATION
    ]


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("Priya took over as my manager.", [("manager", "Priya", False)]),
        ("Omar replaced Finn as my boss.", [("boss", "Finn", True), ("boss", "Omar", False)]),
        ("I have a new boss, Grace.", [("boss", "Grace", False)]),
        ("Got a new boss today: Grace.", [("boss", "Grace", False)]),
        ("Grace is now my manager.", [("manager", "Grace", False)]),
        ("My landlord is now Mr. Shaw.", [("landlord", "Mr. Shaw", False)]),
        ("My boss Finn quit today.", [("boss", "Finn", False), ("boss", "Finn", True)]),
        ("Finn, my manager, left the company.", [("manager", "Finn", False), ("manager", "Finn", True)]),
        ("My therapist Anna retired last month.", [("therapist", "Anna", False), ("therapist", "Anna", True)]),
        ("My GP Dr. Khan retired in March.", [("gp", "Dr. Khan", False), ("gp", "Dr. Khan", True)]),
        ("My boss Finn quit two weeks ago.", [("boss", "Finn", False), ("boss", "Finn", True)]),
        ("I switched to a new dentist, Dr. Park.", [("dentist", "Dr. Park", False)]),
        ("I've been assigned a new therapist called Dr. Lee.", [("therapist", "Dr. Lee", False)]),
        ("Jess handed me over to a new trainer, Bex.", [("trainer", "Jess", True), ("trainer", "Bex", False)]),
        (
            "My trainer Jess has passed me on to a new trainer, Bex.",
            [("trainer", "Jess", False), ("trainer", "Jess", True), ("trainer", "Bex", False)],
        ),
    ],
)
def test_a_role_changing_hands(said: str, expected: list[tuple[str, str, bool]]) -> None:
    with remembered([("2025-03-02T10:00", said)]) as memory:
        assert sorted(r[:3] for r in relations(memory)) == sorted(expected)


@pytest.mark.parametrize(
    "said",
    [
        "Priya is taking over as my manager next week.",  # not yet
        "Sarah says Omar replaced Finn as my boss.",  # hearsay
        "Did Omar replace Finn as my boss?",
        "Priya took over as my manager next week.",
    ],
)
def test_no_role_changing_hands(said: str) -> None:
    with remembered([("2025-03-02T10:00", said)]) as memory:
        assert not [r for r in relations(memory) if r[1] in ("Priya", "Omar")]


@pytest.mark.parametrize(
    "said",
    [
        "My boss Finn quit smoking.",  # a habit
        "My boyfriend Tom left.",  # the room
        "Sarah says my boss Finn quit.",
        "My boss Finn left yesterday for a conference.",  # "left" ends only an employer
        "My boss Finn left the team meeting early.",
        "My boss Finn left the job to me.",
        "My boss Finn left and I had the office to myself.",
        "My teammate Ana left.",
        "My therapist Anna retired in a huff from the board game.",  # no time said of a leaving
        "Sarah says Jess handed me over to a new trainer, Bex.",
    ],
)
def test_no_one_left_a_role(said: str) -> None:
    with remembered([("2025-03-02T10:00", said)]) as memory:
        assert not [r for r in relations(memory) if r[2]]


FINN = ("2025-01-05T10:00", "My boss Finn is strict.")
OMAR = ("2025-05-05T10:00", "Omar replaced Finn as my boss.")


@pytest.mark.parametrize(
    ("question", "expected", "quotes"),
    [
        ("Who is my boss?", "Omar", ["Omar replaced Finn as my boss"]),
        ("Who is Finn?", "user's former boss", ["My boss Finn", "Omar replaced Finn as my boss"]),
        ("Who was my boss before Omar?", "Finn", ["My boss Finn", "Omar replaced Finn as my boss"]),
        ("Who was my boss after Finn?", "Omar", ["Omar replaced Finn as my boss", "My boss Finn"]),
        ("Who was my boss in March?", "Finn", ["My boss Finn"]),
        ("Who was my manager in November?", "Omar", ["Omar replaced Finn as my boss"]),
    ],
)
def test_the_holder_now_and_at_another_time(question: str, expected: str, quotes: list[str]) -> None:
    with remembered([FINN, OMAR]) as memory:
        answer = memory.ask(question, now=ASKED, offline=True)
        check_answer(memory, answer, expected)
        assert [c.quote for c in answer.citations] == quotes


def test_a_role_one_has_one_of_is_the_last_one_said_to_begin() -> None:
    history = [
        ("2024-02-05T17:30", "Quarterly review with my manager, Priscilla, went fine."),
        ("2024-11-25T16:40", "Reorg at work: Wendy moved up to director, and I now report to Luis Ortega."),
    ]
    with remembered(history) as memory:
        check_answer(memory, memory.ask("Who's my manager?", now=ASKED, offline=True), "Luis Ortega")
    sisters = [("2024-02-05T17:30", "My sister Ana called."), ("2024-11-25T16:40", "My sister Bea visited.")]
    with remembered(sisters) as memory:  # one has several sisters at once
        check_answer(memory, memory.ask("Who is my sister?", now=ASKED, offline=True), "Ana, Bea")


DATED = [
    ("2025-01-05T10:00", "My boyfriend Tom took me to Paris."),
    ("2025-03-20T10:00", "We broke up last night."),
    ("2025-05-05T10:00", "Sam and I started dating."),
]


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Who was I dating in March?", "Tom"),  # until the 19th
        ("Who was I dating before Sam?", "Tom"),
        ("Who was my boyfriend in February?", "Tom"),
        ("Who was I dating in June?", "Sam"),
    ],
)
def test_whom_the_asker_dated_at_another_time(question: str, expected: str) -> None:
    with remembered(DATED) as memory:
        check_answer(memory, memory.ask(question, now=ASKED, offline=True), expected)


def test_no_holder_known_after_the_holdings_said_ended() -> None:
    history = [FINN, ("2025-03-02T10:00", "My boss Finn quit today.")]
    with remembered(history) as memory:
        answer = memory.ask("Who was my boss in June?", now=ASKED, offline=True)
        assert answer.abstained and "abstain:no holder then" in answer.flags
        check_answer(memory, memory.ask("Who was my boss in February?", now=ASKED, offline=True), "Finn")


def test_a_holding_said_soon_after_the_time_asked_held_then_and_one_said_long_after_says_nothing() -> None:
    history = [
        ("2025-01-04T18:20", "ugh, first date tonight with this guy Marco I matched with on hinge"),
        ("2025-02-14T23:10", "Marco asked me to be his girlfriend over dinner tonight!!"),
    ]
    with remembered(history) as memory:
        check_answer(memory, memory.ask("Who was I dating back in January?", now=ASKED, offline=True), "Marco")
        found = role_at("Who was I dating in 2019?", memory.facts(status="all"), ASKED)
    assert found is not None and found.names == []


def test_started_seeing_someone_is_dating_them_and_who_one_sees_is_read_without_a_fact() -> None:
    said = "I've started seeing Daniel. Nothing serious yet, we're taking it slow, but he makes me laugh."
    with remembered([("2024-10-20T19:40", said)]) as memory:
        assert ("dating", "Daniel", False, "user is dating Daniel") in relations(memory)
        check_answer(memory, memory.ask("Who am I seeing these days?", now=ASKED, offline=True), "Daniel")
    with remembered([("2024-10-20T19:40", "I've started seeing Dr. Lee for my knee.")]) as memory:
        assert relations(memory) == []


def test_a_professional_is_read_from_a_sentence_not_naming_the_role() -> None:
    said = "finally went to the dentist. Dr. Okafor says I need a filling, booked in for next week, dreading it"
    with remembered([("2025-01-20T09:50", said)]) as memory:
        answer = memory.ask("Who's my dentist?", now=ASKED, offline=True)
    assert "Okafor" in answer.answer


@pytest.mark.parametrize(
    "said", ["Grace was also my doctor.", "Finn was still my boss then.", "Finn was my boss once."]
)
def test_a_role_said_with_was_holds_no_more(said: str) -> None:
    with remembered([("2025-03-02T10:00", said)]) as memory:
        assert not [f for f in memory.facts(status="active") if f.kind == FactKind.RELATION and f.affirms]


GRACE_LEFT = [
    FINN,
    ("2025-05-05T10:00", "I have a new boss, Grace."),
    ("2025-08-05T10:00", "My boss Grace quit today."),
]


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Who is my boss?", "no one now (previously Grace)"),  # not Finn, whom Grace followed
        ("Who was my boss in June?", "Grace"),  # Finn's holding ended when Grace's began
        ("Who was my boss in February?", "Finn"),
        ("Who was my boss in September?", None),
        ("Who was my boss before Finn?", None),  # no one said before him
    ],
)
def test_a_role_one_has_one_of_passes_from_holder_to_holder(question: str, expected: str | None) -> None:
    with remembered(GRACE_LEFT) as memory:
        check_answer(memory, memory.ask(question, now=ASKED, offline=True), expected)


def test_roles_one_has_several_of_are_not_placed_in_time() -> None:
    sisters = [("2024-02-05T17:30", "My sister Ana called."), ("2024-11-25T16:40", "My sister Bea visited.")]
    with remembered(sisters) as memory:
        assert role_at("Who was my sister before Bea?", memory.facts(status="all"), ASKED) is None


def test_whom_one_sees_is_not_read_from_another_couple() -> None:
    with remembered([("2025-03-02T10:00", "My sister Ana is dating Marco.")]) as memory:
        assert memory.ask("Who am I seeing?", now=ASKED, offline=True).abstained


def test_a_holder_named_that_no_rule_read_is_left_to_the_sentences() -> None:
    history = [
        ("2024-10-22T07:15", "Joined a gym. My personal trainer is Mike, he is tough."),
        ("2024-12-12T19:00", "Mike changed gyms, so I was shuffled across to Bex."),
    ]
    with remembered(history) as memory:
        assert role_at("Who was my personal trainer before Bex?", memory.facts(status="all"), ASKED) is None
        answer = memory.ask("Who was my personal trainer before Bex?", now=ASKED, offline=True)
    assert "Mike" in answer.answer


def test_a_holder_passed_on_to_is_read_and_placed_after_the_last() -> None:
    history = [
        ("2024-10-22T07:15", "Joined a gym. My personal trainer is Mike, he is tough."),
        ("2024-12-12T19:00", "Mike changed gyms, so I was passed on to a new trainer, Bex."),
    ]
    with remembered(history) as memory:
        held = role_at("Who was my personal trainer before Bex?", memory.facts(status="all"), ASKED)
        assert held is not None and held.names == ["Mike"]


GRACE_NEW = [FINN, ("2025-05-05T10:00", "I have a new boss, Grace.")]


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Who is my boss?", "Grace"),
        ("Who is my manager?", "Grace"),  # one role, whatever its word
        ("Is Finn still my boss?", "No"),  # a new holder ends the last, though nothing is said of him
        ("Is Grace my boss?", "Yes"),
        ("Who is Finn?", "user's former boss"),
    ],
)
def test_the_readers_agree_once_a_role_changes_hands(question: str, expected: str) -> None:
    with remembered(GRACE_NEW) as memory:
        answer = memory.ask(question, now=ASKED, offline=True)
        check_answer(memory, answer, expected)
        if question.startswith(("Is Finn", "Who is Finn")):
            assert [c.quote for c in answer.citations] == ["My boss Finn", "I have a new boss, Grace"]


def test_a_multi_word_role_has_one_holder_at_a_time() -> None:
    history = [
        ("2025-01-05T10:00", "My line manager Bex is lovely."),
        ("2025-05-05T10:00", "My new line manager is Sam."),
    ]
    with remembered(history) as memory:
        check_answer(memory, memory.ask("Who is my line manager?", now=ASKED, offline=True), "Sam")
        check_answer(memory, memory.ask("Who was my line manager in March?", now=ASKED, offline=True), "Bex")


@pytest.mark.parametrize(
    ("history", "question", "expected"),
    [
        ([("2025-05-05T10:00", "Omar replaced Finn as my boss.")], "Who was my boss in March?", "Finn"),
        ([("2025-05-05T10:00", "Omar replaced Finn as my boss.")], "Who was my boss before Omar?", "Finn"),
        ([("2025-02-03T10:00", "I have a new boss, Grace.")], "Who was my boss in January?", None),  # new in February
        (
            [
                ("2025-01-05T10:00", "My boss Finn Walsh is strict."),
                ("2025-05-05T10:00", "I have a new boss, Omar Haddad."),
            ],
            "Who was my boss before Omar?",  # a name of his
            "Finn Walsh",
        ),
    ],
)
def test_a_holding_placed_by_what_was_said_of_its_start(
    history: list[tuple[str, str]], question: str, expected: str | None
) -> None:
    with remembered(history) as memory:
        check_answer(memory, memory.ask(question, now=ASKED, offline=True), expected)


def test_every_backend_hands_the_role_on_and_back_when_the_new_holder_is_forgotten(memory: Memory) -> None:
    for when, text in [("2025-05-05T10:00", "I have a new boss, Grace."), FINN]:  # stored backwards
        said = datetime.fromisoformat(when)
        memory.add([{"role": "user", "text": text}], session_id=f"s{said:%Y%m%d}", timestamp=said)
    status = {f.object: f.status for f in memory.facts(status="all") if f.kind == FactKind.RELATION}
    assert status == {"Finn": "superseded", "Grace": "active"}
    assert memory.check().ok, memory.check().problems
    memory.forget(session_id="s20250505")
    assert [(f.object, f.status) for f in memory.facts(status="all") if f.kind == FactKind.RELATION] == [
        ("Finn", "active")
    ]
    assert memory.check().ok, memory.check().problems


def test_a_doctor_asked_of_is_the_gp_and_a_new_one_ends_the_last() -> None:
    history = [
        ("2025-01-05T10:00", "My GP Dr. Khan is lovely."),
        ("2025-03-02T10:00", "Dr. Khan retired in March, so I switched to a new GP, Dr. Novak."),
    ]
    with remembered(history) as memory:
        check_answer(memory, memory.ask("Who is my doctor?", now=ASKED, offline=True), "Dr. Novak")
        check_answer(memory, memory.ask("Is Dr. Khan still my GP?", now=ASKED, offline=True), "No")


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("so Delphine's last day was Friday and Rashida is running our team now.", [("boss", "Rashida", False)]),
        ("Priya's in charge of the department now.", [("boss", "Priya", False)]),
        ("met the new team lead today, Sunniva. she speaks german", [("team_lead", "Sunniva", False)]),
    ],
)
def test_a_new_holder_said_in_passing(said: str, expected: list[tuple[str, str, bool]]) -> None:
    with remembered([("2025-03-02T10:00", said)]) as memory:
        assert sorted(r[:3] for r in relations(memory)) == sorted(expected)


@pytest.mark.parametrize(
    "said",
    [
        "Dan is running the team meeting today.",
        "Priya is leading the team from next week.",
        "Priya's in charge of the team this week while Finn is on holiday",  # standing in
        "Jess is running our team retro tomorrow",
        "Kate's in charge of the group chat now",
        "My friend switched to a new dentist, Dr. Park.",  # someone else's
        "My daughter started with a new teacher, Ms. Clark.",
        "My sister was assigned a new tutor, Ben.",
        "met the new teacher today, Ms. Clark.",  # one has several teachers: perhaps a child's
        "My boss Finn quit last minute.",  # no leaving: the relation only
    ],
)
def test_no_new_holder_said_in_passing(said: str) -> None:
    with remembered([("2025-03-02T10:00", said)]) as memory:
        assert not [r for r in relations(memory) if r[1] != "Finn" or r[2]]


def test_a_manager_named_in_a_question_is_handed_on_and_asked_of_by_a_verb() -> None:
    history = [
        ("2025-01-14T19:20", "first week and my manager Delphine wants a slide deck by friday 😩 any tips?"),
        ("2025-03-17T12:10", "so Delphine's last day was Friday and Rashida is running our team now."),
    ]
    with remembered(history) as memory:
        check_answer(memory, memory.ask("Who was my boss before Rashida?", now=ASKED, offline=True), "Delphine")
        check_answer(memory, memory.ask("Does Delphine still manage me?", now=ASKED, offline=True), "No")
        check_answer(memory, memory.ask("Does Rashida manage me?", now=ASKED, offline=True), "Yes")


@pytest.mark.parametrize(
    ("question", "history"),
    [
        ("Is Finn still my boss?", ["My boss Finn is strict.", "My boss Finn quit last week."]),
        ("Does Finn still manage me?", ["My boss Finn is strict.", "My boss Finn quit last week."]),
        ("Does Dan still work with me?", ["My coworker Dan brought donuts.", "My coworker Dan quit last week."]),
    ],
)
def test_a_role_named_and_ended_in_one_sentence_holds_no_more(question: str, history: list[str]) -> None:
    said = [(f"2025-0{n + 1}-05T10:00", text) for n, text in enumerate(history)]
    with remembered(said) as memory:
        check_answer(memory, memory.ask(question, now=ASKED, offline=True), "No")


def test_a_personal_trainer_handing_one_over_is_a_former_trainer() -> None:
    history = [
        ("2025-01-05T10:00", "Joined a gym. My personal trainer Mike is tough."),
        ("2025-03-05T10:00", "Mike handed me over to a new trainer, Bex."),
    ]
    with remembered(history) as memory:
        check_answer(memory, memory.ask("Who is Mike?", now=ASKED, offline=True), "user's former trainer")
        check_answer(memory, memory.ask("Who's my personal trainer?", now=ASKED, offline=True), "Bex")


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        (
            "from now on I'll be supervised by Dr. Whitcombe, apparently she's nice",
            [("supervisor", "Dr. Whitcombe", False)],
        ),
        ("I'm being coached by Ana for the marathon.", [("coach", "Ana", False)]),
        ("my old boss from Pellworth, Gregor, emailed me", [("boss", "Gregor", True)]),
    ],
)
def test_a_holder_said_by_what_they_do_or_where_from(said: str, expected: list[tuple[str, str, bool]]) -> None:
    with remembered([("2025-03-02T10:00", said)]) as memory:
        assert sorted(r[:3] for r in relations(memory)) == sorted(expected)


@pytest.mark.parametrize("said", ["I was supervised by Finn in 2019.", "I'm managed by Priya and Tom."])
def test_no_holder_said_by_what_they_do(said: str) -> None:
    with remembered([("2025-03-02T10:00", said)]) as memory:
        assert not relations(memory)


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("need a cheap dinner idea for me and my gf Ama, she's vegetarian", [("girlfriend", "Ama", False)]),
        ("Obi, who's been mentoring me on the new team, suggested a talk.", [("mentor", "Obi", False)]),
        ("Dorothy from next door has been taking me to the shops.", [("neighbour", "Dorothy", False)]),
        (
            "First day on platform today, reporting to Sigrid Johansen. Nervous.",
            [("manager", "Sigrid Johansen", False)],
        ),
        ("As of today I report to Priyanka Nair, who moved over from Leeds.", [("manager", "Priyanka Nair", False)]),
    ],
)
def test_a_relation_said_in_chat_words(said: str, expected: list[tuple[str, str, bool]]) -> None:
    with remembered([("2025-03-02T10:00", said)]) as memory:
        assert sorted(r[:3] for r in relations(memory)) == sorted(expected)


@pytest.mark.parametrize(
    "said",
    [
        "Is Ana mentoring me?",
        "Ana is mentoring my son.",
        "reporting to HR tomorrow is a pain",
        "We hired a new intern, reporting to Ana.",  # the intern's
        "Ana is training me on the new till system.",  # a task, not a trainer
        "I sent Ana next door to borrow some sugar.",
        "My friend from Paris, France sent me a postcard",
    ],
)
def test_no_relation_said_in_chat_words(said: str) -> None:
    with remembered([("2025-03-02T10:00", said)]) as memory:
        assert not [r for r in relations(memory) if r[1] in ("Ana", "HR", "France")]


@pytest.mark.parametrize(
    "question",
    [
        "To whom was I reporting back in January?",
        "Who was I reporting to in January?",
        "Who was I reporting to before Priyanka?",
    ],
)
def test_whom_one_reported_to_then(question: str) -> None:
    history = [
        (
            "2025-01-14T19:20",
            "Could you help me draft a note to my line manager, Gerald Whitcombe, asking for Friday off?",
        ),
        ("2025-04-07T09:30", "As of today I report to Priyanka Nair, who has moved over from the Leeds office."),
    ]
    with remembered(history) as memory:
        check_answer(memory, memory.ask(question, now=ASKED, offline=True), "Gerald Whitcombe")
        check_answer(memory, memory.ask("Who is my manager?", now=ASKED, offline=True), "Priyanka Nair")


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Siobhan is still my boss?", "No"),  # a statement's order
        ("Do I still work under Siobhan?", "No"),
        ("Do I still work under Cormac?", "Yes"),
    ],
)
def test_a_still_question_in_other_words(question: str, expected: str) -> None:
    history = [
        ("2025-02-10T18:30", "My boss here, Siobhan, invited me for dinner at her house."),
        ("2025-05-06T22:00", "Big change at work: my new boss is Cormac."),
    ]
    with remembered(history) as memory:
        check_answer(memory, memory.ask(question, now=ASKED, offline=True), expected)


def test_who_did_a_role_by_its_verb_at_a_time() -> None:
    history = [
        ("2025-01-05T11:45", "New year, new gym. My trainer Precious has already destroyed my legs."),
        ("2025-04-20T10:30", "Precious left the company so I was passed on to a new trainer, Lars."),
    ]
    with remembered(history) as memory:
        asked = memory.ask("Who trained me at the gym back in January?", now=ASKED, offline=True)
        check_answer(memory, asked, "Precious")
        check_answer(memory, memory.ask("Who's my trainer right now?", now=ASKED, offline=True), "Lars")
