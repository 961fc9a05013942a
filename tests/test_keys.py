"""API keys: ``sodamem keys create/list/revoke`` and ``KeyRing``. A key is printed once, never listed, and only its
SHA-256 is stored; each key reaches exactly one user; a revoked key reaches nobody."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from sodamem.cli import cli
from sodamem.errors import InputError, NotFoundError
from sodamem.keys import KEY_PREFIX, KeyRing, hash_key
from sodamem.store.sqlite import SQLiteStore


def keys_cli(db: Path, *args: str) -> Result:
    result = CliRunner().invoke(cli, ["--db", str(db), "keys", *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result


def db_bytes(db: Path) -> bytes:
    """Everything SQLite wrote for the database: the file and any WAL or journal beside it."""
    return b"".join(path.read_bytes() for path in sorted(db.parent.glob(db.name + "*")))


def test_create_prints_the_key_once_list_never_shows_it_and_only_its_hash_is_stored(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    created = keys_cli(db, "create", "--user", "alice", "--label", "laptop")
    key = created.stdout.strip()
    assert key.startswith(KEY_PREFIX) and len(key) > 40 and "\n" not in key
    assert "shown once" in created.stderr and key not in created.stderr
    as_json = json.loads(keys_cli(db, "create", "--user", "bob", "--json").stdout)
    assert as_json["key"].startswith(KEY_PREFIX) and as_json["user"] == "bob" and as_json["revoked_at"] is None

    listed = keys_cli(db, "list")
    listed_json = keys_cli(db, "list", "--json")
    for output in (listed.output, listed_json.output):
        assert key not in output and as_json["key"] not in output
        assert key[len(KEY_PREFIX) + 6 :] not in output  # not even the part after the shown prefix
    rows = json.loads(listed_json.stdout)["keys"]
    assert [(r["id"], r["user"], r["label"], r["revoked_at"]) for r in rows] == [
        (1, "alice", "laptop", None),
        (2, "bob", "", None),
    ]
    assert rows[0]["prefix"] == key[: len(rows[0]["prefix"])] and len(rows[0]["prefix"]) < len(key) // 3
    assert "alice" in listed.stdout and "laptop" in listed.stdout and "live" in listed.stdout
    assert [r["user"] for r in json.loads(keys_cli(db, "list", "--user", "bob", "--json").stdout)["keys"]] == ["bob"]

    stored = db_bytes(db)
    for secret in (key, as_json["key"]):
        assert secret.encode() not in stored
        assert secret[len(KEY_PREFIX) :].encode() not in stored
        assert hashlib.sha256(secret.encode()).hexdigest().encode() in stored


def test_revoke_ends_a_key_and_only_that_key(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    first = keys_cli(db, "create", "--user", "alice").stdout.strip()
    second = keys_cli(db, "create", "--user", "alice").stdout.strip()
    revoked = keys_cli(db, "revoke", "1")
    assert "key 1 of user 'alice' revoked" in revoked.stdout
    rows = json.loads(keys_cli(db, "list", "--json").stdout)["keys"]
    assert rows[0]["revoked_at"] is not None and rows[1]["revoked_at"] is None
    assert "revoked" in keys_cli(db, "list").stdout.splitlines()[0]
    store = SQLiteStore(db)
    try:
        ring = KeyRing(store)
        assert ring.user_of(first) is None and ring.user_of(second) == "alice"
        when = ring.revoke(1).revoked_at
        assert when == rows[0]["revoked_at"]  # revoking again keeps the first time
    finally:
        store.close()
    done = subprocess.run(
        [sys.executable, "-m", "sodamem", "--db", str(db), "keys", "revoke", "99"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2 and "no key with id 99" in done.stderr and "Traceback" not in done.stderr


def test_each_key_reaches_exactly_its_user(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "m.db")
    try:
        ring = KeyRing(store)
        keys = {user: ring.create(user)[1] for user in ("alice", "bob", "carol")}
        assert len(set(keys.values())) == 3
        for user, key in keys.items():
            assert ring.user_of(key) == user
            assert ring.user_of(key + "x") is None and ring.user_of(key[:-1]) is None
            assert ring.user_of(key[len(KEY_PREFIX) :]) is None  # the prefix is part of the key
        assert ring.user_of("") is None and ring.user_of(KEY_PREFIX) is None
        assert ring.user_of(hash_key(keys["alice"])) is None  # the stored hash is not a key
        with pytest.raises(InputError) as info:
            ring.create("  ")
        assert info.value.field == "user"
        with pytest.raises(NotFoundError):
            ring.revoke(42)
        assert [r.user for r in ring.list()] == ["alice", "bob", "carol"]
    finally:
        store.close()
