"""What ``bench extract`` and ``bench locomo`` share: a slice of the dialogues, and the extractor to build facts with.

A slice is the first ``sessions`` sessions of one ``conversation`` (a LoCoMo ``sample_id`` such as ``conv-26``):
small enough for a CPU-bound local model, and the same turns for every extractor. On ``bench locomo`` the slice
keeps the questions whose evidence lies wholly inside its sessions (questions without evidence are dropped too:
nothing in the slice can be shown to answer them).

``--extractor llm`` builds an ``LLMExtractor`` over the configured endpoint (``--llm-gguf`` / ``SODAMEM_LLM_*``);
``--extract-replay FILE`` records its replies in a SQLite cache and replays them on the next run, so the same
facts feed both benches without asking the model twice.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import click

from sodamem.bench.runner import BenchUnit
from sodamem.errors import InputError
from sodamem.ingest.extract.base import Extractor
from sodamem.ingest.extract.llm import PROMPT_CHOICES
from sodamem.llm.replay import JsonChatClient
from sodamem.model import Session

EXTRACTORS = ("rules", "llm", "none")  # none: dialogue without facts (a baseline for retrieval)
_SESSION_NUMBER = re.compile(r"_session_(\d+)$")


@dataclass(frozen=True, slots=True)
class DialogueSlice:
    """The first ``sessions`` sessions of ``conversation``; ``None`` in either: no restriction on it."""

    conversation: str | None = None
    sessions: int | None = None

    @property
    def whole(self) -> bool:
        return self.conversation is None and self.sessions is None

    def describe(self) -> str:
        if self.whole:
            return "all sessions"
        where = self.conversation or "every conversation"
        return f"{where}, sessions 1-{self.sessions}" if self.sessions is not None else where

    def of_sessions(self, sessions: Sequence[Session]) -> list[Session]:
        """The slice's sessions of a flat list (LoCoMo ids ``<conversation>_session_<n>``), in session order."""
        if self.whole:
            return list(sessions)
        by_conversation: dict[str, list[tuple[int, Session]]] = {}
        for position, session in enumerate(sessions):
            match = _SESSION_NUMBER.search(session.session_id)
            conversation = session.session_id[: match.start()] if match else session.session_id
            number = int(match.group(1)) if match else position
            by_conversation.setdefault(conversation, []).append((number, session))
        if self.conversation is not None and self.conversation not in by_conversation:
            raise InputError(f"no conversation {self.conversation!r} in the data")
        chosen: list[Session] = []
        for conversation, numbered in by_conversation.items():
            if self.conversation is not None and conversation != self.conversation:
                continue
            ordered = [s for _, s in sorted(numbered, key=lambda pair: pair[0])]
            chosen += ordered[: self.sessions] if self.sessions is not None else ordered
        return chosen

    def of_units(self, units: Sequence[BenchUnit]) -> list[BenchUnit]:
        """The slice of benchmark units: its sessions, and the questions whose evidence lies wholly inside them."""
        if self.whole:
            return list(units)
        if self.conversation is not None and all(u.unit_id != self.conversation for u in units):
            raise InputError(f"no conversation {self.conversation!r} in the data")
        sliced = []
        for unit in units:
            if self.conversation is not None and unit.unit_id != self.conversation:
                continue
            sessions = unit.sessions[: self.sessions] if self.sessions is not None else unit.sessions
            kept = {s.session_id for s in sessions}
            questions = [q for q in unit.questions if q.relevant_sessions and set(q.relevant_sessions) <= kept]
            sliced.append(replace(unit, sessions=list(sessions), questions=questions))
        return sliced


@dataclass(frozen=True, slots=True)
class ExtractorChoice:
    name: str = "rules"
    prompt: str = "auto"  # the LLM extractor's prompt: auto, full or compact
    replay: Path | None = None


@dataclass(slots=True)
class OpenedExtractor:
    """The extractor, and (for ``llm``) the client whose usage and cache hits a report quotes."""

    extractor: Extractor | None
    client: JsonChatClient | None = None
    notes: dict[str, Any] = field(default_factory=dict)

    def usage_notes(self) -> dict[str, Any]:
        if self.client is None:
            return {}
        usage = self.client.usage
        notes: dict[str, Any] = {
            "llm_model": self.client.config.model,
            "llm_requests": usage.requests,
            "llm_prompt_tokens": usage.prompt_tokens,
            "llm_completion_tokens": usage.completion_tokens,
        }
        replayed = getattr(self.client, "hits", None)
        if replayed is not None:
            notes["llm_replayed"] = replayed
        return {**self.notes, **notes}


@contextmanager
def open_extractor(choice: ExtractorChoice) -> Iterator[OpenedExtractor]:
    """The chosen extractor, its LLM client (and replay cache) open for the duration of the block."""
    if choice.name == "none":
        yield OpenedExtractor(None)
        return
    if choice.name == "rules":
        from sodamem.ingest.extract.rules import RulesExtractor

        yield OpenedExtractor(RulesExtractor())
        return
    if choice.name != "llm":
        raise ValueError(f"unknown extractor {choice.name!r}: {', '.join(EXTRACTORS)}")
    from sodamem.ingest.extract.llm import LLMExtractor
    from sodamem.llm.client import ChatClient
    from sodamem.llm.config import LLMConfig
    from sodamem.llm.replay import CachingChatClient, ReplayCache

    with ExitStack() as stack:
        client: JsonChatClient = stack.enter_context(ChatClient(LLMConfig.from_env()))
        if choice.replay is not None:
            client = CachingChatClient(client, stack.enter_context(ReplayCache(choice.replay)))
        extractor = LLMExtractor(client, prompt=choice.prompt)
        yield OpenedExtractor(extractor, client, {"llm_prompt": extractor.prompt.name})


def slice_options(func: Any) -> Any:
    options = [
        click.option("--conversation", default=None, help="Only this conversation (a LoCoMo sample_id, e.g. conv-26)."),
        click.option(
            "--sessions", type=click.IntRange(min=1), default=None, help="Only the first N sessions of each one."
        ),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def extractor_options(func: Any) -> Any:
    options = [
        click.option("--extractor", default="rules", type=click.Choice(EXTRACTORS), show_default=True),
        click.option(
            "--extract-prompt",
            default="auto",
            type=click.Choice(PROMPT_CHOICES),
            show_default=True,
            help="The LLM extractor's prompt (auto: compact for a local GGUF model, full otherwise).",
        ),
        click.option(
            "--extract-replay",
            type=click.Path(dir_okay=False, path_type=Path),
            default=None,
            help="Record/replay cache (SQLite) of the LLM extractor's replies.",
        ),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def pop_slice(options: dict[str, Any]) -> DialogueSlice:
    return DialogueSlice(options.pop("conversation", None), options.pop("sessions", None))


def pop_extractor(options: dict[str, Any]) -> ExtractorChoice:
    return ExtractorChoice(
        options.pop("extractor", "rules"), options.pop("extract_prompt", "auto"), options.pop("extract_replay", None)
    )
