from __future__ import annotations

import sqlite3

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sodamem.retrieve.fts_query import query_terms, to_match_query, without_words


@pytest.fixture(scope="module")
def fts() -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE docs USING fts5(text, tokenize='porter unicode61 remove_diacritics 2')")
    conn.executemany(
        "INSERT INTO docs (text) VALUES (?)",
        [
            ("my sister-in-law loves spicy food",),
            ("we went to the NEAR east market AND the old town",),
            ("DROP TABLE users; select * from docs",),
            ("café au lait every morning",),
        ],
    )
    return conn


HOSTILE = [
    'what did "she say',
    "sister-in-law",
    "spicy AND OR NOT food",
    "NEAR(a b)",
    "food*",
    "text:spicy",
    "'); DROP TABLE docs; --",
    '"""',
    "^start",
    "(unbalanced",
    "a + b - c",
    "emoji 🎉 only",
    "東京 trip",
    "",
    "   ",
    "???",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_text_never_raises(fts: sqlite3.Connection, text: str) -> None:
    match = to_match_query(text)
    if match is not None:
        fts.execute("SELECT rowid FROM docs WHERE docs MATCH ?", (match,)).fetchall()
    assert fts.execute("SELECT count(*) FROM docs").fetchone()[0] == 4


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_arbitrary_text_is_a_valid_query(text: str) -> None:
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE docs USING fts5(text)")
    match = to_match_query(text)
    if match is not None:
        conn.execute("SELECT rowid FROM docs WHERE docs MATCH ?", (match,)).fetchall()


def test_operators_are_searched_as_words(fts: sqlite3.Connection) -> None:
    match = to_match_query("NEAR")
    rows = fts.execute("SELECT text FROM docs WHERE docs MATCH ?", (match,)).fetchall()
    assert rows == [("we went to the NEAR east market AND the old town",)]


def test_hyphenated_word_matches_its_parts(fts: sqlite3.Connection) -> None:
    rows = fts.execute("SELECT text FROM docs WHERE docs MATCH ?", (to_match_query("sister-in-law"),)).fetchall()
    assert rows == [("my sister-in-law loves spicy food",)]


def test_column_filter_syntax_is_not_interpreted(fts: sqlite3.Connection) -> None:
    # "text:spicy" would restrict to a column in FTS5 syntax; here it is two words, OR-ed.
    assert query_terms("text:spicy") == ["text", "spicy"]


def test_stopwords_are_dropped_unless_nothing_else_remains() -> None:
    assert query_terms("What did she say about the food?") == ["say", "food"]
    assert query_terms("who are you") == ["who", "are", "you"]
    assert to_match_query("!!!") is None


def test_diacritics_are_folded(fts: sqlite3.Connection) -> None:
    rows = fts.execute("SELECT text FROM docs WHERE docs MATCH ?", (to_match_query("cafe"),)).fetchall()
    assert rows == [("café au lait every morning",)]


def test_dropped_words_are_left_out_unless_nothing_else_is_left() -> None:
    assert (
        to_match_query("Who organised Maya's leaving drinks?", drop={"maya"}) == '"organised" OR "leaving" OR "drinks"'
    )
    assert to_match_query("Maya?", drop={"maya"}) == '"maya"'


def test_without_words_drops_names_and_their_possessive_and_keeps_the_rest() -> None:
    assert without_words("What has Melanie painted?", {"melanie"}) == "What has painted?"
    assert without_words("What do Melanie's kids like?", {"melanie"}) == "What do kids like?"
    assert without_words("Did Jon’s and GINA's shops open?", {"jon", "gina"}) == "Did and shops open?"
    assert without_words("It's Caroline's turn", {"caroline"}) == "It's turn"


def test_without_words_keeps_the_text_when_nothing_or_only_names_would_be_dropped() -> None:
    assert without_words("Where is Melanie?", set()) == "Where is Melanie?"
    assert without_words("Caroline?", {"caroline"}) == "Caroline?"
    assert without_words("Melanie Caroline", {"melanie", "caroline"}) == "Melanie Caroline"
