"""Read a dialogue file into validated Sessions: the generic format, LoCoMo or LongMemEval.

Everything is parsed and checked before anything is stored, so a bad file changes nothing.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from enum import StrEnum
from pathlib import Path
from typing import Any

from sodamem.errors import InputError
from sodamem.ingest.formats.common import json_line
from sodamem.ingest.formats.generic import parse_generic_session
from sodamem.ingest.formats.locomo import looks_like_locomo, parse_locomo_samples
from sodamem.ingest.formats.longmemeval import looks_like_longmemeval, parse_longmemeval_questions
from sodamem.model import Session

__all__ = ["InputFormat", "load_sessions", "parse_sessions"]


class InputFormat(StrEnum):
    AUTO = "auto"
    JSONL = "jsonl"
    JSON = "json"
    LOCOMO = "locomo"
    LONGMEMEVAL = "longmemeval"


def load_sessions(path: str | Path, fmt: InputFormat | str = InputFormat.AUTO) -> list[Session]:
    """Parse and validate every session of a file; raise ``InputError`` naming the file on any problem."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", file=str(path)) from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(
            f"not valid UTF-8 (byte {exc.start}: {raw[exc.start : exc.start + 1]!r})", file=str(path)
        ) from None
    try:
        return parse_sessions(text, fmt, name=path.name)
    except InputError as exc:
        raise exc.with_file(str(path)) from None


def parse_sessions(text: str, fmt: InputFormat | str = InputFormat.AUTO, *, name: str = "") -> list[Session]:
    fmt = InputFormat(fmt)
    if fmt is InputFormat.JSONL or (fmt is InputFormat.AUTO and _is_jsonl(text, name)):
        return _dedupe(parse_generic_session(item, position=f"line {line}") for line, item in _jsonl_records(text))
    data = _json(text)
    items = data if isinstance(data, list) else [data]
    if fmt is InputFormat.AUTO:
        fmt = _detect(items)
    if fmt is InputFormat.LOCOMO:
        return _dedupe(parse_locomo_samples(items))
    if fmt is InputFormat.LONGMEMEVAL:
        return _dedupe(parse_longmemeval_questions(items), identical_ok=True)
    return _dedupe(parse_generic_session(item, position=f"item {i}") for i, item in enumerate(items))


def _is_jsonl(text: str, name: str) -> bool:
    if name.endswith(".jsonl"):
        return True
    stripped = text.lstrip()
    if not stripped.startswith("{"):
        return False
    try:
        json.loads(text)
    except json.JSONDecodeError:
        return True  # several objects, one per line
    except RecursionError:
        return False  # read as one JSON document, which reports the nesting
    return False


def _jsonl_records(text: str) -> Iterator[tuple[int, Any]]:
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            yield number, json_line(line, number)


def _json(text: str) -> Any:
    if not text.strip():
        raise InputError("the file is empty")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"malformed JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}") from None
    except RecursionError:
        raise InputError("JSON nested too deeply") from None


def _detect(items: list[Any]) -> InputFormat:
    if not items:
        raise InputError("the file holds no sessions (an empty list)")
    first = items[0]
    if looks_like_locomo(first):
        return InputFormat.LOCOMO
    if looks_like_longmemeval(first):
        return InputFormat.LONGMEMEVAL
    if isinstance(first, dict) and "session_id" in first:
        return InputFormat.JSON
    raise InputError(
        "unrecognised format: expected sessions with 'session_id' and 'turns', LoCoMo samples "
        "('sample_id', 'conversation') or LongMemEval questions ('haystack_sessions')",
        field="item 0",
    )


def _dedupe(sessions: Iterable[Session], *, identical_ok: bool = False) -> list[Session]:
    """Refuse a session id used twice in one file (LongMemEval repeats identical sessions: merge those)."""
    seen: dict[str, Session] = {}
    for session in sessions:
        earlier = seen.get(session.session_id)
        if earlier is None:
            seen[session.session_id] = session
        elif not (identical_ok and earlier == session):
            raise InputError("duplicate session id in one file", session=session.session_id, field="session_id")
    if not seen:
        raise InputError("the file holds no sessions")
    return list(seen.values())
