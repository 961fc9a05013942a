from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sodamem.ingest.pieces import MAX_PIECE_CHARS, split_pieces


def check_invariants(text: str) -> None:
    pieces = split_pieces(text)
    covered = [False] * len(text)
    previous_end = 0
    for i, piece in enumerate(pieces):
        assert piece.index == i
        assert text[piece.char_start : piece.char_end] == piece.text
        assert piece.char_start >= previous_end, "pieces overlap or are out of order"
        assert piece.text and not piece.text[0].isspace() and not piece.text[-1].isspace()
        for j in range(piece.char_start, piece.char_end):
            covered[j] = True
        previous_end = piece.char_end
    uncovered = [c for c, ok in zip(text, covered, strict=True) if not ok and not c.isspace()]
    assert uncovered == [], f"non-blank characters left out: {uncovered[:10]!r}"


@settings(max_examples=400, deadline=None)
@given(st.text())
def test_pieces_invariants_arbitrary_unicode(text: str) -> None:
    check_invariants(text)


_SENTENCEY = st.lists(
    st.one_of(
        st.text(alphabet=st.characters(codec="utf-8"), max_size=40),
        st.sampled_from([". ", "! ", "? ", "\n", "\n\n", "。", "… ", "Dr. ", "e.g. ", "😀", "東京", ", ", "; ", " "]),
    ),
    max_size=60,
).map("".join)


@settings(max_examples=400, deadline=None)
@given(_SENTENCEY)
def test_pieces_invariants_sentence_like_text(text: str) -> None:
    check_invariants(text)


def test_empty_and_blank_text_have_no_pieces() -> None:
    assert split_pieces("") == []
    assert split_pieces("  \n\t  ") == []


def test_sentences_become_pieces_with_offsets() -> None:
    text = "I went to Lisbon yesterday! It was great. Did you see the photos?"
    assert [p.text for p in split_pieces(text)] == [
        "I went to Lisbon yesterday!",
        "It was great.",
        "Did you see the photos?",
    ]


def test_abbreviation_does_not_end_a_sentence() -> None:
    assert [p.text for p in split_pieces("I saw Dr. Patel today. She was kind.")] == [
        "I saw Dr. Patel today.",
        "She was kind.",
    ]


def test_newlines_and_cjk_terminators_split() -> None:
    assert [p.text for p in split_pieces("first line\nsecond line")] == ["first line", "second line"]
    assert [p.text for p in split_pieces("我很好。你呢？")] == ["我很好。", "你呢？"]


def test_long_sentence_is_cut_at_clauses_and_bounded() -> None:
    clause = "we walked along the river and talked about everything that happened, "
    text = clause * 30
    pieces = split_pieces(text)
    assert len(pieces) > 1
    assert all(len(p.text) <= MAX_PIECE_CHARS for p in pieces)
    check_invariants(text)


def test_very_long_unbroken_text_is_hard_cut() -> None:
    text = "x" * 5_000
    pieces = split_pieces(text)
    assert len(pieces) == 5_000 // MAX_PIECE_CHARS + 1
    assert "".join(p.text for p in pieces) == text
