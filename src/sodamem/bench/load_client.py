"""The load process's HTTP client (``bench serve``): JSON POSTs over HTTP/1.1, one request at a time per client.

The load shares the machine with the server it measures, so its own CPU is taken from the server's: httpx spent
~2.5 ms of CPU per request in the load process (a tenth of a core at 40 requests/s). This client writes the request
in one piece and reads the status line, the headers and a ``Content-Length`` or chunked body with asyncio's
streams; nothing else of HTTP is needed to drive ``sodamem serve``.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any


class LoadClientError(Exception):
    """The server's answer could not be read as HTTP/1.1."""


class LoadClient:
    """POSTs JSON to ``host:port`` with a bearer key; a new connection per request unless ``keep_alive``."""

    def __init__(self, host: str, port: int, key: str, *, keep_alive: bool, timeout: float) -> None:
        self._address = (host, port)
        self._head = f"Host: {host}:{port}\r\nAuthorization: Bearer {key}\r\nContent-Type: application/json\r\n"
        if not keep_alive:
            self._head += "Connection: close\r\n"
        self._keep_alive = keep_alive
        self._timeout = timeout
        self._streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def post(self, path: str, payload: Any) -> tuple[int, str]:
        """The answer's status and body. Raises ``OSError``, ``TimeoutError``, ``asyncio.IncompleteReadError`` or
        ``LoadClientError``; the connection is dropped after any of them."""
        body = json.dumps(payload).encode("utf-8")
        request = f"POST {path} HTTP/1.1\r\n{self._head}Content-Length: {len(body)}\r\n\r\n".encode() + body
        try:
            async with asyncio.timeout(self._timeout):
                return await self._exchange(request)
        except BaseException:
            self.close()
            raise

    async def _exchange(self, request: bytes) -> tuple[int, str]:
        if self._streams is None:
            self._streams = await asyncio.open_connection(*self._address)
        reader, writer = self._streams
        writer.write(request)
        status_line = await reader.readline()
        parts = status_line.split(None, 2)
        if len(parts) < 2 or not parts[0].startswith(b"HTTP/1.") or not parts[1].isdigit():
            raise LoadClientError(f"not an HTTP status line: {status_line[:80]!r}")
        headers: dict[bytes, bytes] = {}
        while (line := await reader.readline()) not in (b"\r\n", b"\n", b""):
            name, _, value = line.partition(b":")
            headers[name.strip().lower()] = value.strip()
        if headers.get(b"transfer-encoding", b"").lower() == b"chunked":
            content = await _read_chunked(reader)
        elif b"content-length" in headers:
            content = await reader.readexactly(int(headers[b"content-length"]))
        else:
            content = await reader.read()
        if not self._keep_alive or headers.get(b"connection", b"").lower() == b"close":
            self.close()
        return int(parts[1]), content.decode("utf-8", "replace")

    def close(self) -> None:
        if self._streams is not None:
            self._streams[1].close()
            self._streams = None


async def _read_chunked(reader: asyncio.StreamReader) -> bytes:
    content = bytearray()
    while True:
        size = int((await reader.readline()).split(b";")[0].strip() or b"0", 16)
        if size == 0:
            while await reader.readline() not in (b"\r\n", b"\n", b""):
                pass  # trailers
            return bytes(content)
        content += await reader.readexactly(size)
        await reader.readexactly(2)  # the chunk's CRLF
