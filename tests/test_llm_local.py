"""Local models (``SODAMEM_LLM_GGUF`` / ``--llm-gguf``): resolving them, pricing them, and (slow tier) serving them.

The fast tests need neither xllamacpp nor a model: they check the configuration around the server (a tiny file with
the GGUF magic stands in for a model that is never loaded). The slow ones start the real server through
``sodamem.llm.local``: SmolLM2-135M (``make llm-local``) for the protocol, and Qwen2.5-Coder-0.5B end to end through
``sodamem ask`` when ``make local-llm`` cached it; each skips, saying why, when its parts are absent.
"""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest
from pydantic import BaseModel

from sodamem import Memory, Session, Turn
from sodamem.cli import main
from sodamem.llm.client import ChatClient
from sodamem.llm.config import LLMConfig, LLMConfigError, llm_configured
from sodamem.llm.local import (
    LOCAL_MAX_TOKENS,
    LOCAL_TIMEOUT_S,
    LocalModel,
    LocalServer,
    LocalServerError,
    announce_in_env,
    resolve_gguf,
    server_for,
    stop_all,
)
from sodamem.llm.prices import cost_usd, price_table
from tests.llama_local import QWEN_05B, missing_for_qwen, missing_for_smollm2, smollm2_path

LLM_VARIABLES = ("SODAMEM_LLM_GGUF", "SODAMEM_LLM_BASE_URL", "SODAMEM_LLM_MODEL", "OPENAI_BASE_URL")


@pytest.fixture(autouse=True)
def no_llm_settings(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    """Each test starts with no LLM configured and an empty model cache, and leaves no local server running."""
    for name in LLM_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("SODAMEM_MODEL_CACHE", str(tmp_path / "models"))
    yield
    stop_all()


def fake_gguf(path: Path) -> Path:
    path.write_bytes(b"GGUF" + bytes(60))  # the magic only: enough to be accepted, never loaded
    return path


# -- fast: configuration -----------------------------------------------------------------------------------------


def test_resolve_a_file_or_a_fetched_name(tmp_path: Path) -> None:
    gguf = fake_gguf(tmp_path / "My-Model.Q4.gguf")
    assert resolve_gguf(str(gguf)) == LocalModel(gguf.resolve(), "local/My-Model.Q4")

    with pytest.raises(LLMConfigError, match=r"not fetched yet; run `sodamem models fetch qwen2\.5-coder-0\.5b`"):
        resolve_gguf("qwen2.5-coder-0.5b")
    cache = tmp_path / "models"
    cache.mkdir()
    (cache / "qwen2.5-coder-0.5b.gguf").write_bytes(b"GGUF")  # the wrong size: a partial copy is not a model
    with pytest.raises(LLMConfigError, match="not fetched yet"):
        resolve_gguf("qwen2.5-coder-0.5b")

    with pytest.raises(LLMConfigError, match=r"neither a file nor a known model name \(qwen2\.5-coder-0\.5b, "):
        resolve_gguf(str(tmp_path / "missing.gguf"))
    not_gguf = tmp_path / "notes.txt"
    not_gguf.write_text("hello")
    with pytest.raises(LLMConfigError, match="not a GGUF file"):
        resolve_gguf(str(not_gguf))


def test_local_models_cost_nothing_but_an_exact_price_wins() -> None:
    free = cost_usd("local/qwen2.5-coder-0.5b", 12_000, 800)
    assert free.known and free.usd == 0.0 and free.priced_as == "local/"
    charged = cost_usd("local/mine", 1_000_000, 0, prices=price_table({"local/mine": (0.01, 0.02)}))
    assert charged.known and charged.usd == pytest.approx(0.01)
    assert not cost_usd("smollm2", 10, 10).known  # a bare name is still unpriced


def test_llm_configured_by_gguf_alone() -> None:
    assert not llm_configured({})
    assert not llm_configured({"SODAMEM_LLM_BASE_URL": "http://127.0.0.1:9/v1"})
    assert llm_configured({"SODAMEM_LLM_BASE_URL": "http://127.0.0.1:9/v1", "SODAMEM_LLM_MODEL": "m"})
    assert llm_configured({"SODAMEM_LLM_GGUF": "qwen2.5-coder-0.5b"})


def test_announce_names_the_server_without_starting_it(tmp_path: Path) -> None:
    gguf = fake_gguf(tmp_path / "tiny.gguf")
    env = {"SODAMEM_LLM_BASE_URL": "https://api.example.invalid/v1", "SODAMEM_LLM_MODEL": "gpt-4o-mini"}
    server = announce_in_env(str(gguf), env)
    assert not server.running  # lazy: nothing is loaded until an LLM is asked
    assert env["SODAMEM_LLM_GGUF"] == str(gguf.resolve())
    assert env["SODAMEM_LLM_MODEL"] == "local/tiny"
    assert env["SODAMEM_LLM_BASE_URL"].startswith("http://127.0.0.1:") and env["SODAMEM_LLM_BASE_URL"].endswith("/v1")
    assert env["SODAMEM_LLM_BASE_URL"] == server.base_url
    assert announce_in_env(str(gguf), dict(env)) is server  # one server per model file and process


def test_a_replay_only_run_configures_a_local_model_without_starting_it(tmp_path: Path) -> None:
    """``--replay-only`` never asks a server, so a GGUF in the environment must not start one (with the fake GGUF
    here, a start would fail: the file is no model)."""
    from sodamem.bench.qa_llm import open_llm
    from sodamem.llm.client import LLMRequestError

    gguf = fake_gguf(tmp_path / "tiny.gguf")
    env = {"SODAMEM_LLM_GGUF": str(gguf)}
    config = LLMConfig.from_env(env, start_local=False)
    assert config.model == "local/tiny" and config.base_url.startswith("http://127.0.0.1:")
    assert not server_for(resolve_gguf(str(gguf))).running
    with open_llm("llm", judge=False, replay=tmp_path / "replies.db", replay_only=True, env=env) as setup:
        assert setup.answer is not None
        with pytest.raises(LLMRequestError, match="replay-only"):  # a miss: no recorded reply, and no server asked
            setup.answer.complete_json([{"role": "user", "content": "hi"}], _Reply, name="probe")
    assert not server_for(resolve_gguf(str(gguf))).running


class _Reply(BaseModel):
    text: str


def test_gguf_overrides_and_bad_settings(tmp_path: Path) -> None:
    env = {"SODAMEM_LLM_GGUF": str(tmp_path / "missing.gguf"), "SODAMEM_LLM_BASE_URL": "http://127.0.0.1:9/v1"}
    with pytest.raises(LLMConfigError, match="neither a file nor a known model name"):
        LLMConfig.from_env(env)
    # An explicit base_url wins over the GGUF: nothing is resolved or started.
    config = LLMConfig.from_env(env, base_url="http://127.0.0.1:8/v1", model="m")
    assert (config.base_url, config.model) == ("http://127.0.0.1:8/v1", "m")
    gguf = fake_gguf(tmp_path / "tiny.gguf")
    with pytest.raises(LLMConfigError, match="SODAMEM_LLM_THREADS must be a whole number"):
        LLMConfig.from_env({"SODAMEM_LLM_GGUF": str(gguf), "SODAMEM_LLM_THREADS": "two"})


def test_cli_rejects_a_bad_gguf_before_doing_anything(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--db", str(tmp_path / "m.db"), "--llm-gguf", str(tmp_path / "nope.gguf"), "stats"])
    assert exit_info.value.code == 2
    assert "nope.gguf' is neither a file nor a known model name" in capsys.readouterr().err
    assert not (tmp_path / "m.db").exists()


# -- slow: the real server ---------------------------------------------------------------------------------------


class Person(BaseModel):
    name: str
    age: int


@pytest.mark.slow
def test_gguf_from_env_serves_json_through_the_client(tmp_path: Path) -> None:
    reason = missing_for_smollm2()
    if reason:
        pytest.skip(reason)
    env = {"SODAMEM_LLM_GGUF": str(smollm2_path()), "SODAMEM_LLM_CTX": "2048"}
    config = LLMConfig.from_env(env)
    assert config.model == "local/SmolLM2-135M-Instruct.Q4_1" and config.base_url.startswith("http://127.0.0.1:")
    assert (config.timeout_s, config.max_tokens) == (LOCAL_TIMEOUT_S, LOCAL_MAX_TOKENS)
    assert LLMConfig.from_env(env, max_tokens=64).base_url == config.base_url  # the same server, reused
    messages = [{"role": "user", "content": "Bob is 42 years old. Reply with a JSON object: his name and age."}]
    with ChatClient(config) as client:
        reply = client.complete_json(messages, Person, name="person")
        assert client.usage.prompt_tokens > 0 and client.usage.completion_tokens > 0
    assert reply.response_format == "json_schema"  # the server takes OpenAI's structured-output form
    assert isinstance(reply.value, Person)
    stop_all()
    with pytest.raises(urllib.error.URLError):
        urllib.request.urlopen(config.base_url.removesuffix("/v1") + "/health", timeout=2)


@pytest.mark.slow
def test_a_broken_model_fails_with_the_server_log(tmp_path: Path) -> None:
    if importlib.util.find_spec("xllamacpp") is None:
        pytest.skip("needs xllamacpp: run `make llm-local`")
    broken = fake_gguf(tmp_path / "broken.gguf")
    server = LocalServer(LocalModel(broken, "local/broken"), ready_timeout_s=120)
    with pytest.raises(LocalServerError, match=r"exited with .* before listening") as error:
        server.start()
    assert "failed to load model" in str(error.value) and not server.running  # llama.cpp's own reason
    log = server.log_path
    assert log is not None and f"(log: {log})" in str(error.value) and log.is_file()  # kept for a failed start
    server.stop()
    assert not log.exists()


@pytest.mark.slow
def test_the_server_dies_with_its_parent(tmp_path: Path) -> None:
    """A parent killed without any cleanup (no atexit) still takes its model server down: the child's stdin closes."""
    reason = missing_for_smollm2()
    if reason:
        pytest.skip(reason)
    script = textwrap.dedent(
        f"""
        import os, sys
        from pathlib import Path
        from sodamem.llm.local import LocalModel, LocalServer
        server = LocalServer(LocalModel(Path({str(smollm2_path())!r}), "local/smollm2"), ctx=1024)
        print(server.start(), server.pid, flush=True)
        os._exit(0)  # no atexit, no stop()
        """
    )
    env = {**os.environ, "TMPDIR": str(tmp_path)}  # its log file, left behind by the killed parent, lands here
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=300, check=True
    )
    base_url, pid = done.stdout.split()
    deadline = time.monotonic() + 30
    while _alive(int(pid)) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not _alive(int(pid)), "the model server outlived its parent"
    with pytest.raises(urllib.error.URLError):
        urllib.request.urlopen(base_url.removesuffix("/v1") + "/health", timeout=2)


PAUSE_S = 25.0


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_server_paused_while_loading_still_starts(tmp_path: Path) -> None:
    """The start deadline counts the child's running time: a SIGSTOP longer than the deadline does not fail it."""
    reason = missing_for_smollm2()
    if reason:
        pytest.skip(reason)
    server = LocalServer(LocalModel(smollm2_path(), "local/smollm2"), ctx=1024, ready_timeout_s=20)
    paused: list[int] = []

    def pause_the_child() -> None:
        deadline = time.monotonic() + 30
        while server.pid is None and time.monotonic() < deadline:
            time.sleep(0.01)
        if server.pid is not None:
            os.kill(server.pid, signal.SIGSTOP)
            paused.append(server.pid)
            time.sleep(PAUSE_S)  # longer than the whole deadline, in wall time
            os.kill(server.pid, signal.SIGCONT)

    pauser = threading.Thread(target=pause_the_child)
    pauser.start()
    try:
        started = time.monotonic()
        base_url = server.start()
        assert paused and time.monotonic() - started > PAUSE_S  # the start waited out the pause, and succeeded
        pauser.join()
        assert server.running
        with urllib.request.urlopen(base_url.removesuffix("/v1") + "/health", timeout=5) as response:
            assert response.status == 200
    finally:
        pauser.join()
        server.stop()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie (exited, not yet reaped by init) counts as gone
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except OSError:
        return False


@pytest.mark.slow
def test_sodamem_ask_with_the_real_05b_model(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``sodamem --llm-gguf qwen2.5-coder-0.5b ask`` end to end: a cited answer or a flagged fallback, $0, tokens."""
    monkeypatch.delenv("SODAMEM_MODEL_CACHE")  # the real cache
    reason = missing_for_qwen()
    if reason:
        pytest.skip(reason)
    db = tmp_path / "m.db"
    turns = ("I moved to Manchester last month, I used to live in Leeds.", "I work as a nurse at the city hospital.")
    said = tuple(Turn(i, "Maya", text, f"s1:{i}") for i, text in enumerate(turns))
    with Memory(db, embedder="fake") as memory:
        memory.ingest([Session("s1", datetime(2024, 5, 2, 19), said)])
    for name in ("SODAMEM_LLM_BASE_URL", "SODAMEM_LLM_MODEL", "SODAMEM_LLM_GGUF"):  # the CLI sets these: restore
        monkeypatch.setenv(name, "")
    started = time.monotonic()
    main(["--db", str(db), "--llm-gguf", QWEN_05B.name, "ask", "Where does Maya live now?", "--json", "--steps", "1"])
    answer = json.loads(capsys.readouterr().out)
    print(json.dumps({"seconds": round(time.monotonic() - started, 1), **answer}, indent=1))
    assert answer["cost"]["input_tokens"] > 0 and answer["cost"]["usd"] == 0.0
    assert not [flag for flag in answer["flags"] if flag.startswith("price_unknown")]
    assert answer["citations"] or answer["abstained"]
    with Memory(db, embedder="fake") as memory:
        for citation in answer["citations"]:
            text = memory.turn(citation["turn_id"], session_id=citation["session_id"]).text
            assert text[citation["char_start"] : citation["char_end"]] == citation["quote"]
    if "offline" not in answer["flags"]:  # the model's own answer: grounded in the pack
        assert all(c["id"].startswith("E") for c in answer["citations"])
