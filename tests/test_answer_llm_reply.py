"""The reader's reply text, cleaned and checked before grounding (answer/llm_reply.py: pure functions)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sodamem.answer.llm_reply import (
    cites_an_id,
    drop_pack_markup,
    has_words,
    human_dates,
    resolve_time_notes,
    says_not_in_memory,
    split_sentences,
    validate_citations,
    without_ids,
)


def test_unknown_ids_leave_the_text_and_are_reported() -> None:
    text, cited, unknown = validate_citations("Lisbon [E2, E9]. In May [E24].", ["E3", " [e2] "], {"E2", "E3"})
    assert text == "Lisbon [E2]. In May."
    assert cited == ["E2", "E3"]  # the list's ids count too, once each, in order
    assert unknown == ["E9", "E24"]


def test_time_notes_and_iso_dates_are_said_as_a_person_says_them() -> None:
    said = resolve_time_notes("she left yesterday [yesterday = 2023-06-08] [E1]")
    assert said == "she left 2023-06-08 [E1]"
    assert human_dates(said) == "she left 8 June 2023 [E1]"
    assert human_dates("2023-10-16..2023-10-29") == "16 October 2023 to 29 October 2023"
    assert human_dates("in 2024-02") == "in February 2024"


def test_pack_markup_is_dropped() -> None:
    assert drop_pack_markup("fact (active): farther to de-stress (source D7:22)") == "farther to de-stress"


@pytest.mark.parametrize("reply", ["not in memory", "Not in memory.", "not in memory [E3]"])
def test_a_not_in_memory_reply_is_recognised(reply: str) -> None:
    assert says_not_in_memory(reply)


def test_sentences_ids_and_words() -> None:
    assert split_sentences("Paris [E1]. Rome [E2]!  ") == ["Paris [E1].", "Rome [E2]!"]
    assert cites_an_id("Paris [E1].") and not cites_an_id("Paris, E-bike.")
    assert without_ids("Paris [E1, E2].") == "Paris."
    assert not has_words("[Session s1 — 2024-05-01].") and has_words("Paris [E1].")


_CITED = st.lists(st.sampled_from(["E1", "E2", "E7", "E24"]), min_size=1, max_size=3).map(
    lambda ids: f" [{', '.join(ids)}]"
)


@given(st.lists(st.one_of(st.text(alphabet="abc .", max_size=8), _CITED), max_size=6), st.lists(st.just("E7")))
def test_validation_never_keeps_an_unknown_id(parts: list[str], listed: list[str]) -> None:
    text, cited, unknown = validate_citations("".join(parts), listed, {"E1", "E2"})
    assert set(cited) <= {"E1", "E2"} and not set(cited) & set(unknown)
    assert "E7" not in text and "E24" not in text
