"""The answerers and LLM clients of the QA benchmarks.

- ``offline``: the offline reader (no LLM).
- ``llm``: the planner–reader loop (``answer_with_llm``) over the endpoint of ``SODAMEM_LLM_*`` (``--model``
  overrides the model), optionally behind a record/replay cache (``--replay PATH``; ``--replay-only`` never asks
  the server, for re-scoring a recorded run offline).
- ``llm-fake``: the same loop against the shipped ``FakeChatServer`` on loopback with a scripted policy: the
  planner answers at once, the reader repeats the first evidence line and cites it (abstains on an empty pack),
  a judge always says no. It is not a model: it measures what the LLM path SENDS (tokens per question, planner
  and reader apart), never how well it answers. Its token counts are ``regex-words-v1`` counts of each request's
  messages (+4 per message, +3 per request, OpenAI's chat overhead) and of each reply; a BPE tokenizer counts more.

Every client is wrapped in a ``TallyingClient``, which splits the tokens by prompt (schema name).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel

from sodamem.answer.types import Answer
from sodamem.bench.metrics import count_tokens
from sodamem.llm.client import ChatClient, JsonReply, Usage
from sodamem.llm.config import LLMConfig
from sodamem.llm.fake_server import FakeChatServer, FakeReply
from sodamem.llm.prompts import judge_locomo, judge_longmemeval
from sodamem.llm.prompts.plan_search import SCHEMA_NAME as PLANNER_SCHEMA
from sodamem.llm.prompts.read_answer import SCHEMA_NAME as READER_SCHEMA
from sodamem.llm.replay import CachingChatClient, JsonChatClient, ReplayCache
from sodamem.memory import Memory

T = TypeVar("T", bound=BaseModel)

ANSWERERS = ("offline", "llm", "llm-fake")
FAKE_MODEL = "fake-model"
AnswerFn = Callable[[Memory, str, "datetime | None"], Answer]

_EVIDENCE_LINE = re.compile(
    r"^\[(E\d+)\]\s*(?:[^:\n]*?\((?:turn|source) [^)]*\):\s*|fact \(\w+\):\s*)?(.*)$", re.MULTILINE
)
_MAX_FAKE_ANSWER_TOKENS = 40


@dataclass(slots=True)
class CallTally:
    requests: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    errors: int = 0


class TallyingClient:
    """A ``JsonChatClient`` that passes calls on and adds their tokens up per schema name (``by_name``).

    ``usage`` IS the inner client's ``Usage`` object, so the answer loop's cost (a delta of ``usage``) is unchanged;
    the tally is the same delta taken around each call, so failed calls that spent tokens are counted too.
    """

    def __init__(self, inner: JsonChatClient) -> None:
        self.inner = inner
        self.config = inner.config
        self.usage: Usage = inner.usage
        self.by_name: dict[str, CallTally] = {}

    def complete_json(self, messages: Sequence[Mapping[str, str]], schema: type[T], *, name: str) -> JsonReply[T]:
        tally = self.by_name.setdefault(name, CallTally())
        before = (self.usage.prompt_tokens, self.usage.completion_tokens)
        try:
            return self.inner.complete_json(messages, schema, name=name)
        except Exception:
            tally.errors += 1
            raise
        finally:
            tally.requests += 1
            tally.prompt_tokens += self.usage.prompt_tokens - before[0]
            tally.completion_tokens += self.usage.completion_tokens - before[1]

    def tallies(self) -> dict[str, dict[str, int]]:
        return {name: asdict(t) for name, t in sorted(self.by_name.items())}


@dataclass(slots=True)
class LLMSetup:
    """Where the LLM calls of a run go: the answer client, the judge client (either may be None), a description."""

    answer: TallyingClient | None = None
    judge: TallyingClient | None = None
    endpoint: str = ""
    notes: dict[str, Any] = field(default_factory=dict)


@contextmanager
def open_llm(
    answerer: str,
    *,
    judge: bool,
    model: str | None = None,
    judge_model: str | None = None,
    replay: Path | None = None,
    replay_only: bool = False,
    env: Mapping[str, str] | None = None,
) -> Iterator[LLMSetup]:
    """The clients a run needs, opened (and the fake server started) for the duration of the block."""
    if answerer not in ANSWERERS:
        raise ValueError(f"unknown answerer {answerer!r}: {', '.join(ANSWERERS)}")
    if answerer == "offline" and not judge:
        yield LLMSetup(endpoint="none")
        return
    with ExitStack() as stack:
        cache = stack.enter_context(ReplayCache(replay)) if replay is not None else None
        if answerer == "llm-fake":
            server = stack.enter_context(FakeChatServer(responder=fake_policy, model=model or FAKE_MODEL))
            base = LLMConfig(base_url=server.base_url, model=model or FAKE_MODEL, max_retries=0, timeout_s=30.0)
            judge_config = LLMConfig(base_url=server.base_url, model=judge_model or base.model, max_retries=0)
            endpoint = "fake server (scripted replies, not a model; tokens are regex-words-v1 counts)"
        else:
            # replay-only never asks a server: a local model's is not started
            base = LLMConfig.from_env(env, start_local=not replay_only, model=model)
            judge_config = LLMConfig.from_env(env, start_local=not replay_only, model=judge_model or base.model)
            endpoint = f"{base.base_url} ({base.model})"

        def client(config: LLMConfig) -> TallyingClient:
            inner: JsonChatClient = stack.enter_context(ChatClient(config))
            if cache is not None:
                inner = CachingChatClient(inner, cache, replay_only=replay_only)
            return TallyingClient(inner)

        setup = LLMSetup(
            answer=client(base) if answerer != "offline" else None,
            judge=client(judge_config) if judge else None,
            endpoint=endpoint,
        )
        if cache is not None:
            setup.notes["replay"] = {"path": str(replay), "replay_only": replay_only}
        yield setup
        for role, tallying in (("answer", setup.answer), ("judge", setup.judge)):
            inner_client = tallying.inner if tallying is not None else None
            if isinstance(inner_client, CachingChatClient):
                setup.notes.setdefault("replay", {})[role] = {"hits": inner_client.hits, "misses": inner_client.misses}


def answer_fn(
    answerer: str,
    client: JsonChatClient | None,
    *,
    budget_tokens: int,
    max_steps: int,
    search_mode: str = "auto",
    reader_prompt: str = "auto",
    speaker_guard: bool = True,
    cited_dates: bool = True,
    concise_answers: bool = True,
    focus_tokens: int | None = None,
    list_budget_tokens: int | None = None,
    offline_states: bool = False,
    offline_relations: bool = True,
) -> AnswerFn:
    """The function that answers one question for ``answerer`` (``client`` is needed by the LLM answerers);
    ``search_mode`` is the LLM loop's search (the offline reader always uses the memory's own)."""
    if answerer == "offline":
        from sodamem.answer.offline import answer_offline

        return lambda memory, question, now: answer_offline(memory, question, now=now, budget_tokens=budget_tokens)
    if client is None:
        raise ValueError(f"the {answerer} answerer needs an LLM client")
    from sodamem.answer.llm_loop import answer_with_llm
    from sodamem.llm.prices import prices_from_env

    llm, prices = client, prices_from_env()
    return lambda memory, question, now: answer_with_llm(
        memory,
        question,
        llm,
        now=now,
        max_steps=max_steps,
        budget_tokens=budget_tokens,
        prices=prices,
        search_mode=search_mode,
        reader_prompt=reader_prompt,
        speaker_guard=speaker_guard,
        cited_dates=cited_dates,
        concise_answers=concise_answers,
        focus_tokens=focus_tokens,
        list_budget_tokens=list_budget_tokens,
        offline_states=offline_states,
        offline_relations=offline_relations,
    )


# -- the scripted policy of ``llm-fake`` -------------------------------------------------------------------------


def request_tokens(messages: Sequence[Mapping[str, Any]]) -> int:
    """``regex-words-v1`` tokens of a chat request: each message's content + 4, + 3 for the reply's priming."""
    return sum(count_tokens(str(m.get("content", ""))) + 4 for m in messages) + 3


def fake_policy(body: dict[str, Any]) -> FakeReply:
    """The fake server's reply to one request of the answer loop or a judge (see the module docstring)."""
    messages = body.get("messages") or []
    name = _schema_name(body)
    if name == PLANNER_SCHEMA:
        content: dict[str, Any] = {"action": "answer", "reason": "the evidence is enough"}
    elif name == READER_SCHEMA:
        content = _fake_reader(str(messages[-1].get("content", "")) if messages else "")
    elif name == judge_locomo.SCHEMA_NAME:
        content = {"reason": "scripted", "label": "WRONG"}
    elif name == judge_longmemeval.SCHEMA_NAME:
        content = {"verdict": "no"}
    else:
        return FakeReply.error(400, f"fake policy: no script for schema {name!r}")
    reply = FakeReply.json(content)
    return FakeReply(
        content=reply.content, prompt_tokens=request_tokens(messages), completion_tokens=count_tokens(reply.content)
    )


def _fake_reader(user_message: str) -> dict[str, Any]:
    """Repeat the best-ranked evidence line (E1, else the first line) and cite it."""
    lines = list(_EVIDENCE_LINE.finditer(user_message))
    match = next((m for m in lines if m.group(1) == "E1"), lines[0] if lines else None)
    if match is None:
        return {"answer": "not in memory", "citations": [], "abstain": True}
    item_id, text = match.group(1), match.group(2)
    words = text.split()
    short = " ".join(words[:_MAX_FAKE_ANSWER_TOKENS]).rstrip(".")
    return {"answer": f"{short} [{item_id}].", "citations": [item_id], "abstain": False}


def _schema_name(body: Mapping[str, Any]) -> str:
    response_format = body.get("response_format")
    if not isinstance(response_format, Mapping):
        return ""
    schema = response_format.get("json_schema")
    if isinstance(schema, Mapping):
        return str(schema.get("name", ""))
    return ""
