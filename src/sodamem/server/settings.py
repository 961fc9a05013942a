"""What a server is started with. Passed to worker processes through the environment (uvicorn starts each worker
by importing an application factory, so the settings travel as ``SODAMEM_SERVE_*`` variables)."""

from __future__ import annotations

import ipaddress
import json
import os
import socket
from dataclasses import asdict, dataclass

from sodamem.errors import InputError
from sodamem.model import DEFAULT_USER

ENV_KEY = "SODAMEM_SERVE_SETTINGS"
DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024
# One worker per core, one request at a time each: on 2 cores 2 x 1 answered ~1.9x the searches of 1 x 4 (the
# Python of one worker runs on one core at a time; its threads mostly hand the GIL around), docs/bench.md "Serving".
MAX_DEFAULT_WORKERS = 8


def default_workers() -> int:
    """One worker per core this process may run on, at most ``MAX_DEFAULT_WORKERS`` (each loads its own model)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(MAX_DEFAULT_WORKERS, cores))


@dataclass(frozen=True, slots=True)
class ServeSettings:
    db: str
    host: str = "127.0.0.1"
    port: int = 8765
    workers: int = 1
    auth: bool = True  # False (``--no-auth``): every request is ``user``'s; only on a loopback address
    user: str = DEFAULT_USER  # whose memory an unauthenticated server (and the MCP stdio server) serves
    embedder: str = "auto"
    pool_size: int = 1  # Memory objects per worker process: requests served at once (each has its connection)
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES

    def check(self) -> ServeSettings:
        """Refuse settings that would expose a memory: no authentication on a non-loopback address."""
        if not self.auth and not is_loopback(self.host):
            raise InputError(f"--no-auth is allowed on a loopback address only, not {self.host!r}", field="host")
        if self.workers < 1 or self.pool_size < 1:
            raise InputError("must be at least 1", field="workers" if self.workers < 1 else "pool_size")
        return self

    def to_env(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_env(cls) -> ServeSettings:
        raw = os.environ.get(ENV_KEY)
        if not raw:
            raise RuntimeError(f"{ENV_KEY} is not set: start the server with `sodamem serve`")
        return cls(**json.loads(raw)).check()


def is_loopback(host: str) -> bool:
    """127.0.0.0/8, ::1, or a name that resolves only to those (``localhost``)."""
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        pass
    try:
        infos = socket.getaddrinfo(host, None)
    except OSError:
        return False
    return bool(infos) and all(ipaddress.ip_address(info[4][0]).is_loopback for info in infos)
