"""Workers that take a connection only while they can serve it (``sodamem serve --workers N``).

uvicorn's workers share one listening socket, and asyncio accepts every connection a worker is woken for, even while
the worker's request threads are all busy: the event loop is free while a request runs in a thread. With five
clients on two single-threaded workers, one worker would hold three requests in its queue while the other sat idle
(`bench serve`: ~13% of two cores idle at 2 x 1). Here a worker accepts only while it has a free request slot, so a
connection that no worker can take yet waits in the kernel's backlog until the first worker is free: one queue for
all workers, as gunicorn's sync workers have by accepting only between requests.

A slot is taken by each request from the end of its body (``BodyLimit`` reads it first) to its end, and by each
accepted connection until its first request starts (a connection that sends none within ``PENDING_SECONDS`` frees
it: one that sends its headers and stalls its body holds no slot). Requests under ``/mcp`` take none: an
agent's event stream stays open as long as the agent listens. The gate is a custom event loop (uvicorn's ``loop``
setting) whose ``create_server`` on a shared socket accepts through the gate; an ASGI middleware
(``RequestArrival``, then ``SlotCounting`` once the body is in) tells the loop's gate when requests come, start and
end.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send

PENDING_SECONDS = 1.0  # an accepted connection that sent no request by then no longer holds a slot
UNCOUNTED_PREFIXES = ("/mcp",)  # long-lived requests: they hold no request thread while they wait

Clock = Callable[[], float]


class AcceptGate:
    """The counting: whether a worker with ``slots`` request slots may accept another connection now."""

    def __init__(self, slots: int = 1, clock: Clock = time.monotonic) -> None:
        self.slots = slots
        self.active = 0  # counted requests started and not ended
        self._pending: deque[float] = deque()  # accept times of connections whose first request has not started
        self._clock = clock

    def open(self) -> bool:
        self._expire()
        return self.active + len(self._pending) < self.slots

    def accepted(self) -> None:
        self._pending.append(self._clock())

    def request_arrived(self) -> None:
        """A request's headers came: it frees its connection's pending slot (the oldest one: connections are served
        in the order they came), before its body is read."""
        if self._pending:
            self._pending.popleft()

    def request_started(self, *, counted: bool) -> None:
        """A request's body is in: when ``counted``, it holds a slot until it ends."""
        if counted:
            self.active += 1

    def request_ended(self) -> None:
        self.active = max(0, self.active - 1)

    def next_expiry(self) -> float | None:
        """When the oldest pending connection stops holding its slot (None: none is pending)."""
        return self._pending[0] + PENDING_SECONDS if self._pending else None

    def _expire(self) -> None:
        now = self._clock()
        while self._pending and self._pending[0] + PENDING_SECONDS <= now:
            self._pending.popleft()


class _GatedListener:
    """One listening socket, read by this loop only while the gate is open."""

    def __init__(self, loop: GatedEventLoop, sock: socket.socket, protocol_factory: Callable[[], Any]) -> None:
        self._loop = loop
        self._sock = sock
        self._factory = protocol_factory
        self._reading = False
        self._recheck: asyncio.TimerHandle | None = None
        self._connecting: set[asyncio.Task[Any]] = set()  # held so the tasks are not collected mid-way

    def update(self) -> None:
        if self._sock.fileno() == -1:  # the server was closed (shutdown): its reader is gone with it
            self._reading = False
            return
        gate = self._loop.accept_gate
        want = gate.open()
        if want and not self._reading:
            self._loop.add_reader(self._sock.fileno(), self._accept)
        elif not want and self._reading:
            self._loop.remove_reader(self._sock.fileno())
        self._reading = want
        expiry = gate.next_expiry()
        if not want and expiry is not None and self._recheck is None:
            self._recheck = self._loop.call_at(self._loop.time() + max(0.0, expiry - time.monotonic()), self._expired)

    def _expired(self) -> None:
        self._recheck = None
        self.update()

    def _accept(self) -> None:
        try:
            conn, _ = self._sock.accept()
        except (BlockingIOError, InterruptedError, ConnectionAbortedError):
            return  # another worker took it, or the client gave up
        except OSError:
            # Out of file descriptors (or alike): stop reading for a while rather than spin, as asyncio does.
            self._loop.remove_reader(self._sock.fileno())
            self._reading = False
            self._loop.call_later(PENDING_SECONDS, self.update)
            return
        conn.setblocking(False)
        self._loop.accept_gate.accepted()
        task = self._loop.create_task(self._connect(conn))
        self._connecting.add(task)
        task.add_done_callback(self._connecting.discard)
        self.update()

    async def _connect(self, conn: socket.socket) -> None:
        try:
            await self._loop.connect_accepted_socket(self._factory, conn)
        except OSError:
            conn.close()


class GatedEventLoop(asyncio.SelectorEventLoop):
    """asyncio's loop, except that a server on a given (shared) socket accepts through ``accept_gate``."""

    def __init__(self) -> None:
        super().__init__()
        self.accept_gate = AcceptGate()
        self._listeners: list[_GatedListener] = []

    async def create_server(  # the same signature: keywords are passed through
        self, protocol_factory: Callable[[], Any], host: Any = None, port: Any = None, **kwargs: Any
    ) -> asyncio.Server:
        sock = kwargs.get("sock")
        if sock is None or kwargs.get("ssl") is not None or not kwargs.get("start_serving", True):
            return await super().create_server(protocol_factory, host, port, **kwargs)
        server = await super().create_server(protocol_factory, host, port, **{**kwargs, "start_serving": False})
        sock.listen(kwargs.get("backlog", 100))
        listener = _GatedListener(self, sock, protocol_factory)
        self._listeners.append(listener)
        listener.update()
        return server

    def gate_changed(self) -> None:
        for listener in self._listeners:
            listener.update()


class RequestArrival:
    """ASGI middleware outside ``BodyLimit``: tells the running loop's gate that a request's headers came (its
    connection's pending slot is free), before its body is read. Anywhere else it only passes requests through."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        loop = asyncio.get_running_loop()
        if scope["type"] == "http" and isinstance(loop, GatedEventLoop):
            loop.accept_gate.request_arrived()
            loop.gate_changed()
        await self.app(scope, receive, send)


class SlotCounting:
    """ASGI middleware inside ``BodyLimit``: tells the running loop's gate (when it is a ``GatedEventLoop``) when
    requests start (their body read) and end. Anywhere else it only passes requests through."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        loop = asyncio.get_running_loop()
        if scope["type"] != "http" or not isinstance(loop, GatedEventLoop):
            await self.app(scope, receive, send)
            return
        counted = not str(scope.get("path", "")).startswith(UNCOUNTED_PREFIXES)
        loop.accept_gate.request_started(counted=counted)
        loop.gate_changed()
        try:
            await self.app(scope, receive, send)
        finally:
            if counted:
                loop.accept_gate.request_ended()
                with contextlib.suppress(RuntimeError):  # a loop closing under a cancelled request
                    loop.gate_changed()
