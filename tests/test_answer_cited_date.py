"""A when-question's LLM answer said as a date: the one it states, else its evidence's (answer/cited_date.py)."""

from __future__ import annotations

import re
from datetime import datetime

import pytest

from sodamem import Memory
from sodamem.answer.cited_date import asks_for_a_date, cited_date, date_answer, stated_date, states_a_date
from sodamem.answer.llm_loop import answer_with_llm
from sodamem.llm.fake_server import FakeChatServer
from sodamem.retrieve.pack import EvidenceItem
from tests import test_answer_llm
from tests.test_answer_llm import NOW, id_of_line, make_client, plan, read

dialogue = test_answer_llm.dialogue  # Maya's and Sam's few turns, said at NOW (a fixture)


def item(item_id: str, kind: str, text: str, said: str, **fields: str) -> EvidenceItem:
    return EvidenceItem(item_id, kind, "s1", 0, "s1:0", "Maya", 0, len(text), said, text, 1.0, **fields)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("question", "wanted"),
    [
        ("When did Maya finish The Hobbit?", True),
        ("What date did Sam visit Rome?", True),
        ("How long has Maya had Rex?", False),
        ("How many days ago did Maya adopt Rex?", False),
        ("What did Maya adopt?", False),
        ("In which month did Sam visit Rome?", True),
        ("Since when has Maya had Rex?", True),
        # a time word after the question's own wh-word: it asks for the thing first
        ("What schools did John play basketball in and how many years was he with his team?", False),
        ("What did John do to deal with stress when he was younger?", False),
        ("Who did Sam meet when he was in Rome?", False),
    ],
)
def test_which_questions_ask_for_a_date(question: str, wanted: bool) -> None:
    assert asks_for_a_date(question) is wanted


@pytest.mark.parametrize(
    ("answer", "dated"),
    [
        ("7 May 2023 [E2]", True),
        ("In May [E1].", True),
        ("2023-05 [E1]", True),
        ("The summer of 2022.", True),
        ("Maya finished the book [E3].", False),
        ("Last week [E3].", False),
        ("After the trip [E2019].", False),  # an id in brackets is not a year
    ],
)
def test_what_counts_as_an_answer_that_states_a_date(answer: str, dated: bool) -> None:
    assert states_a_date(answer) is dated


def test_a_cited_facts_occurrence_comes_before_a_turns_time_words_and_the_day_said() -> None:
    said = "2023-05-08T10:00:00"
    plain = item("E1", "turn", "That was a lovely evening.", said)
    worded = item("E2", "turn", "I went to the support group yesterday.", said)
    fact = item(
        "E3", "fact", "Maya attended a support group", said, occurred_start="2023-05-01", occurred_end="2023-05-08"
    )
    assert cited_date([plain, worded, fact]) == cited_date([fact])
    dated = cited_date([plain, worded, fact])
    assert dated is not None
    assert (dated.text, dated.item.id, dated.how) == ("1 May 2023 to 7 May 2023", "E3", "occurred")
    dated = cited_date([plain, worded])
    assert dated is not None and (dated.text, dated.item.id, dated.how) == ("7 May 2023", "E2", "resolved")
    dated = cited_date([plain])
    assert dated is not None and (dated.text, dated.item.id, dated.how) == ("8 May 2023", "E1", "said")
    assert cited_date([]) is None


@pytest.mark.parametrize(
    ("answer", "words"),
    [
        ("Maria donated her car to a shelter 21 December 2022.", "21 December 2022"),
        ("Jon got a mentor on June 15, 2023.", "June 15, 2023"),  # "on" is not part of the date
        ("From 16 October 2023 to 29 October 2023, while away.", "16 October 2023 to 29 October 2023"),
        ("She went the week before 9 June 2023.", "the week before 9 June 2023"),
        ("They met the weekend of 8 July, 2023.", "the weekend of 8 July, 2023"),
        ("In 2022, she moved.", "2022"),
        ("John helped renovate the community center 2022.", "2022"),  # a bare year
        ("She may have gone.", None),  # "may" the verb is no date
        ("On 8 July 2023, with 2024 plans.", "8 July 2023"),  # a later year is not joined to the date
        ("Last week.", None),
        ("She finished the book.", None),
    ],
)
def test_the_date_an_answer_states_is_cut_from_its_words(answer: str, words: str | None) -> None:
    assert stated_date(answer, NOW) == words


QUESTION = "When did Maya finish reading The Hobbit?"


def test_a_when_answer_without_a_date_is_said_as_the_date_of_its_evidence(dialogue: Memory) -> None:
    pack = dialogue.evidence(QUESTION, budget_tokens=1500, now=NOW)
    hobbit = id_of_line(pack.render_text(), "Hobbit")
    retold = read(f"Maya finished reading The Hobbit [{hobbit}].", [hobbit])
    with FakeChatServer([retold, retold]) as server:
        dated = answer_with_llm(dialogue, QUESTION, make_client(server), now=NOW, max_steps=0)
        as_said = answer_with_llm(dialogue, QUESTION, make_client(server), now=NOW, max_steps=0, cited_dates=False)
    assert re.fullmatch(r"31 May 2024 \[E\d+\]\.", dated.answer)  # "yesterday", said on 1 June 2024
    assert dated.detail == "Maya finished reading The Hobbit."
    assert any(flag.startswith("date_from_citation:") for flag in dated.flags)
    assert "date_said_as_relative" not in dated.flags  # "yesterday" names one day: nothing to anchor
    [citation] = dated.citations
    assert citation.turn_id == "d1:2" and "Hobbit" in citation.quote
    assert as_said.answer == f"Maya finished reading The Hobbit [{hobbit}]." and as_said.detail == ""
    assert not any(flag.startswith("date_from_citation") for flag in as_said.flags)


def test_an_answer_that_states_a_date_is_cut_to_it_even_where_its_evidence_says_otherwise(dialogue: Memory) -> None:
    # The model's date is kept as written (30 May, where its evidence says 31 May): the rule shortens, never overrules.
    pack = dialogue.evidence(QUESTION, budget_tokens=1500, now=NOW)
    hobbit = id_of_line(pack.render_text(), "Hobbit")
    with FakeChatServer([read(f"Maya finished The Hobbit on 30 May 2024 [{hobbit}].", [hobbit])]) as server:
        result = answer_with_llm(dialogue, QUESTION, make_client(server), now=NOW, max_steps=0)
    assert result.answer == f"30 May 2024 [{hobbit}]."
    assert result.detail == "Maya finished The Hobbit on 30 May 2024." and "answer_cut_to_date" in result.flags
    assert [c.turn_id for c in result.citations] == ["d1:2"]


@pytest.mark.parametrize("answer", ["30 May 2024 [{id}].", "In May [{id}]"])
def test_an_answer_that_is_a_date_already_is_left_alone(dialogue: Memory, answer: str) -> None:
    pack = dialogue.evidence(QUESTION, budget_tokens=1500, now=NOW)
    hobbit = id_of_line(pack.render_text(), "Hobbit")
    with FakeChatServer([read(answer.format(id=hobbit), [hobbit])]) as server:
        result = answer_with_llm(dialogue, QUESTION, make_client(server), now=NOW, max_steps=0)
    if answer.startswith("In May"):  # "In" is cut: the date is the answer
        assert result.answer == f"May [{hobbit}]" and "answer_cut_to_date" in result.flags
    else:
        assert result.answer == answer.format(id=hobbit) and result.detail == ""
        assert not any(flag.startswith(("date_from_citation", "answer_cut_to_date")) for flag in result.flags)


def test_a_question_that_is_not_a_when_question_is_left_alone(dialogue: Memory) -> None:
    question = "What did Maya adopt?"
    pack = dialogue.evidence(question, budget_tokens=1500, now=NOW)
    puppy = id_of_line(pack.render_text(), "adopted a puppy")
    with FakeChatServer([plan("answer"), read(f"A puppy named Rex [{puppy}].", [puppy])]) as server:
        result = answer_with_llm(dialogue, question, make_client(server), now=NOW)
    assert result.answer == f"A puppy named Rex [{puppy}]." and result.detail == ""


CRASH = "My laptop crashed last week and I lost all my work."  # said 14 September 2022: last week = 5-11 September
WEEK = "(the week before 14 September 2022)"  # "last week", anchored on the day it was said


@pytest.mark.parametrize(
    ("answer", "said", "flag"),
    [
        ("2022-09-05", f"5 September 2022 to 11 September 2022 {WEEK}", "answer_widened_to_cited_span"),  # its start
        ("5 September 2022", f"5 September 2022 to 11 September 2022 {WEEK}", "answer_widened_to_cited_span"),
        ("6 September 2022", f"6 September 2022 {WEEK}", "answer_cut_to_date"),  # inside the week: kept as written
        ("September 2022", "September 2022", "answer_cut_to_date"),  # not inside the week: nothing to anchor
    ],
)
def test_a_day_that_starts_a_cited_span_is_said_as_the_span(answer: str, said: str, flag: str) -> None:
    crash = item("E1", "turn", CRASH, "2022-09-14T10:00:00")
    other = item("E2", "turn", "Nice to hear from you.", "2022-09-14T10:01:00")
    dated = date_answer(answer, [other, crash], datetime(2022, 10, 1))
    assert dated is not None and (dated.text, dated.flag) == (said, flag)
    wanted = ("E1",) if flag == "answer_widened_to_cited_span" else ("E2", "E1")
    assert dated.cited == wanted  # a widened date cites the item whose span it is


def test_a_cited_facts_occurrence_of_several_days_widens_its_first_day() -> None:
    trip = item(
        "E3", "fact", "Jon visited Rome", "2023-06-19T10:00:00", occurred_start="2023-06-12", occurred_end="2023-06-19"
    )
    dated = date_answer("12 June 2023", [trip], datetime(2023, 7, 1))
    assert dated is not None and dated.text == "12 June 2023 to 18 June 2023"
    one_day = item(
        "E4", "fact", "Jon flew home", "2023-06-19T10:00:00", occurred_start="2023-06-18", occurred_end="2023-06-19"
    )
    kept = date_answer("18 June 2023", [one_day], datetime(2023, 7, 1))
    assert kept is not None and (kept.text, kept.flag) == ("18 June 2023", "answer_cut_to_date")


SCREENPLAY = "I finally finished my first full screenplay and printed it last Friday."  # said Sunday 23 January 2022
FRIDAY = "(the Friday before 23 January 2022)"


@pytest.mark.parametrize(
    ("answer", "said", "flag"),
    [
        ("2022-01-21", f"2022-01-21 {FRIDAY}", "answer_cut_to_date"),
        ("21 January 2022", f"21 January 2022 {FRIDAY}", "answer_cut_to_date"),
        ("She printed it.", f"21 January 2022 {FRIDAY}", "date_from_citation:occurred"),
    ],
)
def test_a_cited_facts_date_says_the_time_word_of_its_source_turn(answer: str, said: str, flag: str) -> None:
    # the model cites the fact, not its turn: the fact's occurrence was read from the turn's "last Friday", which
    # is anchored as it would be were the turn cited (as the offline reader says it)
    turn = item("E1", "turn", SCREENPLAY, "2022-01-23T14:01:00")
    (friday,) = turn.times
    fact = item(
        "E2", "fact", "Joanna finished her first screenplay", turn.timestamp,
        occurred_start=friday.start, occurred_end=friday.end,
    )  # fmt: skip
    dated = date_answer(answer, [fact], datetime(2022, 11, 11), [turn, fact])
    assert dated is not None and (dated.text, dated.flag, dated.cited) == (said, flag, ("E2",))
    assert dated.anchored == FRIDAY.strip("()")
    alone = date_answer(answer, [fact], datetime(2022, 11, 11))  # its turn not in the evidence: no word to anchor
    assert alone is not None and alone.anchored is None and FRIDAY not in alone.text


def test_an_llm_answer_citing_a_fact_anchors_the_time_word_of_the_facts_turn(dialogue: Memory) -> None:
    question = "When did Maya adopt a puppy?"
    pack = dialogue.evidence(question, budget_tokens=1500, now=NOW)
    fact = id_of_line(pack.render_text(), "Maya adopted a puppy —")
    with FakeChatServer([read(f"She adopted Rex [{fact}].", [fact])]) as server:
        result = answer_with_llm(dialogue, question, make_client(server), now=NOW, max_steps=0)
    # "last week", said on Saturday 1 June 2024, is the calendar week before it
    assert result.answer == f"20 May 2024 to 26 May 2024 (the week before 1 June 2024) [{fact}]."
    assert "date_from_citation:occurred" in result.flags and "date_said_as_relative" in result.flags
    [citation] = result.citations
    assert citation.turn_id == "d1:0"
