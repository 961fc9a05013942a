"""The accept gate of `sodamem serve`'s workers: a worker takes a connection only while it can serve it."""

from __future__ import annotations

import asyncio
import socket

from sodamem.server.accept_gate import PENDING_SECONDS, AcceptGate, GatedEventLoop


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_slot_is_held_from_accept_to_the_end_of_the_request() -> None:
    clock = Clock()
    gate = AcceptGate(slots=2, clock=clock)
    assert gate.open()
    gate.accepted()
    assert gate.open()  # one slot left
    gate.accepted()
    assert not gate.open()
    gate.request_arrived()  # the first connection's request: its pending slot is free...
    assert gate.open()
    gate.request_started(counted=True)  # ...and once its body is in, the request holds one
    assert not gate.open()
    gate.request_ended()
    assert gate.open()


def test_an_uncounted_request_frees_its_connection_and_holds_nothing() -> None:
    gate = AcceptGate(slots=1, clock=Clock())
    gate.accepted()
    assert not gate.open()
    gate.request_arrived()
    gate.request_started(counted=False)  # an MCP event stream
    assert gate.open() and gate.active == 0


def test_a_silent_connection_stops_holding_its_slot() -> None:
    clock = Clock()
    gate = AcceptGate(slots=1, clock=clock)
    gate.accepted()
    assert not gate.open() and gate.next_expiry() == clock.now + PENDING_SECONDS
    clock.now += PENDING_SECONDS
    assert gate.open() and gate.next_expiry() is None


def test_a_busy_worker_leaves_new_connections_to_the_others() -> None:
    """A real socket on a GatedEventLoop with one slot: while a request is being served, the next connection stays
    in the kernel's backlog (another worker would take it); it is accepted once the request ends."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.setblocking(False)
    port = listener.getsockname()[1]
    accepted: list[str] = []

    class Recorder(asyncio.Protocol):
        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            accepted.append("conn")

    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        assert isinstance(loop, GatedEventLoop)
        server = await loop.create_server(Recorder, sock=listener, backlog=16)
        first = socket.create_connection(("127.0.0.1", port))
        await asyncio.sleep(0.1)
        assert accepted == ["conn"]
        loop.accept_gate.request_arrived()  # what RequestArrival and SlotCounting do for its request
        loop.accept_gate.request_started(counted=True)
        loop.gate_changed()
        second = socket.create_connection(("127.0.0.1", port))  # the kernel completes it; nobody accepts it
        await asyncio.sleep(0.2)
        assert accepted == ["conn"]
        loop.accept_gate.request_ended()
        loop.gate_changed()
        await asyncio.sleep(0.1)
        assert accepted == ["conn", "conn"]
        server.close()
        await server.wait_closed()
        loop.gate_changed()  # after a shutdown the gate no longer touches the closed socket
        first.close()
        second.close()

    with asyncio.Runner(loop_factory=GatedEventLoop) as runner:
        runner.run(scenario())
