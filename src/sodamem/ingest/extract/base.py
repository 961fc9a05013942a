"""The Extractor protocol: a session's turns and pieces in, candidate FactEvents out.

Candidates are not trusted: the pipeline grounds every quote in the literal turn text (and refuses the candidate
otherwise), resolves its time against the session's timestamp, resolves entities and supersedes older facts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol, runtime_checkable

from sodamem.model import EntityRole, FactKind, MessagePiece, Modality


@dataclass(frozen=True, slots=True)
class TurnView:
    """One turn as an extractor sees it."""

    index: int
    turn_id: str
    speaker: str
    text: str
    pieces: tuple[MessagePiece, ...]


@dataclass(frozen=True, slots=True)
class SessionView:
    session_id: str
    timestamp: datetime
    turns: tuple[TurnView, ...]
    # Names of the dialogue's participants (speakers), so "I"/"you" can be resolved.
    participants: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class CandidateFact:
    """A fact as an extractor proposes it.

    ``subject``/``object`` are entity names or values as the dialogue names them ("Maya", "Maya's sister",
    "spicy food"); first-person statements use the speaker's name. ``quote`` must be a literal substring of the
    turn's text; ``char_start`` is a hint (the pipeline searches the turn when it does not match).
    ``time_expression`` is the literal words saying when ("last weekend"), if any.
    """

    kind: FactKind
    predicate: str
    subject: str
    turn_index: int
    quote: str
    object: str | None = None
    modality: Modality = Modality.ASSERTED
    polarity: bool = True  # False: the negative of the predicate (dislikes, stopped, no longer)
    roles: tuple[EntityRole, ...] = ()  # further roles: location, companion, ...
    char_start: int | None = None
    time_expression: str | None = None
    text: str = ""  # a short normalised statement, e.g. "Maya likes spicy food"


@dataclass(frozen=True, slots=True)
class AliasHint:
    """The dialogue ties two names to one entity ("my sister Sarah": "Maya's sister" = "Sarah")."""

    alias: str
    canonical: str
    turn_index: int


@dataclass(slots=True)
class Extraction:
    facts: list[CandidateFact] = field(default_factory=list)
    aliases: list[AliasHint] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # human-readable reasons (e.g. an LLM reply that never parsed)
    # Counted apart from ``skipped`` for benchmarks: proposals the extractor dropped (of which ``ungrounded``: the
    # quote is not in the turn), and turns it could not read at all (an LLM request or reply that failed).
    dropped: int = 0
    ungrounded: int = 0
    failed_turns: int = 0


class Extractor(Protocol):
    @property
    def name(self) -> str: ...

    def extract(self, session: SessionView) -> Extraction: ...


@runtime_checkable
class IncrementalExtractor(Protocol):
    """An extractor that can tell which earlier turns new turns affect, and extract chosen turns only.

    Messages arrive one at a time: the new turns and the earlier turns in ``stale_turns`` are extracted
    (``extract_turns`` over the grown session), the other turns' facts stand. The facts then equal those of
    extracting the finished session in one go (``extract``).
    """

    @property
    def name(self) -> str: ...

    def extract(self, session: SessionView) -> Extraction: ...

    def stale_turns(self, before: SessionView, after: SessionView) -> Sequence[int]:
        """Indexes of ``before``'s turns whose candidates may differ in ``after`` (``before`` plus new turns)."""
        ...

    def extract_turns(self, session: SessionView, turn_indexes: Sequence[int]) -> Extraction: ...
