"""Other people's news as the user tells it: a given name opening a sentence is a person ("Tom quit Google"), a past
said as its base form is a sentence, a place said alone to correct another is nobody "she" could mean, and the
workplace one quit may be named by its kind ("Marcus quit the brewery")."""

from __future__ import annotations

from datetime import datetime

import pytest

from sodamem import Memory
from sodamem.ingest.extract.base import SessionView, TurnView
from sodamem.ingest.extract.rules import RulesExtractor
from sodamem.ingest.pieces import split_pieces


def facts(*texts: str) -> set[tuple[str, str, str | None, bool]]:
    turns = tuple(TurnView(i, f"s:{i}", "user", t, tuple(split_pieces(t))) for i, t in enumerate(texts))
    out = RulesExtractor().extract(SessionView("s", datetime(2026, 1, 10, 19, 0), turns, ("user",)))
    return {(f.subject, f.predicate, f.object, f.polarity) for f in out.facts}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Tom quit Google.", ("Tom", "works_at", "Google", False)),
        ("keep it casual. my boss Dr. Paredes says bios should be human.", ("user", "boss", "Dr. Paredes", True)),
        ("Marcus quit the brewery!", ("Marcus", "works_at", None, False)),
        (
            "My sister Delphine is coming. She's driving in from Ottawa... wait no, sorry, Kingston. She moved to "
            "Kingston last spring.",
            ("Delphine", "lives_in", "Kingston", True),
        ),
        (
            "My sister Delphine is coming. Her husband Marcus can't come, he's a brewer at Tidewater Brewing.",
            ("Marcus", "job", "brewer", True),
        ),
    ],
)
def test_news_of_others(text: str, expected: tuple[str, str, str | None, bool]) -> None:
    assert expected in facts(text), facts(text)


def test_a_bare_verb_after_a_word_that_opens_a_sentence_is_still_no_fact() -> None:
    assert facts("Come join us on Friday.") == set()


def test_the_relatives_employer_and_job_are_asked_apart() -> None:
    with Memory(":memory:", embedder="fake") as memory:
        memory.add(
            [
                {
                    "role": "user",
                    "text": "My sister Delphine is coming. Her husband Marcus can't come, he's a brewer at Tidewater "
                    "Brewing.",
                }
            ],
            session_id="s1",
            timestamp=datetime(2026, 1, 10, 19, 0),
        )
        now = datetime(2026, 4, 5)
        assert memory.ask("Where does my sister's husband work?", now=now, offline=True).answer == "Tidewater Brewing"
        assert memory.ask("What does my sister's husband do now?", now=now, offline=True).answer == "brewer"
