"""Messages as they arrive: appended to a new or stored session in one transaction with their pieces and facts.

Facts made message by message equal those made by ingesting the finished session in one go. With an
``IncrementalExtractor`` (the rules) only the new turns are extracted while the session's context (the names it
shows) is unchanged and no new alias ties two names; otherwise the session's facts are made again from all its
turns. Supersession is recomputed for the slots the new facts touch, never for unrelated subjects.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

from sodamem.errors import InputError, MessageConflictError
from sodamem.ingest.extract.base import Extractor, IncrementalExtractor
from sodamem.ingest.facts import PreparedSession, prepare_facts, write_facts
from sodamem.ingest.formats.common import free_turn_id
from sodamem.ingest.pieces import split_pieces
from sodamem.ingest.pipeline import session_content_hash, session_view
from sodamem.ingest.seen_sessions import SeenSessions
from sodamem.model import Message, MessagePiece, Session, Turn
from sodamem.store.live import SessionChanged, StoredSession, StoredTurn
from sodamem.store.turn_writes import InsertedTurns
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
    seen_sessions: SeenSessions | None = None,
) -> AppendResult:
    """Append ``messages`` to the user's session (created if new) in one transaction.

    Turn indexes continue after the session's last one (a forgotten turn leaves its index unused, so citations of
    the others stay true); extraction sees the turns in order, numbered by position.

    What to write (the new turns, their pieces, the extracted facts) is worked out before the write lock, from the
    session as stored then (or as this process's last add left it, ``seen_sessions``): the user's other writers
    (other processes adding to other sessions) do not wait for the extraction. Under the lock the session is read
    again (or, on PostgreSQL, checked by the server without waiting for it); if another writer changed it meanwhile,
    the work is done again on what is stored now, so the outcome is that of adds one after the other."""
    remembered = seen_sessions.get(user, session_id) if seen_sessions is not None else None
    seen = remembered if remembered is not None else store.stored_session(user, session_id)
    try:
        plan: _Plan | None = _plan(seen, session_id, messages, default_time, extractor)
    except MessageConflictError:
        plan = None  # raised, or not, under the lock, on the session as it is then
    if plan is not None and not plan.new:
        if remembered is None:
            return AppendResult(unchanged=plan.unchanged)  # every message stored already: nothing to write
        plan = None  # decided on the session as stored, not as remembered
    # A plan made from a session seen is checked under the lock rather than the session read again, where the store
    # does that without waiting for its server (``Writes.session_as_seen``); if the check fails, nothing was written
    # and the session is read under the lock.
    check = plan is not None and seen is not None
    try:
        while True:
            try:
                with store.writing(user) as writes:
                    if check and seen is not None:
                        stored = writes.session_as_seen(user, session_id, seen)
                    else:
                        stored = writes.stored_session(user, session_id)
                    if plan is None or stored != seen:
                        plan = _plan(stored, session_id, messages, default_time, extractor)
                    result = AppendResult(unchanged=plan.unchanged)
                    written = _write(writes, user, stored, plan, result) if plan.new else None
                break
            except SessionChanged:
                if not check:
                    raise
                check = False
    except BaseException:
        if seen_sessions is not None:
            seen_sessions.drop(user, session_id)
        raise
    if written is not None:
        session_pk, inserted = written
        result.turn_pks = inserted.turn_pks  # read after the commit: a store may send the insert without waiting
        if seen_sessions is not None:
            seen_sessions.put(user, session_id, _as_stored(stored, session_pk, plan, result.turn_pks))
    return result


def _as_stored(stored: StoredSession | None, session_pk: int, plan: _Plan, turn_pks: list[int]) -> StoredSession:
    """The session as an add left it (what ``stored_session`` would read now): ``stored`` and the new turns."""
    new = tuple(
        StoredTurn(
            pk, t.index, t.turn_id, t.speaker, t.text, t.caption, (t.timestamp or plan.session.timestamp).isoformat()
        )
        for pk, t in zip(turn_pks, plan.new, strict=True)
    )
    if stored is None:
        return StoredSession(session_pk, plan.session.timestamp.isoformat(), SOURCE, new, 0)
    return replace(stored, turns=stored.turns + new)


@dataclass(frozen=True, slots=True)
class _Facts:
    """The extraction's outcome for an add."""

    prepared: PreparedSession
    redo: list[int]  # positions of earlier turns whose facts are made again
    whole: bool  # every fact of the session is made again


@dataclass(frozen=True, slots=True)
class _Plan:
    """What an add writes, worked out from the session as stored (pure: no store access)."""

    new: list[Turn]
    unchanged: list[str]
    first_new: int  # position of the first new turn
    session: Session  # every turn, numbered by position
    position: dict[int, int]  # stored turn index -> position
    new_pieces: list[list[MessagePiece]]
    facts: _Facts | None
    content_hash: str  # of the session as a file would give it


def _plan(
    stored: StoredSession | None,
    session_id: str,
    messages: Sequence[Message],
    default_time: datetime,
    extractor: Extractor | None,
) -> _Plan:
    old = [_turn(t) for t in stored.turns] if stored is not None else []
    session_time = datetime.fromisoformat(stored.timestamp) if stored else messages[0].timestamp or default_time
    first_free = max(old[-1].index + 1 if old else 0, stored.next_index if stored else 0)
    unchanged: list[str] = []
    new = _new_turns(session_id, old, first_free, messages, default_time, unchanged)
    positional = tuple(replace(t, index=i) for i, t in enumerate((*old, *new)))
    session = Session(session_id, session_time, positional, source=stored.source if stored else SOURCE)
    new_pieces = [split_pieces(t.text) for t in new]
    facts = _extract(session, len(old), new_pieces, extractor) if extractor is not None and new else None
    return _Plan(
        new,
        unchanged,
        len(old),
        session,
        {t.index: i for i, t in enumerate((*old, *new))},
        new_pieces,
        facts,
        session_content_hash(_as_ingested(session)) if new else "",
    )


def _extract(session: Session, first_new: int, new_pieces: list[list[MessagePiece]], extractor: Extractor) -> _Facts:
    """The new turns' facts (and those of earlier turns they shed light on), or the whole session's again."""
    # Earlier turns are read too, not extracted: a new turn's "she" may name the sister of the message before.
    pieces = [split_pieces(t.text) for t in session.turns[:first_new]] + new_pieces
    redo: list[int] = []
    if isinstance(extractor, IncrementalExtractor):
        view = session_view(session, pieces)
        before = Session(session.session_id, session.timestamp, session.turns[:first_new])
        redo = list(extractor.stale_turns(session_view(before, pieces[:first_new]), view))
        new_indexes = range(first_new, len(session.turns))
        extraction = extractor.extract_turns(session_view(session, pieces), [*redo, *new_indexes])
        # a new alias renames the subjects of earlier facts: make them all again
        if not (extraction.aliases and first_new > 0):
            return _Facts(prepare_facts(session, pieces, extraction), redo, whole=False)
    pieces = [split_pieces(t.text) for t in session.turns]
    extraction = extractor.extract(session_view(session, pieces))
    return _Facts(prepare_facts(session, pieces, extraction), [], whole=True)


def _write(
    writes: Writes, user: str, stored: StoredSession | None, plan: _Plan, result: AppendResult
) -> tuple[int, InsertedTurns]:
    """The plan's rows, inside the add's transaction (``stored``: the session the plan was made from); the session's
    id, and the new turns' ids, read only where facts need them."""
    session = plan.session
    if stored is None:
        session_pk = writes.insert_session_row(user, session.session_id, session.timestamp.isoformat(), SOURCE, "")
        result.session_created = True
    else:
        session_pk = stored.session_pk
    inserted = writes.insert_turns(user, session_pk, session, plan.new, plan.new_pieces)
    if plan.facts is not None:
        # the new pieces' ids only where facts cite them, and read only when a fact row is made: on PostgreSQL the
        # read then shares its wait for the server with the facts' entity read sent before it
        piece_pks: Mapping[tuple[int, int], int] = (
            _PieceIdsLater(inserted, plan.position) if plan.facts.prepared.facts else {}
        )
        stale: set[str] = set()
        reread: list[int] = []  # pieces stored before whose facts are made again
        if plan.facts.whole:
            result.session_reextracted = plan.first_new > 0
            stale = writes.delete_session_facts(session_pk)
            piece_pks = _positional(writes.piece_pks_of_session(session_pk), plan.position)
            reread = [pk for (position, _), pk in piece_pks.items() if position < plan.first_new]
        elif plan.facts.redo:
            turn_pks = [t.turn_pk for t in stored.turns] if stored is not None else []
            redo_pks = [turn_pks[i] for i in plan.facts.redo]
            stale = writes.delete_turn_facts(redo_pks)
            redone = _positional(writes.piece_pks_of_turns(redo_pks), plan.position)
            piece_pks, reread = {**piece_pks, **redone}, list(redone.values())
        prepared = plan.facts.prepared
        result.fact_ids = write_facts(writes, user, session, session_pk, piece_pks, prepared, stale, reread)
        result.facts_rejected = len(plan.facts.prepared.rejected)
    writes.set_session_hash(session_pk, plan.content_hash)
    result.added = plan.new
    return session_pk, inserted


class _PieceIdsLater(Mapping[tuple[int, int], int]):
    """The new pieces' ids by ``(turn position, piece index)``, read from ``inserted`` when first looked up."""

    def __init__(self, inserted: InsertedTurns, position: dict[int, int]) -> None:
        self._inserted = inserted
        self._position = position
        self._ids: dict[tuple[int, int], int] | None = None

    def _read(self) -> dict[tuple[int, int], int]:
        if self._ids is None:
            self._ids = _positional(self._inserted.piece_pks, self._position)
        return self._ids

    def __getitem__(self, key: tuple[int, int]) -> int:
        return self._read()[key]

    def __iter__(self) -> Iterator[tuple[int, int]]:
        return iter(self._read())

    def __len__(self) -> int:
        return len(self._read())


def _positional(pks: dict[tuple[int, int], int], position: dict[int, int]) -> dict[tuple[int, int], int]:
    """``(stored turn index, piece index) -> pk`` keyed by the turn's position instead."""
    return {(position[turn], piece): pk for (turn, piece), pk in pks.items()}


def _new_turns(
    session_id: str,
    old: list[Turn],
    following: int,
    messages: Sequence[Message],
    default_time: datetime,
    unchanged: list[str],
) -> list[Turn]:
    """The messages not stored yet, as turns; a known id with the same content is skipped, with other content
    refused."""
    known = {t.turn_id: t for t in old}
    # a default id steps past stored ids and the batch's own, wherever they come in it
    taken = set(known) | {m.id for m in messages if m.id is not None}
    seen: set[str] = set()
    new: list[Turn] = []
    for position, message in enumerate(messages):
        index = following + len(new)
        turn = Turn(
            index=index,
            speaker=message.speaker,
            text=message.text,
            turn_id=message.id or free_turn_id(session_id, index, taken),
            timestamp=message.timestamp or default_time,
            caption=message.caption,
        )
        if turn.turn_id in seen:  # the batch itself gives the id twice, stored or not
            raise InputError(
                f"duplicate message id {turn.turn_id!r} in this batch", session=session_id,
                field=f"messages[{position}].id",
            )  # fmt: skip
        seen.add(turn.turn_id)
        taken.add(turn.turn_id)
        same = known.get(turn.turn_id)
        if same is not None:
            if _same_content(same, turn, message):
                unchanged.append(turn.turn_id)
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
