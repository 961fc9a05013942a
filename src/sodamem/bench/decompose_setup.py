"""``bench locomo --decompose``: the query decomposer over the configured LLM, behind the bench's replay cache.

The endpoint is ``SODAMEM_LLM_*`` (``SODAMEM_LLM_GGUF=qwen2.5-coder-0.5b`` for the local model). With ``--replay
FILE`` every reply is recorded in the same SQLite cache the QA runs use (``llm/replay.py``), keyed by the request,
so a second run (another weight, ``--cv``) re-scores for free; ``--replay-only`` never asks the server, and a
question without a recorded reply falls back to the plain search (counted as a failure in the notes).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sodamem.llm.replay import CachingChatClient, JsonChatClient
from sodamem.retrieve.decompose import QueryDecomposer


@dataclass(frozen=True, slots=True)
class DecomposeChoice:
    prompt: str = "auto"  # auto, full or compact (llm/prompts/decompose_query.py)
    replay: Path | None = None
    replay_only: bool = False


@dataclass(slots=True)
class OpenedDecomposer:
    decomposer: QueryDecomposer | None = None
    client: JsonChatClient | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def notes(self) -> dict[str, Any]:
        """What the run's decomposition cost: model, prompt, questions, requests, failures, seconds, replays."""
        if self.decomposer is None:
            return {}
        notes: dict[str, Any] = {
            "model": self.decomposer.client.config.model,
            "prompt": self.decomposer.prompt.name,
            **self.decomposer.stats.to_dict(),
            **self.extra,
        }
        if isinstance(self.client, CachingChatClient):
            notes |= {"replayed": self.client.hits, "asked": self.client.misses - self.decomposer.stats.failures}
        return notes


@contextmanager
def open_decomposer(choice: DecomposeChoice | None) -> Iterator[OpenedDecomposer]:
    """The decomposer (None without a choice), its client and replay cache open for the duration of the block."""
    if choice is None:
        yield OpenedDecomposer()
        return
    from sodamem.llm.client import ChatClient
    from sodamem.llm.config import LLMConfig
    from sodamem.llm.replay import ReplayCache

    with ExitStack() as stack:
        # replay-only never asks a server: a local model's is not started
        config = LLMConfig.from_env(start_local=not (choice.replay is not None and choice.replay_only))
        client: JsonChatClient = stack.enter_context(ChatClient(config))
        extra: dict[str, Any] = {}
        if choice.replay is not None:
            cache = stack.enter_context(ReplayCache(choice.replay))
            client = CachingChatClient(client, cache, replay_only=choice.replay_only)
            extra["replay_only"] = choice.replay_only
        yield OpenedDecomposer(QueryDecomposer(client, prompt=choice.prompt), client, extra)
