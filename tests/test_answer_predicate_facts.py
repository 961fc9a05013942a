"""Facts that answer a question by their predicate: the pure rule, and the offline reader using it."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest

from sodamem import Memory
from sodamem.answer.offline import answer_offline
from sodamem.answer.predicate_facts import (
    MAX_FACTS,
    by_predicate,
    fact_value,
    facts_answering,
    named_by_relation,
    predicate_stems,
    relations_of,
)
from sodamem.porter import stem
from sodamem.records import FactRecord, FactSource
from tests.test_answer_offline import assert_citations_verify
from tests.test_live_add import EXAMPLE

SOURCE = FactSource("s1", 0, "s1:0", 0, 15, "My dog, Biscuit", "2026-03-02T19:05:00")


def fact(predicate: str, value: str, *, fact_id: int = 1, **changes: object) -> FactRecord:
    record = FactRecord(
        fact_id, "relation", predicate, "asserted", "Maya", value, True, (), f"Maya {predicate} {value}",
        "2026-03-02T19:05:00", None, None, None, None, "2026-03-02T19:05:00", None, "active", (SOURCE,), (),
    )  # fmt: skip
    return replace(record, **changes)  # type: ignore[arg-type]


def asked(*words: str) -> set[str]:
    return {stem(w) for w in words}


def test_predicate_stems() -> None:
    assert predicate_stems("favorite_food") == {stem("favorite"), "food"}
    assert predicate_stems("likes") == {"like"} and predicate_stems("is_a") == set()


@pytest.mark.parametrize(
    ("question", "words", "facts", "values"),
    [
        ("What is Maya's dog called?", ("dog", "called"), [fact("dog", "Biscuit")], ["Biscuit"]),
        ("What is Maya's cat called?", ("cat", "called"), [fact("dog", "Biscuit")], []),
        ("What food does Maya like?", ("food", "like"), [fact("favorite_food", "halloumi")], []),  # not every word
        ("Is Maya's dog Biscuit?", ("dog", "biscuit"), [fact("dog", "Biscuit")], []),  # the value is asked about
        ("Maya's dog?", ("dog",), [fact("dog", "Biscuit", status="superseded")], []),
        ("Maya's dog?", ("dog",), [fact("dog", "Biscuit", polarity=False)], []),
        ("Maya's dog?", ("dog",), [fact("dog", "Biscuit", sources=())], []),
        ("Maya's dog?", ("dog",), [fact("dog", None)], []),
        ("What kind of music does Maya like?", ("kind", "music", "like"), [fact("likes", "reading")], []),
        ("What music does Maya like?", ("music", "like"), [fact("likes", "rock music")], ["rock music"]),
        ("What did Maya adopt?", ("adopt",), [fact("adopted", "a puppy", kind="state")], ["puppy"]),
        ("What did Maya finish?", ("finish",), [fact("finished", "reading", kind="event")], []),  # events: no
        (
            "What does Maya like?",
            ("like",),
            [
                fact("likes", "cooking", fact_id=2, mentioned_at="2026-04-01T00:00:00"),
                fact("likes", "hiking", fact_id=1),
                fact("likes", "Hiking ", fact_id=3),  # the same value said again
            ],
            ["hiking", "cooking"],
        ),
        ("What does Maya like?", ("like",), [fact("likes", f"thing {n}", fact_id=n) for n in range(9)], 5),
    ],
)
def test_which_facts_answer(question: str, words: tuple[str, ...], facts: list[FactRecord], values: object) -> None:
    found = [fact_value(f) for f in facts_answering(question, asked(*words), facts)]
    assert (len(found) == MAX_FACTS) if isinstance(values, int) else (found == values)


@pytest.fixture(scope="module")
def example() -> Iterator[Memory]:
    with Memory(":memory:", embedder="fake") as memory:
        memory.ingest(EXAMPLE)
        yield memory


@pytest.mark.parametrize(
    ("question", "expected", "quoted"),
    [
        ("What is Maya's dog called?", "Biscuit", ["My dog, Biscuit"]),
        ("What is my dog called?", "Biscuit", ["My dog, Biscuit"]),
        ("Who is Priya's fiancé?", "Marcus", ["Priya's fiancé Marcus"]),  # a name asked by the relation that gave it
        ("Who is Grace?", "Maya's manager", ["My manager, Grace"]),  # a name asked about: what its relations say
        ("Who is Marcus?", "Priya's fiancé", ["Priya's fiancé Marcus"]),
        (
            "What does Tom like?",
            "hiking, cooking, complaining about his knee",
            ["Tom", "He likes hiking, cooking, and complaining about his knee"],  # "He" is Tom: both are cited
        ),
    ],
)
def test_the_offline_reader_answers_with_the_facts_the_question_names(
    example: Memory, question: str, expected: str, quoted: list[str]
) -> None:
    answer = answer_offline(example, question)
    assert answer.answer == expected
    assert [c.quote for c in answer.citations] == quoted
    assert_citations_verify(example, answer)


def test_relations_name_people_both_ways() -> None:
    fiance = fact("fiance", "Marcus", text="Priya's fiancé is Marcus", subject="Priya")
    manager = fact("manager", "Grace", fact_id=2, text="Maya's manager is Grace")
    mentor = fact("mentor", "Grace", fact_id=3, text="Tom's mentor is Grace", mentioned_at="2026-04-01T00:00:00")
    liked = fact("likes", "Grace", fact_id=4, kind="preference", text="Maya likes Grace")
    unsourced = fact("boss", "Grace", fact_id=5, text="Maya's boss is Grace", sources=())
    named = named_by_relation("Priya's fiancé", "Marcus", [manager, fiance])
    assert named is not None and (named.text, named.facts, named.detail) == ("Marcus", [fiance], fiance.text)
    assert named_by_relation("Priya's brother", "Marcus", [fiance]) is None
    roles = relations_of("Grace", [manager, mentor, liked, unsourced])
    assert roles is not None and roles.text == "Maya's manager, Tom's mentor" and roles.facts == [manager, mentor]
    assert relations_of("Aisha", [manager]) is None
    found = by_predicate("What is Maya's dog called?", asked("dog", "called"), [fact("dog", "Biscuit")])
    assert found is not None and (found.text, found.detail) == ("Biscuit", "Maya dog Biscuit")
