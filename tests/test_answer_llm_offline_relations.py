"""With ``offline_relations`` (the default) the LLM loop answers "Who is Finn?" with the relation a stored fact names
("user's grandson", the offline reader's reading) and asks no model: Qwen2.5-1.5B answered such questions with the
name itself. Any other question, and one whose relation no fact names, still goes to the model. Fake server over real
loopback HTTP; real rules."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

import pytest

from sodamem import Memory
from sodamem.answer.llm_loop import answer_with_llm
from sodamem.answer.types import Reading
from sodamem.llm.fake_server import FakeChatServer

from .scenario_histories import History, remembered
from .test_answer_llm import make_client, plan, read

ASKED = datetime(2026, 1, 10, 12, 0)
GRAHAM: History = [
    ("2025-03-01T10:00", "My grandson Finn is staying with us this weekend, he's nine."),
    ("2025-05-02T10:00", "Went to the match with Ossie, we had a laugh."),
]


@pytest.fixture(scope="module")
def graham() -> Iterator[Memory]:
    memory = remembered(GRAHAM)
    yield memory
    memory.close()


def test_who_a_named_person_is_is_read_off_the_relation_fact(graham: Memory) -> None:
    offline = graham.ask("Who is Finn?", now=ASKED, offline=True)
    assert "grandson" in offline.answer and f"read:{Reading.RELATION.value}" in offline.flags
    # the model would answer with the name, as Qwen2.5-1.5B did
    with FakeChatServer([plan("answer"), read("Finn [E1]", ["E1"])]) as server:
        taken = answer_with_llm(graham, "Who is Finn?", make_client(server), now=ASKED)
        assert server.chat_requests == []
        asked = answer_with_llm(graham, "Who is Finn?", make_client(server), now=ASKED, offline_relations=False)
        requests = len(server.chat_requests)
    assert taken.answer == offline.answer and "offline_relation" in taken.flags
    assert taken.citations == offline.citations and taken.citations and taken.cost.input_tokens == 0
    for citation in taken.citations:
        turn = graham.turn(citation.turn_id, session_id=citation.session_id)
        assert turn.text[citation.char_start : citation.char_end] == citation.quote
    assert requests >= 1 and asked.answer.startswith("Finn") and "offline_relation" not in asked.flags


def test_a_bill_split_or_laundry_separated_ends_no_couple() -> None:
    history = [
        ("2025-03-01T10:00", "My boyfriend Finn cooked tonight."),
        ("2025-06-01T10:00", "We split the bill with his sister and I separated the laundry."),
    ]
    with remembered(history) as memory, FakeChatServer([]) as server:
        answer = answer_with_llm(memory, "Who is Finn?", make_client(server), now=ASKED)
        assert server.chat_requests == []
    assert answer.answer == "user's boyfriend" and "offline_relation" in answer.flags


@pytest.mark.parametrize(
    "question",
    [
        "Who is my grandson?",  # asks for a name: the model reads it
        "Who is Ossie?",  # no fact names what Ossie is to anyone
        "When did I go to the match?",
    ],
)
def test_other_questions_go_to_the_model(graham: Memory, question: str) -> None:
    with FakeChatServer([plan("answer"), read("not in memory", [], abstain=True)]) as server:
        answer = answer_with_llm(graham, question, make_client(server), now=ASKED)
        assert len(server.chat_requests) >= 1
    assert answer.abstained and "offline_relation" not in answer.flags


@pytest.mark.parametrize(
    "history",
    [
        [  # an ending the rules read as no denial
            ("2025-03-01T10:00", "Finn is my boss, he's fair."),
            ("2025-06-01T10:00", "I quit my job last week, so Finn is no longer my boss."),
        ],
        [("2025-03-01T10:00", "My late husband Finn loved this song.")],  # said as past where it was named
        [("2025-03-01T10:00", "Finn was my boss until I quit.")],  # ended where it was named
        [  # ended later in the same session, whose turns share one time
            ("2025-03-01T10:00", "Finn is my boss, he's fair."),
            ("2025-03-01T10:00", "Update: I quit today, so Finn is no longer my boss."),
        ],
        [  # two people of one name
            ("2025-03-01T10:00", "My grandson Finn is staying with us this weekend."),
            ("2025-04-01T10:00", "My neighbour Finn fixed the fence."),
        ],
        [  # a couple's ending said without the name
            ("2025-03-01T10:00", "My boyfriend Finn cooked tonight."),
            ("2025-06-01T10:00", "We broke up last night. Feeling rough."),
        ],
    ],
    ids=["ended-since", "late", "until", "same-session", "two-of-one-name", "we-broke-up"],
)
def test_a_relation_that_may_not_stand_goes_to_the_model(history: History) -> None:
    memory = remembered(history)
    try:
        offline = memory.ask("Who is Finn?", now=ASKED, offline=True)
        assert f"read:{Reading.RELATION.value}" in offline.flags  # the rules read one: the model is asked anyway
        with FakeChatServer([plan("answer"), read("not in memory", [], abstain=True)]) as server:
            answer = answer_with_llm(memory, "Who is Finn?", make_client(server), now=ASKED)
            assert len(server.chat_requests) >= 1
        assert "offline_relation" not in answer.flags
    finally:
        memory.close()
