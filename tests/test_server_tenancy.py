"""Tenancy of a real ``sodamem serve`` process: three users, each with a key, and every route called with each
user's key against every other user's ids. Nothing of another user may come back (each user's texts carry canary
words), nothing of theirs may change, and without a live key every route is 401.

``start_server`` is also used by the fuzzing test (tests/test_server_fuzz.py)."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.serve_process import Server, create_key, start_server

pytestmark = pytest.mark.slow

T0 = "2024-03-01T10:00:00"
T1 = "2024-04-01T10:00:00"


# -- a real server process -----------------------------------------------------------------------------------------


# -- three users -------------------------------------------------------------------------------------------------


@dataclass
class Tenant:
    name: str
    key: str
    canaries: tuple[str, ...]  # words only this user's texts contain
    sessions: list[str] = field(default_factory=list)
    turns: list[tuple[str, str]] = field(default_factory=list)  # (session_id, turn_id)
    facts: list[int] = field(default_factory=list)


WORDS = {
    # city, the city moved to, dog, employer
    "alice": ("Zanzibarville", "Quuxtonbury", "Pepperwhistle", "Quokkaberry"),
    "bob": ("Marzipanopolis", "Flibbertown", "Snorkelwick", "Grumbleworth"),
    "carol": ("Octopolisia", "Blimpington", "Ziggurath", "Velvetmoss"),
}


def seed(server: Server, name: str, key: str) -> Tenant:
    city, moved, dog, employer = WORDS[name]
    tenant = Tenant(name, key, WORDS[name])
    with server.client(key) as client:

        def ok(response: httpx.Response) -> Any:
            assert response.status_code == 200, response.text
            return response.json()

        live = f"{name}-live"
        first = ok(
            client.post(
                "/v1/messages",
                json={
                    "session_id": live,
                    "timestamp": T0,
                    "messages": [
                        {"speaker": "user", "id": f"{name}-m1",
                         "text": f"I live in {city} and I work as a nurse at {employer} Hospital."},
                        {"speaker": "assistant", "id": f"{name}-m2", "text": "Noted."},
                        {"speaker": "user", "id": f"{name}-m3", "text": f"My dog is called {dog}."},
                    ],
                },
            )
        )  # fmt: skip
        second = ok(
            client.post(
                "/v1/messages",
                json={
                    "session_id": live,
                    "timestamp": T1,
                    "messages": [{"speaker": "user", "id": f"{name}-m4", "text": f"I moved to {moved} last week."}],
                },
            )
        )
        sessions = [
            {"session_id": f"{name}-trip", "timestamp": "2024-05-02T09:00:00", "user": name,
             "turns": [{"speaker": "user", "text": f"We visited the {city} museum with {dog}."},
                       {"speaker": "assistant", "text": f"Did {dog} like {employer}'s gift shop?"}]},
            {"session_id": "shared", "timestamp": "2024-05-03T09:00:00",
             "turns": [{"speaker": "user", "text": f"Every user has a session called shared: {employer}."}]},
        ]  # fmt: skip
        body = "".join(json.dumps(s) + "\n" for s in sessions)
        ingested = ok(client.post("/v1/sessions", content=body, headers={"content-type": "application/x-ndjson"}))
        assert ingested["sessions_added"] == 2
        tenant.sessions = [live, f"{name}-trip"]
        tenant.turns = [(live, f"{name}-m{i}") for i in range(1, 5)] + [
            (f"{name}-trip", f"{name}-trip:{i}") for i in (0, 1)
        ]
        all_facts = ok(client.get("/v1/facts", params={"status": "all"}))["facts"]
        tenant.facts = sorted(f["id"] for f in all_facts)
        assert set(first["fact_ids"] + second["fact_ids"] + ingested["fact_ids"]) <= set(tenant.facts)
        assert len(tenant.facts) >= 4 and any(f["status"] == "superseded" for f in all_facts)
    return tenant


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, dict[str, Tenant]]]:
    db = tmp_path_factory.mktemp("tenancy") / "m.db"
    keys = {name: create_key(db, name)[1] for name in WORDS}
    with start_server(db) as server:
        tenants = {name: seed(server, name, key) for name, key in keys.items()}
        yield server, tenants
        log = server.log_text()
    assert "unhandled error" not in log and "Traceback" not in log, log


def snapshot(server: Server, tenant: Tenant) -> dict[str, Any]:
    with server.client(tenant.key) as client:
        export = client.get("/v1/export")
        assert export.status_code == 200
        return {
            "export": export.text,
            "stats": client.get("/v1/stats").json(),
            "sessions": client.get("/v1/sessions").json(),
            "facts": client.get("/v1/facts", params={"status": "all"}).json(),
        }


class Probe:
    """Sends requests as one tenant and records every response that shows another tenant's words."""

    def __init__(self, server: Server, tenants: dict[str, Tenant]) -> None:
        self.tenants = tenants
        self.clients = {name: server.client(t.key) for name, t in tenants.items()}
        self.attempts = 0
        self.leaks: list[str] = []
        self.wrong_status: list[str] = []

    def close(self) -> None:
        for client in self.clients.values():
            client.close()

    def foreign(self, caller: Tenant, text: str) -> list[str]:
        """The canary words of other tenants in ``text``."""
        return [c for t in self.tenants.values() if t.name != caller.name for c in t.canaries if c in text]

    def call(
        self, attacker: Tenant, method: str, path: str, expect: int, echoed: str = "", **kwargs: Any
    ) -> httpx.Response:
        response = self.clients[attacker.name].request(method, path, **kwargs)
        self.attempts += 1
        where = f"{attacker.name}: {method} {path} {kwargs.get('params', '')} {kwargs.get('json', '')}"
        if response.status_code != expect:
            self.wrong_status.append(f"{where} -> {response.status_code} {response.text[:200]}")
        text = response.text.replace(echoed, "") if echoed else response.text  # a query comes back as it was sent
        if shown := self.foreign(attacker, text + json.dumps(dict(response.headers))):
            self.leaks.append(f"{where} -> shows {shown}: {response.text[:300]}")
        return response


def test_no_tenant_reaches_another(world: tuple[Server, dict[str, Tenant]]) -> None:
    server, tenants = world
    before = {name: snapshot(server, t) for name, t in tenants.items()}
    for name, snap in before.items():  # each holds its own words, and its own only
        for canary in tenants[name].canaries:
            assert canary in snap["export"]
    probe = Probe(server, tenants)
    assert probe.foreign(tenants["alice"], before["bob"]["export"])  # the probe does see another's words
    try:
        cross_tenant_calls(probe, tenants, before)
    finally:
        probe.close()
    after = {name: snapshot(server, t) for name, t in tenants.items()}
    counts = f"leaks: {len(probe.leaks)}; wrong statuses: {len(probe.wrong_status)}"
    print(f"\ncross-tenant attempts: {probe.attempts}; {counts}")
    assert probe.leaks == [], "\n".join(probe.leaks[:20])
    assert probe.wrong_status == [], "\n".join(probe.wrong_status[:20])
    assert probe.attempts >= 500
    for name in tenants:
        assert after[name] == before[name], f"{name}'s memory changed (export, stats, sessions or facts)"


def cross_tenant_calls(probe: Probe, tenants: dict[str, Tenant], before: dict[str, dict[str, Any]]) -> None:
    """Each tenant calls every route against every other tenant's ids, and writes under their ids."""
    for attacker in tenants.values():
        own_sessions = set(attacker.sessions) | {"shared"}
        own_facts = set(attacker.facts)
        for victim in tenants.values():
            if victim is attacker:
                continue
            for session_id in victim.sessions:
                probe.call(attacker, "GET", f"/v1/sessions/{session_id}", 404)
                probe.call(attacker, "DELETE", f"/v1/sessions/{session_id}", 404, params={"dry_run": "true"})
                probe.call(attacker, "DELETE", f"/v1/sessions/{session_id}", 404)
            for session_id, turn_id in victim.turns:
                probe.call(attacker, "GET", f"/v1/turns/{turn_id}", 404)
                probe.call(attacker, "GET", f"/v1/turns/{turn_id}", 404, params={"session_id": session_id})
                probe.call(attacker, "DELETE", f"/v1/turns/{turn_id}", 404, params={"dry_run": "true"})
                probe.call(attacker, "DELETE", f"/v1/turns/{turn_id}", 404, params={"session_id": session_id})
                probe.call(attacker, "DELETE", f"/v1/turns/{turn_id}", 404)
            for fact_id in victim.facts:
                probe.call(attacker, "GET", f"/v1/facts/{fact_id}", 404)
                probe.call(attacker, "GET", f"/v1/facts/{fact_id}/history", 404)
                probe.call(attacker, "DELETE", f"/v1/facts/{fact_id}", 404, params={"dry_run": "true"})
                probe.call(attacker, "DELETE", f"/v1/facts/{fact_id}", 404)
            for canary in victim.canaries:
                for query in (canary, f"Where does the user live? {canary}", f"What is the dog called, {canary}?"):
                    for mode in ("auto", "bm25"):
                        found = probe.call(attacker, "POST", "/v1/search", 200, echoed=query,
                                           json={"query": query, "k": 20, "mode": mode})  # fmt: skip
                        assert {h["session_id"] for h in found.json()["results"]} <= own_sessions
                    answer = probe.call(
                        attacker, "POST", "/v1/ask", 200, echoed=query, json={"question": query, "offline": True}
                    ).json()
                    assert {c["session_id"] for c in answer["citations"]} <= own_sessions
                for status in ("active", "all"):
                    facts = probe.call(attacker, "GET", "/v1/facts", 200, params={"subject": canary, "status": status})
                    assert facts.json()["facts"] == []
                facts = probe.call(attacker, "GET", "/v1/facts", 200, params={"status": "all", "as_of": T1})
                assert {f["id"] for f in facts.json()["facts"]} <= own_facts
            # Lists and counts: the attacker's own, exactly.
            listed = probe.call(attacker, "GET", "/v1/sessions", 200).json()
            assert listed == before[attacker.name]["sessions"]
            assert probe.call(attacker, "GET", "/v1/stats", 200).json() == before[attacker.name]["stats"]
            assert probe.call(attacker, "GET", "/v1/export", 200).text == before[attacker.name]["export"]
            everything = probe.call(attacker, "GET", "/v1/facts", 200, params={"status": "all"}).json()
            assert {f["id"] for f in everything["facts"]} == own_facts
            # An id every user has answers with the caller's own record.
            shared = probe.call(attacker, "GET", "/v1/sessions/shared", 200).json()
            assert shared["user"] == attacker.name and attacker.canaries[3] in shared["turns"][0]["text"]
            turn = probe.call(attacker, "GET", "/v1/turns/shared:0", 200, params={"session_id": "shared"}).json()
            assert attacker.canaries[3] in turn["text"]
            probe.call(attacker, "DELETE", "/v1/sessions/shared", 200, params={"dry_run": "true"})
            # Writes naming the victim's ids (and the victim as the session's user) land in the attacker's memory.
            borrowed = victim.sessions[0]
            message = {"speaker": "user", "id": victim.turns[0][1], "text": "A neutral note under a borrowed id."}
            added = probe.call(
                attacker, "POST", "/v1/messages", 200, json={"session_id": borrowed, "messages": [message]}
            )
            assert added.json()["user"] == attacker.name and added.json()["session_created"] is True
            record = {"session_id": victim.sessions[1], "timestamp": T1, "user": victim.name,
                      "turns": [{"speaker": "user", "text": "Another neutral note."}]}  # fmt: skip
            ingested = probe.call(attacker, "POST", "/v1/sessions", 200, json=[record])
            assert ingested.json()["users"] == [attacker.name] and ingested.json()["sessions_added"] == 1
            for session_id in (borrowed, victim.sessions[1]):
                gone = probe.call(attacker, "DELETE", f"/v1/sessions/{session_id}", 200).json()
                assert gone["user"] == attacker.name and gone["sessions"] == [session_id]


def every_route(server: Server) -> list[tuple[str, str, dict[str, Any]]]:
    bodies: dict[str, Any] = {
        "/v1/messages": {"json": {"session_id": "alice-live", "messages": [{"speaker": "u", "text": "hi"}]}},
        "/v1/sessions": {"json": [{"session_id": "x", "timestamp": T0, "turns": [{"speaker": "u", "text": "hi"}]}]},
        "/v1/search": {"json": {"query": "Zanzibarville"}},
        "/v1/ask": {"json": {"question": "Where do I live?"}},
    }
    paths = httpx.get(server.base + "/openapi.json").json()["paths"]
    routes = []
    for path, ops in paths.items():
        if path.startswith("/v1/"):
            concrete = path.replace("{session_id}", "alice-live").replace("{turn_id}", "alice-m1")
            concrete = concrete.replace("{fact_id}", "1")
            routes += [(method.upper(), concrete, bodies.get(path, {}) if method == "post" else {}) for method in ops]
    assert len(routes) >= 15
    return routes


def test_every_route_is_401_without_a_live_key(world: tuple[Server, dict[str, Tenant]]) -> None:
    server, tenants = world
    before = snapshot(server, tenants["alice"])
    key_id, key = create_key(server.db, "alice")  # a key made while the server runs works at once
    with server.client(key) as client:
        assert client.get("/v1/stats").json()["user"] == "alice"
    revoked = subprocess.run(
        [sys.executable, "-m", "sodamem", "--db", str(server.db), "keys", "revoke", str(key_id)],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert revoked.returncode == 0, revoked.stderr
    refused = 0
    anonymous = httpx.Client(base_url=server.base, timeout=60)
    presented: list[dict[str, str]] = [
        {},
        {"Authorization": f"Bearer {key}"},  # revoked
        {"Authorization": "Bearer smk_forged"},
        {"Authorization": f"Token {tenants['alice'].key}"},  # a live key, but not as a bearer key
        {"Cookie": f"sodamem_key={tenants['alice'].key}"},  # the web page's login cookie is not for the API
    ]
    for method, path, kwargs in every_route(server):
        for headers in presented:
            response = anonymous.request(method, path, headers=headers, **kwargs)
            assert response.status_code == 401, (method, path, headers.keys(), response.text)
            assert response.json()["error"] and response.headers["www-authenticate"].startswith("Bearer")
            assert not any(c in response.text for t in tenants.values() for c in t.canaries)
            refused += 1
    anonymous.close()
    print(f"\n401 without a live key: {refused} requests")
    assert snapshot(server, tenants["alice"]) == before


def test_an_oversized_body_is_413_on_the_wire(world: tuple[Server, dict[str, Tenant]]) -> None:
    """Through uvicorn: refused when Content-Length says so, and when a chunked body without one grows past it."""
    server, tenants = world
    before = snapshot(server, tenants["alice"])
    limit = 8 * 1024 * 1024  # `sodamem serve`'s default --max-body

    def chunks(total: int, size: int = 256 * 1024) -> Iterator[bytes]:
        record = {"session_id": "huge", "timestamp": T0, "turns": [{"speaker": "u", "text": "z" * total}]}
        data = json.dumps([record]).encode()
        for start in range(0, len(data), size):
            yield data[start : start + size]

    with server.client(tenants["alice"].key) as client:
        declared = client.post("/v1/sessions", content=b"".join(chunks(limit)))
        assert declared.status_code == 413 and declared.json()["field"] == "body"
        for path in ("/v1/sessions", "/v1/messages"):
            streamed = client.post(path, content=chunks(limit + 1024), headers={"content-type": "application/json"})
            assert streamed.request.headers.get("transfer-encoding") == "chunked"
            assert streamed.status_code == 413 and streamed.json()["field"] == "body", streamed.text
        assert client.get("/v1/sessions/huge").status_code == 404
    assert snapshot(server, tenants["alice"]) == before


def test_uploads_that_stall_hold_no_worker(tmp_path: Path) -> None:
    """As many clients as the workers have request slots send their headers and stall their bodies: the server
    still answers others at once (a request holds a slot once its body is in)."""
    with start_server(tmp_path / "m.db", "--workers", "2") as server:
        host, port = server.base.removeprefix("http://").split(":")
        stalled = []
        for _ in range(4):
            sock = socket.create_connection((host, int(port)))
            sock.sendall(
                b"POST /v1/search HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                b'Content-Length: 100\r\n\r\n{"query":'
            )
            stalled.append(sock)
        try:
            time.sleep(1.5)  # past the accept gate's pending time: the connections are the workers' now
            for _ in range(4):
                assert httpx.get(server.base + "/healthz", timeout=10).status_code == 200
        finally:
            for sock in stalled:
                sock.close()
