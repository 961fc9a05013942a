"""The offline reader: dates for when-questions, the active value for current-state ones, abstention, citations."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest

from sodamem import Memory, Session, Turn
from sodamem.answer.offline import answer_offline, human_span, said_by_another_speaker
from sodamem.answer.render import render_answer
from sodamem.answer.types import Answer
from sodamem.errors import InputError

NOW = datetime(2024, 6, 1)


def session(sid: str, when: datetime, texts: list[str]) -> Session:
    return Session(
        sid, when, tuple(Turn(i, "assistant" if i % 2 else "Maya", t, f"{sid}:{i}") for i, t in enumerate(texts))
    )


@pytest.fixture()
def memory() -> Iterator[Memory]:
    with Memory(":memory:", embedder="fake") as mem:
        mem.ingest(
            [
                session(
                    "s1",
                    datetime(2024, 3, 1, 19),
                    [
                        "I live in Leeds and I love spicy food.",
                        "Noted!",
                        "I went hiking in the Peak District yesterday.",
                    ],
                ),
                session(
                    "s2", datetime(2024, 5, 1, 19), ["I moved to Manchester last month.", "Nice", "I work as a nurse."]
                ),
            ]
        )
        yield mem


def assert_citations_verify(memory: Memory, answer: Answer) -> None:
    assert answer.citations
    for c in answer.citations:
        turn = memory.turn(c.turn_id, session_id=c.session_id)
        assert turn.turn_index == c.turn_index
        assert turn.text[c.char_start : c.char_end] == c.quote


def test_when_question_gets_the_resolved_date(memory: Memory) -> None:
    answer = answer_offline(memory, "When did Maya go hiking?", now=NOW)
    assert not answer.abstained
    assert answer.answer == "29 February 2024"
    assert answer.detail == "from 'yesterday', said 1 March 2024"
    assert_citations_verify(memory, answer)
    assert any("hiking" in c.quote for c in answer.citations)
    assert answer.flags == ("offline",) and answer.cost.usd == 0.0 and answer.steps == 1


def test_current_state_gives_the_active_value_and_what_it_replaced(memory: Memory) -> None:
    answer = answer_offline(memory, "Where does Maya live?", now=NOW)
    assert answer.answer == "Manchester (previously Leeds)"
    assert_citations_verify(memory, answer)
    quotes = " ".join(c.quote for c in answer.citations)
    assert "Manchester" in quotes and "Leeds" in quotes
    before = answer_offline(memory, "Where did Maya live before?", now=NOW)
    assert before.answer.startswith("Leeds")
    assert_citations_verify(memory, before)


def test_memory_ask_is_the_answering_entry_point(memory: Memory, monkeypatch: pytest.MonkeyPatch) -> None:
    """``Memory.ask`` answers as ``ask`` does (offline here: no model configured), on a view at a past time too."""
    for name in ("SODAMEM_LLM_BASE_URL", "SODAMEM_LLM_GGUF", "OPENAI_BASE_URL", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    answer = memory.ask("Where does Maya live?", now=NOW)
    assert answer == answer_offline(memory, "Where does Maya live?", now=NOW)
    assert answer.answer == "Manchester (previously Leeds)"
    assert memory.at(datetime(2024, 4, 1)).ask("Where does Maya live?").answer == "Leeds"
    with pytest.raises(InputError, match="question"):
        memory.ask("???")


def test_other_questions_get_a_short_span_of_the_best_cited_sentence(memory: Memory) -> None:
    answer = answer_offline(memory, "What food does Maya love?", now=NOW)
    assert answer.answer == "spicy food"
    assert answer.detail == "Maya: I live in Leeds and I love spicy food."
    assert_citations_verify(memory, answer)
    assert answer.citations[0].quote == "I live in Leeds and I love spicy food."


def dialogue_memory(session_id: str, turns: list[tuple[str, str]]) -> Memory:
    """A fresh memory holding one session of ``(speaker, text)`` turns, with turn ids ``<session_id>:<index>``."""
    memory = Memory(":memory:", embedder="fake")
    memory.ingest(
        [
            Session(
                session_id,
                datetime(2024, 3, 1, 19),
                tuple(Turn(i, who, text, f"{session_id}:{i}") for i, (who, text) in enumerate(turns)),
            )
        ]
    )
    return memory


@pytest.fixture()
def dialogue() -> Iterator[Memory]:
    turns = [
        ("Maya", "I adopted a puppy last week. His name is Rex and he loves the beach."),
        ("Sam", "Cute! I have three cats and a parrot called Kiwi."),
        ("Maya", 'I finished reading "The Hobbit" yesterday.'),
        ("Sam", "I never went to Paris, but I visited Rome in May."),
    ]
    with dialogue_memory("d1", turns) as mem:
        yield mem


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("What did Maya adopt?", "puppy"),
        ("How many cats does Sam have?", "three"),
        ("What book did Maya finish?", "The Hobbit"),
        ("Did Sam go to Paris?", "No"),
    ],
)
def test_short_answers_by_question_kind(dialogue: Memory, question: str, expected: str) -> None:
    answer = answer_offline(dialogue, question, now=NOW)
    assert answer.answer == expected and not answer.abstained
    assert_citations_verify(dialogue, answer)
    assert expected in answer.detail or expected in ("Yes", "No")


def test_a_question_with_a_time_word_after_its_own_wh_word_is_not_answered_with_a_date(memory: Memory) -> None:
    answer = answer_offline(memory, "What food does Maya love when she is hungry?", now=NOW)
    assert answer.answer == "spicy food"
    assert_citations_verify(memory, answer)


def test_a_question_pinning_another_speakers_words_on_someone_abstains(dialogue: Memory) -> None:
    answer = answer_offline(dialogue, "What pet did Sam adopt?", now=NOW)  # Maya adopted the puppy, not Sam
    assert answer.abstained and answer.flags == ("offline", "abstain:said_by_another_speaker")
    assert not answer.citations
    assert not answer_offline(dialogue, "What did Maya adopt?", now=NOW).abstained


def test_another_persons_question_is_not_their_story() -> None:
    """Sam asks about Maya's favourite dance in the question's own words; Maya answers in hers. The guard must not
    pin the question's words on Sam, who only asked."""
    turns = [
        ("Sam", "So what is your favourite style of dance, Maya?"),
        ("Maya", "Contemporary dance! I love how expressive it is."),
        ("Sam", "I baked bread all weekend."),
    ]
    with dialogue_memory("q1", turns) as mem:
        question = "What is Maya's favourite style of dance?"
        assert not said_by_another_speaker(mem, question, now=NOW)
        answer = answer_offline(mem, question, now=NOW)
        assert not answer.abstained, answer.flags
        assert answer.citations[0].turn_id == "q1:1" and "Contemporary" in answer.detail
        # Sam's own statement still counts as Sam's: the guard stops the question that pins it on Maya
        assert said_by_another_speaker(mem, "Did Maya bake bread all weekend?", now=NOW)


def test_a_yes_no_question_is_answered_only_by_a_sentence_that_says_what_is_asked(dialogue: Memory) -> None:
    """Sam's parrot, not a dog: no sentence says "dog", so no "Yes" from the best-matching one."""
    assert answer_offline(dialogue, "Did Maya adopt a puppy?", now=NOW).answer == "Yes"
    unsupported = answer_offline(dialogue, "Does Sam have a dog?", now=NOW)
    assert unsupported.abstained and "abstain:unsupported" in unsupported.flags


def test_unrelated_question_abstains(memory: Memory) -> None:
    answer = answer_offline(memory, "What is the capital of Peru?", now=NOW)
    assert answer.abstained and answer.answer == "not in memory" and not answer.citations
    assert "abstained" in render_answer(answer)


def test_empty_memory_abstains() -> None:
    with Memory(":memory:", embedder="fake") as mem:
        assert answer_offline(mem, "Where does Maya live?", now=NOW).abstained


def test_render_and_dict(memory: Memory) -> None:
    answer = answer_offline(memory, "What is Maya's job?", now=NOW)
    assert answer.answer == "nurse"
    text = render_answer(answer)
    assert "nurse" in text and "s2:2" in text and "said 2024-05-01T19:00:00" in text  # every citation has its time
    data = answer.to_dict()
    assert set(data) >= {"answer", "citations", "abstained", "steps", "cost", "flags"}
    assert set(data["citations"][0]) >= {"session_id", "turn_index", "turn_id", "char_start", "char_end", "quote"}
    assert set(data["cost"]) == {"input_tokens", "output_tokens", "usd"}


def test_human_span() -> None:
    assert human_span("2023-05-07T00:00:00", "2023-05-08T00:00:00") == "7 May 2023"
    assert human_span("2023-05-01T00:00:00", "2023-06-01T00:00:00") == "May 2023"
    assert human_span("2022-01-01T00:00:00", "2023-01-01T00:00:00") == "2022"
    assert human_span("2023-05-01T00:00:00", "2023-05-08T00:00:00") == "1 May 2023 to 7 May 2023"


@pytest.mark.parametrize("question", ["Where do I live now?", "Where do I live?", "Which city am I in?"])
def test_the_users_first_person_questions_are_about_the_user(tmp_path: Path, question: str) -> None:
    """An agent passes its user's question on as asked: "I" is the speaker "user" of a user/assistant log."""
    with Memory(tmp_path / "m.db", embedder="fake") as memory:
        memory.add([{"role": "user", "text": "I moved to York last month."}], session_id="chat-42")
        answer = answer_offline(memory, question)
        assert not answer.abstained and "York" in answer.answer
        assert [(c.session_id, c.turn_id) for c in answer.citations] == [("chat-42", "chat-42:0")]
        assert answer.citations[0].quote in "I moved to York last month."


def test_first_person_words_name_nobody_where_no_speaker_is_the_user(memory: Memory) -> None:
    """Named speakers (LoCoMo's people): "my" and "I" point at no one, so answers do not change."""
    from sodamem.retrieve.query import find_entities

    assert find_entities(memory.store, memory.user, "Where do I live?", asker="user") == ()


def test_a_date_read_from_words_outside_the_facts_quote_cites_those_words_too() -> None:
    """ "It's my sister Priya's 30th on the 28th of March and we're doing a birthday trip to Lisbon": the trip's fact
    quotes the trip, its date comes from earlier words, and the answer must cite what its date is read from."""
    from tests.test_live_add import EXAMPLE

    with Memory(":memory:", embedder="none") as memory:  # BM25: the fake vectors rank noise first
        memory.ingest(EXAMPLE)
        answer = answer_offline(memory, "When is the birthday trip to Lisbon?")
        assert answer.answer == "28 March 2026"
        assert [c.quote for c in answer.citations] == ["we're doing a birthday trip to Lisbon", "on the 28th of March"]
        assert_citations_verify(memory, answer)


def test_a_state_question_naming_a_past_time_gets_the_value_that_held_then() -> None:
    with Memory(":memory:", embedder="none") as memory:
        memory.add("I live in Leeds.", session_id="s1", timestamp=datetime(2026, 3, 2, 19))
        memory.add("We moved! I live in Manchester now.", session_id="s2", timestamp=datetime(2026, 4, 12, 15))
        may = datetime(2026, 5, 1)
        assert answer_offline(memory, "Where did I live in March?", now=may).answer == "Leeds"
        assert answer_offline(memory, "Where do I live?", now=may).answer == "Manchester (previously Leeds)"
        in_april = answer_offline(memory, "Where did I live in April?", now=may)
        assert in_april.answer == "Manchester (previously Leeds)"  # what held at the end of the time named


@pytest.mark.parametrize(
    ("texts", "question", "expected"),
    [
        (["I have never lived in Leeds."], "Where do I live?", None),
        (["I live in London.", "I no longer live in London."], "Where do I live now?", None),
        (["I don't work at Acme."], "Where do I work?", None),
        (["I live in London.", "I might live in Leeds next year."], "Where do I live now?", "London"),
        (
            ["I live in Leeds.", "I moved to York. I live in York now."],
            "Where do I live now?",
            "York (previously Leeds)",
        ),
        (["I used to live in Paris.", "I live in London now."], "Where do I live now?", "London (previously Paris)"),
        (
            ["I used to live in Paris.", "I live in London now."],
            "Where did I live before London?",
            "Paris (before London)",
        ),
    ],
)
def test_a_state_is_answered_by_what_was_affirmed_and_a_denial_answers_nothing(
    texts: list[str], question: str, expected: str | None
) -> None:
    """Denials, plans and hypotheses are no current value; "previously" names another value, never the same."""
    with Memory(":memory:", embedder="none") as memory:
        for i, text in enumerate(texts):
            memory.add(text, session_id=f"s{i}", timestamp=datetime(2026, 1, 1 + i))
        answer = answer_offline(memory, question, now=datetime(2026, 2, 1))
    assert (None if answer.abstained else answer.answer) == expected, answer


def test_a_yes_no_question_is_not_answered_by_a_question() -> None:
    turns = [("assistant", "Did you climb Scafell Pike?"), ("Maya", "We went up Helvellyn instead.")]
    with dialogue_memory("d2", turns) as memory:
        assert answer_offline(memory, "Did Maya climb Scafell Pike?", now=NOW).abstained


def test_a_denial_said_later_leaves_a_past_time_its_value() -> None:
    with Memory(":memory:", embedder="none") as memory:
        memory.add("I live in London.", session_id="a", timestamp=datetime(2025, 6, 1))
        memory.add("I no longer live in London.", session_id="b", timestamp=datetime(2026, 1, 10))
        february = datetime(2026, 2, 1)
        assert answer_offline(memory, "Where did I live in December 2025?", now=february).answer == "London"
        assert answer_offline(memory, "Where do I live?", now=february).abstained
