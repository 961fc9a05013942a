"""Answer-type expansion: the type phrase of a list question, and turns ranked by their best mention's affinity."""

from __future__ import annotations

import numpy as np
import pytest

from sodamem.retrieve.answer_type import Mention, answer_type, mention_affinity, type_bonus, type_ranking


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("What books has Melanie read?", "books"),
        ("Which cities has John been to?", "cities"),
        ("What kinds of games does Nate play?", "games"),
        ("What types of pottery have Melanie and her kids made?", "pottery"),
        ("What kind of art does Caroline make?", "art"),
        ("What musical artists/bands has Melanie seen?", "musical artists/bands"),
        ("How many children does Melanie have?", "children"),
        ("How many times has Melanie gone to the beach?", None),  # a count of occasions, not of things
        ("What is Caroline's identity?", None),  # one thing, not a list
        ("What does Melanie do to destress?", None),
        ("When did Melanie go hiking?", None),
    ],
)
def test_answer_type_reads_the_type_phrase(question: str, expected: str | None) -> None:
    assert answer_type(question) == expected


def _unit(*xs: float) -> np.ndarray:
    v = np.array(xs, dtype=np.float32)
    return v / np.linalg.norm(v)


def test_affinity_takes_the_closer_of_the_words_and_the_label_description() -> None:
    books = _unit(1, 0, 0)
    words = {"clarinet": _unit(0, 1, 0), "Charlotte's Web": _unit(0.2, 1, 0), "novel": _unit(1, 0.1, 0)}
    labels = {"WORK_OF_ART": _unit(1, 0.5, 0)}
    affinity = mention_affinity(books, words, labels)
    assert affinity(Mention("clarinet", "NOUN")) == pytest.approx(0.0, abs=1e-6)
    title = affinity(Mention("Charlotte's Web", "WORK_OF_ART"))
    assert title == pytest.approx(float(labels["WORK_OF_ART"] @ books))  # the label is closer than the words
    assert affinity(Mention("novel", "NOUN")) > title
    assert affinity(Mention("unseen", "NOUN")) == 0.0  # no vector: no affinity


def test_type_ranking_orders_by_best_mention_and_drops_turns_below_the_floor() -> None:
    scores = {"violin": 0.8, "clarinet": 0.7, "lunch": 0.1, "music": 0.5}
    mentions = {
        3: (Mention("lunch", "NOUN"), Mention("clarinet", "NOUN")),
        1: (Mention("violin", "NOUN"),),
        2: (Mention("lunch", "NOUN"),),
        4: (Mention("music", "NOUN"),),
        5: (),
        6: (Mention("clarinet", "NOUN"),),
    }
    ranking = type_ranking(mentions, lambda m: scores[m.text], floor=0.4)
    assert ranking == [(1, 0.8), (3, 0.7), (6, 0.7), (4, 0.5)]  # ties by turn id; 2 and 5 below the floor
    assert type_ranking(mentions, lambda m: scores[m.text], floor=0.9) == []


def test_type_bonus_scales_affinity_from_the_floor() -> None:
    bonus = type_bonus({1: 0.9, 2: 0.65, 3: 0.4, 4: 0.1}, weight=2.0, floor=0.4)
    assert bonus == pytest.approx({1: 2.0 * 0.5 / 0.6, 2: 2.0 * 0.25 / 0.6})  # at or below the floor: none
    assert type_bonus({1: 0.9}, weight=0.0, floor=0.4) == {}
    assert type_bonus({1: 1.0}, weight=1.0, floor=0.0) == {1: 1.0}
