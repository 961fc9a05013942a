"""The typed rows a store hands to the retrieval and answer layers: plain values, no database types."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple


@dataclass(frozen=True, slots=True)
class FtsRow:
    """A BM25 hit: ``rowid`` of the indexed table and SQLite's bm25() (lower is better)."""

    rowid: int
    bm25: float


@dataclass(frozen=True, slots=True)
class TurnFact:
    """A valid fact drawn from one turn, with the span of the turn its sources cover."""

    fact_id: int
    text: str
    status: str
    mentioned_at: str
    occurred_start: str | None
    occurred_end: str | None
    char_start: int
    char_end: int


class TurnText(NamedTuple):
    """What a turn says: its text, its image caption and who said it."""

    text: str
    caption: str | None
    speaker: str


class MentioningFact(NamedTuple):
    """A fact that MENTIONS an entity, with its status."""

    fact_pk: int
    status: str


class Mention(NamedTuple):
    """A fact -MENTIONS-> entity link."""

    fact_pk: int
    entity_pk: int


class LinkedFact(NamedTuple):
    """One fact-to-fact step: from ``fact_pk`` over a ``link`` (NEIGHBOR or a slot link, either way) to
    ``other_pk``, whose status is ``other_status``."""

    fact_pk: int
    other_pk: int
    link: str
    other_status: str


class FactTurn(NamedTuple):
    """A fact and a turn it is derived from."""

    fact_pk: int
    turn_pk: int


@dataclass(frozen=True, slots=True)
class TurnRow:
    """A stored turn with the id of its session."""

    turn_pk: int
    session_pk: int
    index: int
    turn_id: str
    speaker: str
    text: str
    caption: str | None
    timestamp: str
    session_id: str


@dataclass(frozen=True, slots=True)
class PieceRow:
    """A stored piece: a span ``[char_start, char_end)`` of its turn's text."""

    piece_pk: int
    turn_pk: int
    index: int
    char_start: int
    char_end: int
    text: str


@dataclass(frozen=True, slots=True)
class SessionRow:
    """A stored session."""

    session_pk: int
    session_id: str
    timestamp: str
    source: str


class TurnProfile(NamedTuple):
    """What fusion reads of a candidate turn."""

    turn_pk: int
    speaker: str
    session_pk: int
    said_at: str | None
    text: str
