"""Query decomposition: an LLM splits a question into sub-queries, each searched by the direct tunnels.

Off unless an LLM is configured and asked for (``Memory(decomposer="auto")``: the configured endpoint, or none when
there is none; ``"llm"``: the configured endpoint, an error when there is none; default: none, the search stays
offline). The search (``fused.py``) runs every direct tunnel (BM25 and dense over turns and pieces, facts, graph)
once per sub-query, names their contributions ``sub_<tunnel>`` and fuses them with the question's own by connection
density: a sub-query tunnel weighs ``FusedSettings.subquery_weight`` times the tunnel's weight, and several
sub-queries reaching one turn through one tunnel count best first with the density's repeat decay, so sub-queries
that paraphrase each other cannot pile up mass. Every hit's explanation says what the decomposition did.

A failed decomposition (the server down, a reply that never validates, a replay-only miss) is no error: the search
runs as plain and every hit's explanation says ``decomposition failed (...): plain search``. Replies go through
whatever client is given: behind ``llm.replay.CachingChatClient`` they are recorded and replayed (the bench's
``--replay``), and the decomposer keeps the last ``memo`` questions' sub-queries, so the several systems of one bench
run ask once per question.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

from sodamem.errors import SodaMemError
from sodamem.llm.prompts.decompose_query import choose_decompose_prompt
from sodamem.llm.replay import JsonChatClient
from sodamem.porter import stem
from sodamem.retrieve.fts_query import query_terms

log = logging.getLogger(__name__)

DECOMPOSER_CHOICES = ("none", "auto", "llm")
ENV_DECOMPOSE_PROMPT = "SODAMEM_LLM_DECOMPOSE_PROMPT"  # auto (default), full or compact: llm/prompts/decompose_query.py


@dataclass(frozen=True, slots=True)
class Decomposition:
    """What decomposing one question gave: its sub-queries (maybe none) and one line for the explanation."""

    question: str
    queries: tuple[str, ...] = ()
    failed: bool = False
    reason: str = ""  # why it failed

    @property
    def trace(self) -> str:
        if self.failed:
            return f"decomposition failed ({self.reason}): plain search"
        if not self.queries:
            return "decomposition: no sub-query (plain search)"
        quoted = " | ".join(f'{i}. "{q}"' for i, q in enumerate(self.queries, 1))
        count = "1 sub-query" if len(self.queries) == 1 else f"{len(self.queries)} sub-queries"
        return f"decomposition: {count}: {quoted}"


@dataclass(slots=True)
class DecomposerStats:
    """What the decomposer cost: distinct questions decomposed, LLM requests, failures, seconds in those requests."""

    questions: int = 0
    requests: int = 0
    failures: int = 0
    seconds: float = 0.0

    def to_dict(self) -> dict[str, float]:
        per = self.questions or 1
        return {
            "questions": self.questions,
            "llm_requests": self.requests,
            "failures": self.failures,
            "seconds": round(self.seconds, 3),
            "requests_per_question": round(self.requests / per, 3),
            "seconds_per_question": round(self.seconds / per, 3),
        }


class QueryDecomposer:
    """Sub-queries of a question from ``client`` (a ``ChatClient``, or one behind a replay cache).

    ``prompt``: ``auto`` (the compact prompt for a local GGUF model, the full one otherwise), ``full`` or
    ``compact``. ``memo``: how many questions' decompositions are kept in the process. Thread-safe (the request
    itself runs outside the lock: two threads asking the same new question may both ask)."""

    def __init__(self, client: JsonChatClient, *, prompt: str = "auto", memo: int = 4096) -> None:
        self.client = client
        self.prompt = choose_decompose_prompt(prompt, client.config.model)
        self.stats = DecomposerStats()
        self._memo: OrderedDict[str, Decomposition] = OrderedDict()
        self._memo_size = memo
        self._lock = threading.Lock()

    def close(self) -> None:
        """Closes the client (a ``ChatClient``'s connections; a caching client's inner one)."""
        for client in (getattr(self.client, "inner", None), self.client):
            close = getattr(client, "close", None)
            if callable(close):
                close()

    def decompose(self, question: str) -> Decomposition:
        key = " ".join(question.split())
        with self._lock:
            kept = self._memo.get(key)
            if kept is not None:
                self._memo.move_to_end(key)
                return kept
        found = self._ask(key)
        with self._lock:
            self._memo[key] = found
            if len(self._memo) > self._memo_size:
                self._memo.popitem(last=False)
        return found

    def _ask(self, question: str) -> Decomposition:
        prompt = self.prompt
        started = time.perf_counter()
        failed: Exception | None = None
        try:
            reply = self.client.complete_json(prompt.messages(question), prompt.schema, name=prompt.schema_name)
        except (SodaMemError, OSError) as exc:  # LLMError, a local server that would not start, a lost connection
            failed = exc
        with self._lock:
            self.stats.questions += 1
            self.stats.requests += 1
            self.stats.failures += failed is not None
            self.stats.seconds += time.perf_counter() - started
        if failed is not None:
            log.warning("query decomposition failed, plain search: %s", failed)
            return Decomposition(question, failed=True, reason=_short(f"{type(failed).__name__}: {failed}"))
        return Decomposition(question, clean_queries(question, reply.value.queries, prompt.max_queries))


def clean_queries(question: str, queries: Sequence[str], limit: int) -> tuple[str, ...]:
    """The model's sub-queries, each on one line, without empty ones, repeats or the question itself; at most
    ``limit`` (a server that ignores the schema's ``maxItems`` is capped here)."""
    seen = {_fold(question)}
    out: list[str] = []
    for query in queries:
        text = " ".join(str(query).split())
        folded = _fold(text)
        if not folded or folded in seen:
            continue
        seen.add(folded)
        out.append(text)
    return tuple(out[:limit])


def new_word_queries(question: str, queries: Sequence[str]) -> tuple[str, ...]:
    """The sub-queries that name a word the question does not (stemmed, stopwords aside): a paraphrase ("pets James
    has" for "How many pets does James have?") finds nothing the question does not, and only piles mass on it."""
    asked = {stem(w) for w in query_terms(question)}
    return tuple(q for q in queries if {stem(w) for w in query_terms(q)} - asked)


def load_decomposer(spec: str | None) -> QueryDecomposer | None:
    """``"none"`` / None: no decomposition; ``"auto"``: the configured LLM (SODAMEM_LLM_* / OPENAI_*), or none when
    there is none; ``"llm"``: the configured LLM (``LLMConfigError`` when there is none). The prompt is chosen by
    SODAMEM_LLM_DECOMPOSE_PROMPT (auto, full or compact)."""
    name = (spec or "none").strip().lower()
    if name not in DECOMPOSER_CHOICES:
        raise ValueError(f"unknown decomposer {spec!r}: choose one of {', '.join(DECOMPOSER_CHOICES)}")
    from sodamem.llm.config import llm_configured

    if name == "none" or (name == "auto" and not llm_configured()):
        return None
    from sodamem.llm.client import ChatClient
    from sodamem.llm.config import LLMConfig

    return QueryDecomposer(ChatClient(LLMConfig.from_env()), prompt=os.environ.get(ENV_DECOMPOSE_PROMPT, "auto"))


def _fold(text: str) -> str:
    return " ".join(text.casefold().replace("?", " ").split())


def _short(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."
