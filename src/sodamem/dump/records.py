"""The records of a dump: one user's memory in domain terms, with no database row ids (docs/dump-format.md).

Sessions are named by ``session_id``, turns by ``(session_id, turn index)``, pieces by
``(session_id, turn index, piece index)``, entities by name and facts by their number in the dump (1, 2, ...),
so a dump moves between databases and between backends.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sodamem.model import Session, Turn

DUMP_FORMAT = "sodamem-dump"
DUMP_VERSION = 1


@dataclass(frozen=True, slots=True)
class DumpTurn:
    """A turn; its pieces' indexes are their positions in ``pieces``."""

    index: int  # 0, 1, ... in the session; a forgotten turn leaves a gap, so the others' citations hold
    turn_id: str
    speaker: str
    text: str
    caption: str | None
    timestamp: str | None  # the turn's own time; None: it has the session's
    pieces: tuple[tuple[int, int], ...]  # (char_start, char_end) into ``text``


@dataclass(frozen=True, slots=True)
class DumpSession:
    session_id: str
    timestamp: str
    source: str
    ingested_at: str
    turns: tuple[DumpTurn, ...]  # by index
    next_index: int = 0  # the least index a new turn takes: past the last turn and any forgotten one

    def to_session(self, user: str) -> Session:
        """The session as ingestion saw it (what its content hash is computed from)."""
        turns = tuple(
            Turn(
                index=turn.index,
                speaker=turn.speaker,
                text=turn.text,
                turn_id=turn.turn_id,
                timestamp=datetime.fromisoformat(turn.timestamp) if turn.timestamp is not None else None,
                caption=turn.caption,
            )
            for turn in self.turns
        )
        return Session(
            session_id=self.session_id,
            timestamp=datetime.fromisoformat(self.timestamp),
            turns=turns,
            user=user,
            source=self.source,
        )


@dataclass(frozen=True, slots=True)
class DumpEntity:
    name: str
    type: str
    aliases: tuple[str, ...]  # other names it was called by, as written
    keys: tuple[str, ...]  # the lookup keys (entity_key) that lead to it, its own name's included


@dataclass(frozen=True, slots=True)
class PieceRef:
    session_id: str
    turn: int
    piece: int


@dataclass(frozen=True, slots=True)
class FactRef:
    number: int  # the fact's number in the dump


@dataclass(frozen=True, slots=True)
class EntityRef:
    name: str


NodeRef = FactRef | PieceRef | EntityRef


@dataclass(frozen=True, slots=True)
class DumpSource:
    """A fact's literal quote: ``turn text[char_start:char_end] == quote``, inside the cited piece."""

    piece: PieceRef
    char_start: int
    char_end: int
    quote: str


@dataclass(frozen=True, slots=True)
class DumpFact:
    number: int
    session_id: str | None  # the session it was extracted from
    kind: str
    predicate: str
    modality: str
    status: str
    subject: str | None  # an entity name
    object: str | None
    polarity: bool
    text: str
    mentioned_at: str
    occurred_start: str | None
    occurred_end: str | None
    occurred_granularity: str | None
    occurred_expression: str | None
    valid_from: str | None
    valid_to: str | None
    slot: str | None
    order_key: str
    sources: tuple[DumpSource, ...]
    roles: tuple[tuple[str, str], ...]  # (role, entity name)


@dataclass(frozen=True, slots=True)
class DumpLink:
    type: str
    src: NodeRef
    dst: NodeRef
    created_at: str | None


@dataclass(frozen=True, slots=True)
class DumpForgotten:
    """A fact the user forgot by its id, named by a piece it was read from and ``store.forget.forgotten_key`` (a
    hash of its predicate and value, never its text): making that piece's facts again must not bring it back."""

    piece: PieceRef
    fact_key: str


@dataclass(frozen=True, slots=True)
class Dump:
    """Everything of one user, in the order the dump lists it."""

    user: str
    sessions: tuple[DumpSession, ...]
    entities: tuple[DumpEntity, ...]
    facts: tuple[DumpFact, ...]
    links: tuple[DumpLink, ...]
    forgotten: tuple[DumpForgotten, ...] = ()
