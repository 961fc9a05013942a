"""A SQLite record/replay cache of LLM replies, keyed by the sha256 of the canonical request.

    cache = ReplayCache("replies.db")
    client = CachingChatClient(ChatClient.from_env(), cache)
    client.complete_json(messages, Schema, name="...")   # asks the server once, then replays from the file

The key is the sha256 of the canonical JSON (sorted keys, no spaces) of ``model``, ``messages``,
``response_format`` (the schema's name and JSON schema) and ``temperature``: the same request gives the same
key on any machine, so a benchmark can be re-scored without paying twice and tests can replay recorded traffic.
A stored reply that no longer validates (the schema changed) is a miss.

A reply that never validated (``LLMReplyError``: invalid even after the repair request) is stored too, marked
``invalid`` with its error and tokens. Only ``replay_only`` re-scoring replays it (the same error, so the run keeps
its recorded outcome instead of turning into a request failure); a recording run asks the server again, since a
remote model may do better the second time. Endpoint failures (HTTP errors, timeouts) are never stored.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TypeVar

from pydantic import BaseModel, ValidationError

from sodamem.llm.client import JsonReply, LLMReplyError, LLMRequestError, Usage, strip_code_fence
from sodamem.llm.config import LLMConfig

T = TypeVar("T", bound=BaseModel)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS replies (
    key TEXT PRIMARY KEY,
    model TEXT NOT NULL,
    name TEXT NOT NULL,
    request TEXT NOT NULL,
    raw TEXT NOT NULL,
    response_format TEXT NOT NULL,
    repaired INTEGER NOT NULL,
    prompt_tokens INTEGER NOT NULL,
    completion_tokens INTEGER NOT NULL,
    created TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    outcome TEXT NOT NULL DEFAULT 'valid',
    error TEXT NOT NULL DEFAULT ''
)
"""
# Files recorded before invalid replies were stored lack the last two columns.
_ADDED_COLUMNS = {
    "outcome": "ALTER TABLE replies ADD COLUMN outcome TEXT NOT NULL DEFAULT 'valid'",
    "error": "ALTER TABLE replies ADD COLUMN error TEXT NOT NULL DEFAULT ''",
}
VALID = "valid"
INVALID = "invalid"


class JsonChatClient(Protocol):
    """What the answer loop needs of a client: ``ChatClient`` and ``CachingChatClient`` both fit."""

    config: LLMConfig
    usage: Usage

    def complete_json(self, messages: Sequence[Mapping[str, str]], schema: type[T], *, name: str) -> JsonReply[T]: ...


def canonical_request(
    model: str, messages: Sequence[Mapping[str, str]], schema: type[BaseModel], name: str, temperature: float
) -> dict[str, Any]:
    return {
        "model": model,
        "messages": [dict(m) for m in messages],
        "response_format": {"name": name, "schema": schema.model_json_schema()},
        "temperature": temperature,
    }


def request_key(request: Mapping[str, Any]) -> str:
    """The sha256 (hex) of the request's canonical JSON."""
    text = json.dumps(request, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class CachedReply:
    raw: str
    response_format: str
    repaired: bool
    prompt_tokens: int
    completion_tokens: int
    outcome: str = VALID  # INVALID: the reply never validated; ``raw`` is the last one, ``error`` says why
    error: str = ""


class ReplayCache:
    """Stored replies by request key, in one SQLite file (``":memory:"`` for a throwaway one). Thread-safe."""

    def __init__(self, path: str | Path = ":memory:") -> None:
        self.path = str(path)
        self._lock = threading.Lock()
        self._conn = sqlite3.connect(self.path, check_same_thread=False)
        with self._lock, self._conn:
            self._conn.execute(_SCHEMA)
            have = {str(row[1]) for row in self._conn.execute("PRAGMA table_info(replies)")}
            for column, statement in _ADDED_COLUMNS.items():
                if column not in have:
                    self._conn.execute(statement)

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def __enter__(self) -> ReplayCache:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __len__(self) -> int:
        with self._lock:
            return int(self._conn.execute("SELECT COUNT(*) FROM replies").fetchone()[0])

    def get(self, key: str) -> CachedReply | None:
        with self._lock:
            row = self._conn.execute(
                "SELECT raw, response_format, repaired, prompt_tokens, completion_tokens, outcome, error "
                "FROM replies WHERE key = ?",
                (key,),
            ).fetchone()
        if row is None:
            return None
        return CachedReply(str(row[0]), str(row[1]), bool(row[2]), int(row[3]), int(row[4]), str(row[5]), str(row[6]))

    def put(self, key: str, reply: CachedReply, *, request: Mapping[str, Any] | None = None) -> None:
        request = request or {}
        with self._lock, self._conn:
            self._conn.execute(
                "INSERT OR REPLACE INTO replies (key, model, name, request, raw, response_format, repaired, "
                "prompt_tokens, completion_tokens, outcome, error) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    key,
                    str(request.get("model", "")),
                    str((request.get("response_format") or {}).get("name", "")),
                    json.dumps(request, sort_keys=True, ensure_ascii=False),
                    reply.raw,
                    reply.response_format,
                    int(reply.repaired),
                    reply.prompt_tokens,
                    reply.completion_tokens,
                    reply.outcome,
                    reply.error,
                ),
            )


class CachingChatClient:
    """A ``ChatClient`` (or anything with its ``complete_json``) behind a ``ReplayCache``.

    ``usage`` counts the tokens of every reply handed out, replayed or not (so a re-scored run reports the same
    tokens and cost per question); ``replayed`` counts those of replies served from the cache, and ``hits`` /
    ``misses`` the lookups. ``inner.usage`` stays what the server was actually paid for.
    """

    def __init__(self, inner: JsonChatClient, cache: ReplayCache, *, replay_only: bool = False) -> None:
        self.inner = inner
        self.cache = cache
        self.replay_only = replay_only  # True: a miss raises instead of asking the server (offline re-scoring)
        self.config = inner.config
        self.usage = Usage()
        self.replayed = Usage()
        self.hits = 0
        self.misses = 0

    def complete_json(self, messages: Sequence[Mapping[str, str]], schema: type[T], *, name: str) -> JsonReply[T]:
        request = canonical_request(self.config.model, messages, schema, name, self.config.temperature)
        key = request_key(request)
        cached = self.cache.get(key)
        if cached is not None and cached.outcome == INVALID:
            if self.replay_only:
                self.hits += 1
                _add(self.usage, cached.prompt_tokens, cached.completion_tokens)
                _add(self.replayed, cached.prompt_tokens, cached.completion_tokens)
                raise LLMReplyError(
                    f"LLM reply for {name} did not validate (recorded): {cached.error[:300]}",
                    name=name,
                    raw=cached.raw,
                    error=cached.error,
                )
        elif cached is not None:
            try:
                value = schema.model_validate_json(strip_code_fence(cached.raw))
            except ValidationError:
                value = None
            if value is not None:
                self.hits += 1
                _add(self.usage, cached.prompt_tokens, cached.completion_tokens)
                _add(self.replayed, cached.prompt_tokens, cached.completion_tokens)
                return JsonReply(
                    value,
                    cached.raw,
                    cached.response_format,
                    cached.repaired,
                    cached.prompt_tokens,
                    cached.completion_tokens,
                )
        self.misses += 1
        if self.replay_only:
            raise LLMRequestError(f"replay-only: no recorded reply for {name} (key {key[:12]})")
        before = (self.inner.usage.prompt_tokens, self.inner.usage.completion_tokens)
        try:
            reply = self.inner.complete_json(messages, schema, name=name)
        except LLMReplyError as exc:
            # what the server was paid for the failed attempts (the first reply and the repair)
            prompt_tokens = self.inner.usage.prompt_tokens - before[0]
            completion_tokens = self.inner.usage.completion_tokens - before[1]
            _add(self.usage, prompt_tokens, completion_tokens)
            invalid = CachedReply(exc.raw, "", True, prompt_tokens, completion_tokens, INVALID, exc.error)
            self.cache.put(key, invalid, request=request)
            raise
        _add(self.usage, reply.prompt_tokens, reply.completion_tokens)
        self.cache.put(
            key,
            CachedReply(reply.raw, reply.response_format, reply.repaired, reply.prompt_tokens, reply.completion_tokens),
            request=request,
        )
        return reply


def _add(usage: Usage, prompt_tokens: int, completion_tokens: int) -> None:
    usage.prompt_tokens += prompt_tokens
    usage.completion_tokens += completion_tokens
    usage.requests += 1
