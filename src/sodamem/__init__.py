"""SodaMem: evidence-grounded temporal graph memory for long-running LLM agents."""

from sodamem.errors import (
    AmbiguousIdError,
    InputError,
    MessageConflictError,
    NotFoundError,
    SessionConflictError,
    SodaMemError,
    StoreBusyError,
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
    Message,
    MessagePiece,
    Modality,
    Session,
    SourceSpan,
    TimeSpec,
    Turn,
)
from sodamem.records import AddReport, ForgetReport, ImportReport, IngestReport, SearchHit

__all__ = [
    "AddReport",
    "AmbiguousIdError",
    "Entity",
    "EntityRole",
    "FactEvent",
    "FactKind",
    "FactStatus",
    "ForgetReport",
    "ImportReport",
    "IngestReport",
    "InputError",
    "Link",
    "LinkType",
    "Memory",
    "Message",
    "MessageConflictError",
    "MessagePiece",
    "Modality",
    "NotFoundError",
    "SearchHit",
    "Session",
    "SessionConflictError",
    "SodaMemError",
    "SourceSpan",
    "StoreBusyError",
    "StoreOpenError",
    "TimeSpec",
    "Turn",
]

__version__ = "0.1.0"
