"""SodaMem: evidence-grounded temporal graph memory for long-running LLM agents."""

from sodamem.errors import (
    AmbiguousIdError,
    InputError,
    NotFoundError,
    SessionConflictError,
    SodaMemError,
    StoreOpenError,
)
from sodamem.memory import Memory
from sodamem.model import (
    Entity,
    EntityRole,
    FactEvent,
    FactKind,
    FactStatus,
    Link,
    LinkType,
    MessagePiece,
    Modality,
    Session,
    SourceSpan,
    TimeSpec,
    Turn,
)
from sodamem.records import IngestReport, SearchHit

__all__ = [
    "AmbiguousIdError",
    "Entity",
    "EntityRole",
    "FactEvent",
    "FactKind",
    "FactStatus",
    "IngestReport",
    "InputError",
    "Link",
    "LinkType",
    "Memory",
    "MessagePiece",
    "Modality",
    "NotFoundError",
    "SearchHit",
    "Session",
    "SessionConflictError",
    "SodaMemError",
    "SourceSpan",
    "StoreOpenError",
    "TimeSpec",
    "Turn",
]

__version__ = "0.1.0"
