"""LongMemEval: a list of questions, each carrying its haystack of sessions.

Sessions come from ``haystack_session_ids`` / ``haystack_dates`` / ``haystack_sessions``; turn ids are
``<session_id>_<turn index + 1>``. The same session appears in many questions' haystacks: identical copies are
merged by the loader, differing copies are an error.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from sodamem.errors import InputError
from sodamem.ingest.formats.common import (
    check_turn_text,
    parse_time,
    require_list,
    require_mapping,
    require_str,
)
from sodamem.ingest.timestamps import parse_longmemeval
from sodamem.model import Session, Turn


def looks_like_longmemeval(item: Any) -> bool:
    return isinstance(item, Mapping) and "haystack_sessions" in item


def parse_longmemeval_questions(items: list[Any]) -> Iterator[Session]:
    for position, raw in enumerate(items):
        yield from parse_longmemeval_question(raw, position)


def parse_longmemeval_question(raw: Any, position: int) -> Iterator[Session]:
    question = require_mapping(raw, session=None, field=f"item {position}")
    label = str(question.get("question_id", f"item {position}"))
    ids = require_list(question.get("haystack_session_ids"), session=None, field=f"{label}: haystack_session_ids")
    dates = require_list(question.get("haystack_dates"), session=None, field=f"{label}: haystack_dates")
    sessions = require_list(question.get("haystack_sessions"), session=None, field=f"{label}: haystack_sessions")
    if not len(ids) == len(dates) == len(sessions):
        raise InputError(
            f"haystack_session_ids ({len(ids)}), haystack_dates ({len(dates)}) and haystack_sessions "
            f"({len(sessions)}) differ in length",
            field=f"{label}: haystack_sessions",
        )
    for number, (session_id, date, raw_turns) in enumerate(zip(ids, dates, sessions, strict=True)):
        if not isinstance(session_id, str) or not session_id:
            raise InputError("expected a non-empty string", field=f"{label}: haystack_session_ids[{number}]")
        if not isinstance(date, str):
            raise InputError("expected a string", session=session_id, field=f"haystack_dates[{number}]")
        timestamp = parse_time(date, parse_longmemeval, session=session_id, field=f"haystack_dates[{number}]")
        turn_list = require_list(raw_turns, session=session_id, field=f"haystack_sessions[{number}]")
        if not turn_list:
            raise InputError(
                "a session needs at least one turn", session=session_id, field=f"haystack_sessions[{number}]"
            )
        turns = tuple(_parse_turn(turn, index, session_id) for index, turn in enumerate(turn_list))
        yield Session(session_id=session_id, timestamp=timestamp, turns=turns, source="longmemeval")


def _parse_turn(raw: Any, index: int, session_id: str) -> Turn:
    field = f"turns[{index}]"
    turn = require_mapping(raw, session=session_id, field=field)
    role = require_str(turn, "role", session=session_id, field=f"{field}.role")
    text = require_str(turn, "content", session=session_id, field=f"{field}.content", nonempty=False)
    check_turn_text(text, session=session_id, field=f"{field}.content")
    return Turn(index=index, speaker=role, text=text, turn_id=f"{session_id}_{index + 1}")
