"""The MCP tools: thin adapters over ``Memory``, for an agent to remember, search, ask, review and forget.

Each tool returns the same shape as its HTTP route (``server.schemas`` and the library's records), so every hit,
fact and answer cites its session, turn, character span and time. Where the memory and the caller's user come from
is the transport's business: ``fixed_tenant`` for stdio, ``server.mcp_http`` for ``/mcp``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Annotated, Any, Literal, TypeVar, get_type_hints

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.tools import Tool
from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase, FuncMetadata
from mcp.types import ToolAnnotations
from pydantic import ConfigDict, Field, ValidationError

from sodamem.answer.types import Answer
from sodamem.errors import SodaMemError
from sodamem.ingest.timestamps import parse_as_of
from sodamem.memory import Memory
from sodamem.records import AddReport, ForgetReport
from sodamem.server.api import MAX_ID, answer_request, parse_time, seen_at
from sodamem.server.auth import Tenant
from sodamem.server.schemas import AddRequest, AskRequest, FactList, MessageIn, SearchRequest, SearchResponse

TenantSource = Callable[[Context], AbstractContextManager[Tenant]]
"""The memory to serve one tool call with, and the one user the call may touch."""

INSTRUCTIONS = """SodaMem is the user's long-term memory: what was said in earlier conversations, and the facts
drawn from it. Call `remember` with each user message worth keeping. Before answering anything about the user's
past (what they said, did, like, own or plan), call `search_memory` or `ask_memory` and cite what they return
(session, turn, time); if memory holds nothing, say so instead of guessing. `forget` only when the user asks."""

Time = Annotated[
    str | None, Field(description="ISO 8601 (2024-05-01T10:00:00); relative words in the query count from it")
]
AsOf = Annotated[
    str | None,
    Field(description="ISO 8601: read the memory as it stood then (nothing said later, the facts that held then)"),
]
_Request = TypeVar("_Request", AddRequest, SearchRequest, AskRequest)
FactId = Annotated[int, Field(ge=1, le=MAX_ID, description="A fact's id, as list_facts and remember report it")]


def build_mcp_server(tenant_of: TenantSource) -> MCPServer:
    """The ``sodamem`` MCP server: six tools, each calling one ``Memory`` method for the tenant of the call."""

    def remember(
        ctx: Context,
        messages: Annotated[list[MessageIn], Field(description="In order; each {speaker or role, text, id?, ...}")],
        session_id: Annotated[
            str | None,
            Field(description="One id per conversation: a new id starts a session (default: one session a day)"),
        ] = None,
        timestamp: Annotated[
            str | None, Field(description="ISO 8601: when the messages were said (default now)")
        ] = None,
    ) -> AddReport:
        body = _validated(AddRequest, session_id=session_id, messages=messages, timestamp=timestamp)
        with _tool_errors(), tenant_of(ctx) as caller:
            return caller.memory.add(
                [m.model_dump(exclude_none=True) for m in body.messages],
                session_id=body.session_id,
                user=caller.user,
                timestamp=parse_time(body.timestamp, "timestamp"),
            )

    def search_memory(
        ctx: Context,
        query: Annotated[str, Field(description="What to look for, in the user's words or a question")],
        k: Annotated[int, Field(description="How many hits (1-100)")] = 10,
        now: Time = None,
        as_of: AsOf = None,
    ) -> SearchResponse:
        body = _validated(SearchRequest, query=query, k=k, now=now, as_of=as_of)
        with _tool_errors(), tenant_of(ctx) as caller:
            memory = seen_at(caller.memory, body.as_of)
            hits = memory.search(body.query, k=body.k, user=caller.user, now=parse_time(body.now, "now"))
        return SearchResponse(query=body.query, results=hits)

    def ask_memory(
        ctx: Context,
        question: Annotated[str, Field(description="A question about the user's past")],
        now: Time = None,
        as_of: AsOf = None,
    ) -> Answer:
        body = _validated(AskRequest, question=question, now=now, as_of=as_of)
        with _tool_errors(), tenant_of(ctx) as caller:
            return answer_request(caller.memory, body, caller.user)

    def list_facts(
        ctx: Context,
        status: Literal["active", "superseded", "invalid", "all"] = "active",
        as_of: Annotated[str | None, Field(description="ISO 8601: the facts that held at that time")] = None,
        subject: Annotated[str | None, Field(description="Only facts about this subject (a name)")] = None,
    ) -> FactList:
        with _tool_errors(), tenant_of(ctx) as caller:
            facts = caller.memory.facts(status=status, as_of=parse_as_of(as_of), subject=subject, user=caller.user)
        return FactList(facts=facts)

    def fact_history(ctx: Context, fact_id: FactId) -> FactList:
        with _tool_errors(), tenant_of(ctx) as caller:
            return FactList(facts=caller.memory.history(fact_id, user=caller.user))

    def forget(
        ctx: Context,
        session_id: Annotated[str | None, Field(description="A whole conversation; or narrows turn_id")] = None,
        turn_id: Annotated[str | None, Field(description="One message, by its turn id")] = None,
        fact_id: Annotated[int | None, Field(ge=1, le=MAX_ID, description="One fact, by its id")] = None,
        dry_run: Annotated[bool, Field(description="Only report what would go")] = False,
    ) -> ForgetReport:
        _check_one_selector(session_id, turn_id, fact_id)
        with _tool_errors(), tenant_of(ctx) as caller:
            return caller.memory.forget(
                session_id=session_id, turn_id=turn_id, fact_id=fact_id, user=caller.user, dry_run=dry_run
            )

    read_only = ToolAnnotations(read_only_hint=True, open_world_hint=False)
    tools = [
        _tool(
            remember,
            "Store messages in the user's long-term memory. Call it after each user message worth keeping (facts "
            "about the user, events, plans, preferences, decisions; the assistant's reply too when it matters), "
            "with one stable session_id per conversation (none: one session a day). "
            "Each message: {speaker or role, text, id?, timestamp?}; "
            "with an id, sending a message again is harmless. "
            "Returns where each message was stored (session, turn id, time) and the ids of the facts drawn from it.",
            ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=False),
        ),
        _tool(
            search_memory,
            "Search the user's long-term memory. Call it before answering any question about the user's past "
            "(what they said, did, like, own or plan) or whenever earlier conversations could matter. Returns "
            "hits best first, each quoting the text with its session, turn, character span and time: cite them. "
            "Pass now (ISO 8601) when the question's 'last month' should count from another time than today.",
            read_only,
        ),
        _tool(
            ask_memory,
            'Answer a direct question about the user\'s past from memory ("When did I move to Berlin?"): a short '
            "answer with citations (session, turn, character span, quote). Use search_memory instead for the raw "
            "evidence. When the answer is abstained ('not in memory'), memory holds nothing on it: say so, do not "
            "guess.",
            read_only,
        ),
        _tool(
            list_facts,
            "List the facts memory holds about the user, drawn from what was said: active ones by default (or "
            "superseded, invalid, all), those that held as_of a time, or about one subject. Use it to review or "
            "summarise what you know about the user, or to find a fact's id for fact_history or forget. Each fact "
            "cites its sources (session, turn, character span, quote, time).",
            read_only,
        ),
        _tool(
            fact_history,
            "How one fact changed over time: the facts of its slot, oldest first (what it replaced and what "
            "replaced it), each with status and sources. Use it when the user asks how something changed, or "
            "which version is current.",
            read_only,
        ),
        _tool(
            forget,
            "Delete from memory for good, only when the user asks to forget something. Name exactly one of: "
            "session_id (a whole conversation), turn_id (one message; add session_id when several sessions share "
            "the id), fact_id (one fact). Call with dry_run=true first and confirm with the user. Returns ids and "
            "counts, never the text.",
            ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=False, open_world_hint=False),
        ),
    ]
    return MCPServer("sodamem", instructions=INSTRUCTIONS, tools=tools, log_level="WARNING")


def fixed_tenant(memory: Memory, user: str) -> TenantSource:
    """One memory and one user for every call (stdio). A ``Memory`` serves one thread at a time, and the SDK runs
    each (sync) tool call on a worker thread, so concurrent calls take turns."""
    lock = threading.Lock()

    @contextmanager
    def tenant_of(_ctx: Context) -> Iterator[Tenant]:
        with lock:
            yield Tenant(memory, user)

    return tenant_of


def _tool(fn: Callable[..., Any], description: str, annotations: ToolAnnotations) -> Tool:
    """A tool whose structured output is its return type. The SDK cannot derive a schema for a slotted dataclass
    (the library's records), but pydantic validates and documents one directly, as the HTTP API does."""
    tool = Tool.from_function(fn, description=description, annotations=annotations, structured_output=False)
    output = FuncMetadata(arg_model=_strict(tool.fn_metadata.arg_model), output_model=get_type_hints(fn)["return"])
    return tool.model_copy(
        update={"fn_metadata": output, "parameters": output.arg_model.model_json_schema(by_alias=True)}
    )


def _strict(arguments: type[ArgModelBase]) -> type[ArgModelBase]:
    """The SDK's argument model, refusing arguments the tool does not take (``additionalProperties: false``): a
    ``mode="bm25"`` the tool has not would otherwise be dropped without a word, where HTTP answers 422."""
    config = ConfigDict(**{**arguments.model_config, "extra": "forbid"})
    return type(arguments.__name__, (arguments,), {"model_config": config, "__module__": arguments.__module__})


@contextmanager
def _tool_errors() -> Iterator[None]:
    """A library error is the caller's to read and correct: a tool error with its message, never a crash."""
    try:
        yield
    except SodaMemError as exc:
        raise ToolError(str(exc)) from exc


def _validated(request: type[_Request], **fields: Any) -> _Request:
    """The arguments checked by the HTTP API's own request model, so both enforce the same limits."""
    try:
        return request.model_validate(fields)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise ToolError(f"field {where!r}: {first['msg']}" if where else first["msg"]) from None


def _check_one_selector(session_id: str | None, turn_id: str | None, fact_id: int | None) -> None:
    selectors = (("session_id", session_id), ("turn_id", turn_id), ("fact_id", fact_id))
    given = [name for name, value in selectors if value is not None]
    named = [name for name in given if not (name == "session_id" and turn_id is not None)]  # it narrows the turn
    if len(named) != 1:
        raise ToolError(
            "name exactly one of: session_id, turn_id (narrowed by session_id) or fact_id "
            f"(got: {', '.join(given) or 'none'})"
        )
