"""Ingested data lands under the user it is sent to, for every input format and every way of naming a user.

Precedence: the call's / ingest command's explicit user > the file's own ``user`` field (generic format only) >
the memory's user (``Memory(user=)``, the CLI's global ``--user`` or ``$SODAMEM_USER``) > ``default``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from sodamem import Memory
from sodamem.cli import main
from sodamem.ingest.formats import load_sessions
from sodamem.model import Session
from tests.test_importers import generic_record, locomo_quirky_data, longmemeval_data, write_json, write_jsonl


def _generic(file_user: str | None) -> list[dict[str, Any]]:
    extra = {} if file_user is None else {"user": file_user}
    return [generic_record("s1", **extra), generic_record("s2", **extra)]


FORMATS: dict[str, Callable[[Path, str | None], Path]] = {
    "json": lambda tmp, user: write_json(tmp / "sessions.json", _generic(user)),
    "jsonl": lambda tmp, user: write_jsonl(tmp / "sessions.jsonl", _generic(user)),
    "locomo": lambda tmp, _user: write_json(tmp / "locomo.json", locomo_quirky_data()),
    "longmemeval": lambda tmp, _user: write_json(tmp / "longmemeval.json", longmemeval_data()),
}
GENERIC = ("json", "jsonl")


@dataclass(frozen=True)
class Case:
    """One way (or several competing ways) of naming the user, and who must get the data."""

    name: str
    expected: str
    via: str  # "cli" or "library"
    file_user: str | None = None  # the file's own field (generic format only)
    global_user: str | None = None  # sodamem --user
    env_user: str | None = None  # SODAMEM_USER
    ingest_user: str | None = None  # sodamem ingest --user
    memory_user: str | None = None  # Memory(user=)
    call_user: str | None = None  # Memory.ingest(user=)


CASES = [
    Case("cli-nothing", "default", "cli"),
    Case("cli-global", "alice", "cli", global_user="alice"),
    Case("cli-env", "erin", "cli", env_user="erin"),
    Case("cli-ingest", "bob", "cli", ingest_user="bob"),
    Case("cli-global-over-env", "alice", "cli", global_user="alice", env_user="erin"),
    Case("cli-ingest-over-global", "bob", "cli", global_user="alice", ingest_user="bob"),
    Case("cli-ingest-over-env", "bob", "cli", env_user="erin", ingest_user="bob"),
    Case("cli-file", "carol", "cli", file_user="carol"),
    Case("cli-file-over-global", "carol", "cli", file_user="carol", global_user="alice"),
    Case("cli-file-over-env", "carol", "cli", file_user="carol", env_user="erin"),
    Case("cli-ingest-over-file", "bob", "cli", file_user="carol", global_user="alice", ingest_user="bob"),
    Case("lib-nothing", "default", "library"),
    Case("lib-memory", "alice", "library", memory_user="alice"),
    Case("lib-call", "bob", "library", call_user="bob"),
    Case("lib-call-over-memory", "bob", "library", memory_user="alice", call_user="bob"),
    Case("lib-file", "carol", "library", file_user="carol"),
    Case("lib-file-over-memory", "carol", "library", file_user="carol", memory_user="alice"),
    Case("lib-call-over-file", "bob", "library", file_user="carol", memory_user="alice", call_user="bob"),
]

PARAMS = [
    pytest.param(fmt, case, id=f"{fmt}-{case.name}")
    for case in CASES
    for fmt in FORMATS
    if case.file_user is None or fmt in GENERIC
]


def _ingest_by_cli(db: Path, path: Path, case: Case, monkeypatch: pytest.MonkeyPatch) -> None:
    if case.env_user is None:
        monkeypatch.delenv("SODAMEM_USER", raising=False)
    else:
        monkeypatch.setenv("SODAMEM_USER", case.env_user)
    args = ["--db", str(db)]
    if case.global_user is not None:
        args += ["--user", case.global_user]
    args += ["ingest", "--json"]
    if case.ingest_user is not None:
        args += ["--user", case.ingest_user]
    main([*args, str(path)])  # raises SystemExit on any error


def _ingest_by_library(db: Path, path: Path, case: Case) -> None:
    unnamed = case.memory_user is None  # then Memory's own default user applies
    memory = Memory(db, embedder="fake") if unnamed else Memory(db, user=str(case.memory_user), embedder="fake")
    with memory:
        report = memory.ingest(path, user=case.call_user)
    assert report.users == [case.expected]


def users_and_sessions(db: Path) -> list[tuple[str, int, int]]:
    with Memory(db, embedder="none") as memory:
        return [(s.user, s.sessions, s.turns) for s in memory.stats(all_users=True)]


@pytest.mark.parametrize(("fmt", "case"), PARAMS)
def test_rows_land_only_under_the_expected_user(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], fmt: str, case: Case
) -> None:
    path = FORMATS[fmt](tmp_path, case.file_user)
    sessions = load_sessions(path)
    turns = sum(len(s.turns) for s in sessions)
    db = tmp_path / "mem.db"
    if case.via == "cli":
        _ingest_by_cli(db, path, case, monkeypatch)
        assert '"sessions_added"' in capsys.readouterr().out
    else:
        _ingest_by_library(db, path, case)
    assert users_and_sessions(db) == [(case.expected, len(sessions), turns)]
    with Memory(db, user=case.expected, embedder="none") as memory:
        (stats,) = memory.stats()
        assert stats.pieces >= stats.turns  # every row of the session, not only the session, is theirs


def test_loaders_leave_the_user_unnamed_unless_the_file_names_one(tmp_path: Path) -> None:
    for fmt, make in FORMATS.items():
        assert {s.user for s in load_sessions(make(tmp_path, None))} == {""}, fmt
    assert {s.user for s in load_sessions(FORMATS["jsonl"](tmp_path, "carol"))} == {"carol"}


def test_a_file_mixing_named_and_unnamed_sessions_is_split(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write_jsonl(tmp_path / "mixed.jsonl", [generic_record("s1", user="carol"), generic_record("s2")])
    db = tmp_path / "mem.db"
    main(["--db", str(db), "--user", "alice", "ingest", str(path)])
    assert "carol" in capsys.readouterr().out
    assert [(user, n) for user, n, _ in users_and_sessions(db)] == [("alice", 1), ("carol", 1)]


def test_hand_built_sessions_follow_the_same_rule(tmp_path: Path) -> None:
    unnamed = load_sessions(FORMATS["jsonl"](tmp_path, None))
    named = [Session(s.session_id + "-named", s.timestamp, s.turns, user="carol") for s in unnamed]
    with Memory(tmp_path / "mem.db", user="alice", embedder="none") as memory:
        memory.ingest([*unnamed, *named])
        assert [(s.user, s.sessions) for s in memory.stats(all_users=True)] == [("alice", 2), ("carol", 2)]
        memory.ingest(unnamed, user="bob")
        assert [(s.user, s.sessions) for s in memory.stats(all_users=True)] == [
            ("alice", 2),
            ("bob", 2),
            ("carol", 2),
        ]
