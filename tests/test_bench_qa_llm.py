"""QA benchmarks through the LLM path, end to end on the CLI: the scripted fake server (``--answerer llm-fake``), an
endpoint from SODAMEM_LLM_* (the shipped fake server on loopback) as answerer and judge, the replay cache, and
LongMemEval's judge per question type."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from sodamem.bench.cli import bench
from sodamem.bench.qa_llm import fake_policy
from sodamem.llm.fake_server import FakeChatServer, FakeReply
from sodamem.llm.prices import cost_usd
from sodamem.llm.prompts import judge_longmemeval
from tests.test_bench_qa import fixture as locomo_fixture

HAYSTACK_DATES = ["2023/05/20 (Sat) 10:00", "2023/05/25 (Thu) 18:30", "2023/05/28 (Sun) 09:15"]
SESSIONS = [
    [
        {"role": "user", "content": "I adopted a beagle named Rex last week.", "has_answer": True},
        {"role": "assistant", "content": "Congratulations! Beagles love long walks."},
    ],
    [
        {"role": "user", "content": "I moved from Porto to Lisbon this month.", "has_answer": True},
        {"role": "assistant", "content": "Lisbon is lovely. Try the pastel de nata at Manteigaria."},
    ],
    [
        {"role": "user", "content": "Can you suggest a weekend hike?"},
        {"role": "assistant", "content": "Sintra has good trails."},
    ],
]
QUESTIONS = [
    ("q-user", "single-session-user", "What breed is my dog?", "beagle"),
    ("q-update", "knowledge-update", "Which city do I live in now?", "Lisbon"),
    ("q-assistant", "single-session-assistant", "Where did you say to try pastel de nata?", "Manteigaria"),
    ("q-cat_abs", "single-session-user", "What is my cat's name?", "You never mentioned a cat."),
]


def lme_fixture(tmp_path: Path) -> Path:
    items = [
        {
            "question_id": qid,
            "question_type": qtype,
            "question": question,
            "answer": answer,
            "question_date": "2023/05/30 (Tue) 23:40",
            "haystack_session_ids": ["s1", "s2", "s3"],
            "haystack_dates": HAYSTACK_DATES,
            "haystack_sessions": SESSIONS,
            "answer_session_ids": ["s1"],
        }
        for qid, qtype, question, answer in QUESTIONS
    ]
    path = tmp_path / "longmemeval_tiny.json"
    path.write_text(json.dumps(items), "utf-8")
    return path


def fenced(text: str, label: str) -> str:
    match = re.search(rf"<<<{label} \w+>>>\n(.*?)\n<<<END {label} \w+>>>", text, re.DOTALL)
    assert match, f"no {label} section in {text!r}"
    return match.group(1)


def judging_server_policy(body: dict[str, Any]) -> FakeReply:
    """The scripted answer loop, and a judge that says yes when the gold answer is in the response (or, for an
    abstention question, when the response says it cannot answer)."""
    name = body["response_format"]["json_schema"]["name"]
    if name != judge_longmemeval.SCHEMA_NAME:
        return fake_policy(body)
    user = body["messages"][-1]["content"]
    response = fenced(user, "MODEL RESPONSE").lower()
    abstention = "<<<EXPLANATION " in user
    yes = "cannot" in response if abstention else fenced(user, "CORRECT ANSWER").lower() in response
    return FakeReply.json({"verdict": "yes" if yes else "no"}, prompt_tokens=100, completion_tokens=3)


def test_llm_fake_measures_the_tokens_the_llm_path_sends(tmp_path: Path) -> None:
    out, plot = tmp_path / "qa.json", tmp_path / "qa.png"
    args = ["locomo", "--qa", "--data", str(locomo_fixture(tmp_path)), "--embedder", "fake", "--answerer", "llm-fake"]
    result = CliRunner().invoke(
        bench, [*args, "--model", "gemini-2.0-flash", "--judge", "--json", str(out), "--plot", str(plot)]
    )
    assert result.exit_code == 0, result.output
    assert "fake server (scripted replies, not a model" in result.output
    data = json.loads(out.read_text("utf-8"))
    summary, results = data["summary"], data["results"]
    calls = data["notes"]["llm_calls"]["answer"]
    assert calls["planner_action"]["requests"] == 5 and calls["reader_reply"]["requests"] == 5  # one of each
    assert calls["planner_action"]["errors"] == 0 and calls["reader_reply"]["errors"] == 0
    for r in results:
        assert r["steps"] == 2 and r["input_tokens"] > 300 and r["output_tokens"] > 10
        assert not any(f.startswith("fallback") for f in r["flags"])
        assert r["citations"] == 1 and re.search(r" \[E\d+\]\.$", r["answer"])
        assert r["citations_reread"] == 1
        assert r["usd"] == pytest.approx(cost_usd("gemini-2.0-flash", r["input_tokens"], r["output_tokens"]).usd)
        assert r["baseline_score"] is not None  # the offline reader scored on the same questions
    total_in = calls["planner_action"]["prompt_tokens"] + calls["reader_reply"]["prompt_tokens"]
    assert summary["answer_tokens"]["input"]["mean"] == pytest.approx(total_in / 5)
    assert summary["model"] == "gemini-2.0-flash" and summary["judge"] == "llm:gemini-2.0-flash"
    judge_calls = data["notes"]["llm_calls"]["judge"]["locomo_judgement"]
    assert judge_calls["requests"] == 4 and summary["overall"]["judged"] == 4  # categories 1-4 only
    assert summary["judge_tokens"]["input"]["mean"] == pytest.approx(judge_calls["prompt_tokens"] / 4)
    assert summary["answer_tokens"]["input"]["mean"] != summary["judge_tokens"]["input"]["mean"]
    assert summary["overall"]["baseline_score"] is not None and "offline F1" in result.output
    assert summary["citations"] == {"answers": 5, "cited": 5, "reread": 5, "unknown_ids": 0}
    assert "5 re-read from the store" in result.output
    assert plot.read_bytes().startswith(b"\x89PNG")


def test_longmemeval_qa_with_the_llm_as_answerer_and_judge(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "lme.json"
    with FakeChatServer(responder=judging_server_policy) as server:
        monkeypatch.setenv("SODAMEM_LLM_BASE_URL", server.base_url)
        monkeypatch.setenv("SODAMEM_LLM_MODEL", "gpt-4o-mini")
        args = ["longmemeval", "--qa", "--data", str(lme_fixture(tmp_path)), "--embedder", "fake"]
        result = CliRunner().invoke(bench, [*args, "--answerer", "llm", "--judge", "--json", str(out)])
        bodies = [r.body for r in server.chat_requests]
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text("utf-8"))
    by_id = {r["qid"]: r for r in data["results"]}
    judged = [b for b in bodies if b["response_format"]["json_schema"]["name"] == judge_longmemeval.SCHEMA_NAME]
    assert len(judged) == 4 and len(bodies) == 4 * 3  # planner, reader and judge per question
    for r in by_id.values():
        gold_in_answer = r["gold"].lower() in r["answer"].lower()
        expected = r["abstained"] if r["qid"].endswith("_abs") else gold_in_answer
        assert r["judge_correct"] is expected, r
        assert (r["judge_input_tokens"], r["judge_output_tokens"]) == (100, 3)
        assert r["judge_usd"] == pytest.approx(cost_usd("gpt-4o-mini", 100, 3).usd)
        assert r["input_tokens"] > 100 and r["usd"] > 0  # the answer's cost, apart from the judge's
    assert by_id["q-cat_abs"]["abstention_question"] and not by_id["q-user"]["abstention_question"]
    update = next(b for b in judged if "Which city" in b["messages"][-1]["content"])
    assert "updated answer" in update["messages"][0]["content"]
    abstention = next(b for b in judged if "cat's name" in b["messages"][-1]["content"])
    assert "cannot be answered" in abstention["messages"][0]["content"]
    summary = data["summary"]
    assert summary["judge"] == "llm:gpt-4o-mini" and summary["score_name"] == "match"
    assert set(summary["categories"]) == {"single-session-user", "knowledge-update", "single-session-assistant"}
    accuracy = sum(bool(r["judge_correct"]) for r in by_id.values()) / 4
    assert summary["overall"]["judge_accuracy"] == pytest.approx(accuracy) and summary["overall"]["judged"] == 4
    assert summary["judge_tokens"]["total"]["mean"] == 103
    assert summary["abstention"]["questions"] == 1 and "abstention (_abs)" in result.output
    assert data["notes"]["llm_calls"]["judge"][judge_longmemeval.SCHEMA_NAME]["requests"] == 4
    assert "judge accuracy" in result.output and "judge, counted apart" in result.output


def test_longmemeval_qa_offline_names_its_fallback(tmp_path: Path) -> None:
    out = tmp_path / "lme.json"
    args = ["longmemeval", "--qa", "--data", str(lme_fixture(tmp_path)), "--embedder", "fake", "--json", str(out)]
    result = CliRunner().invoke(bench, args)
    assert result.exit_code == 0, result.output
    assert "contained match" in result.output and "judge: none" in result.output
    data = json.loads(out.read_text("utf-8"))
    assert data["notes"]["score"].startswith("contained-match (offline fallback, not the LongMemEval judge)")
    assert data["summary"]["judge"] is None and data["summary"]["overall"]["judge_accuracy"] is None
    by_id = {r["qid"]: r for r in data["results"]}
    assert by_id["q-user"]["score"] == float("beagle" in by_id["q-user"]["answer"].lower())
    assert by_id["q-cat_abs"]["score"] == float(by_id["q-cat_abs"]["abstained"])
    assert data["notes"]["questions"] == 4 and data["notes"]["abstention"] == 1


def test_replay_rescores_a_recorded_run_without_the_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    replay, first, second = tmp_path / "replies.db", tmp_path / "first.json", tmp_path / "second.json"
    data_args = ["locomo", "--qa", "--data", str(locomo_fixture(tmp_path)), "--embedder", "fake", "--answerer", "llm"]
    with FakeChatServer(responder=fake_policy) as server:
        monkeypatch.setenv("SODAMEM_LLM_BASE_URL", server.base_url)
        monkeypatch.setenv("SODAMEM_LLM_MODEL", "gpt-4o-mini")
        recorded = CliRunner().invoke(bench, [*data_args, "--replay", str(replay), "--json", str(first)])
        assert recorded.exit_code == 0, recorded.output
        assert len(server.chat_requests) == 10
    # the server is gone: only the replay cache can answer
    replayed = CliRunner().invoke(bench, [*data_args, "--replay", str(replay), "--replay-only", "--json", str(second)])
    assert replayed.exit_code == 0, replayed.output
    a, b = json.loads(first.read_text("utf-8")), json.loads(second.read_text("utf-8"))
    assert a["notes"]["replay"]["answer"] == {"hits": 0, "misses": 10}
    assert b["notes"]["replay"]["answer"] == {"hits": 10, "misses": 0}
    keys = ("answer", "score", "input_tokens", "output_tokens", "usd", "flags")
    assert [[r[k] for k in keys] for r in a["results"]] == [[r[k] for k in keys] for r in b["results"]]
    assert a["summary"]["answer_tokens"] == b["summary"]["answer_tokens"]


def test_a_sample_with_flat_bm25_evidence(tmp_path: Path) -> None:
    out = tmp_path / "qa.json"
    args = ["locomo", "--qa", "--data", str(locomo_fixture(tmp_path)), "--embedder", "fake", "--answerer", "llm-fake"]
    result = CliRunner().invoke(bench, [*args, "--sample", "3", "--evidence", "bm25", "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert "evidence: flat bm25" in result.output and "a fixed sample of 3" in result.output
    data = json.loads(out.read_text("utf-8"))
    assert len(data["results"]) == 3 and len({r["category"] for r in data["results"]}) == 3
    assert data["notes"]["evidence"] == "bm25" and data["notes"]["sample"] == 3
    bad = CliRunner().invoke(bench, [*args, "--sample", "0"])
    assert bad.exit_code == 2 and "--sample" in bad.output
