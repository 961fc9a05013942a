"""The load's HTTP client (bench serve) against a small HTTP/1.1 server on loopback: Content-Length, chunked and
read-to-close bodies, kept connections, and an answer that is not HTTP."""

from __future__ import annotations

import asyncio
import json

import pytest

from sodamem.bench.load_client import LoadClient, LoadClientError


async def _serve(answers: list[bytes], seen: list[dict[str, object]]) -> tuple[asyncio.Server, int]:
    """Answers each request with the next of ``answers`` (closing the connection after one marked close); records
    each request's path, headers and JSON body, and which connection carried it."""
    connections = 0

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal connections
        connections += 1
        number = connections
        while answers:
            line = await reader.readline()
            if not line:
                break
            headers = {}
            while (header := await reader.readline()) != b"\r\n":
                name, _, value = header.decode().partition(":")
                headers[name.strip().lower()] = value.strip()
            body = json.loads(await reader.readexactly(int(headers["content-length"])))
            seen.append({"path": line.split()[1].decode(), "headers": headers, "body": body, "connection": number})
            answer = answers.pop(0)
            writer.write(answer)
            await writer.drain()
            if b"Connection: close" in answer or (b"Content-Length" not in answer and b"chunked" not in answer):
                break
        writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    return server, server.sockets[0].getsockname()[1]


CHUNKED = b'5\r\n{"err\r\n6;x=1\r\nor": 1\r\n1\r\n}\r\n0\r\n\r\n'  # three chunks (one with an extension)


def test_bodies_of_each_framing_and_kept_connections() -> None:
    answers = [
        b'HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\n{"hits":[]}',
        b"HTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked\r\n\r\n" + CHUNKED,
        b"HTTP/1.1 201 Created\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok",
        b"HTTP/1.1 500 Internal Server Error\r\n\r\nread to the end",
    ]
    seen: list[dict[str, object]] = []

    async def scenario() -> list[tuple[int, str]]:
        server, port = await _serve(answers, seen)
        async with server:
            client = LoadClient("127.0.0.1", port, "k3y", keep_alive=True, timeout=5)
            return [await client.post(f"/v1/{n}", {"n": n}) for n in range(4)]

    results = asyncio.run(scenario())
    assert results == [(200, '{"hits":[]}'), (404, '{"error": 1}'), (201, "ok"), (500, "read to the end")]
    assert [s["body"] for s in seen] == [{"n": 0}, {"n": 1}, {"n": 2}, {"n": 3}]
    assert all(s["headers"]["authorization"] == "Bearer k3y" for s in seen)  # type: ignore[index]
    # Kept alive until the server said close: the fourth request needed a new connection.
    assert [s["connection"] for s in seen] == [1, 1, 1, 2]


def test_a_connection_per_request_without_keep_alive() -> None:
    answers = [b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}"] * 3
    seen: list[dict[str, object]] = []

    async def scenario() -> None:
        server, port = await _serve(list(answers), seen)
        async with server:
            client = LoadClient("127.0.0.1", port, "k", keep_alive=False, timeout=5)
            for n in range(3):
                assert await client.post("/v1/search", {"query": n}) == (200, "{}")

    asyncio.run(scenario())
    assert [s["connection"] for s in seen] == [1, 2, 3]
    assert all(s["headers"]["connection"] == "close" for s in seen)  # type: ignore[index]


def test_an_answer_that_is_not_http_is_an_error() -> None:
    async def scenario() -> None:
        server, port = await _serve([b"SSH-2.0-OpenSSH\r\n\r\n"], [])
        async with server:
            client = LoadClient("127.0.0.1", port, "k", keep_alive=True, timeout=5)
            with pytest.raises(LoadClientError, match="not an HTTP status line"):
                await client.post("/v1/search", {})

    asyncio.run(scenario())
