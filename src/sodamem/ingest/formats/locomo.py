"""LoCoMo (snap-research/LoCoMo ``locomo10.json``): a list of samples, each with a ``conversation``.

Quirks survived: ``session_N_date_time`` keys without a ``session_N`` (ignored), empty session lists (skipped),
turns with ``img_url``/``blip_caption``/``query``/``re-download`` (the caption is indexed with the turn).
Session ids are ``<sample_id>_session_<N>``; turn ids are LoCoMo's ``dia_id`` (``D3:7``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from sodamem.errors import InputError
from sodamem.ingest.formats.common import (
    check_turn_text,
    optional_str,
    parse_time,
    require_list,
    require_mapping,
    require_str,
)
from sodamem.ingest.timestamps import parse_locomo
from sodamem.model import Session, Turn

_SESSION_KEY = re.compile(r"^session_(\d+)$")


def looks_like_locomo(item: Any) -> bool:
    return isinstance(item, Mapping) and "conversation" in item and "sample_id" in item


def parse_locomo_samples(items: list[Any]) -> Iterator[Session]:
    for position, raw in enumerate(items):
        sample = require_mapping(raw, session=None, field=f"item {position}")
        sample_id = require_str(sample, "sample_id", session=None, field=f"item {position}: sample_id")
        yield from parse_locomo_conversation(sample_id, sample.get("conversation"))


def parse_locomo_conversation(sample_id: str, value: Any) -> Iterator[Session]:
    conversation = require_mapping(value, session=sample_id, field="conversation")
    numbers = sorted(int(m.group(1)) for key in conversation if (m := _SESSION_KEY.match(key)))
    for number in numbers:
        session_id = locomo_session_id(sample_id, number)
        key = f"session_{number}"
        raw_turns = require_list(conversation[key], session=session_id, field=key)
        if not raw_turns:
            continue
        time_key = f"{key}_date_time"
        timestamp = parse_time(
            require_str(conversation, time_key, session=session_id), parse_locomo, session=session_id, field=time_key
        )
        turns = tuple(_parse_turn(raw, index, session_id, key) for index, raw in enumerate(raw_turns))
        yield Session(session_id=session_id, timestamp=timestamp, turns=turns, source="locomo")


def locomo_session_id(sample_id: str, number: int) -> str:
    return f"{sample_id}_session_{number}"


def _parse_turn(raw: Any, index: int, session_id: str, key: str) -> Turn:
    field = f"{key}[{index}]"
    turn = require_mapping(raw, session=session_id, field=field)
    speaker = require_str(turn, "speaker", session=session_id, field=f"{field}.speaker")
    text = require_str(turn, "text", session=session_id, field=f"{field}.text", nonempty=False)
    check_turn_text(text, session=session_id, field=f"{field}.text")
    dia_id = require_str(turn, "dia_id", session=session_id, field=f"{field}.dia_id")
    caption = optional_str(turn, "blip_caption", session=session_id, field=f"{field}.blip_caption")
    if caption is not None:
        check_turn_text(caption, session=session_id, field=f"{field}.blip_caption")
    if not text.strip() and not caption:
        raise InputError("turn has neither text nor caption", session=session_id, field=f"{field}.text")
    return Turn(index=index, speaker=speaker, text=text, turn_id=dia_id, caption=caption)
