from __future__ import annotations

import itertools
from datetime import datetime
from pathlib import Path

import pytest

import sodamem
from sodamem import AmbiguousIdError, InputError, Memory, NotFoundError
from tests.conftest import make_session


def test_public_names_are_deliberate() -> None:
    assert "Memory" in sodamem.__all__
    assert set(sodamem.__all__) == {name for name in sodamem.__all__ if hasattr(sodamem, name)}
    assert len(sodamem.__all__) <= 30


def test_search_cites_exact_spans(memory: Memory) -> None:
    memory.ingest(
        [
            make_session("s1", ["Hi! I adopted a puppy called Biscuit last week.", "Lovely, what breed?"]),
            make_session("s2", ["Biscuit chewed my shoes. Anyway.", "Oh no!"], when="2024-03-08T09:00:00"),
        ]
    )
    hits = memory.search("puppy Biscuit", k=5)
    assert [h.turn_id for h in hits][:1] == ["s1:0"]
    for hit in hits:
        assert hit.turn_text[hit.char_start : hit.char_end] == hit.text
        assert hit.session_id in {"s1", "s2"}
        assert hit.timestamp.startswith("2024-03-0")
    assert hits[0].text == "I adopted a puppy called Biscuit last week."
    assert hits[0].context and hits[0].context[0].turn_id == "s1:1"
    assert all(a.score >= b.score for a, b in itertools.pairwise(hits))


def test_search_handles_empty_and_hostile_queries(memory: Memory) -> None:
    memory.ingest([make_session("s1", ["plain text here"])])
    with pytest.raises(InputError, match="no words"):  # nothing to search for: an error, not arbitrary hits
        memory.search("")
    assert memory.search('"); DROP TABLE turns; --') == []
    assert [h.turn_id for h in memory.search('text" OR NEAR(')] == ["s1:0"]


def test_users_are_isolated(memory: Memory) -> None:
    memory.ingest([make_session("s1", ["alice secret: the vault code is 1234"])], user="alice")
    memory.ingest([make_session("s1", ["bob talks about the vault too"])], user="bob")
    alice_hits = memory.search("vault code", user="alice")
    bob_hits = memory.search("vault code", user="bob")
    assert [h.text for h in alice_hits] == ["alice secret: the vault code is 1234"]
    assert all("1234" not in h.turn_text for h in bob_hits)
    assert memory.search("vault") == []  # the default user has nothing
    with pytest.raises(NotFoundError):
        memory.session("s1")
    assert memory.session("s1", user="bob").turns[0].text == "bob talks about the vault too"


def test_identical_reingest_adds_nothing(memory: Memory) -> None:
    sessions = [make_session("s1", ["a. b."]), make_session("s2", ["c"])]
    first = memory.ingest(sessions)
    second = memory.ingest(sessions)
    assert (first.sessions_added, second.sessions_added, second.sessions_unchanged) == (2, 0, 2)
    assert memory.stats()[0].turns == 2


def test_lookups_by_source_ids(memory: Memory) -> None:
    memory.ingest([make_session("s1", ["First sentence. Second one."]), make_session("s2", ["x"])])
    turn = memory.turn("s1:0")
    assert turn.text == "First sentence. Second one."
    assert [p.text for p in turn.pieces] == ["First sentence.", "Second one."]
    piece = memory.piece("s1:0#1")
    assert (piece.char_start, piece.char_end, piece.citation.session_id) == (16, 27, "s1")
    assert memory.piece(str(piece.piece_pk)) == piece
    with pytest.raises(NotFoundError):
        memory.turn("nope")
    with pytest.raises(NotFoundError):
        memory.piece("s1:0#9")


def test_shared_turn_ids_are_ambiguous_until_the_session_is_named(memory: Memory) -> None:
    from datetime import datetime

    from sodamem import Session, Turn

    memory.ingest(
        [
            Session("conv-a_session_1", datetime(2023, 5, 8), (Turn(0, "A", "hello from a", "D1:1"),)),
            Session("conv-b_session_1", datetime(2023, 5, 9), (Turn(0, "B", "hello from b", "D1:1"),)),
        ]
    )
    with pytest.raises(AmbiguousIdError, match="conv-a_session_1"):
        memory.turn("D1:1")
    assert memory.turn("D1:1", session_id="conv-b_session_1").text == "hello from b"
    for dry_run in (True, False):
        with pytest.raises(AmbiguousIdError, match="name the session"):
            memory.forget(turn_id="D1:1", dry_run=dry_run)
    assert [memory.turn("D1:1", session_id=s).text for s in ("conv-a_session_1", "conv-b_session_1")] == [
        "hello from a",
        "hello from b",
    ]
    gone = memory.forget(turn_id="D1:1", session_id="conv-a_session_1")
    assert gone.turns == ["conv-a_session_1/D1:1"] and memory.turn("D1:1").text == "hello from b"


@pytest.mark.parametrize("blank", ["", "   ", "\t"])
def test_a_blank_user_name_is_refused(memory: Memory, blank: str) -> None:
    with pytest.raises(InputError, match="field 'user': is empty"):
        Memory(":memory:", user=blank)
    for call in (
        lambda: memory.add("I live in Leeds.", session_id="s9", user=blank),
        lambda: memory.ingest([make_session("s9", ["mine"])], user=blank),
        lambda: memory.search("Leeds", user=blank),
        lambda: memory.facts(user=blank),
    ):
        with pytest.raises(InputError, match="user"):
            call()
    assert all(s.user.strip() for s in memory.stats(all_users=True))  # no blank user was made


def test_a_user_name_padded_with_spaces_is_refused_not_made_a_tenant_apart(memory: Memory) -> None:
    """ " maya " would be a user apart from "maya": a key made for it would reach none of maya's memory."""
    with pytest.raises(InputError, match="field 'user': has spaces at its ends"):
        Memory(":memory:", user=" maya ")
    with pytest.raises(InputError, match="spaces at its ends"):
        memory.keys.create(" maya")
    with pytest.raises(InputError, match="spaces at its ends"):
        memory.add("I live in Leeds.", session_id="s9", user="maya ")
    assert memory.keys.list() == [] and all(s.user == s.user.strip() for s in memory.stats(all_users=True))


def test_sessions_name_their_user_unless_overridden(memory: Memory) -> None:
    report = memory.ingest([make_session("s1", ["mine"], user="carol")])
    assert report.users == ["carol"]
    assert memory.session("s1", user="carol").user == "carol"
    memory.ingest([make_session("s9", ["forced"], user="carol")], user="dave")
    assert memory.session("s9", user="dave").turns[0].text == "forced"


def test_a_bad_preset_is_an_input_error_naming_it(tmp_path: Path) -> None:
    from sodamem.errors import InputError

    with Memory(tmp_path / "m.db", embedder="fake") as memory:
        memory.add("I moved to York.", session_id="s")
        for preset in ("nope", "default+density.spill=-5", "default+nonsense=1"):
            with pytest.raises(InputError) as raised:
                memory.search("York", preset=preset)
            assert raised.value.field == "preset"
        assert memory.search("York", preset="lexical-heavy")[0].text == "I moved to York."


@pytest.mark.parametrize("ref", ["٤", "s:0#٠", "+1", " 1"])
def test_a_piece_id_is_ascii_digits(ref: str) -> None:
    """Python's str.isdigit takes "٤" (an Arabic-Indic four) for a digit; an id it is not."""
    with Memory(":memory:", embedder="none") as memory:
        memory.add("I live in Leeds. I love tea.", session_id="s")
        assert memory.piece("1").text == "I live in Leeds." and memory.piece("s:0#1").text == "I love tea."
        with pytest.raises(NotFoundError):
            memory.piece(ref)


def test_a_session_window_reads_only_its_turns() -> None:
    with Memory(":memory:", embedder="none") as memory:
        memory.add([f"Message {i}." for i in range(8)], session_id="s", timestamp=datetime(2026, 1, 5, 10))
        window = memory.session("s", window=(2, 4))
        assert [t.turn_index for t in window.turns] == [2, 3, 4]
        assert [t.text for t in window.turns] == [t.text for t in memory.session("s").turns[2:5]]
