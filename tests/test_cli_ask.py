"""`sodamem ask`: the offline reader by default, an OpenAI-compatible LLM when configured (the shipped fake here)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sodamem.cli import main
from sodamem.demo import example_history_path
from sodamem.llm.fake_server import FakeChatServer, FakeReply


@pytest.fixture
def db(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    path = str(tmp_path / "m.db")
    main(["--db", path, "--embedder", "fake", "ingest", str(example_history_path())])
    capsys.readouterr()
    return path


def ask(db: str, capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    main(["--db", db, "ask", *args, "--json"])
    answer: dict[str, Any] = json.loads(capsys.readouterr().out)
    return answer


def test_offline_answer_is_the_current_fact_with_what_it_replaced(
    db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("SODAMEM_LLM_BASE_URL", "SODAMEM_LLM_MODEL", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    answer = ask(db, capsys, "Where does Maya live now?")
    assert "Manchester" in answer["answer"] and "Leeds" in answer["answer"]
    assert answer["flags"] == ["offline", "read:named_state"] and answer["abstained"] is False
    assert answer["cost"] == {"input_tokens": 0, "output_tokens": 0, "usd": 0.0}
    keys = {"session_id", "turn_index", "turn_id", "char_start", "char_end", "quote"}
    assert answer["citations"] and all(keys <= c.keys() for c in answer["citations"])
    main(["--db", db, "show", "turn", answer["citations"][0]["turn_id"], "--json"])
    turn = json.loads(capsys.readouterr().out)
    first = answer["citations"][0]
    assert turn["text"][first["char_start"] : first["char_end"]] == first["quote"]


def test_llm_answer_cites_evidence_through_the_configured_server(
    db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def responder(request: dict[str, Any]) -> FakeReply:
        system = request["messages"][0]["content"]
        if "planner" in system.lower() or "action" in json.dumps(request.get("response_format", {})).lower():
            return FakeReply.json({"action": "answer", "reason": "enough"})
        return FakeReply.json({"answer": "Maya lives in Manchester [E1].", "citations": ["E1"], "abstain": False})

    with FakeChatServer(responder=responder) as server:
        monkeypatch.setenv("SODAMEM_LLM_BASE_URL", server.base_url)
        monkeypatch.setenv("SODAMEM_LLM_MODEL", "gpt-4o-mini")
        monkeypatch.setenv("SODAMEM_LLM_API_KEY", "test")
        answer = ask(db, capsys, "Where does Maya live now?")
        assert server.chat_requests
    assert "offline" not in answer["flags"]
    assert answer["citations"] and answer["citations"][0]["id"] == "E1"
    assert answer["cost"]["input_tokens"] > 0
