"""With ``offline_states`` (off by default) the LLM loop takes the offline reader's answer, and asks no model, where
the rules read a state of the asker's life through its changes: "Am I still seeing Callum?" after "Callum and I
broke up", "Where do I live?" after a move. A named person's state in a dialogue between named people (LoCoMo's shape)
still goes to the model, and so does anything the rules cut from a sentence. Fake server over real loopback HTTP;
real rules."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest

from sodamem import Memory
from sodamem.answer.llm_loop import OFFLINE_STATES, answer_with_llm
from sodamem.answer.types import Reading
from sodamem.llm.fake_server import FakeChatServer
from sodamem.model import Session, Turn

from .scenario_histories import History, remembered
from .test_answer_llm import make_client, plan, read

ASKED = datetime(2026, 1, 10, 12, 0)
CALLUM: History = [
    ("2025-03-01T10:00", "I've been seeing Callum for a few months now, he's lovely."),
    ("2025-05-02T10:00", "I moved to Leeds last week, the flat is tiny."),
    ("2025-09-10T10:00", "Callum and I broke up last week, it's for the best."),
]


@pytest.fixture(scope="module")
def callum() -> Iterator[Memory]:
    memory = remembered(CALLUM)
    yield memory
    memory.close()


@pytest.mark.parametrize(
    ("question", "expected", "reading"),
    [
        ("Am I still seeing Callum?", "No", Reading.CHANGED),  # a later ending decides what "seeing" said
        ("Where do I live?", "Leeds", Reading.STATE),  # the asker's state slot
    ],
)
def test_a_state_the_rules_track_is_answered_without_asking_the_model(
    callum: Memory, question: str, expected: str, reading: Reading
) -> None:
    offline = callum.ask(question, now=ASKED, offline=True)
    assert offline.answer == expected and f"read:{reading.value}" in offline.flags
    # the model would say "not in memory", as Qwen2.5-1.5B did on "Am I still with Callum?"
    with FakeChatServer([plan("answer"), read("not in memory", [], abstain=True)]) as server:
        taken = answer_with_llm(callum, question, make_client(server), now=ASKED, offline_states=True)
        assert server.chat_requests == []
        asked = answer_with_llm(callum, question, make_client(server), now=ASKED)  # off by default
        requests = len(server.chat_requests)
    assert taken.answer == expected and f"offline_state:{reading.value}" in taken.flags
    assert taken.citations == offline.citations and taken.cost.input_tokens == 0
    for citation in taken.citations:
        turn = callum.turn(citation.turn_id, session_id=citation.session_id)
        assert turn.text[citation.char_start : citation.char_end] == citation.quote
    assert requests >= 1 and asked.abstained  # without the option, the model's reply stands


@pytest.mark.parametrize(
    "question",
    [
        "How do I feel about the flat?",
        "Am I still with Callum?",  # the best sentence is the break-up itself: nothing after it decides
    ],
)
def test_a_sentence_the_rules_cut_still_goes_to_the_model(callum: Memory, question: str) -> None:
    offline = callum.ask(question, now=ASKED, offline=True)
    assert not any(flag.startswith("read:") for flag in offline.flags)
    with FakeChatServer([plan("answer"), read("not in memory", [], abstain=True)]) as server:
        answer = answer_with_llm(callum, question, make_client(server), now=ASKED, offline_states=True)
        assert len(server.chat_requests) >= 1
    assert not any(flag.startswith("offline_state:") for flag in answer.flags)


def test_a_named_persons_state_in_a_dialogue_goes_to_the_model(tmp_path: Path) -> None:
    # On LoCoMo's tuning slices a named person's state slot misread ("What kind of game did John have a career-high
    # in assists in?": "shooting guard") where the model read the turn: it is no state of the asker's.
    turns = [
        ("Maya", "I moved to Leeds last month, the flat is tiny."),
        ("Sam", "Nice! I still live in Bristol with my parrot Kiwi."),
    ]
    with Memory(tmp_path / "dialogue.db", embedder="fake") as memory:
        memory.ingest([Session("d1", ASKED, tuple(Turn(i, who, t, f"d1:{i}") for i, (who, t) in enumerate(turns)))])
        offline = memory.ask("Where does Sam live?", now=ASKED, offline=True)
        assert offline.answer == "Bristol" and f"read:{Reading.NAMED_STATE.value}" in offline.flags
        with FakeChatServer([plan("answer"), read("not in memory", [], abstain=True)]) as server:
            answer = answer_with_llm(
                memory, "Where does Sam live?", make_client(server), now=ASKED, offline_states=True
            )
            assert len(server.chat_requests) >= 1
    assert answer.abstained and not any(flag.startswith("offline_state:") for flag in answer.flags)


def test_only_the_asker_s_states_and_later_changes_are_taken() -> None:
    assert Reading.NAMED_STATE not in OFFLINE_STATES and Reading.NAMED_KIN not in OFFLINE_STATES
    assert Reading.PREDICATE not in OFFLINE_STATES and Reading.RELATION not in OFFLINE_STATES
    assert {Reading.STATE, Reading.CHANGED, Reading.PETS} <= OFFLINE_STATES
