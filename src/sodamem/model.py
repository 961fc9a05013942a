"""Domain types of the memory (see DESIGN.md, "Data model").

Plain frozen dataclasses: no persistence inside the model. Times are ``datetime`` objects (naive ones are the
dialogue's own local wall-clock time); the store serialises them as ISO 8601 text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum

DEFAULT_USER = "default"


class FactKind(StrEnum):
    PREFERENCE = "preference"
    ATTRIBUTE = "attribute"
    STATE = "state"
    EVENT = "event"
    PLAN = "plan"
    RELATION = "relation"
    OPINION = "opinion"


class Modality(StrEnum):
    ASSERTED = "asserted"
    NEGATED = "negated"
    HYPOTHETICAL = "hypothetical"
    PLANNED = "planned"
    REPORTED = "reported"
    QUESTION = "question"


class FactStatus(StrEnum):
    ACTIVE = "active"
    SUPERSEDED = "superseded"
    INVALID = "invalid"


class LinkType(StrEnum):
    DERIVED_FROM = "DERIVED_FROM"  # fact -> piece
    SUPERSEDES = "SUPERSEDES"  # fact -> fact
    CONTRADICTS = "CONTRADICTS"  # fact -> fact
    UPDATES = "UPDATES"  # fact -> fact
    MENTIONS = "MENTIONS"  # fact -> entity
    NEIGHBOR = "NEIGHBOR"  # fact <-> fact


class NodeKind(StrEnum):
    """What a link endpoint refers to."""

    FACT = "fact"
    PIECE = "piece"
    ENTITY = "entity"


class TimeGranularity(StrEnum):
    INSTANT = "instant"
    DAY = "day"
    WEEK = "week"
    MONTH = "month"
    SEASON = "season"
    YEAR = "year"
    VAGUE = "vague"


@dataclass(frozen=True, slots=True)
class Turn:
    """One utterance. ``turn_id`` is the id the source gave it (LoCoMo's ``D3:7``, ...)."""

    index: int
    speaker: str
    text: str
    turn_id: str
    timestamp: datetime | None = None
    # Text attached to the turn that the speaker did not type (e.g. an image caption); indexed with the turn.
    caption: str | None = None


@dataclass(frozen=True, slots=True)
class Message:
    """A message as it arrives, before it is a turn: who said what, with its own id and time if it has them."""

    speaker: str
    text: str
    id: str | None = None
    timestamp: datetime | None = None
    caption: str | None = None


@dataclass(frozen=True, slots=True)
class Session:
    session_id: str
    timestamp: datetime
    turns: tuple[Turn, ...]
    # The user the source file names ("" when it names none: the session goes to the memory's user on ingest).
    user: str = ""
    source: str = ""


@dataclass(frozen=True, slots=True)
class MessagePiece:
    """A sentence- or clause-sized span of one turn: ``turn.text[char_start:char_end] == text``."""

    index: int
    char_start: int
    char_end: int
    text: str


@dataclass(frozen=True, slots=True)
class SourceSpan:
    """A literal quote from one piece; offsets are into the turn's text."""

    session_id: str
    turn_index: int
    piece_index: int
    char_start: int
    char_end: int
    quote: str


@dataclass(frozen=True, slots=True)
class TimeSpec:
    """A resolved time: the interval [start, end), how fine it is, and the words it came from."""

    start: datetime
    end: datetime
    granularity: TimeGranularity
    expression: str = ""


@dataclass(frozen=True, slots=True)
class EntityRole:
    role: str  # subject, object, location, companion, ...
    entity: str  # canonical entity name


@dataclass(frozen=True, slots=True)
class FactEvent:
    """f = (kind, predicate, modality, times, entity roles, sources, status)."""

    kind: FactKind
    predicate: str
    modality: Modality
    mentioned_at: datetime
    sources: tuple[SourceSpan, ...]
    roles: tuple[EntityRole, ...] = ()
    occurred_at: TimeSpec | None = None
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    status: FactStatus = FactStatus.ACTIVE
    text: str = ""

    def __post_init__(self) -> None:
        if not self.sources:
            raise ValueError("a FactEvent needs at least one literal source span")


@dataclass(frozen=True, slots=True)
class Entity:
    name: str
    type: str = "unknown"
    aliases: tuple[str, ...] = field(default_factory=tuple)


@dataclass(frozen=True, slots=True)
class Link:
    type: LinkType
    src_kind: NodeKind
    src_id: int
    dst_kind: NodeKind
    dst_id: int
    created_at: datetime | None = None
