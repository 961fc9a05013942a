"""Any chat GGUF behind the same client as a hosted API: xllamacpp's OpenAI-compatible server on a loopback port.

``SODAMEM_LLM_GGUF`` names a GGUF file, or a model of ``model_parts.MODELS`` once fetched (``sodamem models fetch
qwen2.5-coder-0.5b``). With it set, ``LLMConfig.from_env()`` points the client at a local server instead of
``SODAMEM_LLM_BASE_URL``: ``local_settings`` starts it on first use, once per process and model, as a child process
(``python -m sodamem.llm.local_child``) that loads the model with xllamacpp (llama.cpp's C++ server: JSON-schema
constrained output, token usage in every reply) and listens on 127.0.0.1. Its model is named ``local/<name>``,
which ``prices.py`` prices at $0 (the tokens are still counted). The child is stopped at exit, and stops by itself
when its parent dies (its stdin closes). ``SODAMEM_LLM_THREADS`` (default: half the cores) and ``SODAMEM_LLM_CTX``
(default 8192 tokens) tune it.

Nothing here runs at import time; xllamacpp is imported only in the child.
"""

from __future__ import annotations

import atexit
import contextlib
import importlib.util
import logging
import os
import queue
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from sodamem.cache_dirs import model_cache
from sodamem.errors import MissingDependencyError, SodaMemError
from sodamem.llm.child_clock import RunningClock
from sodamem.llm.config import ENV_BASE_URL, ENV_GGUF, ENV_MODEL, LLMConfigError
from sodamem.llm.local_child import READY_PREFIX
from sodamem.llm.model_parts import MODELS, cached_path
from sodamem.llm.prices import LOCAL_PREFIX
from sodamem.loopback import HOST, free_port

log = logging.getLogger(__name__)

ENV_THREADS = "SODAMEM_LLM_THREADS"
ENV_CTX = "SODAMEM_LLM_CTX"
DEFAULT_CTX = 8192
# Client settings for a local model (``LLMConfig.from_env`` overrides still win): a CPU reads a long prompt slowly,
# and a small model can ramble (Qwen2.5-0.5B filled a facts list up to a 1,024-token cap: ~3 minutes on a busy CPU).
LOCAL_TIMEOUT_S = 600.0
LOCAL_MAX_TOKENS = 512
READY_TIMEOUT_S = 300.0
_GGUF_MAGIC = b"GGUF"


class LocalServerError(SodaMemError):
    """The local model server could not be started (the message quotes the end of its log)."""


@dataclass(frozen=True, slots=True)
class LocalModel:
    path: Path  # absolute
    alias: str  # the model name the server reports and the client sends: "local/<name>"


def resolve_gguf(value: str, *, cache: Path | None = None) -> LocalModel:
    """A GGUF path, or the name of a fetched ``model_parts`` model, as a ``LocalModel``; ``LLMConfigError`` else."""
    text = value.strip()
    known = MODELS.get(text.lower())
    if known is not None:
        path = cached_path(known, cache)
        if path is None:
            raise LLMConfigError(
                f"{ENV_GGUF}={text}: that model is not fetched yet; run `sodamem models fetch {known.name}` "
                f"(or `make local-llm`) first"
            )
        return LocalModel(path.resolve(), LOCAL_PREFIX + known.name)
    path = Path(text).expanduser()
    if not path.is_file():
        raise LLMConfigError(
            f"{ENV_GGUF}={text!r} is neither a file nor a known model name ({', '.join(sorted(MODELS))})"
        )
    with path.open("rb") as handle:
        if handle.read(4) != _GGUF_MAGIC:
            raise LLMConfigError(f"{ENV_GGUF}={text!r} is not a GGUF file")
    return LocalModel(path.resolve(), LOCAL_PREFIX + path.stem)


def default_threads() -> int:
    """Half the cores: llama.cpp's threads wait on each other at every step, so one preempted by another process
    stalls them all (on 2 busy shared cores, Qwen2.5-0.5B took 9.7 s for a reply with 2 threads, 2.3 s with 1); on
    larger machines half the logical cores is usually the physical ones."""
    return max(1, (os.cpu_count() or 2) // 2)


class LocalServer:
    """One child process serving one GGUF on loopback. ``start()`` is idempotent and thread-safe; ``stop()`` too.

    ``port=0`` lets the child take any free port (reported back on its stdout); a fixed ``port`` makes ``base_url``
    known before the start (when it is taken by then, the start falls back to any free port).
    """

    def __init__(
        self,
        model: LocalModel,
        *,
        port: int = 0,
        threads: int | None = None,
        ctx: int = DEFAULT_CTX,
        ready_timeout_s: float = READY_TIMEOUT_S,
        python: str = sys.executable,
    ) -> None:
        self.model = model
        self.threads = threads or default_threads()
        self.ctx = ctx
        self.ready_timeout_s = ready_timeout_s
        self._python = python
        self._port = port
        self._address: str | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._log: IO[bytes] | None = None
        self.log_path: Path | None = None
        self._lock = threading.Lock()

    def reserve_port(self, port: int) -> None:
        """Fix the port of a server that has none yet, so that ``base_url`` is known before the start."""
        with self._lock:
            if not self._port and self._address is None:
                self._port = port

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None and self._address is not None

    @property
    def pid(self) -> int | None:
        """The child's process id while it is there."""
        return self._process.pid if self._process is not None else None

    @property
    def base_url(self) -> str:
        """The OpenAI-compatible base URL (``.../v1``): the server's, else the one a fixed port will give."""
        if self._address is not None:
            return f"{self._address}/v1"
        if self._port:
            return f"http://{HOST}:{self._port}/v1"
        raise LocalServerError("the local model server has no address yet: start() it first")

    def start(self) -> str:
        """Start the child unless it runs; its base URL once it answers ``/health``."""
        with self._lock:
            if self.running:
                return self.base_url
            self._stop_locked()
            if importlib.util.find_spec("xllamacpp") is None:
                raise MissingDependencyError(
                    f"{ENV_GGUF} needs the 'xllamacpp' package: pip install 'sodamem[llm-local]' (or make llm-local)"
                )
            started = time.monotonic()
            try:
                self._spawn(self._port)
            except LocalServerError:
                if not self._port:
                    raise
                log.warning("local model server: port %d failed; trying any free port", self._port)
                self._spawn(0)
            log.info(
                "local model server for %s ready at %s in %.1f s",
                self.model.path.name,
                self._address,
                time.monotonic() - started,
            )
            return self.base_url

    def _spawn(self, port: int) -> None:
        self._stop_locked()
        fd, log_name = tempfile.mkstemp(prefix="sodamem-llm-", suffix=".log")
        self.log_path = Path(log_name)
        self._log = os.fdopen(fd, "wb")
        command = [self._python, "-m", "sodamem.llm.local_child", "--model", str(self.model.path)]
        command += ["--alias", self.model.alias, "--port", str(port), "--ctx", str(self.ctx)]
        command += ["--threads", str(self.threads)]
        self._process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._log, start_new_session=True
        )
        try:
            address = self._await_address(self._process)
            self._await_health(address, self._process.pid)
        except LocalServerError:
            self._stop_locked(keep_log=True)
            raise
        self._address = address

    def _await_address(self, process: subprocess.Popen[bytes]) -> str:
        lines: queue.Queue[str] = queue.Queue()
        stdout = process.stdout
        assert stdout is not None

        def read() -> None:  # a thread: a pipe read has no timeout
            for raw in stdout:
                lines.put(raw.decode("utf-8", "replace").strip())

        threading.Thread(target=read, name="local-llm-stdout", daemon=True).start()
        clock = RunningClock(process.pid, self.ready_timeout_s)  # a paused child's wait does not count
        while not clock.expired():
            try:
                line = lines.get(timeout=0.2)
            except queue.Empty:
                if process.poll() is not None:
                    raise LocalServerError(
                        f"the local model server for {self.model.path.name} exited with {process.returncode} "
                        f"before listening: {self._log_tail()}"
                    ) from None
                continue
            if line.startswith(READY_PREFIX):
                return line[len(READY_PREFIX) :].rstrip("/")
        raise LocalServerError(
            f"the local model server for {self.model.path.name} did not listen within {self.ready_timeout_s:.0f} s "
            f"of running: {self._log_tail()}"
        )

    def _await_health(self, address: str, pid: int) -> None:
        clock = RunningClock(pid, self.ready_timeout_s)
        while True:
            try:
                with urllib.request.urlopen(f"{address}/health", timeout=5) as response:
                    if response.status == 200:
                        return
            except (urllib.error.URLError, OSError):
                pass  # 503 while loading, or not accepting yet
            if clock.expired():
                raise LocalServerError(f"the local model server at {address} never became healthy: {self._log_tail()}")
            time.sleep(0.2)

    def _log_tail(self, limit: int = 1500) -> str:
        if self._log is not None:
            self._log.flush()
        try:
            text = self.log_path.read_text("utf-8", "replace") if self.log_path else ""
        except OSError:
            text = ""
        lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
        errors = [line for line in lines if " E " in line[:20]]  # llama.cpp's error lines: "0.00.005.117 E ..."
        tail = " | ".join([*errors[-4:], *lines[-1:]] if errors else lines[-8:])
        where = f" (log: {self.log_path})" if self.log_path else ""
        return (tail[-limit:] or "no output") + where

    def stop(self) -> None:
        with self._lock:
            self._stop_locked()

    def _stop_locked(self, *, keep_log: bool = False) -> None:
        process, self._process, self._address = self._process, None, None
        if process is not None:
            if process.stdin is not None:  # EOF: the child shuts its server down and exits
                with contextlib.suppress(OSError):
                    process.stdin.close()
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.terminate()
                try:
                    process.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait(timeout=5)
            if process.stdout is not None:
                process.stdout.close()
        if self._log is not None:
            self._log.close()
            self._log = None
        if self.log_path is not None and not keep_log:
            with contextlib.suppress(OSError):
                self.log_path.unlink()
            self.log_path = None

    def __enter__(self) -> LocalServer:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()


# The servers this process started, by model file: reused by every client, stopped at exit.
_servers: dict[Path, LocalServer] = {}
_servers_lock = threading.Lock()


def server_for(model: LocalModel, *, port: int = 0, threads: int | None = None, ctx: int = DEFAULT_CTX) -> LocalServer:
    """This process's server for ``model`` (created, not started, on the first call; later settings are ignored)."""
    with _servers_lock:
        server = _servers.get(model.path)
        if server is None:
            server = _servers[model.path] = LocalServer(model, port=port, threads=threads, ctx=ctx)
            atexit.unregister(stop_all)  # registered once, however many servers
            atexit.register(stop_all)
        elif port:
            server.reserve_port(port)
        return server


def stop_all() -> None:
    """Stop every server this process started (run at exit)."""
    with _servers_lock:
        servers = list(_servers.values())
        _servers.clear()
    for server in servers:
        server.stop()


def _int_env(env: Mapping[str, str], name: str) -> int | None:
    raw = env.get(name, "").strip()
    if not raw:
        return None
    try:
        value = int(raw)
    except ValueError:
        raise LLMConfigError(f"{name} must be a whole number, got {raw!r}") from None
    if value <= 0:
        raise LLMConfigError(f"{name} must be positive, got {value}")
    return value


def _server_from_env(env: Mapping[str, str], *, port: int = 0) -> LocalServer | None:
    value = env.get(ENV_GGUF, "").strip()
    if not value:
        return None
    model = resolve_gguf(value, cache=model_cache(env))
    ctx = _int_env(env, ENV_CTX) or DEFAULT_CTX
    return server_for(model, port=port, threads=_int_env(env, ENV_THREADS), ctx=ctx)


def local_settings(env: Mapping[str, str], *, start: bool = True) -> dict[str, Any] | None:
    """``LLMConfig`` settings for ``SODAMEM_LLM_GGUF`` (the server started if need be), or None when it is unset.
    ``start=False``: the address the server will have (a port reserved now), with nothing started."""
    server = _server_from_env(env)
    if server is None:
        return None
    if not start and not server.running:
        server.reserve_port(free_port())
    return {
        "base_url": server.start() if start else server.base_url,
        "model": server.model.alias,
        "timeout_s": LOCAL_TIMEOUT_S,
        "max_tokens": LOCAL_MAX_TOKENS,
    }


def announce_in_env(value: str, environ: MutableMapping[str, str] | None = None) -> LocalServer:
    """Select a local model for this process and its children, without starting it: ``SODAMEM_LLM_GGUF`` is set to
    its file, and ``SODAMEM_LLM_BASE_URL`` / ``SODAMEM_LLM_MODEL`` to the address it will have (a port chosen now)
    and its name, for code that looks only at those two. The server still starts on first use."""
    target = os.environ if environ is None else environ
    server = _server_from_env({**target, ENV_GGUF: value}, port=free_port())
    assert server is not None
    target[ENV_GGUF] = str(server.model.path)
    target[ENV_BASE_URL] = server.base_url
    target[ENV_MODEL] = server.model.alias
    return server
