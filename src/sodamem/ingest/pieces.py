"""Cut a turn into MessagePieces: sentence- or clause-sized spans with exact character offsets.

Invariants (property-tested): ``text[p.char_start:p.char_end] == p.text`` for every piece, pieces are ordered and
disjoint, no piece starts or ends with whitespace, and together they cover every non-whitespace character.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from sodamem.model import MessagePiece

MAX_PIECE_CHARS = 300
"""Longer sentences are cut at clause punctuation, then at whitespace, then hard."""

# A sentence ends after terminal punctuation (plus closing quotes/brackets) followed by whitespace,
# after CJK terminal punctuation, or at a line break.
_SENTENCE_END = re.compile(
    r"""(?:[.!?…]+["'”’)\]]*(?=\s))|(?:[。！？]+["'”’)\]」』]*)|(?:\n)""",
)
_CLAUSE_END = re.compile(r"[;:,—–]\s|[；，、]")
_ABBREVIATIONS = frozenset(
    {"mr", "mrs", "ms", "dr", "st", "prof", "jr", "sr", "vs", "e.g", "i.e", "etc", "approx", "no", "mt"}
)


def split_pieces(text: str, max_chars: int = MAX_PIECE_CHARS) -> list[MessagePiece]:
    """Return the pieces of ``text`` in order (an empty list for blank text)."""
    spans: list[tuple[int, int]] = []
    for start, end in _sentences(text):
        spans.extend(_limit_length(text, start, end, max_chars))
    return [MessagePiece(index=i, char_start=s, char_end=e, text=text[s:e]) for i, (s, e) in enumerate(spans)]


def _sentences(text: str) -> Iterator[tuple[int, int]]:
    start = 0
    for match in _SENTENCE_END.finditer(text):
        if match.group().startswith(".") and _ends_with_abbreviation(text, match.start()):
            continue
        yield from _stripped(text, start, match.end())
        start = match.end()
    yield from _stripped(text, start, len(text))


def _ends_with_abbreviation(text: str, dot: int) -> bool:
    word_start = dot
    while word_start > 0 and (text[word_start - 1].isalpha() or text[word_start - 1] == "."):
        word_start -= 1
    return text[word_start:dot].lower() in _ABBREVIATIONS


def _stripped(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if start < end:
        yield start, end


def _limit_length(text: str, start: int, end: int, max_chars: int) -> Iterator[tuple[int, int]]:
    while end - start > max_chars:
        cut = _best_cut(text, start, start + max_chars)
        yield from _stripped(text, start, cut)
        start = cut
        while start < end and text[start].isspace():
            start += 1
    yield from _stripped(text, start, end)


def _best_cut(text: str, start: int, limit: int) -> int:
    """A cut position in (start, limit]: after the last clause mark, else the last whitespace, else hard."""
    window = text[start:limit]
    floor = len(window) // 3  # never cut so early that pieces become tiny
    clause_ends = [m.end() for m in _CLAUSE_END.finditer(window) if m.end() > floor]
    if clause_ends:
        return start + clause_ends[-1]
    for i in range(len(window) - 1, floor, -1):
        if window[i].isspace():
            return start + i
    return limit
