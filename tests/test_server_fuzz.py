"""Fuzzing a real ``sodamem serve`` process from its own OpenAPI schema (schemathesis): every operation, with data
that fits the schema and data that does not, and with the ids the memory really holds. No response may be a 5xx,
each must match its documented status, content type and schema; afterwards the database passes ``sodamem check``
and a user the fuzzing key cannot reach is unchanged."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections import Counter
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import httpx
import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.core.failures import FailureGroup
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from sodamem.demo import example_history_path
from sodamem.memory import Memory
from tests.serve_process import Server, create_key, start_server

pytestmark = pytest.mark.slow

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
EXAMPLES = 50  # per operation and mode; some operations have fewer distinct requests than that
EXAMPLES_WITH_IDS = 30
MIN_REQUESTS = 1_000


def seed(server: Server, key: str, user: str) -> dict[str, list[Any]]:
    """The user's memory: the bundled example history plus live messages; returns the ids it holds."""
    with server.client(key) as client:
        history = example_history_path().read_bytes()
        sessions = client.post("/v1/sessions", content=history, headers={"content-type": "application/x-ndjson"})
        assert sessions.status_code == 200, sessions.text
        added = client.post(
            "/v1/messages",
            json={
                "session_id": f"{user}-live",
                "timestamp": "2026-04-02T09:00:00",
                "messages": [
                    {"speaker": "user", "text": f"I moved to {user.title()}ville last week.", "id": f"{user}-m1"},
                    {"speaker": "user", "text": "My cat is called Fuzzball.", "id": f"{user}-m2"},
                ],
            },
        )
        assert added.status_code == 200, added.text
        listed = client.get("/v1/sessions").json()["sessions"]
        session_ids = [s["session_id"] for s in listed]
        turn_ids: list[str] = []
        for session_id in session_ids[:4]:
            turn_ids += [t["turn_id"] for t in client.get(f"/v1/sessions/{session_id}").json()["turns"]]
        fact_ids = [f["id"] for f in client.get("/v1/facts", params={"status": "all"}).json()["facts"]]
    assert len(session_ids) == 12 and fact_ids and turn_ids
    return {"session_id": session_ids, "turn_id": turn_ids, "fact_id": fact_ids}


# Bodies the library accepts, not just the schema (which cannot say "speaker or role"): random words and the
# sentences the rules extract facts from, at times naive and aware, under ids old and new, so that generated
# requests reach ingestion, fact extraction, supersession and linking.
NAME = st.text(st.sampled_from("abcdefghijklmnopqrstuvwxyzäöüçéñ"), min_size=1, max_size=12).map(str.title)
SAID = st.one_of(
    st.text(min_size=1, max_size=160).filter(lambda t: t.strip() and "\x00" not in t),
    NAME.map("I live in {}.".format),
    NAME.map("I moved to {} last week.".format),
    NAME.map("My dog is called {}.".format),
    st.tuples(NAME, NAME).map(lambda p: f"I work as a {p[0].lower()} at {p[1]} Hospital."),
    st.tuples(NAME, st.sampled_from(["yesterday", "last month", "on 3 May 2021", "next Friday"])).map(
        lambda p: f"{p[0]} and I went hiking {p[1]}."
    ),
)
ZONE = st.sampled_from([None, UTC, timezone(timedelta(hours=5, minutes=30)), timezone(timedelta(hours=-8))])
WHEN = st.datetimes(min_value=datetime(1900, 1, 1), max_value=datetime(2100, 1, 1), timezones=ZONE).map(
    lambda d: d.replace(microsecond=0).isoformat()
)
ID = st.text(min_size=1, max_size=16).filter(lambda t: t.strip() and "\x00" not in t)


def valid_bodies(operation: Any, ids: dict[str, list[Any]]) -> Any | None:
    """A strategy of requests with bodies the memory accepts, for the two writing operations; else None."""
    session_id = st.one_of(ID, st.sampled_from([*ids["session_id"][:3], "fz-1", "fz-2"]))
    message = st.fixed_dictionaries(
        {"speaker": st.sampled_from(["user", "assistant", "Maya"]), "text": SAID},
        optional={"id": st.one_of(st.sampled_from(ids["turn_id"][:5]), ID), "timestamp": WHEN, "caption": SAID},
    )
    query: dict[str, str] | None = None
    if operation.label == "POST /v1/messages":
        body = st.fixed_dictionaries(
            {"session_id": session_id, "messages": st.lists(message, min_size=1, max_size=4)},
            optional={"timestamp": WHEN},
        )
    elif operation.label == "POST /v1/sessions":
        turn = st.fixed_dictionaries({"speaker": st.sampled_from(["user", "assistant"]), "text": SAID})
        session = st.fixed_dictionaries(
            {"session_id": session_id, "timestamp": WHEN, "turns": st.lists(turn, min_size=1, max_size=4)}
        )
        body = st.lists(session, min_size=1, max_size=3, unique_by=lambda s: s["session_id"])
        query = {"format": "json"}  # the generic format (``replace`` is generated)
    else:
        return None
    return body.flatmap(lambda b: operation.as_strategy(body=b, media_type="application/json", query=query))


def fuzz_operation(
    operation: Any, strategy: Any, max_examples: int, base: str, headers: dict[str, str], http: requests.Session
) -> Counter[int]:
    """Send ``max_examples`` generated requests of one operation, checking each; returns their statuses."""
    statuses: Counter[int] = Counter()

    @settings(
        max_examples=max_examples,
        deadline=None,
        database=None,
        phases=[Phase.generate],  # no shrinking: a failure is reported as found
        suppress_health_check=list(HealthCheck),
        derandomize=True,
    )
    @given(case=strategy)
    def run(case: Any) -> None:
        response = case.call(base_url=base, session=http, headers=headers)
        statuses[response.status_code] += 1
        case.validate_response(response, checks=CHECKS, headers=headers)

    run()
    return statuses


def run_schemathesis_cli(server: Server, key: str, report: Path) -> dict[str, Any]:
    """``schemathesis run`` on the same server: its coverage phase (boundary values of every constraint) and its
    stateful phase (ids one response returns, used in the next request), which the tests above do not have."""
    done = subprocess.run(
        [
            sys.executable, "-m", "schemathesis.cli", "run", server.base + "/openapi.json",
            "--header", f"Authorization: Bearer {key}",
            "--checks", ",".join(check.__name__ for check in CHECKS),
            "--phases", "coverage,fuzzing,stateful", "--max-examples", "25", "--seed", "20240301",
            "--workers", "1", "--report", "json", "--report-json-path", str(report), "--no-color",
        ],
        capture_output=True, text=True, timeout=300, check=False, cwd=report.parent,
    )  # fmt: skip
    assert report.exists(), done.stdout[-3_000:] + done.stderr[-3_000:]
    result: dict[str, Any] = json.loads(report.read_text(encoding="utf-8"))
    result["output"] = done.stdout[-5_000:]
    return result


def test_fuzz_the_served_schema(tmp_path: Path) -> None:
    db = tmp_path / "fuzz.db"
    key = create_key(db, "alice")[1]
    bystander_key = create_key(db, "bob")[1]
    started = time.monotonic()
    with start_server(db) as server:
        ids = seed(server, key, "alice")
        seed(server, bystander_key, "bob")
        with server.client(bystander_key) as client:
            bystander = client.get("/v1/export").text
        document = httpx.get(server.base + "/openapi.json").json()
        for path, ops in document["paths"].items():  # every status a route can answer is documented
            for method, op in ops.items():
                expected = (
                    {"200", "400", "401", "404", "409", "413", "422", "503"} if path.startswith("/v1/") else {"200"}
                )
                assert expected <= set(op["responses"]), (method, path)
        schema = schemathesis.openapi.from_url(server.base + "/openapi.json")
        operations = [result.ok() for result in schema.get_all_operations()]
        assert len(operations) >= 16
        # Reads before deletes, so that the deletes do not leave the reads an empty memory.
        operations.sort(key=lambda op: (op.method.lower() == "delete", op.path, op.method))
        headers = {"Authorization": f"Bearer {key}"}
        counts: dict[str, Counter[int]] = {}
        failures: list[str] = []
        unsatisfiable: list[str] = []
        with requests.Session() as http:
            for operation in operations:
                plans = [(mode.value, operation.as_strategy(generation_mode=mode), EXAMPLES) for mode in GenerationMode]
                named = [name for name in ids if "{" + name + "}" in operation.path]
                if named:  # the same, with ids the memory holds
                    real = st.fixed_dictionaries({name: st.sampled_from(ids[name]) for name in named})
                    strategy = real.flatmap(lambda path, op=operation: op.as_strategy(path_parameters=path))
                    plans.append(("known ids", strategy, EXAMPLES_WITH_IDS))
                if (accepted := valid_bodies(operation, ids)) is not None:
                    plans.append(("valid bodies", accepted, EXAMPLES_WITH_IDS))
                for label, strategy, examples in plans:
                    try:
                        counts[f"{operation.label} [{label}]"] = fuzz_operation(
                            operation, strategy, examples, server.base, headers, http
                        )
                    except Unsatisfiable:
                        # Nothing to send off the schema: no parameters or body (/v1/stats), or a free string.
                        assert label == GenerationMode.NEGATIVE.value, operation.label
                        unsatisfiable.append(operation.label)
                    except (Exception, FailureGroup) as exc:  # failed checks: fuzz the rest, report them all
                        failures.append(f"{operation.label} [{label}]: {exc}")
        cli = run_schemathesis_cli(server, key, tmp_path / "report.json")
        with server.client(bystander_key) as client:
            assert client.get("/v1/export").text == bystander  # the fuzzing key never reached bob
        log = server.log_text()
    elapsed = time.monotonic() - started
    from_python = sum(sum(statuses.values()) for statuses in counts.values())
    total = from_python + cli["test_cases"]["generated"]
    print(
        f"\nfuzz requests: {total} over {len(operations)} operations in {elapsed:.0f} s ({from_python} generated here, "
        f"{cli['test_cases']['generated']} by `schemathesis run`); failures: {len(failures) + len(cli['failures'])}"
    )
    for name, statuses in sorted(counts.items()):
        print(f"  {sum(statuses.values()):5d}  {name}  {dict(sorted(statuses.items()))}")
    print(f"  no request off the schema exists for: {', '.join(unsatisfiable)}")
    assert not failures, "\n\n".join(failures)
    assert cli["exit_code"] == 0 and cli["complete"] and not cli["failures"] and not cli["errors"], cli
    assert "unhandled error" not in log and "Traceback" not in log, log[-5_000:]
    assert from_python >= MIN_REQUESTS  # counted one by one (the CLI counts test cases)
    for name in ("POST /v1/messages [valid bodies]", "POST /v1/sessions [valid bodies]"):
        assert counts[name][200] >= EXAMPLES_WITH_IDS // 2, counts[name]  # they did reach the write path

    with Memory(db, embedder="fake") as memory:
        report = memory.check()
        assert report.ok, [p.to_dict() for p in report.problems]
    checked = subprocess.run(
        [sys.executable, "-m", "sodamem", "--db", str(db), "check", "--json"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert json.loads(checked.stdout)["ok"] is True
