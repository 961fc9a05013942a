"""A small chat client over any OpenAI-compatible endpoint that returns validated JSON.

``ChatClient.complete_json(messages, Schema, name=...)`` asks for structured output
(``response_format={"type": "json_schema", ...}``); a server that rejects that form (llama.cpp's, older vLLM) is
asked, for the rest of the client's life, with ``{"type": "json_object", "schema": ...}`` instead. Timeouts,
connection errors, 429 and 5xx are retried with exponential backoff (our own loop: the ``openai`` client runs with
``max_retries=0``; ``sleep`` is injectable). The reply is validated with the pydantic schema; an invalid one gets ONE
repair request (the bad reply and the validation error sent back), then ``LLMReplyError``.

The ``openai`` package is imported lazily: without it, constructing a client raises ``MissingDependencyError``.
"""

from __future__ import annotations

import importlib
import json
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ValidationError

from sodamem.errors import MissingDependencyError, SodaMemError
from sodamem.llm.config import LLMConfig

log = logging.getLogger(__name__)

T = TypeVar("T", bound=BaseModel)

JSON_SCHEMA = "json_schema"
JSON_OBJECT = "json_object"
_MAX_BACKOFF_S = 60.0
_MAX_ECHO_CHARS = 8000  # how much of a bad reply the repair request sends back


class LLMError(SodaMemError):
    """The LLM could not give a usable answer (the endpoint failed, or its reply never validated)."""


class LLMRequestError(LLMError):
    """The endpoint failed: retries exhausted on timeouts/429/5xx, or a non-retryable status."""

    def __init__(self, message: str, *, status: int | None = None, attempts: int = 1) -> None:
        super().__init__(message)
        self.status = status
        self.attempts = attempts


class LLMReplyError(LLMError):
    """The reply was not valid JSON for the schema, and neither was the reply to the repair request."""

    def __init__(self, message: str, *, name: str, raw: str, error: str) -> None:
        super().__init__(message)
        self.name = name
        self.raw = raw
        self.error = error


@dataclass(slots=True)
class Usage:
    """Tokens the server reported, accumulated over every successful request."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    requests: int = 0

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


@dataclass(frozen=True, slots=True)
class JsonReply(Generic[T]):
    """A validated reply: the parsed ``value``, the ``raw`` text it came from, and what it took to get it."""

    value: T
    raw: str
    response_format: str  # "json_schema" or "json_object": the form the successful request used
    repaired: bool = False  # True when the first reply was invalid and the repair request's reply was used
    prompt_tokens: int = 0
    completion_tokens: int = 0


class _InvalidReply(Exception):
    pass


@dataclass(frozen=True, slots=True)
class _Raw:
    content: str
    mode: str
    prompt_tokens: int
    completion_tokens: int


def _import_openai() -> Any:
    try:
        return importlib.import_module("openai")
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise MissingDependencyError("the LLM client needs the 'openai' package: pip install 'sodamem[llm]'") from exc


class ChatClient:
    """Chat completions with JSON output over an OpenAI-compatible API (see the module docstring)."""

    def __init__(self, config: LLMConfig, *, sleep: Callable[[float], None] = time.sleep) -> None:
        self.config = config
        self.usage = Usage()
        self._sleep = sleep
        self._openai = _import_openai()
        # Local servers ignore the key, but the openai client insists on one.
        self._client = self._openai.OpenAI(
            base_url=config.base_url,
            api_key=config.api_key or "sk-no-key",
            timeout=config.timeout_s,
            max_retries=0,
        )
        self._json_schema_supported = True

    @classmethod
    def from_env(cls, **overrides: Any) -> ChatClient:
        return cls(LLMConfig.from_env(**overrides))

    @property
    def response_format_mode(self) -> str:
        """The form the next request uses: ``"json_schema"`` until the server rejected it, then ``"json_object"``."""
        return JSON_SCHEMA if self._json_schema_supported else JSON_OBJECT

    def close(self) -> None:
        self._client.close()

    def __enter__(self) -> ChatClient:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def complete_json(self, messages: Sequence[Mapping[str, str]], schema: type[T], *, name: str) -> JsonReply[T]:
        """One chat completion parsed into ``schema``; at most one repair request; raises an ``LLMError``."""
        history = [dict(m) for m in messages]
        first = self._chat(history, schema, name)
        try:
            value = _parse(first.content, schema)
            return JsonReply(value, first.content, first.mode, False, first.prompt_tokens, first.completion_tokens)
        except _InvalidReply as exc:
            first_error = str(exc)
        log.info("LLM reply for %s did not validate (%s); asking once for a repair", name, _short(first_error, 200))
        repair = [
            *history,
            {"role": "assistant", "content": first.content[:_MAX_ECHO_CHARS]},
            {"role": "user", "content": _repair_message(first_error, schema, name)},
        ]
        second = self._chat(repair, schema, name)
        try:
            value = _parse(second.content, schema)
        except _InvalidReply as exc:
            raise LLMReplyError(
                f"LLM reply for {name} did not validate, even after one repair request: {_short(str(exc), 300)}",
                name=name,
                raw=second.content,
                error=str(exc),
            ) from None
        return JsonReply(
            value,
            second.content,
            second.mode,
            True,
            first.prompt_tokens + second.prompt_tokens,
            first.completion_tokens + second.completion_tokens,
        )

    # -- transport ---------------------------------------------------------------------------------------------

    def _response_format(self, schema: type[BaseModel], name: str) -> dict[str, Any]:
        json_schema = schema.model_json_schema()
        if self._json_schema_supported:
            return {"type": JSON_SCHEMA, "json_schema": {"name": name, "schema": json_schema}}
        return {"type": JSON_OBJECT, "schema": json_schema}

    def _chat(self, messages: list[dict[str, str]], schema: type[BaseModel], name: str) -> _Raw:
        """One request, retried on transient failures."""
        oa = self._openai
        attempt = 0
        while True:
            response_format = self._response_format(schema, name)
            mode = response_format["type"]
            # Sent as raw body fields: the json_object + schema form is not in openai's typed params.
            extra: dict[str, Any] = {"response_format": response_format}
            if self.config.max_tokens is not None:
                extra["max_tokens"] = self.config.max_tokens
            try:
                completion = self._client.chat.completions.create(
                    model=self.config.model,
                    messages=messages,
                    temperature=self.config.temperature,
                    extra_body=extra,
                )
            except oa.APIStatusError as exc:
                status = int(exc.status_code)
                if mode == JSON_SCHEMA and _rejects_json_schema(status, exc):
                    log.warning(
                        "the LLM server rejected response_format json_schema (HTTP %d); using json_object from now on",
                        status,
                    )
                    self._json_schema_supported = False
                    continue
                if (status == 429 or status >= 500) and attempt < self.config.max_retries:
                    self._backoff(attempt, f"HTTP {status}", _retry_after(exc))
                    attempt += 1
                    continue
                raise LLMRequestError(
                    f"LLM request for {name} failed with HTTP {status} after {attempt + 1} attempt(s): "
                    f"{_short(str(exc.message), 300)}",
                    status=status,
                    attempts=attempt + 1,
                ) from exc
            except oa.APIConnectionError as exc:  # includes APITimeoutError
                what = "timeout" if isinstance(exc, oa.APITimeoutError) else "connection error"
                if attempt < self.config.max_retries:
                    self._backoff(attempt, what, None)
                    attempt += 1
                    continue
                raise LLMRequestError(
                    f"LLM request for {name} failed ({what}) after {attempt + 1} attempt(s)", attempts=attempt + 1
                ) from exc
            except oa.APIError as exc:  # e.g. a response body that is not a chat completion
                raise LLMRequestError(f"LLM request for {name} failed: {_short(str(exc), 300)}") from exc
            return self._content_and_usage(completion, mode)

    def _content_and_usage(self, completion: Any, mode: str) -> _Raw:
        usage = getattr(completion, "usage", None)
        prompt_tokens = int(getattr(usage, "prompt_tokens", 0) or 0)
        completion_tokens = int(getattr(usage, "completion_tokens", 0) or 0)
        self.usage.prompt_tokens += prompt_tokens
        self.usage.completion_tokens += completion_tokens
        self.usage.requests += 1
        choices = getattr(completion, "choices", None) or []
        content = choices[0].message.content if choices else None
        return _Raw(content or "", mode, prompt_tokens, completion_tokens)

    def _backoff(self, attempt: int, what: str, retry_after: float | None) -> None:
        delay = min(self.config.backoff_s * (2**attempt), _MAX_BACKOFF_S)
        if retry_after is not None:
            delay = max(delay, min(retry_after, _MAX_BACKOFF_S))
        log.info("LLM request: %s; retry %d/%d in %.2fs", what, attempt + 1, self.config.max_retries, delay)
        self._sleep(delay)


def _rejects_json_schema(status: int, exc: Any) -> bool:
    if status in (400, 422):
        return True
    text = f"{getattr(exc, 'message', '')} {getattr(exc, 'body', '')}".lower()
    return "json_schema" in text or "response_format" in text


def _retry_after(exc: Any) -> float | None:
    response = getattr(exc, "response", None)
    value = response.headers.get("retry-after") if response is not None else None
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None


def strip_code_fence(text: str) -> str:
    """Tolerate a Markdown code fence around the JSON (common when the server does not enforce the format)."""
    stripped = text.strip()
    if stripped.startswith("```"):
        first_newline = stripped.find("\n")
        if first_newline != -1 and stripped.endswith("```"):
            return stripped[first_newline + 1 : -3].strip()
    return stripped


def _parse(raw: str, schema: type[T]) -> T:
    text = strip_code_fence(raw)
    if not text:
        raise _InvalidReply("the reply was empty")
    try:
        return schema.model_validate_json(text)
    except ValidationError as exc:
        raise _InvalidReply(str(exc)) from None
    except ValueError as exc:  # pragma: no cover - pydantic reports bad JSON as ValidationError
        raise _InvalidReply(f"invalid JSON: {exc}") from None


def _repair_message(error: str, schema: type[BaseModel], name: str) -> str:
    return (
        f"Your previous reply could not be used: {_short(error, 2000)}\n"
        f"Reply again with ONLY one JSON object (no prose, no code fence) that matches the JSON schema "
        f"{name!r}:\n{json.dumps(schema.model_json_schema(), separators=(',', ':'))}"
    )


def _short(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
