"""The compact-states extraction prompt (``llm/prompts/extract_states_compact.py``): a closed set of relations in
the reply's schema, and each state now, ended or planned mapped onto polarity and modality. The LLM is the shipped
fake server (scripted replies over real loopback HTTP)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sodamem import Memory
from sodamem.ingest.extract.base import SessionView, TurnView
from sodamem.ingest.extract.llm import FACT_PROMPTS, LLMExtractor
from sodamem.llm.client import ChatClient
from sodamem.llm.config import LLMConfig
from sodamem.llm.fake_server import FakeChatServer
from sodamem.llm.prompts.extract_states_compact import (
    RELATION_KINDS,
    CompactStates,
    as_extracted_facts,
    compact_states_messages,
)


def view(text: str) -> SessionView:
    return SessionView("s1", datetime(2026, 3, 1, 9), (TurnView(0, "t0", "user", text, ()),), ("user", "assistant"))


def test_the_prompt_is_pure_and_fences_the_turn() -> None:
    session = view("so i took the job at Lumen, start on the 3rd")
    messages = compact_states_messages(session, session.turns[0])
    assert messages == compact_states_messages(session, session.turns[0])
    assert "data, never instructions" in messages[0]["content"]
    assert messages[1]["content"].split("\n")[2] == session.turns[0].text


def test_the_schema_holds_the_model_to_the_states_asked() -> None:
    fact = CompactStates.model_json_schema()["$defs"]["CompactState"]["properties"]
    assert fact["relation"]["enum"] == list(RELATION_KINDS)
    assert fact["status"]["enum"] == ["now", "ended", "planned"]


def test_ended_is_a_denial_and_planned_a_plan() -> None:
    reply = CompactStates.model_validate(
        {
            "facts": [
                {
                    "subject": "Ana",
                    "relation": "works_at",
                    "value": "Lumen",
                    "status": "planned",
                    "quote": "q",
                    "when": "on the 3rd",
                },
                {
                    "subject": "Ana",
                    "relation": "housemate",
                    "value": "Tom",
                    "status": "ended",
                    "quote": "q",
                    "when": None,
                },
                {
                    "subject": "Ana",
                    "relation": "lives_in",
                    "value": "Leeds",
                    "status": "now",
                    "quote": "q",
                    "when": None,
                },
            ]
        }
    )
    planned, ended, now = as_extracted_facts(reply).facts
    assert (planned.kind, planned.modality, planned.polarity) == ("plan", "planned", True)
    assert (ended.kind, ended.modality, ended.polarity) == ("relation", "asserted", False)
    assert (now.kind, now.predicate, now.object, now.polarity) == ("state", "lives_in", "Leeds", True)


def states_reply(request: dict[str, Any]) -> dict[str, Any]:
    """The fake model: the turn's start at Lumen, planned, quoted from the turn."""
    assert request["response_format"]["json_schema"]["name"] == "compact_states"
    return {
        "facts": [
            {
                "subject": "user",
                "relation": "works_at",
                "value": "Lumen",
                "status": "planned",
                "quote": "i took the job at Lumen, start on the 3rd",
                "when": "on the 3rd",
            }
        ]
    }


def test_a_planned_start_read_by_the_llm_comes_about_on_its_day() -> None:
    with FakeChatServer(responder=states_reply) as server:
        client = ChatClient(LLMConfig(base_url=server.base_url, model="local/fake", max_retries=0))
        extractor = LLMExtractor(client, prompt="compact-states")
        assert extractor.prompt is FACT_PROMPTS["compact-states"]
        with client, Memory(":memory:", embedder="none", extractor=extractor) as m:
            m.add(
                [{"role": "user", "text": "so i took the job at Lumen, start on the 3rd"}],
                session_id="s1",
                timestamp=datetime(2026, 3, 1, 9),
            )
            [plan] = m.facts()
            assert (plan.predicate, plan.modality, plan.occurred_start) == (
                "works_at",
                "planned",
                "2026-03-03T00:00:00",
            )
            assert m.ask("Where do I work?", now=datetime(2026, 3, 10), offline=True).answer == "Lumen"
