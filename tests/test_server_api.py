"""The HTTP API of ``sodamem serve`` in process (FastAPI's TestClient): every route's content and citations, how
every error maps to a status and a field, that an error writes nothing, and who may call it (keys, ``--no-auth``)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.types import Message, Receive, Scope, Send

from sodamem.errors import InputError, StoreBusyError
from sodamem.keys import KeyRing
from sodamem.memory import Memory
from sodamem.server.app import create_app
from sodamem.server.errors import BodyLimit
from sodamem.server.host_guard import is_loopback_name
from sodamem.server.settings import ServeSettings
from sodamem.store.sqlite import SQLiteStore
from tests.serve_process import create_key

MAX_BODY = 64 * 1024
T0 = "2024-03-01T10:00:00"
T1 = "2024-04-01T10:00:00"
FIRST = [
    {"speaker": "user", "text": "I live in Zanzibarville and I work as a nurse at Saint Quokka Hospital.", "id": "m1"},
    {"speaker": "assistant", "text": "Noted, nurse from Zanzibarville.", "id": "m2"},
    {"speaker": "user", "text": "My dog is called Pepperwhistle.", "id": "m3"},
]
MOVE = [{"speaker": "user", "text": "I moved to Quuxton last week.", "id": "m4"}]


class Api:
    """A TestClient on a fresh database, with a live key for alice and one for bob."""

    def __init__(self, client: TestClient, db: Path, keys: dict[str, str]) -> None:
        self.client = client
        self.db = db
        self.keys = keys

    def headers(self, user: str = "alice") -> dict[str, str]:
        return {"Authorization": f"Bearer {self.keys[user]}"}

    def get(self, path: str, user: str = "alice", **kwargs: Any) -> Any:
        return self.client.get(path, headers=self.headers(user), **kwargs)

    def post(self, path: str, user: str = "alice", **kwargs: Any) -> Any:
        return self.client.post(path, headers={**self.headers(user), **kwargs.pop("headers", {})}, **kwargs)

    def delete(self, path: str, user: str = "alice", **kwargs: Any) -> Any:
        return self.client.delete(path, headers=self.headers(user), **kwargs)

    def ok(self, method: str, path: str, user: str = "alice", **kwargs: Any) -> Any:
        response = getattr(self, method)(path, user, **kwargs)
        assert response.status_code == 200, response.text
        return response.json()

    def stats(self, user: str = "alice") -> dict[str, Any]:
        return dict(self.ok("get", "/v1/stats", user))

    def turn(self, session_id: str, turn_id: str, user: str = "alice") -> dict[str, Any]:
        return dict(self.ok("get", f"/v1/turns/{turn_id}", user, params={"session_id": session_id}))


@pytest.fixture
def api(tmp_path: Path) -> Iterator[Api]:
    db = tmp_path / "m.db"
    app = create_app(ServeSettings(db=str(db), embedder="fake", pool_size=2, max_body_bytes=MAX_BODY))
    keys = {user: create_key(db, user)[1] for user in ("alice", "bob")}
    with TestClient(app, raise_server_exceptions=True) as client:
        yield Api(client, db, keys)


def seed(api: Api) -> dict[str, Any]:
    """alice: session s1 (said on 1 March, grown on 1 April: the move replaces where she lives)."""
    first = api.ok("post", "/v1/messages", json={"session_id": "s1", "timestamp": T0, "messages": FIRST})
    second = api.ok("post", "/v1/messages", json={"session_id": "s1", "timestamp": T1, "messages": MOVE})
    return {"first": first, "second": second}


def error(response: Any, status: int, field: str | None = None) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error", "field"} and body["error"]
    if field is not None:
        assert body["field"] == field, body
    return dict(body)


def assert_time(value: str) -> None:
    assert isinstance(value, str) and datetime.fromisoformat(value)


def assert_hit_cites(api: Api, hit: dict[str, Any], user: str = "alice") -> None:
    assert hit["text"] == hit["turn_text"][hit["char_start"] : hit["char_end"]] and hit["text"]
    assert_time(hit["timestamp"])
    turn = api.turn(hit["session_id"], hit["turn_id"], user)
    assert turn["text"] == hit["turn_text"] and turn["turn_index"] == hit["turn_index"]


def assert_fact_cites(api: Api, fact: dict[str, Any], user: str = "alice") -> None:
    assert fact["sources"], fact
    assert_time(fact["mentioned_at"])
    for source in fact["sources"]:
        turn = api.turn(source["session_id"], source["turn_id"], user)
        assert source["quote"] == turn["text"][source["char_start"] : source["char_end"]] and source["quote"]
        assert source["turn_index"] == turn["turn_index"]
        assert_time(source["timestamp"])


def assert_answer_cites(api: Api, answer: dict[str, Any], user: str = "alice") -> None:
    assert answer["citations"], answer
    for citation in answer["citations"]:
        turn = api.turn(citation["session_id"], citation["turn_id"], user)
        assert citation["quote"] == turn["text"][citation["char_start"] : citation["char_end"]] and citation["quote"]
        assert citation["turn_index"] == turn["turn_index"]
        assert_time(citation["timestamp"])
        assert citation["timestamp"] == turn["timestamp"]  # when the cited words were said


# -- meta --------------------------------------------------------------------------------------------------------


def test_healthz_needs_no_key_and_the_schema_documents_every_route(api: Api) -> None:
    health = api.client.get("/healthz")
    assert health.status_code == 200 and health.json()["status"] == "ok"
    schema = api.client.get("/openapi.json").json()
    routes = {(method.upper(), path) for path, ops in schema["paths"].items() for method in ops}
    expected = {
        ("POST", "/v1/messages"), ("POST", "/v1/sessions"), ("GET", "/v1/sessions"),
        ("GET", "/v1/sessions/{session_id}"), ("DELETE", "/v1/sessions/{session_id}"), ("GET", "/v1/turns/{turn_id}"),
        ("DELETE", "/v1/turns/{turn_id}"), ("POST", "/v1/search"), ("POST", "/v1/ask"), ("GET", "/v1/facts"),
        ("GET", "/v1/facts/{fact_id}"), ("DELETE", "/v1/facts/{fact_id}"), ("GET", "/v1/facts/{fact_id}/history"),
        ("GET", "/v1/export"), ("GET", "/v1/stats"), ("GET", "/healthz"),
    }  # fmt: skip
    assert expected <= routes
    for method, path in expected - {("GET", "/healthz")}:
        documented = set(schema["paths"][path][method.lower()]["responses"])
        assert {"200", "400", "401", "404", "409", "413", "422", "503"} <= documented, (method, path)


# -- writing -----------------------------------------------------------------------------------------------------


def test_add_messages_stores_cited_turns_and_facts(api: Api) -> None:
    reports = seed(api)
    first = reports["first"]
    assert first["user"] == "alice" and first["session_id"] == "s1" and first["session_created"] is True
    assert [(t["turn_id"], t["turn_index"], t["speaker"], t["timestamp"]) for t in first["added"]] == [
        ("m1", 0, "user", T0),
        ("m2", 1, "assistant", T0),
        ("m3", 2, "user", T0),
    ]
    assert first["facts_added"] == len(first["fact_ids"]) >= 2 and first["embedded"] > 0
    second = reports["second"]
    assert second["session_created"] is False and [t["turn_index"] for t in second["added"]] == [3]
    assert second["added"][0]["timestamp"] == T1
    session = api.ok("get", "/v1/sessions/s1")
    assert [t["text"] for t in session["turns"]] == [m["text"] for m in FIRST + MOVE]
    for fact_id in first["fact_ids"] + second["fact_ids"]:
        assert_fact_cites(api, api.ok("get", f"/v1/facts/{fact_id}"))


def test_messages_without_a_session_id_join_the_session_of_their_day(api: Api) -> None:
    msg = {"speaker": "user", "text": "I adopted a cat named Miso."}
    report = api.ok("post", "/v1/messages", json={"timestamp": "2024-07-09T21:00:00", "messages": [msg]})
    assert report["session_id"] == "2024-07-09" and report["added"][0]["turn_id"] == "2024-07-09:0"
    assert [t["text"] for t in api.ok("get", "/v1/sessions/2024-07-09")["turns"]] == [msg["text"]]
    error(api.post("/v1/messages", json={"session_id": "  ", "messages": [msg]}), 400)


def test_a_message_sent_again_is_unchanged_and_one_with_other_content_is_409(api: Api) -> None:
    seed(api)
    before = api.stats()
    again = api.ok("post", "/v1/messages", json={"session_id": "s1", "messages": [FIRST[0]]})
    assert again["unchanged"] == ["m1"] and again["added"] == [] and api.stats() == before
    changed = {**FIRST[0], "text": "I live in Elsewhere."}
    new = {"speaker": "user", "text": "A brand new line that must not be stored.", "id": "m9"}
    error(api.post("/v1/messages", json={"session_id": "s1", "messages": [new, changed]}), 409)
    assert api.stats() == before
    assert "brand new line" not in api.client.get("/v1/export", headers=api.headers()).text


def test_a_body_sent_as_another_type_than_json_is_415_saying_so(api: Api) -> None:
    body = '{"query": "dog"}'
    refused = error(api.post("/v1/search", content=body, headers={"Content-Type": "text/plain"}), 415)
    assert "Content-Type: application/json" in refused["error"] and "text/plain" in refused["error"]
    sent_as_json = api.post("/v1/search", content=body, headers={"Content-Type": "application/json"})
    assert sent_as_json.status_code == 200
    latin1 = api.post(
        "/v1/search", content='{"query": "caf\xe9"}'.encode("latin-1"), headers={"Content-Type": "application/json"}
    )
    assert "not UTF-8" in error(latin1, 400, "body")["error"]
    untyped = error(api.post("/v1/search", content=body.encode(), headers={"Content-Type": ""}), 415)
    assert "not none" in untyped["error"]
    error(api.post("/v1/search"), 422)  # no body at all: the query is missing


def test_bad_timestamps_are_400_naming_the_field_and_write_nothing(api: Api) -> None:
    seed(api)
    before = api.stats()
    msg = {"speaker": "user", "text": "hello"}
    cases = [
        ("post", "/v1/messages", {"json": {"session_id": "s2", "timestamp": "yesterday-ish", "messages": [msg]}},
         "timestamp"),
        ("post", "/v1/messages", {"json": {"session_id": "s2", "messages": [msg, {**msg, "timestamp": "13/13/13"}]}},
         "messages[1].timestamp"),
        ("post", "/v1/search", {"json": {"query": "dog", "now": "not a time"}}, "now"),
        ("post", "/v1/search", {"json": {"query": "  ?? "}}, "query"),  # no word to search for
        ("post", "/v1/ask", {"json": {"question": "?", "offline": True}}, "question"),
        ("post", "/v1/ask", {"json": {"question": "dog?", "now": "not a time"}}, "now"),
        ("get", "/v1/facts", {"params": {"as_of": "not a time"}}, "as_of"),
        ("get", "/v1/facts", {"params": {"status": "bogus"}}, "status"),
    ]  # fmt: skip
    for method, path, kwargs, field in cases:
        error(getattr(api, method)(path, **kwargs), 400, field)
    assert api.stats() == before
    error(api.get("/v1/sessions/s2"), 404)


@pytest.mark.parametrize(
    ("method", "path", "kwargs", "field"),
    [
        ("post", "/v1/messages", {"json": {"session_id": "s"}}, "messages"),
        ("post", "/v1/messages", {"json": {"session_id": "s", "messages": []}}, "messages"),
        ("post", "/v1/messages", {"json": {"session_id": "s", "messages": [{"speaker": "u"}]}}, "messages.0.text"),
        ("post", "/v1/messages", {"json": {"session_id": "", "messages": [{"text": "x"}]}}, "session_id"),
        ("post", "/v1/messages", {"json": {"session_id": "s", "messages": [{"text": "x", "colour": 1}]}},
         "messages.0.colour"),
        ("post", "/v1/messages", {"content": b"{not json", "headers": {"content-type": "application/json"}}, "body"),
        ("post", "/v1/search", {"json": {"query": ""}}, "query"),
        ("post", "/v1/search", {"json": {"query": "x", "k": 0}}, "k"),
        ("post", "/v1/search", {"json": {"query": "x", "mode": "psychic"}}, "mode"),
        ("post", "/v1/search", {"json": {"query": "x", "preset": "default+density.spill=-5"}}, "preset"),
        ("post", "/v1/ask", {"json": {"question": "x", "budget": 1}}, "budget"),
        ("post", "/v1/ask", {"json": {"question": "x", "steps": 99}}, "steps"),
        ("post", "/v1/sessions?format=xml", {"content": b"{}"}, "format"),
        ("post", "/v1/sessions?replace=perhaps", {"content": b"{}"}, "replace"),
        ("get", "/v1/facts/0", {}, "fact_id"),
        ("get", "/v1/facts/abc", {}, "fact_id"),
        ("get", f"/v1/facts/{1 << 63}/history", {}, "fact_id"),
        ("delete", "/v1/facts/1?dry_run=maybe", {}, "dry_run"),
        ("delete", "/v1/sessions/s1?dry_run=maybe", {}, "dry_run"),
    ],
)  # fmt: skip
def test_requests_off_their_schema_are_422_naming_the_field(
    api: Api, method: str, path: str, kwargs: dict[str, Any], field: str
) -> None:
    before = api.stats()
    error(getattr(api, method)(path, **kwargs), 422, field)
    assert api.stats() == before


def jsonl(*records: dict[str, Any]) -> bytes:
    return "".join(json.dumps(r) + "\n" for r in records).encode()


def generic(session_id: str, *texts: str, when: str = "2024-05-02T09:00:00", **extra: Any) -> dict[str, Any]:
    turns = [{"speaker": "user" if i % 2 == 0 else "assistant", "text": t} for i, t in enumerate(texts)]
    return {"session_id": session_id, "timestamp": when, "turns": turns, **extra}


NDJSON = {"content-type": "application/x-ndjson"}


def test_ingest_sessions_in_every_format(api: Api) -> None:
    trip = generic("trip", "We flew to Ulaanbaatar for the Naadam festival.", "How was the wrestling?")
    hike = generic("hike", "Tom and I hiked up Kinder Scout from Edale.", "Windy?", when="2024-05-09T09:00:00")
    report = api.ok("post", "/v1/sessions", content=jsonl(trip, hike), headers=NDJSON)
    assert report["sessions_added"] == 2 and report["turns_added"] == 4 and report["users"] == ["alice"]
    assert sorted(report["session_ids"]) == ["hike", "trip"]
    listed = api.ok("post", "/v1/sessions", json=[generic("list-a", "Plain JSON list, first."), generic("list-b", "b")])
    assert listed["sessions_added"] == 2
    locomo = {
        "sample_id": "conv-z",
        "conversation": {
            "speaker_a": "Caroline",
            "speaker_b": "Melanie",
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": [
                {"speaker": "Caroline", "dia_id": "D1:1", "text": "Hey Mel! I went kayaking at Lake Qwertyuiop."},
                {"speaker": "Melanie", "dia_id": "D1:2", "text": "Wow, was it cold?"},
            ],
        },
        "qa": [],
    }
    assert api.ok("post", "/v1/sessions", params={"format": "locomo"}, json=[locomo])["sessions_added"] == 1
    lme = {
        "question_id": "q-1",
        "question_type": "single-session-user",
        "question": "What colour is my bike?",
        "answer": "teal",
        "question_date": "2023/05/30 (Tue) 23:40",
        "haystack_session_ids": ["answer_1"],
        "haystack_dates": ["2023/05/20 (Sat) 02:21"],
        "haystack_sessions": [[{"role": "user", "content": "I just bought a teal bike for commuting."}]],
        "answer_session_ids": ["answer_1"],
    }
    assert api.ok("post", "/v1/sessions", json=[lme])["sessions_added"] == 1
    sources = {s["session_id"]: s for s in api.ok("get", "/v1/sessions")["sessions"]}
    assert {"trip", "hike", "list-a", "list-b", "answer_1"} <= set(sources) and len(sources) == 6
    assert sources["trip"]["turns"] == 2 and sources["trip"]["timestamp"] == "2024-05-02T09:00:00"
    kayak = api.ok("post", "/v1/search", json={"query": "kayaking Qwertyuiop", "k": 1})["results"][0]
    assert "Qwertyuiop" in kayak["text"] and kayak["turn_id"] == "D1:1"
    assert_hit_cites(api, kayak)
    # The same body again changes nothing; other content for a stored id is a 409 until replace=true.
    again = api.ok("post", "/v1/sessions", content=jsonl(trip, hike), headers=NDJSON)
    assert again["sessions_unchanged"] == 2 and again["sessions_added"] == 0
    other = generic("trip", "We flew to Reykjavik instead.")
    before = api.stats()
    error(api.post("/v1/sessions", content=jsonl(generic("fresh", "must not land"), other), headers=NDJSON), 409)
    assert api.stats() == before
    error(api.get("/v1/sessions/fresh"), 404)
    replaced = api.ok("post", "/v1/sessions", params={"replace": "true"}, content=jsonl(other), headers=NDJSON)
    assert replaced["sessions_replaced"] == 1
    assert api.ok("get", "/v1/sessions/trip")["turns"][0]["text"] == "We flew to Reykjavik instead."


def test_a_body_with_one_bad_session_stores_nothing(api: Api) -> None:
    seed(api)
    before, sessions = api.stats(), api.ok("get", "/v1/sessions")
    bad = generic("bad", "fine")
    bad["turns"].append({"speaker": "user"})  # no text
    body = jsonl(generic("good-1", "I adopted a cat named Mochi."), bad, generic("good-2", "also fine"))
    err = error(api.post("/v1/sessions", content=body, headers=NDJSON), 400)
    assert "text" in (err["field"] or "") and "bad" in err["error"]
    for payload, headers in [
        (b"\xff\xfe not utf-8", {}),
        (b"", {}),
        (b'[{"session_id": "x"}]', {}),
        (b'{"neither": "format"}', {}),
        (jsonl(generic("dated", "x", when="whenever")), NDJSON),
    ]:
        error(api.post("/v1/sessions", content=payload, headers=headers), 400)
    assert api.stats() == before and api.ok("get", "/v1/sessions") == sessions
    assert "Mochi" not in api.client.get("/v1/export", headers=api.headers()).text


def test_a_session_naming_another_user_lands_in_the_callers_memory(api: Api) -> None:
    api.ok("post", "/v1/sessions", json=[generic("mine", "Smuggled words: Xylophonica.", user="bob")])
    assert api.ok("get", "/v1/sessions/mine")["user"] == "alice"
    assert api.stats("bob")["sessions"] == 0
    error(api.get("/v1/sessions/mine", "bob"), 404)
    assert api.ok("post", "/v1/search", "bob", json={"query": "Xylophonica"})["results"] == []


# -- reading -----------------------------------------------------------------------------------------------------


def test_sessions_list_and_one_session_with_cited_pieces(api: Api) -> None:
    seed(api)
    listed = api.ok("get", "/v1/sessions")["sessions"]
    assert len(listed) == 1
    summary = listed[0]
    assert summary["session_id"] == "s1" and summary["turns"] == 4 and summary["facts"] >= 2
    assert summary["timestamp"] == T0 and summary["source"] == "live"
    session = api.ok("get", "/v1/sessions/s1")
    assert session["user"] == "alice" and session["session_id"] == "s1" and len(session["turns"]) == 4
    for turn in session["turns"]:
        assert turn["pieces"]
        for piece in turn["pieces"]:
            assert piece["text"] == turn["text"][piece["char_start"] : piece["char_end"]]
            citation = piece["citation"]
            assert (citation["session_id"], citation["turn_id"]) == ("s1", turn["turn_id"])
            assert (citation["char_start"], citation["char_end"]) == (piece["char_start"], piece["char_end"])
            assert citation["timestamp"] == turn["timestamp"]
    assert session["turns"][3]["timestamp"] == T1


def test_a_turn_by_id_and_an_ambiguous_one_is_409_until_its_session_is_named(api: Api) -> None:
    seed(api)
    turn = api.ok("get", "/v1/turns/m3")
    assert turn["text"] == "My dog is called Pepperwhistle." and turn["session_id"] == "s1"
    assert turn["turn_index"] == 2 and turn["timestamp"] == T0 and turn["speaker"] == "user"
    api.ok("post", "/v1/messages", json={"session_id": "s2", "messages": [{"role": "user", "text": "x", "id": "m3"}]})
    error(api.get("/v1/turns/m3"), 409)
    assert api.ok("get", "/v1/turns/m3", params={"session_id": "s2"})["text"] == "x"
    error(api.get("/v1/turns/m3", params={"session_id": "nope"}), 404)
    error(api.get("/v1/turns/m3", params={"session_id": ""}), 400, "session_id")
    error(api.delete("/v1/turns/m3", params={"session_id": "", "dry_run": "true"}), 400, "session_id")  # as GET


@pytest.mark.parametrize("mode", ["auto", "bm25", "dense", "hybrid-rrf", "sodamem"])
def test_search_hits_cite_their_source(api: Api, mode: str) -> None:
    seed(api)
    payload = api.ok("post", "/v1/search", json={"query": "what is my dog called", "k": 3, "mode": mode, "now": T1})
    assert payload["query"] == "what is my dog called"
    hits = payload["results"]
    assert 1 <= len(hits) <= 3
    assert any("Pepperwhistle" in hit["turn_text"] for hit in hits)
    for hit in hits:
        assert hit["session_id"] == "s1"
        assert_hit_cites(api, hit)


def test_search_of_an_empty_memory_is_empty_and_presets_are_named(api: Api) -> None:
    assert api.ok("post", "/v1/search", json={"query": "anything"})["results"] == []
    seed(api)
    hits = api.ok("post", "/v1/search", json={"query": "Zanzibarville", "preset": "no-graph"})["results"]
    assert hits and "Zanzibarville" in hits[0]["turn_text"]


def test_ask_answers_with_cited_quotes_and_abstains_without_evidence(api: Api) -> None:
    seed(api)
    answer = api.ok("post", "/v1/ask", json={"question": "What is my dog called?", "offline": True, "now": T1})
    assert answer["question"] == "What is my dog called?"
    assert "Pepperwhistle" in answer["answer"] and answer["abstained"] is False and "offline" in answer["flags"]
    assert_answer_cites(api, answer)
    assert any("Pepperwhistle" in c["quote"] for c in answer["citations"])
    empty = api.ok("post", "/v1/ask", "bob", json={"question": "What is my dog called?", "offline": True})
    assert empty["abstained"] is True and empty["citations"] == []


def test_search_and_ask_as_of_a_past_time_read_the_memory_as_it_stood(api: Api) -> None:
    seed(api)
    before_move = "2024-03-15T00:00:00"
    question = {"question": "Where do I live?", "offline": True}
    assert "Quuxton" in api.ok("post", "/v1/ask", json=question)["answer"]
    then = api.ok("post", "/v1/ask", json={**question, "as_of": before_move})
    assert then["answer"] == "Zanzibarville" and all(c["timestamp"] == T0 for c in then["citations"])
    hits = api.ok("post", "/v1/search", json={"query": "Quuxton moved", "as_of": before_move})["results"]
    assert hits and all(h["timestamp"] == T0 for h in hits)
    error(api.post("/v1/ask", json={**question, "as_of": "before the move"}), 400)


def test_facts_by_status_time_and_subject_with_history(api: Api) -> None:
    seed(api)
    active = api.ok("get", "/v1/facts")["facts"]
    assert active and all(f["status"] == "active" for f in active)
    lives = [f for f in api.ok("get", "/v1/facts", params={"status": "all"})["facts"] if f["predicate"] == "lives_in"]
    by_object = {f["object"]: f for f in lives}
    assert set(by_object) == {"Zanzibarville", "Quuxton"}
    old, new = by_object["Zanzibarville"], by_object["Quuxton"]
    assert old["status"] == "superseded" and new["status"] == "active"
    assert {"type": "SUPERSEDES", "direction": "in", "fact_id": new["id"]} in old["links"]
    superseded = api.ok("get", "/v1/facts", params={"status": "superseded"})["facts"]
    assert old["id"] in [f["id"] for f in superseded]
    then = api.ok("get", "/v1/facts", params={"as_of": "2024-03-05T00:00:00"})["facts"]
    assert old["id"] in [f["id"] for f in then] and new["id"] not in [f["id"] for f in then]
    mine = api.ok("get", "/v1/facts", params={"subject": "user", "status": "all"})["facts"]
    assert {old["id"], new["id"]} <= {f["id"] for f in mine}
    assert api.ok("get", "/v1/facts", params={"subject": "nobody-at-all"})["facts"] == []
    fact = api.ok("get", f"/v1/facts/{old['id']}")
    assert fact == old
    assert_fact_cites(api, fact)
    assert fact["sources"][0]["quote"].startswith("I live in Zanzibarville")
    history = api.ok("get", f"/v1/facts/{new['id']}/history")["facts"]
    assert [f["id"] for f in history] == [old["id"], new["id"]]
    for item in history:
        assert_fact_cites(api, item)


def test_unknown_ids_are_404(api: Api) -> None:
    seed(api)
    before = api.stats()
    for method, path in [
        ("get", "/v1/sessions/nope"),
        ("get", "/v1/turns/nope"),
        ("get", "/v1/facts/999999"),
        ("get", "/v1/facts/999999/history"),
        ("delete", "/v1/sessions/nope"),
        ("delete", "/v1/sessions/nope?dry_run=true"),
        ("delete", "/v1/turns/nope"),
        ("delete", "/v1/turns/m1?session_id=nope"),
        ("delete", "/v1/facts/999999"),
        ("delete", "/v1/facts/999999?dry_run=true"),
        ("get", "/v1/nothing-here"),
    ]:
        error(getattr(api, method)(path), 404)
    assert api.stats() == before
    error(api.get("/v1/export", "bob"), 404)  # bob holds nothing


def test_export_is_the_users_dump_as_ndjson(api: Api) -> None:
    seed(api)
    response = api.get("/v1/export")
    assert response.status_code == 200 and response.headers["content-type"].startswith("application/x-ndjson")
    records = [json.loads(line) for line in response.text.splitlines()]
    assert records[0]["format"] == "sodamem-dump" and records[0]["user"] == "alice"
    sessions = [r for r in records if r.get("record") == "session"]
    assert [s["session_id"] for s in sessions] == ["s1"]
    assert [t["text"] for t in sessions[0]["turns"]] == [m["text"] for m in FIRST + MOVE]
    assert len([r for r in records if r.get("record") == "fact"]) == api.stats()["facts"]
    # The dump restores elsewhere to the same memory.
    dump = api.db.parent / "dump.ndjson"
    dump.write_text(response.text, encoding="utf-8")
    with Memory(api.db.parent / "copy.db", embedder="fake") as copy:
        copy.import_dump(dump)
        assert copy.stats(user="alice")[0].to_dict() == api.stats()


def test_stats_count_the_callers_memory_only(api: Api) -> None:
    empty = {"sessions": 0, "turns": 0, "pieces": 0, "facts": 0, "entities": 0, "links": 0}
    assert api.stats() == {"user": "alice", **empty}
    seed(api)
    stats = api.stats()
    assert stats["user"] == "alice" and stats["sessions"] == 1 and stats["turns"] == 4
    assert stats["pieces"] >= 4 and stats["facts"] >= 4 and stats["entities"] >= 2
    assert api.stats("bob")["sessions"] == 0


# -- forgetting --------------------------------------------------------------------------------------------------


def test_forget_a_fact_a_turn_and_a_session_dry_run_first(api: Api) -> None:
    seed(api)
    before = api.stats()
    dog = next(f for f in api.ok("get", "/v1/facts")["facts"] if f["object"] == "Pepperwhistle")
    plan = api.ok("delete", f"/v1/facts/{dog['id']}", params={"dry_run": "true"})
    assert plan["dry_run"] is True and plan["facts"] == [dog["id"]] and plan["user"] == "alice"
    assert api.stats() == before
    done = api.ok("delete", f"/v1/facts/{dog['id']}")
    assert done["dry_run"] is False and done["facts"] == [dog["id"]] and done["counts"]
    error(api.get(f"/v1/facts/{dog['id']}"), 404)
    assert api.stats()["facts"] == before["facts"] - 1 and api.stats()["turns"] == before["turns"]

    plan = api.ok("delete", "/v1/turns/m3", params={"dry_run": "true", "session_id": "s1"})
    assert plan["turns"] == ["s1/m3"] and api.stats()["turns"] == before["turns"]
    api.ok("delete", "/v1/turns/m3")
    error(api.get("/v1/turns/m3"), 404)
    assert api.stats()["turns"] == before["turns"] - 1
    assert "Pepperwhistle" not in api.get("/v1/export").text

    plan = api.ok("delete", "/v1/sessions/s1", params={"dry_run": "true"})
    assert plan["sessions"] == ["s1"] and api.stats()["sessions"] == 1
    done = api.ok("delete", "/v1/sessions/s1")
    assert done["sessions"] == ["s1"] and len(done["turns"]) == 3
    error(api.get("/v1/sessions/s1"), 404)
    emptied = api.stats()
    assert (emptied["sessions"], emptied["turns"], emptied["pieces"], emptied["facts"]) == (0, 0, 0, 0)
    assert api.ok("get", "/v1/sessions")["sessions"] == []
    with Memory(api.db, embedder="fake") as memory:
        assert memory.check().ok


# -- errors, limits and keys ---------------------------------------------------------------------------------------


def test_a_busy_database_is_503(api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    def busy(*_args: Any, **_kwargs: Any) -> Any:
        raise StoreBusyError("database is locked")

    monkeypatch.setattr(Memory, "stats", busy)
    error(api.get("/v1/stats"), 503)


def every_route(api: Api) -> list[tuple[str, str, dict[str, Any]]]:
    """Every /v1 route of the schema with well-formed arguments (so only the key decides)."""
    bodies: dict[str, Any] = {
        "/v1/messages": {"json": {"session_id": "s1", "messages": [{"speaker": "u", "text": "hi"}]}},
        "/v1/sessions": {"json": [generic("x", "hi")]},
        "/v1/search": {"json": {"query": "dog"}},
        "/v1/ask": {"json": {"question": "dog?"}},
    }
    out = []
    for path, ops in api.client.get("/openapi.json").json()["paths"].items():
        if not path.startswith("/v1/"):
            continue
        concrete = path.replace("{session_id}", "s1").replace("{turn_id}", "m1").replace("{fact_id}", "1")
        for method in ops:
            out.append((method, concrete, bodies.get(path, {}) if method == "post" else {}))
    assert len(out) >= 15
    return out


def test_every_route_is_401_without_a_live_key(api: Api) -> None:
    seed(api)
    before = api.stats()
    key_id, key = create_key(api.db, "alice")
    assert api.client.get("/v1/stats", headers={"Authorization": f"Bearer {key}"}).status_code == 200
    store = SQLiteStore(api.db)
    KeyRing(store).revoke(key_id)
    store.close()
    presented: list[dict[str, str]] = [
        {},
        {"Authorization": "Bearer"},
        {"Authorization": "Bearer smk_not-a-key"},
        {"Authorization": "Bearer " + api.keys["alice"][:-2]},
        {"Authorization": "Basic " + api.keys["alice"]},  # not a bearer key
        {"Authorization": f"Bearer {key}"},  # revoked
    ]
    for method, path, kwargs in every_route(api):
        for headers in presented:
            response = api.client.request(method.upper(), path, headers=headers, **kwargs)
            err = error(response, 401)
            assert response.headers["www-authenticate"].startswith("Bearer"), (method, path)
            assert "Zanzibarville" not in response.text and err["field"] is None
    assert api.stats() == before


def test_the_api_takes_the_header_only_never_the_web_pages_cookie(api: Api) -> None:
    seed(api)
    api.client.cookies.set("sodamem_key", api.keys["alice"])
    try:
        cookie_only = api.client.get("/v1/stats")
        both = api.client.get("/v1/stats", headers=api.headers("bob"))
    finally:
        api.client.cookies.clear()
    error(cookie_only, 401)  # a page another site opens in the browser cannot call the API with the cookie
    assert both.status_code == 200 and both.json()["user"] == "bob"


def test_an_oversized_body_is_413_whether_declared_or_streamed(api: Api) -> None:
    seed(api)
    before = api.stats()
    big = generic("huge", "x" * (MAX_BODY + 10))
    declared = api.post("/v1/sessions", content=jsonl(big), headers=NDJSON)
    error(declared, 413, "body")

    def chunks(total: int, size: int = 8192) -> Iterator[bytes]:
        data = jsonl(generic("streamed", "y" * total))
        for start in range(0, len(data), size):
            yield data[start : start + size]

    for path in ("/v1/sessions", "/v1/messages", "/v1/search"):
        streamed = api.post(path, content=chunks(MAX_BODY * 2), headers={"content-type": "application/json"})
        assert "content-length" not in {k.lower() for k in streamed.request.headers}
        assert streamed.request.headers.get("transfer-encoding") == "chunked"
        error(streamed, 413, "body")
    lying = api.post("/v1/messages", content=b"{}", headers={"content-length": "abc"})
    assert lying.request.headers["content-length"] == "abc"
    error(lying, 413, "body")
    assert api.stats() == before
    # Just under the limit, streamed, is read whole and stored.
    fits = api.post("/v1/sessions", content=chunks(MAX_BODY // 2), headers=NDJSON)
    assert fits.status_code == 200, fits.text
    assert api.ok("get", "/v1/sessions/streamed")["turns"][0]["text"] == "y" * (MAX_BODY // 2)


def test_no_auth_is_refused_off_loopback(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    for host in ("0.0.0.0", "::", "192.0.2.7"):
        with pytest.raises(InputError) as info:
            ServeSettings(db=db, host=host, auth=False).check()
        assert info.value.field == "host" and "loopback" in str(info.value)
        with pytest.raises(InputError):
            create_app(ServeSettings(db=db, host=host, auth=False, embedder="fake"))
    assert ServeSettings(db=db, host="0.0.0.0", auth=True).check().auth is True
    for host in ("127.0.0.1", "::1", "localhost"):
        assert ServeSettings(db=db, host=host, auth=False).check().host == host
    done = subprocess.run(
        [sys.executable, "-m", "sodamem", "--db", db, "serve", "--no-auth", "--host", "0.0.0.0", "--port", "1"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert "--no-auth is allowed on a loopback address only" in done.stderr and "0.0.0.0" in done.stderr
    assert "Traceback" not in done.stderr and not Path(db).exists()


def test_no_auth_on_loopback_serves_its_user_without_a_key(tmp_path: Path) -> None:
    app = create_app(ServeSettings(db=str(tmp_path / "m.db"), auth=False, user="zed", embedder="fake"))
    with TestClient(app, base_url="http://127.0.0.1:8765") as client:
        added = client.post("/v1/messages", json={"session_id": "z", "messages": [{"speaker": "u", "text": "hi"}]})
        assert added.status_code == 200 and added.json()["user"] == "zed"
        assert client.get("/v1/stats").json()["user"] == "zed"
        for loopback in ("localhost:8765", "[::1]:8765", "127.0.0.1", "127.0.0.2:8765"):
            assert client.get("/v1/stats", headers={"host": loopback}).status_code == 200, loopback
    # a loopback host by another name (Debian's own hostname resolves to 127.0.1.1): the name it was told to bind
    assert is_loopback_name("myhost:8765", also={"myhost"}) and not is_loopback_name("myhost:8765")


def test_no_auth_answers_loopback_names_only_on_every_route(tmp_path: Path) -> None:
    """DNS rebinding: a page at evil.example, its name resolved again to 127.0.0.1, sends its Host and Origin."""
    app = create_app(ServeSettings(db=str(tmp_path / "m.db"), auth=False, embedder="fake"))
    with TestClient(app, base_url="http://127.0.0.1:8765") as client:
        client.post("/v1/messages", json={"session_id": "s", "messages": [{"speaker": "u", "text": "I live in York."}]})
        rebound = {"host": "evil.example:8765"}
        for method, path in (
            ("get", "/v1/export"),
            ("get", "/"),
            ("get", "/v1/sessions/s"),
            ("delete", "/v1/sessions/s"),
        ):
            error(client.request(method, path, headers=rebound), 421, "host")
        page = {"origin": "http://evil.example:8765"}
        error(client.post("/forget", data={"session": "s"}, headers=page), 403, "origin")
        error(client.post("/v1/search", json={"query": "York"}, headers=page), 403, "origin")
        assert client.get("/v1/sessions/s").status_code == 200  # nothing was forgotten
        assert client.get("/healthz", headers={"origin": "http://localhost:8765"}).status_code == 200


def test_ids_with_slashes_and_spaces_work_in_paths(api: Api) -> None:
    """Session and turn ids are the caller's own strings: a percent-encoded "/" reaches the route whole."""
    api.ok(
        "post",
        "/v1/messages",
        json={"session_id": "team/chat 1", "messages": [{"speaker": "user", "text": "Hi from York", "id": "m/1"}]},
    )
    assert api.ok("get", "/v1/sessions/team%2Fchat%201")["turns"][0]["text"] == "Hi from York"
    assert api.ok("get", "/v1/turns/m%2F1", params={"session_id": "team/chat 1"})["text"] == "Hi from York"
    gone = api.ok("delete", "/v1/sessions/team%2Fchat%201")
    assert gone["sessions"] == ["team/chat 1"]
    assert api.get("/v1/sessions/team%2Fchat%201").status_code == 404


def test_serve_defaults_to_one_single_threaded_worker_per_usable_core(monkeypatch: pytest.MonkeyPatch) -> None:
    from sodamem.server import settings as settings_module

    for cores, want in ((1, 1), (2, 2), (64, settings_module.MAX_DEFAULT_WORKERS)):
        monkeypatch.setattr(settings_module.os, "sched_getaffinity", lambda _pid, n=cores: set(range(n)), raising=False)
        assert settings_module.default_workers() == want
    monkeypatch.delattr(settings_module.os, "sched_getaffinity", raising=False)
    monkeypatch.setattr(settings_module.os, "cpu_count", lambda: 3)
    assert settings_module.default_workers() == 3
    assert ServeSettings(db="m.db").pool_size == 1


def test_a_body_that_stalls_is_408_and_the_application_never_sees_it() -> None:
    seen: list[str] = []

    async def application(scope: Scope, receive: Receive, send: Send) -> None:
        seen.append(scope["path"])

    sent: list[Message] = []

    async def stalled() -> Message:
        await asyncio.sleep(3600)
        raise AssertionError("unreachable")

    async def send(message: Message) -> None:
        sent.append(message)

    scope: Scope = {"type": "http", "path": "/v1/search", "headers": [(b"content-length", b"100")]}
    asyncio.run(BodyLimit(application, 1000, stall_seconds=0.05)(scope, stalled, send))
    assert seen == [] and sent[0]["status"] == 408
    assert json.loads(sent[1]["body"]) == {"error": "no body bytes came for 0.05 s", "field": "body"}
