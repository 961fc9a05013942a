"""Short answer spans: question kinds, the span each kind picks, and that a span is always a slice of its sentence."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sodamem.answer.spans import (
    answer_span,
    asks_for_a_list,
    head_noun,
    question_kind,
    question_stems,
    tokens,
)
from sodamem.answer.yes_no import yes_or_no


def span(question: str, sentence: str) -> str:
    start, end = answer_span(question, sentence)
    return sentence[start:end]


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("Who gave Maya the book?", "who"),
        ("Where did Caroline move from?", "where"),
        ("When did Maya go hiking?", "when"),
        ("What year did Jon open his studio?", "when"),
        ("How many kids does Melanie have?", "how_many"),
        ("How long has Jon been dancing?", "how_long"),
        ("Why did Gina close her shop?", "why"),
        ("How does Melanie relax?", "how"),
        ("Did Sam go to Paris?", "yes_no"),
        ("What food does Maya love?", "what"),
        ("Tell me Maya's favourite food.", "what"),
    ],
)
def test_question_kind(question: str, kind: str) -> None:
    assert question_kind(question) == kind


def test_head_noun_and_lists() -> None:
    assert head_noun("What kind of art does Caroline make?") == "art"
    assert head_noun("What did Maya adopt?") is None
    assert asks_for_a_list("Which cities has John been to?")
    assert asks_for_a_list("What are the names of John's children?")
    assert not asks_for_a_list("What does Jon's dance make him?")  # a possessive is not a plural
    assert not asks_for_a_list("What kind of art does Caroline make?")


@pytest.mark.parametrize(
    ("question", "sentence", "expected"),
    [
        ("What food does Maya love?", "I live in Leeds and I love spicy food.", "spicy food"),
        ("What kind of art does Caroline make?", "Lately I make abstract art, mostly.", "abstract art"),
        ("What book did Maya finish?", 'I finished reading "The Hobbit" yesterday.', "The Hobbit"),
        (
            "What did Anthony and John end up playing during the charity event?",
            "Anthony and I went to this charity thing and ended up in this intense Harry Potter trivia contest.",
            "intense Harry Potter trivia contest",
        ),
        ("How many kids does Melanie have?", "I have three kids and they love camping.", "three"),
        (
            "What climbing gym did Aisha recommend?",
            "She recommended a gym called The Arch, near Piccadilly.",
            "The Arch",
        ),
        (
            "What job did Maya get at Lumen Health?",
            "Lumen Health offered me the product manager job yesterday!",
            "product manager job",
        ),
        ("Which city did John recommend?", "Barcelona is a must-visit city!", "Barcelona is a must-visit city"),
        ("Which neighbourhood is Maya's new flat in?", "Boxes everywhere in our new flat in Ancoats.", "Ancoats"),
        ("What did Maya adopt?", "I adopted a puppy last week.", "puppy"),
        ("Why did Jon start his studio?", "I started it because dance is my passion.", "dance is my passion"),
        ("How does John relax?", "I like to relax by reading.", "by reading"),
        ("Where did Maya work before?", "I work as a data analyst at Northwind Bank.", "Northwind Bank"),
        ("Who organised the leaving drinks?", "Daniel organised leaving drinks at the pub round the corner.", "Daniel"),
        ("Where does Caroline live?", "I moved to the Big Apple last year.", "Big Apple"),
        ("Where did Jon go in Florida?", "We went to Florida, to Miami, in May.", "Miami"),
    ],
)
def test_answer_span(question: str, sentence: str, expected: str) -> None:
    assert span(question, sentence) == expected


def test_no_shorter_span_gives_the_whole_sentence() -> None:
    assert span("What food does Maya love?", "Maya loves food.") == "Maya loves food"
    assert answer_span("What?", "") == (0, 0)
    assert answer_span("What?", " ... ") == (0, 5)


def test_yes_or_no() -> None:
    assert yes_or_no("I never went to Paris.") == "No"
    assert yes_or_no("We didn't study together.") == "No"
    assert yes_or_no("Yes, we studied together at college.") == "Yes"
    # an ending said of what a present-tense question asks: no; asked about the ending itself, or in the past: yes
    assert yes_or_no("I gave up coffee two weeks ago.", "Do I drink coffee?") == "No"
    assert yes_or_no("I quit smoking last year.", "Do I smoke?") == "No"
    assert yes_or_no("I stopped eating meat in January.", "Do I eat meat?") == "No"
    assert yes_or_no("I quit smoking last year.", "Did I quit smoking?") == "Yes"
    assert yes_or_no("I stopped by the bakery.", "Do I go to the bakery?") == "Yes"
    assert yes_or_no("I gave up coffee.", "Did I drink coffee in 2020?") == "Yes"
    # an intent, a restart, or an ending of something else is no "No"
    assert yes_or_no("I'm trying to give up coffee.", "Do I drink coffee?") == "Yes"
    assert yes_or_no("I quit Twitter and joined Mastodon.", "Do I use Mastodon?") == "Yes"
    assert yes_or_no("I stopped playing guitar for a year but I'm playing again now.", "Do I play guitar?") == "Yes"
    assert yes_or_no("I stopped to get coffee.", "Do I drink coffee?") == "Yes"


_TEXT = st.text(alphabet=st.sampled_from(list("abcdefgh XYZ'\"’“”,.;:!?-—()0123456789")), max_size=80)
_QUESTION = st.sampled_from(
    [
        "What food does Maya love?",
        "Who called?",
        "Where did she go?",
        "How many cats?",
        "How long was it?",
        "Why did he leave?",
        "How does she relax?",
        "Did it rain?",
        "What kind of art do you make?",
        "Which cities?",
    ]
)


@settings(max_examples=300, deadline=None)
@given(question=_QUESTION, sentence=_TEXT)
def test_span_is_always_a_literal_slice(question: str, sentence: str) -> None:
    start, end = answer_span(question, sentence)
    assert 0 <= start <= end <= len(sentence)
    piece = sentence[start:end]
    if any(ch.isalnum() for ch in sentence):  # a sentence with a word gets a trimmed span holding a word
        assert piece == piece.strip() and any(ch.isalnum() for ch in piece)
    else:
        assert (start, end) == (0, len(sentence))


@settings(max_examples=200, deadline=None)
@given(question=st.text(max_size=40), sentence=st.text(max_size=120))
def test_span_never_fails_on_any_text(question: str, sentence: str) -> None:
    start, end = answer_span(question, sentence)
    assert 0 <= start <= end <= len(sentence)


def test_a_time_or_decimal_is_one_word() -> None:
    sentence = "I finished the half marathon in 1:52."
    start, end = answer_span("What was my half marathon time?", sentence)
    assert sentence[start:end] == "1:52"
    assert [t.word for t in tokens("It cost 1,000 pounds, 3.5 times more.")][2:6] == ["1,000", "pounds", "3.5", "times"]


def test_an_irregular_past_form_is_the_verb_asked() -> None:
    """ "I went freelance" says what "When did I go freelance?" asks (the stemmer leaves "went" alone)."""
    assert {t.stem for t in tokens("I went freelance and bought a van.")} >= question_stems("go buy")


def test_what_follows_the_subjects_name_is_its_verb_not_the_answer() -> None:
    assert span("What instrument is Alex learning?", "Alex started learning the cello.") == "cello"
    assert span("What did Caroline research?", "Caroline researched adoption agencies.") == "adoption agencies"
