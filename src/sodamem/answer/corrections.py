"""A time read from a sentence, as the speaker corrected it: "I hurt my knee on Thursday." / "Sorry, it was
Wednesday, not Thursday." dates the injury Wednesday (the corrections are those the rules extractor reads, see
``sodamem.ingest.extract.rules_corrections``)."""

from __future__ import annotations

from dataclasses import dataclass

from sodamem.answer.types import AnswerCitation
from sodamem.ingest.extract.base import SessionView, TurnView
from sodamem.ingest.extract.rules_coref import NO_FACT_SPEAKERS
from sodamem.ingest.extract.rules_corrections import REACH, Correction, as_time, find_corrections, said_in_time
from sodamem.ingest.pieces import split_pieces
from sodamem.ingest.timeparse import find_times
from sodamem.memory import Memory
from sodamem.records import TurnRecord
from sodamem.retrieve.pack import ResolvedTime
from sodamem.retrieve.temporal import parse_iso


@dataclass(frozen=True, slots=True)
class CorrectedTime:
    time: ResolvedTime  # the corrected time, resolved on the correcting turn's time
    turn: TurnRecord  # the correcting turn
    correction: Correction

    def citation(self) -> AnswerCitation:
        """The correcting words, cited (outside the evidence pack: no evidence id)."""
        turn, said = self.turn, self.correction
        end = said.char_start + len(said.quote)
        return AnswerCitation(
            "", turn.session_id, turn.turn_index, turn.turn_id, said.char_start, end, said.quote, turn.timestamp
        )


def corrected_time(
    memory: Memory, user: str, session_id: str, turn_index: int, time: ResolvedTime
) -> CorrectedTime | None:
    """The speaker's correction of ``time``, said in ``turn_index`` of ``session_id``, in the next ``REACH`` turns
    (the same turn too, after it), or None."""
    session = memory.session(session_id, user=user)
    turns = {t.turn_index: t for t in session.turns}
    said = turns.get(turn_index)
    began = parse_iso(session.timestamp)
    if said is None or began is None:
        return None
    at = said.text.find(time.expression)
    near = [t for t in session.turns if turn_index <= t.turn_index <= turn_index + REACH and t.speaker == said.speaker]
    views = tuple(TurnView(t.turn_index, t.turn_id, t.speaker, t.text, tuple(split_pieces(t.text))) for t in near)
    view = SessionView(session_id, began, views)
    for c in reversed(find_corrections(view, frozenset(NO_FACT_SPEAKERS))):
        if (c.turn_index, c.char_start) <= (turn_index, at) or c.new is None:
            continue
        if not (c.time_only or (c.old is not None and said_in_time(time.expression, c.old))):
            continue
        new = c.new if c.time_only else as_time(c.new)
        correcting = turns[c.turn_index]
        anchor = parse_iso(correcting.timestamp)
        if new is None or anchor is None:
            continue
        future = (parse_iso(time.start) or anchor) > anchor  # the correction keeps the slip's direction
        found = find_times(new, anchor, future=future)
        if found:
            spec = found[0].spec
            resolved = ResolvedTime(spec.expression, spec.start.isoformat(), spec.end.isoformat())
            return CorrectedTime(resolved, correcting, c)
    return None
