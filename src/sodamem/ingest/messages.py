"""Messages as callers hand them over (objects, dicts, plain strings, JSON lines) into validated ``Message``s.

Every failure is an ``InputError`` naming the message (``messages[3].text``, or ``line 7: text`` for JSON lines),
raised before anything is written.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import IO, Any

from sodamem.errors import InputError
from sodamem.ingest.formats.common import check_encodable, check_time, check_turn_text, json_line
from sodamem.ingest.timestamps import parse_any
from sodamem.model import Message

MessageLike = Message | str | Mapping[str, Any]
KEYS = frozenset({"speaker", "role", "text", "id", "timestamp", "caption"})


def to_messages(items: MessageLike | Iterable[MessageLike], *, speaker: str = "user") -> list[Message]:
    """One message or several; a plain string is a message of ``speaker``."""
    if isinstance(items, Message | str | Mapping):
        items = [items]
    out = [to_message(item, speaker=speaker, where=f"messages[{i}]") for i, item in enumerate(items)]
    if not out:
        raise InputError("no messages to add", field="messages")
    return out


def day_session_id(messages: Sequence[Message], default_time: datetime) -> str:
    """The session a batch joins when its caller names none: the day its first message was said, as written in
    that message's own time zone ("2026-12-05"). The id follows from the messages alone, so every process adding
    that day's messages grows the one session, and relative dates still resolve on each message's own time."""
    return (messages[0].timestamp or default_time).date().isoformat()


def to_message(item: object, *, speaker: str = "user", where: str = "message") -> Message:
    if isinstance(item, str):
        item = Message(speaker=speaker, text=item)
    if isinstance(item, Mapping):
        item = _from_mapping(item, where)
    if not isinstance(item, Message):
        raise InputError(f"expected a message (object, text or Message), got {type(item).__name__}", field=where)
    _check(item, where)
    return item


def read_jsonl(stream: IO[str], *, speaker: str = "user") -> list[Message]:
    """A stream of messages, one JSON object a line (blank lines skipped): ``{"speaker"|"role", "text", ...}``."""
    out: list[Message] = []
    for number, line in enumerate(stream, start=1):
        if not line.strip():
            continue
        where = f"line {number}"
        record = json_line(line, number)
        if not isinstance(record, Mapping):
            raise InputError("expected a JSON object", field=where)
        out.append(to_message({"speaker": speaker, **record} if "role" not in record else record, where=where))
    if not out:
        raise InputError("no messages in the stream", field="jsonl")
    return out


def _from_mapping(record: Mapping[str, Any], where: str) -> Message:
    unknown = sorted(set(record) - KEYS)
    if unknown:
        raise InputError(f"unknown key {unknown[0]!r} (known: {', '.join(sorted(KEYS))})", field=where)
    if "speaker" in record and "role" in record and record["speaker"] != record["role"]:
        raise InputError("give 'speaker' or 'role', not both", field=f"{where}.speaker")
    speaker = record.get("speaker", record.get("role"))
    for key, value in (("speaker", speaker), ("text", record.get("text"))):
        if not isinstance(value, str):
            raise InputError("missing" if value is None else "expected a string", field=f"{where}.{key}")
    for key in ("id", "caption", "timestamp"):
        if record.get(key) is not None and not isinstance(record[key], str | datetime):
            raise InputError("expected a string", field=f"{where}.{key}")
    timestamp = record.get("timestamp")
    if isinstance(timestamp, str):
        try:
            timestamp = parse_any(timestamp)
        except ValueError as exc:
            raise InputError(str(exc), field=f"{where}.timestamp") from None
    return Message(
        speaker=str(speaker),
        text=str(record["text"]),
        id=record.get("id"),
        timestamp=timestamp,
        caption=record.get("caption"),
    )


def _check(message: Message, where: str) -> None:
    if not message.speaker.strip():
        raise InputError("is empty", field=f"{where}.speaker")
    if not message.text.strip():
        raise InputError("is empty", field=f"{where}.text")
    check_turn_text(message.text, session=None, field=f"{where}.text")
    for name in ("speaker", "id", "caption"):
        value = getattr(message, name)
        if value is not None:
            check_encodable(value, session=None, field=f"{where}.{name}")
    if message.id is not None and not message.id.strip():
        raise InputError("is empty", field=f"{where}.id")
    if message.timestamp is not None:
        check_time(message.timestamp, session=None, field=f"{where}.timestamp")
