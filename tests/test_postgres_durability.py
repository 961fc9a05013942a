"""Server settings through the database URL (``with_settings``): the opt-in ``synchronous_commit = off`` that
docs/bench.md measures, and ``bench pg-adds``, which times adds under such settings against SQLite."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import parse_qs

import pytest
from click.testing import CliRunner

from sodamem.bench.cli import bench
from sodamem.bench.pg_adds import (
    SQLITE,
    AddRun,
    AddsReport,
    Variant,
    commit_waits_for_disk,
    parse_sqlite_variant,
    parse_variant,
    render_markdown,
)
from sodamem.store.postgres.scratch import with_settings
from tests.postgres_server import PostgresCluster
from tests.test_bench_qa import fixture as locomo_fixture


def test_with_settings_adds_options_and_keeps_the_rest() -> None:
    url = with_settings("postgresql://u:p@/mem?host=/srv/pg", {"synchronous_commit": "off"})
    base, _, query = url.partition("?")
    assert base == "postgresql://u:p@/mem"
    assert parse_qs(query) == {"host": ["/srv/pg"], "options": ["-c synchronous_commit=off"]}
    assert with_settings("postgresql://h/mem", {}) == "postgresql://h/mem"


def test_with_settings_appends_to_options_already_named() -> None:
    url = with_settings(
        "postgresql://h/mem?options=-c%20search_path%3Dx&sslmode=disable",
        {"synchronous_commit": "off", "wal_compression": "pglz"},
    )
    query = parse_qs(url.partition("?")[2])
    assert query["sslmode"] == ["disable"]
    assert query["options"] == ["-c search_path=x -c synchronous_commit=off -c wal_compression=pglz"]


@pytest.mark.parametrize("name, value", [("synchronous commit", "off"), ("a=b", "off"), ("x", "o ff"), ("", "on")])
def test_with_settings_refuses_what_options_cannot_carry(name: str, value: str) -> None:
    with pytest.raises(ValueError):
        with_settings("postgresql://h/mem", {name: value})


def test_parse_variant() -> None:
    assert parse_variant("default") == Variant("default", {})
    assert parse_variant("async:synchronous_commit=off, wal_compression=pglz") == Variant(
        "async", {"synchronous_commit": "off", "wal_compression": "pglz"}
    )
    for bad in ("sqlite", ":synchronous_commit=off", "x:synchronous_commit"):
        with pytest.raises(ValueError):
            parse_variant(bad)


def test_parse_sqlite_variant() -> None:
    assert parse_sqlite_variant("full:synchronous=full") == Variant("full", {"synchronous": "FULL"}, SQLITE)
    for bad in (
        "full",
        "full:synchronous=OFF",
        "full:journal_mode=DELETE",
        "sqlite:synchronous=FULL",
        ":synchronous=FULL",
    ):
        with pytest.raises(ValueError):
            parse_sqlite_variant(bad)


def test_commit_waits_for_disk() -> None:
    assert commit_waits_for_disk("sqlite", {"synchronous": "FULL (WAL mode)"})
    assert not commit_waits_for_disk("sqlite", {"synchronous": "NORMAL (WAL mode)"})
    assert commit_waits_for_disk("postgres", {"synchronous_commit": "on", "fsync": "on"})
    assert commit_waits_for_disk("postgres", {"synchronous_commit": "local"})
    assert not commit_waits_for_disk("postgres", {"synchronous_commit": "off", "fsync": "on"})
    assert not commit_waits_for_disk("postgres", {"synchronous_commit": "on", "fsync": "off"})


def _run(number: int, label: str, p50: float, backend: str, settings: dict[str, str]) -> AddRun:
    return AddRun(number, label, p50, p50, p50, None if backend == SQLITE else 60.0, settings, "10:00:00", 0.1, backend)


def test_ratios_at_equal_durability() -> None:
    """Each PostgreSQL variant is compared with the round's SQLite run whose commits wait for the disk exactly when
    its own do: synchronous_commit on with SQLite FULL, off with SQLite NORMAL."""
    normal, full = {"synchronous": "NORMAL (WAL mode)"}, {"synchronous": "FULL (WAL mode)"}
    on, off = {"synchronous_commit": "on", "fsync": "on"}, {"synchronous_commit": "off", "fsync": "on"}
    report = AddsReport(100_000, 300, 100)
    for number, (sqlite_p50, full_p50, on_p50, off_p50) in enumerate([(2.0, 4.0, 8.0, 5.0), (2.5, 5.0, 12.5, 5.0)], 1):
        report.runs += [
            _run(number, SQLITE, sqlite_p50, "sqlite", normal), _run(number, "full", full_p50, "sqlite", full),
            _run(number, "default", on_p50, "postgres", on), _run(number, "async", off_p50, "postgres", off),
        ]  # fmt: skip
    assert report.equal_durability("default") == ("full", [2.0, 2.5])
    assert report.equal_durability("async") == (SQLITE, [2.5, 2.0])
    assert report.equal_durability("full") is None and report.equal_durability(SQLITE) is None
    assert report.ratios("default") == [4.0, 5.0]
    rows = {line.split(" | ")[0]: line for line in render_markdown(report).splitlines() if line.startswith("| ")}
    assert "| 2.25x (2.00-2.50) to full |" in rows["| default"]
    assert "| 2.25x (2.00-2.50) to sqlite |" in rows["| async"]
    assert "| synchronous FULL (WAL mode) | yes |" in rows["| full"]
    without_full = AddsReport(100_000, 300, 100, [r for r in report.runs if r.label != "full"])
    assert without_full.equal_durability("default") is None  # nothing measured at its durability


@pytest.mark.slow
def test_a_memory_opened_with_synchronous_commit_off(postgres_url: str) -> None:
    """Every connection of the store's pool runs with the URL's settings, writes included; the default stays on."""
    from sodamem.memory import Memory

    with Memory(postgres_url, user="u", embedder="none") as memory:
        assert memory.store.conn.native("SHOW synchronous_commit").fetchone()[0] == "on"
    with Memory(with_settings(postgres_url, {"synchronous_commit": "off"}), user="u", embedder="none") as memory:
        conn = memory.store.conn
        assert conn.native("SHOW synchronous_commit").fetchone()[0] == "off"
        memory.add({"speaker": "user", "text": "I moved to Lisbon in May."}, session_id="s1")
        memory.add({"speaker": "user", "text": "My sister lives in Porto."}, session_id="s1")
        with memory.store.transaction("u") as tx:  # inside a write transaction too
            assert tx.native("SHOW synchronous_commit").fetchone()[0] == "off"
        assert [hit.text for hit in memory.search("Porto", k=1)] == ["My sister lives in Porto."]
        assert memory.store.check().ok


@pytest.mark.slow
def test_bench_pg_adds(tmp_path: Path, postgres_cluster: PostgresCluster) -> None:
    """`bench pg-adds --prepare` on a tiny corpus: a round of SQLite and two variants, each with the settings its
    connections saw, the WAL of the PostgreSQL runs, the ratios to SQLite."""
    base = tmp_path / "base.db"
    args = ["pg-adds", "--data", str(locomo_fixture(tmp_path)), "--pg-url", postgres_cluster.url(), "--size", "120"]
    args += ["--template", "sodamem_pg_adds_test", "--sqlite-base", str(base), "--prepare", "--rounds", "2"]
    args += ["--adds", "10", "--start", "0", "--variant", "default", "--variant", "async:synchronous_commit=off"]
    args += ["--sqlite-variant", "full:synchronous=FULL"]
    args += ["--json", str(tmp_path / "adds.json")]
    try:
        result = CliRunner().invoke(bench, args)
        assert result.exit_code == 0, result.output
    finally:
        postgres_cluster.drop_database("sodamem_pg_adds_test")
    runs = json.loads((tmp_path / "adds.json").read_text("utf-8"))["runs"]
    labels = ["sqlite", "full", "default", "async"]
    assert sorted((r["round"], r["label"]) for r in runs) == sorted((n, label) for n in (1, 2) for label in labels)
    seen = {r["label"]: r["settings"] for r in runs}
    assert seen["default"]["synchronous_commit"] == "on" and seen["async"]["synchronous_commit"] == "off"
    assert seen["sqlite"] == {"synchronous": "NORMAL (WAL mode)"} and seen["full"] == {"synchronous": "FULL (WAL mode)"}
    assert {r["label"]: r["waits_for_disk"] for r in runs} == {
        "sqlite": False,
        "full": True,
        "default": True,
        "async": False,
    }
    assert all(r["wal_kb_per_add"] > 0 for r in runs if r["backend"] == "postgres")
    assert all(r["flush_ms"] > 0 for r in runs)  # the disk's flush, probed before each run
    assert [r["label"] for r in runs][:4] == labels  # round 2 starts further along
    assert [r["label"] for r in runs][4:] == labels[1:] + labels[:1]
    rows = {line.split(" | ")[0][2:]: line for line in result.output.splitlines() if line.startswith("| ")}
    assert " to full |" in rows["default"] and " to sqlite |" in rows["async"], result.output
    twice = CliRunner().invoke(bench, [*args, "--sqlite-variant", "full:synchronous=NORMAL"])
    assert twice.exit_code == 2 and "its own label" in twice.output
