"""Messages as they arrive: appended to a new or stored session in one transaction with their pieces and facts.

Facts made message by message equal those made by ingesting the finished session in one go. With an
``IncrementalExtractor`` (the rules) only the new turns are extracted while the session's context (the names it
shows) is unchanged and no new alias ties two names; otherwise the session's facts are made again from all its
turns. Supersession is recomputed for the slots the new facts touch, never for unrelated subjects.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

from sodamem.errors import MessageConflictError
from sodamem.ingest.extract.base import Extraction, Extractor, IncrementalExtractor
from sodamem.ingest.facts import PreparedSession, prepare_facts, write_facts
from sodamem.ingest.pieces import split_pieces
from sodamem.ingest.pipeline import session_content_hash, session_view
from sodamem.model import Message, MessagePiece, Session, Turn
from sodamem.store.live import StoredTurn
from sodamem.store.write_protocol import Store, Writes

SOURCE = "live"


@dataclass(slots=True)
class AppendResult:
    session_created: bool = False
    turn_pks: list[int] = field(default_factory=list)
    added: list[Turn] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)  # ids of messages already stored with the same content
    fact_ids: list[int] = field(default_factory=list)
    facts_rejected: int = 0
    session_reextracted: bool = False  # the new turns changed the session's context: all its facts were made anew


def append_messages(
    store: Store,
    user: str,
    session_id: str,
    messages: Sequence[Message],
    default_time: datetime,
    extractor: Extractor | None,
) -> AppendResult:
    """Append ``messages`` to the user's session (created if new) in one transaction.

    Turn indexes continue after the session's last one (a forgotten turn leaves its index unused, so citations of
    the others stay true); extraction sees the turns in order, numbered by position."""
    result = AppendResult()
    with store.writing(user) as writes:
        stored = writes.stored_session(user, session_id)
        old = [_turn(t) for t in stored.turns] if stored is not None else []
        session_time = datetime.fromisoformat(stored.timestamp) if stored else messages[0].timestamp or default_time
        first_free = max(old[-1].index + 1 if old else 0, stored.next_index if stored else 0)
        new = _new_turns(session_id, old, first_free, messages, default_time, result)
        if not new:
            return result
        if stored is None:
            session_pk = writes.insert_session_row(user, session_id, session_time.isoformat(), SOURCE, "")
            result.session_created = True
        else:
            session_pk = stored.session_pk
        positional = tuple(replace(t, index=i) for i, t in enumerate((*old, *new)))
        session = Session(session_id, session_time, positional, source=stored.source if stored else SOURCE)
        new_pieces = [split_pieces(t.text) for t in new]
        inserted = writes.insert_turns(user, session_pk, session, new, new_pieces)
        position = {t.index: i for i, t in enumerate((*old, *new))}
        piece_pks = _positional(inserted.piece_pks, position)
        if extractor is not None:
            turn_pks = [t.turn_pk for t in stored.turns] if stored is not None else []
            facts = _FactContext(writes, user, session, session_pk, position, turn_pks)
            _write_facts(facts, len(old), new_pieces, piece_pks, extractor, result)
        writes.set_session_hash(session_pk, session_content_hash(_as_ingested(session)))
        result.turn_pks = inserted.turn_pks
        result.added = new
    return result


@dataclass(frozen=True, slots=True)
class _FactContext:
    writes: Writes
    user: str
    session: Session  # turns numbered by position
    session_pk: int
    position: dict[int, int]  # stored turn index -> position
    turn_pks: list[int]  # of the turns stored before this add, by position


def _positional(pks: dict[tuple[int, int], int], position: dict[int, int]) -> dict[tuple[int, int], int]:
    """``(stored turn index, piece index) -> pk`` keyed by the turn's position instead."""
    return {(position[turn], piece): pk for (turn, piece), pk in pks.items()}


def _new_turns(
    session_id: str,
    old: list[Turn],
    following: int,
    messages: Sequence[Message],
    default_time: datetime,
    result: AppendResult,
) -> list[Turn]:
    """The messages not stored yet, as turns; a known id with the same content is skipped, with other content
    refused."""
    known = {t.turn_id: t for t in old}
    new: list[Turn] = []
    for position, message in enumerate(messages):
        index = following + len(new)
        turn = Turn(
            index=index,
            speaker=message.speaker,
            text=message.text,
            turn_id=message.id or f"{session_id}:{index}",
            timestamp=message.timestamp or default_time,
            caption=message.caption,
        )
        same = known.get(turn.turn_id)
        if same is not None:
            if _same_content(same, turn, message):
                result.unchanged.append(turn.turn_id)
                continue
            raise MessageConflictError(
                "is already stored in this session with other content",
                session=session_id,
                field=f"messages[{position}].id",
            )
        known[turn.turn_id] = turn
        new.append(turn)
    return new


def _same_content(stored: Turn, turn: Turn, message: Message) -> bool:
    same_time = message.timestamp is None or stored.timestamp == message.timestamp
    return (stored.speaker, stored.text, stored.caption) == (turn.speaker, turn.text, turn.caption) and same_time


def _write_facts(
    context: _FactContext,
    first_new: int,
    new_pieces: list[list[MessagePiece]],
    piece_pks: dict[tuple[int, int], int],
    extractor: Extractor,
    result: AppendResult,
) -> None:
    writes, session = context.writes, context.session
    new_indexes = list(range(first_new, len(session.turns)))
    pieces: list[list[MessagePiece]] = [[] for _ in range(first_new)] + new_pieces
    extraction: Extraction | None = None
    stale: set[str] = set()
    if isinstance(extractor, IncrementalExtractor):
        view = session_view(session, pieces)
        before = Session(session.session_id, session.timestamp, session.turns[:first_new])
        redo = list(extractor.stale_turns(session_view(before, pieces[:first_new]), view))
        for index in redo:
            pieces[index] = split_pieces(session.turns[index].text)
        extraction = extractor.extract_turns(session_view(session, pieces), [*redo, *new_indexes])
        if extraction.aliases and first_new > 0:
            extraction = None  # a new alias renames the subjects of earlier facts: make them all again
        elif redo:
            redo_pks = [context.turn_pks[i] for i in redo]
            stale = writes.delete_turn_facts(redo_pks)
            piece_pks = {**piece_pks, **_positional(writes.piece_pks_of_turns(redo_pks), context.position)}
    if extraction is None:
        result.session_reextracted = first_new > 0
        stale = writes.delete_session_facts(context.session_pk)
        pieces = [split_pieces(t.text) for t in session.turns]
        piece_pks = _positional(writes.piece_pks_of_session(context.session_pk), context.position)
        extraction = extractor.extract(session_view(session, pieces))
    prepared: PreparedSession = prepare_facts(session, pieces, extraction)
    result.fact_ids = write_facts(writes, context.user, session, context.session_pk, piece_pks, prepared, stale)
    result.facts_rejected = len(prepared.rejected)


def _turn(row: StoredTurn) -> Turn:
    return Turn(row.index, row.speaker, row.text, row.turn_id, datetime.fromisoformat(row.timestamp), row.caption)


def _as_ingested(session: Session) -> Session:
    """The session as a file would give it: a turn said at the session's own time carries no time of its own, so
    that ingesting the finished session later is recognised as identical."""
    turns = tuple(
        Turn(
            t.index, t.speaker, t.text, t.turn_id, None if t.timestamp == session.timestamp else t.timestamp, t.caption
        )
        for t in session.turns
    )
    return Session(session.session_id, session.timestamp, turns, source="generic")
