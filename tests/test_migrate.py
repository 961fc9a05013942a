"""`sodamem migrate`: SQLite -> PostgreSQL -> SQLite, lossless (export equality), vectors kept, same search."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest

from sodamem import Memory
from sodamem.cli import main
from sodamem.keys import KeyRing
from tests.conftest import make_session

pytestmark = pytest.mark.slow


def _fill(path: Path) -> None:
    with Memory(path, embedder="fake") as memory:
        memory.ingest([make_session("s1", ["I moved to Leeds last year.", "Nice!", "My sister Anna lives in York."])])
        memory.add("Actually I live in Manchester now.", session_id="s2", timestamp=datetime(2024, 5, 1, 9))
        memory.ingest([make_session("o1", ["I play chess on Sundays.", "Fun."], user="other")])
        memory.forget(session_id="s1", turn_id="s1:1")
        ring = KeyRing(memory.store)
        ring.create("default", label="laptop")
        revoked, _ = ring.create("other")
        ring.revoke(revoked.id)


def _deployment(location: str | Path) -> tuple[object, ...]:
    """API keys (hashes, labels, times, revocations) and every user's forget log, as the store reads them back."""
    with Memory(location, embedder="fake") as memory:
        keys, log = memory.store.deployment_rows()
        records = [(k.user, k.prefix, k.label, k.created_at, k.revoked_at) for k in KeyRing(memory.store).list()]
        return keys, log, records, memory.forget_log(user="default")


def _exports(location: str | Path) -> dict[str, str]:
    with Memory(location, embedder="fake") as memory:
        return {user: "".join(memory.export(user=user)) for user in ("default", "other")}


def _search(location: str | Path) -> list[list[tuple[str, float]]]:
    with Memory(location, embedder="fake") as memory:
        return [
            [(h.turn_id, h.score) for h in memory.search("where does the user live", mode=mode)]
            for mode in ("bm25", "dense", "auto")
        ]


def test_sqlite_to_postgres_and_back_is_lossless(
    tmp_path: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source, back = tmp_path / "mem.db", tmp_path / "back.db"
    _fill(source)
    main(["migrate", "--from", str(source), "--to", postgres_url, "--json"])
    there = json.loads(capsys.readouterr().out)
    assert there["identical"] and there["users"] == ["default", "other"] and there["vectors"] > 0
    main(["migrate", "--from", postgres_url, "--to", str(back), "--json"])
    assert json.loads(capsys.readouterr().out)["identical"]
    assert _exports(source) == _exports(postgres_url) == _exports(back)
    assert there["api_keys"] == 2 and there["forget_records"] == 1
    assert _deployment(source) == _deployment(postgres_url) == _deployment(back)
    expected = _search(source)
    assert _search(back) == expected
    on_postgres = _search(postgres_url)
    assert [[t for t, _ in ranking] for ranking in on_postgres] == [[t for t, _ in ranking] for ranking in expected]
    with Memory(postgres_url) as memory:  # the embedder setting came along; nothing was embedded again
        assert memory.embedder is not None and memory.embedder.name.startswith("fake") and memory.check().ok


def test_migrate_refuses_a_target_holding_the_users(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "mem.db"
    _fill(source)
    main(["migrate", "--from", str(source), "--to", str(tmp_path / "copy.db")])
    with pytest.raises(SystemExit) as refused:
        main(["migrate", "--from", str(source), "--to", str(tmp_path / "copy.db")])
    assert refused.value.code == 2 and "already holds users default, other" in capsys.readouterr().err


def test_migrate_refuses_a_target_holding_its_keys_before_writing_anything(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A source with keys only (no user memory): the second migration is refused whole, with exit 2, not a traceback
    after some users were copied."""
    source, target = tmp_path / "keys.db", tmp_path / "copy.db"
    main(["--db", str(source), "keys", "create", "--user", "zed"])
    main(["migrate", "--from", str(source), "--to", str(target)])
    capsys.readouterr()
    with pytest.raises(SystemExit) as refused:
        main(["migrate", "--from", str(source), "--to", str(target)])
    assert refused.value.code == 2 and "already holds 1 of the source's API keys" in capsys.readouterr().err


def test_migrate_carries_the_stored_mentions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Mentions (the answer-type tunnel's) are read when turns are stored; a migrated memory keeps them, so no
    search there reads a turn again. Turns the source never read stay unread."""
    source, copy = tmp_path / "mem.db", tmp_path / "copy.db"
    with Memory(source, embedder="fake", annotator="fake") as memory:
        memory.ingest([make_session("s1", ["I visited Paris with Anna.", "Lovely!", "We saw the Louvre."])])
        memory.ingest([make_session("o1", ["I play chess in Berlin.", "Fun."], user="other")])
        unread = memory.store.turns_to_annotate("default")
        expected = {u: memory.store.mentions_by_text(u) for u in ("default", "other")}
    assert not unread and expected["default"] and expected["other"]
    main(["migrate", "--from", str(source), "--to", str(copy), "--json"])
    report = json.loads(capsys.readouterr().out)
    assert report["identical"] and report["mentions"] == 5
    with Memory(copy, embedder="fake", annotator="none") as memory:
        assert memory.store.turns_to_annotate() == {}
        assert {u: memory.store.mentions_by_text(u) for u in ("default", "other")} == expected
