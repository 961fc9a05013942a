"""The QA sample: every category covered, the same questions on every run, a larger sample extends a smaller one."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sodamem.bench.qa_sample import sample_questions
from sodamem.bench.runner import BenchQuestion, BenchUnit


def question(qid: str, category: str) -> BenchQuestion:
    return BenchQuestion(qid, f"question {qid}?", category, "x", (), ())


def units(spec: list[list[str]]) -> list[BenchUnit]:
    """One unit per inner list, one question per category name in it."""
    return [
        BenchUnit(f"u{n}", [], [question(f"u{n}#{i}", category) for i, category in enumerate(categories)])
        for n, categories in enumerate(spec)
    ]


def qids(picked: list[BenchUnit]) -> list[str]:
    return [q.qid for u in picked for q in u.questions]


def test_the_sample_spreads_over_the_categories() -> None:
    data = units([["1"] * 30 + ["2"] * 5, ["1"] * 20 + ["3"] * 2 + ["5"] * 10])
    picked = sample_questions(data, 12)
    by_category = Counter(q.category for u in picked for q in u.questions)
    assert by_category["3"] == 2 and sum(by_category.values()) == 12  # the rare category gives all it has
    assert min(by_category["1"], by_category["2"], by_category["5"]) >= 3
    # the questions keep their units and their order within a unit
    for unit, original in zip(picked, data, strict=False):
        order = [q.qid for q in original.questions]
        assert [order.index(q.qid) for q in unit.questions] == sorted(order.index(q.qid) for q in unit.questions)


def test_units_without_a_sampled_question_are_dropped() -> None:
    data = units([["1"], ["2"] * 3, ["1"] * 4])
    picked = sample_questions(data, 2)
    assert sum(len(u.questions) for u in picked) == 2 and all(u.questions for u in picked)
    assert {q.category for u in picked for q in u.questions} == {"1", "2"}


def test_a_sample_larger_than_the_split_is_the_split() -> None:
    data = units([["1", "2"], ["4"]])
    assert qids(sample_questions(data, 50)) == qids(data)
    with pytest.raises(ValueError, match="at least one"):
        sample_questions(data, 0)


@given(
    st.lists(st.lists(st.sampled_from(["1", "2", "3", "4", "5"]), max_size=12), min_size=1, max_size=5),
    st.integers(min_value=1, max_value=40),
    st.integers(min_value=0, max_value=10),
)
def test_samples_are_fixed_and_nested(spec: list[list[str]], n: int, more: int) -> None:
    data = units(spec)
    small, large = set(qids(sample_questions(data, n))), set(qids(sample_questions(data, n + more)))
    assert small == set(qids(sample_questions(list(reversed(data)), n)))  # unit order does not choose
    assert small <= large and len(small) == min(n, len(qids(data)))


@given(
    st.lists(st.lists(st.sampled_from(["1", "2", "3", "4", "5"]), max_size=12), min_size=1, max_size=5),
    st.integers(min_value=1, max_value=20),
    st.integers(min_value=0, max_value=20),
)
def test_a_skipped_slice_is_what_a_larger_sample_adds(spec: list[list[str]], n: int, skip: int) -> None:
    data = units(spec)
    total = sum(len(u.questions) for u in data)
    if skip and skip >= total:
        with pytest.raises(ValueError, match="leaves none"):
            sample_questions(data, n, skip=skip)
        return
    sliced = set(qids(sample_questions(data, n, skip=skip)))
    first = set(qids(sample_questions(data, skip))) if skip else set()
    assert not sliced & first  # a tuning slice never holds a question of the measured sample before it
    assert sliced | first == set(qids(sample_questions(data, skip + n)))
