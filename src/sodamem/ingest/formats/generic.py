"""The documented generic format: JSONL (one session per line) or a JSON list of sessions.

``{"session_id": str, "timestamp": ISO 8601, "user": str?, "turns": [{"speaker"|"role": str, "text": str,
"id": str?, "timestamp": ISO 8601?}]}``
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from sodamem.errors import InputError
from sodamem.ingest.formats.common import (
    check_turn_text,
    free_turn_id,
    optional_str,
    parse_time,
    require_list,
    require_mapping,
    require_str,
)
from sodamem.ingest.timestamps import parse_iso
from sodamem.model import Session, Turn
from sodamem.users import check_user_name


def parse_generic_session(value: Any, *, position: str) -> Session:
    """Validate one session record; ``position`` ("line 3", "item 0") names it until its id is known."""
    record = require_mapping(value, session=None, field=position)
    if "session_id" not in record:
        raise InputError("missing", session=None, field=f"{position}: session_id")
    session_id = require_str(record, "session_id", session=None, field=f"{position}: session_id")
    timestamp = parse_time(
        require_str(record, "timestamp", session=session_id), parse_iso, session=session_id, field="timestamp"
    )
    user = optional_str(record, "user", session=session_id)
    if user is not None:
        check_user_name(user, session=session_id)
    if "turns" not in record:
        raise InputError("missing", session=session_id, field="turns")
    raw_turns = require_list(record["turns"], session=session_id, field="turns")
    if not raw_turns:
        raise InputError("a session needs at least one turn", session=session_id, field="turns")
    turns = []
    for index, raw in enumerate(raw_turns):
        field = f"turns[{index}]"
        turn = require_mapping(raw, session=session_id, field=field)
        speaker_key = "speaker" if "speaker" in turn else "role"
        speaker = require_str(turn, speaker_key, session=session_id, field=f"{field}.speaker")
        text = require_str(turn, "text", session=session_id, field=f"{field}.text", nonempty=False)
        check_turn_text(text, session=session_id, field=f"{field}.text")
        turn_id = optional_str(turn, "id", session=session_id, field=f"{field}.id") or ""  # given later when blank
        raw_time = optional_str(turn, "timestamp", session=session_id, field=f"{field}.timestamp")
        turn_time = (
            parse_time(raw_time, parse_iso, session=session_id, field=f"{field}.timestamp") if raw_time else None
        )
        turns.append(Turn(index=index, speaker=speaker, text=text, turn_id=turn_id, timestamp=turn_time))
    _check_unique_turn_ids([t for t in turns if t.turn_id], session_id)
    turns = _default_ids(turns, session_id)
    return Session(session_id=session_id, timestamp=timestamp, turns=tuple(turns), user=user or "", source="generic")


def _default_ids(turns: list[Turn], session_id: str) -> list[Turn]:
    """A turn without an id gets ``<session>:<index>``, or the next such id that no turn of the file gives."""
    taken = {t.turn_id for t in turns if t.turn_id}
    out = []
    for turn in turns:
        if not turn.turn_id:
            turn = replace(turn, turn_id=free_turn_id(session_id, turn.index, taken))
            taken.add(turn.turn_id)
        out.append(turn)
    return out


def _check_unique_turn_ids(turns: list[Turn], session_id: str) -> None:
    seen: set[str] = set()
    for turn in turns:
        if turn.turn_id in seen:
            raise InputError(f"duplicate turn id {turn.turn_id!r}", session=session_id, field=f"turns[{turn.index}].id")
        seen.add(turn.turn_id)
