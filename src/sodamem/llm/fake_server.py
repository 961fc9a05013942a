"""A FAKE OpenAI-compatible chat server, for tests: real HTTP on loopback, scripted replies, recorded requests.

    with FakeChatServer([FakeReply.json({"facts": []}), FakeReply.error(429)]) as server:
        client = ChatClient(LLMConfig(base_url=server.base_url, model="fake"))
        ...
        server.requests  # every request body it got, in order

It is not a model: it answers ``POST /v1/chat/completions`` with the scripted ``FakeReply`` items in order (a JSON
reply, raw text, an HTTP error, a delay), then with ``responder(request_json)`` when the script is used up (HTTP 500
when there is no responder). ``reject_json_schema=True`` answers 400 to ``response_format`` type ``json_schema``
without using up a scripted item, as llama.cpp-style servers do.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any

Responder = Callable[[dict[str, Any]], "FakeReply | str | dict[str, Any] | list[Any]"]


@dataclass(frozen=True, slots=True)
class FakeReply:
    """One scripted answer: ``content`` is the assistant message text; ``status`` != 200 is an HTTP error."""

    content: str = ""
    status: int = 200
    delay_s: float = 0.0
    prompt_tokens: int = 10
    completion_tokens: int = 5
    error_message: str = ""

    @classmethod
    def json(cls, value: Any, **kwargs: Any) -> FakeReply:
        """A reply whose content is ``value`` serialised as JSON."""
        return cls(content=json.dumps(value), **kwargs)

    @classmethod
    def text(cls, content: str, **kwargs: Any) -> FakeReply:
        """A reply with this raw content (e.g. invalid JSON)."""
        return cls(content=content, **kwargs)

    @classmethod
    def error(cls, status: int, message: str = "") -> FakeReply:
        """An HTTP error (429, 500, ...) with an OpenAI-style error body."""
        return cls(status=status, error_message=message or f"fake error {status}")

    @classmethod
    def slow(cls, delay_s: float, content: str = "{}") -> FakeReply:
        """A reply sent only after ``delay_s`` seconds (to trigger a client timeout)."""
        return cls(content=content, delay_s=delay_s)


@dataclass(frozen=True, slots=True)
class RecordedRequest:
    method: str
    path: str
    headers: dict[str, str]  # names lower-cased
    body: dict[str, Any] = field(default_factory=dict)
    raw_body: str = ""


class FakeChatServer:
    """The fake server (see the module docstring). A context manager; ``base_url`` ends in ``/v1``."""

    def __init__(
        self,
        script: Iterable[FakeReply] = (),
        *,
        responder: Responder | None = None,
        reject_json_schema: bool = False,
        model: str = "fake-model",
    ) -> None:
        self.script: list[FakeReply] = list(script)
        self.responder = responder
        self.reject_json_schema = reject_json_schema
        self.model = model
        self.requests: list[RecordedRequest] = []
        self._lock = threading.Lock()
        self._closing = threading.Event()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle ---------------------------------------------------------------------------------------------

    def start(self) -> FakeChatServer:
        if self._httpd is not None:
            return self
        handler = _make_handler(self)
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, name="fake-chat-server", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._httpd is None:
            return
        self._closing.set()  # wakes delayed replies
        self._httpd.shutdown()
        self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._httpd = None
        self._thread = None

    def __enter__(self) -> FakeChatServer:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    @property
    def port(self) -> int:
        if self._httpd is None:
            raise RuntimeError("the fake server is not running")
        return int(self._httpd.server_address[1])

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    # -- scripting ---------------------------------------------------------------------------------------------

    @property
    def chat_requests(self) -> list[RecordedRequest]:
        """The recorded chat-completion requests (what tests usually assert on)."""
        with self._lock:
            return [r for r in self.requests if r.path.rstrip("/").endswith("/chat/completions")]

    def _record(self, request: RecordedRequest) -> None:
        with self._lock:
            self.requests.append(request)

    def _next_reply(self, body: dict[str, Any]) -> FakeReply:
        with self._lock:
            if self.script:
                return self.script.pop(0)
        if self.responder is None:
            return FakeReply.error(500, "fake server: script exhausted and no responder")
        return _as_reply(self.responder(body))

    def _wait(self, seconds: float) -> None:
        self._closing.wait(seconds)


def _as_reply(value: FakeReply | str | dict[str, Any] | list[Any]) -> FakeReply:
    if isinstance(value, FakeReply):
        return value
    if isinstance(value, str):
        return FakeReply.text(value)
    return FakeReply.json(value)


def _make_handler(server: FakeChatServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.0"

        def log_message(self, format: str, *args: Any) -> None:  # silence the default stderr log
            return

        def do_GET(self) -> None:
            server._record(RecordedRequest("GET", self.path, self._headers()))
            if self.path.rstrip("/").endswith("/models"):
                self._send(200, {"object": "list", "data": [{"id": server.model, "object": "model"}]})
            else:
                self._send(404, _error_body(f"no route GET {self.path}", "not_found"))

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length).decode("utf-8", errors="replace") if length else ""
            try:
                parsed = json.loads(raw) if raw else {}
                body: dict[str, Any] = parsed if isinstance(parsed, dict) else {}
            except json.JSONDecodeError:
                body = {}
            server._record(RecordedRequest("POST", self.path, self._headers(), body, raw))
            if not self.path.rstrip("/").endswith("/chat/completions"):
                self._send(404, _error_body(f"no route POST {self.path}", "not_found"))
                return
            response_format = body.get("response_format")
            if (
                server.reject_json_schema
                and isinstance(response_format, dict)
                and response_format.get("type") == "json_schema"
            ):
                message = "response_format type 'json_schema' is not supported; use 'json_object' with 'schema'"
                self._send(400, _error_body(message, "invalid_request_error", param="response_format"))
                return
            reply = server._next_reply(body)
            if reply.delay_s > 0:
                server._wait(reply.delay_s)
            if reply.status != 200:
                kind = "rate_limit_error" if reply.status == 429 else "server_error"
                self._send(reply.status, _error_body(reply.error_message, kind))
                return
            self._send(200, _completion(body, reply, server.model))

        def _headers(self) -> dict[str, str]:
            return {name.lower(): value for name, value in self.headers.items()}

        def _send(self, status: int, payload: dict[str, Any]) -> None:
            data = json.dumps(payload).encode()
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):  # the client gave up (timeout): nothing to do
                pass

    return Handler


def _error_body(message: str, kind: str, *, param: str | None = None) -> dict[str, Any]:
    return {"error": {"message": message, "type": kind, "param": param, "code": None}}


def _completion(request: dict[str, Any], reply: FakeReply, model: str) -> dict[str, Any]:
    return {
        "id": f"chatcmpl-fake-{time.monotonic_ns()}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": str(request.get("model") or model),
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": reply.content},
                "finish_reason": "stop",
                "logprobs": None,
            }
        ],
        "usage": {
            "prompt_tokens": reply.prompt_tokens,
            "completion_tokens": reply.completion_tokens,
            "total_tokens": reply.prompt_tokens + reply.completion_tokens,
        },
    }
