"""Query analysis: entities named in the question, its time window, history intent, when-questions."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

import pytest

from sodamem import Memory, Session, Turn
from sodamem.model import TimeGranularity
from sodamem.retrieve.query import analyze_query, find_entities
from sodamem.store.facts import entity_pk
from sodamem.store.sqlite import SQLiteStore

NOW = datetime(2023, 9, 15, 12, 0)


def _session(session_id: str, when: datetime, speaker: str, texts: list[str], user: str = "") -> Session:
    turns = tuple(
        Turn(i, speaker if i % 2 == 0 else "assistant", text, f"{session_id}:{i}") for i, text in enumerate(texts)
    )
    return Session(session_id, when, turns, user=user)


@pytest.fixture(scope="module")
def memory() -> Iterator[Memory]:
    mem = Memory(":memory:", embedder="none")
    mem.ingest(
        [
            _session(
                "s1",
                datetime(2023, 6, 9, 14),
                "Caroline",
                ["My sister Priya loves climbing.", "Nice!", "I moved to New York City last year."],
            ),
            _session(
                "s2",
                datetime(2023, 7, 1, 10),
                "Melanie",
                ["My dog Max is sick.", "Oh no.", "My friend Jon Snow works at Google."],
            ),
            _session("o1", datetime(2023, 7, 2), "Zed", ["My brother Omar loves chess."], user="other"),
        ]
    )
    yield mem
    mem.close()


def names(memory: Memory, question: str, user: str = "default") -> list[tuple[str, str, bool]]:
    analysis = analyze_query(question, NOW, memory.store, user)
    for match in analysis.entities:
        assert question[match.char_start : match.char_end] == match.matched
    return [(m.name, m.matched, m.exact) for m in analysis.entities]


def test_entities_by_name_case_insensitive(memory: Memory) -> None:
    assert names(memory, "Where does caroline live?") == [("Caroline", "caroline", True)]
    assert names(memory, "WHAT DOES PRIYA LOVE?") == [("Priya", "PRIYA", True)]


def test_possessive_finds_owner_and_alias(memory: Memory) -> None:
    found = names(memory, "What does Caroline's sister like?")
    assert ("Caroline", "Caroline", True) in found  # "Caroline's" -> Caroline
    assert ("Priya", "Caroline's sister", True) in found  # the alias the extractor recorded
    assert names(memory, "Is Melanie’s dog better?") == [("Max", "Melanie’s dog", True), ("Melanie", "Melanie", True)]


def test_plural_alias_and_multiword_name(memory: Memory) -> None:
    assert ("Max", "Melanie's dogs", True) in names(memory, "When did Melanie's dogs get sick?")
    found = names(memory, "Did Caroline move to New York City?")
    assert [n for n, _, _ in found] == ["Caroline", "New York City"]


def test_whole_words_only(memory: Memory) -> None:
    assert names(memory, "Did Maxwell like Priyanka?") == []
    assert names(memory, "Is googled a word?") == []


def test_entities_of_the_user_only(memory: Memory) -> None:
    assert names(memory, "Does Omar play chess?") == []
    assert [n for n, _, _ in names(memory, "Does Omar play chess?", user="other")] == ["Omar", "chess"]


def test_partial_name_is_not_exact(memory: Memory) -> None:
    assert names(memory, "Does Jon still work at Google?") == [("Jon Snow", "Jon", False), ("Google", "Google", True)]
    assert names(memory, "Does Jon Snow work at Google?")[0] == ("Jon Snow", "Jon Snow", True)


def test_contained_match_is_dropped() -> None:
    store = SQLiteStore(":memory:")
    york = entity_pk(store.conn, "default", "New York")
    city = entity_pk(store.conn, "default", "New York City")
    found = find_entities(store, "default", "I love New York City and New York.")
    assert [(m.entity_pk, m.matched) for m in found] == [(city, "New York City"), (york, "New York")]
    store.close()


def test_stopword_entities_are_ignored() -> None:
    store = SQLiteStore(":memory:")
    entity_pk(store.conn, "default", "it")
    assert find_entities(store, "default", "Was it fun?") == ()
    store.close()


def test_no_connection_no_entities() -> None:
    assert analyze_query("What does Caroline like?", NOW).entities == ()


def test_window_resolved_against_now() -> None:
    analysis = analyze_query("What did Caroline do two months ago?", NOW)
    assert analysis.window is not None
    assert (analysis.window.start, analysis.window.end) == (datetime(2023, 7, 1), datetime(2023, 8, 1))
    assert analysis.window.granularity is TimeGranularity.MONTH
    assert analysis.content_terms == ("caroline",)
    assert analysis.terms == ("caroline", "two", "months", "ago")


def test_window_past_unless_future_cue() -> None:
    past = analyze_query("What did Melanie do on Friday?", NOW).window  # NOW is a Friday: the one before
    future = analyze_query("What will Melanie do on Friday?", NOW).window
    assert past is not None and future is not None
    assert past.start == datetime(2023, 9, 8)
    assert future.start == datetime(2023, 9, 22)


def test_no_window() -> None:
    assert analyze_query("Where does Caroline live?", NOW).window is None


def test_several_mentions_give_their_hull() -> None:
    window = analyze_query("Did she travel in March 2022 or in June 2022?", NOW).window
    assert window is not None
    assert (window.start, window.end) == (datetime(2022, 3, 1), datetime(2022, 7, 1))


def test_precise_mention_beats_vague() -> None:
    window = analyze_query("What did she do recently, in August?", NOW).window
    assert window is not None and window.start == datetime(2023, 8, 1)


@pytest.mark.parametrize(
    "question",
    [
        "Where did Caroline live before she moved?",
        "What did Melanie use to do on weekends?",
        "What did Caroline do previously?",
        "What was Priya's first job?",
        "Where did Caroline originally live?",
        "How has Melanie's diet changed?",
        "Does Caroline not play piano anymore?",
        "Why does Jon no longer work there?",
        "At first, what did she think?",
        "What did she do in the past?",
    ],
)
def test_history_intent(question: str) -> None:
    analysis = analyze_query(question, NOW)
    assert analysis.history_intent and analysis.history_cues


@pytest.mark.parametrize(
    "question",
    [
        "Does Caroline still live in New York?",
        "Where does Caroline live?",
        "What did she do in the past few weeks?",
    ],
)
def test_no_history_intent(question: str) -> None:
    assert not analyze_query(question, NOW).history_intent


@pytest.mark.parametrize(
    "question",
    [
        "When did Caroline go to the support group?",
        "What date was the concert?",
        "Which month did they meet?",
        "In what year did Melanie start painting?",
        "How long ago did she move?",
        "How many weeks ago was the party?",
        "How long has she lived there?",
    ],
)
def test_asks_when(question: str) -> None:
    assert analyze_query(question, NOW).asks_when


def test_not_asks_when() -> None:
    assert not analyze_query("What does Caroline like?", NOW).asks_when


def test_when_phrase_is_not_a_content_term() -> None:
    analysis = analyze_query("How long ago did Caroline go to the support group?", NOW)
    assert analysis.content_terms == ("caroline", "go", "support", "group")
    assert "long" in analysis.terms


def test_content_terms_fall_back_to_terms() -> None:
    analysis = analyze_query("What happened last week?", NOW)
    assert analysis.content_terms == ("happened",)
    only_time = analyze_query("last week?", NOW)
    assert only_time.content_terms == only_time.terms == ("last", "week")
