"""How errors become responses: every library error and every invalid request is a 4xx ``{"error", "field"}``.

A database kept busy by another process answers 503 (retry later); anything unforeseen is still logged and answered
with a JSON 500, but the tests and the fuzzing run hold that none occurs.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from sodamem.errors import (
    AmbiguousIdError,
    InputError,
    MessageConflictError,
    NotFoundError,
    SessionConflictError,
    SodaMemError,
    StoreBusyError,
)

log = logging.getLogger("sodamem.server")


BODY_STALL_SECONDS = 30.0


def error_response(status: int, message: str, field: str | None = None, **headers: str) -> JSONResponse:
    return JSONResponse({"error": message, "field": field}, status_code=status, headers=headers or None)


def status_of(exc: SodaMemError) -> int:
    if isinstance(exc, SessionConflictError | MessageConflictError | AmbiguousIdError):
        return 409
    if isinstance(exc, NotFoundError):
        return 404
    if isinstance(exc, StoreBusyError):
        return 503
    return 400


def install_error_handlers(app: FastAPI) -> None:
    async def library_error(_request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, SodaMemError)
        field = exc.field if isinstance(exc, InputError) else None
        message = exc.message if isinstance(exc, InputError) else str(exc)
        if isinstance(exc, InputError) and exc.session is not None:
            message = f"session {exc.session!r}: {message}"  # which one, of a body of several
        return error_response(status_of(exc), message, field)

    async def invalid_request(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        first: dict[str, Any] = exc.errors()[0] if exc.errors() else {}
        location = [str(part) for part in first.get("loc", ())]
        content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
        sent = request.headers.get("content-length", "0") not in ("", "0") or "transfer-encoding" in request.headers
        if location == ["body"] and content_type != "application/json" and (content_type or sent):
            # FastAPI reads a body of another type (or of none named) as text, and then says only that it is not
            # an object
            given = content_type or "none"
            return error_response(415, f"send a JSON object with Content-Type: application/json, not {given}")
        if first.get("type") == "json_invalid":
            location = ["body"]  # not a field: the body is not JSON (its loc is the character position)
        elif location and location[0] in ("body", "query", "path", "header", "cookie"):
            location = location[1:]  # where it was sent; the field's own name follows
        return error_response(422, str(first.get("msg", "invalid request")), ".".join(location) or None)

    async def http_error(_request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, StarletteHTTPException)
        headers = dict(exc.headers or {})
        return error_response(exc.status_code, str(exc.detail), None, **headers)

    async def unforeseen(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unhandled error on %s %s", request.method, request.url.path, exc_info=exc)
        return error_response(500, "internal error")

    app.add_exception_handler(SodaMemError, library_error)
    app.add_exception_handler(RequestValidationError, invalid_request)
    app.add_exception_handler(StarletteHTTPException, http_error)
    app.add_exception_handler(Exception, unforeseen)


class BodyLimit:
    """Refuse a request body over ``limit`` bytes with 413 before the application sees any of it: at once when its
    Content-Length says so, else as soon as the streamed bytes pass the limit. A body whose next bytes take longer
    than ``stall_seconds`` to come is refused with 408: a client that sends its headers and then stalls holds its
    connection no longer.

    The body is read here, whole, before the application is called: an error raised from inside the application's
    ``receive`` would reach its own error handlers first (a 500, or FastAPI's 400 for an unreadable JSON body). So
    it wraps the accept gate's ``SlotCounting``: a request holds a worker's slot only once its body is in."""

    def __init__(self, app: ASGIApp, limit: int, stall_seconds: float = BODY_STALL_SECONDS) -> None:
        self.app = app
        self.limit = limit
        self.stall_seconds = stall_seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or ()).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await self._refuse(scope, receive, send)
            return
        chunks: list[bytes] = []
        pending: list[Message] = []
        seen = 0
        while True:
            try:
                message = await asyncio.wait_for(receive(), self.stall_seconds)
            except TimeoutError:
                stalled = f"no body bytes came for {self.stall_seconds:g} s"
                await error_response(408, stalled, "body", Connection="close")(scope, receive, send)
                return
            if message["type"] != "http.request":  # the client left: the application hears of it
                pending.append(message)
                break
            chunk = message.get("body", b"")
            seen += len(chunk)
            if seen > self.limit:
                await self._refuse(scope, receive, send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                pending.append({"type": "http.request", "body": b"".join(chunks), "more_body": False})
                break

        if _declared_json(scope) and not _utf8(chunks):  # FastAPI would say only "error parsing the body"
            response = error_response(400, "the body is not UTF-8 text: JSON must be", "body")
            await response(scope, receive, send)
            return

        async def replay() -> Message:
            return pending.pop() if pending else await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = error_response(413, f"request body larger than {self.limit} bytes", "body", Connection="close")
        await response(scope, receive, send)


def _declared_json(scope: Scope) -> bool:
    content_type: bytes = dict(scope.get("headers") or ()).get(b"content-type", b"")
    return content_type.split(b";")[0].strip().lower() == b"application/json"


def _utf8(chunks: list[bytes]) -> bool:
    try:
        b"".join(chunks).decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True
