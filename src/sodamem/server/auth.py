"""Who is asking: a bearer key (header, or the web page's cookie) names exactly one user; no key, no memory."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from fastapi import HTTPException, Request

from sodamem.memory import Memory
from sodamem.server.pool import MemoryPool
from sodamem.server.settings import ServeSettings

COOKIE = "sodamem_key"
_CHALLENGE = {"WWW-Authenticate": 'Bearer realm="sodamem"'}


@dataclass(frozen=True, slots=True)
class Tenant:
    """A request's memory (borrowed from the pool for the request's length) and the one user it may touch."""

    memory: Memory
    user: str


def presented_key(request: Request, *, cookie: bool = False) -> str | None:
    """The bearer key of the request; with ``cookie``, else the web page's cookie. The API and /mcp take the header
    only, so a page another site opens in the browser cannot call them with the cookie (no CSRF surface)."""
    header = request.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    return (request.cookies.get(COOKIE) or None) if cookie else None


def user_of_request(request: Request, memory: Memory, *, cookie: bool = False) -> str:
    settings: ServeSettings = request.app.state.settings
    if not settings.auth:
        return settings.user
    key = presented_key(request, cookie=cookie)
    if key is None:
        raise HTTPException(401, "an API key is required: 'Authorization: Bearer <key>'", headers=_CHALLENGE)
    user = memory.keys.user_of(key)
    if user is None:
        raise HTTPException(401, "unknown or revoked API key", headers=_CHALLENGE)
    return user


def tenant(request: Request) -> Iterator[Tenant]:
    """FastAPI dependency of the API: the caller's user (by the bearer header) and a memory to serve it with."""
    pool: MemoryPool = request.app.state.pool
    with pool.borrow() as memory:
        yield Tenant(memory, user_of_request(request, memory))


def page_tenant(request: Request) -> Iterator[Tenant]:
    """The same for the web page, whose key is the login cookie (SameSite=Strict; its POSTs check Origin too)."""
    pool: MemoryPool = request.app.state.pool
    with pool.borrow() as memory:
        yield Tenant(memory, user_of_request(request, memory, cookie=True))
