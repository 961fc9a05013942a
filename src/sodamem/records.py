"""Read-side views returned by the library: stored records with their citation, and reports.

Every record carries what is needed to cite it (session, turn, character span, time).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any

from sodamem import instants


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
    tunnels: tuple[str, ...] = ()  # which tunnels reached it (the memory's own search)
    explain: tuple[str, ...] = ()  # how its score was made: tunnel, hop, rank and mass; spill; temporal bonus

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
class SessionSummary:
    """A stored session without its turns: what a list of sessions shows."""

    session_id: str
    timestamp: str
    source: str
    turns: int
    facts: int

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
    facts_added: int = 0
    facts_rejected: int = 0  # candidates that could not be grounded (or were skipped by the extractor)
    rejections: list[str] = field(default_factory=list)  # the first reasons, per session
    fact_ids: list[int] = field(default_factory=list)
    session_ids: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class AddedTurn:
    """A message stored by ``Memory.add``: where it now lives, to cite it."""

    session_id: str
    turn_index: int
    turn_id: str
    speaker: str
    timestamp: str


@dataclass(slots=True)
class AddReport:
    """What one ``Memory.add`` did. ``unchanged``: ids of messages already stored with the same content."""

    user: str
    session_id: str
    session_created: bool = False
    added: list[AddedTurn] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    facts_added: int = 0
    fact_ids: list[int] = field(default_factory=list)
    facts_rejected: int = 0
    session_reextracted: bool = False  # the new turns changed the session's context: its facts were made anew
    embedded: int = 0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(slots=True)
class ForgetReport:
    """What ``Memory.forget`` removed (or, with ``dry_run``, would remove): ids and counts, never the text."""

    user: str
    selector: dict[str, Any]
    dry_run: bool
    sessions: list[str] = field(default_factory=list)  # sessions that went whole
    turns: list[str] = field(default_factory=list)  # "<session_id>/<turn_id>"
    facts: list[int] = field(default_factory=list)  # deleted
    facts_trimmed: list[int] = field(default_factory=list)  # kept with their other sources
    counts: dict[str, int] = field(default_factory=dict)
    files_scrubbed: bool = False  # FTS rewritten and WAL truncated (False: a reader held the WAL; see docs)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class FactSource:
    """A fact's literal source: ``quote == turn text[char_start:char_end]``."""

    session_id: str
    turn_index: int
    turn_id: str
    char_start: int
    char_end: int
    quote: str
    timestamp: str


@dataclass(frozen=True, slots=True)
class FactLink:
    type: str  # SUPERSEDES, CONTRADICTS, UPDATES, NEIGHBOR
    direction: str  # "out" (this fact -> other) or "in"
    fact_id: int


@dataclass(frozen=True, slots=True)
class FactRecord:
    id: int
    kind: str
    predicate: str
    modality: str
    subject: str
    object: str | None
    polarity: bool
    roles: tuple[tuple[str, str], ...]
    text: str
    mentioned_at: str
    occurred_start: str | None
    occurred_end: str | None
    occurred_granularity: str | None
    occurred_expression: str | None
    valid_from: str | None
    valid_to: str | None
    status: str
    sources: tuple[FactSource, ...]
    links: tuple[FactLink, ...]

    @property
    def affirms(self) -> bool:
        """Whether the fact says its value holds: asserted ("I live in Leeds"), not a denial ("no longer lives in
        Leeds"), not negated ("I never lived in Leeds"), not a plan, hypothesis, hearsay or question ("I might live in
        Leeds next year")."""
        return self.polarity and self.modality == "asserted"

    @property
    def holds_from(self) -> datetime:
        """When the fact began to hold, as an instant to compare: ``valid_from``, else when it was said."""
        return instants.sort_key(self.valid_from or self.mentioned_at)

    @property
    def denies(self) -> bool:
        """Whether the fact says its value does not hold (polarity false, or the negated modality)."""
        return not self.polarity or self.modality == "negated"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(slots=True)
class ImportReport:
    """What one ``Memory.import_dump`` stored. ``unchanged``: the user already held exactly this dump."""

    user: str
    sessions: int = 0
    turns: int = 0
    pieces: int = 0
    entities: int = 0
    facts: int = 0
    links: int = 0
    unchanged: bool = False
    embedded: int = 0  # texts newly embedded afterwards (cached vectors are reused)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)
