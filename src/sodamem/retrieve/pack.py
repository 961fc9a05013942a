"""Evidence packs: ranked evidence cut to a token budget, grouped by session in time order, for an LLM to read.

``build_pack`` keeps items in rank order while they fit (an item that does not fit is skipped; smaller later ones
may still fit); the cost of an item is the tokens of its rendered line, plus its session's header when it is the
first kept item of that session, so ``count_tokens(pack.render_text()) <= budget_tokens`` for any counter that adds
up over lines. The kept items are then shown by session (sessions by time, items by turn index).

Relative time words in an item's text are resolved against the item's own timestamp by the ingestion time module
and shown beside the words: ``I went there yesterday [yesterday = 2023-06-08]``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta
from typing import Any, Literal, NamedTuple

from sodamem import instants
from sodamem.ingest.timeparse import find_times
from sodamem.retrieve.temporal import calendar_unit, parse_iso

EvidenceKind = Literal["turn", "fact"]
_ABSOLUTE = re.compile(r"\b(?:19|20)\d\d\b")  # an expression naming its year needs no resolving


class ResolvedTime(NamedTuple):
    expression: str  # the words as they stand in the text
    start: str  # ISO 8601, inclusive
    end: str  # ISO 8601, exclusive


def resolve_times(text: str, timestamp: str) -> tuple[ResolvedTime, ...]:
    """The relative time expressions of ``text`` resolved against ``timestamp`` (ISO); absolute dates are left out."""
    anchor = parse_iso(timestamp)
    if anchor is None:
        return ()
    return tuple(
        ResolvedTime(m.spec.expression, m.spec.start.isoformat(), m.spec.end.isoformat())
        for m in find_times(text, anchor)
        if not _ABSOLUTE.search(m.spec.expression)
    )


@dataclass(frozen=True, slots=True)
class EvidenceItem:
    """One piece of evidence with its citation. ``resolved=None`` (the default) resolves the text's time words."""

    id: str  # "E1", "E2", ... as the reader cites it
    kind: EvidenceKind
    session_id: str
    turn_index: int
    turn_id: str
    speaker: str
    char_start: int
    char_end: int
    timestamp: str  # ISO 8601: when it was said
    text: str
    score: float
    status: str | None = None  # a fact's status (active, superseded, invalid); None for turns
    resolved: tuple[ResolvedTime, ...] | None = None
    tunnels: tuple[str, ...] = ()
    occurred_start: str | None = None  # a fact's occurrence interval [start, end), ISO
    occurred_end: str | None = None
    session_timestamp: str | None = None  # the session's start, for ordering; defaults to the item's timestamp
    caption: str | None = None  # a turn's image caption: shown on its line, as search matched it (never cited)

    def __post_init__(self) -> None:
        if self.resolved is None:
            object.__setattr__(self, "resolved", resolve_times(self.text, self.timestamp))

    @property
    def times(self) -> tuple[ResolvedTime, ...]:
        return self.resolved or ()

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["resolved"] = [list(r) for r in self.times]
        data["tunnels"] = list(self.tunnels)
        return data

    def render(self, *, line_dates: bool = False) -> str:
        """The item's line in the text block. ``line_dates``: the line names the day it was said instead of its
        turn (``[E1] Caroline (said 2023-06-09): ...``), so a reader need not look up its session's header."""
        body = _with_resolved(_one_line(self.text), self.times)
        where = f"said {format_day(self.timestamp)}" if line_dates else None
        if self.kind == "fact":
            line = f"[{self.id}] fact ({self.status or 'active'}): {body}"
            if self.occurred_start:
                occurred = format_span(self.occurred_start, self.occurred_end)
                line += f" — occurred {occurred}"
            return line + f" ({where or f'source {self.turn_id}'})"
        shared = f" [image: {_one_line(self.caption)}]" if self.caption else ""
        return f"[{self.id}] {self.speaker} ({where or f'turn {self.turn_id}'}): {body}{shared}"


@dataclass(frozen=True, slots=True)
class SessionGroup:
    session_id: str
    timestamp: str
    items: tuple[EvidenceItem, ...]

    def header(self) -> str:
        return session_header(self.session_id, self.timestamp)

    def to_dict(self) -> dict[str, Any]:
        return {
            "session_id": self.session_id,
            "timestamp": self.timestamp,
            "items": [item.to_dict() for item in self.items],
        }


@dataclass(frozen=True, slots=True)
class EvidencePack:
    sessions: tuple[SessionGroup, ...]
    budget_tokens: int
    used_tokens: int  # the kept lines and headers, as counted by build_pack's counter
    skipped: tuple[str, ...] = field(default=())  # ids left out for the budget (or repeated), in rank order
    line_dates: bool = False  # each line names the day it was said (``EvidenceItem.render``)

    @property
    def items(self) -> tuple[EvidenceItem, ...]:
        """The kept items in reading order (by session, then turn)."""
        return tuple(item for group in self.sessions for item in group.items)

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(item.id for item in self.items)

    def get(self, item_id: str) -> EvidenceItem | None:
        return next((item for item in self.items if item.id == item_id), None)

    def to_dict(self) -> dict[str, Any]:
        return {
            "budget_tokens": self.budget_tokens,
            "used_tokens": self.used_tokens,
            "skipped": list(self.skipped),
            "sessions": [group.to_dict() for group in self.sessions],
        }

    def render_text(self) -> str:
        """The block an LLM reads: a header per session, one line per item, a blank line between sessions."""
        blocks = [
            "\n".join([group.header(), *(item.render(line_dates=self.line_dates) for item in group.items)])
            for group in self.sessions
        ]
        return "\n\n".join(blocks)


def build_pack(
    items: Sequence[EvidenceItem],
    budget_tokens: int,
    count_tokens: Callable[[str], int],
    *,
    line_dates: bool = False,
) -> EvidencePack:
    """Keep ``items`` (best first) while they fit ``budget_tokens``, then group them by session in time order;
    ``line_dates``: lines name the day they were said (and are counted so)."""
    kept: list[EvidenceItem] = []
    skipped: list[str] = []
    seen_ids: set[str] = set()
    headers: dict[str, str] = {}  # session id -> its header, from the session's first-ranked item
    used = 0
    for item in items:
        if item.id in seen_ids:
            skipped.append(item.id)
            continue
        cost = count_tokens(item.render(line_dates=line_dates))
        header = None
        if item.session_id not in headers:
            header = session_header(item.session_id, _session_time(item))
            cost += count_tokens(header)
        if used + cost > budget_tokens:
            skipped.append(item.id)
            continue
        used += cost
        seen_ids.add(item.id)
        kept.append(item)
        if header is not None:
            headers[item.session_id] = header
    return EvidencePack(_group(kept), budget_tokens, used, tuple(skipped), line_dates)


def _group(items: list[EvidenceItem]) -> tuple[SessionGroup, ...]:
    by_session: dict[str, list[EvidenceItem]] = {}
    for item in items:
        by_session.setdefault(item.session_id, []).append(item)
    groups = []
    for session_id, members in by_session.items():
        members.sort(key=lambda i: (i.turn_index, i.kind != "turn", i.char_start, _id_key(i.id)))
        groups.append(SessionGroup(session_id, _session_time(members[0]), tuple(members)))
    groups.sort(key=lambda g: (_sort_time(g.timestamp), g.timestamp, g.session_id))
    return tuple(groups)


def _session_time(item: EvidenceItem) -> str:
    return item.session_timestamp or item.timestamp


def _sort_time(value: str) -> datetime:
    """A naive sort key (aware times as UTC wall clock); unparsable times sort last."""
    return instants.sort_key(value, unknown=datetime.max)


def _id_key(item_id: str) -> tuple[int, str]:
    digits = "".join(ch for ch in item_id if ch.isdigit())
    return (int(digits) if digits else 0, item_id)


def session_header(session_id: str, timestamp: str) -> str:
    return f"[Session {session_id} — {format_time(timestamp)}]"


def format_time(value: str) -> str:
    """``2023-06-09T14:00:00`` -> ``2023-06-09 14:00`` (with its UTC offset when it has one); else as given."""
    parsed = parse_iso(value)
    if parsed is None:
        return value
    text = parsed.strftime("%Y-%m-%d %H:%M")
    return f"{text} {parsed.strftime('%z')}" if parsed.tzinfo is not None else text


def format_day(value: str) -> str:
    """``2023-06-09T14:00:00`` -> ``2023-06-09``; unparsable values as given."""
    parsed = parse_iso(value)
    return parsed.strftime("%Y-%m-%d") if parsed is not None else value


def format_span(start: str, end: str | None) -> str:
    """A readable interval: a day (``2023-06-08``), a month (``2023-06``), a year (``2023``) or ``a..b`` (inclusive)."""
    first = parse_iso(start)
    after = parse_iso(end) if end else None
    if first is None:
        return start
    if after is None or after <= first:
        return first.strftime("%Y-%m-%d") if _midnight(first) else first.strftime("%Y-%m-%d %H:%M")
    last = after - timedelta(microseconds=1)
    if first.date() == last.date():
        return first.strftime("%Y-%m-%d")
    if _midnight(first) and _midnight(after):
        unit = calendar_unit(first, after)
        if unit == "month":
            return first.strftime("%Y-%m")
        if unit == "year":
            return f"{first.year}"
        return f"{first:%Y-%m-%d}..{last:%Y-%m-%d}"
    return f"{first:%Y-%m-%d %H:%M}..{after:%Y-%m-%d %H:%M}"


def _midnight(value: datetime) -> bool:
    return (value.hour, value.minute, value.second, value.microsecond) == (0, 0, 0, 0)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _with_resolved(text: str, resolved: tuple[ResolvedTime, ...]) -> str:
    """``text`` with ``[expression = date]`` after each resolved expression (at the end when it is not found)."""
    out: list[str] = []
    tail: list[str] = []
    position = 0
    for r in resolved:
        note = f" [{r.expression} = {format_span(r.start, r.end)}]"
        expression = _one_line(r.expression)
        found = re.compile(rf"(?<!\w){re.escape(expression)}(?!\w)").search(text, position) if expression else None
        if found is None:
            tail.append(note)
            continue
        stop = found.end()
        out.append(text[position:stop] + note)
        position = stop
    out.append(text[position:])
    return "".join(out) + "".join(tail)
