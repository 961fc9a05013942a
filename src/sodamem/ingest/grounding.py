"""Grounding: a candidate's quote must be a literal span of its turn; it is cut along the turn's pieces.

Whatever produced the candidate (rules, an LLM, text in the dialogue trying to instruct it), only words that were
literally said can become a fact's source.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sodamem.ingest.extract.base import CandidateFact
from sodamem.model import MessagePiece


@dataclass(frozen=True, slots=True)
class GroundedSpan:
    piece_index: int
    char_start: int  # offsets into the turn's text
    char_end: int
    quote: str


def ground(candidate: CandidateFact, turn_text: str, pieces: Sequence[MessagePiece]) -> list[GroundedSpan] | str:
    """The quote's spans, one per piece it covers; or the reason it cannot be grounded."""
    quote = candidate.quote.strip()
    if not quote:
        return "empty quote"
    start = _locate(quote, turn_text, candidate.char_start)
    if start is None:
        return f"quote not found in turn {candidate.turn_index}: {quote[:60]!r}"
    end = start + len(quote)
    spans = []
    for piece in pieces:
        lo, hi = max(start, piece.char_start), min(end, piece.char_end)
        if lo < hi:
            spans.append(GroundedSpan(piece.index, lo, hi, turn_text[lo:hi]))
    return spans or f"quote covers no piece of turn {candidate.turn_index}"


def _locate(quote: str, text: str, hint: int | None) -> int | None:
    if hint is not None and hint >= 0 and text[hint : hint + len(quote)] == quote:
        return hint
    found = text.find(quote)
    return None if found < 0 else found
