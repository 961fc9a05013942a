"""Reads of one user's stored rows by their ids (sessions, turns, pieces, facts and a fact's slot), as records.

A view of the memory at a past time (``Memory.at``) passes its ``cutoff``: rows said later are not found, and facts
are as they stood then (a fact replaced only later is active, with no end).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sodamem.errors import AmbiguousIdError, InputError, NotFoundError
from sodamem.instants import require_time
from sodamem.records import Citation, FactRecord, PieceRecord, SessionRecord, SessionSummary, TurnRecord
from sodamem.retrieve.cutoff import facts_seen_at, said_by
from sodamem.store.protocol import is_row_id
from sodamem.store.rows import PieceRow, TurnRow
from sodamem.store.write_protocol import Store

FACT_STATUSES = ("active", "superseded", "invalid", "all")


@dataclass(frozen=True, slots=True)
class Lookups:
    """``owner``'s rows in ``store``, as seen at ``cutoff`` (None: as they are now)."""

    store: Store
    owner: str
    cutoff: datetime | None = None

    def session(self, session_id: str, window: tuple[int, int] | None = None) -> SessionRecord:
        row = self.store.session_row(self.owner, session_id)
        if row is None:
            raise NotFoundError(f"no session {session_id!r} for user {self.owner!r}")
        first, last = window if window is not None else (0, 1 << 62)
        turns = self.store.session_turns(self.owner, row.session_pk, first, last)
        if self.cutoff is not None:
            turns = [t for t in turns if said_by(t.timestamp, self.cutoff)]
            if not turns:
                raise NotFoundError(f"no session {session_id!r} for user {self.owner!r} at {self.cutoff.isoformat()}")
        return SessionRecord(
            session_id=session_id,
            user=self.owner,
            timestamp=row.timestamp,
            source=row.source,
            turns=self.turn_records(turns),
        )

    def sessions(self) -> list[SessionSummary]:
        summaries = self.store.session_summaries(self.owner)
        return summaries if self.cutoff is None else [s for s in summaries if said_by(s.timestamp, self.cutoff)]

    def turn(self, turn_id: str, session_id: str | None = None) -> TurnRecord:
        if session_id is not None and not session_id.strip():
            raise InputError("is empty: name the session, or leave it out", field="session_id")
        rows = self.store.turns_by_turn_id(self.owner, turn_id, session_id)
        if self.cutoff is not None:
            rows = [r for r in rows if said_by(r.timestamp, self.cutoff)]
        if not rows:
            raise NotFoundError(f"no turn {turn_id!r} for user {self.owner!r}")
        if len(rows) > 1:
            sessions = ", ".join(r.session_id for r in rows[:10])
            raise AmbiguousIdError(f"turn id {turn_id!r} exists in several sessions ({sessions}); name the session")
        return self.turn_records(rows)[0]

    def piece(self, piece_ref: str, session_id: str | None = None) -> PieceRecord:
        if piece_ref.isascii() and piece_ref.isdigit():  # "٤" is a digit to Python, no id to anyone
            pk = int(piece_ref)
            row = self.store.pieces_by_pk(self.owner, [pk]).get(pk) if is_row_id(pk) else None
            turn = self.store.turns_by_pk(self.owner, [row.turn_pk])[row.turn_pk] if row is not None else None
            if row is None or turn is None or (self.cutoff is not None and not said_by(turn.timestamp, self.cutoff)):
                raise NotFoundError(f"no piece {piece_ref} for user {self.owner!r}")
            return piece_record(row, turn)
        turn_id, sep, index = piece_ref.rpartition("#")
        if not sep or not (index.isascii() and index.isdigit()):
            raise NotFoundError(f"a piece id is '<turn_id>#<index>' or a number, not {piece_ref!r}")
        for piece in self.turn(turn_id, session_id).pieces:
            if piece.index == int(index):
                return piece
        raise NotFoundError(f"turn {turn_id!r} has no piece {index}")

    def facts(self, status: str, as_of: datetime | None, subject: str | None) -> list[FactRecord]:
        if status not in FACT_STATUSES:
            raise InputError(f"unknown status {status!r}: active, superseded, invalid or all", field="status")
        if as_of is not None:
            require_time(as_of, "as_of")
        if self.cutoff is None:
            return self.store.query_facts(self.owner, status=status, as_of=as_of, subject=subject)
        # the facts said by then, each as it stood then; a status is theirs then (Leeds was active in March)
        every = self.store.query_facts(self.owner, status="all")
        found = (
            every
            if as_of is None and subject is None
            else self.store.query_facts(
                self.owner, status="all" if as_of is None else status, as_of=as_of, subject=subject
            )
        )
        seen = facts_seen_at(every, self.cutoff, found)
        return seen if status == "all" or as_of is not None else [f for f in seen if f.status == status]

    def fact(self, fact_id: int) -> FactRecord:
        record = self.store.fact_by_id(self.owner, fact_id) if is_row_id(fact_id) else None
        if record is not None and self.cutoff is not None:
            every = self.store.query_facts(self.owner, status="all")
            record = next(iter(facts_seen_at(every, self.cutoff, [record])), None)
        if record is None:
            raise NotFoundError(f"no fact {fact_id} for user {self.owner!r}")
        return record

    def history(self, fact_id: int) -> list[FactRecord]:
        chain = self.store.slot_history(self.owner, fact_id) if is_row_id(fact_id) else []
        if self.cutoff is not None:  # the slot as it stood then; a fact said later is not found
            chain = facts_seen_at(self.store.query_facts(self.owner, status="all"), self.cutoff, chain)
            chain = chain if any(f.id == fact_id for f in chain) else []
        if not chain:
            raise NotFoundError(f"no fact {fact_id} for user {self.owner!r}")
        return chain

    def turn_records(self, turns: list[TurnRow]) -> tuple[TurnRecord, ...]:
        pieces = self.store.pieces_of_turns(self.owner, [t.turn_pk for t in turns])
        return tuple(
            TurnRecord(
                session_id=t.session_id,
                turn_index=t.index,
                turn_id=t.turn_id,
                speaker=t.speaker,
                text=t.text,
                timestamp=t.timestamp,
                caption=t.caption,
                pieces=tuple(piece_record(p, t) for p in pieces.get(t.turn_pk, [])),
            )
            for t in turns
        )


def piece_record(piece: PieceRow, turn: TurnRow) -> PieceRecord:
    return PieceRecord(
        piece_pk=piece.piece_pk,
        index=piece.index,
        char_start=piece.char_start,
        char_end=piece.char_end,
        text=piece.text,
        citation=Citation(
            session_id=turn.session_id,
            turn_index=turn.index,
            turn_id=turn.turn_id,
            speaker=turn.speaker,
            char_start=piece.char_start,
            char_end=piece.char_end,
            timestamp=turn.timestamp,
        ),
    )
