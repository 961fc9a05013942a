"""Reading a dump: every line validated, every reference resolved, before anything is stored.

Refuses (``InputError`` naming the line and field) what the exporter would not write or the store could not hold
faithfully: malformed JSON, another format or version, unknown or missing fields, a missing ``end`` line (a dump
cut off at a line boundary), references to sessions, turns, pieces, entities or facts the dump lacks, and quotes
that are not the cited turn text.
"""

from __future__ import annotations

import re
from collections.abc import Sized
from pathlib import Path
from typing import IO

from sodamem.dump.fields import LineFields, json_type, whole_number
from sodamem.dump.records import (
    DUMP_FORMAT,
    DUMP_VERSION,
    Dump,
    DumpEntity,
    DumpFact,
    DumpForgotten,
    DumpLink,
    DumpSession,
    DumpSource,
    DumpTurn,
    EntityRef,
    FactRef,
    NodeRef,
    PieceRef,
)
from sodamem.errors import InputError
from sodamem.ingest.formats.common import check_turn_text, json_line
from sodamem.model import FactKind, FactStatus, LinkType, Modality, TimeGranularity
from sodamem.users import check_user_name

RECORD_ORDER = ("session", "entity", "fact", "link", "forgotten", "end")
"""After the header, records come in this order; ``end`` closes the dump."""
_FACT_KEY = re.compile(r"[0-9a-f]{64}")  # store.forget.forgotten_key: a SHA-256 in hex

_FACT_FIELDS = (
    "record",
    "id",
    "session_id",
    "kind",
    "predicate",
    "modality",
    "status",
    "subject",
    "object",
    "polarity",
    "text",
    "mentioned_at",
    "occurred_start",
    "occurred_end",
    "occurred_granularity",
    "occurred_expression",
    "valid_from",
    "valid_to",
    "slot",
    "order_key",
    "sources",
    "roles",
)


def load_dump(source: str | Path | IO[str]) -> Dump:
    """Read and validate a dump file (a path) or text stream."""
    if not isinstance(source, str | Path):
        try:
            return parse_dump(source.read())
        except UnicodeDecodeError as exc:
            raise InputError(f"not valid UTF-8 (byte {exc.start})") from None
    path = Path(source)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", file=str(path)) from None
    try:
        return parse_dump(raw.decode("utf-8-sig"))  # a BOM some editors add is not content
    except UnicodeDecodeError as exc:
        raise InputError(f"not valid UTF-8 (byte {exc.start})", file=str(path)) from None
    except InputError as exc:
        raise exc.with_file(str(path)) from None


def parse_dump(text: str) -> Dump:
    """Validate a whole dump. Lines split on ``\\n`` only: JSON strings may hold U+2028 and its kin unescaped."""
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    if not lines:
        raise InputError("the dump is empty")
    header = LineFields(json_line(lines[0], 1), 1)
    if header.data.get("format") != DUMP_FORMAT:
        raise header.error(f"not a SodaMem dump (expected {DUMP_FORMAT!r})", "format")
    if header.data.get("version") != DUMP_VERSION:
        version = header.data.get("version")
        raise header.error(f"unsupported version {version!r}; this SodaMem reads version {DUMP_VERSION}", "version")
    header.expect("format", "version", "user")
    owner = header.text("user", nonempty=True)
    try:
        check_user_name(owner)
    except InputError as exc:  # the rule of every user name, told with the dump's line
        raise header.error(exc.message, "user") from None
    reader = _Reader(owner)
    for number, line in enumerate(lines[1:], start=2):
        reader.read(LineFields(json_line(line, number), number))
    return reader.finish(len(lines))


class _Reader:
    """The records after the header, in order; each is checked against those before it."""

    def __init__(self, user: str) -> None:
        self.user = user
        self.stage = 0  # RECORD_ORDER index of the latest record kind
        self.sessions: dict[str, DumpSession] = {}
        self.turns: dict[tuple[str, int], DumpTurn] = {}  # by (session_id, turn index)
        self.entities: dict[str, DumpEntity] = {}
        self.keys: set[str] = set()
        self.facts: list[DumpFact] = []
        self.links: list[DumpLink] = []
        self.forgotten: list[DumpForgotten] = []
        self.forgotten_seen: set[DumpForgotten] = set()
        self.end: LineFields | None = None

    def read(self, fields: LineFields) -> None:
        if self.end is not None:
            raise fields.error("a record after the 'end' line")
        kind = fields.data.get("record")
        if kind not in RECORD_ORDER:
            raise fields.error(f"expected one of {', '.join(RECORD_ORDER)}, got {json_type(kind)}", "record")
        stage = RECORD_ORDER.index(kind)
        if stage < self.stage:
            raise fields.error(f"a {kind} record after a {RECORD_ORDER[self.stage]} record", "record")
        self.stage = stage
        if kind == "session":
            self._session(fields)
        elif kind == "entity":
            self._entity(fields)
        elif kind == "fact":
            self.facts.append(self._fact(fields))
        elif kind == "link":
            self._link(fields)
        elif kind == "forgotten":
            self._forgotten(fields)
        else:
            self.end = fields

    def finish(self, line_count: int) -> Dump:
        end = self.end
        if end is None:
            raise InputError(f"no 'end' line: the dump is cut off after line {line_count}")
        counted = ("record", "sessions", "entities", "facts", "links")
        forgot = bool(self.forgotten) or "forgotten" in end.data  # the count is there only when there are some
        end.expect(*counted, *(("forgotten",) if forgot else ()))
        held: dict[str, Sized] = {
            "sessions": self.sessions,
            "entities": self.entities,
            "facts": self.facts,
            "links": self.links,
        }
        if forgot:
            held["forgotten"] = self.forgotten
        for name, rows in held.items():
            if end.integer(name) != len(rows):
                raise end.error(f"says {end.data[name]} but the dump holds {len(rows)}", name)
        return Dump(
            user=self.user,
            sessions=tuple(self.sessions.values()),
            entities=tuple(self.entities.values()),
            facts=tuple(self.facts),
            links=tuple(self.links),
            forgotten=tuple(self.forgotten),
        )

    # -- sessions and entities ------------------------------------------------------------------------------------

    def _session(self, fields: LineFields) -> None:
        fields.expect("record", "session_id", "timestamp", "source", "ingested_at", "next_index", "turns")
        session_id = fields.text("session_id", nonempty=True)
        fields.session = session_id
        if session_id in self.sessions:
            raise fields.error("a second session with this id", "session_id")
        raw_turns = fields.items("turns")
        if not raw_turns:
            raise fields.error("a session needs at least one turn", "turns")
        timestamp = fields.time("timestamp")
        turns = tuple(self._turn(fields.nested(raw, f"turns[{i}]")) for i, raw in enumerate(raw_turns))
        for position in range(1, len(turns)):
            if turns[position].index <= turns[position - 1].index:
                raise fields.error("turn indexes must increase", f"turns[{position}].index")
        self.turns.update(((session_id, turn.index), turn) for turn in turns)
        self.sessions[session_id] = DumpSession(
            session_id=session_id,
            timestamp=timestamp,
            source=fields.text("source"),
            ingested_at=fields.text("ingested_at"),
            turns=turns,
            next_index=fields.integer("next_index"),
        )

    @staticmethod
    def _turn(fields: LineFields) -> DumpTurn:
        fields.expect("index", "turn_id", "speaker", "text", "caption", "timestamp", "pieces")
        text = check_turn_text(fields.text("text"), session=fields.session, field=fields.field("text"))
        pieces = []
        for i, raw in enumerate(fields.items("pieces")):
            error = fields.error_at(f"pieces[{i}]")
            if not (isinstance(raw, list) and len(raw) == 2):
                raise error(f"expected [char_start, char_end], got {json_type(raw)}")
            start, end = whole_number(raw[0], error), whole_number(raw[1], error)
            if not start < end <= len(text):
                raise error(f"[{start}, {end}] is not a span of the turn's {len(text)} characters")
            pieces.append((start, end))
        return DumpTurn(
            index=fields.integer("index"),
            turn_id=fields.text("turn_id"),
            speaker=fields.text("speaker"),
            text=text,
            caption=fields.optional_text("caption"),
            timestamp=fields.optional_time("timestamp"),
            pieces=tuple(pieces),
        )

    def _entity(self, fields: LineFields) -> None:
        fields.expect("record", "name", "type", "aliases", "keys")
        name = fields.text("name", nonempty=True)
        if name in self.entities:
            raise fields.error("a second entity with this name", "name")
        keys = fields.strings("keys")
        for key in keys:
            if key in self.keys:
                raise fields.error(f"key {key!r} already leads to another entity", "keys")
        self.keys.update(keys)
        self.entities[name] = DumpEntity(
            name=name, type=fields.text("type"), aliases=fields.strings("aliases"), keys=keys
        )

    # -- facts and links --------------------------------------------------------------------------------------------

    def _fact(self, fields: LineFields) -> DumpFact:
        fields.expect(*_FACT_FIELDS)
        number = fields.integer("id")
        if number != len(self.facts) + 1:
            raise fields.error(f"facts are numbered 1, 2, ... in order: expected {len(self.facts) + 1}", "id")
        session_id = fields.optional_text("session_id")
        if session_id is not None and session_id not in self.sessions:
            raise fields.error(f"no session {session_id!r} in this dump", "session_id")
        subject = fields.optional_text("subject")
        if subject is not None and subject not in self.entities:
            raise fields.error(f"no entity {subject!r} in this dump", "subject")
        return DumpFact(
            number=number,
            session_id=session_id,
            kind=fields.choice("kind", FactKind),
            predicate=fields.text("predicate"),
            modality=fields.choice("modality", Modality),
            status=fields.choice("status", FactStatus),
            subject=subject,
            object=fields.optional_text("object"),
            polarity=fields.boolean("polarity"),
            text=fields.text("text"),
            mentioned_at=fields.time("mentioned_at"),
            occurred_start=fields.optional_time("occurred_start"),
            occurred_end=fields.optional_time("occurred_end"),
            occurred_granularity=fields.optional_choice("occurred_granularity", TimeGranularity),
            occurred_expression=fields.optional_text("occurred_expression"),
            valid_from=fields.optional_time("valid_from"),
            valid_to=fields.optional_time("valid_to"),
            slot=fields.optional_text("slot"),
            order_key=fields.text("order_key"),
            sources=self._sources(fields),
            roles=self._roles(fields),
        )

    def _sources(self, fields: LineFields) -> tuple[DumpSource, ...]:
        raw_sources = fields.items("sources")
        if not raw_sources:
            raise fields.error("a fact needs at least one literal source", "sources")
        sources: list[DumpSource] = []
        for i, raw in enumerate(raw_sources):
            source = fields.nested(raw, f"sources[{i}]")
            source.expect("piece", "char_start", "char_end", "quote")
            ref = self._piece(source, "piece")
            start, end, quote = source.integer("char_start"), source.integer("char_end"), source.text("quote")
            turn = self.turns[(ref.session_id, ref.turn)]
            piece_start, piece_end = turn.pieces[ref.piece]
            if not piece_start <= start <= end <= piece_end:
                raise source.error(f"[{start}, {end}] is not inside the piece [{piece_start}, {piece_end}]")
            if turn.text[start:end] != quote:
                raise source.error(f"is not the cited text {turn.text[start:end]!r}", "quote")
            cited = DumpSource(ref, start, end, quote)
            if cited in sources:
                raise source.error("the same source twice")
            sources.append(cited)
        return tuple(sources)

    def _roles(self, fields: LineFields) -> tuple[tuple[str, str], ...]:
        roles: list[tuple[str, str]] = []
        for i, raw in enumerate(fields.items("roles")):
            error = fields.error_at(f"roles[{i}]")
            if not (isinstance(raw, list) and len(raw) == 2 and all(isinstance(v, str) for v in raw)):
                raise error(f"expected [role, entity name], got {json_type(raw)}")
            role = (str(raw[0]), str(raw[1]))
            if role[1] not in self.entities:
                raise error(f"no entity {role[1]!r} in this dump")
            if role in roles:
                raise error("the same role twice")
            roles.append(role)
        return tuple(roles)

    def _link(self, fields: LineFields) -> None:
        fields.expect("record", "type", "src", "dst", "created_at")
        self.links.append(
            DumpLink(
                type=fields.choice("type", LinkType),
                src=self._ref(fields, "src"),
                dst=self._ref(fields, "dst"),
                created_at=fields.optional_time("created_at"),
            )
        )

    def _forgotten(self, fields: LineFields) -> None:
        fields.expect("record", "piece", "fact_key")
        key = fields.text("fact_key")
        if not _FACT_KEY.fullmatch(key):
            raise fields.error("expected 64 lower-case hex digits", "fact_key")
        mark = DumpForgotten(self._piece(fields, "piece"), key)
        if mark in self.forgotten_seen:
            raise fields.error("the same forgotten fact twice", "fact_key")
        self.forgotten_seen.add(mark)
        self.forgotten.append(mark)

    def _ref(self, fields: LineFields, key: str) -> NodeRef:
        ref = fields.nested(fields.data.get(key), key)
        if len(ref.data) != 1 or next(iter(ref.data)) not in ("fact", "piece", "entity"):
            raise ref.error('expected {"fact": n}, {"piece": [session_id, turn, piece]} or {"entity": name}')
        if "fact" in ref.data:
            number = ref.integer("fact")
            if not 1 <= number <= len(self.facts):
                raise ref.error(f"no fact {number} in this dump", "fact")
            return FactRef(number)
        if "entity" in ref.data:
            name = ref.text("entity")
            if name not in self.entities:
                raise ref.error(f"no entity {name!r} in this dump", "entity")
            return EntityRef(name)
        return self._piece(ref, "piece")

    def _piece(self, fields: LineFields, key: str) -> PieceRef:
        """A ``[session_id, turn index, piece index]`` naming a piece of this dump."""
        value = fields.data.get(key)
        error = fields.error_at(key)
        if not (isinstance(value, list) and len(value) == 3 and isinstance(value[0], str)):
            raise error(f"expected [session_id, turn index, piece index], got {json_type(value)}")
        session_id, turn, piece = value[0], whole_number(value[1], error), whole_number(value[2], error)
        if session_id not in self.sessions:
            raise error(f"no session {session_id!r} in this dump")
        cited = self.turns.get((session_id, turn))
        if cited is None:
            raise error(f"session {session_id!r} has no turn {turn}")
        if piece >= len(cited.pieces):
            raise error(f"turn {turn} of session {session_id!r} has no piece {piece}")
        return PieceRef(session_id, turn, piece)
