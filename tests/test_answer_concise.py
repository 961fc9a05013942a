"""An LLM answer without the words that only restate its question (answer/concise.py), and the loop using it."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sodamem import Memory
from sodamem.answer.concise import concise_answer
from sodamem.answer.llm_loop import answer_with_llm
from sodamem.llm.fake_server import FakeChatServer
from tests import test_answer_llm
from tests.test_answer_llm import NOW, QUESTION, id_of_line, make_client, read, user_message


@pytest.mark.parametrize(
    ("question", "answer", "short"),
    [
        # the opening that restates the question goes, and a closing phrase that does
        ("What instrument is Omar learning?", "Omar is learning the cello.", "the cello"),
        ("What did Lena bake for the party?", "Lena baked a lemon tart for the party.", "a lemon tart"),
        (
            "Where does Priya want to move to be near her sister?",
            "Priya wants to move to Denver to be near her sister.",
            "Denver",
        ),
        # past forms Porter does not join to the question's present
        (
            "Why did Ana leave her job?",
            "Ana left her job because her manager was unfair.",
            "because her manager was unfair",
        ),
        ("What did Raj buy at the market?", "Raj bought fresh figs at the market.", "fresh figs"),
        # a list introduced by the restated words keeps only the list
        (
            "What activities has Mia done with her son?",
            "Mia has done several activities with her son, including kayaking and baking.",
            "kayaking and baking",
        ),
        # yes/no: the verdict, and a reason only when it says something new
        (
            "Would Sam enjoy a quiet weekend in the mountains?",
            "Yes, Sam would enjoy a quiet weekend in the mountains.",
            "Yes",
        ),
        (
            "Is Kim still working at the bank?",
            "No, Kim is not working at the bank anymore; she quit in May.",
            "No, she quit in May",
        ),
        ("Does Tariq want to sell his boat?", "No, Tariq does not want to sell his boat.", "No"),
    ],
)
def test_the_words_that_restate_the_question_are_dropped(question: str, answer: str, short: str) -> None:
    concise = concise_answer(answer, question)
    assert concise is not None and concise.text == short


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("What kind of car does Ben drive?", "A red Volvo."),  # short already
        ("Would Ravi rather visit a museum or a beach?", "Ravi would rather visit a museum."),  # nothing new is left
        ("Did Joe's band play at the fair?", "Yes."),
        ("Did Joe's band play at the fair?", "yes"),
        ("Did Joe's band play at the fair?", "No, the fair was cancelled."),  # the reason is kept whole
        ("What did Nils cook on Sunday?", "A stew with lentils and smoked paprika [E3:1]."),  # a note is not a word
    ],
)
def test_an_answer_with_nothing_to_drop_is_left_alone(question: str, answer: str) -> None:
    concise = concise_answer(answer, question)
    assert concise is None, concise


def test_a_closing_phrase_is_dropped_only_from_a_phrase_boundary() -> None:
    # "car" is the question's word but not a phrase of its own: cutting it would leave "a red"
    concise = concise_answer("Mara bought a red car.", "What car did Mara buy?")
    assert concise is not None and concise.text == "a red car"


mem = test_answer_llm.mem  # the Lisbon history of test_answer_llm (a fixture)

_WORDS = st.sampled_from("Omar Lena baked a the cello tart for party is what did learning quit May yes no , ;".split())


@given(question=st.lists(_WORDS, min_size=1, max_size=10), answer=st.lists(_WORDS, min_size=1, max_size=14))
def test_the_concise_answer_only_removes_words(question: list[str], answer: list[str]) -> None:
    text, asked = " ".join(answer), " ".join(question) + "?"
    concise = concise_answer(text, asked)
    if concise is None:
        return
    said = [w.lower() for w in re.findall(r"[\w']+", text)]
    kept = [w.lower() for w in re.findall(r"[\w']+", concise.text)]
    assert kept, "a concise answer is never empty"
    position = 0
    for word in kept:  # the kept words appear in the answer, in order (the verdict may be re-cased)
        assert word in said[position:], (text, concise.text)
        position = said.index(word, position) + 1


def test_the_loop_answers_with_its_own_words_and_keeps_the_sentence_as_detail(mem: Memory) -> None:
    def reader(body: dict[str, object]) -> object:
        lisbon = id_of_line(user_message(body), "Lisbon last spring")
        return read(f"You moved to Lisbon last spring [{lisbon}].", [lisbon])

    with FakeChatServer([], responder=reader) as server:  # type: ignore[arg-type]
        concise = answer_with_llm(mem, QUESTION, make_client(server), now=NOW, max_steps=0)
        as_said = answer_with_llm(mem, QUESTION, make_client(server), now=NOW, max_steps=0, concise_answers=False)
    assert re.fullmatch(r"Lisbon last spring \[E\d+\]\.", concise.answer)
    assert concise.detail == "You moved to Lisbon last spring."
    assert "answer_without_question_echo:echo" in concise.flags
    assert re.fullmatch(r"You moved to Lisbon last spring \[E\d+\]\.", as_said.answer) and as_said.detail == ""
    assert [c.turn_id for c in concise.citations] == [c.turn_id for c in as_said.citations] == ["s1:0"]
