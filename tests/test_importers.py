"""Importers: the generic format (JSONL / JSON list), LoCoMo and LongMemEval, and format detection.

Fixtures here only mimic the shape of LoCoMo and LongMemEval; the real LoCoMo dev file is used by the slow test.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from sodamem import InputError, Memory
from sodamem.cli import main
from sodamem.ingest.formats import InputFormat, load_sessions
from sodamem.model import Session

# -- helpers ---------------------------------------------------------------------------------------------------


def write_json(path: Path, data: Any) -> Path:
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    return path


def write_jsonl(path: Path, records: list[Any]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path


def generic_record(session_id: str = "s1", **extra: Any) -> dict[str, Any]:
    record: dict[str, Any] = {
        "session_id": session_id,
        "timestamp": "2023-05-08T13:56:00",
        "turns": [
            {"speaker": "user", "text": "I adopted a greyhound named Biscuit. She loves the beach."},
            {"speaker": "assistant", "text": "Congratulations on adopting Biscuit!"},
        ],
    }
    record.update(extra)
    return record


def by_id(sessions: list[Session]) -> dict[str, Session]:
    return {s.session_id: s for s in sessions}


def assert_hits_cite_exactly(hits: list[Any]) -> None:
    for hit in hits:
        assert hit.text == hit.turn_text[hit.char_start : hit.char_end]
        assert 0 <= hit.char_start <= hit.char_end <= len(hit.turn_text)


@pytest.fixture
def memory(tmp_path: Path) -> Any:
    with Memory(tmp_path / "mem.db") as mem:
        yield mem


# -- generic format --------------------------------------------------------------------------------------------


def test_generic_jsonl_reads_every_session(tmp_path: Path) -> None:
    path = write_jsonl(
        tmp_path / "history.jsonl",
        [generic_record("s1"), generic_record("s2", timestamp="2023-06-01T09:00:00+02:00")],
    )
    sessions = load_sessions(path)
    assert [s.session_id for s in sessions] == ["s1", "s2"]
    first = sessions[0]
    assert first.source == "generic"
    assert first.timestamp == datetime(2023, 5, 8, 13, 56)
    assert [t.index for t in first.turns] == [0, 1]
    assert [t.speaker for t in first.turns] == ["user", "assistant"]
    assert first.turns[1].text == "Congratulations on adopting Biscuit!"
    assert sessions[1].timestamp.utcoffset() is not None
    assert sessions[1].timestamp.astimezone(UTC) == datetime(2023, 6, 1, 7, 0, tzinfo=UTC)


def test_generic_json_list_gives_the_same_sessions_as_jsonl(tmp_path: Path) -> None:
    records = [generic_record("s1"), generic_record("s2")]
    from_jsonl = load_sessions(write_jsonl(tmp_path / "a.jsonl", records))
    from_json = load_sessions(write_json(tmp_path / "a.json", records))
    assert from_json == from_jsonl
    assert len(from_json) == 2


def test_generic_single_json_object_is_one_session(tmp_path: Path) -> None:
    sessions = load_sessions(write_json(tmp_path / "one.json", generic_record("only")))
    assert [s.session_id for s in sessions] == ["only"]


def test_jsonl_blank_lines_are_ignored(tmp_path: Path) -> None:
    path = tmp_path / "gaps.jsonl"
    path.write_text("\n" + json.dumps(generic_record("s1")) + "\n\n   \n" + json.dumps(generic_record("s2")) + "\n")
    assert [s.session_id for s in load_sessions(path)] == ["s1", "s2"]


def test_role_is_a_synonym_of_speaker(tmp_path: Path) -> None:
    record = generic_record(
        "s1",
        turns=[
            {"role": "user", "text": "What is the capital of Peru?"},
            {"speaker": "assistant", "text": "Lima."},
            {"role": "system", "speaker": "narrator", "text": "Both keys: speaker wins."},
        ],
    )
    (session,) = load_sessions(write_jsonl(tmp_path / "roles.jsonl", [record]))
    assert [t.speaker for t in session.turns] == ["user", "assistant", "narrator"]


def test_turn_ids_are_given_or_derived_from_session_and_index(tmp_path: Path, memory: Memory) -> None:
    record = generic_record(
        "chat-7",
        turns=[
            {"speaker": "user", "text": "first", "id": "msg-abc"},
            {"speaker": "assistant", "text": "second"},
            {"speaker": "user", "text": "third"},
        ],
    )
    path = write_jsonl(tmp_path / "ids.jsonl", [record])
    (session,) = load_sessions(path)
    assert [t.turn_id for t in session.turns] == ["msg-abc", "chat-7:1", "chat-7:2"]
    memory.ingest(path)
    assert memory.turn("chat-7:1").text == "second"
    assert memory.turn("msg-abc").turn_index == 0


def test_a_derived_id_steps_past_one_the_file_gives_another_turn(tmp_path: Path) -> None:
    record = generic_record(
        "s",
        turns=[
            {"speaker": "user", "text": "x", "id": "s:2"},
            {"speaker": "user", "text": "y"},
            {"speaker": "a", "text": "z"},
        ],
    )
    (session,) = load_sessions(write_jsonl(tmp_path / "ids.jsonl", [record]))
    assert [t.turn_id for t in session.turns] == ["s:2", "s:1", "s:3"]


def test_duplicate_turn_ids_in_one_session_are_refused(tmp_path: Path) -> None:
    record = generic_record(
        "s1", turns=[{"speaker": "a", "text": "x", "id": "t"}, {"speaker": "b", "text": "y", "id": "t"}]
    )
    with pytest.raises(InputError) as info:
        load_sessions(write_jsonl(tmp_path / "dup.jsonl", [record]))
    assert info.value.session == "s1"
    assert info.value.field == "turns[1].id"


def test_turn_timestamp_is_optional_and_falls_back_to_the_session(tmp_path: Path, memory: Memory) -> None:
    record = generic_record(
        "s1",
        turns=[
            {"speaker": "user", "text": "Morning!", "timestamp": "2023-05-08T14:05:30"},
            {"speaker": "assistant", "text": "Hello."},
        ],
    )
    path = write_jsonl(tmp_path / "times.jsonl", [record])
    (session,) = load_sessions(path)
    assert session.turns[0].timestamp == datetime(2023, 5, 8, 14, 5, 30)
    assert session.turns[1].timestamp is None
    memory.ingest(path)
    stored = memory.session("s1")
    assert [t.timestamp for t in stored.turns] == ["2023-05-08T14:05:30", "2023-05-08T13:56:00"]


def test_user_field_is_honoured(tmp_path: Path, memory: Memory) -> None:
    path = write_jsonl(
        tmp_path / "users.jsonl",
        [generic_record("a1", user="alice"), generic_record("d1")],
    )
    sessions = by_id(load_sessions(path))
    assert sessions["a1"].user == "alice"
    report = memory.ingest(path)
    assert report.users == ["alice", "default"]
    stats = {s.user: s.sessions for s in memory.stats(all_users=True)}
    assert stats == {"alice": 1, "default": 1}
    assert [h.session_id for h in memory.search("greyhound", user="alice", mode="bm25")] == ["a1"]
    assert [h.session_id for h in memory.search("greyhound", mode="bm25")] == ["d1"]


def test_explicit_user_overrides_the_file(tmp_path: Path, memory: Memory) -> None:
    path = write_jsonl(tmp_path / "users.jsonl", [generic_record("a1", user="alice")])
    report = memory.ingest(path, user="bob")
    assert report.users == ["bob"]
    assert {s.user: s.sessions for s in memory.stats(all_users=True)} == {"bob": 1}


def test_generic_ingest_is_searchable_with_exact_citations(tmp_path: Path, memory: Memory) -> None:
    path = write_jsonl(tmp_path / "h.jsonl", [generic_record("s1")])
    report = memory.ingest(path)
    assert (report.sessions_added, report.turns_added) == (1, 2)
    hits = memory.search("beach", mode="bm25")
    assert hits, "the turn mentioning the beach must be found"
    top = hits[0]
    assert (top.session_id, top.turn_id) == ("s1", "s1:0")
    assert top.text == "She loves the beach."
    assert_hits_cite_exactly(hits)


# -- LoCoMo ----------------------------------------------------------------------------------------------------

CAPTION = "a photo of a red kayak beside a lighthouse"


def locomo_sample(sample_id: str, conversation: dict[str, Any], **extra: Any) -> dict[str, Any]:
    sample: dict[str, Any] = {
        "sample_id": sample_id,
        "conversation": {"speaker_a": "Caroline", "speaker_b": "Melanie", **conversation},
        "qa": [],
        "event_summary": {},
        "observation": {},
        "session_summary": {},
    }
    sample.update(extra)
    return sample


def locomo_quirky_data() -> list[dict[str, Any]]:
    qa_quirks = [
        {"question": "When did Caroline kayak?", "answer": "8 May 2023", "evidence": ["D1:2"], "category": 2},
        {"question": "Adversarial?", "adversarial_answer": "never", "evidence": ["D1:1"], "category": 5},
        {"question": "No evidence", "answer": 2022, "evidence": [], "category": 3},
        {"question": "Malformed evidence", "answer": "x", "evidence": "D1:3; D1:4", "category": 1},
        {"question": "Odd evidence", "answer": "y", "evidence": [None, 7, "D99:1"], "category": 4},
        {"question": "Missing evidence", "category": 1},
        "not even an object",
    ]
    first = locomo_sample(
        "conv-a",
        {
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": [
                {"speaker": "Caroline", "dia_id": "D1:1", "text": "Hey Mel! I went kayaking last weekend."},
                {
                    "speaker": "Caroline",
                    "img_url": ["https://example.invalid/kayak.jpg"],
                    "blip_caption": CAPTION,
                    "query": "kayak lighthouse",
                    "re-download": True,
                    "dia_id": "D1:2",
                    "text": "Here's a pic from the trip!",
                },
                {"speaker": "Melanie", "dia_id": "D1:3", "text": "Wow, that looks amazing. Was it cold?"},
            ],
            "session_2_date_time": "10:00 am on 9 May, 2023",
            "session_2": [],
            "session_3_date_time": "3:15 pm on 12 May, 2023",  # a date with no session_3
            "session_10_date_time": "12:05 am on 1 January, 2024",
            "session_10": [
                {"speaker": "Melanie", "dia_id": "D10:1", "text": "Happy new year, Caroline!"},
                {
                    "speaker": "Caroline",
                    "blip_caption": "a photo of fireworks over a harbour",
                    "dia_id": "D10:2",
                    "text": "Same to you! Look at these.",
                },
            ],
        },
        qa=qa_quirks,
    )
    second = locomo_sample(
        "conv-b",
        {
            "session_1_date_time": "12:30 pm on 3 Sep, 2023",
            "session_1": [{"speaker": "Caroline", "dia_id": "D1:1", "text": "Back from the conference."}],
        },
        qa=None,
    )
    return [first, second]


@pytest.fixture
def locomo_file(tmp_path: Path) -> Path:
    return write_json(tmp_path / "locomo_small.json", locomo_quirky_data())


def test_locomo_sessions_ids_order_and_timestamps(locomo_file: Path) -> None:
    sessions = load_sessions(locomo_file)
    # session_2 is empty (skipped), session_3 only has a date (ignored), session_10 sorts after session_1.
    assert [s.session_id for s in sessions] == ["conv-a_session_1", "conv-a_session_10", "conv-b_session_1"]
    assert all(s.source == "locomo" for s in sessions)
    stamps = {s.session_id: s.timestamp for s in sessions}
    assert stamps == {
        "conv-a_session_1": datetime(2023, 5, 8, 13, 56),
        "conv-a_session_10": datetime(2024, 1, 1, 0, 5),
        "conv-b_session_1": datetime(2023, 9, 3, 12, 30),
    }


def test_locomo_turns_keep_dia_ids_speakers_and_text(locomo_file: Path) -> None:
    session = by_id(load_sessions(locomo_file))["conv-a_session_1"]
    assert [t.turn_id for t in session.turns] == ["D1:1", "D1:2", "D1:3"]
    assert [t.speaker for t in session.turns] == ["Caroline", "Caroline", "Melanie"]
    assert session.turns[1].text == "Here's a pic from the trip!"
    assert [t.index for t in session.turns] == [0, 1, 2]


def test_locomo_image_turn_keeps_caption_separately(locomo_file: Path) -> None:
    sessions = by_id(load_sessions(locomo_file))
    turns = sessions["conv-a_session_1"].turns
    assert turns[1].caption == CAPTION
    assert CAPTION not in turns[1].text
    assert turns[0].caption is None and turns[2].caption is None
    # A caption without img_url/query is kept as well.
    assert sessions["conv-a_session_10"].turns[1].caption == "a photo of fireworks over a harbour"


def test_locomo_caption_is_searchable(locomo_file: Path, memory: Memory) -> None:
    report = memory.ingest(locomo_file)
    assert report.sessions_added == 3
    assert report.turns_added == 6
    hits = memory.search("lighthouse", mode="bm25")
    assert [(h.session_id, h.turn_id) for h in hits] == [("conv-a_session_1", "D1:2")]
    assert hits[0].caption == CAPTION
    assert hits[0].turn_text == "Here's a pic from the trip!"
    assert_hits_cite_exactly(hits)
    stored = memory.turn("D1:2", session_id="conv-a_session_1")
    assert stored.caption == CAPTION


def test_locomo_turn_with_only_a_caption_is_kept_and_searchable(tmp_path: Path, memory: Memory) -> None:
    sample = locomo_sample(
        "conv-c",
        {
            "session_1_date_time": "9:00 am on 2 June, 2023",
            "session_1": [
                {"speaker": "Melanie", "dia_id": "D1:1", "text": "", "blip_caption": "a photo of a violin case"},
                {"speaker": "Caroline", "dia_id": "D1:2", "text": "Nice!"},
            ],
        },
    )
    path = write_json(tmp_path / "caption_only.json", [sample])
    memory.ingest(path)
    hits = memory.search("violin", mode="bm25")
    assert [h.turn_id for h in hits] == ["D1:1"]
    assert hits[0].text == "" and hits[0].caption == "a photo of a violin case"
    assert_hits_cite_exactly(hits)


def test_locomo_turn_with_neither_text_nor_caption_is_refused(tmp_path: Path) -> None:
    sample = locomo_sample(
        "conv-d",
        {
            "session_1_date_time": "9:00 am on 2 June, 2023",
            "session_1": [{"speaker": "M", "dia_id": "D1:1", "text": ""}],
        },
    )
    with pytest.raises(InputError) as info:
        load_sessions(write_json(tmp_path / "blank.json", [sample]))
    assert info.value.session == "conv-d_session_1"
    assert info.value.field == "session_1[0].text"


def test_locomo_importer_ignores_qa_entirely(tmp_path: Path) -> None:
    quirky = locomo_quirky_data()
    plain = json.loads(json.dumps(quirky))
    for sample in plain:
        del sample["qa"]
    assert load_sessions(write_json(tmp_path / "quirky.json", quirky)) == load_sessions(
        write_json(tmp_path / "plain.json", plain)
    )


def test_locomo_session_without_its_date_time_is_refused(tmp_path: Path) -> None:
    sample = locomo_sample("conv-e", {"session_1": [{"speaker": "M", "dia_id": "D1:1", "text": "Hi."}]})
    path = write_json(tmp_path / "nodate.json", [sample])
    with pytest.raises(InputError) as info:
        load_sessions(path)
    assert info.value.session == "conv-e_session_1"
    assert info.value.field == "session_1_date_time"
    assert str(path) in str(info.value)


def test_locomo_unparseable_date_time_is_refused(tmp_path: Path) -> None:
    sample = locomo_sample(
        "conv-f",
        {
            "session_1_date_time": "sometime in May",
            "session_1": [{"speaker": "M", "dia_id": "D1:1", "text": "Hi."}],
        },
    )
    with pytest.raises(InputError) as info:
        load_sessions(write_json(tmp_path / "baddate.json", [sample]))
    assert info.value.field == "session_1_date_time"
    assert "sometime in May" in str(info.value)


# -- LongMemEval -----------------------------------------------------------------------------------------------


def lme_session(*contents: str, answer_at: int | None = None) -> list[dict[str, Any]]:
    turns: list[dict[str, Any]] = []
    for i, content in enumerate(contents):
        turn: dict[str, Any] = {"role": "user" if i % 2 == 0 else "assistant", "content": content}
        if answer_at is not None:
            turn["has_answer"] = i == answer_at
        turns.append(turn)
    return turns


SHARED = lme_session("Can you suggest a pasta recipe?", "Try cacio e pepe: pecorino, pepper, spaghetti.")


def lme_question(
    question_id: str, haystack: list[tuple[str, str, list[dict[str, Any]]]], answer_ids: list[str]
) -> dict[str, Any]:
    return {
        "question_id": question_id,
        "question_type": "single-session-user",
        "question": "What colour is my new bike?",
        "answer": "teal",
        "question_date": "2023/05/30 (Tue) 23:40",
        "haystack_session_ids": [sid for sid, _, _ in haystack],
        "haystack_dates": [date for _, date, _ in haystack],
        "haystack_sessions": [turns for _, _, turns in haystack],
        "answer_session_ids": answer_ids,
    }


def longmemeval_data() -> list[dict[str, Any]]:
    answer = lme_session("I just bought a teal bike for commuting.", "Nice, teal is a great colour.", answer_at=0)
    q1 = lme_question(
        "q-001",
        [
            ("answer_abc_1", "2023/05/20 (Sat) 02:21", answer),
            ("sharegpt_xyz_0", "2023/05/21 (Sun) 14:05", SHARED),
        ],
        ["answer_abc_1"],
    )
    q2 = lme_question(
        "q-002",
        [
            ("sharegpt_xyz_0", "2023/05/21 (Sun) 14:05", json.loads(json.dumps(SHARED))),
            ("ultrachat_777", "2023/05/22 (Mon) 08:00", lme_session("How tall is Mount Kenya?", "About 5,199 m.")),
        ],
        [],
    )
    q2["answer"] = 42  # LongMemEval answers are not always strings; the importer must not care
    return [q1, q2]


@pytest.fixture
def longmemeval_file(tmp_path: Path) -> Path:
    return write_json(tmp_path / "longmemeval_s.json", longmemeval_data())


def test_longmemeval_merges_a_session_repeated_identically(longmemeval_file: Path) -> None:
    sessions = load_sessions(longmemeval_file)
    assert [s.session_id for s in sessions] == ["answer_abc_1", "sharegpt_xyz_0", "ultrachat_777"]
    assert all(s.source == "longmemeval" for s in sessions)


def test_longmemeval_turns_ids_roles_and_dates(longmemeval_file: Path) -> None:
    sessions = by_id(load_sessions(longmemeval_file))
    answer = sessions["answer_abc_1"]
    assert answer.timestamp == datetime(2023, 5, 20, 2, 21)
    assert [t.turn_id for t in answer.turns] == ["answer_abc_1_1", "answer_abc_1_2"]
    assert [t.speaker for t in answer.turns] == ["user", "assistant"]
    assert answer.turns[0].text == "I just bought a teal bike for commuting."
    assert sessions["ultrachat_777"].timestamp == datetime(2023, 5, 22, 8, 0)


def test_longmemeval_ingest_and_search(longmemeval_file: Path, memory: Memory) -> None:
    report = memory.ingest(longmemeval_file)
    assert (report.sessions_added, report.turns_added) == (3, 6)
    hits = memory.search("teal bike", mode="bm25")
    assert hits[0].session_id == "answer_abc_1"
    assert hits[0].turn_id == "answer_abc_1_1"
    assert_hits_cite_exactly(hits)
    assert memory.turn("sharegpt_xyz_0_2").speaker == "assistant"


def test_longmemeval_has_answer_marker_does_not_make_copies_differ(tmp_path: Path) -> None:
    data = longmemeval_data()
    data[1]["haystack_sessions"][0] = lme_session(*(t["content"] for t in SHARED), answer_at=1)
    sessions = load_sessions(write_json(tmp_path / "marked.json", data))
    assert [s.session_id for s in sessions].count("sharegpt_xyz_0") == 1


def test_longmemeval_differing_copies_of_a_session_are_an_error(tmp_path: Path) -> None:
    data = longmemeval_data()
    data[1]["haystack_sessions"][0] = lme_session("Can you suggest a pasta recipe?", "Try carbonara instead.")
    path = write_json(tmp_path / "differing.json", data)
    with pytest.raises(InputError) as info:
        load_sessions(path)
    assert info.value.session == "sharegpt_xyz_0"
    assert info.value.field == "session_id"
    assert str(path) in str(info.value)


def test_longmemeval_differing_dates_of_a_session_are_an_error(tmp_path: Path) -> None:
    data = longmemeval_data()
    data[1]["haystack_dates"][0] = "2023/05/21 (Sun) 14:06"
    with pytest.raises(InputError) as info:
        load_sessions(write_json(tmp_path / "dates.json", data))
    assert info.value.session == "sharegpt_xyz_0"


def test_longmemeval_haystack_lengths_must_agree(tmp_path: Path) -> None:
    data = longmemeval_data()
    data[0]["haystack_dates"].pop()
    with pytest.raises(InputError) as info:
        load_sessions(write_json(tmp_path / "lengths.json", data))
    assert info.value.field == "q-001: haystack_sessions"
    assert "differ in length" in str(info.value)


def test_longmemeval_unparseable_date_is_refused(tmp_path: Path) -> None:
    data = longmemeval_data()
    data[0]["haystack_dates"][1] = "May 21st"
    with pytest.raises(InputError) as info:
        load_sessions(write_json(tmp_path / "baddate.json", data))
    assert info.value.session == "sharegpt_xyz_0"
    assert info.value.field == "haystack_dates[1]"


# -- format detection and --format ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "make", "source"),
    [
        ("h.jsonl", lambda p: write_jsonl(p, [generic_record("s1"), generic_record("s2")]), "generic"),
        ("h.json", lambda p: write_json(p, [generic_record("s1")]), "generic"),
        ("h.txt", lambda p: write_jsonl(p, [generic_record("s1"), generic_record("s2")]), "generic"),
        ("l.json", lambda p: write_json(p, locomo_quirky_data()), "locomo"),
        ("single_sample.json", lambda p: write_json(p, locomo_quirky_data()[1]), "locomo"),
        ("m.json", lambda p: write_json(p, longmemeval_data()), "longmemeval"),
    ],
)
def test_format_is_detected(tmp_path: Path, name: str, make: Any, source: str) -> None:
    sessions = load_sessions(make(tmp_path / name))
    assert sessions
    assert {s.source for s in sessions} == {source}


def test_unrecognised_shape_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="unrecognised format"):
        load_sessions(write_json(tmp_path / "x.json", [{"hello": "world"}]))


@pytest.mark.parametrize(
    ("make", "fmt", "source"),
    [
        (lambda p: write_jsonl(p, [generic_record("s1")]), InputFormat.JSONL, "generic"),
        (lambda p: write_json(p, [generic_record("s1")]), "json", "generic"),
        (lambda p: write_json(p, locomo_quirky_data()), "locomo", "locomo"),
        (lambda p: write_json(p, longmemeval_data()), "longmemeval", "longmemeval"),
    ],
)
def test_explicit_format_is_used(tmp_path: Path, make: Any, fmt: str, source: str) -> None:
    # The file name says nothing about the format.
    sessions = load_sessions(make(tmp_path / "data.dat"), fmt)
    assert {s.source for s in sessions} == {source}


@pytest.mark.parametrize(
    ("make", "fmt", "field"),
    [
        (lambda p: write_json(p, locomo_quirky_data()), "longmemeval", "item 0: haystack_session_ids"),
        (lambda p: write_json(p, longmemeval_data()), "locomo", "item 0: sample_id"),
        (lambda p: write_json(p, locomo_quirky_data()), "json", "item 0: session_id"),
        (lambda p: write_jsonl(p, [generic_record("s1"), generic_record("s2")]), "json", None),
    ],
)
def test_explicit_format_that_does_not_fit_is_an_input_error(
    tmp_path: Path, make: Any, fmt: str, field: str | None
) -> None:
    path = make(tmp_path / "data.json")
    with pytest.raises(InputError) as info:
        load_sessions(path, fmt)
    assert type(info.value) is InputError
    assert info.value.file == str(path)
    assert info.value.field == field


def test_explicit_jsonl_format_on_a_json_named_file(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "one_line.json", [generic_record("s1")])
    assert [s.session_id for s in load_sessions(path, "jsonl")] == ["s1"]


def test_unknown_format_name_is_rejected() -> None:
    with pytest.raises(ValueError):
        InputFormat("csv")


def test_memory_ingest_accepts_format(locomo_file: Path, memory: Memory) -> None:
    report = memory.ingest(locomo_file, format="locomo")
    assert report.sessions_added == 3
    with pytest.raises(InputError):
        memory.ingest(locomo_file, format="longmemeval")


def test_cli_ingest_with_explicit_format(tmp_path: Path, locomo_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "cli.db"
    main(["--db", str(db), "ingest", "--format", "locomo", "--json", str(locomo_file)])
    report = json.loads(capsys.readouterr().out)
    assert report["sessions_added"] == 3
    assert report["turns_added"] == 6
    with Memory(db) as mem:
        assert mem.stats()[0].sessions == 3


def test_cli_ingest_with_wrong_explicit_format_exits_2(
    tmp_path: Path, locomo_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--db", str(tmp_path / "cli.db"), "ingest", "--format", "longmemeval", str(locomo_file)])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and str(locomo_file) in err


def test_cli_rejects_an_unknown_format_name(
    tmp_path: Path, locomo_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--db", str(tmp_path / "cli.db"), "ingest", "--format", "csv", str(locomo_file)])
    assert info.value.code == 2
    assert "csv" in capsys.readouterr().err


# -- the real LoCoMo dev file (slow tier) ---------------------------------------------------------------------


def _real_locomo_path() -> Path | None:
    repo = Path(__file__).resolve().parent.parent
    for base in (repo.parent / "shared", repo / "shared"):
        candidate = base / "data" / "locomo" / "locomo_dev.json"
        if candidate.is_file():
            return candidate
    return None


_WORD = re.compile(r"[^\W_]+")


def _caption_only_words(raw: list[dict[str, Any]]) -> list[tuple[str, str, str, str]]:
    """(word, session_id, dia_id, caption): one caption word per captioned turn that its own text lacks."""
    found = []
    for sample in raw:
        for key, turns in sample["conversation"].items():
            if not isinstance(turns, list):
                continue
            for turn in turns:
                caption = turn.get("blip_caption")
                if not caption:
                    continue
                text_words = set(_WORD.findall(turn["text"].lower()))
                for word in _WORD.findall(caption.lower()):
                    if len(word) >= 5 and word not in text_words and word != "photo":
                        found.append((word, f"{sample['sample_id']}_{key}", turn["dia_id"], caption))
                        break
    return found


@pytest.mark.slow
def test_real_locomo_dev_file(tmp_path: Path) -> None:
    path = _real_locomo_path()
    if path is None:
        pytest.skip("LoCoMo dev file not found at <repo>/../shared/data/locomo/locomo_dev.json")
    raw = json.loads(path.read_text(encoding="utf-8"))

    with Memory(tmp_path / "locomo.db") as memory:
        report = memory.ingest(path)
        conn = memory.store.conn

        # Seven conversations, each with sessions and turns; counts agree with the raw file.
        sample_ids = [sample["sample_id"] for sample in raw]
        assert len(sample_ids) == 7
        for sample in raw:
            sid = sample["sample_id"]
            lists = [v for k, v in sample["conversation"].items() if re.fullmatch(r"session_\d+", k)]
            sessions = conn.execute(
                "SELECT count(*) FROM sessions WHERE substr(session_id, 1, ?) = ?",
                (len(sid) + 9, f"{sid}_session_"),
            ).fetchone()[0]
            turns = conn.execute(
                "SELECT count(*) FROM turns t JOIN sessions s ON s.id = t.session_pk"
                " WHERE substr(s.session_id, 1, ?) = ?",
                (len(sid) + 9, f"{sid}_session_"),
            ).fetchone()[0]
            assert sessions > 0 and turns > 0, sid
            assert sessions == sum(1 for turns_ in lists if turns_), sid
            assert turns == sum(len(turns_) for turns_ in lists), sid
        assert report.sessions_added == conn.execute("SELECT count(*) FROM sessions").fetchone()[0]

        # Every piece is an exact span of its turn.
        rows = conn.execute(
            "SELECT p.char_start, p.char_end, p.text AS piece, t.text AS turn FROM pieces p"
            " JOIN turns t ON t.id = p.turn_pk"
        ).fetchall()
        assert len(rows) == report.pieces_added > 0
        bad = [r for r in rows if r["turn"][r["char_start"] : r["char_end"]] != r["piece"]]
        assert bad == []

        # Captions are stored and searchable.
        raw_captions = sum(
            1
            for sample in raw
            for turns_ in sample["conversation"].values()
            if isinstance(turns_, list)
            for turn in turns_
            if turn.get("blip_caption")
        )
        stored = conn.execute("SELECT count(*) FROM turns WHERE caption IS NOT NULL").fetchone()[0]
        assert stored == raw_captions > 0
        # A caption-only word matching at most k turns must bring its turn back: only the caption can match it.
        checked = 0
        for word, session_id, dia_id, caption in _caption_only_words(raw):
            (matches,) = conn.execute(
                "SELECT count(*) FROM turns_fts_u1 WHERE turns_fts_u1 MATCH ?", (f'"{word}"',)
            ).fetchone()
            if not 1 <= matches <= 10:
                continue
            hits = memory.search(word, k=10, mode="bm25")
            matching = [h for h in hits if (h.session_id, h.turn_id) == (session_id, dia_id)]
            assert matching, (word, session_id, dia_id)
            assert matching[0].caption == caption
            assert word not in matching[0].turn_text.lower().split()
            checked += 1
        assert checked >= 20

        # Search citations are exact spans of the stored turn text.
        questions = [str(qa["question"]) for sample in raw for qa in sample.get("qa", [])[:10] if isinstance(qa, dict)]
        total = Counter[str]()
        for question in questions:
            for hit in memory.search(question, k=5):
                assert hit.text == hit.turn_text[hit.char_start : hit.char_end]
                (text,) = conn.execute(
                    "SELECT t.text FROM turns t JOIN sessions s ON s.id = t.session_pk"
                    " WHERE s.session_id = ? AND t.idx = ?",
                    (hit.session_id, hit.turn_index),
                ).fetchone()
                assert hit.turn_text == text
                total[hit.session_id] += 1
        assert sum(total.values()) > 0
