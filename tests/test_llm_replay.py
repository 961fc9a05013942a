"""The record/replay cache of LLM replies: invalid replies are recorded, and replayed only when re-scoring."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from pydantic import BaseModel

from sodamem.llm.client import ChatClient, LLMReplyError, LLMRequestError
from sodamem.llm.config import LLMConfig
from sodamem.llm.fake_server import FakeChatServer, FakeReply
from sodamem.llm.replay import CachingChatClient, ReplayCache

MESSAGES = [{"role": "user", "content": "Where did I move?"}]


class Place(BaseModel):
    city: str


def client_for(server: FakeChatServer, cache: ReplayCache, *, replay_only: bool = False) -> CachingChatClient:
    config = LLMConfig(base_url=server.base_url, model="fake", max_retries=0, backoff_s=0.0, timeout_s=5.0)
    return CachingChatClient(ChatClient(config, sleep=lambda _: None), cache, replay_only=replay_only)


def never_valid() -> list[FakeReply]:
    """A first reply and its repair, both not JSON."""
    return [
        FakeReply.text("Lisbon, I think", prompt_tokens=120, completion_tokens=6),
        FakeReply.text("still Lisbon", prompt_tokens=150, completion_tokens=4),
    ]


def test_an_invalid_reply_is_replayed_as_invalid_when_re_scoring(tmp_path: Path) -> None:
    path = tmp_path / "replies.db"
    with FakeChatServer(never_valid()) as server, ReplayCache(path) as cache:
        client = client_for(server, cache)
        with pytest.raises(LLMReplyError) as recorded:
            client.complete_json(MESSAGES, Place, name="place")
        assert len(server.chat_requests) == 2 and len(cache) == 1
        assert (client.usage.prompt_tokens, client.usage.completion_tokens) == (270, 10)  # what was paid for

    with FakeChatServer() as server, ReplayCache(path) as cache:  # this server would answer 500 to anything
        client = client_for(server, cache, replay_only=True)
        with pytest.raises(LLMReplyError) as replayed:
            client.complete_json(MESSAGES, Place, name="place")
        assert server.requests == []
        assert (client.hits, client.misses) == (1, 0)
        assert (client.usage.prompt_tokens, client.usage.completion_tokens) == (270, 10)
    assert replayed.value.raw == recorded.value.raw == "still Lisbon"
    assert replayed.value.error == recorded.value.error


def test_a_recording_run_asks_again_after_an_invalid_reply(tmp_path: Path) -> None:
    path = tmp_path / "replies.db"
    with FakeChatServer(never_valid()) as server, ReplayCache(path) as cache, pytest.raises(LLMReplyError):
        client_for(server, cache).complete_json(MESSAGES, Place, name="place")

    with FakeChatServer([FakeReply.json({"city": "Lisbon"})]) as server, ReplayCache(path) as cache:
        reply = client_for(server, cache).complete_json(MESSAGES, Place, name="place")
        assert reply.value == Place(city="Lisbon") and len(server.chat_requests) == 1

    with FakeChatServer() as server, ReplayCache(path) as cache:  # the valid reply replaced the invalid one
        replayed = client_for(server, cache, replay_only=True).complete_json(MESSAGES, Place, name="place")
        assert replayed.value == Place(city="Lisbon") and server.requests == []


def test_an_endpoint_failure_is_not_recorded(tmp_path: Path) -> None:
    with FakeChatServer([FakeReply.error(500)]) as server, ReplayCache(tmp_path / "replies.db") as cache:
        with pytest.raises(LLMRequestError):
            client_for(server, cache).complete_json(MESSAGES, Place, name="place")
        assert len(cache) == 0
        with pytest.raises(LLMRequestError, match="replay-only: no recorded reply"):
            client_for(server, cache, replay_only=True).complete_json(MESSAGES, Place, name="place")


def test_a_file_recorded_before_invalid_replies_were_stored_still_replays(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    with FakeChatServer([FakeReply.json({"city": "Porto"})]) as server, ReplayCache(path) as cache:
        client_for(server, cache).complete_json(MESSAGES, Place, name="place")
    with sqlite3.connect(path) as conn:  # the old layout: the same table without the two new columns
        conn.execute("ALTER TABLE replies DROP COLUMN outcome")
        conn.execute("ALTER TABLE replies DROP COLUMN error")
    conn.close()

    with FakeChatServer() as server, ReplayCache(path) as cache:
        reply = client_for(server, cache, replay_only=True).complete_json(MESSAGES, Place, name="place")
        assert reply.value == Place(city="Porto")
    with sqlite3.connect(path) as conn:
        columns = {row[1] for row in conn.execute("PRAGMA table_info(replies)")}
    conn.close()
    assert {"outcome", "error"} <= columns
