"""The loopback address local servers (a model server, a benchmarked `sodamem serve`) listen on."""

from __future__ import annotations

import socket

HOST = "127.0.0.1"


def free_port() -> int:
    """A TCP port free on loopback right now (the OS picks it; another process could still take it first)."""
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])
