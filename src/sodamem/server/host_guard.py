"""Without keys (``serve --no-auth``, loopback only), every route answers loopback names only.

A server without keys trusts whoever reaches it, and a web page can reach a loopback port by DNS rebinding: its own
name, resolved again to 127.0.0.1, makes the browser send the page's requests there with that name as Host and
Origin. So a request whose Host, or whose Origin when it has one, is not a loopback name is refused before any
route sees it: 421 for a Host, 403 for an Origin. The MCP SDK checks ``/mcp`` the same way (``mcp_http.py``).
"""

from __future__ import annotations

from collections.abc import Collection
from ipaddress import ip_address
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Receive, Scope, Send

from sodamem.server.errors import error_response

LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "::1"})


def host_name(authority: str) -> str:
    """The name of a Host header's ``name[:port]`` (an IPv6 address in brackets, ``[::1]:8765``), lower-cased."""
    text = authority.strip().lower()
    if text.startswith("["):
        return text[1 : text.find("]")] if "]" in text else text
    return text.rsplit(":", 1)[0] if text.count(":") == 1 else text


def is_loopback_name(authority: str, also: Collection[str] = ()) -> bool:
    """A loopback name or address (127.0.0.2 too), or one of ``also`` (the name the server was told to bind)."""
    name = host_name(authority)
    if name in LOOPBACK_NAMES or name in also:
        return True
    try:
        return ip_address(name).is_loopback
    except ValueError:
        return False


class LoopbackNamesOnly:
    def __init__(self, app: ASGIApp, bound: str = "") -> None:
        self.app = app
        self.also = frozenset({bound.lower()} - {""})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {k.lower(): v.decode("latin-1") for k, v in scope.get("headers") or ()}
        host = headers.get(b"host", "")
        origin = headers.get(b"origin")
        if not is_loopback_name(host, self.also):
            refusal = error_response(421, f"a server without keys answers loopback names only, not {host!r}", "host")
        elif origin is not None and origin != "null" and not is_loopback_name(urlsplit(origin).netloc, self.also):
            refusal = error_response(
                403, f"a server without keys answers loopback pages only, not {origin!r}", "origin"
            )
        else:
            await self.app(scope, receive, send)
            return
        await refusal(scope, receive, send)
