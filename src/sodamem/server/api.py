"""``/v1``: the HTTP API. Each route reads its request, calls one ``Memory`` method for the caller's user, and
returns the library's record; errors are mapped in ``server.errors``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated

from fastapi import APIRouter, Depends, Path, Request
from fastapi.responses import StreamingResponse
from starlette.concurrency import run_in_threadpool

from sodamem.answer.ask import ask as ask_memory
from sodamem.answer.types import Answer
from sodamem.errors import InputError
from sodamem.ingest.formats import InputFormat, parse_sessions
from sodamem.ingest.timestamps import parse_as_of, parse_given_time
from sodamem.memory import Memory
from sodamem.records import AddReport, FactRecord, ForgetReport, IngestReport, SessionRecord, TurnRecord, UserStats
from sodamem.server.auth import Tenant, tenant
from sodamem.server.schemas import (
    AddRequest,
    AskRequest,
    ErrorBody,
    FactList,
    SearchRequest,
    SearchResponse,
    SessionList,
)

_ERRORS: dict[int | str, dict[str, object]] = {
    code: {"model": ErrorBody, "description": text}
    for code, text in {
        400: "Bad input (names the field)",
        401: "No key, or an unknown or revoked one",
        404: "No such record for this user",
        409: "Conflicts with what is stored",
        413: "Body too large",
        415: "Body not sent as application/json",
        422: "Request does not match its schema",
        503: "Database busy: retry",
    }.items()
}

router = APIRouter(prefix="/v1", responses=_ERRORS)
Caller = Annotated[Tenant, Depends(tenant)]
MAX_ID = 1 << 62
FactId = Annotated[int, Path(ge=1, le=MAX_ID)]


parse_time = parse_given_time  # a bad time is a 400 naming the field


def seen_at(memory: Memory, as_of: str | None) -> Memory:
    """The memory as it stood at ``as_of`` (a request's field), or as it is."""
    when = parse_as_of(as_of)
    return memory if when is None else memory.at(when)


def answer_request(memory: Memory, body: AskRequest, user: str) -> Answer:
    """``POST /v1/ask`` and the ``ask_memory`` tool: the configured LLM, else the offline reader."""
    return ask_memory(
        seen_at(memory, body.as_of),
        body.question,
        now=parse_time(body.now, "now"),
        offline=body.offline,
        budget_tokens=body.budget,
        max_steps=body.steps,
        user=user,
    )


@router.post("/messages", response_model=AddReport, tags=["write"], summary="Add messages as they are said")
def add_messages(body: AddRequest, caller: Caller) -> AddReport:
    messages = [m.model_dump(exclude_none=True) for m in body.messages]
    return caller.memory.add(
        messages, session_id=body.session_id, user=caller.user, timestamp=parse_time(body.timestamp, "timestamp")
    )


@router.post(
    "/sessions",
    response_model=IngestReport,
    tags=["write"],
    summary="Ingest whole sessions (generic JSON/JSONL, LoCoMo or LongMemEval)",
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {
                "application/json": {"schema": {}},
                "application/x-ndjson": {"schema": {"type": "string"}},
            },
        }
    },
)
async def ingest_sessions(
    request: Request,
    caller: Caller,
    format: InputFormat = InputFormat.AUTO,
    replace: bool = False,
) -> IngestReport:
    raw = await request.body()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError("the body is not UTF-8 text", field="body") from None
    name = "body.jsonl" if "ndjson" in request.headers.get("content-type", "") else "body"
    sessions = parse_sessions(text, format, name=name)
    return await run_in_threadpool(caller.memory.ingest, sessions, user=caller.user, replace=replace)


@router.get("/sessions", response_model=SessionList, tags=["read"], summary="The user's sessions")
def list_sessions(caller: Caller) -> SessionList:
    return SessionList(sessions=caller.memory.sessions(user=caller.user))


@router.get("/sessions/{session_id:path}", response_model=SessionRecord, tags=["read"], summary="A session, every turn")
def get_session(session_id: str, caller: Caller) -> SessionRecord:
    return caller.memory.session(session_id, user=caller.user)


@router.get("/turns/{turn_id:path}", response_model=TurnRecord, tags=["read"], summary="A turn by its id")
def get_turn(turn_id: str, caller: Caller, session_id: str | None = None) -> TurnRecord:
    return caller.memory.turn(turn_id, session_id=session_id, user=caller.user)


@router.post("/search", response_model=SearchResponse, tags=["read"], summary="Cited hits, best first")
def search(body: SearchRequest, caller: Caller) -> SearchResponse:
    hits = seen_at(caller.memory, body.as_of).search(
        body.query, k=body.k, user=caller.user, mode=body.mode, now=parse_time(body.now, "now"), preset=body.preset
    )
    return SearchResponse(query=body.query, results=hits)


@router.post("/ask", response_model=Answer, tags=["read"], summary="A cited answer (LLM if configured, else offline)")
def ask(body: AskRequest, caller: Caller) -> Answer:
    return answer_request(caller.memory, body, caller.user)


@router.get("/facts", response_model=FactList, tags=["read"], summary="Facts by status, as of a time, by subject")
def list_facts(
    caller: Caller,
    status: str = "active",
    as_of: str | None = None,
    subject: str | None = None,
) -> FactList:
    facts = caller.memory.facts(status=status, as_of=parse_as_of(as_of), subject=subject, user=caller.user)
    return FactList(facts=facts)


@router.get("/facts/{fact_id}", response_model=FactRecord, tags=["read"], summary="A fact with sources and links")
def get_fact(fact_id: FactId, caller: Caller) -> FactRecord:
    return caller.memory.fact(fact_id, user=caller.user)


@router.get("/facts/{fact_id}/history", response_model=FactList, tags=["read"], summary="What it replaced, and by what")
def fact_history(fact_id: FactId, caller: Caller) -> FactList:
    return FactList(facts=caller.memory.history(fact_id, user=caller.user))


@router.delete("/sessions/{session_id:path}", response_model=ForgetReport, tags=["forget"], summary="Forget a session")
def forget_session(session_id: str, caller: Caller, dry_run: bool = False) -> ForgetReport:
    return caller.memory.forget(session_id=session_id, user=caller.user, dry_run=dry_run)


@router.delete("/turns/{turn_id:path}", response_model=ForgetReport, tags=["forget"], summary="Forget a turn")
def forget_turn(turn_id: str, caller: Caller, session_id: str | None = None, dry_run: bool = False) -> ForgetReport:
    return caller.memory.forget(turn_id=turn_id, session_id=session_id, user=caller.user, dry_run=dry_run)


@router.delete("/facts/{fact_id}", response_model=ForgetReport, tags=["forget"], summary="Forget a fact")
def forget_fact(fact_id: FactId, caller: Caller, dry_run: bool = False) -> ForgetReport:
    return caller.memory.forget(fact_id=fact_id, user=caller.user, dry_run=dry_run)


@router.get(
    "/export",
    tags=["read"],
    summary="The user's memory as dump lines (docs/dump-format.md)",
    response_class=StreamingResponse,
    responses={200: {"content": {"application/x-ndjson": {"schema": {"type": "string"}}}}},
)
def export(caller: Caller) -> StreamingResponse:
    lines: Iterator[str] = caller.memory.export(user=caller.user)  # read in one snapshot, before the first line
    return StreamingResponse(lines, media_type="application/x-ndjson")


@router.get("/stats", response_model=UserStats, tags=["read"], summary="Counts of what the memory holds")
def stats(caller: Caller) -> UserStats:
    return caller.memory.stats(user=caller.user)[0]
