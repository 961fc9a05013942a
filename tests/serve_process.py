"""A real ``sodamem serve`` process for the slow tier's tests: started on a free loopback port with the fake
embedder, waited for until /healthz answers, and always stopped."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

from sodamem.keys import KeyRing
from sodamem.loopback import free_port
from sodamem.store.opening import open_store


@dataclass
class Server:
    base: str
    db: Path | str
    log: Path
    process: subprocess.Popen[bytes]

    def client(self, key: str | None = None) -> httpx.Client:
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        return httpx.Client(base_url=self.base, headers=headers, timeout=60)

    def log_text(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")


def create_key(db: Path | str, user: str) -> tuple[int, str]:
    store = open_store(db)
    try:
        record, key = KeyRing(store).create(user, label="tests")
    finally:
        store.close()
    return record.id, key


@contextmanager
def start_server(db: Path | str, *serve_args: str, log_dir: Path | None = None) -> Iterator[Server]:
    """``python -m sodamem --db DB serve --port P`` with the fake embedder; yields once /healthz answers and
    stops the process (terminate, then kill) however the block ends."""
    port = free_port()
    log = (log_dir or Path(db).parent) / f"server-{port}.log"
    # The fake embedder starts in a second; no LLM, so answers are the offline reader's.
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SODAMEM_LLM_", "OPENAI_"))}
    env["SODAMEM_EMBEDDER"] = "fake"
    command = [sys.executable, "-m", "sodamem", "--db", str(db), "serve", "--port", str(port), *serve_args]
    with log.open("wb") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env)
    server = Server(f"http://127.0.0.1:{port}", db, log, process)
    try:
        deadline = time.monotonic() + 90
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"the server exited with {process.returncode}:\n{server.log_text()}")
            try:
                if httpx.get(server.base + "/healthz", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"the server did not answer /healthz:\n{server.log_text()}")
            time.sleep(0.1)
        yield server
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=15)
