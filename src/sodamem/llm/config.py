"""Settings of the OpenAI-compatible chat endpoint (a hosted API, llama.cpp's server, vLLM, ...).

``LLMConfig.from_env()`` reads ``SODAMEM_LLM_BASE_URL``, ``SODAMEM_LLM_MODEL`` and ``SODAMEM_LLM_API_KEY``, falling
back to ``OPENAI_BASE_URL`` / ``OPENAI_API_KEY``; keyword overrides win over the environment. ``SODAMEM_LLM_GGUF``
(a GGUF file, or a fetched model's name such as ``qwen2.5-coder-0.5b``) wins over those variables: the endpoint is
then a local server on loopback, started on first use (``llm/local.py``), and the model ``local/<name>`` ($0).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from sodamem.errors import SodaMemError

ENV_BASE_URL = "SODAMEM_LLM_BASE_URL"
ENV_MODEL = "SODAMEM_LLM_MODEL"
ENV_API_KEY = "SODAMEM_LLM_API_KEY"
ENV_GGUF = "SODAMEM_LLM_GGUF"
FALLBACK_BASE_URL = "OPENAI_BASE_URL"
FALLBACK_API_KEY = "OPENAI_API_KEY"


class LLMConfigError(SodaMemError):
    """The LLM endpoint is not configured (or configured with impossible values)."""


@dataclass(frozen=True, slots=True)
class LLMConfig:
    base_url: str
    model: str
    api_key: str | None = field(default=None, repr=False)
    timeout_s: float = 60.0
    max_retries: int = 3
    backoff_s: float = 1.0
    temperature: float = 0.0
    max_tokens: int | None = None  # a cap on each reply (small local models can ramble); None: the server's default

    def __post_init__(self) -> None:
        if not self.base_url:
            raise LLMConfigError(f"no LLM base URL: set {ENV_BASE_URL} (or {FALLBACK_BASE_URL}) or pass base_url")
        if not self.model:
            raise LLMConfigError(f"no LLM model: set {ENV_MODEL} or pass model")
        if self.timeout_s <= 0:
            raise LLMConfigError(f"timeout_s must be positive, got {self.timeout_s}")
        if self.max_retries < 0:
            raise LLMConfigError(f"max_retries must be >= 0, got {self.max_retries}")
        if self.max_tokens is not None and self.max_tokens <= 0:
            raise LLMConfigError(f"max_tokens must be positive, got {self.max_tokens}")
        if self.backoff_s < 0:
            raise LLMConfigError(f"backoff_s must be >= 0, got {self.backoff_s}")

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, *, start_local: bool = True, **overrides: Any) -> LLMConfig:
        """The configuration from the environment (``env``, default ``os.environ``), with ``overrides`` on top.

        An override of ``None`` counts as not given. Raises ``LLMConfigError`` naming the variables to set when the
        base URL or the model is missing. With ``SODAMEM_LLM_GGUF`` the local model's server is started, unless
        ``start_local`` is False (a run that only replays recorded replies): then the configuration names the
        address it would have, and nothing is started.
        """
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(overrides) - known)
        if unknown:
            raise LLMConfigError(f"unknown LLM setting(s): {', '.join(unknown)}; known: {', '.join(sorted(known))}")
        source = os.environ if env is None else env
        local = None if overrides.get("base_url") else _local_settings(source, start=start_local)
        values: dict[str, Any] = local or {
            "base_url": _first(source, ENV_BASE_URL, FALLBACK_BASE_URL),
            "model": _first(source, ENV_MODEL),
            "api_key": _first(source, ENV_API_KEY, FALLBACK_API_KEY),
        }
        values.update({k: v for k, v in overrides.items() if v is not None})
        if not values["base_url"]:
            raise LLMConfigError(
                f"no LLM base URL: set {ENV_BASE_URL} (or {FALLBACK_BASE_URL}), e.g. http://127.0.0.1:8080/v1"
            )
        if not values["model"]:
            raise LLMConfigError(f"no LLM model: set {ENV_MODEL} to the model name the server expects")
        return cls(**values)


def llm_configured(env: Mapping[str, str] | None = None) -> bool:
    """Whether ``LLMConfig.from_env`` has an endpoint: ``SODAMEM_LLM_GGUF``, or a base URL and a model."""
    source = os.environ if env is None else env
    if _first(source, ENV_GGUF):
        return True
    return bool(_first(source, ENV_BASE_URL, FALLBACK_BASE_URL) and _first(source, ENV_MODEL))


def _local_settings(env: Mapping[str, str], *, start: bool) -> dict[str, Any] | None:
    if not _first(env, ENV_GGUF):
        return None
    from sodamem.llm.local import local_settings  # starts the local server: only when it is asked for

    return local_settings(env, start=start)


def _first(env: Mapping[str, str], *names: str) -> str | None:
    for name in names:
        value = env.get(name, "").strip()
        if value:
            return value
    return None
