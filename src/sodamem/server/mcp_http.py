"""MCP over streamable HTTP at ``/mcp``: the tools of ``server.mcp_tools``, behind the HTTP API's keys and pool.

Stateless, with JSON responses: each POST is a whole exchange, with no session held in a worker, so any of several
uvicorn workers can answer any request. A request without a valid key is refused with 401 before the MCP layer
sees it; each tool call then borrows a memory from the worker's pool and serves the user its key names.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractAsyncContextManager, AsyncExitStack, contextmanager
from types import TracebackType

from fastapi import FastAPI, HTTPException
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from sodamem.errors import SodaMemError
from sodamem.server.auth import Tenant, user_of_request
from sodamem.server.errors import error_response, status_of
from sodamem.server.mcp_tools import build_mcp_server
from sodamem.server.pool import MemoryPool
from sodamem.server.settings import ServeSettings

PATH = "/mcp"
_USER_KEY = "sodamem_mcp_user"  # where the gate leaves the caller's user, in the request's ASGI state


def mount_mcp(app: FastAPI) -> AbstractAsyncContextManager[None]:
    """Mount ``/mcp`` on ``app``; the returned context runs the MCP session manager for the app's lifetime."""
    endpoint = McpEndpoint(app)
    # A plain route (not an APIRoute): FastAPI leaves it out of the OpenAPI schema, and the path needs no slash.
    app.router.routes.append(Route(PATH, endpoint=endpoint, include_in_schema=False))
    return endpoint


class McpEndpoint:
    """The ASGI endpoint of ``/mcp`` and the context that runs its session manager (entered once per lifespan)."""

    def __init__(self, app: FastAPI) -> None:
        self.app = app
        self.server = build_mcp_server(self.tenant_of)
        self._manager: StreamableHTTPSessionManager | None = None
        self._running: AsyncExitStack | None = None

    async def __aenter__(self) -> None:
        settings: ServeSettings = self.app.state.settings
        # The SDK makes a new session manager with each app it builds; a manager runs once, a lifespan may recur.
        self.server.streamable_http_app(
            streamable_http_path=PATH,
            stateless_http=True,
            json_response=True,
            max_request_body_size=settings.max_body_bytes,
            transport_security=_transport_security(settings),
        )
        manager = self.server.session_manager
        running = AsyncExitStack()
        await running.enter_async_context(manager.run())
        self._manager, self._running = manager, running

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        running, self._manager, self._running = self._running, None, None
        if running is not None:
            await running.__aexit__(exc_type, exc, tb)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self._manager is None:
            await error_response(503, "MCP is not running: the app's lifespan has not started")(scope, receive, send)
            return
        try:
            user = await run_in_threadpool(self._user_of, Request(scope))
        except HTTPException as exc:
            response = error_response(exc.status_code, str(exc.detail), None, **(exc.headers or {}))
            await response(scope, receive, send)
            return
        except SodaMemError as exc:  # the key store busy: 503, as on /v1
            await error_response(status_of(exc), str(exc))(scope, receive, send)
            return
        if scope["method"] != "POST":
            # Stateless: nothing could ever be sent on a GET stream, and there is no session to DELETE.
            response = error_response(405, "MCP here is stateless: POST each JSON-RPC message", None, Allow="POST")
            await response(scope, receive, send)
            return
        scope.setdefault("state", {})[_USER_KEY] = user
        await self._manager.handle_request(scope, receive, send)

    def _user_of(self, request: Request) -> str:
        with self._pool.borrow() as memory:
            return user_of_request(request, memory)

    @contextmanager
    def tenant_of(self, ctx: Context) -> Iterator[Tenant]:
        """The tool call's tenant: the user the gate resolved for this HTTP request, and a memory from the pool."""
        request = ctx.request_context.request
        user = request.scope.get("state", {}).get(_USER_KEY) if isinstance(request, Request) else None
        if not isinstance(user, str):
            raise ToolError("no authenticated user for this call")  # only reachable around the gate
        with self._pool.borrow() as memory:
            yield Tenant(memory, user)

    @property
    def _pool(self) -> MemoryPool:
        pool: MemoryPool = self.app.state.pool
        return pool


def _transport_security(settings: ServeSettings) -> TransportSecuritySettings:
    """Without keys (``--no-auth``, loopback only), refuse requests whose Host or Origin is not a loopback name,
    so a web page cannot reach the memory by DNS rebinding; with keys, a request without one never gets that far."""
    if settings.auth:
        return TransportSecuritySettings(enable_dns_rebinding_protection=False)
    hosts = ["127.0.0.1", "localhost", "[::1]"]
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=[*hosts, *(f"{host}:*" for host in hosts)],
        allowed_origins=[f"http://{host}{port}" for host in hosts for port in ("", ":*")],
    )
