"""An Extractor behind an OpenAI-compatible chat API: one request per non-empty turn.

Three prompts: ``full`` (``llm/prompts/extract_facts.py``: context turns, modality, polarity, aliases; for large
models), ``compact`` (``extract_facts_compact.py``: a short prompt and a flat six-field shape, for small local
models) and ``compact-states`` (``extract_states_compact.py``: only the states the readers ask, from a closed set of
relations). ``auto`` picks ``compact`` for a local GGUF model (``local/<name>``) and ``full`` for any other.

The LLM's reply is a proposal, never trusted: a fact whose quote is not a literal substring of the turn's text, or
whose kind/modality is not one of ours, is dropped here with a reason (the pipeline grounds again anyway). A turn
whose request fails after the client's retries, or whose reply never validates, is skipped with a reason in
``Extraction.skipped``: the LLM can lose facts, never crash ingestion.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from pydantic import BaseModel

from sodamem.ingest.extract.base import AliasHint, CandidateFact, Extraction, SessionView, TurnView
from sodamem.llm.client import LLMError
from sodamem.llm.prompts import extract_facts, extract_facts_compact, extract_states_compact
from sodamem.llm.prompts.extract_facts import ExtractedFact, ExtractedFacts
from sodamem.llm.prompts.variants import choose_variant
from sodamem.llm.replay import JsonChatClient
from sodamem.model import FactKind, Modality

log = logging.getLogger(__name__)

_E = TypeVar("_E", FactKind, Modality)
_PREDICATE_JUNK = re.compile(r"[^a-z0-9]+")
QUOTE_NOT_FOUND = "quote not found verbatim in the turn text"


@dataclass(frozen=True, slots=True)
class FactPrompt:
    """A prompt for one turn's facts: its messages, its reply schema, and the reply in the full schema's terms."""

    name: str
    schema_name: str
    schema: type[BaseModel]
    messages: Callable[[SessionView, TurnView], list[dict[str, str]]]
    to_facts: Callable[[Any], ExtractedFacts]


FACT_PROMPTS: dict[str, FactPrompt] = {
    "full": FactPrompt(
        "full",
        extract_facts.SCHEMA_NAME,
        ExtractedFacts,
        extract_facts.extract_facts_messages,
        lambda reply: reply,  # already in the full schema
    ),
    "compact": FactPrompt(
        "compact",
        extract_facts_compact.SCHEMA_NAME,
        extract_facts_compact.CompactFacts,
        extract_facts_compact.compact_facts_messages,
        extract_facts_compact.as_extracted_facts,
    ),
    # the states the readers ask, from a closed set of relations (not chosen by ``auto``: see its module)
    "compact-states": FactPrompt(
        "compact-states",
        extract_states_compact.SCHEMA_NAME,
        extract_states_compact.CompactStates,
        extract_states_compact.compact_states_messages,
        extract_states_compact.as_extracted_facts,
    ),
}
PROMPT_CHOICES = ("auto", *FACT_PROMPTS)


def choose_prompt(choice: str, model: str) -> FactPrompt:
    """``auto``: ``compact`` for a local model (``local/<name>``), ``full`` otherwise; else the named prompt."""
    return choose_variant(choice, model, FACT_PROMPTS, "extraction")


class LLMExtractor:
    """Candidate facts from an LLM (see the module docstring)."""

    def __init__(self, client: JsonChatClient, *, prompt: str = "auto") -> None:
        self.client = client
        self.prompt = choose_prompt(prompt, client.config.model)

    @property
    def name(self) -> str:
        return "llm"

    def extract(self, session: SessionView) -> Extraction:
        result = Extraction()
        for turn in session.turns:
            if not turn.text.strip():
                continue
            self._extract_turn(session, turn, result)
        return result

    def _extract_turn(self, session: SessionView, turn: TurnView, result: Extraction) -> None:
        where = f"session {session.session_id!r} turn {turn.index} ({turn.turn_id})"
        prompt = self.prompt
        try:
            reply = self.client.complete_json(prompt.messages(session, turn), prompt.schema, name=prompt.schema_name)
        except LLMError as exc:
            reason = f"{where}: skipped, LLM failed: {exc}"
            log.warning("%s", reason)
            result.skipped.append(reason)
            result.failed_turns += 1
            return
        facts = prompt.to_facts(reply.value)
        for number, fact in enumerate(facts.facts):
            candidate = _to_candidate(fact, turn)
            if isinstance(candidate, str):
                reason = f"{where}: fact {number} dropped: {candidate}"
                log.info("%s", reason)
                result.skipped.append(reason)
                result.dropped += 1
                result.ungrounded += candidate.startswith(QUOTE_NOT_FOUND)
            else:
                result.facts.append(candidate)
        for pair in facts.aliases:
            alias, canonical = pair.alias.strip(), pair.canonical.strip()
            if alias and canonical and alias != canonical:
                result.aliases.append(AliasHint(alias=alias, canonical=canonical, turn_index=turn.index))


def _to_candidate(fact: ExtractedFact, turn: TurnView) -> CandidateFact | str:
    """The CandidateFact, or the reason it was dropped."""
    kind = _enum_value(FactKind, fact.kind)
    if kind is None:
        return f"unknown kind {fact.kind!r}"
    modality = _enum_value(Modality, fact.modality)
    if modality is None:
        return f"unknown modality {fact.modality!r}"
    quote = fact.quote.strip()
    if not quote:
        return "empty quote"
    char_start = turn.text.find(quote)
    if char_start < 0:
        return f"{QUOTE_NOT_FOUND}: {_clip(quote)!r}"
    predicate = _PREDICATE_JUNK.sub("_", fact.predicate.strip().lower()).strip("_")
    if not predicate:
        return f"empty predicate ({fact.predicate!r})"
    subject = fact.subject.strip()
    if not subject:
        return "empty subject"
    obj = (fact.object or "").strip() or None
    time_expression = (fact.time_expression or "").strip() or None
    if time_expression is not None and time_expression.lower() not in turn.text.lower():
        # The time words must be the turn's own; an invented date is worse than none.
        time_expression = None
    text = fact.text.strip() or " ".join(p for p in (subject, predicate.replace("_", " "), obj) if p)
    return CandidateFact(
        kind=kind,
        predicate=predicate,
        subject=subject,
        turn_index=turn.index,
        quote=quote,
        object=obj,
        modality=modality,
        polarity=fact.polarity,
        char_start=char_start,
        time_expression=time_expression,
        text=text,
    )


def _enum_value(enum: type[_E], value: str) -> _E | None:
    try:
        return enum(value.strip().lower())
    except ValueError:
        return None


def _clip(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
