"""Raw ingestion: validated Sessions -> MessagePieces -> the store, one transaction per session.

Conflicts are checked for every session before the first write, so a refused file leaves the store unchanged.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence

from sodamem.errors import InputError, SessionConflictError
from sodamem.ingest.extract.base import Extractor, SessionView, TurnView
from sodamem.ingest.facts import PreparedSession, prepare_facts, write_facts
from sodamem.ingest.formats.common import check_encodable, check_time, check_turn_text
from sodamem.ingest.pieces import split_pieces
from sodamem.model import MessagePiece, Session
from sodamem.records import IngestReport
from sodamem.store.write_protocol import Store, Writes

ProgressCallback = Callable[[int, int], None]
"""Called as ``progress(done, total)`` after each session."""


def session_content_hash(session: Session) -> str:
    """A digest of everything stored from a session (not its user), to recognise identical re-ingests."""
    payload = {
        "session_id": session.session_id,
        "timestamp": session.timestamp.isoformat(),
        "source": session.source,
        "turns": [
            [t.index, t.speaker, t.text, t.turn_id, t.timestamp.isoformat() if t.timestamp else None, t.caption]
            for t in session.turns
        ],
    }
    encoded = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return hashlib.sha256(encoded).hexdigest()


def ingest_sessions(
    store: Store,
    sessions: Sequence[tuple[str, Session]],
    *,
    replace: bool = False,
    progress: ProgressCallback | None = None,
    extractor: Extractor | None = None,
) -> IngestReport:
    """Store ``(user, session)`` pairs; identical sessions already stored are skipped."""
    report = IngestReport(users=sorted({user for user, _ in sessions}))
    planned: list[tuple[str, Session, str, bool]] = []
    seen: set[tuple[str, str]] = set()
    for user, session in sessions:
        _check_session(session)
        if (user, session.session_id) in seen:
            raise InputError("duplicate session id in one ingest", session=session.session_id, field="session_id")
        seen.add((user, session.session_id))
        digest = session_content_hash(session)
        stored = store.session_hash(user, session.session_id)
        if stored == digest:
            report.sessions_unchanged += 1
            continue
        if stored is not None and not replace:
            raise SessionConflictError(
                "already stored with different content (use replace=True / --replace to overwrite it)",
                session=session.session_id,
            )
        planned.append((user, session, digest, stored is not None))
    total = len(sessions)
    done = report.sessions_unchanged
    if progress is not None:
        progress(done, total)
    for user, session, digest, exists in planned:
        pieces = [split_pieces(turn.text) for turn in session.turns]
        prepared = PreparedSession()
        if extractor is not None:
            extraction = extractor.extract(session_view(session, pieces))
            prepared = prepare_facts(session, pieces, extraction)
        writer = _FactWriter(user, session, prepared)
        store.write_session(user, session, pieces, digest, replace=exists, then=writer)
        report.facts_added += len(writer.written)
        report.fact_ids.extend(writer.written)
        report.facts_rejected += len(prepared.rejected)
        report.rejections.extend(f"{session.session_id}: {reason}" for reason in prepared.rejected[:20])
        if exists:
            report.sessions_replaced += 1
        else:
            report.sessions_added += 1
        report.turns_added += len(session.turns)
        report.pieces_added += sum(len(p) for p in pieces)
        report.session_ids.append(session.session_id)
        done += 1
        if progress is not None:
            progress(done, total)
    return report


def _check_session(session: Session) -> None:
    """The importers' checks, repeated for Session objects built by hand."""
    if not session.session_id:
        raise InputError("is empty", session=session.session_id, field="session_id")
    check_encodable(session.session_id, session=None, field="session_id")
    if not session.turns:
        raise InputError("a session needs at least one turn", session=session.session_id, field="turns")
    check_time(session.timestamp, session=session.session_id, field="timestamp")
    for position, turn in enumerate(session.turns):
        if turn.timestamp is not None:
            check_time(turn.timestamp, session=session.session_id, field=f"turns[{position}].timestamp")
        if turn.index != position:
            raise InputError(
                f"turn index {turn.index} at position {position}", session=session.session_id, field="turns"
            )
        check_turn_text(turn.text, session=session.session_id, field=f"turns[{position}].text")
        for name in ("speaker", "turn_id", "caption"):
            value = getattr(turn, name)
            if value is not None:
                check_encodable(value, session=session.session_id, field=f"turns[{position}].{name}")


def session_view(session: Session, pieces: Sequence[Sequence[MessagePiece]]) -> SessionView:
    turns = tuple(
        TurnView(index=t.index, turn_id=t.turn_id, speaker=t.speaker, text=t.text, pieces=tuple(p))
        for t, p in zip(session.turns, pieces, strict=True)
    )
    return SessionView(
        session_id=session.session_id,
        timestamp=session.timestamp,
        turns=turns,
        participants=tuple(dict.fromkeys(t.speaker for t in session.turns)),
    )


class _FactWriter:
    """Writes a session's prepared facts inside the session's transaction (a ``SessionWriteHook``)."""

    def __init__(self, user: str, session: Session, prepared: PreparedSession) -> None:
        self.user, self.session, self.prepared = user, session, prepared
        self.written: list[int] = []

    def __call__(self, writes: Writes, session_pk: int, piece_pks: dict[tuple[int, int], int], stale: set[str]) -> None:
        self.written = write_facts(writes, self.user, self.session, session_pk, piece_pks, self.prepared, stale)
