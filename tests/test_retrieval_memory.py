"""The memory's own search end to end: temporal bonus, gates, explanations, evidence packs, CLI flags."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest

from sodamem import Memory, Session, Turn
from sodamem.cli import main


def said(session_id: str, when: str, text: str) -> Session:
    return Session(session_id, datetime.fromisoformat(when), (Turn(0, "Maya", text, f"{session_id}:0"),))


HISTORY = [
    said("jan", "2024-01-10T10:00:00", "I went to a concert in town with Tom."),
    said("apr", "2024-04-12T10:00:00", "I went to a concert at the arena with Priya."),
    said("jun", "2024-06-20T10:00:00", "I live in Leeds."),
    said("jul", "2024-07-20T10:00:00", "I live in York now."),
]


@pytest.fixture
def memory(memory_location: str) -> Memory:
    mem = Memory(memory_location, embedder="fake")
    mem.ingest(HISTORY)
    yield mem
    mem.close()


def test_the_time_window_lifts_evidence_inside_it(memory: Memory) -> None:
    # Asked in mid-June: "two months ago" is April; the January concert matches the words just as well.
    april = memory.search("which concert did I go to two months ago?", k=2, now=datetime(2024, 6, 15))
    assert april[0].session_id == "apr"
    assert any(line.startswith("bonus") for line in april[0].explain)
    january = memory.search("which concert did I go to in January?", k=2, now=datetime(2024, 6, 15))
    assert january[0].session_id == "jan"
    assert {h.session_id for h in april} == {"apr", "jan"}  # a bonus, never a filter


def test_without_the_bonus_the_ranking_ignores_the_window(memory: Memory) -> None:
    plain = memory.search(
        "which concert did I go to two months ago?", k=2, now=datetime(2024, 6, 15), preset="no-temporal"
    )
    assert all(not any(line.startswith("bonus") for line in h.explain) for h in plain)


def test_explanations_name_the_tunnels(memory: Memory) -> None:
    hit = memory.search("concert arena Priya", k=1)[0]
    assert hit.session_id == "apr"
    assert {"bm25", "dense"} <= set(hit.tunnels)
    assert any(line.startswith("bm25 hop 0 rank 1") for line in hit.explain)


def test_evidence_pack_fits_the_budget_and_cites(memory: Memory) -> None:
    pack = memory.evidence("where does Maya live", budget_tokens=60, now=datetime(2024, 8, 1))
    assert 0 < pack.used_tokens <= 60
    text = pack.render_text()
    assert "[E1]" in text and "[Session" in text
    facts = [item for item in pack.items if item.kind == "fact"]
    assert {item.status for item in facts} <= {"active", "superseded"}
    lives = {item.text: item.status for item in facts if "live" in item.text}
    assert lives.get("Maya lives in York") in (None, "active")
    assert lives.get("Maya lives in Leeds") in (None, "superseded")


def test_cli_search_flags(memory: Memory, capsys: pytest.CaptureFixture[str]) -> None:
    db = memory.store.path
    memory.close()
    main(["--db", db, "search", "concert", "--now", "2024-06-15", "--explain", "--k", "2"])
    out = capsys.readouterr().out
    assert "tunnels:" in out and "bm25 hop 0" in out
    main(["--db", db, "search", "concert", "--budget", "40", "--json"])
    pack = json.loads(capsys.readouterr().out)
    assert pack["used_tokens"] <= 40 and pack["sessions"]
    main(["--db", db, "search", "concert", "--preset", "no-graph", "--json"])
    assert json.loads(capsys.readouterr().out)["results"]
    main(["--db", db, "search", "concert", "--preset", "no-graph+weight.bm25=2+session_share=0", "--json"])
    assert json.loads(capsys.readouterr().out)["results"]
    with pytest.raises(SystemExit) as bad_preset:
        main(["--db", db, "search", "concert", "--preset", "default+weight.telepathy=1"])
    assert bad_preset.value.code == 2 and "unknown tunnel 'telepathy'" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_info:
        main(["--db", db, "search", "concert", "--now", "someday"])
    assert exit_info.value.code == 2


def test_turns_share_their_session_s_evidence(tmp_path: Path) -> None:
    session = Session(
        "trip",
        datetime(2024, 5, 1),
        tuple(
            Turn(i, "Maya", text, f"trip:{i}")
            for i, text in enumerate(
                ["We flew to Lisbon for Priya's birthday.", "Nice!", "Any photos?", "The tram ride was the best part."]
            )
        ),
    )
    with Memory(tmp_path / "m.db", embedder="fake") as memory:
        memory.ingest([session, said("other", "2024-05-02T10:00:00", "The tram was late again today.")])
        shared = memory.search("Lisbon birthday tram", k=5)
        alone = memory.search("Lisbon birthday tram", k=5, preset="no-session")
    by_turn = {h.turn_id: h for h in shared}
    assert any(line.startswith("session +") for line in by_turn["trip:3"].explain)
    assert not any(line.startswith("session") for h in alone for line in h.explain)
    rank = [h.turn_id for h in shared]
    assert rank.index("trip:3") < rank.index("other:0")  # the tram turn of the Lisbon session comes first
