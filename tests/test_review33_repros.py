"""A review's repros of this change: what the new rules must not read into ordinary chat (trips are no homes, one-off
remarks end nothing, a person is no employer, a move elsewhere is no housemate, a call-off is the user's, said before
the day), each told message by message as an agent adds them."""

from __future__ import annotations

from datetime import datetime

import pytest

from sodamem import Memory
from sodamem.ingest.timeparse import find_times

Said = tuple[str, str, str]  # role, text, ISO time


def answer(said: list[Said], question: str, now: str) -> str:
    with Memory(":memory:", embedder="none") as memory:
        for role, text, when in said:
            at = datetime.fromisoformat(when)
            memory.add([{"role": role, "text": text}], session_id=f"s{at:%Y%m%d%H}", timestamp=at)
        return memory.ask(question, now=datetime.fromisoformat(now), offline=True).answer


HOLLIS = ("user", "I work at Hollis Construction.", "2025-01-10T12:00")
LEEDS = ("user", "I live in Leeds.", "2025-01-10T12:00")


@pytest.mark.parametrize(
    ("said", "question", "expected"),
    [
        (
            [HOLLIS, ("user", "I'm starting a pottery class on March 3rd!", "2025-02-01T12:00")],
            "Where do I work?",
            "Hollis Construction",
        ),
        (
            [LEEDS, ("user", "I'm here in Denver for my cousin's wedding", "2025-02-01T12:00")],
            "Where do I live?",
            "Leeds",
        ),
        (
            [LEEDS, ("user", "We're finally in Lisbon!! Honeymoon week", "2025-02-01T12:00")],
            "Where do I live?",
            "Leeds",
        ),
        (
            [LEEDS, ("user", "I moved to marketing last month, new team.", "2025-02-01T12:00")],
            "Where do I live?",
            "Leeds",
        ),
        (
            [
                LEEDS,
                (
                    "user",
                    "My sister is moving to Madrid, and we move on Saturday into my new place.",
                    "2025-02-14T12:00",
                ),
            ],
            "Where do I live?",
            "Leeds",
        ),
        (
            [HOLLIS, ("user", "Marco offered me a bartender job at his bar and I said yes.", "2025-02-01T12:00")],
            "Where do I work?",
            "Hollis Construction",
        ),
        (
            [HOLLIS, ("user", "I got the Google job interview!!", "2025-02-01T12:00")],
            "Where do I work?",
            "Hollis Construction",
        ),
        (
            [
                HOLLIS,
                (
                    "user",
                    "Google offered me a role but I turned it down. Then Alex proposed and I said yes!",
                    "2025-02-01T12:00",
                ),
            ],
            "Where do I work?",
            "Hollis Construction",
        ),
        (
            [
                HOLLIS,
                ("user", "I start at Spotify on March 3rd, so excited.", "2025-02-01T12:00"),
                ("user", "Spotify cancelled our team offsite this week.", "2025-03-20T12:00"),
            ],
            "Where do I work?",
            "Spotify (previously Hollis Construction)",
        ),
        (
            [
                HOLLIS,
                ("user", "I start at Spotify on March 3rd, so excited.", "2025-02-01T12:00"),
                ("user", "I'm not going to Spotify after all.", "2025-02-20T12:00"),
            ],
            "Where do I work?",
            "Hollis Construction",
        ),
        (
            [("user", "I work at Hollis Construction as a site manager.", "2025-01-10T12:00")],
            "Do I work at Hollis?",
            "Yes",
        ),
        ([LEEDS], "Do I live in England?", "Leeds"),
    ],
)
def test_what_the_new_rules_must_not_read(said: list[Said], question: str, expected: str) -> None:
    assert answer(said, question, "2025-04-20T12:00") == expected


@pytest.mark.parametrize(
    ("remark", "question"),
    [
        ("had to leave the gym early today", "Do I still go to the gym?"),
        ("We dropped the dog at my mum's for the weekend", "Do we still have the dog?"),
        ("I sold my first painting!", "Do I still paint?"),
    ],
)
def test_a_one_off_remark_ends_nothing(remark: str, question: str) -> None:
    said = [
        (
            "user",
            question.replace("Do I still ", "I ").replace("Do we still ", "We ").rstrip("?") + ".",
            "2025-01-10T12:00",
        )
    ]
    assert answer([*said, ("user", remark, "2025-03-01T12:00")], question, "2025-04-01T12:00") != "No"


@pytest.mark.parametrize(
    "said",
    [
        "My sister moved in March, she's in Glasgow now.",
        "Priya moved in next door.",
        "My coworker Dana is moving out to Denver next month.",
    ],
)
def test_a_move_elsewhere_is_no_housemate(said: str) -> None:
    history = [("user", "I live alone in Leeds.", "2025-01-10T12:00"), ("user", said, "2025-02-01T12:00")]
    assert answer(history, "Who do I live with?", "2025-04-01T12:00") == "not in memory"


def test_a_story_starting_in_the_past_looks_back() -> None:
    (time,) = find_times("Starting at Spotify on Monday was the best decision I made.", datetime(2025, 2, 1))
    assert time.spec.start == datetime(2025, 1, 27)


def test_a_question_about_what_the_assistant_said_reads_the_assistant() -> None:
    said = [
        ("user", "Can you recommend a book for my flight?", "2025-02-01T12:00"),
        ("assistant", "I'd recommend Kafka on the Shore by Haruki Murakami.", "2025-02-01T12:01"),
    ]
    assert "Kafka" in answer(said, "What book did you recommend for my flight?", "2025-04-01T12:00")


def test_a_fact_answers_where_the_search_finds_no_words() -> None:
    """ "I start at Spotify on March 3rd", asked a month after: no word of "Where do I work?" is said, the plan is."""
    said = [("user", "I start at Spotify on March 3rd.", "2025-02-01T12:00")]
    assert answer(said, "Where do I work?", "2025-04-01T12:00") == "Spotify"


def test_the_users_own_state_is_not_read_from_a_sentence_about_someone_else() -> None:
    said = [("user", "and my sister Adaeze made partner at her law firm in Lagos!", "2026-03-05T15:00")]
    assert answer(said, "Where do I work?", "2026-03-20T12:00") == "not in memory"
