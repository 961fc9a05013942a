"""The speaker moving in with people ("moving in with Ingrid and Pavel on saturday!") makes each a housemate, from
the day said; someone else moving in with someone is not read. Real rules, real store; answers cite the move."""

from __future__ import annotations

from datetime import datetime

import pytest

from .scenario_histories import check_answer, remembered

ASKED = datetime(2025, 6, 1, 12, 0)


def housemates(said: str) -> list[tuple[str | None, str]]:
    with remembered([("2025-01-02T10:00", said)]) as memory:
        return [(f.object, f.modality) for f in memory.facts() if f.predicate == "housemate"]


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("I moved in with Ingrid last week.", [("Ingrid", "asserted")]),
        (
            "new year new flat! moving in with Ingrid and Pavel on saturday.",
            [("Ingrid", "planned"), ("Pavel", "planned")],
        ),
        ("I'm moving in with my boyfriend Tom next month.", [("Tom", "planned")]),
        (
            "I moved in with Ingrid, Pavel and Yusuf.",
            [("Ingrid", "asserted"), ("Pavel", "asserted"), ("Yusuf", "asserted")],
        ),
    ],
)
def test_the_people_one_moves_in_with_live_with_one(said: str, expected: list[tuple[str, str]]) -> None:
    assert sorted(housemates(said)) == sorted(expected)


@pytest.mark.parametrize(
    "said",
    [
        "Lucy moved in with her boyfriend.",
        "I might move in with Tom.",
        "Should I move in with Tom?",
        "Sarah says I moved in with Tom.",
        "Rent is steep, but moving in with Sarah would be cheaper.",
        "I moved in with Jake in 2019 but moved out in 2021.",
    ],
)
def test_no_one_moved_in_with(said: str) -> None:
    assert housemates(said) == []


def test_who_one_lives_with_after_a_move_in_and_a_move_out() -> None:
    history = [
        ("2025-01-05T14:00", "new year new flat! moving in with Ingrid and Pavel on saturday."),
        ("2025-03-03T19:50", "Pavel's moving out end of the month, he got a job in Gdańsk."),
        ("2025-04-06T16:20", "our new flatmate Yusuf moved in yesterday."),
    ]
    with remembered(history) as memory:
        answer = memory.ask("Who do I live with these days?", now=ASKED, offline=True)
        check_answer(memory, answer, "Ingrid, Yusuf")
