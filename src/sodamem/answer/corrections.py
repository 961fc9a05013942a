"""A time read from a sentence, as the speaker corrected it: "I hurt my knee on Thursday." / "Sorry, it was
Wednesday, not Thursday." dates the injury Wednesday (the corrections are those the rules extractor reads, see
``sodamem.ingest.extract.rules_corrections``)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta

from sodamem import instants
from sodamem.answer.types import AnswerCitation
from sodamem.ingest.extract.base import SessionView, TurnView
from sodamem.ingest.extract.rules_coref import NO_FACT_SPEAKERS
from sodamem.ingest.extract.rules_corrections import (
    BARE_DAY,
    REACH,
    Correction,
    as_time,
    find_corrections,
    previous_piece,
    said_in_time,
)
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
    for c, correcting, before in _corrections_after(memory, user, session_id, turn_index, time.expression):
        # a time alone ("No wait, it's the 22nd") corrects the sentence right before it
        alone = c.time_only and time.expression in before
        if c.new is None or not (alone or (c.old is not None and said_in_time(time.expression, c.old))):
            continue
        new = c.new if c.time_only else as_time(c.new)
        anchor = parse_iso(correcting.timestamp)
        if new is None or anchor is None:
            continue
        # the correction keeps the slip's direction (compared as instants: one may be naive, the other not)
        future = instants.sort_key(time.start) > instants.sort_key(correcting.timestamp)
        in_month = _day_in_month_of(new, time)  # "the 15th of august, sorry, the 22nd": the 22nd of August
        if in_month is not None:
            return CorrectedTime(in_month, correcting, c)
        found = find_times(new, anchor, future=future)
        if found:
            spec = found[0].spec
            resolved = ResolvedTime(spec.expression, spec.start.isoformat(), spec.end.isoformat())
            return CorrectedTime(resolved, correcting, c)
    return None


def _day_in_month_of(new: str, old: ResolvedTime) -> ResolvedTime | None:
    """A day of the month said alone to correct a day ("the 22nd"), in the corrected day's month and year."""
    m = BARE_DAY.match(new)
    was = parse_iso(old.start)
    ends = parse_iso(old.end)
    if m is None or was is None or ends is None or ends - was > timedelta(days=1):
        return None
    try:
        day = was.replace(day=int(m["n"]))
    except ValueError:  # "the 31st" of a shorter month
        return None
    return ResolvedTime(new.strip(), day.isoformat(), (day + timedelta(days=1)).isoformat())


@dataclass(frozen=True, slots=True)
class CorrectedSentence:
    """The words that correct a sentence: the correction's own sentence, where an answer is read instead."""

    text: str  # the correcting sentence ("Max is a basset hound, not a beagle.")
    start: int  # its offset in the correcting turn
    turn: TurnRecord
    correction: Correction

    def citation(self) -> AnswerCitation:
        turn, end = self.turn, self.start + len(self.text)
        where = (turn.session_id, turn.turn_index, turn.turn_id)
        return AnswerCitation("", *where, self.start, end, self.text, turn.timestamp)


def corrected_sentence(
    memory: Memory, user: str, session_id: str, turn_index: int, sentence: str
) -> CorrectedSentence | None:
    """The speaker's correction of a value ``sentence`` says ("I got a dog, a beagle called Max." / "Correction: Max
    is a basset hound, not a beagle."), in the next ``REACH`` turns, or None. Only a correction naming the old value
    counts ("I meant York" alone may correct another sentence)."""
    for c, correcting, _ in _corrections_after(memory, user, session_id, turn_index, sentence):
        if c.old is None or c.time_only or not _says_word(sentence, c.old):
            continue
        for piece in split_pieces(correcting.text):
            if piece.char_start <= c.char_start < piece.char_end:
                return CorrectedSentence(piece.text, piece.char_start, correcting, c)
    return None


def _corrections_after(
    memory: Memory, user: str, session_id: str, turn_index: int, said: str
) -> list[tuple[Correction, TurnRecord, str]]:
    """The corrections the speaker of turn ``turn_index`` said after ``said`` in that turn and the next ``REACH``
    turns of the session, latest first, each with the speaker's sentence right before it."""
    session = memory.session(session_id, user=user, window=(turn_index, turn_index + REACH))  # not a long session
    turns = {t.turn_index: t for t in session.turns}
    turn = turns.get(turn_index)
    began = parse_iso(session.timestamp)
    if turn is None or began is None:
        return []
    at = turn.text.find(said)
    near = [t for t in session.turns if turn_index <= t.turn_index <= turn_index + REACH and t.speaker == turn.speaker]
    views = tuple(TurnView(t.turn_index, t.turn_id, t.speaker, t.text, tuple(split_pieces(t.text))) for t in near)
    view = SessionView(session_id, began, views)
    found = [
        c
        for c in find_corrections(view, frozenset(NO_FACT_SPEAKERS))
        if (c.turn_index, c.char_start) > (turn_index, at)
    ]
    return [(c, turns[c.turn_index], _piece_text(view, previous_piece(view, c))) for c in reversed(found)]


def _piece_text(view: SessionView, where: tuple[int, int] | None) -> str:
    if where is None:
        return ""
    turn = next(t for t in view.turns if t.index == where[0])
    return next(p.text for p in turn.pieces if p.index == where[1])


def _says_word(sentence: str, words: str) -> bool:
    bare = re.sub(r"^(?:the|a|an)\s+", "", words.strip(), flags=re.IGNORECASE)
    return re.search(rf"(?<!\w){re.escape(bare)}(?!\w)", sentence, re.IGNORECASE) is not None


_NOT_OLD = re.compile(r",\s*not\s+(?P<old>[^,.;:!?]+?)\s*(?:[,.;:!?]|$)", re.IGNORECASE)


def says_instead_of(later: str, earlier: str) -> bool:
    """Whether ``later`` says "..., not <old>" of a value ``earlier`` said ("Max is a basset hound, not a beagle"
    of "a beagle called Max"): a correction said in another session, without a correcting word."""
    return any(_says_word(earlier, m["old"]) for m in _NOT_OLD.finditer(later))
