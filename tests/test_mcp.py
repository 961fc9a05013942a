"""MCP: the tools through the SDK's own client: in process (fast), then over stdio and over HTTP with keys (slow).

Every tool returns the HTTP API's shape, so its structured output validates as that model or record, and each hit,
fact and answer cites a literal span of a stored turn.
"""

from __future__ import annotations

import json
import os
import sys
import urllib.error
import urllib.request
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from fastapi.testclient import TestClient
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.types import TextContent
from pydantic import TypeAdapter

from sodamem import Memory
from sodamem.answer.types import Answer
from sodamem.keys import KeyRing
from sodamem.records import AddReport, ForgetReport
from sodamem.server.mcp_tools import build_mcp_server, fixed_tenant
from sodamem.server.schemas import FactList, SearchResponse
from sodamem.server.settings import ServeSettings
from tests.serve_process import create_key, start_server

TOOLS = {"remember", "search_memory", "ask_memory", "list_facts", "fact_history", "forget"}
BERLIN = "I live in Berlin and I work as a nurse at the city hospital."
SESSION_1 = [{"speaker": "Alice", "text": BERLIN}, {"role": "assistant", "text": "Nice!"}]
SESSION_2 = [{"speaker": "Alice", "text": "I live in Munich now."}]
MARCH, JUNE = "2024-03-01T10:00:00", "2024-06-01T10:00:00"

Scenario = Callable[[Client], Awaitable[None]]


def run(scenario: Scenario, server: Any, headers: dict[str, str] | None = None) -> None:
    """Connect the SDK's client to ``server`` (an MCPServer, stdio parameters or a URL) and play ``scenario``."""

    async def main() -> None:
        if isinstance(server, str):
            async with (
                httpx2.AsyncClient(headers=headers, timeout=30) as http,
                Client(streamable_http_client(server, http_client=http)) as client,
            ):
                await scenario(client)
        else:
            async with Client(server) as client:
                await scenario(client)

    anyio.run(main)


async def call(client: Client, tool: str, **arguments: Any) -> dict[str, Any]:
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, result.content
    assert result.structured_content is not None
    block = result.content[0]
    assert isinstance(block, TextContent)
    assert json.loads(block.text) == result.structured_content  # the same, as text, for clients that want text
    return result.structured_content


async def error_of(client: Client, tool: str, **arguments: Any) -> str:
    result = await client.call_tool(tool, arguments)
    assert result.is_error, result.structured_content
    block = result.content[0]
    assert isinstance(block, TextContent)
    return block.text


@pytest.fixture
def alice_tools(tmp_path: Path) -> Iterator[Any]:
    memory = Memory(tmp_path / "m.db", embedder="fake")
    try:
        yield build_mcp_server(fixed_tenant(memory, "alice"))
    finally:
        memory.close()


# -- in process --------------------------------------------------------------------------------------------------


def test_tools_say_when_to_use_them(alice_tools: Any) -> None:
    async def scenario(client: Client) -> None:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert set(tools) == TOOLS
        assert "after each user message" in (tools["remember"].description or "")
        assert "before answering" in (tools["search_memory"].description or "")
        assert all(tool.output_schema for tool in tools.values())
        assert tools["forget"].annotations and tools["forget"].annotations.destructive_hint
        assert tools["search_memory"].annotations and tools["search_memory"].annotations.read_only_hint

    run(scenario, alice_tools)


def test_remember_search_ask_review_forget(alice_tools: Any) -> None:
    async def scenario(client: Client) -> None:
        added = TypeAdapter(AddReport).validate_python(
            await call(client, "remember", session_id="s1", messages=SESSION_1, timestamp=MARCH)
        )
        assert (added.user, added.session_id, added.session_created) == ("alice", "s1", True)
        assert [(t.turn_id, t.speaker, t.timestamp) for t in added.added] == [
            ("s1:0", "Alice", MARCH),
            ("s1:1", "assistant", MARCH),
        ]
        assert added.fact_ids
        await call(client, "remember", session_id="s2", messages=SESSION_2, timestamp=JUNE)

        found = SearchResponse.model_validate(await call(client, "search_memory", query="Where is she a nurse?", k=3))
        top = found.results[0]
        assert (top.session_id, top.turn_id, top.timestamp) == ("s1", "s1:0", MARCH)
        assert top.turn_text == BERLIN and top.turn_text[top.char_start : top.char_end] == top.text
        assert "nurse" in top.text

        answer = TypeAdapter(Answer).validate_python(
            await call(client, "ask_memory", question="Where does Alice work?")
        )
        assert "nurse" in answer.answer and not answer.abstained
        cited = answer.citations[0]
        assert (cited.session_id, cited.turn_id) == ("s1", "s1:0")
        assert BERLIN[cited.char_start : cited.char_end] == cited.quote

        active = FactList.model_validate(await call(client, "list_facts")).facts
        job = next(fact for fact in active if fact.predicate == "job")
        assert job.object == "nurse at the city hospital"
        source = job.sources[0]
        assert (source.session_id, source.turn_id, source.timestamp) == ("s1", "s1:0", MARCH)
        assert BERLIN[source.char_start : source.char_end] == source.quote
        assert {f.object for f in active if f.predicate == "lives_in"} == {"Munich"}
        in_april = FactList.model_validate(await call(client, "list_facts", as_of="2024-04-01")).facts
        assert {f.object for f in in_april if f.predicate == "lives_in"} == {"Berlin"}
        then = TypeAdapter(Answer).validate_python(
            await call(client, "ask_memory", question="Where does Alice live?", as_of="2024-04-01")
        )
        assert "Berlin" in then.answer and all(c.timestamp == MARCH for c in then.citations)
        april = SearchResponse.model_validate(await call(client, "search_memory", query="Munich", as_of="2024-04-01"))
        assert all(hit.timestamp == MARCH for hit in april.results)

        old_home = next(f for f in FactList.model_validate(await call(client, "list_facts", status="superseded")).facts)
        chain = FactList.model_validate(await call(client, "fact_history", fact_id=old_home.id)).facts
        assert [(f.object, f.status) for f in chain] == [("Berlin", "superseded"), ("Munich", "active")]
        assert chain[1].sources[0].session_id == "s2"

        planned = TypeAdapter(ForgetReport).validate_python(await call(client, "forget", session_id="s2", dry_run=True))
        assert planned.dry_run and planned.sessions == ["s2"]
        assert len(FactList.model_validate(await call(client, "list_facts", status="all")).facts) == 3  # kept

        gone = TypeAdapter(ForgetReport).validate_python(await call(client, "forget", fact_id=job.id))
        assert gone.facts == [job.id] and not gone.dry_run
        gone = TypeAdapter(ForgetReport).validate_python(await call(client, "forget", turn_id="s1:1"))
        assert gone.turns == ["s1/s1:1"]
        gone = TypeAdapter(ForgetReport).validate_python(await call(client, "forget", session_id="s2"))
        assert gone.sessions == ["s2"]
        left = FactList.model_validate(await call(client, "list_facts", status="all")).facts
        assert [(f.predicate, f.object, f.status) for f in left] == [("lives_in", "Berlin", "active")]

    run(scenario, alice_tools)


def test_errors_come_back_as_tool_errors(alice_tools: Any) -> None:
    async def scenario(client: Client) -> None:
        await call(client, "remember", session_id="s1", messages=SESSION_1, timestamp=MARCH)

        assert "no fact 987654" in await error_of(client, "fact_history", fact_id=987654)
        two = await error_of(client, "forget", session_id="s1", fact_id=1)
        assert "exactly one" in two and "session_id, fact_id" in two
        assert "exactly one" in await error_of(client, "forget")
        assert "no turn 'nope'" in await error_of(client, "forget", turn_id="nope")
        assert "nothing to forget" in await error_of(client, "forget", session_id="nope")
        assert "'k'" in await error_of(client, "search_memory", query="nurse", k=0)
        assert "'now'" in await error_of(client, "search_memory", query="nurse", now="someday")
        assert "'as_of'" in await error_of(client, "list_facts", as_of="someday")
        assert "status" in await error_of(client, "list_facts", status="bogus")
        unknown = await error_of(client, "search_memory", query="nurse", mode="bm25", bogus=1)
        assert "mode" in unknown and "bogus" in unknown  # refused, not dropped: HTTP answers 422 for these too
        assert "'messages'" in await error_of(client, "remember", session_id="s1", messages=[])
        await call(client, "remember", session_id="s3", messages=[{"speaker": "A", "text": "one", "id": "m1"}])
        conflict = await error_of(
            client, "remember", session_id="s3", messages=[{"speaker": "A", "text": "two", "id": "m1"}]
        )
        assert "already stored" in conflict and "s3" in conflict
        daily = TypeAdapter(AddReport).validate_python(
            await call(client, "remember", messages=[{"speaker": "A", "text": "three"}], timestamp=MARCH)
        )
        assert daily.session_id == MARCH[:10] and daily.session_created

        # Nothing the refused calls touched is lost or changed.
        facts = FactList.model_validate(await call(client, "list_facts")).facts
        assert {f.predicate for f in facts} == {"lives_in", "job"}

    run(scenario, alice_tools)


# -- over HTTP, in process: the mount, its keys, the OpenAPI schema ----------------------------------------------

_JSON_RPC = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def _post_tool(client: TestClient, key: str | None, tool: str, **arguments: Any) -> Any:
    headers = {**_JSON_RPC, **({"Authorization": f"Bearer {key}"} if key else {})}
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": tool, "arguments": arguments}}
    return client.post("/mcp", headers=headers, json=body)


def test_http_mount_needs_a_key_and_keeps_users_apart(tmp_path: Path) -> None:
    from sodamem.server.app import create_app  # here: the tools above need none of the rest of the server

    db = tmp_path / "h.db"
    with Memory(db, embedder="fake") as memory:
        keys = {user: KeyRing(memory.store).create(user)[1] for user in ("alice", "bob")}
    with TestClient(create_app(ServeSettings(db=str(db), embedder="fake"))) as client:
        paths = client.get("/openapi.json").json()["paths"]
        assert "/v1/search" in paths and not any(path.startswith("/mcp") for path in paths)

        refused = _post_tool(client, None, "list_facts")
        assert refused.status_code == 401 and refused.headers["www-authenticate"].startswith("Bearer")
        assert "key" in refused.json()["error"]
        assert _post_tool(client, "smk_not-a-key", "list_facts").status_code == 401
        alice = {"Authorization": f"Bearer {keys['alice']}"}
        assert client.get("/mcp", headers=alice).status_code == 405

        added = _post_tool(client, keys["alice"], "remember", session_id="s1", messages=SESSION_1, timestamp=MARCH)
        assert added.status_code == 200
        assert added.json()["result"]["structuredContent"]["user"] == "alice"
        facts = _post_tool(client, keys["alice"], "list_facts").json()["result"]["structuredContent"]["facts"]
        assert facts and all(f["sources"][0]["session_id"] == "s1" for f in facts)

        assert _post_tool(client, keys["bob"], "list_facts").json()["result"]["structuredContent"] == {"facts": []}
        history = _post_tool(client, keys["bob"], "fact_history", fact_id=facts[0]["id"]).json()["result"]
        assert history["isError"] and "bob" in history["content"][0]["text"]
        searched = client.post(
            "/v1/search", json={"query": "nurse"}, headers={"Authorization": f"Bearer {keys['alice']}"}
        )
        assert searched.json()["results"][0]["turn_id"] == "s1:0"  # the HTTP API beside it, unchanged


# -- real processes ------------------------------------------------------------------------------------------------


def _child_env() -> dict[str, str]:
    """What a subprocess needs beyond the SDK's safe default environment: the fast fake embedder."""
    names = ("SODAMEM_EMBEDDER", "PYTHONPATH")
    return {name: os.environ[name] for name in names if name in os.environ}


@pytest.mark.slow
def test_stdio_subprocess(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    command = ["-m", "sodamem", "--db", str(db), "--user", "alice", "mcp"]
    params = StdioServerParameters(command=sys.executable, args=command, env=_child_env())

    async def scenario(client: Client) -> None:
        assert {tool.name for tool in (await client.list_tools()).tools} == TOOLS
        added = await call(client, "remember", session_id="s1", messages=SESSION_1, timestamp=MARCH)
        assert added["user"] == "alice"
        found = SearchResponse.model_validate(await call(client, "search_memory", query="nurse"))
        assert (found.results[0].session_id, found.results[0].turn_id) == ("s1", "s1:0")

    run(scenario, params)  # the SDK's stdio client ends the process on the way out
    with Memory(db, embedder="fake") as memory:
        assert memory.stats(user="alice")[0].turns == 2


@dataclass
class Served:
    url: str
    keys: dict[str, str]


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    db = tmp_path / "h.db"
    keys = {user: create_key(db, user)[1] for user in ("alice", "bob")}
    with start_server(db) as server:
        yield Served(f"{server.base}/mcp", keys)


@pytest.mark.slow
def test_http_server_keys_and_tenancy(served: Served) -> None:
    alice = {"Authorization": f"Bearer {served.keys['alice']}"}
    bob = {"Authorization": f"Bearer {served.keys['bob']}"}
    seen: dict[str, Any] = {}

    async def as_alice(client: Client) -> None:
        assert {tool.name for tool in (await client.list_tools()).tools} == TOOLS
        await call(client, "remember", session_id="s1", messages=SESSION_1, timestamp=MARCH)
        found = SearchResponse.model_validate(await call(client, "search_memory", query="nurse"))
        assert (found.results[0].session_id, found.results[0].turn_id) == ("s1", "s1:0")
        answer = TypeAdapter(Answer).validate_python(
            await call(client, "ask_memory", question="Where does Alice work?")
        )
        assert "nurse" in answer.answer and answer.citations[0].turn_id == "s1:0"
        seen["facts"] = FactList.model_validate(await call(client, "list_facts")).facts
        assert seen["facts"]

    async def as_bob(client: Client) -> None:
        found = SearchResponse.model_validate(await call(client, "search_memory", query="nurse Berlin"))
        assert not found.results
        assert FactList.model_validate(await call(client, "list_facts", status="all")).facts == []
        alices = seen["facts"][0].id
        assert f"no fact {alices} for user 'bob'" in await error_of(client, "fact_history", fact_id=alices)
        assert "exactly one" in await error_of(client, "forget", session_id="s1", fact_id=alices)
        assert "nothing to forget" in await error_of(client, "forget", session_id="s1")

    async def as_alice_again(client: Client) -> None:  # bob's refused forget left alice's memory whole
        assert FactList.model_validate(await call(client, "list_facts")).facts == seen["facts"]

    run(as_alice, served.url, alice)
    run(as_bob, served.url, bob)
    run(as_alice_again, served.url, alice)

    request = urllib.request.Request(served.url, data=b"{}", headers={"Content-Type": "application/json"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=10)
    assert refused.value.code == 401
    assert "key" in json.loads(refused.value.read())["error"]
