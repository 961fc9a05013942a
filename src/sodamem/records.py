"""Read-side views returned by the library: stored records with their citation, and reports.

Every record carries what is needed to cite it (session, turn, character span, time).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Citation:
    """Where a text comes from: ``turn text[char_start:char_end]`` of one turn."""

    session_id: str
    turn_index: int
    turn_id: str
    speaker: str
    char_start: int
    char_end: int
    timestamp: str


@dataclass(frozen=True, slots=True)
class ContextTurn:
    turn_index: int
    turn_id: str
    speaker: str
    text: str


@dataclass(frozen=True, slots=True)
class SearchHit:
    """One cited search result; ``text`` is exactly ``turn_text[char_start:char_end]``."""

    session_id: str
    turn_index: int
    turn_id: str
    speaker: str
    char_start: int
    char_end: int
    timestamp: str
    text: str
    score: float
    turn_text: str
    caption: str | None = None
    context: tuple[ContextTurn, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class PieceRecord:
    piece_pk: int
    index: int
    char_start: int
    char_end: int
    text: str
    citation: Citation

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class TurnRecord:
    session_id: str
    turn_index: int
    turn_id: str
    speaker: str
    text: str
    timestamp: str
    caption: str | None
    pieces: tuple[PieceRecord, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class SessionRecord:
    session_id: str
    user: str
    timestamp: str
    source: str
    turns: tuple[TurnRecord, ...]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class UserStats:
    user: str
    sessions: int = 0
    turns: int = 0
    pieces: int = 0
    facts: int = 0
    entities: int = 0
    links: int = 0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(slots=True)
class IngestReport:
    """What one ingest call did. ``unchanged`` sessions were already stored with identical content."""

    users: list[str] = field(default_factory=list)
    sessions_added: int = 0
    sessions_replaced: int = 0
    sessions_unchanged: int = 0
    turns_added: int = 0
    pieces_added: int = 0
    embedded: int = 0  # texts newly embedded (cached vectors are reused)
    session_ids: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)
