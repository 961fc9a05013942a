"""Two `sodamem serve` processes on one PostgreSQL database answer the same search identically, and a memory added
through one is found through the other."""

from __future__ import annotations

from pathlib import Path

import pytest

from sodamem import Memory
from tests.conftest import make_session
from tests.serve_process import create_key, start_server

pytestmark = pytest.mark.slow


def test_two_servers_on_one_database_agree(postgres_url: str, tmp_path: Path) -> None:
    with Memory(postgres_url, embedder="fake", user="maya") as memory:
        memory.ingest([make_session("s1", ["I moved to Leeds last year.", "Nice!", "My sister Anna lives in York."])])
    _, key = create_key(postgres_url, "maya")
    with (
        start_server(postgres_url, log_dir=tmp_path) as one,
        start_server(postgres_url, log_dir=tmp_path) as two,
        one.client(key) as a,
        two.client(key) as b,
    ):
        query = {"query": "where does Anna live", "k": 3}
        first = a.post("/v1/search", json=query)
        assert first.status_code == 200, first.text
        assert first.json() == b.post("/v1/search", json=query).json()
        message = {"speaker": "maya", "text": "Anna moved to Bath in May."}
        added = a.post("/v1/messages", json={"session_id": "s2", "messages": [message]})
        assert added.status_code == 200, added.text
        found = b.post("/v1/search", json={"query": "Bath", "k": 1}).json()
        assert "Bath" in found["results"][0]["text"]
