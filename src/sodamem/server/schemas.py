"""The bodies of the HTTP API and the results of the MCP tools: one definition per shape.

Requests are pydantic models; responses wrap the library's own records (dataclasses, which pydantic validates and
documents as they are), so a hit, fact or answer carries the same citation fields as the CLI's JSON.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from sodamem.answer.types import Answer
from sodamem.records import FactRecord, SearchHit, SessionSummary
from sodamem.retrieve.presets import PRESET_NAMES
from sodamem.retrieve.search import SearchMode
from sodamem.store.keys import KeyRecord

MAX_TEXT = 100_000
MAX_MESSAGES = 1_000
Short = Annotated[str, Field(min_length=1, max_length=1_000)]


def _named_preset(name: str) -> str:
    # Only the named presets: the bench's ``preset+key=value`` variants reach settings the search does not guard.
    if name not in PRESET_NAMES:
        raise ValueError(f"unknown preset {name!r}: one of {', '.join(PRESET_NAMES)}")
    return name


Preset = Annotated[str, AfterValidator(_named_preset), Field(json_schema_extra={"enum": list(PRESET_NAMES)})]


class _Request(BaseModel):
    model_config = ConfigDict(extra="forbid")


class MessageIn(_Request):
    """One message: who said it (``speaker``, or an OpenAI-style ``role``), its text, and optionally its own id,
    time and image caption."""

    text: Annotated[str, Field(min_length=1, max_length=MAX_TEXT)]
    speaker: Short | None = None
    role: Short | None = None
    id: Short | None = None
    timestamp: Short | None = Field(default=None, description="ISO 8601; default: the request's timestamp")
    caption: Annotated[str, Field(max_length=MAX_TEXT)] | None = None


class AddRequest(_Request):
    session_id: Short | None = Field(
        default=None,
        description="A new id starts a session; a stored one grows. Default: the day the first message was said "
        "(2026-12-05), one session a day",
    )
    messages: Annotated[list[MessageIn], Field(min_length=1, max_length=MAX_MESSAGES)]
    timestamp: Short | None = Field(default=None, description="When messages without their own time were said")


class SearchRequest(_Request):
    query: Annotated[str, Field(min_length=1, max_length=2_000)]
    k: Annotated[int, Field(ge=1, le=100)] = 10
    mode: SearchMode = SearchMode.AUTO
    now: Short | None = Field(default=None, description="When the question is asked (its 'last month')")
    as_of: Short | None = Field(
        default=None, description="ISO 8601: read the memory as it stood then (nothing said later)"
    )
    preset: Preset = "default"


class AskRequest(_Request):
    question: Annotated[str, Field(min_length=1, max_length=2_000)]
    now: Short | None = None
    as_of: Short | None = Field(
        default=None, description="ISO 8601: read the memory as it stood then (nothing said later)"
    )
    offline: bool = Field(default=False, description="The offline reader even when an LLM is configured")
    budget: Annotated[int, Field(ge=50, le=20_000)] = 1_500
    steps: Annotated[int, Field(ge=0, le=10)] = 3


class SearchResponse(BaseModel):
    query: str
    results: list[SearchHit]


class FactList(BaseModel):
    facts: list[FactRecord]


class SessionList(BaseModel):
    sessions: list[SessionSummary]


class KeyList(BaseModel):
    keys: list[KeyRecord]


class ErrorBody(BaseModel):
    """Every 4xx: what is wrong, and the field at fault when there is one."""

    error: str
    field: str | None = None


class Health(BaseModel):
    status: str
    version: str


__all__ = [
    "AddRequest",
    "Answer",
    "AskRequest",
    "ErrorBody",
    "FactList",
    "Health",
    "KeyList",
    "MessageIn",
    "SearchRequest",
    "SearchResponse",
    "SessionList",
]
